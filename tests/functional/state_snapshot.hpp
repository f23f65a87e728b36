// Test helper: every piece of state a faulting block must leave unchanged
// (Local tiles with payloads and definedness, Shared records, a memory window,
// the capacity charges), captured before and compared after.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "functional/functional_model.hpp"

namespace ptovp::testing {

struct StateSnapshot {
  std::vector<std::string> local;   // per register: descriptor, mask, payloads, definedness
  std::vector<std::string> shared;  // per record: descriptor, masks, publication, payload
  std::vector<std::uint8_t> memory;
  std::uint64_t local_in_use = 0;
  std::uint64_t shared_in_use = 0;

  bool operator==(const StateSnapshot& other) const {
    return local == other.local && shared == other.shared && memory == other.memory &&
           local_in_use == other.local_in_use && shared_in_use == other.shared_in_use;
  }
};

// `memory_bytes` from `memory_base` are compared (the tests' data window).
inline StateSnapshot snapshot(const functional::FunctionalModel& model,
                              std::uint64_t memory_base = 0, std::uint64_t memory_bytes = 0x10000) {
  StateSnapshot s;
  for (unsigned i = 0; i < arch::kLocalTileCount; ++i) {
    const arch::LocalTile& tile = model.local_tiles().at(i);
    std::string text;
    if (tile.allocated()) {
      const std::uint32_t bytes = tile.info().capacity_bytes;
      text = tile.info().describe() + " mask " + arch::mask_string(tile.allocation_mask());
      for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
        if (arch::pe_selected(tile.allocation_mask(), pe))
          text.append(reinterpret_cast<const char*>(tile.payload(pe)), bytes);
      }
      const std::uint32_t slots = bytes * 8 / arch::element_bits(tile.info().data_type);
      for (std::uint32_t slot = 0; slot < slots; ++slot)
        text.push_back(tile.slot_defined(slot) ? 'd' : 'u');
    }
    s.local.push_back(std::move(text));
  }
  for (unsigned id = 0; id < arch::kSharedTileCount; ++id) {
    const arch::SharedTile& record = model.shared_tiles().at(id);
    std::string text;
    if (record.descriptor_valid) {
      text = record.info.describe() + " alloc " + arch::mask_string(record.allocation_mask) +
             " init " + arch::mask_string(record.initialized_mask) +
             (record.published ? " published" : "") + (record.contents_defined ? " defined" : "");
      text.append(record.payload.begin(), record.payload.end());
    }
    s.shared.push_back(std::move(text));
  }
  s.memory.resize(memory_bytes);
  EXPECT_FALSE(model.memory().read(memory_base, s.memory.data(), memory_bytes));
  s.local_in_use = model.local_tiles().capacity_in_use();
  s.shared_in_use = model.shared_tiles().capacity_in_use();
  return s;
}

}  // namespace ptovp::testing

#include "fabric/fabric.hpp"

#include <fmt/format.h>

#include "arch/pe_mask.hpp"

namespace ptovp::fabric {

using arch::FaultCode;
using arch::make_fault;
using arch::mask_string;
using arch::SharedTile;

namespace {

arch::Fault illegal(std::string reason) {
  return make_fault(FaultCode::TileLegality, std::move(reason));
}

bool compatible(const TileInfo& a, const TileInfo& b) {
  return a.capacity_bytes == b.capacity_bytes && a.rows == b.rows && a.columns == b.columns &&
         a.valid_rows == b.valid_rows && a.valid_columns == b.valid_columns &&
         a.data_type == b.data_type && a.layout == b.layout && a.location == b.location;
}

}  // namespace

unsigned Fabric::quarter(const TileInfo& tile, std::uint32_t slot) {
  const std::uint64_t byte = std::uint64_t{slot} * arch::element_bits(tile.data_type) / 8;
  return static_cast<unsigned>(byte * 4 / tile.capacity_bytes);
}

std::uint64_t Fabric::undefined_value(unsigned id, std::uint32_t slot, DataType type) {
  const unsigned bits = arch::element_bits(type);
  const std::uint64_t word = std::uint64_t{id} ^ slot;
  return bits == 64 ? word : word & ((std::uint64_t{1} << bits) - 1);
}

std::uint64_t Fabric::read_slot(unsigned id, const TileInfo& view, std::uint32_t slot) const {
  const SharedTile& record = tiles_.at(id);
  if (!record.descriptor_valid ||
      !arch::pe_selected(record.initialized_mask, quarter(record.info, slot))) {
    return undefined_value(id, slot, view.data_type);
  }
  return arch::read_slot(record.payload.data(), record.info.data_type, slot);
}

bool Fabric::descriptor_legal(unsigned id) const {
  const SharedTile& record = tiles_.at(id);
  return record.descriptor_valid && record.info.allocated && record.allocation_mask != 0 &&
         (record.initialized_mask & ~record.allocation_mask) == 0 &&
         !arch::is_cube(record.info.layout);
}

bool Fabric::fully_initialized(unsigned id) const {
  const SharedTile& record = tiles_.at(id);
  return record.descriptor_valid && record.initialized_mask == record.allocation_mask &&
         record.contents_defined;
}

bool Fabric::published(unsigned id) const {
  return fully_initialized(id) && tiles_.at(id).published;
}

MaybeFault Fabric::check_cooperative_ready(unsigned id) const {
  const SharedTile& record = tiles_.at(id);
  const char* failed = nullptr;
  if (!descriptor_legal(id)) {
    failed = "descriptor not legal";
  } else if (record.allocation_mask != arch::kAllPes) {
    failed = "allocation_mask";
  } else if (record.initialized_mask != arch::kAllPes) {
    failed = "initialized_mask";
  } else if (!record.published) {
    failed = "not published";
  } else if (!record.contents_defined) {
    failed = "contents undefined";
  }
  if (!failed) return std::nullopt;
  return illegal(fmt::format(
      "Shared S{} not CooperativeMatrixReady: {} (allocation_mask={} initialized_mask={} "
      "published={})",
      id, failed, mask_string(record.allocation_mask), mask_string(record.initialized_mask),
      record.published ? 1 : 0));
}

MaybeFault Fabric::check_whole_parent_ready(unsigned id) const {
  if (descriptor_legal(id) && published(id)) return std::nullopt;
  const SharedTile& record = tiles_.at(id);
  return illegal(fmt::format(
      "Shared S{} not ready: descriptor_valid={} allocation_mask={} initialized_mask={} "
      "published={}",
      id, record.descriptor_valid ? 1 : 0, mask_string(record.allocation_mask),
      mask_string(record.initialized_mask), record.published ? 1 : 0));
}

MaybeFault Fabric::check_update(unsigned id, const TileInfo& tile, std::uint8_t mask,
                                std::uint64_t local_in_use, std::uint64_t limit) const {
  if (mask == 0) return std::nullopt;
  if (arch::is_cube(tile.layout)) {
    return illegal(
        fmt::format("Shared S{} cannot hold the CUBE layout {}", id, arch::name(tile.layout)));
  }
  if (!arch::capacity_legal(tile.capacity_bytes, arch::kMaxSharedCapacity)) {
    return illegal(
        fmt::format("Shared S{} capacity {} B is not a legal TSize", id, tile.capacity_bytes));
  }
  const SharedTile& record = tiles_.at(id);
  if (record.descriptor_valid) {
    if ((mask & ~record.allocation_mask) != 0) {
      return illegal(fmt::format("Shared S{} write mask {} exceeds allocation_mask {}", id,
                                 mask_string(mask), mask_string(record.allocation_mask)));
    }
    if (!compatible(record.info, tile)) {
      return illegal(fmt::format("Shared S{} holds {}, the write supplies {}", id,
                                 record.info.describe(), tile.describe()));
    }
    return std::nullopt;
  }
  const arch::CapacityConfig& capacity = tiles_.capacity();
  if (capacity.model == arch::CapacityModel::Pools) {
    // The mask selects quarters; it does not multiply the Shared charge.
    const std::uint64_t in_use = tiles_.capacity_in_use();
    if (in_use + tile.capacity_bytes > capacity.shared_pool_bytes) {
      return illegal(fmt::format("Shared S{} pool: {} B in use + {} B requested > {} B", id, in_use,
                                 tile.capacity_bytes, capacity.shared_pool_bytes));
    }
    return std::nullopt;
  }
  const std::uint64_t in_use = local_in_use + tiles_.capacity_in_use();
  const std::uint64_t request = std::uint64_t{arch::pe_count(mask)} * tile.capacity_bytes;
  if (in_use + request > limit) {
    return illegal(
        fmt::format("Shared S{} capacity: {} B in use + {} x {} B requested > TILE_CAPACITY {}", id,
                    in_use, arch::pe_count(mask), tile.capacity_bytes, limit));
  }
  return std::nullopt;
}

MaybeFault Fabric::check_publish(unsigned id, std::uint8_t mask) const {
  const SharedTile& record = tiles_.at(id);
  if (!record.descriptor_valid || (record.initialized_mask | mask) == record.allocation_mask) {
    return std::nullopt;
  }
  return illegal(fmt::format(
      "PUBLISH of Shared S{} leaves quarters uninitialized: initialized_mask={} | mask={} != "
      "allocation_mask={}",
      id, mask_string(record.initialized_mask), mask_string(mask),
      mask_string(record.allocation_mask)));
}

void Fabric::update(unsigned id, const TileInfo& tile, const std::uint8_t* staged,
                    std::uint8_t mask, bool publish) {
  if (mask == 0) return;
  SharedTile& record = tiles_.at(id);
  if (!record.descriptor_valid) {
    record.descriptor_valid = true;
    record.allocation_mask = mask;
    record.initialized_mask = mask;
    record.published = publish;
    record.contents_defined = true;
    record.info = tile;
    record.payload.assign(staged, staged + tile.capacity_bytes);
    return;
  }
  for (std::uint32_t row = 0; row < tile.valid_rows; ++row) {
    for (std::uint32_t col = 0; col < tile.valid_columns; ++col) {
      const std::uint32_t slot = arch::storage_index(tile, row, col);
      if (arch::pe_selected(mask, quarter(tile, slot))) {
        arch::write_slot(record.payload.data(), tile.data_type, slot,
                         arch::read_slot(staged, tile.data_type, slot));
      }
    }
  }
  record.initialized_mask = static_cast<std::uint8_t>(record.initialized_mask | mask);
  record.contents_defined = record.initialized_mask == record.allocation_mask;
  record.published = record.published || (publish && record.contents_defined);
}

Expected<TileInfo> Fabric::read_view(unsigned id, std::uint32_t valid_rows,
                                     std::uint32_t valid_columns, std::uint32_t columns,
                                     DataType type, Layout layout,
                                     std::optional<std::uint32_t> capacity) const {
  if (arch::is_cube(layout)) {
    return illegal(fmt::format("Shared S{} cannot be read as {}", id, arch::name(layout)));
  }
  const SharedTile& record = tiles_.at(id);
  if (record.descriptor_valid) {
    const TileInfo& held = record.info;
    if (!descriptor_legal(id) || (capacity && *capacity != held.capacity_bytes) ||
        held.columns != columns || valid_rows > held.valid_rows ||
        valid_columns > held.valid_columns || held.data_type != type || held.layout != layout) {
      return illegal(fmt::format("Shared S{} holds {}; the block reads {} {} {} cols (valid {}x{})",
                                 id, held.describe(), numeric::name(type), arch::name(layout),
                                 columns, valid_rows, valid_columns));
    }
    TileInfo view = held;
    view.valid_rows = valid_rows;
    view.valid_columns = valid_columns;
    view.location = arch::Location::Any;
    return view;
  }
  // Unallocated Sx: a temporary read-only descriptor of the requested shape.
  for (std::uint32_t size = arch::kCellBytes; size <= arch::kMaxSharedCapacity; size *= 2) {
    if (capacity && size != *capacity) continue;
    auto view = arch::make_ordinary_tile(size, columns, valid_rows, valid_columns, type, layout,
                                         arch::Location::Any, arch::kMaxSharedCapacity);
    if (view) return view;
    if (capacity) return view.fault();
  }
  return illegal(fmt::format("no Shared capacity holds {} {} {} cols (valid {}x{})",
                             numeric::name(type), arch::name(layout), columns, valid_rows,
                             valid_columns));
}

}  // namespace ptovp::fabric

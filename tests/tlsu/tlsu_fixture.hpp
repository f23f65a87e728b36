// A core's TLSU with memory, Local and Shared tiles, and block builders that
// stand in for the block builder (back-door setup as the AVS tests do).
#pragma once

#include <vector>

#include "arch/block_descriptor.hpp"
#include "arch/local_tile_file.hpp"
#include "fabric/fabric.hpp"
#include "memory/memory.hpp"
#include "tlsu/tlsu.hpp"

namespace ptovp::tlsu::test {

using arch::BlockDescriptor;
using arch::DataType;
using arch::TlsuFunction;

inline constexpr std::uint64_t kCapacity = 262144;

inline BlockDescriptor block(TlsuFunction function, DataType type) {
  BlockDescriptor b;
  b.kind = arch::BlockKind::TileMemory;
  b.operation_valid = true;
  b.operation_class = arch::OperationClass::Tlsu;
  b.function = static_cast<unsigned>(function);
  b.data_type = numeric::code(type);
  return b;
}

inline void dims(BlockDescriptor& b, std::uint64_t lb0, std::uint64_t lb1, std::uint64_t lb2 = 0) {
  b.dims[0] = {true, lb0};
  b.dims[1] = {true, lb1};
  if (lb2 != 0) b.dims[2] = {true, lb2};
}

inline void datr(BlockDescriptor& b, unsigned layout, unsigned pad = 0) {
  b.datr.present = true;
  b.datr.layout = layout;
  b.datr.pad = pad;
}

inline void destination(BlockDescriptor& b, unsigned hand, unsigned size_code,
                        std::uint8_t mask = arch::kAllPes) {
  arch::TileBinding t;
  t.has_destination = true;
  t.destination_hand = static_cast<std::uint8_t>(hand);
  t.size_code = static_cast<std::uint8_t>(size_code);
  t.pe_mask = mask;
  t.last = true;
  b.tiles[b.tile_count++] = t;
}

// A source B.IOT; with `hand`/`size_code` it is the 1-source + destination form.
inline void source(BlockDescriptor& b, unsigned code, std::uint8_t mask = arch::kAllPes,
                   int hand = -1, unsigned size_code = 0) {
  arch::TileBinding t;
  t.source_count = 1;
  t.source[0] = static_cast<std::uint8_t>(code);
  t.pe_mask = mask;
  t.last = true;
  if (hand >= 0) {
    t.has_destination = true;
    t.destination_hand = static_cast<std::uint8_t>(hand);
    t.size_code = static_cast<std::uint8_t>(size_code);
  }
  b.tiles[b.tile_count++] = t;
}

inline void shared(BlockDescriptor& b, unsigned id, unsigned size_code,
                   std::uint8_t mask = arch::kAllPes) {
  b.shared[b.shared_count++] = {static_cast<std::uint8_t>(id), static_cast<std::uint8_t>(size_code),
                                mask};
}

// B.IOR R1, R2 resolved per PE.
inline void ior(BlockDescriptor& b, const std::uint64_t (&base)[4], std::uint64_t stride) {
  b.ior.valid = true;
  b.ior.source = {1, 2, 0};
  for (unsigned pe = 0; pe < 4; ++pe)
    b.ior_values[pe] = {base[pe], stride, 0};
}
inline void ior(BlockDescriptor& b, std::uint64_t base, std::uint64_t stride) {
  const std::uint64_t bases[4] = {base, base, base, base};
  ior(b, bases, stride);
}

struct Core {
  explicit Core(arch::TileNaming naming = arch::TileNaming::Asl) : local(naming) {}

  memory::Memory memory{0, 1 << 20};
  arch::LocalTileFile local;
  arch::SharedTileFile shared_file;
  fabric::Fabric fabric{shared_file};
  Tlsu tlsu{memory, local, fabric};

  arch::MaybeFault run(const BlockDescriptor& b) { return tlsu.execute(b, kCapacity); }
  void fill(std::uint64_t address, std::uint64_t length, std::uint8_t seed) {
    for (std::uint64_t i = 0; i < length; ++i) {
      memory.direct(address + i, 1)[0] = static_cast<std::uint8_t>(seed + i * 7 + (i >> 8));
    }
  }
  std::vector<std::uint8_t> bytes() const {
    const std::uint8_t* p = memory.direct(0, memory.size());
    return {p, p + memory.size()};
  }
  std::uint64_t capacity_in_use() const {
    return local.capacity_in_use() + shared_file.capacity_in_use();
  }
};

}  // namespace ptovp::tlsu::test

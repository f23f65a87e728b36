// The Shared tile registers S0..S255 of one core (SharedTileInfo): one
// TSize-byte logical tile split into four fixed byte quarters, quarter q owned
// by PE q. The semantics of writes, publication and reads live in
// modules/fabric; this is the storage and its capacity charge.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "arch/capacity.hpp"
#include "arch/tile_info.hpp"

namespace ptovp::arch {

inline constexpr unsigned kSharedTileCount = 256;

struct SharedTile {
  bool descriptor_valid = false;
  std::uint8_t allocation_mask = 0;   // fixed by the first non-zero-mask write
  std::uint8_t initialized_mask = 0;  // quarters written so far
  bool published = false;
  bool contents_defined = false;
  TileInfo info;
  std::vector<std::uint8_t> payload;  // capacity_bytes of storage slots
};

class SharedTileFile {
 public:
  explicit SharedTileFile(CapacityConfig capacity = {}) : capacity_(capacity) {}

  void reset();
  const SharedTile& at(unsigned id) const { return tiles_[id]; }
  SharedTile& at(unsigned id) { return tiles_[id]; }
  const CapacityConfig& capacity() const { return capacity_; }
  // The charge of the valid records: TSize each in the Shared pool (Pools),
  // popcount(allocation_mask) x TSize each against TILE_CAPACITY (Aggregate).
  std::uint64_t capacity_in_use() const;

 private:
  CapacityConfig capacity_;
  std::array<SharedTile, kSharedTileCount> tiles_;
};

}  // namespace ptovp::arch

// The 64 Local tile registers in four hands (T 0..15, U 16..31, M 32..47,
// N 48..63) and their naming (platform choice D1):
//  - Asl (default): a source code is the absolute TileIndex; a destination takes
//    the lowest free register of its hand; registers are freed only by
//    rollback or reset, as the executable spec does.
//  - Queue: a source code names hand#position (code % 16 = 0 is the newest
//    destination of that hand); a 17th live destination retires the oldest.
// Allocation is planned first (hand, capacity) and committed only after the
// whole block's preflight, so a fault changes nothing.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "arch/capacity.hpp"
#include "arch/fault.hpp"
#include "arch/local_tile.hpp"
#include "arch/shared_tile_file.hpp"

namespace ptovp::arch {

inline constexpr unsigned kLocalTileCount = 64;
inline constexpr unsigned kHandSize = 16;

class DataQueue;

enum class TileNaming : std::uint8_t { Asl, Queue };

struct AllocationPlan {
  unsigned index = 0;               // register the destination takes
  std::optional<unsigned> retires;  // queue mode: the oldest register it frees
};

class LocalTileFile {
 public:
  explicit LocalTileFile(TileNaming naming = TileNaming::Asl,
                         CapacityModel capacity = CapacityModel::Pools);

  void reset();
  // Deferred data work that may still use a register's payload: commit() and
  // release() wait for it before they change the register (nullptr: none).
  void use_data_queue(DataQueue* queue) { queue_ = queue; }
  TileNaming naming() const { return naming_; }
  CapacityModel capacity_model() const { return capacity_; }

  const LocalTile& at(unsigned index) const { return tiles_[index]; }
  // Payload access; a register's descriptor and mask change only through
  // commit() and release(), which keep the pool totals.
  LocalTile& at(unsigned index) { return tiles_[index]; }

  // The register a 6-bit source code names, or TileLegality naming the code
  // when it names nothing allocated.
  Expected<unsigned> resolve_source(unsigned code) const;
  // The source name firmware uses for register `index` now, as the assembler
  // spells it ("N#1"); under queue naming its queue position, else its code.
  std::string source_name(unsigned index) const;

  // Where a destination of `mask` x `capacity_bytes` in `hand` would go.
  // `limit` is TILE_CAPACITY: the per-PE Local pool (Pools) or the core total
  // (Aggregate), where `other_in_use`, the Shared charge, competes too.
  // TileAllocation when the hand is full (Asl) or a pool would overflow.
  Expected<AllocationPlan> plan(unsigned hand, std::uint8_t mask, std::uint32_t capacity_bytes,
                                std::uint64_t other_in_use, std::uint64_t limit) const;
  // The same with `shared`'s charge as `other_in_use`, summed only where it
  // counts (Aggregate): the units' allocations, once per block.
  Expected<AllocationPlan> plan(unsigned hand, std::uint8_t mask, std::uint32_t capacity_bytes,
                                const SharedTileFile& shared, std::uint64_t limit) const;
  // Applies a plan: retires (queue mode) and installs the descriptor
  // (LocalTile::install).
  LocalTile& commit(const AllocationPlan& plan, const TileInfo& info, std::uint8_t mask,
                    bool overwritten = false);
  // Frees a register (block rollback).
  void release(unsigned index);

  // Sum of popcount(mask) x TSize over the allocated registers (TileCapacityInUse).
  std::uint64_t capacity_in_use() const;
  // PE `pe`'s Local pool in use (TileCapacityInUseForPE).
  std::uint64_t capacity_in_use(unsigned pe) const;

 private:
  // Takes register `index` out of its hand's queue order.
  void leave_hand(unsigned index);
  // Adds a register's charge to the pool totals, or removes it.
  void account(const LocalTile& tile, bool add);
  TileNaming naming_;
  CapacityModel capacity_;
  std::array<LocalTile, kLocalTileCount> tiles_;
  // Queue mode: per hand, live registers newest first.
  std::array<std::vector<unsigned>, 4> order_;
  // capacity_in_use() and capacity_in_use(pe), kept as registers are
  // committed and released rather than summed over the file per allocation.
  std::uint64_t in_use_ = 0;
  std::array<std::uint64_t, kPeCount> pool_in_use_{};
  DataQueue* queue_ = nullptr;
};

}  // namespace ptovp::arch

#include "arch/local_tile_file.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "arch/data_queue.hpp"
#include "isa/operand_names.hpp"
#include "numeric/pooled_memory.hpp"

namespace ptovp::arch {

namespace {

// One huge page: the tile storage of typical programs (docs/performance.md).
constexpr std::size_t kPrefaultedTileStorage = std::size_t{2} << 20;

std::uint64_t charge(const LocalTile& tile) {
  return tile.allocated()
             ? std::uint64_t{pe_count(tile.allocation_mask())} * tile.info().capacity_bytes
             : 0;
}

// What `tile` (nullptr: none) charges PE `pe`'s Local pool.
std::uint64_t pool_charge(const LocalTile* tile, unsigned pe) {
  return tile != nullptr && tile->allocated() && pe_selected(tile->allocation_mask(), pe)
             ? tile->info().capacity_bytes
             : 0;
}

}  // namespace

LocalTileFile::LocalTileFile(TileNaming naming, CapacityModel capacity)
    : naming_(naming), capacity_(capacity) {
  numeric::prefault_pooled_memory(kPrefaultedTileStorage);
}

void LocalTileFile::reset() {
  if (queue_ != nullptr) queue_->drain();
  for (LocalTile& tile : tiles_)
    tile.release();
  for (auto& hand : order_)
    hand.clear();
  in_use_ = 0;
  pool_in_use_ = {};
}

Expected<unsigned> LocalTileFile::resolve_source(unsigned code) const {
  const unsigned hand = (code / kHandSize) & 3;
  const unsigned position = code % kHandSize;
  if (naming_ == TileNaming::Queue) {
    if (position < order_[hand].size()) return order_[hand][position];
    return make_fault(
        FaultCode::TileLegality,
        fmt::format("source {} names no live tile: hand {} holds {}", isa::tile_source_name(code),
                    isa::tile_hand_letter(hand), order_[hand].size()));
  }
  const unsigned index = code % kLocalTileCount;
  if (tiles_[index].allocated()) return index;
  return make_fault(FaultCode::TileLegality,
                    fmt::format("source tile {} is not allocated", isa::tile_source_name(index)));
}

std::string LocalTileFile::source_name(unsigned index) const {
  const unsigned hand = (index / kHandSize) & 3;
  if (naming_ == TileNaming::Queue) {
    const auto& queue = order_[hand];
    const auto found = std::find(queue.begin(), queue.end(), index);
    if (found != queue.end()) {
      return isa::tile_source_name(hand * kHandSize + static_cast<unsigned>(found - queue.begin()));
    }
    return fmt::format("{}{} (not in the queue)", isa::tile_hand_letter(hand), index % kHandSize);
  }
  return isa::tile_source_name(index);
}

Expected<AllocationPlan> LocalTileFile::plan(unsigned hand, std::uint8_t mask,
                                             std::uint32_t capacity_bytes,
                                             std::uint64_t other_in_use,
                                             std::uint64_t limit) const {
  AllocationPlan result;
  if (naming_ == TileNaming::Queue && order_[hand].size() == kHandSize) {
    result.retires = order_[hand].back();
  }
  bool found = false;
  for (unsigned i = hand * kHandSize; i < (hand + 1) * kHandSize && !found; ++i) {
    if (!tiles_[i].allocated() || (result.retires && *result.retires == i)) {
      result.index = i;
      found = true;
    }
  }
  if (!found) {
    return make_fault(FaultCode::TileAllocation,
                      fmt::format("hand {} has no free register (all {} allocated)",
                                  isa::tile_hand_letter(hand), kHandSize));
  }
  // The retiring register's charge is freed by the same allocation.
  const LocalTile* retiring = result.retires ? &tiles_[*result.retires] : nullptr;
  if (capacity_ == CapacityModel::Pools) {
    // TileCapacityInUseForPE, less what the retiring register frees.
    for (unsigned pe = 0; pe < kPeCount; ++pe) {
      if (!pe_selected(mask, pe)) continue;
      const std::uint64_t in_use = pool_in_use_[pe] - pool_charge(retiring, pe);
      if (in_use + capacity_bytes > limit) {
        return make_fault(FaultCode::TileAllocation,
                          fmt::format("PE{} Local pool: {} B in use + {} B requested > "
                                      "TILE_CAPACITY {}",
                                      pe, in_use, capacity_bytes, limit));
      }
    }
    return result;
  }
  const std::uint64_t request = std::uint64_t{pe_count(mask)} * capacity_bytes;
  const std::uint64_t in_use =
      capacity_in_use() - (retiring ? charge(*retiring) : 0) + other_in_use;
  if (in_use + request > limit) {
    return make_fault(FaultCode::TileAllocation,
                      fmt::format("capacity: {} B in use + {} x {} B requested > TILE_CAPACITY {}",
                                  in_use, pe_count(mask), capacity_bytes, limit));
  }
  return result;
}

Expected<AllocationPlan> LocalTileFile::plan(unsigned hand, std::uint8_t mask,
                                             std::uint32_t capacity_bytes,
                                             const SharedTileFile& shared,
                                             std::uint64_t limit) const {
  const bool aggregate = capacity_ == CapacityModel::Aggregate;
  return plan(hand, mask, capacity_bytes, aggregate ? shared.capacity_in_use() : 0, limit);
}

LocalTile& LocalTileFile::commit(const AllocationPlan& plan, const TileInfo& info,
                                 std::uint8_t mask, bool overwritten) {
  // A register that retires into itself keeps its payloads' storage
  // (install() reuses storage of the same size): with a worker, each PE's
  // payload then stays in the cache of the thread that computes that PE.
  if (plan.retires == plan.index) {
    leave_hand(plan.index);
  } else if (plan.retires) {
    release(*plan.retires);
  }
  if (queue_ != nullptr) queue_->before_tile_change(plan.index);
  LocalTile& tile = tiles_[plan.index];
  account(tile, false);  // a register that retires into itself
  tile.install(info, mask, overwritten);
  account(tile, true);
  if (naming_ == TileNaming::Queue) {
    auto& hand = order_[plan.index / kHandSize];
    hand.insert(hand.begin(), plan.index);
  }
  return tile;
}

void LocalTileFile::release(unsigned index) {
  if (queue_ != nullptr) queue_->before_tile_change(index);
  account(tiles_[index], false);
  tiles_[index].release();
  leave_hand(index);
}

void LocalTileFile::account(const LocalTile& tile, bool add) {
  auto apply = [add](std::uint64_t& total, std::uint64_t bytes) {
    total = add ? total + bytes : total - bytes;
  };
  apply(in_use_, charge(tile));
  for (unsigned pe = 0; pe < kPeCount; ++pe)
    apply(pool_in_use_[pe], pool_charge(&tile, pe));
}

void LocalTileFile::leave_hand(unsigned index) {
  auto& hand = order_[index / kHandSize];
  hand.erase(std::remove(hand.begin(), hand.end(), index), hand.end());
}

std::uint64_t LocalTileFile::capacity_in_use() const {
  return in_use_;
}

std::uint64_t LocalTileFile::capacity_in_use(unsigned pe) const {
  return pool_in_use_[pe];
}

}  // namespace ptovp::arch

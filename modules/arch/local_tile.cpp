#include "arch/local_tile.hpp"

#include <algorithm>

namespace ptovp::arch {

bool LocalTile::contents_defined() const {
  return info_.allocated && defined_valid_ == info_.valid_rows * info_.valid_columns;
}

void LocalTile::install(const TileInfo& info, std::uint8_t mask, bool overwritten) {
  // Unchanged fields are not stored again: a store takes the line from the
  // worker's cache.
  if (info_ != info) info_ = info;
  if (allocation_mask_ != mask) allocation_mask_ = mask;
  defined_.assign(info.elements(), false);
  defined_valid_ = 0;
  for (unsigned pe = 0; pe < kPeCount; ++pe) {
    if (pe_selected(mask, pe) && overwritten) {
      payload_[pe].assign_overwritten(info.capacity_bytes);
    } else if (pe_selected(mask, pe)) {
      payload_[pe].assign_zeroed(info.capacity_bytes);
    } else {
      payload_[pe].clear();
    }
  }
}

void LocalTile::zero_payloads(std::uint8_t pes) {
  for (unsigned pe = 0; pe < kPeCount; ++pe) {
    if (pe_selected(pes, pe)) payload_[pe].zero();
  }
}

void LocalTile::release() {
  info_ = TileInfo{};
  allocation_mask_ = 0;
  defined_.clear();
  defined_valid_ = 0;
  for (TilePayload& bytes : payload_)
    bytes.clear();
}

void LocalTile::define_slot(std::uint32_t slot, bool in_valid) {
  if (defined_[slot]) return;
  defined_[slot] = true;
  if (in_valid) ++defined_valid_;
}

void LocalTile::define_valid_region() {
  defined_valid_ = info_.valid_rows * info_.valid_columns;
  // A valid region that is the whole tile defines every slot (storage_index
  // is a permutation of the slots).
  if (info_.valid_rows == info_.rows && info_.valid_columns == info_.columns) {
    defined_.assign(defined_.size(), true);
    return;
  }
  thread_local std::vector<std::uint32_t> row_terms, col_terms;
  storage_row_terms(info_, info_.valid_rows, row_terms);
  storage_column_terms(info_, info_.valid_columns, col_terms);
  for (std::uint32_t row_term : row_terms) {
    for (std::uint32_t col_term : col_terms)
      defined_[row_term + col_term] = true;
  }
}

void LocalTile::define_every_slot() {
  defined_valid_ = info_.valid_rows * info_.valid_columns;
  defined_.assign(defined_.size(), true);
}

void LocalTile::copy_definedness(const LocalTile& source) {
  defined_ = source.defined_;
  defined_valid_ = source.defined_valid_;
}

}  // namespace ptovp::arch

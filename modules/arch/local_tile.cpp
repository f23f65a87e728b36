#include "arch/local_tile.hpp"

#include <algorithm>

namespace ptovp::arch {

bool LocalTile::contents_defined() const {
  return info_.allocated && defined_valid_ == info_.valid_rows * info_.valid_columns;
}

void LocalTile::install(const TileInfo& info, std::uint8_t mask) {
  info_ = info;
  allocation_mask_ = mask;
  defined_.assign(info.elements(), false);
  defined_valid_ = 0;
  for (unsigned pe = 0; pe < kPeCount; ++pe) {
    if (pe_selected(mask, pe)) {
      payload_[pe].assign(info.capacity_bytes, 0);
    } else {
      payload_[pe].clear();
    }
  }
}

void LocalTile::release() {
  info_ = TileInfo{};
  allocation_mask_ = 0;
  defined_.clear();
  defined_valid_ = 0;
  for (auto& bytes : payload_)
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
  // Every layout's index is a row term plus a column term.
  thread_local std::vector<std::uint32_t> col_term;
  col_term.resize(info_.valid_columns);
  for (std::uint32_t col = 0; col < info_.valid_columns; ++col)
    col_term[col] = storage_index(info_, 0, col);
  for (std::uint32_t row = 0; row < info_.valid_rows; ++row) {
    const std::uint32_t row_term = storage_index(info_, row, 0);
    for (std::uint32_t term : col_term)
      defined_[row_term + term] = true;
  }
}

void LocalTile::copy_definedness(const LocalTile& source) {
  defined_ = source.defined_;
  defined_valid_ = source.defined_valid_;
}

}  // namespace ptovp::arch

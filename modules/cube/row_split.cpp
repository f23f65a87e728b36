#include "cube/row_split.hpp"

#include <algorithm>

namespace ptovp::cube {

RowSplit RowSplit::local(std::uint32_t m, std::uint8_t mask) {
  RowSplit split;
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
    if (arch::pe_selected(mask, pe)) split.rows_[pe] = m;
  }
  split.active_ = mask;
  return split;
}

std::uint32_t RowSplit::local_rows() const {
  return *std::max_element(rows_.begin(), rows_.end());
}

RowSplit RowSplit::cooperative(std::uint32_t group_m) {
  RowSplit split;
  split.cooperative_ = true;
  const std::uint32_t per_pe = group_m <= 64 ? 16 : 32;
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
    const std::uint32_t first = pe * per_pe;
    split.first_[pe] = first;
    split.rows_[pe] = group_m > first ? std::min(group_m - first, per_pe) : 0;
    if (split.rows_[pe] != 0) split.active_ |= arch::pe_bit(pe);
  }
  return split;
}

}  // namespace ptovp::cube

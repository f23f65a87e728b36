#include "cube/operand_view.hpp"

namespace ptovp::cube {

numeric::OperandView tile_view(const arch::TileInfo& info, const std::uint8_t* payload,
                               std::uint32_t first_row, std::uint32_t rows, std::uint32_t cols,
                               bool transposed) {
  numeric::OperandView view;
  view.type = info.data_type;
  view.data = payload;
  view.size_bytes = info.capacity_bytes;
  view.row_offset.resize(rows);
  view.col_offset.resize(cols);
  for (std::uint32_t r = 0; r < rows; ++r) {
    view.row_offset[r] = transposed ? arch::storage_index(info, 0, first_row + r)
                                    : arch::storage_index(info, first_row + r, 0);
  }
  for (std::uint32_t c = 0; c < cols; ++c) {
    view.col_offset[c] =
        transposed ? arch::storage_index(info, c, 0) : arch::storage_index(info, 0, c);
  }
  return view;
}

}  // namespace ptovp::cube

#include "cube/operand_view.hpp"

namespace ptovp::cube {

void set_tile_view(numeric::OperandView& view, const arch::TileInfo& info,
                   const std::uint8_t* payload, std::uint32_t first_row, std::uint32_t rows,
                   std::uint32_t cols, bool transposed, bool swapped) {
  view.type = info.data_type;
  view.data = payload;
  view.size_bytes = info.capacity_bytes;
  // Logical rows are stored rows, or stored columns when transposed.
  const arch::StorageTerms row_term(info, !transposed), col_term(info, transposed);
  std::vector<std::size_t>& row_offset = swapped ? view.col_offset : view.row_offset;
  std::vector<std::size_t>& col_offset = swapped ? view.row_offset : view.col_offset;
  row_offset.resize(rows);
  col_offset.resize(cols);
  for (std::uint32_t r = 0; r < rows; ++r)
    row_offset[r] = row_term(first_row + r);
  for (std::uint32_t c = 0; c < cols; ++c)
    col_offset[c] = col_term(c);
}

}  // namespace ptovp::cube

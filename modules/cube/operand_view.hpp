// Kernel views of tile payloads: a numeric::OperandView whose row and column
// offsets come from arch::storage_index, so one description serves every
// layout (the CELL layouts are separable into a row and a column term). The
// view refers to the payload in place; nothing is copied.
#pragma once

#include <cstdint>

#include "arch/tile_info.hpp"
#include "numeric/dot_kernel.hpp"

namespace ptovp::cube {

// Points `view` at logical rows x cols of `info`'s payload, reusing its
// offsets' storage. Logical (r, c) is stored element (first_row + r, c), or
// (c, first_row + r) when `transposed` (a Shared primary stored K-major, a
// scale stored group-major); `swapped` views the transpose of that (rows and
// columns trade places).
void set_tile_view(numeric::OperandView& view, const arch::TileInfo& info,
                   const std::uint8_t* payload, std::uint32_t first_row, std::uint32_t rows,
                   std::uint32_t cols, bool transposed, bool swapped);

}  // namespace ptovp::cube

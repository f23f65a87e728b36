#include "arch/tile_info.hpp"

#include <fmt/format.h>

namespace ptovp::arch {

namespace {

bool power_of_two(std::uint64_t value) {
  return value != 0 && (value & (value - 1)) == 0;
}

std::uint32_t align_up(std::uint32_t value, std::uint32_t quantum) {
  return (value + quantum - 1) / quantum * quantum;
}

unsigned log2_element_bits(DataType type) {
  return static_cast<unsigned>(__builtin_ctz(element_bits(type)));
}

Fault illegal(std::string reason) {
  return make_fault(FaultCode::TileLegality, std::move(reason));
}

}  // namespace

std::string_view name(Layout layout) {
  switch (layout) {
    case Layout::RowMajor: return "RowMajor";
    case Layout::ColumnMajor: return "ColumnMajor";
    case Layout::ZN: return "ZN";
    case Layout::NZ: return "NZ";
    case Layout::CubeM16: return "CUBE_M16";
    case Layout::CubeM32: return "CUBE_M32";
    case Layout::CubeN8: return "CUBE_N8";
  }
  return "?";
}

std::string_view name(Location location) {
  switch (location) {
    case Location::Vector: return "Vector";
    case Location::Matrix: return "Matrix";
    case Location::Memory: return "Memory";
    case Location::Any: return "Any";
  }
  return "?";
}

bool TileInfo::operator==(const TileInfo& o) const {
  return allocated == o.allocated && capacity_bytes == o.capacity_bytes && rows == o.rows &&
         columns == o.columns && valid_rows == o.valid_rows && valid_columns == o.valid_columns &&
         data_type == o.data_type && layout == o.layout && location == o.location &&
         cube_k_repeat == o.cube_k_repeat && cube_n_repeat == o.cube_n_repeat &&
         cube_cell_count == o.cube_cell_count && cube_storage_bytes == o.cube_storage_bytes;
}

std::string TileInfo::describe() const {
  return fmt::format("{} {} {}x{} (valid {}x{}) {} B", numeric::name(data_type), name(layout), rows,
                     columns, valid_rows, valid_columns, capacity_bytes);
}

std::uint32_t size_code_bytes(unsigned size_code) {
  return size_code >= 1 && size_code <= 12 ? 64u << size_code : 0u;
}

bool capacity_legal(std::uint32_t capacity_bytes, std::uint32_t limit) {
  return capacity_bytes >= kCellBytes && capacity_bytes % kCellBytes == 0 &&
         capacity_bytes <= limit;
}

std::uint64_t dense_row_stride(std::uint32_t columns, DataType type) {
  if (is_four_bit(type)) return (std::uint64_t{columns} + 1) / 2;
  return std::uint64_t{columns} * (element_bits(type) / 8);
}

bool cube_type_supported(DataType type) {
  return element_bits(type) != 64;
}

std::uint32_t cube_cell_rows(Layout layout, DataType type) {
  if (!is_cube(layout) || !cube_type_supported(type)) return 0;
  if (layout == Layout::CubeM16) return 16;
  if (layout == Layout::CubeM32) return 32;
  // CUBE_N8: one CELL holds 128 B of K rows by 8 columns. Element widths are
  // powers of two, so the CELL sides are shifts (storage_index runs per element).
  return kCellBytes >> log2_element_bits(type);
}

std::uint32_t cube_cell_columns(Layout layout, DataType type) {
  if (!is_cube(layout) || !cube_type_supported(type)) return 0;
  if (layout == Layout::CubeN8) return 8;
  const unsigned row_bits = layout == Layout::CubeM16 ? 4 : 5;
  return (kCellBytes * 8) >> (row_bits + log2_element_bits(type));
}

Expected<TileInfo> make_ordinary_tile(std::uint32_t capacity_bytes, std::uint32_t columns,
                                      std::uint32_t valid_rows, std::uint32_t valid_columns,
                                      DataType type, Layout layout, Location location,
                                      std::uint32_t capacity_limit) {
  if (is_cube(layout)) return illegal(fmt::format("{} is not an ordinary layout", name(layout)));
  if (!capacity_legal(capacity_bytes, capacity_limit)) {
    return illegal(fmt::format("capacity {} B is not a multiple of 128 in 128..{}", capacity_bytes,
                               capacity_limit));
  }
  if (!power_of_two(columns)) {
    return illegal(fmt::format("physical columns {} is not a power of two", columns));
  }
  const std::uint64_t bits = std::uint64_t{capacity_bytes} * 8;
  const std::uint64_t row_bits = std::uint64_t{columns} * element_bits(type);
  if (bits % row_bits != 0 || bits / row_bits == 0 || bits / row_bits > 65535) {
    return illegal(fmt::format("{} columns of {} do not divide {} B into 1..65535 rows", columns,
                               numeric::name(type), capacity_bytes));
  }
  TileInfo tile;
  tile.allocated = true;
  tile.capacity_bytes = capacity_bytes;
  tile.rows = static_cast<std::uint32_t>(bits / row_bits);
  tile.columns = columns;
  tile.valid_rows = valid_rows;
  tile.valid_columns = valid_columns;
  tile.data_type = type;
  tile.layout = layout;
  tile.location = location;
  if (valid_rows == 0 || valid_columns == 0 || valid_rows > tile.rows || valid_columns > columns) {
    return illegal(fmt::format("valid region {}x{} is empty or exceeds physical {}x{}", valid_rows,
                               valid_columns, tile.rows, columns));
  }
  if ((layout == Layout::ZN || layout == Layout::NZ) &&
      (tile.rows % 16 != 0 || columns % fractal_inner(type) != 0)) {
    return illegal(fmt::format("{} needs rows % 16 == 0 and columns % {} == 0, got {}x{}",
                               name(layout), fractal_inner(type), tile.rows, columns));
  }
  return tile;
}

Expected<TileInfo> make_cube_tile(std::uint32_t capacity_bytes, std::uint32_t valid_rows,
                                  std::uint32_t valid_columns, DataType type, Layout layout) {
  const std::uint32_t cell_rows = cube_cell_rows(layout, type);
  const std::uint32_t cell_cols = cube_cell_columns(layout, type);
  if (cell_rows == 0) {
    return illegal(fmt::format("{} cannot hold {}", name(layout), numeric::name(type)));
  }
  if (!capacity_legal(capacity_bytes, kMaxSharedCapacity)) {
    return illegal(fmt::format("capacity {} B is not a legal TSize", capacity_bytes));
  }
  if (valid_rows == 0 || valid_columns == 0 || valid_rows > 65535 || valid_columns > 65535) {
    return illegal(
        fmt::format("CUBE valid shape {}x{} is empty or too large", valid_rows, valid_columns));
  }
  TileInfo tile;
  tile.allocated = true;
  tile.capacity_bytes = capacity_bytes;
  tile.valid_rows = valid_rows;
  tile.valid_columns = valid_columns;
  tile.data_type = type;
  tile.layout = layout;
  tile.location = Location::Matrix;
  tile.columns = align_up(valid_columns, cell_cols);
  if (layout == Layout::CubeM16 && valid_rows > cell_rows) {
    return illegal(fmt::format("CUBE_M16 holds at most {} rows, got {}", cell_rows, valid_rows));
  }
  tile.rows = align_up(valid_rows, cell_rows);
  if (layout == Layout::CubeN8) {
    tile.cube_k_repeat = tile.rows / cell_rows;
    tile.cube_n_repeat = tile.columns / 8;
  } else {
    tile.cube_k_repeat = tile.columns / cell_cols;
    tile.cube_n_repeat = tile.rows / cell_rows;
  }
  tile.cube_cell_count = tile.cube_k_repeat * tile.cube_n_repeat;
  const std::uint64_t required = std::uint64_t{tile.cube_cell_count} * kCellBytes;
  if (required > capacity_bytes) {
    return illegal(fmt::format("{} {}x{} of {} needs {} B ({} CELLs), TSize is {} B", name(layout),
                               valid_rows, valid_columns, numeric::name(type), required,
                               tile.cube_cell_count, capacity_bytes));
  }
  tile.cube_storage_bytes = static_cast<std::uint32_t>(required);
  return tile;
}

std::uint32_t storage_index(const TileInfo& tile, std::uint32_t row, std::uint32_t col) {
  return StorageTerms(tile, true)(row) + StorageTerms(tile, false)(col);
}

bool valid_region_fills_payload(const TileInfo& tile) {
  return !is_four_bit(tile.data_type) && tile.valid_rows == tile.rows &&
         tile.valid_columns == tile.columns &&
         std::uint64_t{tile.rows} * tile.columns * (element_bits(tile.data_type) / 8) ==
             tile.capacity_bytes;
}

StorageTerms::StorageTerms(const TileInfo& tile, bool rows) {
  // A term is one block index (i >> shift, times the block's slots) plus
  // one index inside the block (i & mask, times its stride).
  auto blocks = [this](std::uint32_t size, std::uint32_t outer, std::uint32_t inner) {
    shift_ = static_cast<unsigned>(__builtin_ctz(size));
    mask_ = size - 1;
    outer_ = outer;
    inner_ = inner;
  };
  switch (tile.layout) {
    case Layout::RowMajor: blocks(1, rows ? tile.columns : 1, 0); return;
    case Layout::ColumnMajor: blocks(1, rows ? 1 : tile.rows, 0); return;
    case Layout::ZN:
    case Layout::NZ: {
      const std::uint32_t inner = fractal_inner(tile.data_type);
      const std::uint32_t fractal = 16 * inner;
      if (tile.layout == Layout::ZN) {
        if (rows) {
          blocks(16, (tile.columns / inner) * fractal, 1);
        } else {
          blocks(inner, fractal, 16);
        }
      } else if (rows) {
        blocks(16, fractal, inner);
      } else {
        blocks(inner, (tile.rows / 16) * fractal, 1);
      }
      return;
    }
    case Layout::CubeM16:
    case Layout::CubeM32:
    case Layout::CubeN8: {
      const std::uint32_t cell_rows = cube_cell_rows(tile.layout, tile.data_type);
      const std::uint32_t cell_cols = cube_cell_columns(tile.layout, tile.data_type);
      const std::uint32_t cell = cell_rows * cell_cols;
      if (tile.layout == Layout::CubeN8) {  // CELLs K-fastest, each column-major
        if (rows) {
          blocks(cell_rows, cell, 1);
        } else {
          blocks(cell_cols, tile.cube_k_repeat * cell, cell_rows);
        }
      } else if (rows) {  // CELLs column-fastest, then row blocks; each row-major
        blocks(cell_rows, tile.cube_k_repeat * cell, cell_cols);
      } else {
        blocks(cell_cols, cell, 1);
        swap_nibble_columns_ = tile.layout == Layout::CubeM16 && element_bits(tile.data_type) == 4;
      }
      return;
    }
  }
}

void storage_row_terms(const TileInfo& tile, std::uint32_t count,
                       std::vector<std::uint32_t>& terms) {
  const StorageTerms term(tile, true);
  terms.resize(count);
  for (std::uint32_t row = 0; row < count; ++row)
    terms[row] = term(row);
}

void storage_column_terms(const TileInfo& tile, std::uint32_t count,
                          std::vector<std::uint32_t>& terms) {
  const StorageTerms term(tile, false);
  terms.resize(count);
  for (std::uint32_t col = 0; col < count; ++col)
    terms[col] = term(col);
}

std::uint64_t pad_bits(PadValue pad, DataType type) {
  const unsigned bits = element_bits(type);
  const std::uint64_t width_mask = bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
  std::uint64_t word = 0;
  if (pad == PadValue::Max) {
    switch (type) {
      case DataType::FP64: word = 0x7fefffffffffffffULL; break;
      case DataType::FP32: word = 0x7f7fffff; break;
      case DataType::TF32: word = 0x7f7fe000; break;
      case DataType::HF32: word = 0x7f7ff000; break;
      case DataType::FP16: word = 0x7bff; break;
      case DataType::BF16: word = 0x7f7f; break;
      case DataType::E4M3: word = 0x7e; break;
      case DataType::E5M2: word = 0x7b; break;
      case DataType::S8: word = 0x7f; break;
      case DataType::S16: word = 0x7fff; break;
      case DataType::S32: word = 0x7fffffff; break;
      case DataType::S64: word = 0x7fffffffffffffffULL; break;
      default: word = ~std::uint64_t{0}; break;  // unsigned types and the rest: all ones
    }
  } else if (pad == PadValue::Min) {
    switch (type) {
      case DataType::FP64: word = 0xffefffffffffffffULL; break;
      case DataType::FP32: word = 0xff7fffff; break;
      case DataType::TF32: word = 0xff7fe000; break;
      case DataType::HF32: word = 0xff7ff000; break;
      case DataType::FP16: word = 0xfbff; break;
      case DataType::BF16: word = 0xff7f; break;
      case DataType::E4M3: word = 0xfe; break;
      case DataType::E5M2: word = 0xfb; break;
      case DataType::U8:
      case DataType::U16:
      case DataType::U32:
      case DataType::U64:
      case DataType::U4X2: word = 0; break;
      case DataType::S8: word = 0x80; break;
      case DataType::S16: word = 0x8000; break;
      case DataType::S32: word = 0x80000000; break;
      default: word = 0x8000000000000000ULL; break;  // S64 and the rest
    }
  }
  return word & width_mask;
}

}  // namespace ptovp::arch

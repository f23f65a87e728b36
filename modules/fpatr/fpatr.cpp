#include "fpatr/fpatr.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "isa/operand_names.hpp"
#include "numeric/error.hpp"

namespace ptovp::fpatr {

using arch::Expected;
using arch::FaultCode;
using arch::make_fault;
using arch::MaybeFault;
using arch::TileInfo;

namespace {

arch::Fault illegal(std::string reason) {
  return make_fault(FaultCode::TileLegality, std::move(reason));
}

std::uint64_t read_word(const arch::LocalTile& tile, unsigned pe, std::uint32_t row,
                        std::uint32_t col) {
  const TileInfo& info = tile.info();
  return arch::read_slot(tile.payload(pe), info.data_type, arch::storage_index(info, row, col));
}

}  // namespace

Expected<Fpatr> Fpatr::configure(const arch::FpAttributes& fpatr, const arch::DataAttributes& datr,
                                 DataType accumulator) {
  try {
    const numeric::NumericControl control{
        numeric::rounding_from_code(datr.present ? datr.rmode : 0),
        datr.present && datr.saturating};
    if (fpatr.group_max_en()) numeric::group_n_from_code(fpatr.group_n_code());
    return Fpatr(fpatr, numeric::PostProcess(fpatr.pre_quant_mode(), fpatr.relu_mode(), accumulator,
                                             control));
  } catch (const numeric::IllegalFieldValue& error) {
    return illegal(fmt::format(
        "B.FPATR PreQuantMode {} ReluMode {} with a {} accumulator and "
        "B.DATR RMode {} Sat {}: {}",
        isa::code_name(isa::NameTable::PreQuantMode, fpatr.pre_quant_mode()),
        isa::code_name(isa::NameTable::ReluMode, fpatr.relu_mode()), numeric::name(accumulator),
        isa::code_name(isa::NameTable::RoundingMode, datr.present ? datr.rmode : 0),
        datr.present && datr.saturating ? 1 : 0, error.what()));
  }
}

std::uint32_t Fpatr::groups(std::uint32_t n) const {
  const unsigned group_n = numeric::group_n_from_code(fpatr_.group_n_code());
  return (n + group_n - 1) / group_n;
}

bool Fpatr::scalar_quant() const {
  return post_.mode().parameter != numeric::ParameterKind::None && !vector_quant();
}

unsigned Fpatr::scalar_count() const {
  return (scalar_quant() ? 1u : 0u) + (post_.relu_mode() == numeric::kReluScalar ? 1u : 0u);
}

unsigned Fpatr::source_count() const {
  return (fpatr_.row_max_en() && fpatr_.row_max_init() ? 1u : 0u) + (vector_quant() ? 1u : 0u) +
         (post_.relu_mode() == numeric::kReluVector ? 1u : 0u);
}

numeric::QuantParameter Fpatr::zero_quant() const {
  numeric::QuantParameter zero;
  zero.scale = numeric::Dyadic{};
  if (post_.mode().parameter == numeric::ParameterKind::Shift) zero.shift = 1;
  return zero;
}

MaybeFault Fpatr::check_scalar_words(const arch::BlockDescriptor& block, std::uint8_t mask) const {
  if (!block.ior.valid) return std::nullopt;
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
    if (!arch::pe_selected(mask, pe)) continue;
    const auto& words = block.ior_values[pe];
    try {
      if (scalar_quant()) post_.quant_parameter(words[0]);
      if (post_.relu_mode() == numeric::kReluScalar) {
        numeric::decode_activation_parameter(words[relu_slot()]);
      }
    } catch (const numeric::IllegalFieldValue& error) {
      return illegal(
          fmt::format("B.IOR parameter of PE{} for PreQuantMode {} ReluMode {}: {}", pe,
                      isa::code_name(isa::NameTable::PreQuantMode, fpatr_.pre_quant_mode()),
                      isa::code_name(isa::NameTable::ReluMode, fpatr_.relu_mode()), error.what()));
    }
  }
  return std::nullopt;
}

MaybeFault Fpatr::check_sources(const arch::LocalTileFile& tiles, const unsigned* indices,
                                std::uint32_t rows, std::uint32_t n, std::uint8_t mask) const {
  struct Expect {
    const char* role;
    std::uint32_t rows, cols;
    DataType type;
  };
  std::vector<Expect> expected;
  if (fpatr_.row_max_en() && fpatr_.row_max_init()) {
    expected.push_back({"RowMaxIn", rows, 1, accumulator_type()});
  }
  if (vector_quant()) expected.push_back({"vector QuantParam", 1, n, DataType::U64});
  if (post_.relu_mode() == numeric::kReluVector) {
    expected.push_back({"vector PReLU", 1, n, DataType::U64});
  }
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const Expect& e = expected[i];
    const arch::LocalTile& tile = tiles.at(indices[i]);
    const TileInfo& info = tile.info();
    if ((tile.allocation_mask() & mask) != mask || !tile.contents_defined() ||
        info.valid_rows != e.rows || info.valid_columns != e.cols || info.data_type != e.type ||
        info.layout != arch::Layout::RowMajor || info.location != arch::Location::Any) {
      return illegal(fmt::format(
          "{} source tile {} is {} on PEs {}{}; it must be a defined {} RowMajor {}x{} tile in "
          "location Any on PEs {}",
          e.role, tiles.source_name(indices[i]), info.describe(),
          arch::mask_string(tile.allocation_mask()),
          tile.contents_defined() ? "" : " with undefined elements", numeric::name(e.type), e.rows,
          e.cols, arch::mask_string(mask)));
    }
    if (e.type != DataType::U64) continue;
    const bool quant = std::string_view(e.role) == "vector QuantParam";
    for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
      if (!arch::pe_selected(mask, pe)) continue;
      for (std::uint32_t col = 0; col < n; ++col) {
        const std::uint64_t word = read_word(tile, pe, 0, col);
        try {
          if (quant) {
            post_.quant_parameter(word);
          } else {
            numeric::decode_activation_parameter(word);
          }
        } catch (const numeric::IllegalFieldValue& error) {
          return illegal(fmt::format("{} tile {} column {} on PE{}: {}", e.role,
                                     tiles.source_name(indices[i]), col, pe, error.what()));
        }
      }
    }
  }
  return std::nullopt;
}

Expected<TileInfo> Fpatr::row_max_info(std::uint32_t capacity, std::uint32_t rows) const {
  auto info =
      arch::make_ordinary_tile(capacity, 1, rows, 1, accumulator_type(), arch::Layout::RowMajor,
                               arch::Location::Any, arch::kMaxLocalCapacity);
  if (info) return info;
  return make_fault(FaultCode::TileAllocation,
                    fmt::format("RowMaxOut {}x1 {}: {}", rows, numeric::name(accumulator_type()),
                                info.fault().reason));
}

Expected<TileInfo> Fpatr::group_max_info(std::uint32_t capacity, std::uint32_t rows,
                                         std::uint32_t n) const {
  const std::uint32_t columns = groups(n);
  auto info = arch::make_ordinary_tile(capacity, columns, rows, columns, accumulator_type(),
                                       arch::Layout::RowMajor, arch::Location::Any,
                                       arch::kMaxLocalCapacity);
  if (info) return info;
  return make_fault(
      FaultCode::TileAllocation,
      fmt::format("GroupMaxOut {}x{} {} (N {} / GroupN {}): {}", rows, columns,
                  numeric::name(accumulator_type()), n,
                  numeric::group_n_from_code(fpatr_.group_n_code()), info.fault().reason));
}

Parameters Fpatr::parameters(const arch::BlockDescriptor& block, unsigned pe,
                             const arch::LocalTileFile& tiles, const unsigned* indices,
                             std::uint32_t rows, std::uint32_t n) const {
  Parameters p;
  const bool ior = block.ior.valid;
  if (scalar_quant()) {
    p.quant = ior ? post_.quant_parameter(block.ior_values[pe][0]) : zero_quant();
  }
  if (post_.relu_mode() == numeric::kReluScalar && ior) {
    p.alpha = numeric::decode_activation_parameter(block.ior_values[pe][relu_slot()]);
  }
  unsigned next = 0;
  if (fpatr_.row_max_en() && fpatr_.row_max_init()) {
    const arch::LocalTile& tile = tiles.at(indices[next++]);
    p.row_max_in.resize(rows);
    for (std::uint32_t r = 0; r < rows; ++r) {
      p.row_max_in[r] = static_cast<std::uint32_t>(read_word(tile, pe, r, 0));
    }
  }
  if (vector_quant()) {
    const arch::LocalTile& tile = tiles.at(indices[next++]);
    p.quant_columns.resize(n);
    for (std::uint32_t c = 0; c < n; ++c) {
      p.quant_columns[c] = post_.quant_parameter(read_word(tile, pe, 0, c));
    }
  }
  if (post_.relu_mode() == numeric::kReluVector) {
    const arch::LocalTile& tile = tiles.at(indices[next]);
    p.alpha_columns.resize(n);
    for (std::uint32_t c = 0; c < n; ++c) {
      p.alpha_columns[c] = numeric::decode_activation_parameter(read_word(tile, pe, 0, c));
    }
  }
  return p;
}

std::uint8_t Fpatr::run(const std::uint32_t* accumulator, std::uint32_t rows, std::uint32_t n,
                        const Parameters& p, const Outputs& out) const {
  const DataType type = accumulator_type();
  const bool max_abs = fpatr_.max_abs_en();
  const bool vector_alpha = post_.relu_mode() == numeric::kReluVector;
  const numeric::Dyadic* alpha = vector_alpha ? p.alpha_columns.data()
                                 : post_.relu_mode() == numeric::kReluScalar ? &p.alpha
                                                                             : nullptr;
  const numeric::QuantParameter* quant = vector_quant() ? p.quant_columns.data() : &p.quant;
  const std::uint32_t group_count = group_max() ? groups(n) : 0;
  const unsigned group_n = group_max() ? numeric::group_n_from_code(fpatr_.group_n_code()) : 0;
  std::uint8_t flags = 0;
  for (std::uint32_t r = 0; r < rows; ++r) {
    const std::uint32_t* row = accumulator + std::size_t{r} * n;
    if (row_max()) {
      const numeric::Encoded max = numeric::row_max(
          type, row, n, max_abs, p.row_max_in.empty() ? nullptr : &p.row_max_in[r]);
      out.row_max[r] = static_cast<std::uint32_t>(max.bits);
      if (out.row_max_flags != nullptr) out.row_max_flags[r] = max.flags;
      flags |= max.flags;
    }
    if (group_max()) {
      std::uint32_t* group_row = out.group_max + std::size_t{r} * group_count;
      if (out.group_max_flags == nullptr) {
        flags |= numeric::group_max(type, row, n, group_n, max_abs, group_row);
      } else {
        for (std::uint32_t g = 0; g < group_count; ++g) {
          const std::uint32_t first = g * group_n;
          const std::uint8_t f = numeric::group_max(type, row + first, std::min(group_n, n - first),
                                                    group_n, max_abs, group_row + g);
          out.group_max_flags[std::size_t{r} * group_count + g] = f;
          flags |= f;
        }
      }
    }
    std::uint64_t* d_row = out.d + std::size_t{r} * n;
    if (out.d_flags == nullptr) {
      flags |= post_.row(row, n, quant, vector_quant(), alpha, vector_alpha, d_row);
      continue;
    }
    for (std::uint32_t c = 0; c < n; ++c) {
      const std::uint8_t f = post_.row(row + c, 1, vector_quant() ? quant + c : quant, false,
                                       vector_alpha ? alpha + c : alpha, false, d_row + c);
      out.d_flags[std::size_t{r} * n + c] = f;
      flags |= f;
    }
  }
  return flags;
}

}  // namespace ptovp::fpatr

#include "debug/tile_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>

#include "arch/pe_mask.hpp"
#include "isa/operand_names.hpp"
#include "numeric/value_codec.hpp"

namespace ptovp::debug {

namespace {

// Rows and columns printed at most; the rest is summarised.
constexpr std::uint32_t kShownRows = 16;
constexpr std::uint32_t kShownColumns = 16;

std::string value_text(arch::DataType type, std::uint64_t raw) {
  const numeric::DecodedValue value = numeric::decode(type, raw);
  if (value.is_nan()) return "nan";
  if (value.cls == numeric::ValueClass::Infinity) return value.negative ? "-inf" : "inf";
  if (!value.is_finite()) return fmt::format("0x{:x}?", raw);
  return fmt::format("{:g}", numeric::to_double(value));
}

std::string elements(const arch::TileInfo& info, const std::uint8_t* payload) {
  std::string text;
  const std::uint32_t rows = std::min(info.valid_rows, kShownRows);
  const std::uint32_t columns = std::min(info.valid_columns, kShownColumns);
  for (std::uint32_t row = 0; row < rows; ++row) {
    text += fmt::format("  [{:3}]", row);
    for (std::uint32_t col = 0; col < columns; ++col) {
      const std::uint32_t slot = arch::storage_index(info, row, col);
      text += " " + value_text(info.data_type, arch::read_slot(payload, info.data_type, slot));
    }
    if (columns < info.valid_columns)
      text += fmt::format(" ... ({} more)", info.valid_columns - columns);
    text += "\n";
  }
  if (rows < info.valid_rows) text += fmt::format("  ... {} more rows\n", info.valid_rows - rows);
  return text;
}

std::string shared_text(const functional::StateView& view, std::string_view digits) {
  unsigned id = 0;
  const auto parsed = std::from_chars(digits.data(), digits.data() + digits.size(), id);
  if (digits.empty() || parsed.ptr != digits.data() + digits.size() || parsed.ec != std::errc() ||
      id >= arch::kSharedTileCount) {
    return fmt::format("no Shared tile S{} (S0..S{})\n", digits, arch::kSharedTileCount - 1);
  }
  const arch::SharedTile& tile = view.shared_tiles.at(id);
  if (!tile.descriptor_valid) return fmt::format("S{}: no descriptor\n", id);
  return fmt::format("S{}: {}, allocation mask {}, initialized {}, {}\n", id, tile.info.describe(),
                     arch::mask_string(tile.allocation_mask),
                     arch::mask_string(tile.initialized_mask),
                     tile.published ? "published (ready)" : "not published (not ready)") +
         elements(tile.info, tile.payload.data());
}

}  // namespace

std::string tile_text(const functional::StateView& view, std::string_view name, unsigned pe) {
  if (name.size() > 1 && std::toupper(static_cast<unsigned char>(name[0])) == 'S')
    return shared_text(view, name.substr(1));
  const std::optional<unsigned> code = isa::tile_source_code(name);
  if (!code) return fmt::format("'{}' names no tile (T#1, U3, S5, ...)\n", name);
  const auto index = view.local_tiles.resolve_source(*code);
  if (!index) return fmt::format("{}: {}\n", name, index.fault().reason);
  const arch::LocalTile& tile = view.local_tiles.at(*index);
  std::string text = fmt::format("{} (register {}): {}, allocation mask {}\n", name, *index,
                                 tile.info().describe(), arch::mask_string(tile.allocation_mask()));
  if (!arch::pe_selected(tile.allocation_mask(), pe))
    return text + fmt::format("  PE{} holds no payload\n", pe);
  return text + fmt::format("  PE{}:\n", pe) + elements(tile.info(), tile.payload(pe));
}

}  // namespace ptovp::debug

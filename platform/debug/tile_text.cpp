#include "debug/tile_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <limits>

#include "arch/pe_mask.hpp"
#include "isa/operand_names.hpp"
#include "numeric/value_codec.hpp"

namespace ptovp::debug {

namespace {

// Rows and columns printed at most; the rest is summarised.
constexpr std::uint32_t kShownRows = 16;
constexpr std::uint32_t kShownColumns = 16;

std::string elements(const arch::TileInfo& info, const std::uint8_t* payload) {
  std::string text;
  const std::uint32_t rows = std::min(info.valid_rows, kShownRows);
  const std::uint32_t columns = std::min(info.valid_columns, kShownColumns);
  for (std::uint32_t row = 0; row < rows; ++row) {
    text += fmt::format("  [{:3}]", row);
    for (std::uint32_t col = 0; col < columns; ++col)
      text += fmt::format(" {:g}", element_value(info, payload, row, col));
    if (columns < info.valid_columns)
      text += fmt::format(" ... ({} more)", info.valid_columns - columns);
    text += "\n";
  }
  if (rows < info.valid_rows) text += fmt::format("  ... {} more rows\n", info.valid_rows - rows);
  return text;
}

std::variant<NamedTile, std::string> find_shared(const engine::StateView& view,
                                                 std::string_view digits) {
  unsigned id = 0;
  const auto parsed = std::from_chars(digits.data(), digits.data() + digits.size(), id);
  if (digits.empty() || parsed.ptr != digits.data() + digits.size() || parsed.ec != std::errc() ||
      id >= arch::kSharedTileCount) {
    return fmt::format("no Shared tile S{} (S0..S{})", digits, arch::kSharedTileCount - 1);
  }
  const arch::SharedTile& tile = view.shared_tiles.at(id);
  if (!tile.descriptor_valid) return fmt::format("S{}: no descriptor", id);
  return NamedTile{
      fmt::format("S{}: {}, allocation mask {}, initialized {}, {}", id, tile.info.describe(),
                  arch::mask_string(tile.allocation_mask), arch::mask_string(tile.initialized_mask),
                  tile.published ? "published (ready)" : "not published (not ready)"),
      tile.info, tile.payload.data()};
}

}  // namespace

double element_value(const arch::TileInfo& info, const std::uint8_t* payload, std::uint32_t row,
                     std::uint32_t col) {
  const std::uint64_t raw =
      arch::read_slot(payload, info.data_type, arch::storage_index(info, row, col));
  const numeric::DecodedValue value = numeric::decode(info.data_type, raw);
  if (value.cls == numeric::ValueClass::Infinity)
    return value.negative ? -std::numeric_limits<double>::infinity()
                          : std::numeric_limits<double>::infinity();
  if (!value.is_finite()) return std::numeric_limits<double>::quiet_NaN();
  return numeric::to_double(value);
}

std::variant<NamedTile, std::string> find_tile(const engine::StateView& view,
                                               std::string_view name, unsigned pe) {
  if (name.size() > 1 && std::toupper(static_cast<unsigned char>(name[0])) == 'S')
    return find_shared(view, name.substr(1));
  const std::optional<unsigned> code = isa::tile_source_code(name);
  if (!code) return fmt::format("'{}' names no tile (T#1, U3, S5, ...)", name);
  const auto index = view.local_tiles.resolve_source(*code);
  if (!index) return fmt::format("{}: {}", name, index.fault().reason);
  const arch::LocalTile& tile = view.local_tiles.at(*index);
  const bool held = arch::pe_selected(tile.allocation_mask(), pe);
  return NamedTile{fmt::format("{} (register {}): {}, allocation mask {}", name, *index,
                               tile.info().describe(), arch::mask_string(tile.allocation_mask())),
                   tile.info(), held ? tile.payload(pe) : nullptr};
}

std::string tile_text(const engine::StateView& view, std::string_view name, unsigned pe) {
  const auto found = find_tile(view, name, pe);
  if (const auto* why = std::get_if<std::string>(&found)) return *why + "\n";
  const NamedTile& tile = std::get<NamedTile>(found);
  const bool local = std::toupper(static_cast<unsigned char>(name[0])) != 'S';
  std::string text = tile.title + "\n";
  if (tile.payload == nullptr) return text + fmt::format("  PE{} holds no payload\n", pe);
  if (local) text += fmt::format("  PE{}:\n", pe);
  return text + elements(tile.info, tile.payload);
}

}  // namespace ptovp::debug

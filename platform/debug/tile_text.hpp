// A Local or Shared tile by its assembly name ("T#1", "U3", "S5"): its
// descriptor and payload (find_tile), its elements as values, and the text
// the debugger's `monitor tile` prints (the valid elements as typed values,
// row by row).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

#include "engine/state_dump.hpp"

namespace ptovp::debug {

struct NamedTile {
  std::string title;  // "T#1 (register 0): U32 RowMajor 8x8 ..., allocation mask 1111"
  arch::TileInfo info;
  const std::uint8_t* payload = nullptr;  // PE `pe`'s, or the Shared tile's; nullptr if none
};

// The tile `name` names, seen from PE `pe`, or why it names none.
std::variant<NamedTile, std::string> find_tile(const engine::StateView& view,
                                               std::string_view name, unsigned pe);
// Element (row, col) as a number (NaN and infinities as such).
double element_value(const arch::TileInfo& info, const std::uint8_t* payload, std::uint32_t row,
                     std::uint32_t col);
std::string tile_text(const engine::StateView& view, std::string_view name, unsigned pe);

}  // namespace ptovp::debug

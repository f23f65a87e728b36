// A Local or Shared tile by its assembly name ("T#1", "U3", "S5") as text:
// its descriptor (type, layout, shape, valid region) and the valid elements
// as typed values, row by row (the debugger's `monitor tile`).
#pragma once

#include <string>
#include <string_view>

#include "functional/state_dump.hpp"

namespace ptovp::debug {

// PE `pe`'s payload for a Local tile; a message saying why for a name that
// names nothing.
std::string tile_text(const functional::StateView& view, std::string_view name, unsigned pe);

}  // namespace ptovp::debug

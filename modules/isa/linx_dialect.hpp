// The LinxISA LLVM assembler's spellings, rewritten to the canonical catalog
// syntax before operands are parsed (docs/toolchain.md): block starts without
// a kind, `C.BSTART.STD COND`, `BSTART CALL, f, ra=L`, modifier suffixes
// (`hl.casw.aqrl`), BSTART.SFU/VEC tile-operation names, B.DATR keywords, and
// the forms retired before 0.58.5 (an error naming the replacement).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace ptovp::isa {

struct DialectLine {
  std::string mnemonic;
  std::string operands;
};

// True when an (upper-case) mnemonic names a form.
using MnemonicKnown = std::function<bool(const std::string& upper_mnemonic)>;

// Rewrites line in place; returns an error message for a retired form.
std::optional<std::string> rewrite_linx_spelling(DialectLine& line, const MnemonicKnown& known);

}  // namespace ptovp::isa

#include "isa/linx_dialect.hpp"

#include <fmt/format.h>

#include <cctype>
#include <vector>

#include "isa/catalog.hpp"
#include "isa/operand_names.hpp"
#include "isa/operand_parser.hpp"
#include "isa/operand_syntax.hpp"

namespace ptovp::isa {

namespace {

std::vector<std::string> operand_list(const std::string& text) {
  std::vector<std::string> list;
  for (const OperandText& operand : split_operands(text, 0)) {
    if (!operand.text.empty()) list.push_back(operand.text);
  }
  return list;
}

std::string join(const std::vector<std::string>& operands) {
  std::string text;
  for (std::size_t i = 0; i < operands.size(); ++i)
    text += (i ? ", " : " ") + operands[i];
  return text;
}

bool is_block_kind(std::string_view word) {
  for (std::string_view kind : {"FALL", "DIRECT", "COND", "IND", "RET", "CALL", "ICALL"}) {
    if (equals_ignoring_case(word, kind)) return true;
  }
  return false;
}

// v0.4 spellings that 0.58.5 no longer has, and what replaced them.
std::optional<std::string> retired(const std::string& mnemonic,
                                   const std::vector<std::string>& operands) {
  const auto message = [&](std::string_view replacement) {
    return fmt::format("{} was retired before 0.58.5; use {}", mnemonic, replacement);
  };
  if (mnemonic == "BSTART.TMA") return message("BSTART.TLOAD / BSTART.TSTORE <DataType>");
  if (mnemonic == "B.IOTI") return message("B.IOT with ->T<size>");
  if (mnemonic == "B.ARG") return message("B.DATR <layout>, <datatype>, ...");
  if (mnemonic == "B.IOD") return message("B.IOR");
  if ((mnemonic == "C.BSTART.STD" || mnemonic == "BSTART.STD" || mnemonic == "BSTART") &&
      !operands.empty() && equals_ignoring_case(operands[0], "ICALL")) {
    return message("BSTART.ICALL <return label>, ->ra for an indirect call");
  }
  return std::nullopt;
}

// `BSTART.SFU TSORT, FP16`: the tile operation's Mode and Function. A name
// that no tile operation of the catalog has is an error.
std::optional<std::string> expand_tile_operation(const std::string& mnemonic,
                                                 std::vector<std::string>& operands,
                                                 bool& changed) {
  if ((mnemonic != "BSTART.SFU" && mnemonic != "BSTART.VEC" && mnemonic != "BSTART.TEPL") ||
      operands.size() != 2) {
    return std::nullopt;
  }
  for (const TileOperationInfo& op : tile_operations()) {
    if (op.command_mnemonic == "BSTART.TEPL" && op.mode >= 0 &&
        equals_ignoring_case(op.name, operands[0])) {
      operands = {std::to_string(op.mode), std::to_string(op.function), operands[1]};
      changed = true;
      return std::nullopt;
    }
  }
  return fmt::format(
      "{}: '{}' is not a tile operation of the 0.58.5 catalog; write {} Mode, Function, DataType",
      mnemonic, operands[0], mnemonic);
}

// `B.DATR ND2NZ.normal, FP16, Max, cmode5, rmode6, sat, canonicalize`.
void expand_datr_keywords(std::vector<std::string>& operands) {
  const auto numbered = [](std::string& operand, std::string_view prefix) {
    if (operand.size() > prefix.size() &&
        equals_ignoring_case(std::string_view(operand).substr(0, prefix.size()), prefix) &&
        std::isdigit(static_cast<unsigned char>(operand[prefix.size()]))) {
      operand = operand.substr(prefix.size());
    }
  };
  if (!operands.empty()) {
    const auto dot = operands[0].find('.');
    if (dot != std::string::npos &&
        equals_ignoring_case(std::string_view(operands[0]).substr(dot), ".normal")) {
      operands[0].resize(dot);
    }
  }
  if (operands.size() > 3) numbered(operands[3], "cmode");
  if (operands.size() > 4) numbered(operands[4], "rmode");
  if (operands.size() > 5 && equals_ignoring_case(operands[5], "sat")) operands[5] = "1";
  if (operands.size() > 6 && equals_ignoring_case(operands[6], "canonicalize")) operands[6] = "1";
}

// Block starts: a missing kind is FALL, the bare BSTART/C.BSTART are the STD
// forms, `C.BSTART.STD COND, L` is C.BSTART COND, and `BSTART CALL, f, ra=L`
// is BSTART.CALL f, L, ->ra.
bool rewrite_block_start(std::string& mnemonic, std::vector<std::string>& operands) {
  const bool compressed = mnemonic.rfind("C.", 0) == 0;
  const std::string base = compressed ? mnemonic.substr(2) : mnemonic;
  if (base != "BSTART" && base != "BSTART.STD" && base != "BSTART.FP") return false;
  if (!operands.empty()) {  // `bstart.std call main`: the kind without a comma
    const auto blank = operands[0].find_first_of(" \t");
    if (blank != std::string::npos && is_block_kind(operands[0].substr(0, blank))) {
      const auto rest = operands[0].find_first_not_of(" \t", blank);
      operands.insert(operands.begin() + 1, operands[0].substr(rest));
      operands[0].resize(blank);
    }
  }
  if (operands.empty()) {
    mnemonic = (compressed ? "C." : "") + (base == "BSTART" ? std::string("BSTART.STD") : base);
    operands = {"FALL"};
    return true;
  }
  const std::string kind = to_upper(operands[0]);
  if (!is_block_kind(kind)) return false;
  if (kind == "CALL" && operands.size() == 3 && operands[2].rfind("ra=", 0) == 0) {
    mnemonic = "BSTART.CALL";
    operands = {operands[1], operands[2].substr(3), "->ra"};
    return true;
  }
  if (kind == "CALL" && operands.size() == 2) {
    // The first parcel of a split call: C.BSTART DIRECT, then c.setret.
    mnemonic = "C.BSTART";
    operands[0] = "DIRECT";
    return true;
  }
  if (kind == "COND" || kind == "DIRECT") {
    if (compressed || base == "BSTART") mnemonic = compressed ? "C.BSTART" : "BSTART";
    return true;
  }
  if (base == "BSTART") {
    mnemonic = (compressed ? "C." : "") + std::string("BSTART.STD");
    return true;
  }
  return false;
}

}  // namespace

std::optional<std::string> rewrite_linx_spelling(DialectLine& line, const MnemonicKnown& known) {
  std::string mnemonic = to_upper(line.mnemonic);
  std::vector<std::string> operands = operand_list(line.operands);
  if (auto error = retired(mnemonic, operands)) return error;
  bool changed = rewrite_block_start(mnemonic, operands);
  if (auto error = expand_tile_operation(mnemonic, operands, changed)) return error;
  if (mnemonic == "B.DATR") {
    expand_datr_keywords(operands);
    changed = true;
  }
  // Modifier suffixes: hl.casw.aqrl is hl.casw with aq and rl set.
  const auto dot = mnemonic.rfind('.');
  if (!known(mnemonic) && dot != std::string::npos && known(mnemonic.substr(0, dot))) {
    if (const auto flags = split_flag_suffix(std::string_view(mnemonic).substr(dot + 1))) {
      operands.insert(operands.end(), flags->begin(), flags->end());
      mnemonic.resize(dot);
      changed = true;
    }
  }
  if (changed) {
    line.mnemonic = mnemonic;
    line.operands = join(operands);
  }
  return std::nullopt;
}

}  // namespace ptovp::isa

#include "isa/operand_names.hpp"

#include <array>
#include <cctype>
#include <charconv>
#include <vector>

#include "numeric/data_type.hpp"

namespace ptovp::isa {

namespace {

struct NamedCode {
  std::int64_t code;
  std::string_view name;
};

// The first entry of a code is its canonical spelling; later ones are aliases.
const std::vector<NamedCode>& entries(NameTable table) {
  static const auto data_types = [] {
    std::vector<NamedCode> list;
    list.reserve(numeric::kDataTypes.size());
    for (const auto& info : numeric::kDataTypes) {
      list.push_back({static_cast<std::int64_t>(info.type), info.name});
    }
    return list;
  }();
  static const auto data_types_or_none = [] {
    auto list = data_types;
    list.push_back({31, "DTYPE_NONE"});
    list.push_back({31, "NONE"});
    return list;
  }();
  static const std::vector<NamedCode> pre_quant{
      {0, "None"},           {0, "NoQuant"},         {1, "F322F16"},
      {2, "VREQ8"},          {2, "S8Vector"},        {3, "REQ8"},
      {4, "VDEQF16"},        {5, "DEQF16"},          {12, "VSHIFTS322S16"},
      {13, "SHIFTS322S16"},  {16, "F322BF16"},       {17, "REQ4"},
      {18, "VREQ4"},         {19, "DEQS16"},         {20, "VDEQS16"},
      {23, "VQF322B8_PRE"},  {24, "QF322B8_PRE"},    {25, "QF322HIF8_PRE"},
      {26, "QF322FP8_PRE"},  {27, "QF322F32_PRE"},   {28, "VQF322HIF8_PRE"},
      {32, "QF322F16_PRE"},  {33, "VQF322F16_PRE"},  {34, "QF322BF16_PRE"},
      {35, "QS322BF16_PRE"}, {36, "VQF322BF16_PRE"}, {37, "VQF322FP8_PRE"},
      {38, "VQF322F32_PRE"}, {39, "VQS322BF16_PRE"}};
  static const std::vector<NamedCode> relu{{0, "None"}, {1, "ReLU"}, {2, "LReLU"}, {3, "PReLU"}};
  static const std::vector<NamedCode> rounding{{0, "NONE"}, {1, "RNE"}, {2, "RTZ"}, {3, "RDN"},
                                               {3, "RTM"},  {4, "RUP"}, {4, "RTP"}, {5, "RNA"},
                                               {6, "RTO"},  {7, "RHB"}};
  static const std::vector<NamedCode> layout{
      {0, "NORM"},    {1, "ND2DN"},   {3, "ND2ZN"},  {4, "ND2NZ"},   {6, "DN2ND"},
      {8, "DN2ZN"},   {9, "DN2NZ"},   {17, "ZN2ND"}, {18, "ZN2DN"},  {20, "ZN2NZ"},
      {21, "ND2M32"}, {22, "ND2M16"}, {23, "ND2N8"}, {24, "M322ND"}, {25, "M162ND"},
      {26, "N82ND"},  {27, "NZ2ND"},  {28, "NZ2DN"}, {30, "NZ2ZN"}};
  static const std::vector<NamedCode> cmode{{0, "EQ"}, {1, "NE"}, {2, "LT"},
                                            {3, "GT"}, {4, "LE"}, {5, "GE"}};
  static const std::vector<NamedCode> pad{{0, "Zero"}, {1, "Max"}, {2, "Min"}, {3, "Null"}};
  static const std::vector<NamedCode> temperature{
      {0, "none"}, {1, "cool"}, {2, "warm"}, {3, "hot"}};
  static const std::vector<NamedCode> trace{{0, "begin"}, {1, "end"}};
  static const std::vector<NamedCode> branch{{1, "FALL"}, {5, "IND"}, {7, "RET"}};
  static const std::vector<NamedCode> loop{{0, "LB0"}, {1, "LB1"}, {2, "LB2"}};
  switch (table) {
    case NameTable::DataType: return data_types;
    case NameTable::DataTypeOrNone: return data_types_or_none;
    case NameTable::PreQuantMode: return pre_quant;
    case NameTable::ReluMode: return relu;
    case NameTable::RoundingMode: return rounding;
    case NameTable::Layout: return layout;
    case NameTable::CMode: return cmode;
    case NameTable::PadValue: return pad;
    case NameTable::Temperature: return temperature;
    case NameTable::TraceEdge: return trace;
    case NameTable::BranchType: return branch;
    case NameTable::LoopNest: return loop;
  }
  return loop;
}

constexpr std::array<std::string_view, 24> kAbiNames{
    "zero", "sp", "a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7", "ra", "s0",
    "s1",   "s2", "s3", "s4", "s5", "s6", "s7", "s8", "x0", "x1", "x2", "x3"};
constexpr std::string_view kHandLetters = "TUMN";

std::optional<unsigned> parse_decimal(std::string_view text) {
  unsigned value = 0;
  const auto* end = text.data() + text.size();
  const auto result = std::from_chars(text.data(), end, value);
  if (text.empty() || result.ec != std::errc() || result.ptr != end) return std::nullopt;
  return value;
}

}  // namespace

bool equals_ignoring_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

std::string to_upper(std::string_view text) {
  std::string out(text);
  for (char& c : out)
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::optional<NameTable> name_table(std::string_view id) {
  static const std::array<std::pair<std::string_view, NameTable>, 12> kIds{{
      {"DataType", NameTable::DataType},
      {"DataTypeOrNone", NameTable::DataTypeOrNone},
      {"PreQuantMode", NameTable::PreQuantMode},
      {"ReluMode", NameTable::ReluMode},
      {"RoundingMode", NameTable::RoundingMode},
      {"Layout", NameTable::Layout},
      {"CMode", NameTable::CMode},
      {"PadValue", NameTable::PadValue},
      {"Temperature", NameTable::Temperature},
      {"TraceEdge", NameTable::TraceEdge},
      {"BranchType", NameTable::BranchType},
      {"LoopNest", NameTable::LoopNest},
  }};
  for (const auto& [name, table] : kIds) {
    if (name == id) return table;
  }
  return std::nullopt;
}

std::optional<std::string_view> name_of(NameTable table, std::int64_t code) {
  for (const NamedCode& entry : entries(table)) {
    if (entry.code == code) return entry.name;
  }
  return std::nullopt;
}

std::string code_name(NameTable table, std::int64_t code) {
  if (const auto name = name_of(table, code)) return std::string(*name);
  return std::to_string(code);
}

std::optional<std::int64_t> code_of(NameTable table, std::string_view name) {
  for (const NamedCode& entry : entries(table)) {
    if (equals_ignoring_case(entry.name, name)) return entry.code;
  }
  return std::nullopt;
}

std::string source_register_name(unsigned code) {
  if (code < kAbiNames.size()) return std::string(kAbiNames[code]);
  if (code < 28) return "t#" + std::to_string(code - 23);
  return "u#" + std::to_string(code - 27);
}

std::string dest_register_name(unsigned code) {
  if (code < kAbiNames.size()) return std::string(kAbiNames[code]);
  if (code == 31) return "t";
  if (code == 30) return "u";
  return "r" + std::to_string(code);
}

std::optional<unsigned> register_code(std::string_view name, bool destination) {
  for (unsigned i = 0; i < kAbiNames.size(); ++i) {
    if (equals_ignoring_case(name, kAbiNames[i])) return i;
  }
  if (name.size() >= 2 && (name[0] == 'r' || name[0] == 'R')) {
    const auto number = parse_decimal(name.substr(1));
    if (number && *number < 32) return number;
  }
  if (destination) {
    if (equals_ignoring_case(name, "t")) return 31u;
    if (equals_ignoring_case(name, "u")) return 30u;
    return std::nullopt;
  }
  if (name.size() == 3 && name[1] == '#') {
    const char queue = static_cast<char>(std::tolower(static_cast<unsigned char>(name[0])));
    const auto k = parse_decimal(name.substr(2));
    if ((queue == 't' || queue == 'u') && k && *k >= 1 && *k <= 4) {
      return (queue == 't' ? 23u : 27u) + *k;
    }
  }
  return std::nullopt;
}

std::optional<unsigned> tile_hand(std::string_view letter) {
  if (letter.size() != 1) return std::nullopt;
  const auto upper = static_cast<char>(std::toupper(static_cast<unsigned char>(letter[0])));
  const auto pos = kHandLetters.find(upper);
  if (pos == std::string_view::npos) return std::nullopt;
  return static_cast<unsigned>(pos);
}

char tile_hand_letter(unsigned hand) {
  return kHandLetters[hand & 3];
}

std::string tile_source_name(unsigned code) {
  return std::string(1, tile_hand_letter(code >> 4)) + "#" + std::to_string((code & 15) + 1);
}

std::optional<unsigned> tile_source_code(std::string_view name) {
  if (name.size() < 2) return std::nullopt;
  const auto hand = tile_hand(name.substr(0, 1));
  if (!hand) return std::nullopt;
  const bool relative = name[1] == '#';
  const auto number = parse_decimal(name.substr(relative ? 2 : 1));
  if (!number) return std::nullopt;
  if (relative && *number >= 1 && *number <= 16) return *hand * 16 + *number - 1;
  if (!relative && *number <= 15) return *hand * 16 + *number;
  return std::nullopt;
}

std::string_view pe_mask_of_mode(unsigned pe_mode) {
  static constexpr std::array<std::string_view, 8> kMasks{"0000", "1000", "0100", "0010",
                                                          "0001", "1100", "1110", "1111"};
  return kMasks[pe_mode & 7];
}

std::optional<unsigned> pe_mode_of_mask(std::string_view bits) {
  for (unsigned mode = 0; mode < 8; ++mode) {
    if (pe_mask_of_mode(mode) == bits) return mode;
  }
  return std::nullopt;
}

}  // namespace ptovp::isa

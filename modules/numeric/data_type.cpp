#include "numeric/data_type.hpp"

#include <cctype>
#include <string>

#include "numeric/error.hpp"

namespace ptovp::numeric {
namespace {

// kDataTypes index by 5-bit code (kNoType for reserved codes): info() sits
// on per-element paths, so it is a lookup, not a search.
constexpr std::uint8_t kNoType = 0xFF;
constexpr std::array<std::uint8_t, 32> kIndexByCode = [] {
  std::array<std::uint8_t, 32> index{};
  for (auto& entry : index)
    entry = kNoType;
  for (std::size_t i = 0; i < kDataTypes.size(); ++i) {
    index[static_cast<unsigned>(kDataTypes[i].type)] = static_cast<std::uint8_t>(i);
  }
  return index;
}();

}  // namespace

const DataTypeInfo& info(DataType type) {
  const unsigned code = static_cast<unsigned>(type);
  if (code < kIndexByCode.size() && kIndexByCode[code] != kNoType) {
    return kDataTypes[static_cast<std::size_t>(kIndexByCode[code])];
  }
  throw IllegalFieldValue("DataType", code, "not a tile data type");
}

std::optional<DataType> data_type_from_code(unsigned code) {
  if (code < kIndexByCode.size() && kIndexByCode[code] != kNoType) {
    return kDataTypes[static_cast<std::size_t>(kIndexByCode[code])].type;
  }
  return std::nullopt;
}

DataType require_data_type(unsigned code, std::string_view field) {
  if (auto type = data_type_from_code(code)) return *type;
  throw IllegalFieldValue(
      std::string(field), code,
      code == kDataTypeNone ? "DTYPE_NONE is not a tile data type" : "reserved data-type code");
}

std::optional<DataType> data_type_from_name(std::string_view text) {
  auto same = [](std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (std::toupper(static_cast<unsigned char>(a[i])) !=
          std::toupper(static_cast<unsigned char>(b[i])))
        return false;
    }
    return true;
  };
  for (const DataTypeInfo& entry : kDataTypes) {
    if (same(entry.name, text)) return entry.type;
  }
  return std::nullopt;
}

}  // namespace ptovp::numeric

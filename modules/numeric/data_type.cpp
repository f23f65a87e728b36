#include "numeric/data_type.hpp"

#include <cctype>
#include <string>

#include "numeric/error.hpp"

namespace ptovp::numeric {

const DataTypeInfo& info(DataType type) {
  for (const DataTypeInfo& entry : kDataTypes) {
    if (entry.type == type) return entry;
  }
  throw IllegalFieldValue("DataType", static_cast<unsigned>(type), "not a tile data type");
}

std::optional<DataType> data_type_from_code(unsigned code) {
  for (const DataTypeInfo& entry : kDataTypes) {
    if (static_cast<unsigned>(entry.type) == code) return entry.type;
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

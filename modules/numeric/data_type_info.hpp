// The static traits of a PTO tile data type (PTO-FIELD-BLOCK-DATATYPE); the
// rows are generated from the spec catalogs (numeric/generated/data_types.hpp).
#pragma once

#include <cstdint>
#include <string_view>

namespace ptovp::numeric {

enum class DataType : std::uint8_t;  // the codes: numeric/generated/data_types.hpp

enum class TypeKind : std::uint8_t { Floating, Scale, Signed, Unsigned };

struct DataTypeInfo {
  DataType type;
  std::string_view name;
  TypeKind kind;
  std::uint8_t storage_bits;  // bits of one storage unit (a byte for the X2 types)
  std::uint8_t lanes;         // logical elements per storage unit (2 for X2 types)
  std::uint8_t lane_bits;     // bits of one logical element's raw encoding
};

}  // namespace ptovp::numeric

// The 25 PTO tile data types (PTO-FIELD-BLOCK-DATATYPE) and their static
// traits: the codes and kDataTypes are generated from the spec catalogs
// (numeric/generated/data_types.hpp, scripts/gen_isa_tables.py).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "numeric/data_type_info.hpp"
#include "numeric/generated/data_types.hpp"

namespace ptovp::numeric {

inline constexpr unsigned kDataTypeNone = 31;  // B.DATR DTYPE_NONE sentinel

const DataTypeInfo& info(DataType type);
inline std::string_view name(DataType type) {
  return info(type).name;
}
inline unsigned code(DataType type) {
  return static_cast<unsigned>(type);
}

// nullopt for reserved codes and for 31 (DTYPE_NONE).
std::optional<DataType> data_type_from_code(unsigned code);
// Throws IllegalFieldValue naming `field` for a reserved code.
DataType require_data_type(unsigned code, std::string_view field);
// Exact spec spelling ("HiF8", "E4M3", ...); case-insensitive.
std::optional<DataType> data_type_from_name(std::string_view name);

inline bool is_floating(DataType t) {
  return info(t).kind == TypeKind::Floating;
}
inline bool is_integer(DataType t) {
  return info(t).kind == TypeKind::Signed || info(t).kind == TypeKind::Unsigned;
}
inline bool is_signed_integer(DataType t) {
  return info(t).kind == TypeKind::Signed;
}
inline bool is_packed(DataType t) {
  return info(t).lanes == 2;
}

// Packed X2 lane order: logical element 2i is bits 3:0 of byte i, element
// 2i+1 bits 7:4 (PackedTileNibbleFromWord).
inline std::uint8_t packed_lane(std::uint8_t byte, unsigned lane) {
  return static_cast<std::uint8_t>((byte >> (4 * (lane & 1))) & 0xF);
}
inline std::uint8_t pack_lanes(std::uint8_t lane0, std::uint8_t lane1) {
  return static_cast<std::uint8_t>((lane0 & 0xF) | ((lane1 & 0xF) << 4));
}

}  // namespace ptovp::numeric

// The 25 PTO tile data types (PTO-FIELD-BLOCK-DATATYPE) and their static traits.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace ptovp::numeric {

// Codes are the 5-bit DataType field values. 15, 21..23, 29, 30 are reserved;
// 31 is the B.DATR "none" sentinel, never a tile data type.
enum class DataType : std::uint8_t {
  FP64 = 0,
  FP32 = 1,
  TF32 = 2,
  HF32 = 3,
  FP16 = 4,
  BF16 = 5,
  HiF8 = 6,
  E4M3 = 7,
  E5M2 = 8,
  E3M2 = 9,
  E2M3 = 10,
  E2M1X2 = 11,
  E1M2X2 = 12,
  E8M0 = 13,
  HiF4X2 = 14,
  S64 = 16,
  S32 = 17,
  S16 = 18,
  S8 = 19,
  S4X2 = 20,
  U64 = 24,
  U32 = 25,
  U16 = 26,
  U8 = 27,
  U4X2 = 28,
};

inline constexpr unsigned kDataTypeNone = 31;  // B.DATR DTYPE_NONE sentinel

enum class TypeKind : std::uint8_t { Floating, Scale, Signed, Unsigned };

struct DataTypeInfo {
  DataType type;
  std::string_view name;
  TypeKind kind;
  std::uint8_t storage_bits;  // bits of one storage unit (a byte for the X2 types)
  std::uint8_t lanes;         // logical elements per storage unit (2 for X2 types)
  std::uint8_t lane_bits;     // bits of one logical element's raw encoding
};

inline constexpr std::array<DataTypeInfo, 25> kDataTypes{{
    {DataType::FP64, "FP64", TypeKind::Floating, 64, 1, 64},
    {DataType::FP32, "FP32", TypeKind::Floating, 32, 1, 32},
    {DataType::TF32, "TF32", TypeKind::Floating, 32, 1, 32},
    {DataType::HF32, "HF32", TypeKind::Floating, 32, 1, 32},
    {DataType::FP16, "FP16", TypeKind::Floating, 16, 1, 16},
    {DataType::BF16, "BF16", TypeKind::Floating, 16, 1, 16},
    {DataType::HiF8, "HiF8", TypeKind::Floating, 8, 1, 8},
    {DataType::E4M3, "E4M3", TypeKind::Floating, 8, 1, 8},
    {DataType::E5M2, "E5M2", TypeKind::Floating, 8, 1, 8},
    {DataType::E3M2, "E3M2", TypeKind::Floating, 8, 1, 6},
    {DataType::E2M3, "E2M3", TypeKind::Floating, 8, 1, 6},
    {DataType::E2M1X2, "E2M1X2", TypeKind::Floating, 8, 2, 4},
    {DataType::E1M2X2, "E1M2X2", TypeKind::Floating, 8, 2, 4},
    {DataType::E8M0, "E8M0", TypeKind::Scale, 8, 1, 8},
    {DataType::HiF4X2, "HiF4X2", TypeKind::Floating, 8, 2, 4},
    {DataType::S64, "S64", TypeKind::Signed, 64, 1, 64},
    {DataType::S32, "S32", TypeKind::Signed, 32, 1, 32},
    {DataType::S16, "S16", TypeKind::Signed, 16, 1, 16},
    {DataType::S8, "S8", TypeKind::Signed, 8, 1, 8},
    {DataType::S4X2, "S4X2", TypeKind::Signed, 8, 2, 4},
    {DataType::U64, "U64", TypeKind::Unsigned, 64, 1, 64},
    {DataType::U32, "U32", TypeKind::Unsigned, 32, 1, 32},
    {DataType::U16, "U16", TypeKind::Unsigned, 16, 1, 16},
    {DataType::U8, "U8", TypeKind::Unsigned, 8, 1, 8},
    {DataType::U4X2, "U4X2", TypeKind::Unsigned, 8, 2, 4},
}};

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

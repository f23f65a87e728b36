#include "tlsu/block_schema.hpp"

#include <fmt/format.h>

#include "isa/operand_names.hpp"

namespace ptovp::tlsu {

using arch::FaultCode;
using arch::make_fault;

namespace {

arch::Fault illegal(std::string reason) {
  return make_fault(FaultCode::TileLegality, std::move(reason));
}

bool ordinary_code(unsigned code) {
  switch (code) {
    case 0:
    case 1:
    case 3:
    case 4:
    case 6:
    case 8:
    case 9:
    case 17:
    case 18:
    case 20:
    case 27:
    case 28:
    case 30: return true;
    default: return false;
  }
}

}  // namespace

bool is_cube_load_code(unsigned code) {
  return code >= 21 && code <= 23;
}
bool is_cube_store_code(unsigned code) {
  return code >= 24 && code <= 26;
}

bool layout_conversion(const arch::BlockDescriptor& block) {
  return block.datr.present &&
         (is_cube_load_code(block.datr.layout) || is_cube_store_code(block.datr.layout));
}

arch::MaybeFault check_ior(const arch::BlockDescriptor& block, unsigned used, FaultCode code) {
  if (!block.ior.valid) return std::nullopt;
  bool extra = block.ior.destination != 0;
  for (unsigned slot = used; slot < arch::kIorSources; ++slot) {
    extra = extra || block.ior.source[slot] != 0;
  }
  if (!extra) return std::nullopt;
  return make_fault(code, fmt::format("B.IOR fields this operation does not consume are not zero "
                                      "(RegDst={} RegSrc={}/{}/{}; {} source(s) used)",
                                      block.ior.destination, block.ior.source[0],
                                      block.ior.source[1], block.ior.source[2], used));
}

arch::MaybeFault check_datr(const arch::BlockDescriptor& block, DatrUse use) {
  const arch::DataAttributes& datr = block.datr;
  const bool cube = use == DatrUse::CubeLoad || use == DatrUse::CubeStore;
  if (!datr.present) {
    if (!cube) return std::nullopt;
    return illegal("the CUBE layout conversion needs an explicit B.DATR");
  }
  if (datr.cmode != 0 || datr.rmode != 0 || datr.saturating || datr.canonicalize) {
    return illegal(
        fmt::format("B.DATR CMode={} RMode={} Sat={} Canonicalize={} must be EQ, NONE, 0, 0 in a "
                    "TLSU block",
                    isa::code_name(isa::NameTable::CMode, datr.cmode),
                    isa::code_name(isa::NameTable::RoundingMode, datr.rmode),
                    datr.saturating ? 1 : 0, datr.canonicalize ? 1 : 0));
  }
  if (datr.data_type != arch::kDataTypeNoneCode) {
    return illegal(fmt::format("B.DATR DataType {} must be DTYPE_NONE in a TLSU block",
                               isa::code_name(isa::NameTable::DataTypeOrNone, datr.data_type)));
  }
  const unsigned code = datr.layout;
  const bool ordinary = use == DatrUse::OrdinaryLayout || use == DatrUse::PaddedLayout;
  const bool code_ok = (ordinary && ordinary_code(code)) ||
                       (use == DatrUse::NoLayout && code == 0) ||
                       (use == DatrUse::CubeLoad && is_cube_load_code(code)) ||
                       (use == DatrUse::CubeStore && is_cube_store_code(code));
  if (!code_ok) {
    return illegal(fmt::format("B.DATR Layout {} is not legal here",
                               isa::code_name(isa::NameTable::Layout, code)));
  }
  if (!cube && use != DatrUse::PaddedLayout && datr.pad != 0) {
    return illegal(fmt::format("B.DATR PadValue {} must be Zero outside CUBE conversions",
                               isa::code_name(isa::NameTable::PadValue, datr.pad)));
  }
  return std::nullopt;
}

arch::Layout tile_layout(const arch::BlockDescriptor& block) {
  switch (block.datr.present ? block.datr.layout : 0u) {
    case 1:
    case 18:
    case 28: return arch::Layout::ColumnMajor;
    case 3:
    case 8:
    case 30: return arch::Layout::ZN;
    case 4:
    case 9:
    case 20: return arch::Layout::NZ;
    case 21:
    case 24: return arch::Layout::CubeM32;
    case 22:
    case 25: return arch::Layout::CubeM16;
    case 23:
    case 26: return arch::Layout::CubeN8;
    default: return arch::Layout::RowMajor;  // NORM, DN2ND, ZN2ND, NZ2ND
  }
}

arch::Expected<arch::DataType> transfer_type(const arch::BlockDescriptor& block) {
  if (auto type = numeric::data_type_from_code(block.data_type)) return *type;
  return illegal(fmt::format("BSTART DataType {} is not a tile data type",
                             isa::code_name(isa::NameTable::DataTypeOrNone, block.data_type)));
}

PeAccesses accesses(const arch::BlockDescriptor& block, std::uint64_t dense_stride) {
  PeAccesses result{};
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
    if (block.ior.valid) {
      result[pe] = {block.ior_values[pe][0], block.ior_values[pe][1]};
    } else {
      result[pe] = {0, dense_stride};
    }
  }
  return result;
}

}  // namespace ptovp::tlsu

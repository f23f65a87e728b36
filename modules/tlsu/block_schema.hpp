// Schema checks shared by the TLSU operations: dimensions, B.IOR, B.DATR
// fields and layout codes, the transfer data type, and per-PE GM accesses.
#pragma once

#include <cstdint>
#include <optional>

#include "arch/block_descriptor.hpp"
#include "arch/fault.hpp"
#include "arch/tile_info.hpp"
#include "tlsu/footprint.hpp"

namespace ptovp::tlsu {

// How a block may use B.DATR.
enum class DatrUse : std::uint8_t {
  OrdinaryLayout,  // any ordinary layout code, PadValue Zero
  PaddedLayout,    // any ordinary layout code, any PadValue (MGATHER)
  CubeLoad,        // explicit ND2M32/ND2M16/ND2N8 with DTYPE_NONE, any PadValue
  CubeStore,       // explicit M322ND/M162ND/N82ND with DTYPE_NONE, any PadValue
  NoLayout,        // NORM only, PadValue Zero
};

bool is_cube_load_code(unsigned code);
bool is_cube_store_code(unsigned code);

// BundleCubeTransportSelected: an explicit B.DATR CUBE layout code selects the
// layout conversion dispatcher, whatever the TLSU function.
bool layout_conversion(const arch::BlockDescriptor& block);
// B.IOR uses RegSrc0..RegSrc[used-1]; RegDst and the rest must be 0
// (BundleOperationScalarBindingSchemaLegal). `code` is the fault the
// operation's dispatcher raises for a malformed schema: BundleControl on the
// ordinary Local and the Shared paths, TileLegality on the dedicated ones
// (asl/block/model/dispatch/).
arch::MaybeFault check_ior(const arch::BlockDescriptor& block, unsigned used, arch::FaultCode code);
// B.DATR legality for `use` (TileLegality).
arch::MaybeFault check_datr(const arch::BlockDescriptor& block, DatrUse use);
// The tile-side layout of the B.DATR code (the "...2X" half).
arch::Layout tile_layout(const arch::BlockDescriptor& block);
// BSTART DataType; TileLegality for a reserved code or DTYPE_NONE.
arch::Expected<arch::DataType> transfer_type(const arch::BlockDescriptor& block);
// Per-PE base (RegSrc0) and byte stride (RegSrc1); omitted B.IOR: base 0 and
// `dense_stride`.
PeAccesses accesses(const arch::BlockDescriptor& block, std::uint64_t dense_stride);

}  // namespace ptovp::tlsu

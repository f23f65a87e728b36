// The units a completed block is handed to. The block builder owns no unit:
// the platform binds one callable per execution class, so the CUBE unit plugs
// in beside TLSU with one assignment and the builder does not change.
#pragma once

#include <cstdint>
#include <functional>

#include "arch/block_descriptor.hpp"
#include "arch/fault.hpp"

namespace ptovp::block_builder {

// Runs one resolved block (ior_values filled in) against TILE_CAPACITY. A
// unit checks everything before its first effect, so a returned fault means
// no tile, Shared, memory or capacity change (a unit that reserves
// destinations early releases them itself before returning the fault).
using BlockExecutor = std::function<arch::MaybeFault(const arch::BlockDescriptor& block,
                                                     std::uint64_t tile_capacity)>;

struct BlockExecutors {
  BlockExecutor tlsu;  // OperationClass::Tlsu (TileMemory blocks)
  BlockExecutor cube;  // OperationClass::Cube (TileMatrix blocks)
  BlockExecutor tepl;  // OperationClass::Tepl (VEC/SFU); empty: not modelled
};

}  // namespace ptovp::block_builder

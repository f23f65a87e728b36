// The mnemonic of a tile block for traces, logs and statistics, from the
// generated tile-operation catalog: "TLOAD", "TMOV.S2L.BROADCAST",
// "TMATMULMX.BIAS".
#pragma once

#include <string_view>

#include "arch/block_descriptor.hpp"

namespace ptovp::block_builder {

std::string_view block_mnemonic(const arch::BlockDescriptor& block);

}  // namespace ptovp::block_builder

// Readable names for block state, shared by the fault report and the state dump.
#pragma once

#include <string>
#include <string_view>

#include "arch/block_descriptor.hpp"

namespace ptovp::engine {

std::string_view name(arch::BlockKind kind);
std::string_view name(arch::TransferType transfer);
// One line per header item: "BSTART.TLOAD-class TLSU function 0, DataType 4", "LB0 = 16", ...
std::string describe_header(const arch::BlockDescriptor& header);

}  // namespace ptovp::engine

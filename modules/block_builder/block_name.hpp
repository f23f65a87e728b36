// The mnemonic of a tile block for traces, logs and statistics, from the
// generated tile-operation catalog: "TLOAD", "TMOV.S2L.BROADCAST",
// "TMATMULMX.BIAS".
#pragma once

#include <cstddef>
#include <string_view>

#include "arch/block_descriptor.hpp"

namespace ptovp::block_builder {

// The mnemonic and a dense index that only that mnemonic has (names of
// static storage), so logs count blocks by index without comparing strings.
struct BlockName {
  std::string_view mnemonic;
  std::size_t index = 0;
};
BlockName block_name(const arch::BlockDescriptor& block);

inline std::string_view block_mnemonic(const arch::BlockDescriptor& block) {
  return block_name(block).mnemonic;
}

}  // namespace ptovp::block_builder

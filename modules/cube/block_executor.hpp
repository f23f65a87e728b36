// The CUBE unit as the block builder's executor for OperationClass::Cube
// (block_builder::BlockExecutor has this signature): the platform binds it
// with `executors.cube = cube::block_executor(unit, on_stall)`. A stall (an
// unready Shared source) changed nothing; `on_stall` reports it and decides
// what the builder sees (the functional runner stops: no other agent can
// make the source ready).
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "cube/cube.hpp"

namespace ptovp::cube {

using StallHandler = std::function<arch::MaybeFault(const std::string& reason)>;

inline std::function<arch::MaybeFault(const arch::BlockDescriptor&, std::uint64_t)> block_executor(
    Cube& unit, StallHandler on_stall) {
  return [&unit, on_stall = std::move(on_stall)](const arch::BlockDescriptor& block,
                                                 std::uint64_t) -> arch::MaybeFault {
    CubeOutcome outcome = unit.execute(block);
    if (outcome.stall) return on_stall(*outcome.stall);
    return outcome.fault;
  };
}

}  // namespace ptovp::cube

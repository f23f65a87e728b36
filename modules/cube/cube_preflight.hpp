// The CUBE block preflight (docs/cube.md "Preflight order", after
// ExecuteBundleTMATMULOperation in asl/block/model/dispatch/cube-tmatmul.asl
// with the 0.58.5 additions of docs/spec-choices.md): it reads the descriptor,
// the Local tile file and the Shared fabric, never changes them, and either
// fills a CubePlan or reports the first failing check (or a stall on an
// unready Shared source). Each spec step is one function of cube_preflight.cpp.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "arch/block_descriptor.hpp"
#include "arch/local_tile_file.hpp"
#include "cube/cube.hpp"
#include "cube/cube_config.hpp"
#include "cube/matrix_function.hpp"
#include "cube/row_split.hpp"
#include "fabric/fabric.hpp"
#include "fpatr/fpatr.hpp"

namespace ptovp::cube {

// The mathematical operands of a CUBE function, in B.IOT stream order.
enum class OperandRole : std::uint8_t { C, A, AScale, B, BScale, Bias, CScale };
// "C", "A scale", ... as fault reasons spell them.
const char* name(OperandRole role);

// One operand as the kernel reads it: where its payload lives and which
// stored element logical (r, c) is.
struct OperandSource {
  bool shared = false;
  unsigned index = 0;   // Local register or Shared id
  arch::TileInfo info;  // the descriptor (a Shared read view for Shared)
  bool transposed = false;
};

struct CubePlan {
  bool noop = false;  // every binding had a zero mask
  DataType a_type = DataType::FP32, b_type = DataType::FP32, accumulator = DataType::FP32;
  bool mx = false, bias = false, acc = false, cscale = false;
  numeric::NumericProfile profile = numeric::NumericProfile::Hardware;
  std::uint32_t m = 1, n = 1, k = 1;
  RowSplit split;
  // The multiply-accumulates PE `pe` computes: its rows of M, each N x K.
  std::uint64_t macs(unsigned pe) const { return std::uint64_t{split.rows(pe)} * n * k; }
  std::optional<fpatr::Fpatr> post;
  std::optional<OperandSource> c, a, a_scale, b, b_scale, bias_tile, c_scale;
  std::vector<unsigned> post_sources;  // RowMaxIn, vector quant, vector PReLU registers
  struct Destination {
    const arch::TileBinding* binding = nullptr;
    arch::TileInfo info;
  };
  std::vector<Destination> destinations;  // D, RowMaxOut, GroupMaxOut

  std::optional<OperandSource>& operand(OperandRole role);
};

class CubePreflight {
 public:
  CubePreflight(const arch::LocalTileFile& local, const fabric::Fabric& fabric,
                const CubeConfig& config)
      : local_(local), fabric_(fabric), config_(config) {}

  // Fills `plan` when the outcome is done().
  CubeOutcome run(const arch::BlockDescriptor& block, CubePlan& plan) const;

 private:
  const arch::LocalTileFile& local_;
  const fabric::Fabric& fabric_;
  const CubeConfig& config_;
};

}  // namespace ptovp::cube

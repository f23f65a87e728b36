// The CUBE unit's configuration: the numeric profile and every version-split
// or underspecified choice of docs/spec-choices.md as a named knob with its
// 0.58.5 default. cube_keys() registers them as configuration keys
// (docs/cube.md lists them with their values, and the 0.58.5 choices that have
// no effect in this model: cube.ordinary_fp_accumulate,
// coop.allshared_layout, cscale.flags_on_rollback, types.e6m2_rcpe6m2).
#pragma once

#include <cstdint>

#include "arch/fault.hpp"
#include "keys/key_table.hpp"
#include "numeric/numeric_profile.hpp"

namespace ptovp::cube {

// mx.scaled_product: how MX scales enter the product.
enum class ScaledProduct : std::uint8_t {
  HwFma,          // decoded scale x lane, then one FP32 FMA per term (hardware profile)
  AslRawCarrier,  // the ASL MultiplyWord reference: raw carriers (the pto-v0 accumulate)
};
// mx.hif4_nan_base: a HiF4 scale word whose E6M2 base is 0xFF.
enum class Hif4NanBase : std::uint8_t { Nan, Fault };
// mx.local_scale_layout: Local MX scale tiles.
enum class LocalScaleLayout : std::uint8_t {
  CubeM32,   // 0.58.5: A scale CUBE_M32 [M,G], B scale CUBE_M32 [N,G]
  RowMajor,  // 0.58.3: A scale row-major [M,G], B scale row-major [G,N]
};
// mx.local_scale_rows: 32-row blocks of a CUBE_M32 Local scale (B scale [N,G]).
enum class LocalScaleRows : std::uint8_t {
  MultiBlock,  // 0.58.5 (ADR-0101 generic grid): N > 32 is legal
  OneBlock,    // post-seed #323: at most 32 rows, else Fault_TileLegality
};
// mx.tgemv_hif4x2.
enum class Acceptance : std::uint8_t { Reject, Accept };
// coop.shared_b_orientation: how Shared B is stored when TransB = 0.
enum class SharedBOrientation : std::uint8_t { KN, NK };
// coop.shared_scale_orientation.
enum class SharedScaleOrientation : std::uint8_t {
  FollowTrans,  // a Shared scale is transposed with its primary
  NKFixed,      // A scale [M,G], B scale [N,G] whatever TransA/TransB
  KGroupMajor,  // A scale [G,M], B scale [G,N] whatever TransA/TransB
};
// coop.readiness: an unready Shared source of a cooperative block.
enum class Readiness : std::uint8_t {
  Wait,   // 0.58.5 (ADR-CUBE-0014): whole-parent readiness; the block stalls
  Fault,  // 0.58.3: four-quarter CooperativeMatrixReady, else Fault_TileLegality
};
// cube.cctrl: B.DATR PadValueOrByteId on a matrix block.
enum class Cctrl : std::uint8_t { Off, On };
// cube.bias_layout.
enum class BiasLayout : std::uint8_t { RowMajor, CubeN8 };

struct CubeConfig {
  numeric::NumericProfile profile = numeric::NumericProfile::Hardware;  // numeric.profile
  ScaledProduct scaled_product = ScaledProduct::HwFma;
  Hif4NanBase hif4_nan_base = Hif4NanBase::Nan;
  LocalScaleLayout local_scale_layout = LocalScaleLayout::CubeM32;
  LocalScaleRows local_scale_rows = LocalScaleRows::MultiBlock;
  Acceptance tgemv_hif4x2 = Acceptance::Reject;
  SharedBOrientation shared_b_orientation = SharedBOrientation::KN;
  SharedScaleOrientation shared_scale_orientation = SharedScaleOrientation::FollowTrans;
  bool coop_nk_pow2 = true;  // coop.nk_pow2 = enforce | relax
  Readiness readiness = Readiness::Wait;
  Cctrl cctrl = Cctrl::Off;
  BiasLayout bias_layout = BiasLayout::RowMajor;

  // The 0.58.3 reading the public block cases (spec e599a3d3) were made with:
  // pto-v0 arithmetic, row-major Local scales, four-quarter Shared readiness.
  static CubeConfig spec_0583_pto_v0();
};

// Every knob as a configuration key, in the order docs/cube.md lists them.
keys::KeyTable<CubeConfig> cube_keys();

}  // namespace ptovp::cube

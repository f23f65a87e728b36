#include "cube/cube_config.hpp"

namespace ptovp::cube {

CubeConfig CubeConfig::spec_0583_pto_v0() {
  CubeConfig config;
  config.profile = numeric::NumericProfile::PtoV0;
  config.local_scale_layout = LocalScaleLayout::RowMajor;
  config.readiness = Readiness::Fault;
  return config;
}

keys::KeyTable<CubeConfig> cube_keys() {
  using numeric::NumericProfile;
  keys::KeyTable<CubeConfig> table("cube::CubeConfig");
  table
      .choice("numeric.profile", &CubeConfig::profile,
              {{NumericProfile::Hardware, "hardware"}, {NumericProfile::PtoV0, "pto-v0"}},
              "numeric profile: FP32 FMA per term in K order and IEEE scalar FP, or the ASL raw-carrier "
              "arithmetic in both")
      .choice("mx.scaled_product", &CubeConfig::scaled_product,
              {{ScaledProduct::HwFma, "hw-fma"}, {ScaledProduct::AslRawCarrier, "asl-raw-carrier"}},
              "how MX scales enter the product")
      .choice("mx.hif4_nan_base", &CubeConfig::hif4_nan_base,
              {{Hif4NanBase::Nan, "nan"}, {Hif4NanBase::Fault, "fault"}},
              "a HiF4 scale base 0xFF: NaN terms or TileLegality")
      .choice("mx.local_scale_layout", &CubeConfig::local_scale_layout,
              {{LocalScaleLayout::CubeM32, "cube_m32"}, {LocalScaleLayout::RowMajor, "rowmajor"}},
              "Local MX scale tiles: 0.58.5 CUBE_M32 or 0.58.3 row-major")
      .choice("mx.local_scale_rows", &CubeConfig::local_scale_rows,
              {{LocalScaleRows::MultiBlock, "multi-block"}, {LocalScaleRows::OneBlock, "<=32"}},
              "32-row blocks a CUBE_M32 Local scale may span")
      .choice("mx.tgemv_hif4x2", &CubeConfig::tgemv_hif4x2,
              {{Acceptance::Reject, "reject"}, {Acceptance::Accept, "accept"}},
              "HiF4X2 on TGEMVMX forms")
      .choice("coop.shared_b_orientation", &CubeConfig::shared_b_orientation,
              {{SharedBOrientation::KN, "kn"}, {SharedBOrientation::NK, "nk"}},
              "how Shared B is stored when TransB = 0")
      .choice("coop.shared_scale_orientation", &CubeConfig::shared_scale_orientation,
              {{SharedScaleOrientation::FollowTrans, "follow-trans"},
               {SharedScaleOrientation::NKFixed, "nk-fixed"},
               {SharedScaleOrientation::KGroupMajor, "k-group-major"}},
              "how Shared scales are stored")
      .flag("coop.nk_pow2", &CubeConfig::coop_nk_pow2, "relax", "enforce",
            "cooperative N and K must be powers of two")
      .choice("coop.readiness", &CubeConfig::readiness,
              {{Readiness::Wait, "wait"}, {Readiness::Fault, "fault"}},
              "an unready Shared source: the block stalls, or TileLegality")
      .choice("cube.cctrl", &CubeConfig::cctrl, {{Cctrl::Off, "off"}, {Cctrl::On, "on"}},
              "B.DATR PadValueOrByteId as CCTRL on a matrix block")
      .choice("cube.bias_layout", &CubeConfig::bias_layout,
              {{BiasLayout::RowMajor, "rowmajor"}, {BiasLayout::CubeN8, "cube_n8"}},
              "Bias tile layout")
      .retired("iot.local_sizecode_11_12",
               "B.IOT encodes SizeCode 1..10 only, so 11 and 12 are IllegalInstruction at decode "
               "and never reach a block (docs/spec-choices.md)");
  return table;
}

}  // namespace ptovp::cube

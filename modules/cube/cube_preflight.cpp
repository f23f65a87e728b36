#include "cube/cube_preflight.hpp"

#include <fmt/format.h>

#include <array>
#include <string>

#include "cube/matrix_function.hpp"
#include "isa/operand_names.hpp"

namespace ptovp::cube {

using arch::BlockDescriptor;
using arch::Fault;
using arch::FaultCode;
using arch::Layout;
using arch::make_fault;
using arch::mask_string;
using arch::TileInfo;

const char* name(OperandRole role) {
  switch (role) {
    case OperandRole::C: return "C";
    case OperandRole::A: return "A";
    case OperandRole::AScale: return "A scale";
    case OperandRole::B: return "B";
    case OperandRole::BScale: return "B scale";
    case OperandRole::Bias: return "Bias";
    case OperandRole::CScale: return "CScale";
  }
  return "?";
}

std::optional<OperandSource>& CubePlan::operand(OperandRole role) {
  switch (role) {
    case OperandRole::C: return c;
    case OperandRole::A: return a;
    case OperandRole::AScale: return a_scale;
    case OperandRole::B: return b;
    case OperandRole::BScale: return b_scale;
    case OperandRole::Bias: return bias_tile;
    case OperandRole::CScale: return c_scale;
  }
  return c;
}

namespace {

CubeOutcome fault(FaultCode code, std::string reason) {
  return {make_fault(code, std::move(reason)), std::nullopt};
}
CubeOutcome illegal(std::string reason) {
  return fault(FaultCode::TileLegality, std::move(reason));
}
CubeOutcome propagate(const Fault& f) {
  return {f, std::nullopt};
}

bool power_of_two(std::uint32_t v) {
  return v != 0 && (v & (v - 1)) == 0;
}

// TileMatrixMLayoutLegal.
bool m_layout_legal(Layout layout, std::uint32_t rows) {
  return (layout == Layout::CubeM16 && rows <= 16) || (layout == Layout::CubeM32 && rows <= 32);
}

// A HiF4 scale word whose E6M2 base is 0xFF, in any PE's payload of `mask`.
bool hif4_nan_base(const TileInfo& info, const std::uint8_t* const* payloads, std::uint32_t rows,
                   std::uint32_t cols) {
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
    if (payloads[pe] == nullptr) continue;
    for (std::uint32_t r = 0; r < rows; ++r) {
      for (std::uint32_t c = 0; c < cols; ++c) {
        const std::uint64_t word =
            arch::read_slot(payloads[pe], info.data_type, arch::storage_index(info, r, c));
        if ((word & 0xFF) == 0xFF) return true;
      }
    }
  }
  return false;
}

// What one Shared mathematical source must be.
struct SharedRule {
  OperandRole role;
  std::uint32_t rows, cols;  // logical
  DataType type;
  bool transposed;  // stored cols x rows
};

// What one Local mathematical source must be.
struct LocalRule {
  OperandRole role;
  std::uint32_t rows, cols;
  DataType type;
  Layout layout;
  bool m_layout;  // CUBE_M16 or CUBE_M32 holding `rows` (the layout field is then A's choice)
};

// One preflight of one block: each step is a member, run in spec order; a
// step returns a not-done outcome to stop the preflight.
class BlockCheck {
 public:
  BlockCheck(const BlockDescriptor& block, CubePlan& plan, const arch::LocalTileFile& local,
             const fabric::Fabric& fabric, const CubeConfig& config)
      : block_(block), plan_(plan), local_(local), fabric_(fabric), config_(config) {}

  // Steps 1..4a and 4c/9: B.FPATR, the function, AType/BType and the pair,
  // the post-process configuration against the accumulator class.
  CubeOutcome types();
  // Step 4b and 4e/f: Shared count, Local source and destination counts, the
  // stream terminator, unused B.IOR fields, one common mask, B.IOR words.
  CubeOutcome binding_stream();
  // Step 4c: B.DATR fields a CUBE block does not use, CCTRL and CScaleEn.
  CubeOutcome attributes();
  // Steps 4d, 5 and 6: LB0..LB2, the cooperative limits, the row split, GEMV's M.
  CubeOutcome dimensions();
  // Step 7: TransA/TransB and each Shared source's binding, readiness and schema.
  CubeOutcome shared_operands();
  // Steps 9 and 10: the post-process sources, then the mathematical Local sources.
  CubeOutcome local_operands();
  // Steps 11..13: ACC distinctness, D's layout and the output group's shapes.
  CubeOutcome destinations();

 private:
  std::vector<SharedRule> shared_rules() const;
  std::vector<LocalRule> local_rules() const;
  CubeOutcome check_local(const LocalRule& rule, unsigned index) const;

  const BlockDescriptor& block_;
  CubePlan& plan_;
  const arch::LocalTileFile& local_;
  const fabric::Fabric& fabric_;
  const CubeConfig& config_;

  std::optional<MatrixFunction> function_;
  std::string op_;  // the function's name, for reasons
  bool a_scaled_ = false, b_scaled_ = false;
  bool a_shared_ = false, b_shared_ = false;
  unsigned math_sources_ = 0;
  std::vector<unsigned> codes_;  // Local source codes in stream order (SrcTile0 before SrcTile1)
  std::vector<const arch::TileBinding*> destinations_;
  std::uint8_t mask_ = 0;  // the block's common PE mask
  std::uint32_t rows_ = 0;
  std::uint8_t active_ = 0;
  std::uint32_t a_groups_ = 0, b_groups_ = 0;  // MX scale groups along K
  // Resolved Local source registers: at most two sources per B.IOT binding.
  std::array<unsigned, 2 * arch::kMaxTileBindings> indices_{};
  Layout a_layout_ = Layout::RowMajor;  // A's M layout, which C and D take
  std::uint32_t d_capacity_ = 0;
};

CubeOutcome BlockCheck::types() {
  if (!block_.fpatr.valid) {
    return fault(FaultCode::BundleControl, "the CUBE block has no B.FPATR");
  }
  function_ = MatrixFunction::decode(block_.function);
  if (!function_) {
    return fault(FaultCode::IllegalInstruction,
                 fmt::format("CUBE function {} is not assigned", block_.function));
  }
  op_ = function_->name();
  // AType from BSTART, BType from B.DATR when present.
  const auto a_type = numeric::data_type_from_code(block_.data_type);
  const unsigned b_code = block_.datr.present ? block_.datr.data_type : block_.data_type;
  const auto b_type = numeric::data_type_from_code(b_code);
  if (!a_type || !b_type) {
    return illegal(
        fmt::format("{}: AType {} / BType {} is not a tile data type "
                    "(B.DATR DTYPE_NONE is not legal in a CUBE block)",
                    op_, isa::code_name(isa::NameTable::DataTypeOrNone, block_.data_type),
                    isa::code_name(isa::NameTable::DataTypeOrNone, b_code)));
  }
  if (!function_->types_legal(*a_type, *b_type, config_.tgemv_hif4x2 == Acceptance::Accept)) {
    return illegal(fmt::format("{} does not accept the input pair A {} x B {}", op_,
                               numeric::name(*a_type), numeric::name(*b_type)));
  }
  plan_.a_type = *a_type;
  plan_.b_type = *b_type;
  plan_.mx = function_->mx();
  plan_.bias = function_->bias();
  plan_.acc = function_->accumulate();
  plan_.cscale = block_.fpatr.cscale_en();
  // Step 8's result type is needed by 4c and step 9; both are TileLegality.
  plan_.accumulator = function_->accumulator(*a_type);
  plan_.profile = plan_.mx && config_.scaled_product == ScaledProduct::AslRawCarrier
                      ? numeric::NumericProfile::PtoV0
                      : config_.profile;
  // B.FPATR against B.DATR and the accumulator class (step 9's first check).
  auto post = fpatr::Fpatr::configure(block_.fpatr, block_.datr, plan_.accumulator);
  if (!post) return propagate(post.fault());
  plan_.post = *post;
  a_scaled_ = plan_.mx && numeric::mx_side_scaled(plan_.a_type);
  b_scaled_ = plan_.mx && numeric::mx_side_scaled(plan_.b_type);
  return {};
}

CubeOutcome BlockCheck::binding_stream() {
  const fpatr::Fpatr& pp = *plan_.post;
  const unsigned shared_count = block_.shared_count;
  const unsigned right_group = 1u + b_scaled_;
  const unsigned both_groups = right_group + 1u + a_scaled_;
  const bool gemv = function_->gemv();
  if (shared_count != 0 && (gemv || (shared_count != right_group && shared_count != both_groups))) {
    return illegal(fmt::format(
        "{} with A {} and B {} cannot take {} B.IOS binding(s) (legal: 0{})", op_,
        numeric::name(plan_.a_type), numeric::name(plan_.b_type), shared_count,
        gemv ? ", GEMV is Local-only" : fmt::format(", {} or {}", right_group, both_groups)));
  }
  a_shared_ = shared_count == both_groups && shared_count != 0;
  b_shared_ = shared_count != 0;
  math_sources_ = (plan_.acc ? 1u : 0u) + (a_shared_ ? 0u : 1u + a_scaled_) +
                  (b_shared_ ? 0u : 1u + b_scaled_) + (plan_.bias ? 1u : 0u) +
                  (plan_.cscale ? 1u : 0u);
  // A legal stream fills these at once: one allocation each per block.
  codes_.reserve(math_sources_ + pp.source_count());
  destinations_.reserve(pp.destination_count());
  for (unsigned i = 0; i < block_.tile_count; ++i) {
    const arch::TileBinding& binding = block_.tiles[i];
    for (unsigned s = 0; s < binding.source_count; ++s)
      codes_.push_back(binding.source[s]);
    if (binding.has_destination) destinations_.push_back(&binding);
  }
  if (codes_.size() != math_sources_ + pp.source_count() ||
      destinations_.size() != pp.destination_count()) {
    return illegal(fmt::format(
        "{} needs {} Local source(s) ({} mathematical + {} post-process) and {} destination(s); "
        "the B.IOT stream has {} and {}",
        op_, math_sources_ + pp.source_count(), math_sources_, pp.source_count(),
        pp.destination_count(), codes_.size(), destinations_.size()));
  }
  for (unsigned i = 0; i < block_.tile_count; ++i) {
    if (block_.tiles[i].last != (i + 1 == block_.tile_count)) {
      return illegal(
          fmt::format("the B.IOT stream is not terminated by its last binding "
                      "(binding {} of {} has L={})",
                      i, block_.tile_count, block_.tiles[i].last ? 1 : 0));
    }
  }
  if (block_.ior.valid) {
    bool extra = block_.ior.destination != 0;
    for (unsigned slot = pp.scalar_count(); slot < arch::kIorSources; ++slot) {
      extra = extra || block_.ior.source[slot] != 0;
    }
    if (extra) {
      return illegal(
          fmt::format("B.IOR fields the post-process does not consume are not zero "
                      "(RegDst={} RegSrc={}/{}/{}; {} consumed)",
                      block_.ior.destination, block_.ior.source[0], block_.ior.source[1],
                      block_.ior.source[2], pp.scalar_count()));
    }
  }
  // The block's common mask (4e/f) is needed for the B.IOR values.
  mask_ = block_.tile_count != 0 ? block_.tiles[0].pe_mask : block_.shared[0].pe_mask;
  for (unsigned i = 0; i < block_.tile_count; ++i) {
    if (block_.tiles[i].pe_mask != mask_) {
      return illegal(fmt::format("B.IOT masks differ: {} and {}", mask_string(mask_),
                                 mask_string(block_.tiles[i].pe_mask)));
    }
  }
  for (unsigned i = 0; i < shared_count; ++i) {
    if (block_.shared[i].pe_mask != mask_) {
      return illegal(fmt::format("B.IOS S{} mask {} differs from the block mask {}",
                                 block_.shared[i].shared_id, mask_string(block_.shared[i].pe_mask),
                                 mask_string(mask_)));
    }
  }
  if (auto f = pp.check_scalar_words(block_, mask_)) return propagate(*f);
  return {};
}

CubeOutcome BlockCheck::attributes() {
  const arch::DataAttributes& datr = block_.datr;
  const arch::FpAttributes& fp = block_.fpatr;
  if (datr.present) {
    const bool pad_ok = datr.pad == 0 || config_.cctrl == Cctrl::On;
    if (datr.layout != 0 || !pad_ok || datr.cmode != 0 || datr.canonicalize) {
      return illegal(fmt::format(
          "B.DATR in a CUBE block: Layout={} PadValueOrByteId={} CMode={} "
          "Canonicalize={} must be NORM, 0, EQ, 0",
          isa::code_name(isa::NameTable::Layout, datr.layout), datr.pad,
          isa::code_name(isa::NameTable::CMode, datr.cmode), datr.canonicalize ? 1 : 0));
    }
    const bool raw = (datr.pad & 1u) != 0;
    const bool c_hint = (datr.pad & 2u) != 0;
    if (c_hint && !plan_.acc) {
      return illegal(fmt::format("CCTRL {} (C hint) on {}, which has no C", datr.pad, op_));
    }
    if (raw && (fp.word & 0xFFFF8000u) != 0) {
      return illegal(
          fmt::format("CCTRL {} (raw output) needs B.FPATR PreQuant/Relu/GroupN/"
                      "RowMax/GroupMax/RowMaxInit/MaxAbs all 0, word is {:#010x}",
                      datr.pad, fp.word));
    }
  }
  if (plan_.cscale && !function_->cscale_legal()) {
    return illegal(
        fmt::format("B.FPATR CScaleEn is legal only on TMATMUL.ACC and TMATMULMX.ACC, "
                    "not {}",
                    op_));
  }
  if (plan_.cscale && plan_.accumulator != DataType::FP32) {
    return illegal(fmt::format("B.FPATR CScaleEn needs an FP32 accumulator, {} accumulates {}", op_,
                               numeric::name(plan_.accumulator)));
  }
  return {};
}

CubeOutcome BlockCheck::dimensions() {
  // Absent LBs are 1 (step 5).
  std::uint32_t dim[3];
  for (unsigned i = 0; i < 3; ++i) {
    auto value = arch::dimension(block_, i);
    if (!value) return propagate(value.fault());
    dim[i] = value->value_or(1);
  }
  plan_.m = dim[0];
  plan_.n = dim[1];
  plan_.k = dim[2];
  if (b_shared_) {
    if (plan_.m > 128) {
      return illegal(fmt::format("cooperative group_M (LB0) = {} is outside 1..128", plan_.m));
    }
    if (config_.coop_nk_pow2 && (!power_of_two(plan_.n) || !power_of_two(plan_.k))) {
      return illegal(
          fmt::format("cooperative N = {} and K = {} must be powers of two "
                      "(coop.nk_pow2 = enforce)",
                      plan_.n, plan_.k));
    }
    // One mask, at least one binding (4e/f); a cooperative block uses 1111.
    if (mask_ != arch::kAllPes) {
      return illegal(
          fmt::format("a cooperative Shared block needs PE_MASK 1111, got {}", mask_string(mask_)));
    }
  }
  plan_.split = b_shared_ ? RowSplit::cooperative(plan_.m) : RowSplit::local(plan_.m, mask_);
  rows_ = plan_.split.local_rows();
  active_ = plan_.split.active_mask();
  if (function_->gemv() && plan_.m != 1) {
    return illegal(fmt::format("{} needs M = 1, LB0 is {}", op_, plan_.m));
  }
  if (a_scaled_)
    a_groups_ = static_cast<std::uint32_t>(numeric::mx_scale_groups(plan_.k, plan_.a_type));
  if (b_scaled_)
    b_groups_ = static_cast<std::uint32_t>(numeric::mx_scale_groups(plan_.k, plan_.b_type));
  return {};
}

// The Shared sources in B.IOS order: [A, [A scale]], B, [B scale].
std::vector<SharedRule> BlockCheck::shared_rules() const {
  const arch::FpAttributes& fp = block_.fpatr;
  const bool scale_follow = config_.shared_scale_orientation == SharedScaleOrientation::FollowTrans;
  const bool nk_fixed = config_.shared_scale_orientation == SharedScaleOrientation::NKFixed;
  const bool b_nk = config_.shared_b_orientation == SharedBOrientation::NK;
  std::vector<SharedRule> rules;
  rules.reserve(4);  // A, AScale, B, BScale: one allocation per block
  if (a_shared_) {
    rules.push_back({OperandRole::A, plan_.m, plan_.k, plan_.a_type, fp.trans_a()});
    if (a_scaled_) {
      rules.push_back({OperandRole::AScale, plan_.m, a_groups_,
                       numeric::mx_scale_carrier(plan_.a_type),
                       scale_follow ? fp.trans_a() : !nk_fixed});
    }
  }
  rules.push_back({OperandRole::B, plan_.k, plan_.n, plan_.b_type, b_nk != fp.trans_b()});
  if (b_scaled_) {
    rules.push_back({OperandRole::BScale, b_groups_, plan_.n,
                     numeric::mx_scale_carrier(plan_.b_type),
                     scale_follow ? fp.trans_b() : nk_fixed});
  }
  return rules;
}

CubeOutcome BlockCheck::shared_operands() {
  if (block_.fpatr.trans_a() && !a_shared_) {
    return illegal("B.FPATR TransA is set but A is not a Shared operand");
  }
  if (block_.fpatr.trans_b() && !b_shared_) {
    return illegal("B.FPATR TransB is set but B is not a Shared operand");
  }
  if (!b_shared_) return {};
  const bool hif4_fault = config_.hif4_nan_base == Hif4NanBase::Fault;
  const std::vector<SharedRule> rules = shared_rules();
  for (unsigned i = 0; i < block_.shared_count; ++i) {
    const arch::SharedBinding& binding = block_.shared[i];
    const SharedRule& rule = rules[i];
    const unsigned id = binding.shared_id;
    if (binding.is_destination()) {
      return illegal(fmt::format("Shared {} S{} must be a source (SizeCode 0), SizeCode is {}",
                                 name(rule.role), id, binding.size_code));
    }
    if (config_.readiness == Readiness::Wait) {
      if (auto unready = fabric_.check_whole_parent_ready(id)) {
        return {std::nullopt, fmt::format("{} source {}", name(rule.role), unready->reason)};
      }
    } else if (auto unready = fabric_.check_cooperative_ready(id)) {
      return propagate(*unready);
    }
    const std::uint32_t stored_rows = rule.transposed ? rule.cols : rule.rows;
    const std::uint32_t stored_cols = rule.transposed ? rule.rows : rule.cols;
    // Physical columns may exceed the stored count: the ASL's equality cannot
    // hold for a non-power-of-two group_M (TransA) or scale group count.
    const arch::SharedTile& record = fabric_.tiles().at(id);
    const std::uint32_t physical = record.descriptor_valid && record.info.columns >= stored_cols
                                       ? record.info.columns
                                       : stored_cols;
    auto view = fabric_.read_view(id, stored_rows, stored_cols, physical, rule.type,
                                  Layout::RowMajor, std::nullopt);
    if (!view) {
      return illegal(fmt::format("Shared {} ({}x{} stored{}): {}", name(rule.role), stored_rows,
                                 stored_cols, rule.transposed ? ", transposed" : "",
                                 view.fault().reason));
    }
    const std::uint8_t* payloads[arch::kPeCount] = {record.payload.data(), nullptr, nullptr,
                                                    nullptr};
    if (hif4_fault && rule.type == DataType::U32 &&
        hif4_nan_base(*view, payloads, stored_rows, stored_cols)) {
      return illegal(
          fmt::format("Shared {} S{} holds a HiF4 scale word with base 0xFF "
                      "(mx.hif4_nan_base = fault)",
                      name(rule.role), id));
    }
    plan_.operand(rule.role) = OperandSource{true, id, *view, rule.transposed};
  }
  return {};
}

// The Local mathematical sources in stream order: C, A, [A scale], B,
// [B scale], Bias, CScale, less the Shared ones.
std::vector<LocalRule> BlockCheck::local_rules() const {
  const bool row_major_scales = config_.local_scale_layout == LocalScaleLayout::RowMajor;
  const Layout scale_layout = row_major_scales ? Layout::RowMajor : Layout::CubeM32;
  std::vector<LocalRule> rules;
  rules.reserve(7);  // C, A, AScale, B, BScale, Bias, CScale: one allocation per block
  if (plan_.acc) {
    rules.push_back({OperandRole::C, rows_, plan_.n, plan_.accumulator, a_layout_, true});
  }
  if (!a_shared_) {
    rules.push_back({OperandRole::A, rows_, plan_.k, plan_.a_type, a_layout_, true});
    if (a_scaled_) {
      rules.push_back({OperandRole::AScale, rows_, a_groups_,
                       numeric::mx_scale_carrier(plan_.a_type), scale_layout, false});
    }
  }
  if (!b_shared_) {
    rules.push_back({OperandRole::B, plan_.k, plan_.n, plan_.b_type, Layout::CubeN8, false});
    if (b_scaled_) {
      // 0.58.5 stores B's scale N-major ([N,G]); 0.58.3 row-major [G,N].
      rules.push_back({OperandRole::BScale, row_major_scales ? b_groups_ : plan_.n,
                       row_major_scales ? plan_.n : b_groups_,
                       numeric::mx_scale_carrier(plan_.b_type), scale_layout, false});
    }
  }
  if (plan_.bias) {
    const Layout bias_layout =
        config_.bias_layout == BiasLayout::CubeN8 ? Layout::CubeN8 : Layout::RowMajor;
    rules.push_back({OperandRole::Bias, 1, plan_.n, plan_.accumulator, bias_layout, false});
  }
  if (plan_.cscale) {
    rules.push_back({OperandRole::CScale, rows_, 1, DataType::U8, Layout::CubeM32, false});
  }
  return rules;
}

CubeOutcome BlockCheck::check_local(const LocalRule& rule, unsigned index) const {
  const arch::LocalTile& tile = local_.at(index);
  const TileInfo& info = tile.info();
  const bool is_c = rule.role == OperandRole::C;
  const bool layout_ok = rule.m_layout
                             ? m_layout_legal(info.layout, rule.rows) && info.layout == rule.layout
                             : info.layout == rule.layout;
  const bool c_capacity_ok =
      !is_c || block_.fpatr.pre_quant_mode() != 0 || info.capacity_bytes == d_capacity_;
  if ((tile.allocation_mask() & active_) != active_ || !tile.contents_defined() || !layout_ok ||
      info.valid_rows != rule.rows || info.valid_columns != rule.cols ||
      info.data_type != rule.type || !c_capacity_ok) {
    return illegal(fmt::format(
        "{} {} source tile {} is {} on PEs {}{}; it must be a defined {} {} {}x{}{} on PEs "
        "{}{}",
        op_, name(rule.role), local_.source_name(index), info.describe(),
        mask_string(tile.allocation_mask()),
        tile.contents_defined() ? "" : " with undefined elements", numeric::name(rule.type),
        rule.m_layout ? fmt::format("{} (holding {} rows)", arch::name(rule.layout), rule.rows)
                      : std::string(arch::name(rule.layout)),
        rule.rows, rule.cols,
        c_capacity_ok ? "" : fmt::format(" of D's TSize {} B (PreQuantMode 0)", d_capacity_),
        mask_string(active_), is_c ? " (C uses A's CUBE layout)" : ""));
  }
  // Only a scale can pass the check above with more than one M32 row block.
  if (config_.local_scale_rows == LocalScaleRows::OneBlock && info.layout == Layout::CubeM32 &&
      info.valid_rows > 32) {
    return illegal(fmt::format(
        "{} {} source tile {} is CUBE_M32 with {} rows; mx.local_scale_rows = <=32 allows one "
        "32-row block",
        op_, name(rule.role), local_.source_name(index), info.valid_rows));
  }
  if (config_.hif4_nan_base == Hif4NanBase::Fault && rule.type == DataType::U32) {
    const std::uint8_t* payloads[arch::kPeCount] = {};
    for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
      if (arch::pe_selected(active_, pe)) payloads[pe] = tile.payload(pe);
    }
    if (hif4_nan_base(info, payloads, rule.rows, rule.cols)) {
      return illegal(
          fmt::format("{} tile {} holds a HiF4 scale word with base 0xFF "
                      "(mx.hif4_nan_base = fault)",
                      name(rule.role), local_.source_name(index)));
    }
  }
  return {};
}

CubeOutcome BlockCheck::local_operands() {
  // Step 9: post-process sources (they follow the mathematical ones).
  for (std::size_t i = 0; i < codes_.size(); ++i) {
    auto index = local_.resolve_source(codes_[i]);
    if (!index) return propagate(index.fault());
    indices_[i] = *index;
  }
  plan_.post_sources.assign(indices_.begin() + math_sources_, indices_.begin() + codes_.size());
  if (auto f =
          plan_.post->check_sources(local_, plan_.post_sources.data(), rows_, plan_.n, active_)) {
    return propagate(*f);
  }
  // Step 10: mathematical sources in stream order. C and D take A's M layout;
  // with a Shared A, C's own (none without C: step 12 picks).
  d_capacity_ = arch::size_code_bytes(destinations_[0]->size_code);
  if (!a_shared_ || plan_.acc) {
    a_layout_ = local_.at(indices_[a_shared_ ? 0 : (plan_.acc ? 1 : 0)]).info().layout;
  }
  const bool row_major_scales = config_.local_scale_layout == LocalScaleLayout::RowMajor;
  unsigned ordinal = 0;
  for (const LocalRule& rule : local_rules()) {
    const unsigned index = indices_[ordinal++];
    CubeOutcome outcome = check_local(rule, index);
    if (!outcome.done()) return outcome;
    const bool transposed = rule.role == OperandRole::BScale && !row_major_scales;
    plan_.operand(rule.role) = OperandSource{false, index, local_.at(index).info(), transposed};
  }
  return {};
}

CubeOutcome BlockCheck::destinations() {
  const fpatr::Fpatr& pp = *plan_.post;
  const arch::TileBinding& dest0 = *destinations_[0];
  // Step 11: C's raw selector against D's DstTile hand (PTO-CUBE-ACCUMULATOR-OUTPUT-001).
  if (plan_.acc && codes_[0] == dest0.destination_hand) {
    return illegal(fmt::format("{}: C's source selector {} equals D's DstTile hand {}", op_,
                               isa::tile_source_name(codes_[0]),
                               isa::tile_hand_letter(dest0.destination_hand)));
  }
  // Step 12: D's layout.
  Layout d_layout = a_layout_;
  if (a_shared_) {
    if (plan_.acc) {
      d_layout = plan_.c->info.layout;
    } else if (rows_ <= 32) {
      d_layout = rows_ <= 16 ? Layout::CubeM16 : Layout::CubeM32;
    } else {
      return illegal(fmt::format("all-Shared {} has no CUBE layout for {} rows", op_, rows_));
    }
  }
  if (!m_layout_legal(d_layout, rows_)) {
    return illegal(fmt::format("D's layout {} cannot hold M = {}", arch::name(d_layout), rows_));
  }
  // Step 13 (iv): the output group's shapes. B.IOT encodes SizeCode 1..10
  // only (11 and 12 are IllegalInstruction at decode); a descriptor built
  // without the decoder is checked all the same.
  for (const arch::TileBinding* binding : destinations_) {
    if (binding->size_code > 10) {
      return fault(
          FaultCode::TileLegality,
          fmt::format("Local destination SizeCode {} is outside 1..10", binding->size_code));
    }
  }
  auto d_info = arch::make_cube_tile(d_capacity_, rows_, plan_.n, pp.output_type(), d_layout);
  if (!d_info) {
    return fault(FaultCode::TileAllocation,
                 fmt::format("D {}x{} {} {}: {}", rows_, plan_.n, numeric::name(pp.output_type()),
                             arch::name(d_layout), d_info.fault().reason));
  }
  plan_.destinations.push_back({&dest0, *d_info});
  unsigned next = 1;
  if (pp.row_max()) {
    const arch::TileBinding* binding = destinations_[next++];
    auto info = pp.row_max_info(arch::size_code_bytes(binding->size_code), rows_);
    if (!info) return propagate(info.fault());
    plan_.destinations.push_back({binding, *info});
  }
  if (pp.group_max()) {
    const arch::TileBinding* binding = destinations_[next];
    auto info = pp.group_max_info(arch::size_code_bytes(binding->size_code), rows_, plan_.n);
    if (!info) return propagate(info.fault());
    plan_.destinations.push_back({binding, *info});
  }
  return {};
}

}  // namespace

CubeOutcome CubePreflight::run(const BlockDescriptor& block, CubePlan& plan) const {
  if (!block.operation_valid || block.operation_class != arch::OperationClass::Cube) {
    return fault(FaultCode::IllegalInstruction, "the block is not a CUBE operation");
  }
  // Step 0: zero-mask binders install nothing; only the participation marker remains.
  if (block.zero_mask_noop()) {
    plan.noop = true;
    return {};
  }
  BlockCheck check(block, plan, local_, fabric_, config_);
  using Step = CubeOutcome (BlockCheck::*)();
  for (Step step : {&BlockCheck::types, &BlockCheck::binding_stream, &BlockCheck::attributes,
                    &BlockCheck::dimensions, &BlockCheck::shared_operands,
                    &BlockCheck::local_operands, &BlockCheck::destinations}) {
    CubeOutcome outcome = (check.*step)();
    if (!outcome.done()) return outcome;
  }
  return {};
}

}  // namespace ptovp::cube

#include "cube/cube_preflight.hpp"

#include <fmt/format.h>

#include "cube/matrix_function.hpp"
#include "tlsu/block_schema.hpp"

namespace ptovp::cube {

using arch::BlockDescriptor;
using arch::Fault;
using arch::FaultCode;
using arch::Layout;
using arch::make_fault;
using arch::mask_string;
using arch::TileInfo;

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

// The Local source codes in stream order (SrcTile0 before SrcTile1).
std::vector<unsigned> source_codes(const BlockDescriptor& block) {
  std::vector<unsigned> codes;
  for (unsigned i = 0; i < block.tile_count; ++i) {
    for (unsigned s = 0; s < block.tiles[i].source_count; ++s)
      codes.push_back(block.tiles[i].source[s]);
  }
  return codes;
}

std::vector<const arch::TileBinding*> destination_bindings(const BlockDescriptor& block) {
  std::vector<const arch::TileBinding*> out;
  for (unsigned i = 0; i < block.tile_count; ++i) {
    if (block.tiles[i].has_destination) out.push_back(&block.tiles[i]);
  }
  return out;
}

// What one Local mathematical source must be.
struct LocalRule {
  const char* role;
  std::uint32_t rows, cols;
  DataType type;
  Layout layout;
  bool m_layout;  // CUBE_M16 or CUBE_M32 holding `rows` (the layout field is then A's choice)
};

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
  // Step 1.
  if (!block.fpatr.valid) {
    return fault(FaultCode::BundleControl, "the CUBE block has no B.FPATR");
  }
  // Step 2.
  const auto function = MatrixFunction::decode(block.function);
  if (!function) {
    return fault(FaultCode::IllegalInstruction,
                 fmt::format("CUBE function {} is not assigned", block.function));
  }
  const std::string op = function->name();
  // Step 3: AType from BSTART, BType from B.DATR when present.
  const auto a_type = numeric::data_type_from_code(block.data_type);
  const unsigned b_code = block.datr.present ? block.datr.data_type : block.data_type;
  const auto b_type = numeric::data_type_from_code(b_code);
  if (!a_type || !b_type) {
    return illegal(
        fmt::format("{}: AType code {} / BType code {} is not a tile data type "
                    "(B.DATR DTYPE_NONE is not legal in a CUBE block)",
                    op, block.data_type, b_code));
  }
  const unsigned shared_count = block.shared_count;
  const arch::FpAttributes& fp = block.fpatr;

  // Step 4 (a): the type pair.
  if (!function->types_legal(*a_type, *b_type, config_.tgemv_hif4x2 == Acceptance::Accept)) {
    return illegal(fmt::format("{} does not accept the input pair A {} x B {}", op,
                               numeric::name(*a_type), numeric::name(*b_type)));
  }
  plan.a_type = *a_type;
  plan.b_type = *b_type;
  plan.mx = function->mx();
  plan.bias = function->bias();
  plan.acc = function->accumulate();
  plan.cscale = fp.cscale_en();
  // Step 8's result type is needed by 4 (c) and step 9; both are TileLegality.
  plan.accumulator = function->accumulator(*a_type);
  plan.profile = plan.mx && config_.scaled_product == ScaledProduct::AslRawCarrier
                     ? numeric::NumericProfile::PtoV0
                     : config_.profile;
  // 4 (c), B.FPATR against B.DATR and the accumulator class (step 9's first check).
  auto post = fpatr::PostProcessUnit::configure(fp, block.datr, plan.accumulator);
  if (!post) return propagate(post.fault());
  plan.post = *post;
  const fpatr::PostProcessUnit& pp = *plan.post;

  // 4 (b): the binding stream.
  const bool a_scaled = plan.mx && mx_side_scaled(*a_type);
  const bool b_scaled = plan.mx && mx_side_scaled(*b_type);
  const unsigned right_group = 1u + b_scaled;
  const unsigned both_groups = right_group + 1u + a_scaled;
  const bool shared_count_legal =
      shared_count == 0 ||
      (!function->gemv() && (shared_count == right_group || shared_count == both_groups));
  if (!shared_count_legal) {
    return illegal(fmt::format("{} with A {} and B {} cannot take {} B.IOS binding(s) (legal: 0{})",
                               op, numeric::name(*a_type), numeric::name(*b_type), shared_count,
                               function->gemv()
                                   ? ", GEMV is Local-only"
                                   : fmt::format(", {} or {}", right_group, both_groups)));
  }
  const bool a_shared = shared_count == both_groups && shared_count != 0;
  const bool b_shared = shared_count != 0;
  const unsigned math_sources = (plan.acc ? 1u : 0u) + (a_shared ? 0u : 1u + a_scaled) +
                                (b_shared ? 0u : 1u + b_scaled) + (plan.bias ? 1u : 0u) +
                                (plan.cscale ? 1u : 0u);
  const std::vector<unsigned> codes = source_codes(block);
  const auto destinations = destination_bindings(block);
  if (codes.size() != math_sources + pp.source_count() ||
      destinations.size() != pp.destination_count()) {
    return illegal(fmt::format(
        "{} needs {} Local source(s) ({} mathematical + {} post-process) and {} destination(s); "
        "the B.IOT stream has {} and {}",
        op, math_sources + pp.source_count(), math_sources, pp.source_count(),
        pp.destination_count(), codes.size(), destinations.size()));
  }
  for (unsigned i = 0; i < block.tile_count; ++i) {
    if (block.tiles[i].last != (i + 1 == block.tile_count)) {
      return illegal(
          fmt::format("the B.IOT stream is not terminated by its last binding "
                      "(binding {} of {} has L={})",
                      i, block.tile_count, block.tiles[i].last ? 1 : 0));
    }
  }
  if (block.ior.valid) {
    bool extra = block.ior.destination != 0;
    for (unsigned slot = pp.scalar_count(); slot < arch::kIorSources; ++slot) {
      extra = extra || block.ior.source[slot] != 0;
    }
    if (extra) {
      return illegal(
          fmt::format("B.IOR fields the post-process does not consume are not zero "
                      "(RegDst={} RegSrc={}/{}/{}; {} consumed)",
                      block.ior.destination, block.ior.source[0], block.ior.source[1],
                      block.ior.source[2], pp.scalar_count()));
    }
  }
  // The block's common mask (4 e/f) is needed for the B.IOR values.
  std::uint8_t mask = block.tile_count != 0 ? block.tiles[0].pe_mask : block.shared[0].pe_mask;
  for (unsigned i = 0; i < block.tile_count; ++i) {
    if (block.tiles[i].pe_mask != mask) {
      return illegal(fmt::format("B.IOT masks differ: {} and {}", mask_string(mask),
                                 mask_string(block.tiles[i].pe_mask)));
    }
  }
  for (unsigned i = 0; i < shared_count; ++i) {
    if (block.shared[i].pe_mask != mask) {
      return illegal(fmt::format("B.IOS S{} mask {} differs from the block mask {}",
                                 block.shared[i].shared_id, mask_string(block.shared[i].pe_mask),
                                 mask_string(mask)));
    }
  }
  if (auto f = pp.check_scalar_words(block, mask)) return propagate(*f);

  // 4 (c): B.DATR fields a CUBE block does not use; CCTRL (cube.cctrl); CScaleEn.
  const arch::DataAttributes& datr = block.datr;
  if (datr.present) {
    const bool pad_ok = datr.pad == 0 || config_.cctrl == Cctrl::On;
    if (datr.layout != 0 || !pad_ok || datr.cmode != 0 || datr.canonicalize) {
      return illegal(
          fmt::format("B.DATR in a CUBE block: Layout={} PadValueOrByteId={} CMode={} "
                      "Canonicalize={} must be 0",
                      datr.layout, datr.pad, datr.cmode, datr.canonicalize ? 1 : 0));
    }
    const bool raw = (datr.pad & 1u) != 0;
    const bool c_hint = (datr.pad & 2u) != 0;
    if (c_hint && !plan.acc) {
      return illegal(fmt::format("CCTRL {} (C hint) on {}, which has no C", datr.pad, op));
    }
    if (raw && (fp.word & 0xFFFF8000u) != 0) {
      return illegal(
          fmt::format("CCTRL {} (raw output) needs B.FPATR PreQuant/Relu/GroupN/"
                      "RowMax/GroupMax/RowMaxInit/MaxAbs all 0, word is {:#010x}",
                      datr.pad, fp.word));
    }
  }
  if (plan.cscale && (function->code() != 2 && function->code() != 6)) {
    return illegal(
        fmt::format("B.FPATR CScaleEn is legal only on TMATMUL.ACC and TMATMULMX.ACC, "
                    "not {}",
                    op));
  }
  if (plan.cscale && plan.accumulator != DataType::FP32) {
    return illegal(fmt::format("B.FPATR CScaleEn needs an FP32 accumulator, {} accumulates {}", op,
                               numeric::name(plan.accumulator)));
  }

  // 4 (d): dimensions; Step 5: absent LBs are 1.
  std::uint32_t dim[3];
  for (unsigned i = 0; i < 3; ++i) {
    auto value = tlsu::dimension(block, i);
    if (!value) return propagate(value.fault());
    dim[i] = value->value_or(1);
  }
  plan.m = dim[0];
  plan.n = dim[1];
  plan.k = dim[2];
  if (b_shared) {
    if (plan.m > 128) {
      return illegal(fmt::format("cooperative group_M (LB0) = {} is outside 1..128", plan.m));
    }
    if (config_.coop_nk_pow2 && (!power_of_two(plan.n) || !power_of_two(plan.k))) {
      return illegal(
          fmt::format("cooperative N = {} and K = {} must be powers of two "
                      "(coop.nk_pow2 = enforce)",
                      plan.n, plan.k));
    }
  }
  // 4 (e, f): one mask, at least one binding; a cooperative block uses 1111.
  if (b_shared && mask != arch::kAllPes) {
    return illegal(
        fmt::format("a cooperative Shared block needs PE_MASK 1111, got {}", mask_string(mask)));
  }
  plan.split = b_shared ? RowSplit::cooperative(plan.m) : RowSplit::local(plan.m, mask);
  const std::uint32_t rows = plan.split.local_rows();
  const std::uint8_t active = plan.split.active_mask();

  // Step 6.
  if (function->gemv() && plan.m != 1) {
    return illegal(fmt::format("{} needs M = 1, LB0 is {}", op, plan.m));
  }

  // Step 7: Shared schemas and readiness.
  if (fp.trans_a() && !a_shared) {
    return illegal("B.FPATR TransA is set but A is not a Shared operand");
  }
  if (fp.trans_b() && !b_shared) {
    return illegal("B.FPATR TransB is set but B is not a Shared operand");
  }
  const std::uint32_t a_groups =
      a_scaled ? static_cast<std::uint32_t>(mx_scale_groups(plan.k, *a_type)) : 0;
  const std::uint32_t b_groups =
      b_scaled ? static_cast<std::uint32_t>(mx_scale_groups(plan.k, *b_type)) : 0;
  const bool hif4_fault = config_.hif4_nan_base == Hif4NanBase::Fault;
  if (b_shared) {
    struct SharedRule {
      const char* role;
      std::uint32_t rows, cols;  // logical
      DataType type;
      bool transposed;  // stored cols x rows
      std::optional<OperandSource>* slot;
    };
    const bool scale_follow =
        config_.shared_scale_orientation == SharedScaleOrientation::FollowTrans;
    const bool nk_fixed = config_.shared_scale_orientation == SharedScaleOrientation::NKFixed;
    std::vector<SharedRule> rules;
    if (a_shared) {
      rules.push_back({"A", plan.m, plan.k, *a_type, fp.trans_a(), &plan.a});
      if (a_scaled) {
        rules.push_back({"A scale", plan.m, a_groups, mx_scale_carrier(*a_type),
                         scale_follow ? fp.trans_a() : !nk_fixed, &plan.a_scale});
      }
    }
    const bool b_nk = config_.shared_b_orientation == SharedBOrientation::NK;
    rules.push_back({"B", plan.k, plan.n, *b_type, b_nk != fp.trans_b(), &plan.b});
    if (b_scaled) {
      rules.push_back({"B scale", b_groups, plan.n, mx_scale_carrier(*b_type),
                       scale_follow ? fp.trans_b() : nk_fixed, &plan.b_scale});
    }
    for (unsigned i = 0; i < shared_count; ++i) {
      const arch::SharedBinding& binding = block.shared[i];
      const SharedRule& rule = rules[i];
      const unsigned id = binding.shared_id;
      if (binding.is_destination()) {
        return illegal(fmt::format("Shared {} S{} must be a source (SizeCode 0), SizeCode is {}",
                                   rule.role, id, binding.size_code));
      }
      if (config_.readiness == Readiness::Wait) {
        if (auto unready = fabric_.check_whole_parent_ready(id)) {
          return {std::nullopt, fmt::format("{} source {}", rule.role, unready->reason)};
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
        return illegal(fmt::format("Shared {} ({}x{} stored{}): {}", rule.role, stored_rows,
                                   stored_cols, rule.transposed ? ", transposed" : "",
                                   view.fault().reason));
      }
      const std::uint8_t* payload = record.payload.data();
      const std::uint8_t* payloads[arch::kPeCount] = {payload, nullptr, nullptr, nullptr};
      if (hif4_fault && rule.type == DataType::U32 &&
          hif4_nan_base(*view, payloads, stored_rows, stored_cols)) {
        return illegal(
            fmt::format("Shared {} S{} holds a HiF4 scale word with base 0xFF "
                        "(mx.hif4_nan_base = fault)",
                        rule.role, id));
      }
      *rule.slot = OperandSource{true, id, *view, rule.transposed};
    }
  }

  // Step 9: post-process sources (they follow the mathematical ones).
  std::vector<unsigned> indices(codes.size());
  for (std::size_t i = 0; i < codes.size(); ++i) {
    auto index = local_.resolve_source(codes[i]);
    if (!index) return propagate(index.fault());
    indices[i] = *index;
  }
  plan.post_sources.assign(indices.begin() + math_sources, indices.end());
  if (auto f = pp.check_sources(local_, plan.post_sources.data(), rows, plan.n, active)) {
    return propagate(*f);
  }

  // Step 10: mathematical sources in stream order.
  const auto& dest0 = *destinations[0];
  const std::uint32_t d_capacity = arch::size_code_bytes(dest0.size_code);
  unsigned ordinal = 0;
  // C and D take A's M layout; with a Shared A, C's own (none without C: step 12 picks).
  Layout a_layout = Layout::RowMajor;
  if (!a_shared || plan.acc) {
    a_layout = local_.at(indices[a_shared ? 0 : (plan.acc ? 1 : 0)]).info().layout;
  }
  const bool row_major_scales = config_.local_scale_layout == LocalScaleLayout::RowMajor;
  const Layout scale_layout = row_major_scales ? Layout::RowMajor : Layout::CubeM32;
  std::vector<std::pair<LocalRule, std::optional<OperandSource>*>> local_rules;
  if (plan.acc) {
    local_rules.push_back({{"C", rows, plan.n, plan.accumulator, a_layout, true}, &plan.c});
  }
  if (!a_shared) {
    local_rules.push_back({{"A", rows, plan.k, *a_type, a_layout, true}, &plan.a});
    if (a_scaled) {
      local_rules.push_back(
          {{"A scale", rows, a_groups, mx_scale_carrier(*a_type), scale_layout, false},
           &plan.a_scale});
    }
  }
  if (!b_shared) {
    local_rules.push_back({{"B", plan.k, plan.n, *b_type, Layout::CubeN8, false}, &plan.b});
    if (b_scaled) {
      // 0.58.5 stores B's scale N-major ([N,G]); 0.58.3 row-major [G,N].
      local_rules.push_back(
          {{"B scale", row_major_scales ? b_groups : plan.n, row_major_scales ? plan.n : b_groups,
            mx_scale_carrier(*b_type), scale_layout, false},
           &plan.b_scale});
    }
  }
  if (plan.bias) {
    const Layout bias_layout =
        config_.bias_layout == BiasLayout::CubeN8 ? Layout::CubeN8 : Layout::RowMajor;
    local_rules.push_back(
        {{"Bias", 1, plan.n, plan.accumulator, bias_layout, false}, &plan.bias_tile});
  }
  if (plan.cscale) {
    local_rules.push_back(
        {{"CScale", rows, 1, DataType::U8, Layout::CubeM32, false}, &plan.c_scale});
  }
  for (const auto& [rule, slot] : local_rules) {
    const unsigned index = indices[ordinal++];
    const arch::LocalTile& tile = local_.at(index);
    const TileInfo& info = tile.info();
    const bool layout_ok =
        rule.m_layout ? m_layout_legal(info.layout, rule.rows) && info.layout == rule.layout
                      : info.layout == rule.layout;
    const bool c_capacity_ok = std::string_view(rule.role) != "C" || fp.pre_quant_mode() != 0 ||
                               info.capacity_bytes == d_capacity;
    if ((tile.allocation_mask() & active) != active || !tile.contents_defined() || !layout_ok ||
        info.valid_rows != rule.rows || info.valid_columns != rule.cols ||
        info.data_type != rule.type || !c_capacity_ok) {
      return illegal(fmt::format(
          "{} {} source tile {} is {} on PEs {}{}; it must be a defined {} {} {}x{}{} on PEs "
          "{}{}",
          op, rule.role, index, info.describe(), mask_string(tile.allocation_mask()),
          tile.contents_defined() ? "" : " with undefined elements", numeric::name(rule.type),
          rule.m_layout ? fmt::format("{} (holding {} rows)", arch::name(rule.layout), rule.rows)
                        : std::string(arch::name(rule.layout)),
          rule.rows, rule.cols,
          c_capacity_ok ? "" : fmt::format(" of D's TSize {} B (PreQuantMode 0)", d_capacity),
          mask_string(active),
          plan.acc && std::string_view(rule.role) == "C" ? " (C uses A's CUBE layout)" : ""));
    }
    // Only a scale can pass the check above with more than one M32 row block.
    if (config_.local_scale_rows == LocalScaleRows::OneBlock && info.layout == Layout::CubeM32 &&
        info.valid_rows > 32) {
      return illegal(fmt::format(
          "{} {} source tile {} is CUBE_M32 with {} rows; mx.local_scale_rows = <=32 allows one "
          "32-row block",
          op, rule.role, index, info.valid_rows));
    }
    if (hif4_fault && rule.type == DataType::U32) {
      const std::uint8_t* payloads[arch::kPeCount] = {};
      for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
        if (arch::pe_selected(active, pe)) payloads[pe] = tile.payload(pe);
      }
      if (hif4_nan_base(info, payloads, rule.rows, rule.cols)) {
        return illegal(
            fmt::format("{} tile {} holds a HiF4 scale word with base 0xFF "
                        "(mx.hif4_nan_base = fault)",
                        rule.role, index));
      }
    }
    const bool transposed = std::string_view(rule.role) == "B scale" && !row_major_scales;
    *slot = OperandSource{false, index, info, transposed};
  }

  // Step 11: C's raw selector against D's DstTile hand (PTO-CUBE-ACCUMULATOR-OUTPUT-001).
  if (plan.acc && codes[0] == dest0.destination_hand) {
    return illegal(fmt::format("{}: C's source selector {} equals D's DstTile hand {}", op,
                               codes[0], dest0.destination_hand));
  }

  // Step 12: D's layout.
  Layout d_layout = a_layout;
  if (a_shared) {
    if (plan.acc) {
      d_layout = plan.c->info.layout;
    } else if (rows <= 32) {
      d_layout = rows <= 16 ? Layout::CubeM16 : Layout::CubeM32;
    } else {
      return illegal(fmt::format("all-Shared {} has no CUBE layout for {} rows", op, rows));
    }
  }
  if (!m_layout_legal(d_layout, rows)) {
    return illegal(fmt::format("D's layout {} cannot hold M = {}", arch::name(d_layout), rows));
  }

  // Step 13 (iv): the output group's shapes.
  for (const arch::TileBinding* binding : destinations) {
    if (binding->size_code > 10) {
      const bool decode = config_.local_sizecode_11_12 == LargeSizeCode::IllegalInstruction &&
                          binding->size_code <= 12;
      return fault(
          decode ? FaultCode::IllegalInstruction : FaultCode::TileLegality,
          fmt::format("Local destination SizeCode {} is outside 1..10", binding->size_code));
    }
  }
  auto d_info = arch::make_cube_tile(d_capacity, rows, plan.n, pp.output_type(), d_layout);
  if (!d_info) {
    return fault(FaultCode::TileAllocation,
                 fmt::format("D {}x{} {} {}: {}", rows, plan.n, numeric::name(pp.output_type()),
                             arch::name(d_layout), d_info.fault().reason));
  }
  plan.destinations.push_back({destinations[0], *d_info});
  unsigned next = 1;
  if (pp.row_max()) {
    const arch::TileBinding* binding = destinations[next++];
    auto info = pp.row_max_info(arch::size_code_bytes(binding->size_code), rows);
    if (!info) return propagate(info.fault());
    plan.destinations.push_back({binding, *info});
  }
  if (pp.group_max()) {
    const arch::TileBinding* binding = destinations[next];
    auto info = pp.group_max_info(arch::size_code_bytes(binding->size_code), rows, plan.n);
    if (!info) return propagate(info.fault());
    plan.destinations.push_back({binding, *info});
  }
  return {};
}

}  // namespace ptovp::cube

#include "cube/cube_unit.hpp"

#include <array>

#include "cube/cube_preflight.hpp"
#include "cube/operand_view.hpp"
#include "numeric/dot_kernel.hpp"

namespace ptovp::cube {

namespace {

// One PE's results before publication.
struct Staged {
  std::vector<std::uint64_t> d;
  std::vector<std::uint32_t> row_max, group_max;
};

// PE `pe`'s kernel view of an operand: Local payloads are per PE, a Shared
// record has one payload; `first_row`/`rows` slice the logical rows.
numeric::OperandView view_of(const OperandSource& source, const arch::LocalTileFile& local,
                             const fabric::Fabric& fabric, unsigned pe, std::uint32_t first_row,
                             std::uint32_t rows, std::uint32_t cols) {
  const std::uint8_t* payload = source.shared ? fabric.tiles().at(source.index).payload.data()
                                              : local.at(source.index).payload(pe);
  return tile_view(source.info, payload, first_row, rows, cols, source.transposed);
}

}  // namespace

struct CubeUnit::Block {
  const arch::BlockDescriptor* descriptor = nullptr;
  CubePlan plan;
  // A Local block gives every PE the same shapes: its views are built once and
  // only their payload pointers change per PE; a cooperative split rebuilds them.
  std::optional<numeric::DotOperands> views;
  std::array<Staged, arch::kPeCount> staged;
  std::vector<std::uint32_t> accumulator;
  std::uint8_t flags = 0;
};

CubeUnit::CubeUnit(arch::LocalTileFile& local, fabric::Fabric& fabric, arch::ArchState& state,
                   CubeConfig config)
    : local_(local),
      fabric_(fabric),
      state_(state),
      config_(config),
      block_(std::make_unique<Block>()) {}

CubeUnit::~CubeUnit() = default;

const CubePlan& CubeUnit::plan() const {
  return block_->plan;
}

CubeOutcome CubeUnit::execute(const arch::BlockDescriptor& block) {
  CubeOutcome outcome = prepare(block);
  if (!open_) return outcome;
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe)
    compute_rows(pe);
  return commit();
}

CubeOutcome CubeUnit::prepare(const arch::BlockDescriptor& block) {
  last_destinations_.clear();
  Block& open = *block_;
  open.plan = CubePlan{};
  CubeOutcome outcome = CubePreflight(local_, fabric_, config_).run(block, open.plan);
  open_ = outcome.done() && !open.plan.noop;
  open.descriptor = &block;
  open.views.reset();
  open.flags = 0;
  return outcome;
}

void CubeUnit::compute_rows(unsigned pe) {
  Block& open = *block_;
  const CubePlan& plan = open.plan;
  const std::uint32_t rows = plan.split.rows(pe);
  if (rows == 0) return;
  const std::uint32_t n = plan.n;
  const std::uint32_t k = plan.k;
  if (plan.split.cooperative() || !open.views) {
    // Shared primaries and their scales are sliced to the PE's group rows;
    // Local operands already hold exactly the PE's rows.
    const std::uint32_t shared_first = plan.split.first_row(pe);
    auto a_first = [&](const OperandSource& s) { return s.shared ? shared_first : 0u; };
    numeric::DotOperands& ops = open.views.emplace();
    ops.profile = plan.profile;
    ops.a = view_of(*plan.a, local_, fabric_, pe, a_first(*plan.a), rows, k);
    ops.b = view_of(*plan.b, local_, fabric_, pe, 0, k, n);
    if (plan.a_scale) {
      const auto g = static_cast<std::uint32_t>(mx_scale_groups(k, plan.a_type));
      ops.a_scale = view_of(*plan.a_scale, local_, fabric_, pe, a_first(*plan.a_scale), rows, g);
    }
    if (plan.b_scale) {
      const auto g = static_cast<std::uint32_t>(mx_scale_groups(k, plan.b_type));
      ops.b_scale = view_of(*plan.b_scale, local_, fabric_, pe, 0, g, n);
    }
    if (plan.c) ops.c = view_of(*plan.c, local_, fabric_, pe, 0, rows, n);
    if (plan.c_scale) ops.c_scale = view_of(*plan.c_scale, local_, fabric_, pe, 0, rows, 1);
    if (plan.bias_tile) ops.bias = view_of(*plan.bias_tile, local_, fabric_, pe, 0, 1, n);
  } else {
    auto repoint = [&](numeric::OperandView& view, const std::optional<OperandSource>& source) {
      if (source && !source->shared) view.data = local_.at(source->index).payload(pe);
    };
    numeric::DotOperands& ops = *open.views;
    repoint(ops.a, plan.a);
    repoint(ops.b, plan.b);
    if (ops.a_scale) repoint(*ops.a_scale, plan.a_scale);
    if (ops.b_scale) repoint(*ops.b_scale, plan.b_scale);
    if (ops.c) repoint(*ops.c, plan.c);
    if (ops.c_scale) repoint(*ops.c_scale, plan.c_scale);
    if (ops.bias) repoint(*ops.bias, plan.bias_tile);
  }
  open.accumulator.resize(std::size_t{rows} * n);
  open.flags |= numeric::dot(*open.views, open.accumulator.data());

  // The post-process belongs to the rendezvous: its outputs are staged with
  // the block and publish with D (docs/cube.md, "Data flow").
  const fpatr::PostProcessUnit& pp = *plan.post;
  const std::uint32_t groups = pp.group_max() ? pp.groups(n) : 0;
  Staged& out = open.staged[pe];
  out.d.resize(open.accumulator.size());
  out.row_max.resize(pp.row_max() ? rows : 0);
  out.group_max.resize(std::size_t{rows} * groups);
  const fpatr::Parameters parameters =
      pp.parameters(*open.descriptor, pe, local_, plan.post_sources.data(), rows, n);
  open.flags |= pp.run(open.accumulator.data(), rows, n, parameters,
                       {out.d.data(), out.row_max.data(), out.group_max.data()});
}

CubeOutcome CubeUnit::commit() {
  Block& open = *block_;
  const CubePlan& plan = open.plan;
  open_ = false;

  // Allocate the output group; a failure releases what the group took.
  const std::uint8_t mask = plan.split.active_mask();
  const std::uint64_t shared_in_use = fabric_.tiles().capacity_in_use();
  for (const CubePlan::Destination& destination : plan.destinations) {
    auto placed =
        local_.plan(destination.binding->destination_hand, mask, destination.info.capacity_bytes,
                    shared_in_use, state_.tile_capacity());
    if (!placed) {
      for (unsigned index : last_destinations_)
        local_.release(index);
      last_destinations_.clear();
      return {placed.fault(), std::nullopt};
    }
    local_.commit(*placed, destination.info, mask);
    last_destinations_.push_back(placed->index);
  }

  // Publish D, RowMaxOut, GroupMaxOut and the status flags together.
  auto publish = [&](unsigned index, std::uint32_t cols, auto value) {
    arch::LocalTile& tile = local_.at(index);
    const arch::TileInfo& info = tile.info();
    // A slot is a row term plus a column term (arch::storage_index).
    std::vector<std::uint32_t> col_term(cols);
    for (std::uint32_t c = 0; c < cols; ++c)
      col_term[c] = arch::storage_index(info, 0, c);
    for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
      for (std::uint32_t r = 0; r < plan.split.rows(pe); ++r) {
        const std::uint32_t row_term = arch::storage_index(info, r, 0);
        for (std::uint32_t c = 0; c < cols; ++c) {
          arch::write_slot(tile.payload(pe), info.data_type, row_term + col_term[c],
                           value(open.staged[pe], std::size_t{r}, std::size_t{c}));
        }
      }
    }
    tile.define_valid_region();
  };
  const fpatr::PostProcessUnit& pp = *plan.post;
  const std::uint32_t n = plan.n;
  const std::uint32_t groups = pp.group_max() ? pp.groups(n) : 0;
  std::size_t next = 0;
  publish(last_destinations_[next++], n,
          [n](const Staged& s, std::size_t r, std::size_t c) { return s.d[r * n + c]; });
  if (pp.row_max()) {
    publish(last_destinations_[next++], 1,
            [](const Staged& s, std::size_t r, std::size_t) { return s.row_max[r]; });
  }
  if (pp.group_max()) {
    publish(last_destinations_[next], groups,
            [groups](const Staged& s, std::size_t r, std::size_t c) {
              return s.group_max[r * groups + c];
            });
  }
  state_.raise_numeric_flags(open.flags);
  return {};
}

}  // namespace ptovp::cube

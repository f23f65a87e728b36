#include "cube/cube_unit.hpp"

#include <algorithm>
#include <array>
#include <cstring>

#include "cube/cube_preflight.hpp"
#include "cube/operand_view.hpp"
#include "numeric/dot_kernel.hpp"
#include "numeric/transpose.hpp"

namespace ptovp::cube {

namespace {

// One PE's results before publication.
struct Staged {
  std::vector<std::uint64_t> d;
  std::vector<std::uint32_t> row_max, group_max;
};

// What a view's offsets were built for: they depend only on the descriptor
// and the slice, so blocks of the previous block's shapes (a kernel's loop)
// and the PEs of a Local block keep them and only repoint the payload.
struct ViewShape {
  bool built = false;
  arch::TileInfo info;
  std::uint32_t first_row = 0, rows = 0, cols = 0;
  bool transposed = false;
  bool operator==(const ViewShape& o) const {
    return built == o.built && info == o.info && first_row == o.first_row && rows == o.rows &&
           cols == o.cols && transposed == o.transposed;
  }
};

// Points `view` at PE `pe`'s payload of `source` (Local payloads are per PE, a
// Shared record has one), its logical rows [first_row, first_row + rows).
void set_view(numeric::OperandView& view, ViewShape& shape, const OperandSource& source,
              const arch::LocalTileFile& local, const fabric::Fabric& fabric, unsigned pe,
              std::uint32_t first_row, std::uint32_t rows, std::uint32_t cols) {
  const std::uint8_t* payload = source.shared ? fabric.tiles().at(source.index).payload.data()
                                              : local.at(source.index).payload(pe);
  const ViewShape wanted{true, source.info, first_row, rows, cols, source.transposed};
  if (!(shape == wanted)) {
    view = tile_view(source.info, payload, first_row, rows, cols, source.transposed);
    shape = wanted;
  }
  view.data = payload;
}

// Writes a PE's staged raw values (`value(r, c)`) into slots row_term[r] +
// col_term[c] as `Word`s: write_slot's width dispatch is per element.
template <typename Word, typename Value>
void store_rows(std::uint8_t* payload, const std::uint32_t* row_term, std::uint32_t rows,
                const std::uint32_t* col_term, std::uint32_t cols, Value value) {
  for (std::uint32_t r = 0; r < rows; ++r) {
    std::uint8_t* row = payload + std::size_t{row_term[r]} * sizeof(Word);
    for (std::uint32_t c = 0; c < cols; ++c) {
      const auto word = static_cast<Word>(value(r, c));
      std::memcpy(row + std::size_t{col_term[c]} * sizeof(Word), &word, sizeof word);
    }
  }
}

// store_rows for D's 32-bit words, `words` its staged rows x cols. Where 8
// consecutive rows take consecutive slots and 8 consecutive columns sit at
// one stride (FP32/S32 in CUBE_M32, whose CELL is a column of 32 rows), an
// 8 x 8 block narrows into a dense block and moves by one transpose; the rest
// goes word by word.
void store_words(std::uint8_t* payload, const std::uint32_t* row_term, std::uint32_t rows,
                 const std::uint32_t* col_term, std::uint32_t cols, const std::uint64_t* words) {
  static const numeric::Transpose8 transpose = numeric::transpose8(4);
  auto word_at = [&](std::uint32_t r, std::uint32_t c) { return words[std::size_t{r} * cols + c]; };
  auto by_words = [&](std::uint32_t r, std::uint32_t c0, std::uint32_t c1) {
    for (std::uint32_t c = c0; c < c1; ++c) {
      const auto word = static_cast<std::uint32_t>(word_at(r, c));
      std::memcpy(payload + (std::size_t{row_term[r]} + col_term[c]) * 4, &word, 4);
    }
  };
  std::uint32_t r0 = 0;
  for (; r0 + 8 <= rows; r0 += 8) {
    bool consecutive = true;
    for (std::uint32_t i = 1; i < 8; ++i)
      consecutive = consecutive && row_term[r0 + i] == row_term[r0] + i;
    std::uint32_t c0 = 0;
    for (; consecutive && c0 + 8 <= cols; c0 += 8) {
      const std::uint32_t stride = col_term[c0 + 1] - col_term[c0];
      bool even = col_term[c0 + 1] > col_term[c0] && stride >= 8;
      for (std::uint32_t j = 2; j < 8; ++j)
        even = even && col_term[c0 + j] == col_term[c0] + j * stride;
      if (!even) break;
      std::uint32_t block[8 * 8];
      for (std::uint32_t i = 0; i < 8; ++i)
        for (std::uint32_t j = 0; j < 8; ++j)
          block[i * 8 + j] = static_cast<std::uint32_t>(word_at(r0 + i, c0 + j));
      transpose(reinterpret_cast<const std::uint8_t*>(block), sizeof block / 8,
                payload + (std::size_t{row_term[r0]} + col_term[c0]) * 4, std::size_t{stride} * 4);
    }
    for (std::uint32_t i = 0; i < 8; ++i)
      by_words(r0 + i, c0, cols);
  }
  for (; r0 < rows; ++r0)
    by_words(r0, 0, cols);
}

}  // namespace

struct CubeUnit::Block {
  const arch::BlockDescriptor* descriptor = nullptr;
  CubePlan plan;
  numeric::DotOperands views;
  std::array<ViewShape, 7> shapes;  // a, b, a_scale, b_scale, c, c_scale, bias
  std::array<Staged, arch::kPeCount> staged;
  std::vector<std::uint32_t> accumulator;
  std::vector<std::uint32_t> row_term, col_term;  // publication's storage terms
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
  // Shared primaries and their scales are sliced to the PE's group rows;
  // Local operands already hold exactly the PE's rows.
  auto a_first = [&](const std::optional<OperandSource>& s) {
    return s && s->shared ? plan.split.first_row(pe) : 0u;
  };
  auto scale_groups = [k](const std::optional<OperandSource>& scale, numeric::DataType type) {
    return scale ? static_cast<std::uint32_t>(mx_scale_groups(k, type)) : 0u;
  };
  auto set_optional = [&](std::optional<numeric::OperandView>& view, ViewShape& shape,
                          const std::optional<OperandSource>& source, std::uint32_t first_row,
                          std::uint32_t view_rows, std::uint32_t cols) {
    if (!source) {
      view.reset();
      shape = {};  // a view emplaced later has no offsets
      return;
    }
    if (!view) view.emplace();
    set_view(*view, shape, *source, local_, fabric_, pe, first_row, view_rows, cols);
  };
  numeric::DotOperands& ops = open.views;
  std::array<ViewShape, 7>& shapes = open.shapes;
  ops.profile = plan.profile;
  set_view(ops.a, shapes[0], *plan.a, local_, fabric_, pe, a_first(plan.a), rows, k);
  set_view(ops.b, shapes[1], *plan.b, local_, fabric_, pe, 0, k, n);
  set_optional(ops.a_scale, shapes[2], plan.a_scale, a_first(plan.a_scale), rows,
               scale_groups(plan.a_scale, plan.a_type));
  set_optional(ops.b_scale, shapes[3], plan.b_scale, 0, scale_groups(plan.b_scale, plan.b_type), n);
  set_optional(ops.c, shapes[4], plan.c, 0, rows, n);
  set_optional(ops.c_scale, shapes[5], plan.c_scale, 0, rows, 1);
  set_optional(ops.bias, shapes[6], plan.bias_tile, 0, 1, n);
  open.accumulator.resize(std::size_t{rows} * n);
  open.flags |= numeric::dot(ops, open.accumulator.data());

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
  // `dense(staged)`: the staged values as rows x cols words, or null.
  auto publish = [&](unsigned index, std::uint32_t cols, auto value, auto dense) {
    arch::LocalTile& tile = local_.at(index);
    const arch::TileInfo& info = tile.info();
    // A slot is a row term plus a column term (arch::storage_index).
    std::uint32_t max_rows = 0;
    for (unsigned pe = 0; pe < arch::kPeCount; ++pe)
      max_rows = std::max(max_rows, plan.split.rows(pe));
    std::vector<std::uint32_t>& row_term = open.row_term;
    std::vector<std::uint32_t>& col_term = open.col_term;
    arch::storage_row_terms(info, max_rows, row_term);
    arch::storage_column_terms(info, cols, col_term);
    for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
      const Staged& staged = open.staged[pe];
      auto at = [&](std::uint32_t r, std::uint32_t c) { return value(staged, r, c); };
      std::uint8_t* payload = tile.payload(pe);
      const std::uint32_t rows = plan.split.rows(pe);
      auto store = [&](auto word) {
        if constexpr (sizeof word == 4) {
          if (const std::uint64_t* words = dense(staged)) {
            store_words(payload, row_term.data(), rows, col_term.data(), cols, words);
            return;
          }
        }
        store_rows<decltype(word)>(payload, row_term.data(), rows, col_term.data(), cols, at);
      };
      switch (arch::element_bits(info.data_type)) {
        case 8: store(std::uint8_t{}); break;
        case 16: store(std::uint16_t{}); break;
        case 32: store(std::uint32_t{}); break;
        case 64: store(std::uint64_t{}); break;
        default:  // 4-bit slots share a byte
          for (std::uint32_t r = 0; r < rows; ++r)
            for (std::uint32_t c = 0; c < cols; ++c)
              arch::write_slot(payload, info.data_type, row_term[r] + col_term[c], at(r, c));
      }
    }
    tile.define_valid_region();
  };
  const fpatr::PostProcessUnit& pp = *plan.post;
  const std::uint32_t n = plan.n;
  const std::uint32_t groups = pp.group_max() ? pp.groups(n) : 0;
  std::size_t next = 0;
  auto not_dense = [](const Staged&) -> const std::uint64_t* { return nullptr; };
  publish(
      last_destinations_[next++], n,
      [n](const Staged& s, std::size_t r, std::size_t c) { return s.d[r * n + c]; },
      [](const Staged& s) { return s.d.data(); });
  if (pp.row_max()) {
    publish(
        last_destinations_[next++], 1,
        [](const Staged& s, std::size_t r, std::size_t) { return s.row_max[r]; }, not_dense);
  }
  if (pp.group_max()) {
    publish(
        last_destinations_[next], groups,
        [groups](const Staged& s, std::size_t r, std::size_t c) {
          return s.group_max[r * groups + c];
        },
        not_dense);
  }
  state_.raise_numeric_flags(open.flags);
  return {};
}

}  // namespace ptovp::cube

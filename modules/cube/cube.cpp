#include "cube/cube.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstring>
#include <utility>

#include "cube/cube_preflight.hpp"
#include "cube/matrix_function.hpp"
#include "cube/operand_view.hpp"
#include "numeric/dot_kernel.hpp"
#include "numeric/transpose.hpp"

namespace ptovp::cube {

namespace {

// One PE's results before publication: the raw accumulator, and the
// post-process outputs unless it is the identity (D is then the accumulator).
struct Staged {
  fpatr::Parameters parameters;
  std::vector<std::uint32_t> accumulator;
  std::vector<std::uint32_t> columns;  // D^T of a swapped block that stages rows
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
  bool swapped = false;
  bool operator==(const ViewShape& o) const {
    return built == o.built && info == o.info && first_row == o.first_row && rows == o.rows &&
           cols == o.cols && transposed == o.transposed && swapped == o.swapped;
  }
};

// Points `view` at PE `pe`'s payload of `source` (Local payloads are per PE, a
// Shared record has one), its logical rows [first_row, first_row + rows);
// `swapped` views the transpose of that (rows and columns trade places).
// True when the view's offsets were rebuilt (its dot plan is stale).
bool set_view(numeric::OperandView& view, ViewShape& shape, const OperandSource& source,
              const arch::LocalTileFile& local, const fabric::Fabric& fabric, unsigned pe,
              std::uint32_t first_row, std::uint32_t rows, std::uint32_t cols, bool swapped) {
  const std::uint8_t* payload = source.shared ? fabric.tiles().at(source.index).payload.data()
                                              : local.at(source.index).payload(pe);
  const ViewShape wanted{true, source.info, first_row, rows, cols, source.transposed, swapped};
  view.data = payload;
  if (shape == wanted) return false;
  set_tile_view(view, source.info, payload, first_row, rows, cols, source.transposed, swapped);
  shape = wanted;
  return true;
}

bool rows_consecutive(const arch::TileInfo& t) {
  return t.rows > 1 && arch::storage_index(t, 1, 0) == arch::storage_index(t, 0, 0) + 1;
}

// Whether the PEs compute D^T = B^T x A^T instead of D: each element is the
// same products added in the same order (an FMA's product does not depend on
// the order of its factors), so the bits are the same. The kernel then
// stages D a column at a time and packs A (rows of CUBE_M CELLs) and B
// (CUBE_N8 columns) without transposing them. Not with a bias or CScale,
// which the kernel applies along D's rows. Without a post-process, when D's
// rows are consecutive slots (FP32/S32 in CUBE_M32, whose CELL is one column
// of 32 rows): D publishes a column at a time. With one, which runs along
// D's rows, when C's rows are (a K loop's last block, REQ8 for S8, whose
// earlier blocks swapped): the views and the dot plan of those blocks carry
// over, and the staged words turn to rows before the post-process.
bool swapped(const CubePlan& plan) {
  if (plan.bias_tile || plan.c_scale) return false;
  if (plan.post->identity()) return rows_consecutive(plan.destinations.front().info);
  return plan.c && rows_consecutive(plan.c->info);
}

// D^T (`cols` lines of `rows` words) into D (`rows` lines of `cols` words):
// 8 x 8 blocks by one transpose, the edges word by word.
void transpose_staged(const std::uint32_t* columns, std::uint32_t rows, std::uint32_t cols,
                      std::uint32_t* out) {
  static const numeric::Transpose8 transpose = numeric::transpose8(4);
  const std::uint32_t whole_rows = rows / 8 * 8, whole_cols = cols / 8 * 8;
  for (std::uint32_t c0 = 0; c0 < whole_cols; c0 += 8) {
    for (std::uint32_t r0 = 0; r0 < whole_rows; r0 += 8) {
      transpose(reinterpret_cast<const std::uint8_t*>(columns + std::size_t{c0} * rows + r0),
                std::size_t{rows} * 4,
                reinterpret_cast<std::uint8_t*>(out + std::size_t{r0} * cols + c0),
                std::size_t{cols} * 4);
    }
  }
  for (std::uint32_t r = 0; r < rows; ++r) {
    const std::uint32_t first = r < whole_rows ? whole_cols : 0;
    for (std::uint32_t c = first; c < cols; ++c)
      out[std::size_t{r} * cols + c] = columns[std::size_t{c} * rows + r];
  }
}

// Writes a PE's staged values (`words`, rows x cols, row-major) into slots
// row_term[r] + col_term[c] as `Slot`s. 32-bit slots where 8 consecutive rows
// take consecutive slots and 8 consecutive columns sit at one stride (FP32/S32
// in CUBE_M32, whose CELL is a column of 32 rows) move an 8 x 8 block at a
// time: narrowed into a dense block, then one transpose.
template <typename Slot, typename Word>
void store_rows(std::uint8_t* payload, const std::uint32_t* row_term, std::uint32_t rows,
                const std::uint32_t* col_term, std::uint32_t cols, const Word* words) {
  auto store = [&](std::uint32_t r, std::uint32_t c0) {
    std::uint8_t* row = payload + std::size_t{row_term[r]} * sizeof(Slot);
    for (std::uint32_t c = c0; c < cols; ++c) {
      const auto slot = static_cast<Slot>(words[std::size_t{r} * cols + c]);
      std::memcpy(row + std::size_t{col_term[c]} * sizeof(Slot), &slot, sizeof slot);
    }
  };
  std::uint32_t r0 = 0;
  if constexpr (sizeof(Slot) == 4) {
    static const numeric::Transpose8 transpose = numeric::transpose8(4);
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
        Slot block[8 * 8];
        for (std::uint32_t i = 0; i < 8; ++i)
          for (std::uint32_t j = 0; j < 8; ++j)
            block[i * 8 + j] = static_cast<Slot>(words[std::size_t{r0 + i} * cols + c0 + j]);
        transpose(reinterpret_cast<const std::uint8_t*>(block), sizeof block / 8,
                  payload + (std::size_t{row_term[r0]} + col_term[c0]) * 4,
                  std::size_t{stride} * 4);
      }
      for (std::uint32_t i = 0; i < 8; ++i)
        store(r0 + i, c0);
    }
  }
  for (; r0 < rows; ++r0)
    store(r0, 0);
}

// How a tile's slot terms run, worked out once with the terms: the number of
// leading row terms that are consecutive slots, and the step between column
// terms when they all have one (0 otherwise).
struct TermRuns {
  std::uint32_t rows = 0;
  std::uint32_t column_step = 0;
};

TermRuns term_runs(const std::vector<std::uint32_t>& row_term,
                   const std::vector<std::uint32_t>& col_term) {
  TermRuns runs;
  while (runs.rows < row_term.size() && row_term[runs.rows] == row_term[0] + runs.rows)
    ++runs.rows;
  if (col_term.size() < 2 || col_term[1] < col_term[0]) return runs;
  const std::uint32_t step = col_term[1] - col_term[0];
  for (std::size_t c = 2; c < col_term.size(); ++c) {
    if (col_term[c] != col_term[0] + c * step) return runs;
  }
  runs.column_step = step;
  return runs;
}

// The same from values staged a column at a time (`words` is cols x rows): a
// column whose rows take consecutive slots moves as one copy. `runs` are the
// terms' term_runs.
template <typename Slot, typename Word>
void store_columns(std::uint8_t* payload, const std::uint32_t* row_term, std::uint32_t rows,
                   const std::uint32_t* col_term, std::uint32_t cols, const TermRuns& runs,
                   const Word* words) {
  if (rows == 0) return;
  const bool consecutive = sizeof(Slot) == sizeof(Word) && rows <= runs.rows;
  // Columns that follow each other too (FP32/S32 D in CUBE_M32 with 32 rows
  // a PE): the staged words are the payload's slots, one copy.
  const bool whole = consecutive && (cols == 1 || runs.column_step == rows);
  if (whole) {
    std::memcpy(payload + (std::size_t{row_term[0]} + col_term[0]) * sizeof(Slot), words,
                std::size_t{rows} * cols * sizeof(Slot));
    return;
  }
  for (std::uint32_t c = 0; c < cols; ++c) {
    const Word* column = words + std::size_t{c} * rows;
    if (consecutive) {
      // Copies of 8 slots have a constant size: inline moves.
      std::uint8_t* slots = payload + (std::size_t{row_term[0]} + col_term[c]) * sizeof(Slot);
      std::uint32_t r = 0;
      for (; r + 8 <= rows; r += 8)
        std::memcpy(slots + r * sizeof(Slot), column + r, 8 * sizeof(Slot));
      if (r < rows) std::memcpy(slots + r * sizeof(Slot), column + r, (rows - r) * sizeof(Slot));
      continue;
    }
    for (std::uint32_t r = 0; r < rows; ++r) {
      const auto slot = static_cast<Slot>(column[r]);
      std::memcpy(payload + (std::size_t{row_term[r]} + col_term[c]) * sizeof(Slot), &slot,
                  sizeof slot);
    }
  }
}

// Calls visit(source) for each operand a plan reads (A, B, their scales, C,
// its scale, the bias tile).
template <typename Visit>
void for_each_source(const CubePlan& plan, Visit&& visit) {
  for (const std::optional<OperandSource>* source :
       {&plan.a, &plan.b, &plan.a_scale, &plan.b_scale, &plan.c, &plan.c_scale, &plan.bias_tile}) {
    if (*source) visit(**source);
  }
}

}  // namespace

struct Cube::Block {
  const arch::BlockDescriptor* descriptor = nullptr;
  arch::BlockDescriptor held;  // a queued block's copy of its descriptor, when it post-processes
  std::vector<unsigned> unzeroed;      // a queued block's destinations its values zero first
  std::vector<unsigned> destinations;  // a queued block's last_destinations()
  CubePlan plan;
  // Per PE, on cache lines of its own, so that the PEs compute concurrently.
  struct alignas(64) PeWork {
    numeric::DotOperands operands;
    std::array<ViewShape, 7> shapes;                            // a, b, a/b scale, c, cscale, bias
    std::array<std::optional<numeric::OperandView>, 7> parked;  // absent operands' views
    numeric::DotPlan dot_plan;                                  // valid while no shape changes
    Staged staged;
    fpatr::RowsJob job;             // the post-process
    std::uint8_t kernel_flags = 0;  // CScale's
    std::uint8_t post_flags = 0;    // B.FPATR's, of a queued PE
  };
  std::array<PeWork, arch::kPeCount> pe;
  std::uint8_t flags = 0;       // B.FPATR's, of the PEs in place
  std::uint8_t queued_pes = 0;  // the PEs whose rows compute_all_rows() queued
  std::string name;             // the CUBE function, for B.FPATR's reports
  bool swapped = false;         // the kernel computes D^T (swapped())
  bool columns_first = false;   // staged accumulators are D^T (cols x rows)
  std::uint64_t last_job = 0;   // a queued block's last job (DataQueue::submit())
};

Cube::Cube(arch::LocalTileFile& local, fabric::Fabric& fabric, arch::ArchState& state,
           CubeConfig config)
    : local_(local), fabric_(fabric), state_(state), config_(config) {
  blocks_.push_back(std::make_unique<Block>());
  block_ = blocks_.back().get();
}

Cube::~Cube() = default;

void Cube::use_data_queue(arch::DataQueue* queue) {
  // The old queue's jobs end first; its blocks are then free (job 0 ran).
  if (queue_ != nullptr) queue_->drain();
  for (Block* queued : queued_)
    queued->last_job = 0;
  block_->last_job = 0;
  queue_ = queue;
}

const CubePlan& Cube::plan() const {
  return block_->plan;
}

CubeOutcome Cube::execute(const arch::BlockDescriptor& block) {
  CubeOutcome outcome = prepare(block);
  if (!open_) return outcome;
  if (queue_ != nullptr) {
    if (deferrable()) return defer();
    queue_->drain();
  }
  Block& open = *block_;
  open.flags |= compute_and_post_process(open, open.plan.split.active_mask());
  return commit();
}

std::uint8_t Cube::compute_and_post_process(Block& open, std::uint8_t pes) {
  // A backend that takes concurrent jobs post-processes each PE's rows on the
  // thread that computed them; the others take them in PE order.
  const bool concurrent = fpatr_->concurrent();
  std::array<std::uint8_t, arch::kPeCount> post_flags{};
  arch::for_each_pe(pes, [&](unsigned pe) {
    compute_rows(open, pe);
    if (!concurrent) return;
    if (const auto* job = post_process_job(open, pe)) post_flags[pe] = fpatr_->run(*job).flags;
  });
  std::uint8_t flags = 0;
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
    if (!arch::pe_selected(pes, pe)) continue;
    flags |= open.pe[pe].kernel_flags;
    if (concurrent) {
      flags |= post_flags[pe];
    } else if (const auto* job = post_process_job(open, pe)) {
      flags |= fpatr_->run(*job).flags;
    }
  }
  return flags;
}

bool Cube::deferrable() const {
  // Queued work runs beside the front end, which may read Shared records and
  // call a backend that keeps state; those blocks run in place.
  bool shared = false;
  for_each_source(block_->plan, [&](const OperandSource& source) { shared |= source.shared; });
  return !shared && fpatr_->concurrent();
}

std::uint64_t Cube::source_tiles(const Block& open) const {
  std::uint64_t tiles = 0;
  for_each_source(open.plan,
                  [&](const OperandSource& source) { tiles |= std::uint64_t{1} << source.index; });
  for (unsigned index : open.plan.post_sources)
    tiles |= std::uint64_t{1} << index;
  return tiles;
}

void Cube::hold_descriptor(Block& open) {
  if (open.plan.post->identity()) return;  // only the post-process parameters read it
  open.held = *open.descriptor;
  open.descriptor = &open.held;
}

void Cube::zero_and_publish(Block& open, const std::vector<unsigned>& destinations,
                            std::uint8_t pes) {
  for (unsigned index : open.unzeroed)
    local_.at(index).zero_payloads(pes);
  publish(open, destinations, pes);
}

std::uint64_t Cube::hold_destinations(Block& open) const {
  open.destinations = last_destinations_;
  std::uint64_t tiles = 0;
  for (unsigned index : last_destinations_)
    tiles |= std::uint64_t{1} << index;
  return tiles;
}

CubeOutcome Cube::defer() {
  Block& open = *block_;
  if (CubeOutcome allocated = allocate(true); !allocated.done()) return allocated;
  hold_descriptor(open);
  const std::uint64_t sources = source_tiles(open);
  const std::uint64_t destinations = hold_destinations(open);
  // The values of the PEs `pes`; the destinations' payloads are zeroed here,
  // where they are written.
  auto values = [this, &open](std::uint8_t pes) {
    const std::uint8_t flags = compute_and_post_process(open, pes);
    zero_and_publish(open, open.destinations, pes);
    return flags;
  };
  const std::uint8_t active = open.plan.split.active_mask();
  const std::uint8_t front = queue_->front_pes(active, sources);
  const std::uint8_t back = active & ~front;
  if (back != 0) {
    open.last_job = queue_->submit([values, back] { return values(back); }, sources | destinations,
                                   back, destinations);
  }
  if (front != 0) state_.raise_numeric_flags(values(front));
  handed_off_ = back != 0;  // else the block is free again at once
  return {};
}

CubeOutcome Cube::prepare(const arch::BlockDescriptor& block) {
  last_destinations_.clear();
  if (handed_off_) {
    // The last block is queued: this one takes a block whose jobs ran
    // (asking the queue, which mostly knows without reading the worker's
    // cache lines).
    handed_off_ = false;
    queued_.push_back(block_);
    const std::uint64_t last_job = queued_.front()->last_job;
    if (last_job == 0 || queue_->ran(last_job)) {
      block_ = queued_.front();
      queued_.pop_front();
    } else {
      blocks_.push_back(std::make_unique<Block>());
      block_ = blocks_.back().get();
    }
  }
  Block& open = *block_;
  open.plan = CubePlan{};
  CubeOutcome outcome = CubePreflight(local_, fabric_, config_).run(block, open.plan);
  open_ = outcome.done() && !open.plan.noop;
  open.descriptor = &block;
  open.flags = 0;
  open.queued_pes = 0;
  if (open_) {
    open.name = MatrixFunction::decode(block.function)->name();
    open.swapped = swapped(open.plan);
    open.columns_first = open.swapped && open.plan.post->identity();
  }
  return outcome;
}

void Cube::compute_all_rows() {
  Block& open = *block_;
  std::uint8_t pes = open.plan.split.active_mask();
  if (queue_ != nullptr) {
    if (deferrable()) {
      open.queued_pes = pes & ~queue_->front_pes(pes, source_tiles(open));
    } else {
      queue_->drain();
    }
  }
  if (open.queued_pes != 0) {
    // The queued PEs' rows and their post-process jobs, which B.FPATR
    // queues behind them; commit() queues their publication.
    hold_descriptor(open);
    queue_->submit(
        [this, &open, queued = open.queued_pes] {
          arch::for_each_pe(queued, [&](unsigned pe) {
            compute_rows(open, pe);
            post_process_job(open, pe);
          });
          return std::uint8_t{0};  // the kernels' flags publish with the block
        },
        source_tiles(open));
    pes &= ~open.queued_pes;
  }
  arch::for_each_pe(pes, [&](unsigned pe) { compute_rows(open, pe); });
}

void Cube::compute_rows(unsigned pe) {
  compute_rows(*block_, pe);
}

const fpatr::RowsJob* Cube::post_process_job(unsigned pe) {
  Block& open = *block_;
  if (!arch::pe_selected(open.queued_pes, pe)) return post_process_job(open, pe);
  // The queued rows fill it in.
  return open.plan.split.rows(pe) != 0 && !open.plan.post->identity() ? &open.pe[pe].job : nullptr;
}

std::uint8_t* Cube::queued_post_flags(unsigned pe) {
  Block& open = *block_;
  return arch::pe_selected(open.queued_pes, pe) ? &open.pe[pe].post_flags : nullptr;
}

void Cube::compute_rows(Block& open, unsigned pe) {
  const CubePlan& plan = open.plan;
  const std::uint32_t rows = plan.split.rows(pe);
  Block::PeWork& work = open.pe[pe];
  // The PE's flags start afresh on the thread that computes it: cleared by
  // the front end, their line would cross between the cores each block.
  work.kernel_flags = 0;
  work.post_flags = 0;
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
  // Columns first, A and B (and their scales) trade places and every view is
  // transposed.
  const bool swap = open.swapped;
  // An operand a block does not have is parked with its offsets, which its
  // return reuses when its shape is the same (C comes and goes in a K loop).
  // shapes[i] describes the offsets of the view or, while absent, the parked
  // one.
  enum class Change { None, Presence, Offsets };
  auto set_optional = [&](std::optional<numeric::OperandView>& view, std::size_t role,
                          const std::optional<OperandSource>& source, std::uint32_t first_row,
                          std::uint32_t view_rows, std::uint32_t cols) {
    std::optional<numeric::OperandView>& parked = work.parked[role];
    ViewShape& shape = work.shapes[role];
    if (!source) {
      if (!view) return Change::None;
      parked = std::exchange(view, std::nullopt);
      return Change::Presence;
    }
    const bool returns = !view;
    if (returns && parked) {
      view = std::exchange(parked, std::nullopt);
    } else if (returns) {
      view.emplace();
      shape = {};  // no offsets yet
    }
    if (set_view(*view, shape, *source, local_, fabric_, pe, first_row, view_rows, cols, swap)) {
      return Change::Offsets;
    }
    return returns ? Change::Presence : Change::None;
  };
  numeric::DotOperands& ops = work.operands;
  std::array<ViewShape, 7>& shapes = work.shapes;
  ops.profile = plan.profile;
  // Every view is set (no short circuit). New offsets, or an operand other
  // than C coming or going, make the dot plan stale; C may come and go under
  // one plan (numeric::DotPlan).
  auto any = [](Change change) { return change != Change::None; };
  bool stale = set_view(swap ? ops.b : ops.a, shapes[0], *plan.a, local_, fabric_, pe,
                        a_first(plan.a), rows, k, swap);
  stale |= set_view(swap ? ops.a : ops.b, shapes[1], *plan.b, local_, fabric_, pe, 0, k, n, swap);
  stale |= any(set_optional(swap ? ops.b_scale : ops.a_scale, 2, plan.a_scale,
                            a_first(plan.a_scale), rows, scale_groups(plan.a_scale, plan.a_type)));
  stale |= any(set_optional(swap ? ops.a_scale : ops.b_scale, 3, plan.b_scale, 0,
                            scale_groups(plan.b_scale, plan.b_type), n));
  stale |= set_optional(ops.c, 4, plan.c, 0, rows, n) == Change::Offsets;
  stale |= any(set_optional(ops.c_scale, 5, plan.c_scale, 0, rows, 1));
  stale |= any(set_optional(ops.bias, 6, plan.bias_tile, 0, 1, n));
  if (stale) work.dot_plan.forget();
  Staged& out = work.staged;
  out.accumulator.resize(std::size_t{rows} * n);
  if (swap && !open.columns_first) {
    out.columns.resize(out.accumulator.size());
    work.kernel_flags = numeric::dot(ops, out.columns.data(), work.dot_plan);
    transpose_staged(out.columns.data(), rows, n, out.accumulator.data());
    return;
  }
  work.kernel_flags = numeric::dot(ops, out.accumulator.data(), work.dot_plan);
}

const fpatr::RowsJob* Cube::post_process_job(Block& open, unsigned pe) {
  const CubePlan& plan = open.plan;
  const std::uint32_t rows = plan.split.rows(pe);
  const fpatr::Fpatr& pp = *plan.post;
  if (rows == 0 || pp.identity()) return nullptr;
  // The outputs are staged with the block and publish with D (docs/cube.md,
  // "Data flow").
  const std::uint32_t n = plan.n;
  Staged& out = open.pe[pe].staged;
  out.d.resize(out.accumulator.size());
  out.row_max.resize(pp.row_max() ? rows : 0);
  out.group_max.resize(std::size_t{rows} * (pp.group_max() ? pp.groups(n) : 0));
  out.parameters = pp.parameters(*open.descriptor, pe, local_, plan.post_sources.data(), rows, n);
  fpatr::RowsJob& job = open.pe[pe].job;
  job.unit = &pp;
  job.parameters = &out.parameters;
  job.accumulator = out.accumulator.data();
  job.rows = rows;
  job.columns = n;
  job.out = {out.d.data(), out.row_max.data(), out.group_max.data()};
  job.pe = pe;
  job.block = open.name;
  job.block_pc = open.descriptor->bpc;
  return &job;
}

void Cube::post_processed(std::uint8_t flags) {
  block_->flags |= flags;
}

CubeOutcome Cube::commit() {
  if (block_->queued_pes != 0) return commit_queued();
  if (CubeOutcome allocated = allocate(false); !allocated.done()) return allocated;
  Block& open = *block_;
  publish(open, last_destinations_, open.plan.split.active_mask());
  std::uint8_t flags = open.flags;
  arch::for_each_pe(open.plan.split.active_mask(),
                    [&](unsigned pe) { flags |= open.pe[pe].kernel_flags; });
  state_.raise_numeric_flags(flags);
  return {};
}

CubeOutcome Cube::commit_queued() {
  Block& open = *block_;
  const std::uint8_t queued = open.queued_pes;
  handed_off_ = true;  // its queued jobs use the block
  if (CubeOutcome allocated = allocate(true); !allocated.done()) {
    // No effect: the staged rows are dropped behind their jobs.
    open.last_job = queue_->submit([] { return std::uint8_t{0}; }, 0);
    return allocated;
  }
  const std::uint64_t destinations = hold_destinations(open);
  open.last_job = queue_->submit(
      [this, &open, queued] {
        zero_and_publish(open, open.destinations, queued);
        std::uint8_t flags = 0;
        for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
          if (!arch::pe_selected(queued, pe)) continue;
          flags |= open.pe[pe].kernel_flags;
          flags |= open.pe[pe].post_flags;
        }
        return flags;
      },
      destinations, queued, destinations);
  const std::uint8_t in_place = open.plan.split.active_mask() & ~queued;
  zero_and_publish(open, last_destinations_, in_place);
  std::uint8_t flags = open.flags;
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
    if (arch::pe_selected(in_place, pe)) flags |= open.pe[pe].kernel_flags;
  }
  state_.raise_numeric_flags(flags);
  return {};
}

CubeOutcome Cube::allocate(bool deferred) {
  const CubePlan& plan = block_->plan;
  open_ = false;

  // Allocate the output group; a failure releases what the group took.
  const std::uint8_t mask = plan.split.active_mask();
  block_->unzeroed.clear();
  for (const CubePlan::Destination& destination : plan.destinations) {
    auto placed =
        local_.plan(destination.binding->destination_hand, mask, destination.info.capacity_bytes,
                    fabric_.tiles(), state_.tile_capacity());
    if (!placed) {
      for (unsigned index : last_destinations_)
        local_.release(index);
      last_destinations_.clear();
      return {placed.fault(), std::nullopt};
    }
    // A D that every active PE publishes whole needs no zeros first; deferred
    // values zero the others' payloads where they are written.
    const arch::TileInfo& info = destination.info;
    bool whole = &destination == &plan.destinations.front() &&
                 arch::valid_region_fills_payload(info) && info.valid_columns == plan.n;
    for (unsigned pe = 0; pe < arch::kPeCount; ++pe)
      whole = whole && (!arch::pe_selected(mask, pe) || plan.split.rows(pe) == info.valid_rows);
    local_.commit(*placed, info, mask, whole || deferred).define_valid_region();
    if (deferred && !whole) block_->unzeroed.push_back(placed->index);
    last_destinations_.push_back(placed->index);
  }
  return {};
}

void Cube::publish(Block& open, const std::vector<unsigned>& destinations, std::uint8_t pes) {
  const CubePlan& plan = open.plan;
  // Publish D, RowMaxOut, GroupMaxOut and the status flags together;
  // `staged_words(staged)` is a PE's staged rows x cols values of the tile.
  // `columns`: the staged words are cols x rows (columns first).
  auto publish_tile = [&](unsigned index, std::uint32_t cols, bool columns, auto staged_words) {
    arch::LocalTile& tile = local_.at(index);
    const arch::TileInfo& info = tile.info();
    // A slot is a row term plus a column term (arch::storage_index).
    std::uint32_t max_rows = 0;
    for (unsigned pe = 0; pe < arch::kPeCount; ++pe)
      max_rows = std::max(max_rows, plan.split.rows(pe));
    // Per thread: the front end and the worker publish PEs of one block.
    // Kept while the tile's shape comes back (a loop's blocks).
    thread_local std::vector<std::uint32_t> row_term, col_term;
    thread_local arch::TileInfo terms_info;
    thread_local TermRuns runs;
    if (terms_info != info || row_term.size() != max_rows || col_term.size() != cols) {
      arch::storage_row_terms(info, max_rows, row_term);
      arch::storage_column_terms(info, cols, col_term);
      terms_info = info;
      runs = term_runs(row_term, col_term);
    }
    arch::for_each_pe(pes, [&](unsigned pe) {
      const auto* words = staged_words(open.pe[pe].staged);
      std::uint8_t* payload = tile.payload(pe);
      const std::uint32_t rows = plan.split.rows(pe);
      auto store = [&](auto slot) {
        if (columns) {
          store_columns<decltype(slot)>(payload, row_term.data(), rows, col_term.data(), cols, runs,
                                        words);
        } else {
          store_rows<decltype(slot)>(payload, row_term.data(), rows, col_term.data(), cols, words);
        }
      };
      switch (arch::element_bits(info.data_type)) {
        case 8: store(std::uint8_t{}); break;
        case 16: store(std::uint16_t{}); break;
        case 32: store(std::uint32_t{}); break;
        case 64: store(std::uint64_t{}); break;
        default:  // 4-bit slots share a byte
          for (std::uint32_t r = 0; r < rows; ++r)
            for (std::uint32_t c = 0; c < cols; ++c)
              arch::write_slot(
                  payload, info.data_type, row_term[r] + col_term[c],
                  columns ? words[std::size_t{c} * rows + r] : words[std::size_t{r} * cols + c]);
      }
    });
  };
  const fpatr::Fpatr& pp = *plan.post;
  std::size_t next = 0;
  if (pp.identity()) {
    publish_tile(destinations[next++], plan.n, open.columns_first,
                 [](const Staged& s) { return s.accumulator.data(); });
  } else {
    publish_tile(destinations[next++], plan.n, false, [](const Staged& s) { return s.d.data(); });
  }
  if (pp.row_max()) {
    publish_tile(destinations[next++], 1, false, [](const Staged& s) { return s.row_max.data(); });
  }
  if (pp.group_max()) {
    publish_tile(destinations[next], pp.groups(plan.n), false,
                 [](const Staged& s) { return s.group_max.data(); });
  }
}

}  // namespace ptovp::cube

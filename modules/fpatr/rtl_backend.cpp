#include "fpatr/rtl_backend.hpp"

// The Verilator runtime before anything else (docs/rtl-cosim.md: it must not
// follow SystemC's headers); this file includes no SystemC.
#include <verilated.h>

#include <algorithm>
#include <array>
#include <deque>
#include <vector>

#include <fmt/format.h>

#include "Vfpatr_pipeline.h"
#include "Vfpatr_pipeline_fault.h"

namespace ptovp::fpatr {

namespace {

constexpr unsigned kLanes = PTOVP_RTL_LANES;
constexpr unsigned kDepth = PTOVP_RTL_DEPTH;

// One beat of the lane interface and what comes back for it.
struct Beat {
  bool reduce = false;
  std::uint32_t lanes = 0;  // a bit per lane that carries an element
  std::array<std::uint32_t, kLanes> value{}, current{}, scale{}, alpha{}, offset{};
};
struct Result {
  std::array<std::uint32_t, kLanes> bits{};
  std::array<std::uint8_t, kLanes> flags{};
};

// The lane words of a port LANES x 32 bits wide, whichever C type Verilator
// chose for it (VlWide, QData or IData): PTOVP_RTL_LANES picks one, so the
// others are unused in a given build.
template <std::size_t N>
void put(VlWide<N>& port, unsigned lane, std::uint32_t word) {
  port[lane] = word;
}
[[maybe_unused]] inline void put(QData& port, unsigned lane, std::uint32_t word) {
  const unsigned shift = 32 * lane;
  port = (port & ~(QData{0xFFFFFFFFu} << shift)) | QData{word} << shift;
}
[[maybe_unused]] inline void put(IData& port, unsigned, std::uint32_t word) {
  port = word;
}
template <std::size_t N>
std::uint32_t get(const VlWide<N>& port, unsigned lane) {
  return port[lane];
}
[[maybe_unused]] inline std::uint32_t get(QData port, unsigned lane) {
  return static_cast<std::uint32_t>(port >> (32 * lane));
}
[[maybe_unused]] inline std::uint32_t get(IData port, unsigned) {
  return port;
}
inline std::uint8_t flags_of(std::uint64_t port, unsigned lane) {
  return static_cast<std::uint8_t>(port >> (8 * lane));
}

// The block parameters as the RTL latches them.
struct BlockConfig {
  std::uint8_t source = 0, kind = 0, relu = 0, rmode = 1, offset_width = 0, out_format = 0,
               out_bits = 32;
  bool sat = false, out_signed = true, max_abs = false;
};

}  // namespace

class RtlBackend::Model {
 public:
  virtual ~Model() = default;
  virtual void configure(const BlockConfig& config) = 0;
  // One clock cycle with out_ready high: offers `beat` (nullptr: none) and
  // answers whether the pipeline took it and whether a result came out
  // (into `result`).
  struct Cycle {
    bool accepted;
    bool produced;
  };
  virtual Cycle cycle(const Beat* beat, Result& result) = 0;

  // Streams `beats` through the pipeline (results in order); returns the
  // clock cycles it took, from the first beat offered to the last result.
  std::uint64_t stream(const std::vector<Beat>& beats, std::vector<Result>& results) {
    results.assign(beats.size(), Result{});
    std::size_t offered = 0, received = 0;
    std::uint64_t cycles = 0;
    while (received < beats.size()) {
      const Cycle c = cycle(offered < beats.size() ? &beats[offered] : nullptr, results[received]);
      ++cycles;
      if (c.produced) ++received;
      if (c.accepted) ++offered;
    }
    return cycles;
  }
};

namespace {

template <typename Verilated>
class ModelOf final : public RtlBackend::Model {
 public:
  ModelOf() : model_(&context_, "fpatr") {
    model_.clk = 0;
    model_.rst_n = 0;
    model_.eval();
    tick();
    model_.rst_n = 1;
    model_.out_ready = 1;
    model_.eval();
  }

  void configure(const BlockConfig& c) override {
    model_.cfg_source = c.source;
    model_.cfg_kind = c.kind;
    model_.cfg_relu = c.relu;
    model_.cfg_rmode = c.rmode;
    model_.cfg_sat = c.sat;
    model_.cfg_offset_width = c.offset_width;
    model_.cfg_out_format = c.out_format;
    model_.cfg_out_bits = c.out_bits;
    model_.cfg_out_signed = c.out_signed;
    model_.cfg_max_abs = c.max_abs;
    model_.cfg_load = 1;
    model_.in_valid = 0;
    tick();
    model_.cfg_load = 0;
  }

  // Drive, let the handshakes settle, sample, then the clock edge.
  Cycle cycle(const Beat* beat, Result& result) override {
    model_.in_valid = beat != nullptr ? 1 : 0;
    if (beat != nullptr) drive(*beat);
    model_.eval();
    const Cycle c{beat != nullptr && model_.in_ready != 0, model_.out_valid != 0};
    if (c.produced) {
      for (unsigned lane = 0; lane < kLanes; ++lane) {
        result.bits[lane] = get(model_.out_bits, lane);
        result.flags[lane] = flags_of(model_.out_flags, lane);
      }
    }
    tick();
    model_.in_valid = 0;
    return c;
  }

 private:
  void tick() {
    model_.clk = 1;
    model_.eval();
    model_.clk = 0;
    model_.eval();
  }

  void drive(const Beat& beat) {
    model_.in_op = beat.reduce;
    model_.in_lanes = static_cast<CData>(beat.lanes);
    for (unsigned lane = 0; lane < kLanes; ++lane) {
      put(model_.in_value, lane, beat.value[lane]);
      put(model_.in_current, lane, beat.current[lane]);
      put(model_.in_scale, lane, beat.scale[lane]);
      put(model_.in_alpha, lane, beat.alpha[lane]);
      put(model_.in_offset, lane, beat.offset[lane]);
    }
  }

  VerilatedContext context_;
  Verilated model_;
};

// A multiplier as the lane word carries it: {exponent[9:0], significand[10:0]}.
std::uint32_t multiplier_word(const numeric::Dyadic& value) {
  const auto significand = static_cast<std::uint32_t>(value.significand);
  if (value.significand == 0) return 0;
  return (static_cast<std::uint32_t>(value.exponent) & 0x3FFu) << 11 | (significand & 0x7FFu);
}

bool fits_lane(const numeric::Dyadic& value) {
  return !value.negative && value.significand < (1u << 11) && value.exponent >= -512 &&
         value.exponent < 512;
}

// The RTL's destination format code (cfg_out_format): 0 for the integers.
std::uint8_t out_format(numeric::DataType type) {
  switch (type) {
    case numeric::DataType::FP32: return 1;
    case numeric::DataType::FP16: return 2;
    case numeric::DataType::BF16: return 3;
    case numeric::DataType::E4M3: return 4;
    case numeric::DataType::HiF8: return 5;
    default: return 0;
  }
}

BlockConfig block_config(const Fpatr& unit) {
  const numeric::PostProcess& post = unit.element_pipeline();
  BlockConfig c;
  c.source = unit.accumulator_type() == numeric::DataType::S32   ? 0
             : unit.accumulator_type() == numeric::DataType::U32 ? 1
                                                                 : 2;
  c.kind = post.identity() ? 2 : post.mode().parameter == numeric::ParameterKind::Shift ? 1 : 0;
  c.relu = static_cast<std::uint8_t>(post.relu_mode());
  c.rmode = static_cast<std::uint8_t>(post.control().rounding);
  c.sat = post.control().saturate;
  c.offset_width = post.mode().offset_width;
  c.out_format = out_format(unit.output_type());
  const numeric::DataTypeInfo& out = numeric::info(unit.output_type());
  c.out_bits = out.lane_bits;
  c.out_signed = out.kind == numeric::TypeKind::Signed;
  c.max_abs = unit.attributes().max_abs_en();
  return c;
}

// One reduction (RowMax of a row, GroupMax of a group): the words, then an
// optional RowMaxIn as the current operand of a final step
// (numeric::row_max, numeric::group_max).
struct Sequence {
  const std::uint32_t* words;
  std::uint32_t count;
  const std::uint32_t* init;
  std::uint32_t* out;
  std::uint8_t* flags_out;
};

// LANES sequences reduced side by side, a sequence per lane: step k (k = 0
// is the ABS of the first word, when MaxAbsEn; the last, RowMaxIn against the
// result, when there is one) needs the result of the step before.
class ReductionBatch {
 public:
  ReductionBatch(const Sequence* sequences, std::size_t count, bool max_abs)
      : sequences_(sequences), count_(count), step_(max_abs ? 0 : 1) {
    for (std::size_t s = 0; s < count; ++s) {
      running_[s] = sequences[s].words[0];
      longest_ = std::max(longest_, sequences[s].count);
    }
    prepare();
  }

  // A step to offer (none in flight); no step in flight and none left.
  bool ready() const { return !in_flight_ && has_beat_; }
  bool done() const { return !in_flight_ && !has_beat_; }
  const Beat& beat() const { return beat_; }

  void issued() { in_flight_ = true; }

  void retire(const Result& result) {
    for (std::size_t s = 0; s < count_; ++s) {
      if ((beat_.lanes >> s & 1u) == 0) continue;
      running_[s] = result.bits[s];
      running_flags_[s] |= result.flags[s];
    }
    in_flight_ = false;
    ++step_;
    prepare();
  }

  // Writes the results; returns the OR of their flags.
  std::uint8_t finish() const {
    std::uint8_t flags = 0;
    for (std::size_t s = 0; s < count_; ++s) {
      *sequences_[s].out = running_[s];
      if (sequences_[s].flags_out != nullptr) *sequences_[s].flags_out = running_flags_[s];
      flags |= running_flags_[s];
    }
    return flags;
  }

 private:
  // The beat of the next step that has a lane, if any is left.
  void prepare() {
    for (; step_ <= longest_; ++step_) {
      beat_ = Beat{};
      beat_.reduce = true;
      for (std::size_t s = 0; s < count_; ++s) {
        const Sequence& seq = sequences_[s];
        if (step_ < seq.count) {
          beat_.lanes |= 1u << s;
          beat_.current[s] = running_[s];
          beat_.value[s] = seq.words[step_];
        } else if (step_ == seq.count && seq.init != nullptr) {
          beat_.lanes |= 1u << s;
          beat_.current[s] = *seq.init;
          beat_.value[s] = running_[s];
        }
      }
      if (beat_.lanes != 0) {
        has_beat_ = true;
        return;
      }
    }
    has_beat_ = false;
  }

  const Sequence* sequences_;
  std::size_t count_;
  std::uint32_t step_;
  std::uint32_t longest_ = 0;
  Beat beat_;
  bool has_beat_ = false;
  bool in_flight_ = false;
  std::array<std::uint32_t, kLanes> running_{};
  std::array<std::uint8_t, kLanes> running_flags_{};
};

// The reductions through the pipeline: DEPTH + 1 batches take turns, so a
// batch's next step is ready when its turn comes and the pipeline takes a
// beat every cycle. ORs the flags into `flags`; returns the cycles.
std::uint64_t run_reductions(RtlBackend::Model& model, const std::vector<Sequence>& sequences,
                             bool max_abs, std::uint8_t& flags) {
  std::vector<ReductionBatch> batches;
  for (std::size_t first = 0; first < sequences.size(); first += kLanes) {
    batches.emplace_back(&sequences[first], std::min<std::size_t>(kLanes, sequences.size() - first),
                         max_abs);
  }
  std::vector<ReductionBatch*> open;    // the batches taking turns
  std::deque<ReductionBatch*> pending;  // the batch of each beat in the pipeline, in order
  std::size_t next = 0, turn = 0;
  std::uint64_t cycles = 0;
  Result result;
  while (next < batches.size() || !open.empty()) {
    while (open.size() < kDepth + 1 && next < batches.size())
      open.push_back(&batches[next++]);
    // The first batch from this turn on with a step to offer.
    ReductionBatch* offered = nullptr;
    for (std::size_t i = 0; i < open.size() && offered == nullptr; ++i) {
      ReductionBatch* batch = open[(turn + i) % open.size()];
      if (batch->ready()) offered = batch;
    }
    turn = (turn + 1) % open.size();
    const RtlBackend::Model::Cycle c =
        model.cycle(offered != nullptr ? &offered->beat() : nullptr, result);
    ++cycles;
    if (c.accepted) {
      offered->issued();
      pending.push_back(offered);
    }
    if (c.produced) {
      pending.front()->retire(result);
      pending.pop_front();
    }
    for (std::size_t i = 0; i < open.size();) {
      if (open[i]->done()) {
        flags |= open[i]->finish();
        open.erase(open.begin() + static_cast<std::ptrdiff_t>(i));
      } else {
        ++i;
      }
    }
  }
  return cycles;
}

}  // namespace

RtlBackend::RtlBackend(bool fault_rne_tie) {
  if (fault_rne_tie) {
    model_ = std::make_unique<ModelOf<Vfpatr_pipeline_fault>>();
  } else {
    model_ = std::make_unique<ModelOf<Vfpatr_pipeline>>();
  }
}

RtlBackend::~RtlBackend() = default;

unsigned RtlBackend::lanes() {
  return kLanes;
}

unsigned RtlBackend::depth() {
  return kDepth;
}

RowsAnswer RtlBackend::run(const RowsJob& job) {
  const Fpatr& unit = *job.unit;
  const Parameters& p = *job.parameters;
  const numeric::PostProcess& post = unit.element_pipeline();
  const bool vector_quant = unit.vector_quant();
  const unsigned relu = post.relu_mode();
  const numeric::Dyadic zero{};
  model_->configure(block_config(unit));
  std::uint8_t flags = 0;
  std::uint64_t cycles = 0;

  // D: the elements in row-major order, LANES per beat, each with its
  // column's parameters.
  const std::uint32_t n = job.columns;
  const std::size_t elements = std::size_t{job.rows} * n;
  std::vector<Beat> beats((elements + kLanes - 1) / kLanes);
  for (std::size_t i = 0; i < elements; ++i) {
    const auto c = static_cast<std::uint32_t>(i % n);
    const numeric::QuantParameter& quant = vector_quant ? p.quant_columns[c] : p.quant;
    const numeric::Dyadic& alpha = relu == numeric::kReluScalar   ? p.alpha
                                   : relu == numeric::kReluVector ? p.alpha_columns[c]
                                                                  : zero;
    if (!fits_lane(quant.scale) || !fits_lane(alpha)) {
      failure_ = fmt::format("block {} at 0x{:x}, PE{}: a multiplier outside the RTL's lane format",
                             job.block, job.block_pc, job.pe);
      return {};
    }
    Beat& beat = beats[i / kLanes];
    const unsigned lane = i % kLanes;
    beat.lanes |= 1u << lane;
    beat.value[lane] = job.accumulator[i];
    beat.scale[lane] = multiplier_word(quant.scale);
    beat.alpha[lane] = multiplier_word(alpha);
    beat.offset[lane] =
        (quant.shift & 0x1Fu) << 18 | (static_cast<std::uint32_t>(quant.offset) & 0x3FFFFu);
  }
  std::vector<Result> results;
  cycles += model_->stream(beats, results);
  for (std::size_t i = 0; i < elements; ++i) {
    const Result& r = results[i / kLanes];
    const unsigned lane = i % kLanes;
    job.out.d[i] = r.bits[lane];
    if (job.out.d_flags != nullptr) job.out.d_flags[i] = r.flags[lane];
    flags |= r.flags[lane];
  }

  // The reductions: RowMax of each row, GroupMax of each group.
  std::vector<Sequence> sequences;
  if (unit.row_max()) {
    for (std::uint32_t r = 0; r < job.rows; ++r) {
      sequences.push_back({job.accumulator + std::size_t{r} * n, n,
                           p.row_max_in.empty() ? nullptr : &p.row_max_in[r], job.out.row_max + r,
                           job.out.row_max_flags ? job.out.row_max_flags + r : nullptr});
    }
  }
  if (unit.group_max()) {
    const unsigned group_n = numeric::group_n_from_code(unit.attributes().group_n_code());
    const std::uint32_t groups = unit.groups(n);
    for (std::uint32_t r = 0; r < job.rows; ++r) {
      for (std::uint32_t g = 0; g < groups; ++g) {
        const std::size_t i = std::size_t{r} * groups + g;
        sequences.push_back({job.accumulator + std::size_t{r} * n + std::size_t{g} * group_n,
                             std::min(group_n, n - g * group_n), nullptr, job.out.group_max + i,
                             job.out.group_max_flags ? job.out.group_max_flags + i : nullptr});
      }
    }
  }
  cycles += run_reductions(*model_, sequences, unit.attributes().max_abs_en(), flags);
  return {flags, cycles};
}

}  // namespace ptovp::fpatr

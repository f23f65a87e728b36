#include "fpatr/fpatr_backend.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace ptovp::fpatr {

RowsAnswer CppBackend::run(const RowsJob& job) {
  return {job.unit->run(job.accumulator, job.rows, job.columns, *job.parameters, job.out),
          std::nullopt};
}

namespace {

// One backend's outputs of a job, with every output's flags.
struct Side {
  std::vector<std::uint64_t> d;
  std::vector<std::uint32_t> row_max, group_max;
  std::vector<std::uint8_t> d_flags, row_max_flags, group_max_flags;

  Outputs prepare(const RowsJob& job) {
    const std::size_t elements = std::size_t{job.rows} * job.columns;
    const std::size_t groups =
        job.unit->group_max() ? std::size_t{job.rows} * job.unit->groups(job.columns) : 0;
    const std::size_t maxima = job.unit->row_max() ? job.rows : 0;
    d.assign(elements, 0);
    d_flags.assign(elements, 0);
    row_max.assign(maxima, 0);
    row_max_flags.assign(maxima, 0);
    group_max.assign(groups, 0);
    group_max_flags.assign(groups, 0);
    return {d.data(),       row_max.data(),       group_max.data(),
            d_flags.data(), row_max_flags.data(), group_max_flags.data()};
  }
};

}  // namespace

struct CheckedBackend::Buffers {
  Side reference, candidate;
};

CheckedBackend::CheckedBackend(std::unique_ptr<Backend> reference,
                               std::unique_ptr<Backend> candidate)
    : reference_(std::move(reference)),
      candidate_(std::move(candidate)),
      buffers_(std::make_unique<Buffers>()) {}

CheckedBackend::~CheckedBackend() = default;

RowsAnswer CheckedBackend::run(const RowsJob& job) {
  RowsJob reference = job;
  reference.out = buffers_->reference.prepare(job);
  RowsJob candidate = job;
  candidate.out = buffers_->candidate.prepare(job);
  const RowsAnswer expected = reference_->run(reference);
  const RowsAnswer got = candidate_->run(candidate);
  if (!failure_) failure_ = candidate_->failure();
  if (!failure_) {
    failure_ = compare(job);
    if (!failure_ && expected.flags != got.flags) {
      failure_ = fmt::format(
          "block {} at 0x{:x}, PE{}: the OR of the flags differs: {} 0x{:02x}, "
          "{} 0x{:02x}",
          job.block, job.block_pc, job.pe, reference_->name(), expected.flags, candidate_->name(),
          got.flags);
    }
  }
  // The outputs are the reference's, with the job's own flags when asked.
  const Side& kept = buffers_->reference;
  auto copy = [](const auto& from, auto* to) {
    if (to != nullptr) std::copy(from.begin(), from.end(), to);
  };
  copy(kept.d, job.out.d);
  copy(kept.row_max, job.out.row_max);
  copy(kept.group_max, job.out.group_max);
  copy(kept.d_flags, job.out.d_flags);
  copy(kept.row_max_flags, job.out.row_max_flags);
  copy(kept.group_max_flags, job.out.group_max_flags);
  return {expected.flags, got.cycles};
}

namespace {

std::string describe_quant(const numeric::QuantParameter& quant) {
  return fmt::format("scale {}{}x2^{} offset {} shift {}", quant.scale.negative ? "-" : "",
                     static_cast<std::uint64_t>(quant.scale.significand), quant.scale.exponent,
                     quant.offset, quant.shift);
}

std::string describe_alpha(const numeric::Dyadic& alpha) {
  return fmt::format("alpha {}{}x2^{}", alpha.negative ? "-" : "",
                     static_cast<std::uint64_t>(alpha.significand), alpha.exponent);
}

}  // namespace

std::optional<std::string> CheckedBackend::compare(const RowsJob& job) const {
  const Side& a = buffers_->reference;
  const Side& b = buffers_->candidate;
  const Fpatr& unit = *job.unit;
  const arch::FpAttributes& fp = unit.attributes();
  const std::string head = fmt::format(
      "block {} at 0x{:x}, PE{}, PreQuantMode {} ({}) ReluMode {} {} accumulator", job.block,
      job.block_pc, job.pe, fp.pre_quant_mode(), unit.element_pipeline().mode().name,
      fp.relu_mode(), numeric::name(unit.accumulator_type()));
  auto versus = [&](auto bits_a, unsigned flags_a, auto bits_b, unsigned flags_b) {
    return fmt::format("{}: 0x{:x} flags 0x{:02x}; {}: 0x{:x} flags 0x{:02x}", reference_->name(),
                       bits_a, flags_a, candidate_->name(), bits_b, flags_b);
  };
  const std::uint32_t n = job.columns;
  const Parameters& p = *job.parameters;
  for (std::uint32_t r = 0; r < job.rows; ++r) {
    for (std::uint32_t c = 0; c < n; ++c) {
      const std::size_t i = std::size_t{r} * n + c;
      if (a.d[i] == b.d[i] && a.d_flags[i] == b.d_flags[i]) continue;
      const numeric::QuantParameter& quant = unit.vector_quant() ? p.quant_columns[c] : p.quant;
      const numeric::Dyadic& alpha = p.alpha_columns.empty() ? p.alpha : p.alpha_columns[c];
      return fmt::format("{}: D row {} column {} differs; input 0x{:08x}, {}, {}; {}", head, r, c,
                         job.accumulator[i], describe_quant(quant), describe_alpha(alpha),
                         versus(a.d[i], a.d_flags[i], b.d[i], b.d_flags[i]));
    }
    if (!a.row_max.empty() &&
        (a.row_max[r] != b.row_max[r] || a.row_max_flags[r] != b.row_max_flags[r])) {
      return fmt::format(
          "{}: RowMaxOut row {} differs (MaxAbsEn {}, RowMaxIn {}); {}", head, r,
          fp.max_abs_en() ? 1 : 0,
          p.row_max_in.empty() ? std::string("none") : fmt::format("0x{:08x}", p.row_max_in[r]),
          versus(a.row_max[r], a.row_max_flags[r], b.row_max[r], b.row_max_flags[r]));
    }
    const std::uint32_t groups = unit.group_max() ? unit.groups(n) : 0;
    for (std::uint32_t g = 0; g < groups; ++g) {
      const std::size_t i = std::size_t{r} * groups + g;
      if (a.group_max[i] == b.group_max[i] && a.group_max_flags[i] == b.group_max_flags[i])
        continue;
      return fmt::format(
          "{}: GroupMaxOut row {} group {} differs (MaxAbsEn {}); {}", head, r, g,
          fp.max_abs_en() ? 1 : 0,
          versus(a.group_max[i], a.group_max_flags[i], b.group_max[i], b.group_max_flags[i]));
    }
  }
  return std::nullopt;
}

}  // namespace ptovp::fpatr

// The B.FPATR module alone on its socket: it runs each PE's rows job on its
// backend and answers the flags; each PE's rows take the backend's cycles
// when it counts them, else ceil(rows * N / group) * cycles, after the PE
// finished; the PEs are served one after another and the block completes
// with the last.
#include <gtest/gtest.h>

#include "fpatr/fpatr_module.hpp"
#include "fpatr/rows_transaction.hpp"
#include "harness.hpp"
#include "numeric/fpatr_params.hpp"
#include "sc_common/block_protocol.hpp"
#include "sc_common/block_transaction.hpp"

namespace ptovp::fpatr {
namespace {

// The C++ backend, or a fixed cycle count on top of it (as the RTL counts).
struct CountingBackend : Backend {
  CppBackend cpp;
  std::optional<std::uint64_t> cycles;
  unsigned jobs = 0;
  std::string_view name() const override { return "counting"; }
  RowsAnswer run(const RowsJob& job) override {
    ++jobs;
    RowsAnswer answer = cpp.run(job);
    answer.cycles = cycles;
    return answer;
  }
};

struct Harness : sc_core::sc_module {
  sc_common::TimingConfig timing;
  sc_common::ActivityLog log{true};
  sc_common::UnitInitiatorSocket<Harness> socket{"socket"};
  CountingBackend backend;
  FpatrModule fpatr{"fpatr", backend, timing, log};
  explicit Harness(const sc_core::sc_module_name& name) : sc_module(name) {
    timing.fpatr_group_elements = 16;
    timing.fpatr_cycles_per_group = 2;
    socket.bind(fpatr.socket);
  }
};

Harness& harness() {
  return testing::elaborated_harness<Harness>();
}

using testing::ns;

// Sends PE `pe`'s rows (ready at `ready`) with `job`; returns the answered flags.
std::uint8_t send(sc_common::BlockTransaction& transaction, unsigned pe, std::uint32_t rows,
                  std::uint32_t columns, sc_core::sc_time ready, const RowsJob* job) {
  tlm::tlm_generic_payload payload;
  sc_common::prepare_block_payload(payload, transaction);
  RowsTransaction handed;
  handed.pe = pe;
  handed.rows = rows;
  handed.columns = columns;
  handed.ready = ready;
  handed.job = job;
  payload.set_extension(&handed);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  harness().socket->b_transport(payload, delay);
  payload.clear_extension(&handed);
  payload.clear_extension(&transaction);
  EXPECT_TRUE(payload.is_response_ok());
  return handed.flags;
}

TEST(FpatrModule, ServesThePesInTurn) {
  Harness& h = harness();
  arch::BlockDescriptor block;
  sc_common::BlockTransaction transaction;
  transaction.block = &block;
  const std::size_t slices = h.log.slices().size();
  // 16 x 8 = 128 elements: 8 groups of 16, 2 cycles each.
  for (unsigned pe = 0; pe < 2; ++pe)
    EXPECT_EQ(send(transaction, pe, 16, 8, ns(10), nullptr), 0u);
  EXPECT_EQ(transaction.done_at, ns(10 + 16 + 16));
  ASSERT_EQ(h.log.slices().size(), slices + 2);
  EXPECT_EQ(h.log.slices()[slices + 1].start, ns(26));
}

// REQ8 (PreQuantMode 3) with scale 0.5 and offset 0 over S32 words: D is
// round-half-even(x / 2) as S8, computed by the backend behind
// the socket and answered with the flags.
TEST(FpatrModule, RunsTheJobOnItsBackendAndAnswersTheFlags) {
  Harness& h = harness();
  arch::FpAttributes fp;
  fp.valid = true;
  fp.word = 3u << 26;
  auto unit = Fpatr::configure(fp, arch::DataAttributes{}, numeric::DataType::S32);
  ASSERT_TRUE(unit.ok());
  Parameters parameters;
  parameters.quant = unit.value().element_pipeline().quant_parameter(
      numeric::pack_quant_parameter(numeric::fp32_to_fp19(0x3F000000u), 0, 9));
  const std::uint32_t accumulator[4] = {5, 7, 0xFFFFFFFDu, 100};  // 5, 7, -3, 100
  std::uint64_t d[4] = {};
  RowsJob job;
  job.unit = &unit.value();
  job.parameters = &parameters;
  job.accumulator = accumulator;
  job.rows = 1;
  job.columns = 4;
  job.out.d = d;
  arch::BlockDescriptor block;
  sc_common::BlockTransaction transaction;
  transaction.block = &block;
  h.backend.cycles = 7;
  const sc_core::sc_time start = h.log.last_end() + ns(100);
  const std::uint8_t flags = send(transaction, 0, 1, 4, start, &job);
  h.backend.cycles.reset();
  // 2.5 -> 2, 3.5 -> 4, -1.5 -> -2 (ties to even), 50 exactly.
  EXPECT_EQ(d[0], 0x02u);
  EXPECT_EQ(d[1], 0x04u);
  EXPECT_EQ(d[2], 0xFEu);
  EXPECT_EQ(d[3], 0x32u);
  EXPECT_EQ(flags, numeric::kFlagNX);
  EXPECT_EQ(h.backend.jobs, 1u);
  // The backend counted 7 cycles of the 1 ns clock.
  EXPECT_EQ(transaction.done_at, start + ns(7));
}

}  // namespace
}  // namespace ptovp::fpatr

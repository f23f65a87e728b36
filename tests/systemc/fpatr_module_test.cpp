// The B.FPATR module alone on its socket: each PE's accumulator rows take
// ceil(rows * N / group) * cycles after the PE finished, the PEs are served
// one after another, and the block completes with the last.
#include <gtest/gtest.h>

#include <tlm_utils/simple_initiator_socket.h>

#include "fpatr/fpatr_module.hpp"
#include "harness.hpp"
#include "sc_common/block_transaction.hpp"
#include "sc_common/fabric_access.hpp"

namespace ptovp::fpatr {
namespace {

struct Harness : sc_core::sc_module {
  sc_common::TimingConfig timing;
  sc_common::ActivityLog log{true};
  tlm_utils::simple_initiator_socket<Harness> socket{"socket"};
  FpatrModule fpatr{"fpatr", timing, log};
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

TEST(FpatrModule, ServesThePesInTurn) {
  arch::BlockDescriptor block;
  sc_common::BlockTransaction transaction;
  transaction.block = &block;
  tlm::tlm_generic_payload payload;
  sc_common::prepare_block_payload(payload, transaction);
  for (unsigned pe = 0; pe < 2; ++pe) {
    sc_common::PeRows rows;
    rows.pe = pe;
    rows.rows = 16;
    rows.columns = 8;  // 128 elements: 8 groups of 16, 2 cycles each
    rows.ready = ns(10);
    payload.set_extension(&rows);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    harness().socket->b_transport(payload, delay);
    payload.clear_extension(&rows);
    EXPECT_TRUE(payload.is_response_ok());
  }
  payload.clear_extension(&transaction);
  EXPECT_EQ(transaction.done_at, ns(10 + 16 + 16));
  ASSERT_EQ(harness().log.slices().size(), 2u);
  EXPECT_EQ(harness().log.slices()[1].start, ns(26));
}

}  // namespace
}  // namespace ptovp::fpatr

// The fabric module alone on its socket: a Shared read answers with the
// tile's storage and its readiness time; an update publishes
// fabric_publish_cycles after its writer finished, and publications
// serialize on the fabric.
#include <gtest/gtest.h>

#include "fabric/fabric_module.hpp"
#include "harness.hpp"
#include "sc_common/block_protocol.hpp"
#include "sc_common/fabric_access.hpp"

namespace ptovp::fabric {
namespace {

struct Harness : sc_core::sc_module {
  sc_common::TimingConfig timing;  // 1 ns clock, 4 cycles to publish
  sc_common::ActivityLog log{true};
  sc_common::UnitInitiatorSocket<Harness> socket{"socket"};
  FabricModule fabric{"fabric", timing, log};
  explicit Harness(const sc_core::sc_module_name& name) : sc_module(name) {
    socket.bind(fabric.socket);
  }
};

Harness& harness() {
  return testing::elaborated_harness<Harness>();
}

using testing::ns;

// Returns the answered time; `payload` keeps the data pointer.
sc_core::sc_time access(unsigned id, bool update, sc_core::sc_time time,
                        tlm::tlm_generic_payload& payload) {
  sc_common::SharedAccess request;
  request.id = id;
  request.update = update;
  request.time = time;
  payload.set_extension(&request);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  harness().socket->b_transport(payload, delay);
  payload.clear_extension(&request);
  EXPECT_TRUE(payload.is_response_ok());
  return request.time;
}

TEST(FabricModule, ReadAnswersStorageAndReadiness) {
  tlm::tlm_generic_payload payload;
  harness().fabric.tiles().at(7).payload.assign(128, 0);
  EXPECT_EQ(access(7, false, ns(0), payload), sc_core::SC_ZERO_TIME);
  EXPECT_EQ(payload.get_data_ptr(), harness().fabric.tiles().at(7).payload.data());
  EXPECT_EQ(payload.get_data_length(), 128u);
}

TEST(FabricModule, UpdatesPublishInOrder) {
  tlm::tlm_generic_payload payload;
  EXPECT_EQ(access(3, true, ns(100), payload), ns(104));
  EXPECT_EQ(access(4, true, ns(101), payload), ns(108));  // waits for S3's publication
  EXPECT_EQ(access(3, false, ns(0), payload), ns(104));
  EXPECT_EQ(harness().log.busy_time(sc_common::Unit::Fabric), ns(8));
}

TEST(FabricModule, RejectsATransactionWithoutSharedAccess) {
  tlm::tlm_generic_payload payload;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  harness().socket->b_transport(payload, delay);
  EXPECT_EQ(payload.get_response_status(), tlm::TLM_GENERIC_ERROR_RESPONSE);
}

}  // namespace
}  // namespace ptovp::fabric

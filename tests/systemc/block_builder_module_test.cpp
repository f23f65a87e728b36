// The block builder module alone on its sockets, with stub units answering
// its block transactions: a completed block goes out as one payload carrying
// the descriptor by reference, a block waits for the Local tiles it reads
// (the scoreboard), a CUBE block is one rendezvous across the four PEs (the
// first send opens it, the last closes it) and stops at the first PE that
// faults or stalls; a stall is an answer the builder hands its stall handler.
#include <gtest/gtest.h>

#include "block_builder/block_builder_module.hpp"
#include "harness.hpp"

namespace ptovp::block_builder {
namespace {

using testing::ns;

// A unit that records what it received and answers after 100 ns, allocating
// Local register `allocates` (when set) or faulting (when told to).
struct StubUnit : sc_core::sc_module {
  sc_common::UnitTargetSocket<StubUnit> socket{"socket"};
  std::vector<sc_common::BlockTransaction> received;
  std::optional<unsigned> allocates;
  bool fault = false;
  bool stall = false;

  explicit StubUnit(const sc_core::sc_module_name& name) : sc_module(name) {
    socket.register_b_transport(this, &StubUnit::b_transport);
  }
  void b_transport(tlm::tlm_generic_payload& payload, sc_core::sc_time&) {
    auto* transaction = payload.get_extension<sc_common::BlockTransaction>();
    EXPECT_EQ(payload.get_data_ptr(),
              reinterpret_cast<const unsigned char*>(transaction->block));  // by reference
    received.push_back(*transaction);
    if (fault) {
      transaction->fault = arch::make_fault(arch::FaultCode::TileLegality, "stub fault");
    } else if (stall) {
      transaction->stall = "S3 is not ready";
    } else {
      transaction->done_at = transaction->ready_at + ns(100);
      if (allocates) transaction->add_destination(*allocates);
    }
    payload.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

struct Harness : sc_core::sc_module {
  sc_common::TimingConfig timing;
  sc_common::ActivityLog log{true};
  arch::ArchState state;
  arch::LocalTileFile local;
  arch::SharedTileFile shared;
  BlockBuilderModule builder{"builder",
                             state,
                             local,
                             shared,
                             {},
                             [](const std::string& reason) -> arch::MaybeFault {
                               return arch::make_fault(arch::FaultCode::TileLegality,
                                                       "stalled: " + reason);
                             },
                             timing,
                             log};
  StubUnit tlsu{"tlsu"};
  sc_core::sc_vector<StubUnit> pes{"pe", arch::kPeCount};
  explicit Harness(const sc_core::sc_module_name& name) : sc_module(name) {
    builder.tlsu_socket.bind(tlsu.socket);
    for (unsigned pe = 0; pe < arch::kPeCount; ++pe)
      builder.cube_sockets[pe].bind(pes[pe].socket);
  }
};

Harness& harness() {
  return testing::elaborated_harness<Harness>();
}

// Opens a tile block of `operation_class` at TPC, binds one B.IOT (an
// optional source code, a T destination) and stops it.
arch::MaybeFault run_block(arch::OperationClass operation_class, std::optional<unsigned> source) {
  BlockBuilder& builder = harness().builder.semantics();
  StartRequest start;
  start.operation_valid = true;
  start.operation_class = operation_class;
  start.kind = operation_class == arch::OperationClass::Cube ? arch::BlockKind::TileMatrix
                                                             : arch::BlockKind::TileMemory;
  if (auto failed = builder.start(start)) return failed;
  arch::TileBinding binding;
  binding.pe_mask = arch::kAllPes;
  binding.has_destination = true;
  binding.size_code = 2;
  if (source) binding.source[binding.source_count++] = static_cast<std::uint8_t>(*source);
  binding.last = true;
  harness().state.pc += 4;
  if (auto failed = builder.tile_binding(binding)) return failed;
  harness().state.pc += 4;
  return builder.stop(4);
}

TEST(BlockBuilderModule, SendsOneTransactionPerBlockAndKeepsTheScoreboard) {
  Harness& h = harness();
  h.tlsu.allocates = 0;
  ASSERT_FALSE(run_block(arch::OperationClass::Tlsu, std::nullopt));
  ASSERT_EQ(h.tlsu.received.size(), 1u);
  EXPECT_EQ(h.tlsu.received[0].ready_at, ns(1));  // one builder cycle after issue at 0

  // The stub allocated T0 (ready at 101 ns); a block reading it waits for it.
  auto placed = h.local.plan(0, arch::kAllPes, 128, 0, h.state.tile_capacity());
  ASSERT_TRUE(placed);
  arch::TileInfo info;
  info.allocated = true;
  info.capacity_bytes = 128;
  h.local.commit(*placed, info, arch::kAllPes);
  h.tlsu.allocates.reset();
  ASSERT_FALSE(run_block(arch::OperationClass::Tlsu, 0u));
  ASSERT_EQ(h.tlsu.received.size(), 2u);
  EXPECT_EQ(h.tlsu.received[1].ready_at, ns(101));
  EXPECT_EQ(h.log.blocks().at("TLOAD"), 2u);
}

TEST(BlockBuilderModule, StopsACubeBlockAtTheFirstFault) {
  Harness& h = harness();
  h.pes[0].fault = true;
  const arch::MaybeFault fault = run_block(arch::OperationClass::Cube, std::nullopt);
  ASSERT_TRUE(fault);
  EXPECT_EQ(fault->code, arch::FaultCode::TileLegality);
  EXPECT_EQ(h.pes[0].received.size(), 1u);
  EXPECT_TRUE(h.pes[1].received.empty());
  EXPECT_EQ(h.log.faults().at("Fault_TileLegality"), 1u);
  h.pes[0].fault = false;
  h.pes[0].received.clear();
}

TEST(BlockBuilderModule, ACubeBlockIsOneRendezvousOpenedByTheFirstSendAndClosedByTheLast) {
  Harness& h = harness();
  for (StubUnit& pe : h.pes)
    pe.received.clear();
  ASSERT_FALSE(run_block(arch::OperationClass::Cube, std::nullopt));
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
    ASSERT_EQ(h.pes[pe].received.size(), 1u);
    EXPECT_EQ(h.pes[pe].received[0].opens_rendezvous, pe == 0) << "PE" << pe;
    EXPECT_EQ(h.pes[pe].received[0].closes_rendezvous, pe + 1 == arch::kPeCount) << "PE" << pe;
  }
  h.tlsu.received.clear();
  ASSERT_FALSE(run_block(arch::OperationClass::Tlsu, std::nullopt));
  ASSERT_EQ(h.tlsu.received.size(), 1u);
  EXPECT_TRUE(h.tlsu.received[0].opens_rendezvous && h.tlsu.received[0].closes_rendezvous);
}

TEST(BlockBuilderModule, AStallIsAnAnswerHandedToTheStallHandler) {
  Harness& h = harness();
  for (StubUnit& pe : h.pes)
    pe.received.clear();
  h.pes[0].stall = true;
  const arch::MaybeFault fault = run_block(arch::OperationClass::Cube, std::nullopt);
  h.pes[0].stall = false;
  ASSERT_TRUE(fault);  // this harness's handler turns the stall into a fault
  EXPECT_EQ(fault->reason, "stalled: S3 is not ready");
  EXPECT_EQ(h.pes[0].received.size(), 1u);
  EXPECT_TRUE(h.pes[1].received.empty());
}

}  // namespace
}  // namespace ptovp::block_builder

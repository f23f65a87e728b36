// The four CUBE PE modules alone on their sockets, with the fabric and FPATR
// modules as their targets, driven as the block builder drives them: one
// block transaction to PE0..PE3 in order, whose first send opens the
// rendezvous and whose last closes it. The send that opens it runs the
// combined preflight, each PE computes its own rows in its own transport,
// and nothing is allocated or published before the closing send, whose
// commit allocates the output group (or rolls it back) and publishes.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "../cube/cube_fixture.hpp"
#include "arch/data_queue.hpp"
#include "cube/cube_module.hpp"
#include "fabric/fabric_module.hpp"
#include "fpatr/fpatr_module.hpp"
#include "harness.hpp"

namespace ptovp::cube {
namespace {

using numeric::DataType;
using test::Core;
using testing::ns;

struct Harness : sc_core::sc_module {
  sc_common::TimingConfig timing;
  sc_common::ActivityLog log{true};
  // The CUBE semantics and the Local tiles; the blocks here read no Shared
  // source, so the fabric module is only the PEs' bound target.
  Core core;
  fabric::FabricModule fabric{"fabric", timing, log};
  fpatr::CppBackend backend;
  fpatr::FpatrModule fpatr{"fpatr", backend, timing, log};
  sc_core::sc_vector<CubeModule> pes;
  sc_core::sc_vector<sc_common::UnitInitiatorSocket<Harness>> sockets{"socket", arch::kPeCount};
  explicit Harness(const sc_core::sc_module_name& name)
      : sc_module(name), pes("pe", arch::kPeCount, [this](const char* pe_name, std::size_t pe) {
          return new CubeModule(pe_name, static_cast<unsigned>(pe), core.cube, timing, log);
        }) {
    for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
      sockets[pe].bind(pes[pe].block_socket);
      pes[pe].fabric_socket.bind(fabric.socket);
      pes[pe].fpatr_socket.bind(fpatr.socket);
    }
  }
};

Harness& harness() {
  return testing::elaborated_harness<Harness>();
}

// TMATMUL FP16 16x32 * 32x16 on every PE: PE p's A is all p + 1, B all 1.0.
arch::BlockDescriptor per_pe_gemm(Core& core) {
  constexpr std::uint64_t kFp16[] = {0x3C00, 0x4000, 0x4200, 0x4400};  // 1, 2, 3, 4
  const arch::TileInfo a_info = Core::cube_info(DataType::FP16, arch::Layout::CubeM16, 16, 32);
  const unsigned a = core.put(test::kT, a_info, test::filled(16, 32, 0), arch::kAllPes,
                              [&](unsigned pe, std::uint32_t, std::uint32_t) { return kFp16[pe]; });
  const unsigned b =
      core.put_cube(test::kU, DataType::FP16, arch::Layout::CubeN8, test::filled(32, 16, 0x3C00));
  arch::BlockDescriptor block = test::cube_block(0, DataType::FP16, DataType::FP16, 16, 16, 32);
  const arch::TileInfo d_info = Core::cube_info(DataType::FP32, arch::Layout::CubeM16, 16, 16);
  test::bind_tiles(block, {test::kM}, {a, b}, Core::size_code_for(d_info.capacity_bytes));
  return block;
}

// The PEs, B.FPATR and the Local tiles use `queue` (nullptr: none), as the
// platform hands them its data queue (docs/platform.md "Deferred data work").
void use_data_queue(Harness& h, arch::DataQueue* queue) {
  h.core.local.use_data_queue(queue);
  h.core.cube.use_data_queue(queue);
  h.fpatr.use_data_queue(queue);
}

struct Sent {
  sc_common::BlockTransaction transaction;
  tlm::tlm_generic_payload payload;
  explicit Sent(const arch::BlockDescriptor& block) {
    transaction.block = &block;
    transaction.mnemonic = "TMATMUL";  // the builder names the block (block_builder/block_name.hpp)
    sc_common::prepare_block_payload(payload, transaction);
  }
  ~Sent() { payload.clear_extension(&transaction); }
  void to(unsigned pe) {
    transaction.opens_rendezvous = pe == 0;
    transaction.closes_rendezvous = pe + 1 == arch::kPeCount;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    harness().sockets[pe]->b_transport(payload, delay);
    ASSERT_TRUE(payload.is_response_ok());
  }
};

TEST(CubeModule, EachPeComputesItsRowsAndTheLastPublishes) {
  Harness& h = harness();
  const arch::BlockDescriptor block = per_pe_gemm(h.core);
  const std::uint64_t capacity = h.core.capacity_in_use();
  const std::size_t slices = h.log.slices().size();
  Sent sent(block);
  for (unsigned pe = 0; pe + 1 < arch::kPeCount; ++pe) {
    sent.to(pe);
    ASSERT_FALSE(sent.transaction.fault) << sent.transaction.fault->describe();
    EXPECT_EQ(sent.transaction.destination_count, 0u) << "published before the last PE";
    EXPECT_EQ(h.core.capacity_in_use(), capacity) << "allocated before the last PE";
  }
  sent.to(arch::kPeCount - 1);
  ASSERT_FALSE(sent.transaction.fault) << sent.transaction.fault->describe();
  ASSERT_EQ(sent.transaction.destination_count, 1u);
  const unsigned d = sent.transaction.destinations[0];
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
    const float want = 32.0f * static_cast<float>(pe + 1);
    std::uint32_t bits = 0;
    std::memcpy(&bits, &want, 4);
    EXPECT_EQ(h.core.read(d, pe).at(15, 15), bits) << "PE" << pe;
  }

  // Each PE: 6 + ceil(16/16) * ceil(32/16) * ceil(16/16) = 8 cycles from 0;
  // FPATR serves the PEs in turn, ceil(16 * 16 / 256) = 1 cycle each.
  const std::vector<sc_common::Slice> got(h.log.slices().begin() + slices, h.log.slices().end());
  ASSERT_EQ(got.size(), 8u);
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
    const sc_common::Slice& rows = got[2 * pe];
    const sc_common::Slice& post = got[2 * pe + 1];
    EXPECT_EQ(rows.unit, sc_common::pe_unit(pe));
    EXPECT_EQ(rows.name, "TMATMUL");
    EXPECT_EQ(rows.start, ns(0));
    EXPECT_EQ(rows.end, ns(8));
    EXPECT_EQ(rows.detail, "M=16 K=32 N=16 A=FP16 -> FP32");
    EXPECT_EQ(post.unit, sc_common::Unit::Fpatr);
    EXPECT_EQ(post.detail, "PE" + std::to_string(pe) + " 16x16");  // whose rows, M x N
    EXPECT_EQ(post.start, ns(8 + pe));
    EXPECT_EQ(post.end, ns(9 + pe));
  }
  EXPECT_EQ(sent.transaction.done_at, ns(12));
  EXPECT_EQ(h.log.macs().at("FP16"), 4u * 16 * 16 * 32);
}

TEST(CubeModule, APreflightFaultEndsTheBlockAtTheFirstPeWithoutEffect) {
  Harness& h = harness();
  arch::BlockDescriptor block = per_pe_gemm(h.core);
  block.fpatr.valid = false;  // no B.FPATR: BundleControl
  const test::Snapshot before = test::snapshot(h.core);
  const std::size_t slices = h.log.slices().size();
  Sent sent(block);
  sent.to(0);
  ASSERT_TRUE(sent.transaction.fault);
  EXPECT_EQ(sent.transaction.fault->code, arch::FaultCode::BundleControl);
  EXPECT_TRUE(test::snapshot(h.core) == before);
  EXPECT_EQ(h.log.slices().size(), slices);
  EXPECT_FALSE(h.core.cube.open());
}

TEST(CubeModule, AnAllocationFaultAtTheLastPeRollsBackAfterEveryPeComputed) {
  Harness& h = harness();
  const arch::BlockDescriptor block = per_pe_gemm(h.core);
  // D's hand is full: the preflight passes, the allocation at the commit fails.
  const arch::TileInfo small = Core::cube_info(DataType::FP32, arch::Layout::CubeM16, 16, 16);
  std::vector<unsigned> filler;
  while (h.core.local.plan(test::kM, arch::kAllPes, small.capacity_bytes, 0, 1u << 30).ok())
    filler.push_back(h.core.put(test::kM, small, test::filled(16, 16, 0)));
  ASSERT_FALSE(filler.empty());
  const test::Snapshot before = test::snapshot(h.core);
  const std::size_t slices = h.log.slices().size();
  Sent sent(block);
  for (unsigned pe = 0; pe + 1 < arch::kPeCount; ++pe) {
    sent.to(pe);
    ASSERT_FALSE(sent.transaction.fault) << sent.transaction.fault->describe();
  }
  sent.to(arch::kPeCount - 1);
  ASSERT_TRUE(sent.transaction.fault);
  EXPECT_EQ(sent.transaction.fault->code, arch::FaultCode::TileAllocation);
  EXPECT_EQ(sent.transaction.destination_count, 0u);
  EXPECT_TRUE(test::snapshot(h.core) == before);
  EXPECT_FALSE(h.core.cube.open());
  // The PEs and FPATR spent their time: the block computed before it failed.
  EXPECT_EQ(h.log.slices().size(), slices + 2 * arch::kPeCount);
  for (unsigned index : filler)
    h.core.local.release(index);
}

// What a post-processed block published and how long each slice took.
struct Published {
  std::vector<test::Matrix> d;  // per PE
  std::vector<std::tuple<sc_common::Unit, sc_core::sc_time, std::string>> slices;
  std::uint8_t flags = 0;
  bool operator==(const Published& o) const {
    bool same = slices == o.slices && flags == o.flags && d.size() == o.d.size();
    for (std::size_t pe = 0; same && pe < d.size(); ++pe)
      same = d[pe].raw == o.d[pe].raw;
    return same;
  }
};

// per_pe_gemm with ReLU (a B.FPATR job per PE) through the four PEs, with
// `queue` handed to the units; its D is released afterwards.
Published relu_gemm(arch::DataQueue* queue) {
  Harness& h = harness();
  use_data_queue(h, queue);
  arch::BlockDescriptor block = per_pe_gemm(h.core);
  block.fpatr.word = test::fpatr_word(0, 1);
  h.core.state.reset();  // no flags yet
  const std::size_t first = h.log.slices().size();
  Sent sent(block);
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe)
    sent.to(pe);
  EXPECT_FALSE(sent.transaction.fault);
  if (queue != nullptr) queue->drain();
  Published published;
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe)
    published.d.push_back(h.core.read(sent.transaction.destinations[0], pe));
  for (auto slice = h.log.slices().begin() + first; slice != h.log.slices().end(); ++slice)
    published.slices.emplace_back(slice->unit, slice->end - slice->start, slice->detail);
  published.flags = h.core.state.numeric_flags();
  h.core.local.release(sent.transaction.destinations[0]);
  use_data_queue(h, nullptr);
  return published;
}

TEST(CubeModule, QueuedRowsAndPostProcessPublishWhatInPlaceDoesInTheSameTime) {
  const Published in_place = relu_gemm(nullptr);
  ASSERT_EQ(in_place.slices.size(), 2u * arch::kPeCount);
  EXPECT_EQ(in_place.d[3].at(15, 15), 0x43000000u);  // 32 * 4.0 = 128 as FP32
  arch::DataQueue queue(harness().core.state, true);
  ASSERT_EQ(queue.front_pes(arch::kAllPes), arch::pe_bit(3));  // PEs 0-2 queued
  for (int round = 0; round < 3; ++round)
    EXPECT_TRUE(relu_gemm(&queue) == in_place) << "round " << round;
}

TEST(CubeModule, AnAllocationFaultAfterQueuedRowsHasNoEffect) {
  Harness& h = harness();
  arch::DataQueue queue(h.core.state, true);
  use_data_queue(h, &queue);
  arch::BlockDescriptor block = per_pe_gemm(h.core);
  block.fpatr.word = test::fpatr_word(0, 1);
  const arch::TileInfo small = Core::cube_info(DataType::FP32, arch::Layout::CubeM16, 16, 16);
  std::vector<unsigned> filler;
  while (h.core.local.plan(test::kM, arch::kAllPes, small.capacity_bytes, 0, 1u << 30).ok())
    filler.push_back(h.core.put(test::kM, small, test::filled(16, 16, 0)));
  const test::Snapshot before = test::snapshot(h.core);
  Sent sent(block);
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe)
    sent.to(pe);
  ASSERT_TRUE(sent.transaction.fault);
  EXPECT_EQ(sent.transaction.fault->code, arch::FaultCode::TileAllocation);
  queue.drain();
  EXPECT_TRUE(test::snapshot(h.core) == before);
  // The next block reuses the staging only after the dropped rows' jobs.
  for (unsigned index : filler)
    h.core.local.release(index);
  use_data_queue(h, nullptr);
  const Published in_place = relu_gemm(nullptr);
  EXPECT_TRUE(relu_gemm(&queue) == in_place);
}

}  // namespace
}  // namespace ptovp::cube

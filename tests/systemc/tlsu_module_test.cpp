// The TLSU module on its sockets with the memory and fabric modules as its
// targets and the test driving block transactions: a TLOAD fills a Local
// tile from memory through the DMI grant and takes latency + bytes /
// bandwidth; a faulting block answers the fault and changes nothing.
#include <gtest/gtest.h>

#include <cstring>

#include "fabric/fabric_module.hpp"
#include "harness.hpp"
#include "memory/memory_module.hpp"
#include "sc_common/block_protocol.hpp"
#include "sc_common/block_transaction.hpp"
#include "tlsu/tlsu_module.hpp"

namespace ptovp::tlsu {
namespace {

using testing::ns;

struct Harness : sc_core::sc_module {
  sc_common::TimingConfig timing;  // 20 cycles + 64 bytes per cycle at 1 GHz
  sc_common::ActivityLog log{true};
  arch::LocalTileFile local;
  sc_common::UnitInitiatorSocket<Harness> socket{"socket"};
  memory::MemoryModule memory{"memory", 0, 0x10000, timing.cycles(1)};
  fabric::FabricModule fabric{"fabric", timing, log};
  TlsuModule tlsu{"tlsu", memory.semantics().window(), local, fabric.semantics(), timing,
                  log,    PackedFinalNibble::Keep};
  explicit Harness(const sc_core::sc_module_name& name) : sc_module(name) {
    socket.bind(tlsu.block_socket);
    tlsu.memory_socket.bind(memory.socket);
    tlsu.fabric_socket.bind(fabric.socket);
  }
};

Harness& harness() {
  return testing::elaborated_harness<Harness>();
}

// TLOAD U32 8x8 on every PE from `base` (PE p at base + 256 p), dense rows.
arch::BlockDescriptor tload(std::uint64_t base) {
  arch::BlockDescriptor block;
  block.kind = arch::BlockKind::TileMemory;
  block.operation_valid = true;
  block.operation_class = arch::OperationClass::Tlsu;
  block.function = static_cast<unsigned>(arch::TlsuFunction::TLoad);
  block.data_type = static_cast<unsigned>(numeric::DataType::U32);
  block.dims[0] = {true, 8};
  block.dims[1] = {true, 8};
  block.ior.valid = true;
  block.ior.source = {1, 2, 0};
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe)
    block.ior_values[pe] = {base + 256 * pe, 32, 0};
  arch::TileBinding& binding = block.tiles[block.tile_count++];
  binding.has_destination = true;
  binding.size_code = 2;  // 256 bytes
  binding.pe_mask = arch::kAllPes;
  binding.last = true;
  return block;
}

sc_common::BlockTransaction send(const arch::BlockDescriptor& block, sc_core::sc_time ready) {
  sc_common::BlockTransaction transaction;
  transaction.block = &block;
  transaction.tile_capacity = 262144;  // TILE_CAPACITY at reset
  transaction.ready_at = ready;
  tlm::tlm_generic_payload payload;
  sc_common::prepare_block_payload(payload, transaction);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  harness().socket->b_transport(payload, delay);
  EXPECT_TRUE(payload.is_response_ok());
  payload.clear_extension(&transaction);
  return transaction;
}

TEST(TlsuModule, LoadsATileThroughDmiInLatencyPlusBandwidth) {
  Harness& h = harness();
  for (std::uint32_t i = 0; i < 4 * 64; ++i)
    ASSERT_FALSE(h.memory.semantics().store(0x1000 + 4 * i, 4, 0xA000 + i));
  const arch::BlockDescriptor block = tload(0x1000);
  const sc_common::BlockTransaction answer = send(block, ns(10));
  ASSERT_FALSE(answer.fault) << answer.fault->describe();
  ASSERT_EQ(answer.destination_count, 1u);
  // 4 PEs x 256 bytes: 20 + 1024 / 64 cycles after the block was ready.
  EXPECT_EQ(answer.done_at, ns(10 + 20 + 16));
  const arch::LocalTile& tile = h.local.at(answer.destinations[0]);
  std::uint32_t last = 0;
  std::memcpy(&last, tile.payload(3) + 4 * 63, 4);
  EXPECT_EQ(last, 0xA000u + 3 * 64 + 63);
  EXPECT_EQ(h.log.bytes().at("loaded"), 1024u);
}

TEST(TlsuModule, AFaultingBlockChangesNothing) {
  Harness& h = harness();
  const std::uint64_t in_use = h.local.capacity_in_use();
  const arch::BlockDescriptor block = tload(0xFF00);  // PE1..3 run past the 64 KiB RAM
  const sc_common::BlockTransaction answer = send(block, ns(0));
  ASSERT_TRUE(answer.fault);
  EXPECT_EQ(answer.fault->code, arch::FaultCode::DataPage);
  EXPECT_EQ(answer.destination_count, 0u);
  EXPECT_EQ(h.local.capacity_in_use(), in_use);
}

}  // namespace
}  // namespace ptovp::tlsu

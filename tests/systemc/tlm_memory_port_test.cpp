// The SystemC memory port (memory::TlmMemoryPort) on two memory targets:
// one that grants DMI, one that refuses it and has wait states. Accesses use
// the granted pointer at no simulated time, fall back to b_transport with its
// delay where DMI is refused, and an invalidated grant is asked for again.
#include <gtest/gtest.h>

#include "harness.hpp"
#include "memory/memory_module.hpp"
#include "memory/tlm_memory_port.hpp"

namespace ptovp::memory {
namespace {

using testing::ns;

constexpr std::uint64_t kBase = 0x4000;
constexpr std::uint64_t kSize = 0x1000;

struct Initiator : sc_core::sc_module {
  TlmMemoryPort::Socket socket{"socket"};
  TlmMemoryPort port{socket, {kBase, kSize}};
  explicit Initiator(const sc_core::sc_module_name& name) : sc_module(name) {}
};

struct Harness : sc_core::sc_module {
  Initiator granted{"granted"};
  Initiator refused{"refused"};
  MemoryModule memory{"memory", kBase, kSize, ns(2)};
  MemoryModule slow{"slow", kBase, kSize, ns(5), /*grants_dmi=*/false};
  explicit Harness(const sc_core::sc_module_name& name) : sc_module(name) {
    granted.socket.bind(memory.socket);
    refused.socket.bind(slow.socket);
  }
};

Harness& harness() {
  return testing::elaborated_harness<Harness>();
}

TEST(TlmMemoryPort, UsesTheGrantedPointerAtNoSimulatedTime) {
  TlmMemoryPort& port = harness().granted.port;
  ASSERT_FALSE(port.store(kBase + 8, 4, 0x11223344));
  EXPECT_EQ(*port.load(kBase + 8, 4), 0x11223344u);
  EXPECT_EQ(*harness().memory.semantics().load(kBase + 8, 4), 0x11223344u);
  EXPECT_EQ(port.direct(kBase, kSize), harness().memory.semantics().direct(kBase, kSize));
  EXPECT_GE(port.grants(), 1u);
  EXPECT_EQ(port.transports(), 0u);
  EXPECT_FALSE(port.delayed());
}

TEST(TlmMemoryPort, FallsBackToTransportWithItsDelayWhereDmiIsRefused) {
  TlmMemoryPort& port = harness().refused.port;
  const std::uint64_t before = port.transports();
  EXPECT_EQ(port.direct(kBase + 16, 8), nullptr);
  ASSERT_FALSE(port.store(kBase + 16, 8, 0x0102030405060708));
  const std::uint8_t bytes[3] = {0xAA, 0xBB, 0xCC};
  ASSERT_FALSE(port.write(kBase + 40, bytes, 3));
  EXPECT_EQ(*port.load(kBase + 16, 8), 0x0102030405060708u);
  std::uint8_t back[3] = {};
  ASSERT_FALSE(port.read(kBase + 40, back, 3));
  EXPECT_EQ(std::vector<std::uint8_t>(back, back + 3), std::vector<std::uint8_t>(bytes, bytes + 3));
  EXPECT_EQ(*harness().slow.semantics().load(kBase + 16, 8), 0x0102030405060708u);
  EXPECT_EQ(port.transports() - before, 4u);
  EXPECT_EQ(port.grants(), 0u);
  EXPECT_EQ(port.take_delay(), ns(20));  // four transports of 5 ns
  EXPECT_FALSE(port.delayed());
}

TEST(TlmMemoryPort, PeekCostsNoSimulatedTime) {
  TlmMemoryPort& port = harness().refused.port;
  ASSERT_FALSE(harness().slow.semantics().store(kBase + 64, 4, 0xCAFEF00D));
  std::uint8_t bytes[4] = {};
  ASSERT_FALSE(port.peek(kBase + 64, bytes, 4));
  EXPECT_EQ(bytes[0], 0x0D);
  EXPECT_EQ(bytes[3], 0xCA);
  EXPECT_FALSE(port.delayed());
}

TEST(TlmMemoryPort, TheWindowDecidesTheFaultBeforeAnyTransport) {
  TlmMemoryPort& port = harness().refused.port;
  const std::uint64_t before = port.transports();
  const auto outside = port.load(kBase + kSize, 4);
  ASSERT_FALSE(outside);
  EXPECT_EQ(outside.fault().code, arch::FaultCode::DataPage);
  const arch::MaybeFault misaligned = port.store(kBase + 2, 4, 0);
  ASSERT_TRUE(misaligned);
  EXPECT_EQ(misaligned->code, arch::FaultCode::DataAlignment);
  EXPECT_EQ(port.transports(), before);
}

TEST(TlmMemoryPort, AnInvalidatedGrantIsDroppedAndAskedForAgain) {
  TlmMemoryPort& port = harness().granted.port;
  ASSERT_NE(port.direct(kBase, 8), nullptr);
  static unsigned revoked = 0;  // the listener outlives the test
  port.on_revoke([] { ++revoked; });
  const std::uint64_t grants = port.grants();
  harness().memory.invalidate_dmi();
  EXPECT_EQ(revoked, 1u);
  EXPECT_EQ(port.invalidations(), 1u);
  EXPECT_EQ(port.grants(), grants);  // nothing asked yet
  ASSERT_FALSE(port.store(kBase + 24, 2, 0xBEEF));
  EXPECT_EQ(port.grants(), grants + 1);
  EXPECT_EQ(port.transports(), 0u);
  EXPECT_EQ(*harness().memory.semantics().load(kBase + 24, 2), 0xBEEFu);
}

}  // namespace
}  // namespace ptovp::memory

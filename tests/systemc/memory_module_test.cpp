// The memory module alone on its socket, driven by a test initiator:
// b_transport reads and writes with the access latency, address errors, the
// DMI grant over the whole RAM with the same latency, and the debug port.
#include <gtest/gtest.h>

#include <tlm_utils/simple_initiator_socket.h>

#include "harness.hpp"
#include "memory/memory_module.hpp"

namespace ptovp::memory {
namespace {

constexpr std::uint64_t kBase = 0x1000;
constexpr std::uint64_t kSize = 0x100;

struct Harness : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Harness> socket{"socket"};
  MemoryModule memory{"memory", kBase, kSize, sc_core::sc_time(2, sc_core::SC_NS)};
  explicit Harness(const sc_core::sc_module_name& name) : sc_module(name) {
    socket.bind(memory.socket);
  }
};

Harness& harness() {
  return testing::elaborated_harness<Harness>();
}

tlm::tlm_response_status transport(tlm::tlm_command command, std::uint64_t address,
                                   std::uint8_t* data, unsigned length, sc_core::sc_time& delay) {
  tlm::tlm_generic_payload payload;
  payload.set_command(command);
  payload.set_address(address);
  payload.set_data_ptr(data);
  payload.set_data_length(length);
  payload.set_streaming_width(length);
  harness().socket->b_transport(payload, delay);
  return payload.get_response_status();
}

TEST(MemoryModule, WritesAndReadsWithTheAccessLatency) {
  std::uint8_t out[4] = {1, 2, 3, 4};
  std::uint8_t in[4] = {};
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  EXPECT_EQ(transport(tlm::TLM_WRITE_COMMAND, kBase + 8, out, 4, delay), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(transport(tlm::TLM_READ_COMMAND, kBase + 8, in, 4, delay), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(std::vector<std::uint8_t>(in, in + 4), std::vector<std::uint8_t>(out, out + 4));
  EXPECT_EQ(delay, sc_core::sc_time(4, sc_core::SC_NS));
  EXPECT_EQ(*harness().memory.semantics().load(kBase + 8, 4), 0x04030201u);
}

TEST(MemoryModule, RejectsAccessesOutsideTheRam) {
  std::uint8_t data[4] = {};
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  EXPECT_EQ(transport(tlm::TLM_READ_COMMAND, kBase + kSize - 2, data, 4, delay),
            tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(transport(tlm::TLM_WRITE_COMMAND, kBase - 1, data, 1, delay),
            tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(delay, sc_core::SC_ZERO_TIME);
}

TEST(MemoryModule, GrantsDmiOverTheWholeRam) {
  tlm::tlm_generic_payload payload;
  payload.set_address(kBase);
  tlm::tlm_dmi dmi;
  ASSERT_TRUE(harness().socket->get_direct_mem_ptr(payload, dmi));
  EXPECT_TRUE(dmi.is_read_write_allowed());
  EXPECT_EQ(dmi.get_start_address(), kBase);
  EXPECT_EQ(dmi.get_end_address(), kBase + kSize - 1);
  EXPECT_EQ(dmi.get_dmi_ptr(), harness().memory.semantics().direct(kBase, kSize));
  // The grant carries the latency b_transport adds, for initiators that time
  // their direct accesses.
  EXPECT_EQ(dmi.get_read_latency(), sc_core::sc_time(2, sc_core::SC_NS));
  EXPECT_EQ(dmi.get_write_latency(), sc_core::sc_time(2, sc_core::SC_NS));
}

TEST(MemoryModule, DebugPortCopiesWithoutTime) {
  std::uint8_t out[3] = {7, 8, 9};
  std::uint8_t in[3] = {};
  tlm::tlm_generic_payload payload;
  payload.set_command(tlm::TLM_WRITE_COMMAND);
  payload.set_address(kBase + 0x20);
  payload.set_data_ptr(out);
  payload.set_data_length(3);
  EXPECT_EQ(harness().socket->transport_dbg(payload), 3u);
  payload.set_command(tlm::TLM_READ_COMMAND);
  payload.set_data_ptr(in);
  EXPECT_EQ(harness().socket->transport_dbg(payload), 3u);
  EXPECT_EQ(in[2], 9);
  payload.set_address(kBase + kSize);
  EXPECT_EQ(harness().socket->transport_dbg(payload), 0u);
}

}  // namespace
}  // namespace ptovp::memory

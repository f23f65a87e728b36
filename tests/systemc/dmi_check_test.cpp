// The DMI handshake of sc_common::require_dmi against a target that records
// what it is asked: the request names the RAM's first address (a target that
// decodes, like a router, grants the region containing the requested address),
// and a grant over the whole RAM at its host bytes passes.
#include <gtest/gtest.h>

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "harness.hpp"
#include "memory/memory.hpp"
#include "sc_common/dmi_check.hpp"

namespace ptovp::sc_common {
namespace {

constexpr std::uint64_t kBase = 0x8000'0000;
constexpr std::uint64_t kSize = 0x1000;

struct RecordingTarget : sc_core::sc_module {
  tlm_utils::simple_target_socket<RecordingTarget> socket{"socket"};
  memory::Memory ram{kBase, kSize};
  std::vector<std::pair<tlm::tlm_command, std::uint64_t>> requests;

  explicit RecordingTarget(const sc_core::sc_module_name& name) : sc_module(name) {
    socket.register_get_direct_mem_ptr(this, &RecordingTarget::get_direct_mem_ptr);
  }

  bool get_direct_mem_ptr(tlm::tlm_generic_payload& payload, tlm::tlm_dmi& dmi) {
    requests.emplace_back(payload.get_command(), payload.get_address());
    dmi.set_dmi_ptr(ram.direct(kBase, kSize));
    dmi.set_start_address(kBase);
    dmi.set_end_address(kBase + kSize - 1);
    dmi.allow_read_write();
    return true;
  }
};

struct Harness : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Harness> socket{"socket"};
  RecordingTarget target{"target"};
  explicit Harness(const sc_core::sc_module_name& name) : sc_module(name) {
    socket.bind(target.socket);
  }
};

TEST(RequireDmi, AsksForTheRamsFirstAddressAndAcceptsAWholeGrant) {
  Harness& harness = testing::elaborated_harness<Harness>();
  memory::Memory& ram = harness.target.ram;
  require_dmi(harness, harness.socket, {ram.base(), ram.size(), ram.direct(kBase, kSize)});
  ASSERT_EQ(harness.target.requests.size(), 1u);
  EXPECT_EQ(harness.target.requests[0].first, tlm::TLM_READ_COMMAND);
  EXPECT_EQ(harness.target.requests[0].second, kBase);
}

}  // namespace
}  // namespace ptovp::sc_common

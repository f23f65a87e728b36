// The protocol of the unit sockets (the builder's block transactions, the
// PEs' rows to B.FPATR, Shared accesses to the fabric). Their payloads carry
// a mandatory extension (sc_common::BlockTransaction, fpatr::RowsTransaction,
// sc_common::SharedAccess) that a base-protocol target would not understand,
// so, as IEEE 1666-2011 §14.2.2 asks of a protocol with mandatory
// extensions, they use their own protocol-traits class: binding one of these
// sockets to a base-protocol socket is a compile-time error.
#pragma once

#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <tlm>

namespace ptovp::sc_common {

struct UnitProtocol {
  using tlm_payload_type = tlm::tlm_generic_payload;
  using tlm_phase_type = tlm::tlm_phase;
};

template <typename Module>
using UnitInitiatorSocket = tlm_utils::simple_initiator_socket<Module, 32, UnitProtocol>;
template <typename Module>
using UnitTargetSocket = tlm_utils::simple_target_socket<Module, 32, UnitProtocol>;
template <typename Module>
using UnitMultiTargetSocket = tlm_utils::multi_passthrough_target_socket<Module, 32, UnitProtocol>;

}  // namespace ptovp::sc_common

// The instruction front end as a SystemC module: one SC_THREAD that fetches,
// decodes and executes (frontend::FrontEnd: scalar unit, traps, host
// services) and drives the block builder, a TLM initiator to memory (the
// semantics fetch and load/store through a memory::TlmMemoryPort: the
// target's DMI grant, b_transport outside it), and the platform's time
// keeper: every instruction takes frontend_cycles_per_instruction, counted
// locally and handed to a quantum keeper (temporal decoupling) once a
// quantum's worth has run, when the thread yields to the kernel; the delays
// of memory transports are added as they occur. At the halt it waits until the
// last unit finishes, then for the next start (a platform may run again).
// With the platform's data queue (docs/platform.md "Deferred data work") the
// semantics drain it where they observe values (FrontEnd::use_data_queue),
// and the thread drains it at a stall and at the halt.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/tlm_quantumkeeper.h>
#include <systemc>
#include <tlm>

#include "frontend/front_end.hpp"
#include "memory/tlm_memory_port.hpp"
#include "sc_common/activity_log.hpp"
#include "sc_common/timing_config.hpp"

namespace ptovp::frontend {

class FrontEndModule : public sc_core::sc_module {
 public:
  memory::TlmMemoryPort::Socket memory_socket;

  FrontEndModule(const sc_core::sc_module_name& name, arch::ArchState& state, memory::RamWindow ram,
                 block_builder::BlockBuilder& builder, std::ostream& out, std::ostream& err,
                 FrontEndOptions options, const sc_common::TimingConfig& timing,
                 sc_common::ActivityLog& log);

  // Starts a run of at most `limit` instruction attempts (0 = no limit).
  // Until then the thread waits, so the platform can elaborate and load
  // memory through the sockets first.
  void start(std::uint64_t limit) {
    limit_ = limit;
    halt_.reset();
    start_.notify(sc_core::SC_ZERO_TIME);
  }
  // The halt, or nothing when the instruction limit stopped the run.
  const std::optional<Halt>& halt() const { return halt_; }
  std::uint64_t instructions() const { return front_end_.instructions(); }
  // Where this thread is in simulated time: kernel time plus its quantum
  // offset plus the instructions not yet handed to the quantum keeper.
  sc_core::sc_time current_time() const {
    return quantum_.get_current_time() + instruction_time_ * static_cast<double>(pending_);
  }
  FrontEnd& semantics() { return front_end_; }
  // The platform's data queue (nullptr: none); it must outlive the module's use of it.
  void use_data_queue(arch::DataQueue* queue) {
    queue_ = queue;
    front_end_.use_data_queue(queue);
  }
  const FrontEnd& semantics() const { return front_end_; }
  const memory::TlmMemoryPort& memory_port() const { return memory_port_; }

 private:
  // The thread: one execute() per start().
  void run();
  void execute();

  const arch::ArchState& state_;
  memory::TlmMemoryPort memory_port_;
  sc_common::ActivityLog& log_;
  sc_core::sc_time instruction_time_;
  FrontEnd front_end_;
  tlm_utils::tlm_quantumkeeper quantum_;
  sc_core::sc_event start_;
  std::uint64_t limit_ = 0;
  std::uint64_t pending_ = 0;  // instructions since the last quantum-keeper update
  std::optional<Halt> halt_;
  arch::DataQueue* queue_ = nullptr;
};

}  // namespace ptovp::frontend

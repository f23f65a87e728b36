#include "frontend/front_end_module.hpp"

#include <algorithm>

#include "frontend/stall_halt.hpp"

namespace ptovp::frontend {

FrontEndModule::FrontEndModule(const sc_core::sc_module_name& name, arch::ArchState& state,
                               memory::RamWindow ram, block_builder::BlockBuilder& builder,
                               std::ostream& out, std::ostream& err, FrontEndOptions options,
                               const sc_common::TimingConfig& timing, sc_common::ActivityLog& log)
    : sc_module(name),
      memory_socket("memory_socket"),
      state_(state),
      memory_port_(memory_socket, ram),
      log_(log),
      instruction_time_(timing.cycles(timing.frontend_cycles_per_instruction)),
      front_end_(state, memory_port_, builder, out, err, options) {
  SC_HAS_PROCESS(FrontEndModule);
  SC_THREAD(run);
}

void FrontEndModule::run() {
  for (;;) {
    wait(start_);
    log_.count_activation(sc_common::Unit::FrontEnd);
    execute();
  }
}

void FrontEndModule::execute() {
  quantum_.reset();
  const sc_core::sc_time begin = current_time();
  // Instructions per quantum: the keeper is updated (and the thread yields)
  // once per quantum instead of once per instruction.
  const auto per_quantum = std::max<std::uint64_t>(
      1, static_cast<std::uint64_t>(tlm::tlm_global_quantum::instance().get() / instruction_time_));
  const std::uint64_t first = front_end_.instructions();
  while (limit_ == 0 || front_end_.instructions() - first < limit_) {
    try {
      halt_ = front_end_.step();
    } catch (const Stalled& stalled) {
      // The unit changed nothing: unwinding out of the block stop leaves TPC on the stop.
      if (queue_ != nullptr) queue_->drain();
      halt_ = stall_halt(front_end_, state_, stalled.reason);
    }
    ++pending_;
    bool sync = pending_ == per_quantum;
    if (memory_port_.delayed()) {
      // Memory transports (no DMI): their delays count towards the quantum.
      quantum_.inc(memory_port_.take_delay());
      sync = sync || quantum_.need_sync();
    }
    if (halt_) {
      if (halt_->kind == HaltKind::Paused) --pending_;  // nothing ran
      break;
    }
    if (sync) {
      quantum_.inc(instruction_time_ * static_cast<double>(pending_));
      pending_ = 0;
      quantum_.sync();
      log_.count_activation(sc_common::Unit::FrontEnd);
    }
  }
  if (queue_ != nullptr) queue_->drain();  // the state and memory the platform reads
  const sc_core::sc_time end = current_time();
  quantum_.inc(instruction_time_ * static_cast<double>(pending_));
  pending_ = 0;
  log_.busy(sc_common::Unit::FrontEnd, begin, end, "instructions");
  // The run ends when the last block the front end issued has finished.
  quantum_.sync();
  if (log_.last_end() > sc_core::sc_time_stamp()) {
    wait(log_.last_end() - sc_core::sc_time_stamp());
    log_.count_activation(sc_common::Unit::FrontEnd);
  }
}

}  // namespace ptovp::frontend

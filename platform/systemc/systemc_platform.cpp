#include "systemc/systemc_platform.hpp"

#include <fmt/format.h>
#include <tlm_utils/tlm_quantumkeeper.h>

#include "engine/image_loading.hpp"
#include "frontend/stall_halt.hpp"

namespace ptovp::systemc {

namespace {

// As in the functional model: nothing else issues blocks, so an unready
// Shared source never becomes ready; the run stops (frontend::stall_halt).
// The builder calls this after the PEs answered the stall, outside any
// transport.
arch::MaybeFault stalled(const std::string& reason) {
  throw frontend::Stalled{reason};
}

}  // namespace

SystemCPlatform::SystemCPlatform(const sc_core::sc_module_name& name,
                                 const config::PlatformConfig& config, bool keep_slices,
                                 std::ostream& out, std::ostream& err)
    : sc_module(name),
      debug_socket("debug_socket"),
      config_(config),
      log_(keep_slices),
      state_(config_.model.arch),
      local_(config_.model.tile_naming, config_.model.capacity.model),
      memory_("memory", config_.model.memory_base, config_.model.memory_size,
              config_.timing.cycles(config_.timing.memory_latency_cycles),
              config_.timing.memory_dmi),
      fabric_("fabric", config_.timing, log_, config_.model.capacity),
      builder_("builder", state_, local_, fabric_.tiles(), config_.model.block, stalled,
               config_.timing, log_),
      front_end_("front_end", state_, memory_.semantics().window(), builder_.semantics(), out, err,
                 engine::front_end_options(config_.model), config_.timing, log_),
      tlsu_("tlsu", memory_.semantics().window(), local_, fabric_.semantics(), config_.timing, log_,
            config_.model.packed_final_nibble),
      cube_(local_, fabric_.semantics(), state_, config_.cube),
      pes_("pe", arch::kPeCount,
           [this](const char* pe_name, std::size_t pe) {
             return new cube::CubeModule(pe_name, static_cast<unsigned>(pe), cube_, config_.timing,
                                         log_);
           }),
      fpatr_backend_(fpatr::make_backend(config_.model.fpatr_backend)),
      fpatr_("fpatr", *fpatr_backend_, config_.timing, log_),
      queue_(state_, engine::defers_data_work(config_.model), config_.model.host_pin_threads) {
  if (config_.model.machine == engine::Machine::LinxVirt) {
    devices_ = std::make_unique<LinxVirtModule>("linx_virt", out, err, config_.model.uart_output);
    front_end_.semantics().attach_devices(&devices_->map());
  }
  // The CUBE queues a block's rows only where the module's backend takes them.
  cube_.use_fpatr_backend(*fpatr_backend_);
  if (queue_.deferred()) {
    local_.use_data_queue(&queue_);
    memory_.use_data_queue(&queue_);
    front_end_.use_data_queue(&queue_);
    tlsu_.use_data_queue(&queue_);
    cube_.use_data_queue(&queue_);
    fpatr_.use_data_queue(&queue_);
  }
  tlm::tlm_global_quantum::instance().set(config_.timing.quantum());
  builder_.set_issue_clock([this] { return front_end_.current_time(); });
  builder_.semantics().set_trace_listener(
      [this](std::uint64_t pc, bool end) { log_.mark_region(front_end_.current_time(), pc, end); });

  debug_socket.bind(memory_.socket);
  front_end_.memory_socket.bind(memory_.socket);
  tlsu_.memory_socket.bind(memory_.socket);
  builder_.tlsu_socket.bind(tlsu_.block_socket);
  tlsu_.fabric_socket.bind(fabric_.socket);
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
    builder_.cube_sockets[pe].bind(pes_[pe].block_socket);
    pes_[pe].fabric_socket.bind(fabric_.socket);
    pes_[pe].fpatr_socket.bind(fpatr_.socket);
  }
}

void SystemCPlatform::elaborate() {
  if (sc_core::sc_get_status() == sc_core::SC_ELABORATION) sc_core::sc_start(sc_core::SC_ZERO_TIME);
}

arch::MaybeFault SystemCPlatform::load_bytes(std::uint64_t address,
                                             const std::vector<std::uint8_t>& bytes) {
  if (bytes.empty()) return std::nullopt;
  return memory_.semantics().write(address, bytes.data(), bytes.size());
}

arch::Expected<std::uint8_t*> SystemCPlatform::load_target(std::uint64_t address,
                                                           std::uint64_t length) {
  return memory_.semantics().load_target(address, length);
}

arch::MaybeFault SystemCPlatform::read_bytes(std::uint64_t address, std::uint8_t* out,
                                             std::uint64_t length) {
  if (length == 0) return std::nullopt;
  elaborate();
  tlm::tlm_generic_payload payload;
  payload.set_command(tlm::TLM_READ_COMMAND);
  payload.set_address(address);
  payload.set_data_ptr(out);
  payload.set_data_length(static_cast<unsigned>(length));
  if (length <= 0xFFFFFFFFu && debug_socket->transport_dbg(payload) == length) return std::nullopt;
  const memory::Memory& ram = memory_.semantics();
  return arch::make_fault(
      arch::FaultCode::DataPage,
      fmt::format("[0x{:x}, 0x{:x}) is outside memory [0x{:x}, 0x{:x})", address, address + length,
                  ram.base(), ram.base() + ram.size()),
      address);
}

arch::MaybeFault SystemCPlatform::load(const isa::ProgramImage& image) {
  if (auto failed = engine::load_sections(image, [this](std::uint64_t address, const auto& bytes) {
        return load_bytes(address, bytes);
      })) {
    return failed;
  }
  state_.pc = image.entry;
  engine::seed_boot_state(config_.model.machine, image, state_, memory_.semantics());
  return std::nullopt;
}

engine::RunResult SystemCPlatform::run(std::uint64_t max_instructions) {
  elaborate();
  const std::uint64_t first = front_end_.instructions();
  front_end_.start(max_instructions);
  sc_core::sc_start();
  queue_.drain();  // after a stop from outside the front end (B.FPATR's failure)
  engine::RunResult result;
  result.halt = front_end_.halt();
  result.instructions = front_end_.instructions() - first;
  result.fpatr_failure = fpatr_.backend().failure();
  return result;
}

void SystemCPlatform::reset(const cube::CubeConfig& cube) {
  queue_.drain();
  state_.reset();
  local_.reset();
  fabric_.tiles().reset();
  memory_.semantics().clear();
  cube_.set_config(cube);
}

engine::StateView SystemCPlatform::state_view() const {
  return {state_, local_, fabric_.tiles(), front_end_.instructions()};
}

}  // namespace ptovp::systemc

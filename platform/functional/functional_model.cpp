#include "functional/functional_model.hpp"

#include <fmt/format.h>

#include "cube/block_executor.hpp"
#include "cube/cube_preflight.hpp"
#include "engine/image_loading.hpp"
#include "frontend/stall_halt.hpp"

namespace ptovp::functional {

namespace {

cube::CubeConfig cube_config(numeric::NumericProfile profile) {
  cube::CubeConfig config;
  config.profile = profile;
  return config;
}

}  // namespace

FunctionalModel::FunctionalModel(const engine::ModelConfig& config, std::ostream& out,
                                 std::ostream& err)
    : config_(config),
      state_(config.arch),
      memory_(config.memory_base, config.memory_size),
      local_(config.tile_naming, config.capacity.model),
      shared_(config.capacity),
      fabric_(shared_),
      tlsu_(memory_, local_, fabric_, config.packed_final_nibble),
      fpatr_(fpatr::make_backend(config.fpatr_backend)),
      fpatr_failure_(fpatr_->failure()),
      cube_(local_, fabric_, state_, cube_config(config.profile)),
      builder_(
          state_,
          block_builder::BlockExecutors{
              [this](const arch::BlockDescriptor& block, std::uint64_t capacity) {
                arch::MaybeFault fault = tlsu_.execute(block, capacity);
                if (!fault)
                  activity_.bytes[tlsu::transfer_name(tlsu::transfer_direction(block))] +=
                      tlsu_.bytes_moved(block);
                return fault;
              },
              [this, cube = cube::block_executor(cube_,
                                                 [](const std::string& reason) -> arch::MaybeFault {
                                                   throw frontend::Stalled{reason};
                                                 })](const arch::BlockDescriptor& block,
                                                     std::uint64_t capacity) {
                arch::MaybeFault fault = cube(block, capacity);
                // A block that computed allocated its D (a zero mask computes
                // nothing); each PE multiplies its own rows.
                if (!fault && !cube_.last_destinations().empty()) {
                  const cube::CubePlan& plan = cube_.plan();
                  std::uint64_t& macs = activity_.macs[std::string(numeric::name(plan.a_type))];
                  for (unsigned pe = 0; pe < arch::kPeCount; ++pe)
                    macs += plan.macs(pe);
                }
                return fault;
              },
              {}},
          config.block),
      front_end_(state_, memory_, builder_, out, err, engine::front_end_options(config)),
      devices_(
          engine::attach_machine_devices(config.machine, config.uart_output, front_end_, out, err)),
      queue_(state_, engine::defers_data_work(config), config.host_pin_threads) {
  cube_.use_fpatr_backend(*fpatr_);
  if (queue_.deferred()) {
    local_.use_data_queue(&queue_);
    tlsu_.use_data_queue(&queue_);
    cube_.use_data_queue(&queue_);
    front_end_.use_data_queue(&queue_);
  }
  builder_.set_trace_listener([this](std::uint64_t pc, bool end) { mark_region(pc, end); });
}

void FunctionalModel::mark_region(std::uint64_t pc, bool end) {
  if (!end) {
    // The front end counts the hint's attempt before running it.
    open_regions_.push_back({pc, 0, front_end_.instructions() - 1, 0, activity_, {}});
    return;
  }
  if (open_regions_.empty()) return;
  InstructionRegion region = std::move(open_regions_.back());
  open_regions_.pop_back();
  region.end_pc = pc;
  region.instructions = front_end_.instructions() - 1 - region.begin_instruction;
  region.end = activity_;
  regions_.push_back(std::move(region));
}

arch::MaybeFault FunctionalModel::load_bytes(std::uint64_t address,
                                             const std::vector<std::uint8_t>& bytes) {
  if (bytes.empty()) return std::nullopt;
  return memory_.write(address, bytes.data(), bytes.size());
}

arch::Expected<std::uint8_t*> FunctionalModel::load_target(std::uint64_t address,
                                                           std::uint64_t length) {
  return memory_.load_target(address, length);
}

arch::MaybeFault FunctionalModel::load(const isa::ProgramImage& image) {
  if (auto failed = engine::load_sections(image, [this](std::uint64_t address, const auto& bytes) {
        return load_bytes(address, bytes);
      })) {
    return failed;
  }
  state_.pc = image.entry;
  engine::seed_boot_state(config_.machine, image, state_, memory_);
  return std::nullopt;
}

void FunctionalModel::reset() {
  queue_.drain();
  state_.reset();
  local_.reset();
  shared_.reset();
  memory_.clear();
}

engine::StateView FunctionalModel::state_view() const {
  return {state_, local_, shared_, front_end_.instructions()};
}

engine::RunResult FunctionalModel::run(std::uint64_t max_instructions) {
  engine::RunResult result;
  const std::uint64_t start = front_end_.instructions();
  while (max_instructions == 0 || front_end_.instructions() - start < max_instructions) {
    try {
      result.halt = front_end_.step();
    } catch (const frontend::Stalled& stalled) {
      // The unit changed nothing: unwinding out of the block stop leaves TPC on the stop.
      queue_.drain();
      result.halt = frontend::stall_halt(front_end_, state_, stalled.reason);
    }
    if (result.halt) break;
    if (fpatr_failure_) {
      result.fpatr_failure = fpatr_failure_;
      break;
    }
  }
  queue_.drain();  // the state and memory the caller reads
  result.instructions = front_end_.instructions() - start;
  return result;
}

}  // namespace ptovp::functional

// The instruction front end: fetch through the memory port (its direct
// pointer where granted, memory/memory_port.hpp),
// length decode, decode and prepare (cached per PC), then dispatch: header
// commands and starts/stops to the block builder, the scalar subset to the
// scalar unit, EBREAK / ASSERT / ACRC / ACRE and every fault to the trap
// unit. One step() is one instruction attempt.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <ostream>
#include <vector>

#include "arch/arch_state.hpp"
#include "arch/data_queue.hpp"
#include "block_builder/block_builder.hpp"
#include "frontend/execution_control.hpp"
#include "frontend/host_services.hpp"
#include "frontend/instruction_plan.hpp"
#include "frontend/prepared_instruction.hpp"
#include "frontend/scalar_unit.hpp"
#include "frontend/system_unit.hpp"
#include "frontend/template_unit.hpp"
#include "frontend/trap_unit.hpp"
#include "isa/decoder.hpp"
#include "keys/key_table.hpp"
#include "memory/memory_port.hpp"
#include "numeric/numeric_profile.hpp"

namespace ptovp::frontend {

enum class HaltKind : std::uint8_t {
  Breakpoint,  // EBREAK with EVBASE = 0: exit_code is its immediate
  HostExit,    // host service exit: exit_code is the firmware's status
  Trap,        // any other trap with EVBASE = 0
  Stall,       // set by the platform: a unit waits for what nothing can provide (fault.reason)
  Paused,      // execution control paused before the instruction at pc; run() resumes
};

// Why and where the run stopped, with what the fault report needs.
struct Halt {
  HaltKind kind = HaltKind::Trap;
  int exit_code = 0;
  arch::Fault fault;
  std::uint64_t pc = 0;
  std::optional<isa::DecodedInstruction> instruction;  // absent when the fetch failed
  arch::BlockControl block;                            // the block as it was at the fault
  arch::BlockDescriptor header;
  PauseCause pause = PauseCause::Observer;  // why, for Paused
};

// A scalar load or store as the instruction at a PC would perform it now.
struct DataAccess {
  bool store = false;
  unsigned size = 0;                                    // bytes
  std::array<std::uint64_t, arch::kPeCount> address{};  // per PE
};

struct FrontEndOptions {
  bool host_services = true;  // ACRC with EVBASE = 0 in ACR0 is a host call
  // The scalar FP unit's profile. Not a key of its own: it follows
  // numeric.profile, which the CUBE's configuration owns
  // (engine::front_end_options).
  numeric::NumericProfile profile = numeric::NumericProfile::Hardware;
};
// host.services.
keys::KeyTable<FrontEndOptions> front_end_keys();

class FrontEnd {
 public:
  FrontEnd(arch::ArchState& state, memory::MemoryPort& memory, block_builder::BlockBuilder& builder,
           std::ostream& out, std::ostream& err, FrontEndOptions options = {},
           isa::IsaRelease release = isa::kDefaultRelease);

  // Executes the instruction at TPC; returns the halt when the run stops.
  // With execution control attention (observers, a stop request) the
  // observers see the attempt, and a pause returns HaltKind::Paused.
  std::optional<Halt> step() { return control_.attention() ? observed_step() : execute_step(); }
  ExecutionControl& control() { return control_; }
  // Queued data work of earlier blocks (docs/functional-model.md "Deferred
  // data work"): the front end drains it before an instruction that reads or
  // writes memory or system state, before a fetch from GM a queued job
  // writes, before a trap and before observers see an attempt (nullptr:
  // none). `queue` must outlive the front end's use of it.
  void use_data_queue(arch::DataQueue* queue) { queue_ = queue; }
  // Memory-mapped devices for loads and stores outside the RAM; a device's
  // exit request (the test finisher) ends the run as a HostExit halt.
  void attach_devices(const devices::DeviceMap* map) { scalar_.attach_devices(map); }
  const memory::MemoryPort& memory() const { return memory_; }
  std::uint64_t instructions() const { return instructions_; }
  // Instruction attempts per decoded form (isa::all_forms() order); the last
  // slot counts the attempts without a form (a fetch fault, an unknown word).
  const std::vector<std::uint64_t>& attempts_by_form() const { return attempts_by_form_; }

  // Fetch and decode without executing (fault reports, tracing).
  arch::Expected<isa::DecodedInstruction> fetch_decode(std::uint64_t pc) const;
  // The scalar load or store the instruction at TPC would make (watchpoints,
  // tracing); nothing for other instructions or when it does not decode.
  std::optional<DataAccess> data_access() const;

 private:
  // One slot of the direct-mapped per-PC cache. It holds while the bytes at
  // pc under `mask` still equal `bytes` (the instruction, plus the look-ahead
  // parcel that decided a C.BSTART DIRECT parcel's length), so stores into
  // code are seen. They are read at `code`, the port's direct pointer to the
  // 8 bytes at pc, or through the port where none was granted; a revoked
  // grant empties the cache (MemoryPort::on_revoke).
  struct CacheEntry {
    std::uint64_t pc = ~std::uint64_t{0};
    const std::uint8_t* code = nullptr;
    std::uint64_t bytes = 0;
    std::uint64_t mask = 0;
    std::uint8_t depends = 0;  // bytes under mask
    std::uint32_t form = 0;    // the attempts_by_form_ slot
    PreparedInstruction prepared;
  };
  static constexpr std::size_t kCacheEntries = 4096;

  std::optional<Halt> execute_step();
  std::optional<Halt> observed_step();
  // Tells the observers about the attempt at pc.
  void notify(std::uint64_t pc, const Halt* halt);
  arch::Expected<std::pair<std::uint64_t, unsigned>> fetch(std::uint64_t pc) const;
  bool cached(const CacheEntry& entry, std::uint64_t pc) const;
  // Fetches, decodes and prepares the instruction at pc into entry.
  arch::MaybeFault fill(CacheEntry& entry, std::uint64_t pc);
  arch::MaybeFault execute(const PreparedInstruction& insn);
  // The fault of an instruction that did not decode as legal.
  arch::MaybeFault illegal(const PreparedInstruction& insn);
  arch::MaybeFault command(const PreparedInstruction& insn);
  arch::MaybeFault scalar(const PreparedInstruction& insn);
  // Placement, then the operation (scalar() handles the body marker and TPC).
  arch::MaybeFault scalar_operation(const PreparedInstruction& insn);
  // ScalarOperationApplicable (BundleControl when not).
  arch::MaybeFault applicable(const FormPlan& plan) const;
  arch::Fault breakpoint(std::uint64_t immediate) const;
  arch::MaybeFault close_request(unsigned request_type);
  // HL.QMT, HL.QPOP, HL.QPUSH on the general queue manager.
  arch::MaybeFault queue_command(const PreparedInstruction& insn);
  arch::Fault fault(arch::FaultCode code, std::string reason) const;
  std::optional<Halt> trap(const arch::Fault& fault, const CacheEntry* entry,
                           std::uint64_t resume_tpc, unsigned target_ring);

  arch::ArchState& state_;
  memory::MemoryPort& memory_;
  block_builder::BlockBuilder& builder_;
  ScalarUnit scalar_;
  TemplateUnit templates_;
  SystemUnit system_;
  TrapUnit traps_;
  HostServices host_;
  FrontEndOptions options_;
  const isa::Decoder& decoder_;
  const InstructionPlans& plans_;
  std::vector<CacheEntry> cache_;
  std::uint64_t instructions_ = 0;
  std::vector<std::uint64_t> attempts_by_form_;
  std::optional<int> host_exit_;  // set by a host service exit during execute()
  ExecutionControl control_;
  arch::DataQueue* queue_ = nullptr;
};

}  // namespace ptovp::frontend

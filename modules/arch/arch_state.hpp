// Scalar, control and system architectural state of one core (everything but
// tiles and memory): four PE GPR files, the T/U queues, TPC/BPC, the block
// control state with the header being built, predicates, the base system
// registers, the 16 ACR banks with their trap status and trap contexts, and
// the progress of an interrupted template command and the general queue
// manager.
// reset() follows asl/arch/profile/reset.asl.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "arch/block_descriptor.hpp"
#include "arch/fault.hpp"
#include "arch/generated/arch_tables.hpp"  // Ssr: the base system-register addresses
#include "arch/pe_mask.hpp"
#include "arch/queue_manager.hpp"
#include "arch/template_state.hpp"
#include "keys/key_table.hpp"

namespace ptovp::arch {

inline constexpr unsigned kGprCount = 24;
inline constexpr unsigned kQueueDepth = 4;
inline constexpr unsigned kPredicateCount = 8;
inline constexpr unsigned kAcrCount = 16;
inline constexpr unsigned kAcrBankSize = 4096;
inline constexpr std::uint64_t kResetTileCapacity = 262144;

// Context registers of each ACR bank (low index within the bank).
namespace acr {
inline constexpr std::uint16_t kEcstate = 0xF00;
inline constexpr std::uint16_t kEvbase = 0xF01;
inline constexpr std::uint16_t kTrapno = 0xF02;
inline constexpr std::uint16_t kTraparg0 = 0xF03;
inline constexpr std::uint16_t kEconfig = 0xF07;
inline constexpr std::uint16_t kIpending = 0xF08;
inline constexpr std::uint16_t kTopei = 0xF09;
inline constexpr std::uint16_t kEoiei = 0xF0A;
inline constexpr std::uint16_t kTimerTime = 0xF20;
inline constexpr std::uint16_t kTimerCompare = 0xF21;
inline constexpr std::uint16_t kEbarg0 = 0xF40;
inline constexpr std::uint16_t kContextFirst = 0xF00;
inline constexpr std::uint16_t kContextLast = 0xFB7;
}  // namespace acr

// THREAD_ID (0x0026): the PE index (platform default) or 0 on every PE (pto-v0).
enum class ThreadIdMode : std::uint8_t { PeIndex, Zero };

struct ArchConfig {
  ThreadIdMode thread_id = ThreadIdMode::PeIndex;
  std::uint64_t tile_capacity = kResetTileCapacity;  // TILE_CAPACITY at reset
};
// tile.capacity and pe.thread_id.
keys::KeyTable<ArchConfig> arch_keys();

// A depth-4 scalar temporary queue: #1 is index 0, a push shifts #1->#2->#3->#4.
struct ScalarQueue {
  std::array<std::uint64_t, kQueueDepth> value{};
  std::array<bool, kQueueDepth> valid{};
  void push(std::uint64_t v);
};

// Block lifecycle state outside the header (_BundleActive, BARG lives in the
// descriptor; these are the markers).
struct BlockControl {
  bool active = false;
  bool body_active = false;
  std::uint64_t sequential_pc = 0;
  bool commit_target_set = false;
  bool condition_set = false;
  bool system_terminal_pending = false;
};

// Per-ring trap status (packed into TRAPNO on read).
struct TrapStatus {
  bool asynchronous = false;
  bool argument_valid = false;
  std::uint32_t cause = 0;  // 24 bits
  std::uint8_t number = 0;  // 6 bits
  std::uint64_t argument0 = 0;
  std::uint64_t packed() const;
};

// PTO_RESERVATION_GRANULE_BYTES: an SC succeeds when its 64-byte line is the
// reserved one, whatever its width and byte address.
inline constexpr std::uint64_t kReservationGranule = 64;

// An LR reservation (asl/scalar/model/amo/semantics.asl): the address and
// size of the load. It is not part of the trap context.
struct Reservation {
  std::uint64_t address = 0;
  unsigned size = 0;
};

// SaveTrapContext: what a trap banks so ACRE can restore it. Tile allocation
// state is not part of it.
struct TrapContext {
  bool valid = false;
  unsigned source_acr = 0;
  std::uint64_t tpc = 0;
  std::uint64_t bpc = 0;
  std::uint64_t core_state = 0;
  std::uint64_t return_address = 0;
  std::uint64_t commit_argument = 0;
  BlockControl block;
  BlockDescriptor header;
  std::array<std::array<ScalarQueue, 2>, kPeCount> queues{};  // per PE: [0] = T, [1] = U
  std::array<std::uint32_t, kPredicateCount> predicates{};
  FrameTemplate frame;
  MemoryCopyTemplate memory_copy;
};

class ArchState {
 public:
  explicit ArchState(ArchConfig config = {});

  // Exactly the reset profile of reset.asl (PC = 0, VERSION = 1,
  // TILE_CAPACITY from the configuration, ECONFIG = 3 in every bank).
  void reset();
  const ArchConfig& config() const { return config_; }

  // R0 reads 0 and drops writes; index < 24.
  // Inline: the front end's scalar loop calls them for every PE of every instruction.
  std::uint64_t gpr(unsigned pe, unsigned index) const { return index == 0 ? 0 : gprs_[pe][index]; }
  void set_gpr(unsigned pe, unsigned index, std::uint64_t value) {
    if (index != 0) gprs_[pe][index] = value;
  }
  // P0 reads all ones.
  std::uint32_t predicate(unsigned index) const;
  void set_predicate(unsigned index, std::uint32_t value);

  // SSRGET of a base register or a context register of the current ACR bank,
  // as seen by PE `pe` (THREAD_ID differs per PE). IllegalInstruction for an
  // unassigned address.
  Expected<std::uint64_t> read_ssr(unsigned pe, std::uint32_t address) const;
  // SSRSET: THREAD_PTR, GLOBAL_PTR, CORE_STATE (bits [3:0] select the ACR),
  // CORE_FEATURE_ENABLE and the context registers; read-only ones fault.
  // EOIEI acknowledges an interrupt instead of storing.
  MaybeFault write_ssr(std::uint32_t address, std::uint64_t value);
  // SystemRegisterAccessOf: what an SSR instruction may do with a base or
  // context register; nullopt for an unassigned address.
  std::optional<SsrAccess> ssr_access(std::uint32_t address) const;
  // IPENDING of bank `ring` with its timer bit refreshed (RefreshTimerPending:
  // TIMECMP nonzero and CYCLE >= TIMECMP; interrupt 1 in ACR0, 3 elsewhere).
  std::uint64_t interrupt_pending(unsigned ring) const;

  // CORE_STATE[36:32]: sticky NV, DZ, OF, UF, NX numeric flags.
  std::uint8_t numeric_flags() const;
  void raise_numeric_flags(std::uint8_t flags);
  // CORE_STATE[39:37]: the scalar FP rounding-mode code.
  unsigned fp_rounding_code() const { return static_cast<unsigned>(core_state_ >> 37) & 7u; }

  std::uint64_t tile_capacity() const { return tile_capacity_; }
  unsigned current_acr() const { return current_acr_; }
  void set_current_acr(unsigned ring);
  // Context register `low` (0xF00..0xFB7) of bank `ring`.
  std::uint64_t context_register(unsigned ring, std::uint16_t low) const;
  void set_context_register(unsigned ring, std::uint16_t low, std::uint64_t value);

  // Instruction attempts; CYCLE and TIME read it (the time unit is the
  // platform's choice).
  void advance_cycle(std::uint64_t n = 1) { cycle_ += n; }

  // Architectural members the front end and block builder drive directly.
  // Per PE (lockstep execution gives each PE its own queue values): [pe][0] =
  // T, [pe][1] = U.
  std::array<std::array<ScalarQueue, 2>, kPeCount> queues;
  std::uint64_t pc = 0;  // TPC
  std::uint64_t return_address = 0;
  std::uint64_t commit_argument = 0;
  BlockControl block;
  BlockDescriptor header;  // the active block's BARG and header (BPC = header.bpc)
  // Per PE (each lane reserves like a hart of its own): bit p of
  // reserved_pes marks reservations[p] valid.
  std::array<Reservation, kPeCount> reservations{};
  std::uint8_t reserved_pes = 0;
  // A store of `size` bytes at `address` (StoreTranslated and its bounded
  // forms in asl/scalar/model/agu/memory.asl) ends every PE's reservation
  // whose 64-byte line it overlaps.
  void end_reservations(std::uint64_t address, std::uint64_t size);
  // A template command interrupted by a fault (restarted at instruction_pc).
  FrameTemplate frame;
  MemoryCopyTemplate memory_copy;
  QueueManager gqm;  // the general queue manager's queues (HL.Q*)
  FaultCode last_fault = FaultCode::None;
  std::uint64_t fault_address = 0;
  std::array<TrapStatus, kAcrCount> trap_status{};
  std::array<TrapContext, kAcrCount> trap_contexts{};

 private:
  ArchConfig config_;
  std::array<std::array<std::uint64_t, kGprCount>, kPeCount> gprs_{};
  std::array<std::uint32_t, kPredicateCount> predicates_{};
  std::uint64_t thread_ptr_ = 0;
  std::uint64_t global_ptr_ = 0;
  std::uint64_t core_state_ = 0;
  std::uint64_t core_feature_enable_ = 0;
  std::uint64_t tile_capacity_ = kResetTileCapacity;
  std::uint64_t cycle_ = 0;
  unsigned current_acr_ = 0;
  // Context registers 0xF00..0xFB7 of every bank.
  std::vector<std::uint64_t> context_registers_;
};

}  // namespace ptovp::arch

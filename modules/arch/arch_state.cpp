#include "arch/arch_state.hpp"

#include <fmt/format.h>

namespace ptovp::arch {

namespace {

constexpr unsigned kContextCount = acr::kContextLast - acr::kContextFirst + 1;
constexpr std::uint64_t kVersion = 1;
constexpr std::uint64_t kEconfigReset = 3;  // external and timer interrupts enabled

bool is_context_register(std::uint32_t address) {
  return address >= acr::kContextFirst && address <= acr::kContextLast;
}

Fault unassigned_ssr(std::uint32_t address, const char* what) {
  return make_fault(FaultCode::IllegalInstruction, fmt::format("SSR 0x{:04x} {}", address, what));
}

}  // namespace

void ScalarQueue::push(std::uint64_t v) {
  for (unsigned i = kQueueDepth - 1; i > 0; --i) {
    value[i] = value[i - 1];
    valid[i] = valid[i - 1];
  }
  value[0] = v;
  valid[0] = true;
}

std::uint64_t TrapStatus::packed() const {
  return (std::uint64_t{asynchronous} << 63) | (std::uint64_t{argument_valid} << 62) |
         (std::uint64_t{cause & 0xFFFFFFu} << 24) | (number & 0x3Fu);
}

ArchState::ArchState(ArchConfig config)
    : config_(config), context_registers_(std::size_t{kAcrCount} * kContextCount) {
  reset();
}

void ArchState::reset() {
  for (auto& file : gprs_)
    file.fill(0);
  queues = {};
  predicates_.fill(0);
  pc = 0;
  return_address = 0;
  commit_argument = 0;
  block = {};
  header = {};
  reservations = {};
  reserved_pes = 0;
  frame = {};
  memory_copy = {};
  gqm.reset();
  last_fault = FaultCode::None;
  fault_address = 0;
  trap_status = {};
  for (TrapContext& context : trap_contexts)
    context = {};
  thread_ptr_ = 0;
  global_ptr_ = 0;
  core_state_ = 0;
  core_feature_enable_ = 0;
  tile_capacity_ = config_.tile_capacity;
  cycle_ = 0;
  current_acr_ = 0;
  std::fill(context_registers_.begin(), context_registers_.end(), 0);
  for (unsigned ring = 0; ring < kAcrCount; ++ring) {
    set_context_register(ring, acr::kEconfig, kEconfigReset);
  }
}

void ArchState::end_reservations(std::uint64_t address, std::uint64_t size) {
  for (unsigned pe = 0; pe < kPeCount; ++pe) {
    const std::uint64_t line = reservations[pe].address & ~(kReservationGranule - 1);
    if (address < line + kReservationGranule && line < address + size) {
      reserved_pes = static_cast<std::uint8_t>(reserved_pes & ~(1u << pe));
    }
  }
}

std::uint32_t ArchState::predicate(unsigned index) const {
  return index == 0 ? 0xFFFFFFFFu : predicates_[index];
}

void ArchState::set_predicate(unsigned index, std::uint32_t value) {
  predicates_[index] = value;
}

std::optional<SsrAccess> ArchState::ssr_access(std::uint32_t address) const {
  if (is_context_register(address)) {
    for (const ContextRegisterInfo& info : kContextRegisters) {
      if (info.low == address) return info.access;
    }
    return std::nullopt;
  }
  if (address > 0xFFFF) return std::nullopt;
  switch (static_cast<Ssr>(address)) {
    case Ssr::ThreadPtr:
    case Ssr::GlobalPtr:
    case Ssr::CoreState:
    case Ssr::CoreFeatureEnable: return SsrAccess::ReadWrite;
    case Ssr::Time:
    case Ssr::Cycle:
    case Ssr::CoreId:
    case Ssr::Vendor:
    case Ssr::Version:
    case Ssr::CoreFeature:
    case Ssr::ThreadId:
    case Ssr::TileCapacity:
    case Ssr::BlockNum:
    case Ssr::BlockId: return SsrAccess::ReadOnly;
  }
  return std::nullopt;
}

std::uint64_t ArchState::interrupt_pending(unsigned ring) const {
  const std::uint64_t timer = std::uint64_t{1} << (ring == 0 ? 1 : 3);  // TimerInterruptId
  const std::uint64_t compare = context_register(ring, acr::kTimerCompare);
  const bool due = compare != 0 && cycle_ >= compare;
  return (context_register(ring, acr::kIpending) & ~timer) | (due ? timer : 0);
}

Expected<std::uint64_t> ArchState::read_ssr(unsigned pe, std::uint32_t address) const {
  const std::optional<SsrAccess> access = ssr_access(address);
  if (!access) return unassigned_ssr(address, "is not an assigned system register");
  if (*access == SsrAccess::WriteOnly) return unassigned_ssr(address, "is write-only");
  if (is_context_register(address)) {
    switch (address) {
      case acr::kIpending: return interrupt_pending(current_acr_);
      case acr::kTopei: {
        // The lowest pending interrupt ID, 0 when none is pending.
        const std::uint64_t pending = interrupt_pending(current_acr_);
        return pending == 0 ? 0 : static_cast<std::uint64_t>(__builtin_ctzll(pending));
      }
      case acr::kTimerTime: return cycle_;
      default: return context_register(current_acr_, static_cast<std::uint16_t>(address));
    }
  }
  switch (static_cast<Ssr>(address)) {
    case Ssr::ThreadPtr: return thread_ptr_;
    case Ssr::GlobalPtr: return global_ptr_;
    case Ssr::Time:
    case Ssr::Cycle: return cycle_;
    case Ssr::CoreState: return core_state_;
    case Ssr::CoreId:
    case Ssr::Vendor:
    case Ssr::CoreFeature:
    case Ssr::BlockNum:
    case Ssr::BlockId: return std::uint64_t{0};
    case Ssr::Version: return kVersion;
    case Ssr::CoreFeatureEnable: return core_feature_enable_;
    case Ssr::ThreadId: return std::uint64_t{config_.thread_id == ThreadIdMode::PeIndex ? pe : 0u};
    case Ssr::TileCapacity: return tile_capacity_;
  }
  return std::uint64_t{0};  // ssr_access() assigned every Ssr above
}

MaybeFault ArchState::write_ssr(std::uint32_t address, std::uint64_t value) {
  const std::optional<SsrAccess> access = ssr_access(address);
  if (!access) return unassigned_ssr(address, "is not an assigned system register");
  if (*access == SsrAccess::ReadOnly) return unassigned_ssr(address, "is read-only");
  if (address == acr::kEoiei) {
    // EndOfInterrupt: clear the named pending ID (0..63) and the bank's
    // asynchronous-trap status.
    if (value < 64) {
      const std::uint64_t pending = context_register(current_acr_, acr::kIpending);
      set_context_register(current_acr_, acr::kIpending, pending & ~(std::uint64_t{1} << value));
    }
    trap_status[current_acr_].asynchronous = false;
    trap_status[current_acr_].argument_valid = false;
    return std::nullopt;
  }
  if (is_context_register(address)) {
    set_context_register(current_acr_, static_cast<std::uint16_t>(address), value);
    return std::nullopt;
  }
  switch (static_cast<Ssr>(address)) {
    case Ssr::ThreadPtr: thread_ptr_ = value; return std::nullopt;
    case Ssr::GlobalPtr: global_ptr_ = value; return std::nullopt;
    case Ssr::CoreState:
      core_state_ = value;
      current_acr_ = static_cast<unsigned>(value & 0xF);
      return std::nullopt;
    case Ssr::CoreFeatureEnable: core_feature_enable_ = value; return std::nullopt;
    default: return unassigned_ssr(address, "is read-only");
  }
}

std::uint8_t ArchState::numeric_flags() const {
  return static_cast<std::uint8_t>((core_state_ >> 32) & 0x1F);
}

void ArchState::raise_numeric_flags(std::uint8_t flags) {
  core_state_ |= std::uint64_t{flags & 0x1Fu} << 32;
}

void ArchState::set_current_acr(unsigned ring) {
  current_acr_ = ring & 0xF;
  core_state_ = (core_state_ & ~std::uint64_t{0xF}) | current_acr_;
}

std::uint64_t ArchState::context_register(unsigned ring, std::uint16_t low) const {
  if (low == acr::kTrapno) return trap_status[ring].packed();
  if (low == acr::kTraparg0) return trap_status[ring].argument0;
  return context_registers_[std::size_t{ring} * kContextCount + (low - acr::kContextFirst)];
}

void ArchState::set_context_register(unsigned ring, std::uint16_t low, std::uint64_t value) {
  TrapStatus& status = trap_status[ring];
  if (low == acr::kTrapno) {
    // UnpackTrapStatus.
    status.asynchronous = (value >> 63) & 1;
    status.argument_valid = (value >> 62) & 1;
    status.cause = static_cast<std::uint32_t>((value >> 24) & 0xFFFFFF);
    status.number = static_cast<std::uint8_t>(value & 0x3F);
    return;
  }
  if (low == acr::kTraparg0) {
    status.argument0 = value;
    return;
  }
  context_registers_[std::size_t{ring} * kContextCount + (low - acr::kContextFirst)] = value;
}

keys::KeyTable<ArchConfig> arch_keys() {
  keys::KeyTable<ArchConfig> table("arch::ArchConfig");
  table
      .number("tile.capacity", &ArchConfig::tile_capacity, 1, std::uint64_t{1} << 32, "bytes",
              "TILE_CAPACITY at reset")
      .choice("pe.thread_id", &ArchConfig::thread_id,
              {{ThreadIdMode::PeIndex, "pe-index"}, {ThreadIdMode::Zero, "zero"}},
              "THREAD_ID: the PE index or 0 on every PE");
  return table;
}

}  // namespace ptovp::arch

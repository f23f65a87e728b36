// Architectural faults (asl/arch/memory-model/fault-precision.asl): the spec's
// FaultCode, its trap number, and the failing check with its values. Every unit
// reports faults through Fault; the model never aborts on bad input.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace ptovp::arch {

enum class FaultCode : std::uint8_t {
  None,
  ExecutionStateCheck,
  IllegalInstruction,
  TileLegality,
  TileAllocation,
  BundleControl,
  BundlePostCommit,
  ServiceRequest,
  InstructionPC,
  InstructionPage,
  DataAlignment,
  DataPage,
  Interrupt,
  HardwareBreakpoint,
  SoftwareBreakpoint,
  HardwareWatchpoint,
  Assert,
};

// Trap numbers of SetFaultWithCause (TRAPNO[5:0]).
unsigned trap_number(FaultCode code);
// The spec's spelling, e.g. "Fault_TileLegality".
std::string_view name(FaultCode code);

struct Fault {
  FaultCode code = FaultCode::None;
  // TRAPARG0: the data address for DataAlignment/DataPage, the bad target for
  // InstructionPC; units leave it 0 for tile faults and the front end fills in
  // the TPC of the completing instruction.
  std::uint64_t address = 0;
  std::uint32_t cause = 0;  // 24-bit trap cause: EBREAK immediate, ACRC type
  std::string reason;       // the failing check with its values

  unsigned trap() const { return trap_number(code); }
  // "Fault_TileLegality (trap 5): <reason>"
  std::string describe() const;
};

// The result of a checked operation: nullopt on success.
using MaybeFault = std::optional<Fault>;

Fault make_fault(FaultCode code, std::string reason, std::uint64_t address = 0);

// A value or the fault that prevented it (C++17 has no std::expected).
template <typename T>
class Expected {
 public:
  Expected(T value) : value_(std::move(value)) {}      // NOLINT: implicit by design
  Expected(Fault fault) : fault_(std::move(fault)) {}  // NOLINT: implicit by design

  bool ok() const { return value_.has_value(); }
  explicit operator bool() const { return ok(); }
  const T& value() const { return *value_; }
  T& value() { return *value_; }
  const T& operator*() const { return *value_; }
  const T* operator->() const { return &*value_; }
  const Fault& fault() const { return fault_; }

 private:
  std::optional<T> value_;
  Fault fault_;
};

}  // namespace ptovp::arch

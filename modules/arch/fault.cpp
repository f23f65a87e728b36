#include "arch/fault.hpp"

#include <fmt/format.h>

#include "arch/generated/arch_tables.hpp"

namespace ptovp::arch {

unsigned trap_number(FaultCode code) {
  switch (code) {
    case FaultCode::None:
    case FaultCode::ExecutionStateCheck: return kTrapExecStateCheck;
    case FaultCode::IllegalInstruction: return kTrapIllegalInst;
    case FaultCode::TileLegality:
    case FaultCode::TileAllocation:
    case FaultCode::BundleControl:
    case FaultCode::BundlePostCommit: return kTrapBundleTrap;
    case FaultCode::ServiceRequest: return kTrapScall;
    case FaultCode::InstructionPC: return kTrapInstPcFault;
    case FaultCode::InstructionPage: return kTrapInstPageFault;
    case FaultCode::DataAlignment: return kTrapDataAlignFault;
    case FaultCode::DataPage: return kTrapDataPageFault;
    case FaultCode::Interrupt: return kTrapInterrupt;
    case FaultCode::HardwareBreakpoint: return kTrapHwBreakpoint;
    case FaultCode::SoftwareBreakpoint: return kTrapSwBreakpoint;
    case FaultCode::HardwareWatchpoint: return kTrapHwWatchpoint;
    case FaultCode::Assert: return kTrapAssertFail;
  }
  return 0;
}

std::string_view name(FaultCode code) {
  switch (code) {
    case FaultCode::None: return "Fault_None";
    case FaultCode::ExecutionStateCheck: return "Fault_ExecutionStateCheck";
    case FaultCode::IllegalInstruction: return "Fault_IllegalInstruction";
    case FaultCode::TileLegality: return "Fault_TileLegality";
    case FaultCode::TileAllocation: return "Fault_TileAllocation";
    case FaultCode::BundleControl: return "Fault_BundleControl";
    case FaultCode::BundlePostCommit: return "Fault_BundlePostCommit";
    case FaultCode::ServiceRequest: return "Fault_ServiceRequest";
    case FaultCode::InstructionPC: return "Fault_InstructionPC";
    case FaultCode::InstructionPage: return "Fault_InstructionPage";
    case FaultCode::DataAlignment: return "Fault_DataAlignment";
    case FaultCode::DataPage: return "Fault_DataPage";
    case FaultCode::Interrupt: return "Fault_Interrupt";
    case FaultCode::HardwareBreakpoint: return "Fault_HardwareBreakpoint";
    case FaultCode::SoftwareBreakpoint: return "Fault_SoftwareBreakpoint";
    case FaultCode::HardwareWatchpoint: return "Fault_HardwareWatchpoint";
    case FaultCode::Assert: return "Fault_Assert";
  }
  return "Fault_Unknown";
}

std::string Fault::describe() const {
  return fmt::format("{} (trap {}): {}", name(code), trap(), reason);
}

Fault make_fault(FaultCode code, std::string reason, std::uint64_t address) {
  Fault fault;
  fault.code = code;
  fault.address = address;
  fault.reason = std::move(reason);
  return fault;
}

}  // namespace ptovp::arch

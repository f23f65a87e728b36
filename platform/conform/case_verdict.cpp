#include "conform/case_verdict.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "engine/fault_report.hpp"
#include "isa/decoder.hpp"
#include "isa/instruction_text.hpp"

namespace ptovp::conform {

namespace {

// Bytes shown on each side of a memory difference.
constexpr std::size_t kShownBytes = 16;

std::string instruction_at(const isa::DecodedInstruction& decoded, std::uint64_t pc) {
  return fmt::format("{:0{}x}  {}", decoded.word, decoded.length_bits / 4,
                     isa::instruction_text(decoded, pc));
}

std::string expected_fault_line(const BlockCase& block_case) {
  if (!block_case.fault) return "none (the run halts at the appended EBREAK)";
  const ExpectedFault& fault = *block_case.fault;
  const CaseWord& word = block_case.words[fault.index];
  const isa::DecodedInstruction decoded =
      isa::Decoder::for_release().decode(word.value, word.length_bits);
  return fmt::format("{} (trap {}) at 0x{:x} (word {})  {}", arch::name(fault.code).substr(6),
                     fault.trap, fault.pc, fault.index, instruction_at(decoded, fault.pc));
}

std::string raised_fault_line(const CaseRun& run, const CaseSetup& setup) {
  if (!run.halt) return fmt::format("none: no halt within {} instructions", run.instructions);
  const frontend::Halt& halt = *run.halt;
  const std::string at =
      halt.instruction ? instruction_at(*halt.instruction, halt.pc) : "(not fetched)";
  switch (halt.kind) {
    case frontend::HaltKind::Trap:
      return fmt::format("{} (trap {}) at 0x{:x}  {}", arch::name(halt.fault.code).substr(6),
                         halt.fault.trap(), halt.pc, at);
    case frontend::HaltKind::Stall: return fmt::format("none: stalled at 0x{:x}  {}", halt.pc, at);
    case frontend::HaltKind::Paused: return fmt::format("none: paused at 0x{:x}  {}", halt.pc, at);
    case frontend::HaltKind::Breakpoint:
      return fmt::format("none: EBREAK {} at 0x{:x}{}", halt.exit_code, halt.pc,
                         halt.pc == setup.halt_pc ? " (the appended halt)" : "");
    case frontend::HaltKind::HostExit:
      return fmt::format("none: host exit {} at 0x{:x}", halt.exit_code, halt.pc);
  }
  return "";
}

bool halt_matches(const BlockCase& block_case, const CaseSetup& setup, const CaseRun& run) {
  if (!run.halt) return false;
  const frontend::Halt& halt = *run.halt;
  if (!block_case.fault) {
    return halt.kind == frontend::HaltKind::Breakpoint && halt.exit_code == 0 &&
           halt.pc == setup.halt_pc;
  }
  return halt.kind == frontend::HaltKind::Trap && halt.fault.code == block_case.fault->code &&
         halt.fault.trap() == block_case.fault->trap && halt.pc == block_case.fault->pc;
}

std::string region_name(const BlockCase& block_case, std::uint64_t address) {
  if (const Region* region = block_case.region_at(address)) {
    return address == region->address
               ? region->name
               : fmt::format("{}+0x{:x}", region->name, address - region->address);
  }
  return "no region (a gap between regions)";
}

std::string bytes_text(const std::vector<std::uint8_t>& bytes, std::size_t begin, std::size_t end) {
  std::string text;
  for (std::size_t i = begin; i < end; ++i)
    text += fmt::format("{}{:02x}", i == begin ? "" : " ", bytes[i]);
  return text;
}

// Appends the memory comparison; false when any byte differs.
bool compare_memory(const BlockCase& block_case, const CaseRun& run, bool verbose,
                    std::vector<std::string>& details) {
  std::map<std::string, std::size_t> differing;  // region name -> differing bytes
  bool first_shown = false;
  std::size_t total = 0;
  for (std::size_t r = 0; r < block_case.expected_memory.size(); ++r) {
    const MemoryBytes& expected = block_case.expected_memory[r];
    const std::vector<std::uint8_t>& actual = run.memory.at(r).bytes;
    for (std::size_t i = 0; i < expected.bytes.size(); ++i) {
      if (expected.bytes[i] == actual[i]) continue;
      const std::uint64_t address = expected.address + i;
      const Region* region = block_case.region_at(address);
      ++differing[region ? region->name : "(gaps)"];
      ++total;
      if (first_shown) continue;
      first_shown = true;
      // Show from the difference to the end of its region (at most kShownBytes).
      std::size_t end = std::min(expected.bytes.size(), i + kShownBytes);
      if (region)
        end = std::min<std::size_t>(end, region->address + region->bytes - expected.address);
      details.push_back(fmt::format("  memory: first difference at 0x{:x} in {}", address,
                                    region_name(block_case, address)));
      details.push_back(fmt::format("    expected: {}", bytes_text(expected.bytes, i, end)));
      details.push_back(fmt::format("    actual:   {}", bytes_text(actual, i, end)));
    }
  }
  if (total != 0) {
    std::string per_region;
    for (const auto& [name, count] : differing)
      per_region += fmt::format("{}{} {}", per_region.empty() ? "" : ", ", name, count);
    details.push_back(fmt::format("  memory: {} byte(s) differ ({})", total, per_region));
  } else if (verbose) {
    std::string names;
    for (const Region& region : block_case.regions)
      names += fmt::format(" {}@0x{:x}+{}", region.name, region.address, region.bytes);
    details.push_back(fmt::format("  memory: every expected byte matches; regions:{}", names));
  }
  return total == 0;
}

}  // namespace

CaseVerdict judge_case(const BlockCase& block_case, const CaseSetup& setup, const CaseRun& run,
                       bool verbose) {
  CaseVerdict verdict;
  const bool halt_ok = halt_matches(block_case, setup, run);
  const bool faulted = run.halt && (run.halt->kind == frontend::HaltKind::Trap ||
                                    run.halt->kind == frontend::HaltKind::Stall);
  if (!halt_ok || (verbose && (faulted || block_case.fault))) {
    verdict.details.push_back(fmt::format("  fault expected: {}", expected_fault_line(block_case)));
    verdict.details.push_back(fmt::format("  fault raised:   {}", raised_fault_line(run, setup)));
  }
  if (!halt_ok && faulted) {
    // The whole report: the failing check and the block header.
    const std::string report = engine::format_fault_report(*run.halt);
    std::size_t begin = 0;
    while (begin < report.size()) {
      const std::size_t end = std::min(report.find('\n', begin), report.size());
      verdict.details.push_back("    " + report.substr(begin, end - begin));
      begin = end + 1;
    }
  }
  const bool memory_ok = compare_memory(block_case, run, verbose, verdict.details);
  if (verbose) verdict.details.push_back(fmt::format("  {} instructions", run.instructions));
  verdict.pass = halt_ok && memory_ok;
  return verdict;
}

CaseVerdict conform_case(const BlockCase& block_case, const CaseEngine& engine, bool verbose) {
  const CaseSetup setup = case_setup(block_case);
  return judge_case(block_case, setup, engine(block_case, setup), verbose);
}

}  // namespace ptovp::conform

// Judges a block case's run against the spec's outcome (BLOCKS.md steps 4 and
// 5): the halt (the appended EBREAK, or the expected fault's code, trap and
// PC), then every expected byte. A failure explains itself: both faults with
// their PCs and decoded instructions, the first differing address with its
// region and the expected and actual bytes, and the differing byte count of
// every region.
#pragma once

#include <string>
#include <vector>

#include "conform/block_case.hpp"
#include "conform/case_runner.hpp"

namespace ptovp::conform {

struct CaseVerdict {
  bool pass = false;
  std::vector<std::string> details;  // why it failed; with `verbose`, what it did
};

CaseVerdict judge_case(const BlockCase& block_case, const CaseSetup& setup, const CaseRun& run,
                       bool verbose = false);

// case_setup, the engine, judge_case. Throws CaseError for a malformed case.
CaseVerdict conform_case(const BlockCase& block_case, const CaseEngine& engine,
                         bool verbose = false);

}  // namespace ptovp::conform

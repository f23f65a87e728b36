// The SystemC platform as a conformance engine (`ptovp conform --engine
// systemc`). SystemC elaborates once per process, so one platform serves
// every case: it is reset and given the case's CUBE knobs before each run.
#pragma once

#include "conform/case_runner.hpp"

namespace ptovp::conform {

CaseRun run_systemc(const BlockCase& block_case, const CaseSetup& setup);

}  // namespace ptovp::conform

#include "conform/systemc_case_engine.hpp"

#include <iostream>

#include "systemc/systemc_platform.hpp"

namespace ptovp::conform {

CaseRun run_systemc(const BlockCase& block_case, const CaseSetup& setup) {
  static systemc::SystemCPlatform& platform = [&]() -> systemc::SystemCPlatform& {
    config::PlatformConfig config;
    config.model = setup.model;
    return *new systemc::SystemCPlatform("conform", config, false, std::cout, std::cerr);
  }();
  platform.reset(setup.cube);
  return run_case_on(platform, block_case, setup);
}

}  // namespace ptovp::conform

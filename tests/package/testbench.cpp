// An out-of-tree testbench against the installed package: the B.FPATR unit's
// C++ backend on one REQ8 job, then the SystemC platform running a three-line
// program. Exits 0 when both give the expected results.
#include <cstdio>
#include <iostream>

#include "config/platform_config.hpp"
#include "engine/fault_report.hpp"
#include "fpatr/fpatr_backend.hpp"
#include "isa/assembler.hpp"
#include "numeric/fpatr_params.hpp"
#include "systemc/systemc_platform.hpp"

int sc_main(int, char**) {
  using namespace ptovp;
  // REQ8 (PreQuantMode 3), scale 0.5: 5 -> 2 and 7 -> 4 (ties to even).
  arch::FpAttributes fp;
  fp.valid = true;
  fp.word = 3u << 26;
  auto unit = fpatr::Fpatr::configure(fp, arch::DataAttributes{}, numeric::DataType::S32);
  if (!unit.ok()) return 1;
  fpatr::Parameters parameters;
  parameters.quant = unit.value().element_pipeline().quant_parameter(
      numeric::pack_quant_parameter(numeric::fp32_to_fp19(0x3F000000u), 0, 9));
  const std::uint32_t accumulator[2] = {5, 7};
  std::uint64_t d[2] = {};
  fpatr::RowsJob job;
  job.unit = &unit.value();
  job.parameters = &parameters;
  job.accumulator = accumulator;
  job.rows = 1;
  job.columns = 2;
  job.out.d = d;
  fpatr::CppBackend backend;
  backend.run(job);
  if (d[0] != 2 || d[1] != 4) {
    std::cerr << "testbench: REQ8 gave " << d[0] << ", " << d[1] << "\n";
    return 1;
  }

  // The platform on `addi zero, 7, ->a0; BSTART.SYS FALL; ebreak 3`.
  const isa::AssemblyResult assembled = isa::Assembler().assemble_text(
      "testbench.s",
      "        .global _start\n_start: addi zero, 7, ->a0\n        BSTART.SYS FALL\n"
      "        ebreak 3\n");
  if (!assembled.ok()) return 1;
  const config::PlatformConfig config;
  systemc::SystemCPlatform platform("ptovp", config, false, std::cout, std::cerr);
  if (platform.load(assembled.image)) return 1;
  const engine::RunResult result = platform.run(0);
  if (!result.halt || result.halt->exit_code != 3 || result.instructions != 3) {
    std::cerr << "testbench: the program ended with "
              << (result.halt ? engine::format_fault_report(*result.halt) : "no halt") << " after "
              << result.instructions << " instructions\n";
    return 1;
  }
  std::printf("testbench: REQ8 2 4, EBREAK 3 after 3 instructions\n");
  return 0;
}

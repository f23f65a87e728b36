// ptovp: the PTO virtual platform's command-line tool. The tool is sc_main,
// entered through the SystemC kernel's sc_elab_and_sim as every SystemC
// program is; main() only turns off the kernel's banner first.
#include <CLI/CLI.hpp>
#include <cstdlib>
#include <iostream>
#include <new>
#include <systemc>

#include "cli/commands.hpp"

int sc_main(int argc, char** argv) {
  CLI::App app{"ptovp: SystemC/TLM-2.0 virtual platform of the PTO ISA matrix path"};
  app.set_version_flag("--version", "ptovp " PTOVP_VERSION
                                   " (PTO ISA: executable spec e599a3d3 with the 0.58.5 contract)");
  app.require_subcommand(1);
  int exit_status = ptovp::cli::kExitOk;
  ptovp::cli::add_vectors_command(app, exit_status);
  ptovp::cli::add_asm_command(app, exit_status);
  ptovp::cli::add_dis_command(app, exit_status);
  ptovp::cli::add_run_command(app, exit_status);
  ptovp::cli::add_conform_command(app, exit_status);
  // Nothing escapes to the SystemC kernel's report handler (which would
  // exit 1 with a kernel message): every failure here is bad input, exit 2.
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    const int status = app.exit(error);
    return status == 0 ? 0 : ptovp::cli::kExitUsage;
  } catch (const std::bad_alloc&) {
    std::cerr << "ptovp: out of memory (an input asks for more than the host has)\n";
    return ptovp::cli::kExitUsage;
  } catch (const std::exception& error) {
    std::cerr << "ptovp: " << error.what() << "\n";
    return ptovp::cli::kExitUsage;
  }
  return exit_status;
}

int main(int argc, char** argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}

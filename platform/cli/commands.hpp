// Subcommands of the ptovp tool. Each add_*_command registers its options and
// a callback that sets the process exit status.
#pragma once

namespace CLI {
class App;
}

namespace ptovp::cli {

// Exit statuses shared by every subcommand.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;        // a check failed (mismatching vector, failing case)
inline constexpr int kExitUsage = 2;          // bad input: options, files, configuration
inline constexpr int kExitTrap = 100;         // run: a trap other than EBREAK halted the firmware
inline constexpr int kExitLimit = 101;        // run: --max-instructions stopped the firmware
inline constexpr int kExitDiverged = 102;     // run: fpatr.backend=checked found a difference
inline constexpr int kExitInterrupted = 130;  // run: SIGINT/SIGTERM stopped it (128 + SIGINT)

void add_vectors_command(CLI::App& app, int& exit_status);
void add_asm_command(CLI::App& app, int& exit_status);
void add_dis_command(CLI::App& app, int& exit_status);
void add_run_command(CLI::App& app, int& exit_status);
void add_conform_command(CLI::App& app, int& exit_status);

}  // namespace ptovp::cli

// `ptovp dis IMAGE [--start ADDR] [--count N]`: disassembles an ELF64 or raw image.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "isa/decoder.hpp"
#include "isa/disassembler.hpp"

namespace ptovp::cli {
namespace {

struct DisOptions {
  std::string image;
  std::optional<std::string> start;
  std::optional<std::string> count;
};

int run_dis(const DisOptions& options) {
  try {
    std::optional<std::uint64_t> start;
    std::optional<std::uint64_t> count;
    if (options.start) {
      start = parse_unsigned(*options.start, "--start");
      // Instructions are whole 16-bit parcels and start on even addresses.
      if (*start % 2 != 0)
        throw UsageError(
            fmt::format("--start: 0x{:x} is odd; instructions start at even "
                        "addresses",
                        *start));
    }
    if (options.count) count = parse_unsigned(*options.count, "--count");
    const isa::ProgramImage image = isa::load_program_image(options.image);
    const auto error =
        isa::write_disassembly(std::cout, image, isa::Decoder::for_release(), start, count);
    if (error) {
      std::cerr << options.image << ": " << *error << "\n";
      return kExitUsage;
    }
    return kExitOk;
  } catch (const isa::ImageError& error) {
    std::cerr << error.what() << "\n";
    return kExitUsage;
  } catch (const UsageError& error) {
    std::cerr << "ptovp dis: " << error.what() << "\n";
    return kExitUsage;
  }
}

}  // namespace

void add_dis_command(CLI::App& app, int& exit_status) {
  auto options = std::make_shared<DisOptions>();
  auto* command = app.add_subcommand("dis", "Disassemble an ELF64 or raw PTO image");
  command->add_option("image", options->image, "Image file (ELF64, else raw from address 0)")
      ->required()
      ->check(file_path_validator());
  command->add_option("--start", options->start, "First address to disassemble (0x... accepted)");
  command->add_option("--count", options->count, "Number of instructions");
  command->callback([options, &exit_status] { exit_status = run_dis(*options); });
}

}  // namespace ptovp::cli

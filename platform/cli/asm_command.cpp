// `ptovp asm SOURCE... -o IMAGE [--format bin|elf] [--listing FILE]`.
// The image and the listing are written together or not at all
// (cli/output_file.hpp): exit 2 leaves no new, partial or truncated file.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "cli/output_file.hpp"
#include "isa/assembler.hpp"
#include "isa/elf_writer.hpp"

namespace ptovp::cli {
namespace {

struct AsmOptions {
  std::vector<std::string> sources;
  std::string output;
  std::string format = "elf";
  std::string listing;
};

std::string listing_text(const isa::AssemblyResult& result) {
  std::string text;
  for (const isa::ListingLine& line : result.listing) {
    std::string raw;
    for (std::uint8_t byte : line.bytes)
      raw += fmt::format("{:02x}", byte);
    if (raw.size() > 16) raw = raw.substr(0, 14) + "..";
    text += fmt::format("{:08x}  {:<16}  {}\n", line.address, raw, line.source);
  }
  return text;
}

int run_asm(const AsmOptions& options) {
  const isa::AssemblyResult result = isa::Assembler().assemble(options.sources);
  for (const isa::AssemblyDiagnostic& diagnostic : result.diagnostics)
    std::cerr << diagnostic.format();
  if (!result.ok()) {
    std::cerr << fmt::format("{} error{}; no image written\n", result.diagnostics.size(),
                             result.diagnostics.size() == 1 ? "" : "s");
    return kExitUsage;
  }
  const auto bytes =
      options.format == "bin" ? result.image.flat_binary() : isa::write_elf(result.image);
  try {
    OutputSet outputs;
    outputs.reserve(options.output);
    if (!options.listing.empty()) outputs.reserve(options.listing);
    outputs.stream(options.output)
        .write(reinterpret_cast<const char*>(bytes.data()),
               static_cast<std::streamsize>(bytes.size()));
    if (!options.listing.empty()) outputs.write(options.listing, listing_text(result));
    if (auto error = outputs.commit()) throw std::runtime_error(*error);
  } catch (const std::runtime_error& error) {
    std::cerr << "ptovp asm: " << error.what() << "; no image written\n";
    return kExitUsage;
  }
  return kExitOk;
}

}  // namespace

void add_asm_command(CLI::App& app, int& exit_status) {
  auto options = std::make_shared<AsmOptions>();
  auto* command = app.add_subcommand("asm", "Assemble PTO assembly into a raw or ELF64 image");
  command->add_option("sources", options->sources, "Assembly files, assembled as one program")
      ->required()
      ->check(file_path_validator());
  command->add_option("-o,--output", options->output, "Image file to write")
      ->required()
      ->check(file_path_validator());
  command->add_option("--format", options->format, "Image format")
      ->check(CLI::IsMember({"bin", "elf"}))
      ->capture_default_str();
  command->add_option("--listing", options->listing, "Write an address/bytes/source listing")
      ->check(file_path_validator());
  command->callback([options, &exit_status] { exit_status = run_asm(*options); });
}

}  // namespace ptovp::cli

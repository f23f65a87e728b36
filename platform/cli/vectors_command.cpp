// `ptovp vectors FILE...`: checks conformance vectors against the numeric core
// and the decoder.
#include <CLI/CLI.hpp>
#include <iostream>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "vectors/vector_checker.hpp"

namespace ptovp::cli {
namespace {

vectors::VectorKindRegistry all_vector_kinds() {
  vectors::VectorKindRegistry registry;
  vectors::register_numeric_kinds(registry);
  vectors::register_dot_kinds(registry);
  vectors::register_decode_kinds(registry);
  return registry;
}

}  // namespace

void add_vectors_command(CLI::App& app, int& exit_status) {
  auto* command = app.add_subcommand(
      "vectors", "Check conformance vectors (format 1) against the numeric core and decoder");
  auto files = std::make_shared<std::vector<std::string>>();
  auto max_reported = std::make_shared<std::size_t>(20);
  command->add_option("files", *files, "Vector files (*.vec)")
      ->required()
      ->check(CLI::ExistingFile);
  command->add_option("--max-reported", *max_reported, "Mismatches printed in full")
      ->capture_default_str();
  command->callback([files, max_reported, &exit_status] {
    const vectors::VectorKindRegistry kinds = all_vector_kinds();
    vectors::VectorChecker checker(kinds, std::cout, *max_reported);
    for (const std::string& file : *files)
      checker.check_file(file);
    checker.print_summary();
    exit_status = checker.all_passed() ? kExitOk : kExitFailure;
  });
}

}  // namespace ptovp::cli

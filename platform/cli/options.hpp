// Option values shared by the subcommands: strictly parsed numbers and file
// paths that cannot be mistaken for the next option.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include <CLI/CLI.hpp>

namespace ptovp::cli {

// A bad command line or input file: its message, exit kExitUsage.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// An unsigned 64-bit number in decimal, 0x hex or 0 octal, the whole text and
// nothing else: no sign, no blanks, no value above 2^64-1. Throws UsageError
// naming `what`.
std::uint64_t parse_unsigned(const std::string& text, const std::string& what);

// Rejects a file name that looks like an option (`--stats --quiet` must not
// write a file named "--quiet").
CLI::Validator file_path_validator();

}  // namespace ptovp::cli

// A loadable program: sections at addresses, symbols and an entry point. Read
// from an ELF64 little-endian executable or a raw binary (loaded at address 0);
// written by elf_writer.hpp. The platform loader reuses load_program_image().
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

namespace ptovp::isa {

// A malformed or unreadable image; what() names the file and the problem.
class ImageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ImageSection {
  std::string name;
  std::uint64_t address = 0;
  std::vector<std::uint8_t> bytes;
  bool executable = false;
  bool writable = false;
};

struct ImageSymbol {
  std::string name;
  std::uint64_t value = 0;
  bool global = false;
  std::string section;  // empty for an absolute symbol (.equ)
};

class ProgramImage {
 public:
  std::vector<ImageSection> sections;
  std::vector<ImageSymbol> symbols;
  std::uint64_t entry = 0;

  // The name of a section symbol at exactly this address (globals first).
  std::optional<std::string> symbol_at(std::uint64_t address) const;
  // symbol_at() for every labelled address at once, for lookups per
  // instruction (a listing of many symbols stays linear).
  std::unordered_map<std::uint64_t, std::string> symbol_names() const;
  // Copies n bytes at address; false when any byte lies outside every section.
  bool read(std::uint64_t address, std::size_t n, std::uint8_t* out) const;
  // The sections as one flat binary from address 0, gaps filled with zero.
  std::vector<std::uint8_t> flat_binary() const;
};

enum class ImageFormat { Raw, Elf };

// ELF when the bytes start with the ELF magic, else raw.
ImageFormat detect_image_format(const std::vector<std::uint8_t>& bytes);
// Parses an image; `name` is used in error messages.
ProgramImage parse_program_image(const std::vector<std::uint8_t>& bytes, const std::string& name);
// Reads and parses a file.
ProgramImage load_program_image(const std::string& path);

}  // namespace ptovp::isa

// One block-level conformance case (tests/vectors/blocks/BLOCKS.md, format 1):
// a straight-line PTO program, its initial memory, and the outcome the
// executable spec produced. load_block_case checks every field and names the
// file and the field in each error.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "arch/fault.hpp"

namespace ptovp::conform {

// The program sits below the data window; expect.memory covers the window.
inline constexpr std::uint64_t kDataWindowBegin = 0x400;
inline constexpr std::uint64_t kDataWindowEnd = 0x1000;

// A malformed case: "FILE: FIELD: what is wrong".
struct CaseError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct CaseWord {
  unsigned length_bits = 0;  // 16, 32, 48 or 64
  std::uint64_t value = 0;   // bit 0 in the first parcel
};

struct MemoryBytes {
  std::uint64_t address = 0;
  std::vector<std::uint8_t> bytes;
};

struct ExpectedFault {
  arch::FaultCode code = arch::FaultCode::None;
  unsigned trap = 0;
  std::uint64_t pc = 0;
  std::size_t index = 0;  // the faulting word's position in `words`
};

struct Region {
  std::string name;
  std::uint64_t address = 0;
  std::uint64_t bytes = 0;
};

struct BlockCase {
  std::string path;
  std::string id;
  std::string summary;
  std::string profile;  // the numeric profile name
  std::string spec;     // the spec commit the expectation came from
  std::vector<CaseWord> words;
  std::vector<MemoryBytes> memory_init;
  std::optional<ExpectedFault> fault;
  std::vector<MemoryBytes> expected_memory;
  std::vector<Region> regions;  // by address
  std::vector<std::string> assembly;

  // The address of words[index] when the program sits at 0 (index may be
  // words.size(): the end of the program).
  std::uint64_t word_address(std::size_t index) const;
  // The region holding `address`, if any.
  const Region* region_at(std::uint64_t address) const;
};

// Throws CaseError; `path` names the document in messages.
BlockCase parse_block_case(const nlohmann::json& document, const std::string& path);
BlockCase load_block_case(const std::string& path);

}  // namespace ptovp::conform

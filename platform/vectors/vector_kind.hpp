// Conformance-vector kinds: how one `KIND inputs -> outputs` line is computed.
// Each kind family registers its handlers; the checker parses, dispatches and
// compares (shared/vectors FORMAT.md, format 1).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "numeric/data_type.hpp"

namespace ptovp::vectors {

// A malformed line: a missing, unknown or unparsable key.
class MalformedVector : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The input side of one vector line, with typed accessors that throw
// MalformedVector naming the key.
class VectorInputs {
 public:
  explicit VectorInputs(std::map<std::string, std::string> values) : values_(std::move(values)) {}

  const std::string& text(std::string_view key) const;
  std::uint64_t u64(std::string_view key) const;  // 0x... or non-negative decimal
  std::int64_t i64(std::string_view key) const;   // decimal with optional '-', or 0x...
  bool boolean(std::string_view key) const;       // 0 or 1
  bool is_dash(std::string_view key) const;       // the value is "-"
  numeric::DataType data_type(std::string_view key) const;
  std::vector<std::uint64_t> list(std::string_view key) const;  // comma-separated; "-" is empty

 private:
  std::map<std::string, std::string> values_;
};

// Computed outputs in line order: key and canonical text (hex 0x... or decimal).
using VectorOutputs = std::vector<std::pair<std::string, std::string>>;

// The values an integer output can take: `bits` wide, raw (0..2^bits-1) or
// signed decimal (-2^(bits-1)..2^(bits-1)-1). An expected value outside it can
// never be computed, so the line is malformed rather than a mismatch.
struct OutputRange {
  unsigned bits = 64;
  bool is_signed = false;
};

struct VectorKind {
  std::string name;
  std::vector<std::string> input_keys;   // every one required, no others allowed
  std::vector<std::string> output_keys;  // required outputs; empty: the kind checks its own
  std::function<VectorOutputs(const VectorInputs&)> compute;
  // The range of each output for these inputs; empty: outputs are not checked.
  std::function<OutputRange(const VectorInputs&, std::string_view key)> output_range;
};

using VectorKindRegistry = std::map<std::string, VectorKind, std::less<>>;

// Kind families; each lives beside the module it exercises.
void register_numeric_kinds(
    VectorKindRegistry& registry);  // post fenc ienc affine rss shift e8m0 redstep
void register_dot_kinds(VectorKindRegistry& registry);     // dot
void register_decode_kinds(VectorKindRegistry& registry);  // decode

// Formats a raw value the way expected outputs are compared: as an integer.
std::string hex(std::uint64_t value);

}  // namespace ptovp::vectors

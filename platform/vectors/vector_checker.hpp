// Checks conformance-vector files (shared/vectors FORMAT.md, format 1) against
// the registered kinds and reports pass/fail counts per kind.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <map>
#include <string>

#include "vectors/vector_kind.hpp"

namespace ptovp::vectors {

struct KindTally {
  std::size_t passed = 0;
  std::size_t failed = 0;
};

class VectorChecker {
 public:
  // Mismatches beyond `max_reported` are counted but not printed.
  VectorChecker(const VectorKindRegistry& kinds, std::ostream& report,
                std::size_t max_reported = 20);

  // Returns false when the file cannot be read (reported as malformed).
  bool check_file(const std::string& path);
  void check_stream(std::istream& input, const std::string& source_name);

  const std::map<std::string, KindTally>& tallies() const { return tallies_; }
  std::size_t malformed() const { return malformed_; }
  std::size_t passed() const;
  std::size_t failed() const;
  bool all_passed() const { return failed() == 0 && malformed_ == 0; }

  // Per-kind lines and the closing "N passed, M failed" line.
  void print_summary() const;

 private:
  void check_line(const std::string& line, const std::string& where);

  const VectorKindRegistry& kinds_;
  std::ostream& report_;
  std::size_t max_reported_;
  std::size_t reported_ = 0;
  std::size_t malformed_ = 0;
  std::map<std::string, KindTally> tallies_;
};

}  // namespace ptovp::vectors

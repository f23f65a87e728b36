// The files a `ptovp run` writes (--trace, --stats, --vcd, --dump-state,
// --dump). Every path is checked before the run starts, and a failure while
// writing removes what this run already wrote, so bad input or an
// unwritable path never leaves partial output behind.
#pragma once

#include <string>
#include <vector>

namespace ptovp::cli {

class RunOutputs {
 public:
  // Checks that `path` can be written without changing it; throws
  // std::runtime_error naming it otherwise.
  void reserve(const std::string& path);
  // Writes `text` to `path`; on failure removes every file written so far
  // and throws std::runtime_error.
  void write(const std::string& path, const std::string& text);

 private:
  std::vector<std::string> written_;
};

}  // namespace ptovp::cli

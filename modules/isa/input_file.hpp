// Reading a whole input file (source, image, configuration, case, vectors)
// with errors that name the path: a directory, a missing file or a failed
// read is an InputFileError, never a stream state or a library exception.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>

namespace ptovp::isa {

class InputFileError : public std::runtime_error {
 public:
  InputFileError(const std::string& path, std::string reason)
      : std::runtime_error(path + ": " + reason), reason_(std::move(reason)) {}
  // Why, without the path.
  const std::string& reason() const { return reason_; }

 private:
  std::string reason_;
};

// The bytes of `path` (a regular file, a device or a pipe). Throws
// InputFileError "PATH: <reason>".
std::string read_input_file(const std::string& path);

}  // namespace ptovp::isa

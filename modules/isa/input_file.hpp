// Reading a whole input file (source, image, configuration, case, vectors)
// with errors that name the path: a directory, a missing file or a failed
// read is an InputFileError, never a stream state or a library exception.
#pragma once

#include <cstdint>
#include <functional>
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

// Reads `path` straight into the `size` bytes that `place(size)` returns, so
// that a loader copies a large file once, into the target's memory. A
// regular file's size is its length when opened (a file that shrinks while
// being read is an error); any other input is read whole first. `place` is
// called once and may throw; its exception leaves the file unread. With two
// `readers` a large regular file is read in two halves at once, the first on
// a thread of its own, both done when this returns; `start_reader`, when
// set, runs first on that thread (host.pin_threads pins it there).
void read_input_file(const std::string& path,
                     const std::function<std::uint8_t*(std::uint64_t size)>& place,
                     unsigned readers = 1, const std::function<void()>& start_reader = {});

}  // namespace ptovp::isa

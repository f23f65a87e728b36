// Output files written whole or not at all. Each file is written to a
// temporary file in its own folder and renamed over the target only when
// every byte reached the disk, so a failed run (a full disk, an unwritable
// folder, bad input found late) never deletes or truncates a file it did not
// finish. A target that exists and is not a regular file (/dev/stdout, a
// FIFO, /dev/full) is written in place and never removed.
#pragma once

#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ptovp::cli {

class OutputFile {
 public:
  // Opens the temporary file beside `path`; throws std::runtime_error naming
  // `path` when it cannot be created.
  explicit OutputFile(std::string path);
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  // Removes the temporary file unless commit() renamed it.
  ~OutputFile();

  const std::string& path() const { return path_; }
  std::ostream& stream() { return stream_; }
  // Flushes and closes the temporary file; throws std::runtime_error naming
  // `path` (and removes the temporary file) when a write failed.
  void finish();
  // Renames the finished temporary file over `path`; throws on failure.
  void commit();

 private:
  std::string path_;
  std::string temporary_;  // empty when writing the target in place
  std::ofstream stream_;
  bool finished_ = false;
};

// The output files of one command, committed together: each is created
// (as its temporary file) before the work starts, so an unwritable path is
// found first; commit() finishes every file and only then renames them all.
// Files not committed are removed with the set.
class OutputSet {
 public:
  // Creates the temporary file of `path`; throws std::runtime_error naming
  // `path` when it cannot be created or another output already names it.
  void reserve(const std::string& path);
  // The stream of a reserved output.
  std::ostream& stream(const std::string& path);
  // Writes `text` to a reserved output.
  void write(const std::string& path, const std::string& text) { stream(path) << text; }
  // Returns the error naming the file that could not be written, instead of
  // throwing: after a SystemC run an exception would cross the kernel's
  // stack switch, which AddressSanitizer reports as a false overflow.
  std::optional<std::string> commit();

 private:
  std::vector<std::unique_ptr<OutputFile>> files_;
};

}  // namespace ptovp::cli

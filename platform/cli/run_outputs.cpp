#include "cli/run_outputs.hpp"

#include <cstdio>
#include <fstream>
#include <stdexcept>

#include <fmt/format.h>

namespace ptovp::cli {

void RunOutputs::reserve(const std::string& path) {
  const bool existed = static_cast<bool>(std::ifstream(path));
  // Append mode opens for writing without truncating an existing file.
  const bool writable = static_cast<bool>(std::ofstream(path, std::ios::app));
  if (!existed && writable) std::remove(path.c_str());
  if (!writable) throw std::runtime_error(fmt::format("{}: cannot write the file", path));
}

void RunOutputs::write(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  if (!out) {
    std::remove(path.c_str());
    for (const std::string& done : written_)
      std::remove(done.c_str());
    written_.clear();
    throw std::runtime_error(fmt::format("{}: cannot write the file", path));
  }
  written_.push_back(path);
}

}  // namespace ptovp::cli

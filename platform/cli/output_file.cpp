#include "cli/output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

namespace ptovp::cli {

namespace {

// `error` 0: the stream failed before the last system call.
std::runtime_error write_error(const std::string& path, int error) {
  if (error == 0) return std::runtime_error(fmt::format("{}: cannot write the file", path));
  return std::runtime_error(
      fmt::format("{}: cannot write the file ({})", path, std::strerror(error)));
}

// The mode a new file gets from open(2): 0666 less the umask.
mode_t default_mode() {
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return 0666 & ~mask;
}

}  // namespace

OutputFile::OutputFile(std::string path) : path_(std::move(path)) {
  struct stat target {};
  const bool exists = ::stat(path_.c_str(), &target) == 0;
  if (exists && S_ISDIR(target.st_mode))
    throw std::runtime_error(fmt::format("{}: is a directory", path_));
  if (exists && !S_ISREG(target.st_mode)) {
    stream_.open(path_, std::ios::binary);
    if (!stream_) throw write_error(path_, errno);
    return;
  }
  const std::size_t slash = path_.rfind('/');
  const std::string folder = slash == std::string::npos ? "" : path_.substr(0, slash + 1);
  const std::string name = slash == std::string::npos ? path_ : path_.substr(slash + 1);
  std::string pattern = folder + "." + name + ".XXXXXX";
  const int fd = ::mkstemp(pattern.data());
  if (fd < 0) throw write_error(path_, errno);
  ::fchmod(fd, exists ? (target.st_mode & 07777) : default_mode());
  ::close(fd);
  temporary_ = pattern;
  stream_.open(temporary_, std::ios::binary | std::ios::trunc);
  if (!stream_) {
    const int error = errno;
    std::remove(temporary_.c_str());
    throw write_error(path_, error);
  }
}

OutputFile::~OutputFile() {
  if (!temporary_.empty()) std::remove(temporary_.c_str());
}

void OutputFile::finish() {
  if (finished_) return;
  errno = 0;
  stream_.close();
  if (!stream_) {
    const int error = errno;
    if (!temporary_.empty()) std::remove(temporary_.c_str());
    temporary_.clear();
    throw write_error(path_, error);
  }
  finished_ = true;
}

void OutputFile::commit() {
  finish();
  if (temporary_.empty()) return;
  if (std::rename(temporary_.c_str(), path_.c_str()) != 0) throw write_error(path_, errno);
  temporary_.clear();
}

void OutputSet::reserve(const std::string& path) {
  for (const auto& file : files_) {
    if (file->path() == path)
      throw std::runtime_error(fmt::format("{}: named by two outputs", path));
  }
  files_.push_back(std::make_unique<OutputFile>(path));
}

std::ostream& OutputSet::stream(const std::string& path) {
  for (const auto& file : files_) {
    if (file->path() == path) return file->stream();
  }
  throw std::logic_error(fmt::format("{}: not a reserved output", path));
}

std::optional<std::string> OutputSet::commit() {
  try {
    for (const auto& file : files_)
      file->finish();
    for (const auto& file : files_)
      file->commit();
  } catch (const std::runtime_error& error) {
    files_.clear();
    return error.what();
  }
  files_.clear();
  return std::nullopt;
}

}  // namespace ptovp::cli

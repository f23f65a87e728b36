#include "isa/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>

#include <fmt/format.h>

namespace ptovp::isa {

namespace {

InputFileError cannot_read(const std::string& path, int error) {
  return {path, fmt::format("cannot read the file ({})", std::strerror(error))};
}

// Closes the descriptor on every path out of read_input_file.
struct Descriptor {
  int fd;
  ~Descriptor() { ::close(fd); }
};

}  // namespace

std::string read_input_file(const std::string& path) {
  const Descriptor file{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
  if (file.fd < 0) throw cannot_read(path, errno);
  struct stat status {};
  if (::fstat(file.fd, &status) != 0) throw cannot_read(path, errno);
  if (S_ISDIR(status.st_mode)) throw InputFileError(path, "is a directory, not a file");
  std::string bytes;
  try {
    if (S_ISREG(status.st_mode)) bytes.reserve(static_cast<std::size_t>(status.st_size));
    std::array<char, 65536> chunk{};
    for (;;) {
      const ssize_t n = ::read(file.fd, chunk.data(), chunk.size());
      if (n == 0) return bytes;
      if (n < 0) {
        if (errno == EINTR) continue;
        throw cannot_read(path, errno);
      }
      bytes.append(chunk.data(), static_cast<std::size_t>(n));
    }
  } catch (const std::bad_alloc&) {
    throw InputFileError(path, "does not fit in the host's memory");
  }
}

}  // namespace ptovp::isa

#include "isa/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <exception>
#include <thread>

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

// Appends everything left in `fd` to `bytes`.
void read_to_end(const std::string& path, int fd, std::string& bytes) {
  std::array<char, 65536> chunk{};
  for (;;) {
    const ssize_t n = ::read(fd, chunk.data(), chunk.size());
    if (n == 0) return;
    if (n < 0) {
      if (errno == EINTR) continue;
      throw cannot_read(path, errno);
    }
    bytes.append(chunk.data(), static_cast<std::size_t>(n));
  }
}

// Fills exactly `size` bytes at `out` from `fd` at `offset` (pread: the
// parts of a split read share the descriptor).
void read_exactly(const std::string& path, int fd, std::uint64_t offset, std::uint8_t* out,
                  std::uint64_t size) {
  std::uint64_t done = 0;
  while (done < size) {
    const ssize_t n = ::pread(
        fd, out + done,
        static_cast<std::size_t>(std::min<std::uint64_t>(size - done, std::uint64_t{1} << 30)),
        static_cast<off_t>(offset + done));
    if (n == 0) throw InputFileError(path, "became shorter while it was being read");
    if (n < 0) {
      if (errno == EINTR) continue;
      throw cannot_read(path, errno);
    }
    done += static_cast<std::uint64_t>(n);
  }
}

// Below this a second reader costs more (a thread) than it saves.
constexpr std::uint64_t kSplitBytes = std::uint64_t{1} << 20;

// read_exactly with the first half on a helper thread, which runs
// `start_reader` first: the host copies and zero-fills the destination's
// pages on two cores.
void read_split(const std::string& path, int fd, std::uint8_t* out, std::uint64_t size,
                const std::function<void()>& start_reader) {
  const std::uint64_t half = size / 2;
  std::exception_ptr failed;
  std::thread helper([&] {
    try {
      if (start_reader) start_reader();
      read_exactly(path, fd, 0, out, half);
    } catch (...) {
      failed = std::current_exception();
    }
  });
  try {
    read_exactly(path, fd, half, out + half, size - half);
  } catch (...) {
    helper.join();
    throw;
  }
  helper.join();
  if (failed) std::rethrow_exception(failed);
}

}  // namespace

void read_input_file(const std::string& path,
                     const std::function<std::uint8_t*(std::uint64_t size)>& place,
                     unsigned readers, const std::function<void()>& start_reader) {
  const Descriptor file{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
  if (file.fd < 0) throw cannot_read(path, errno);
  struct stat status {};
  if (::fstat(file.fd, &status) != 0) throw cannot_read(path, errno);
  if (S_ISDIR(status.st_mode)) throw InputFileError(path, "is a directory, not a file");
  try {
    // Some regular files (under /proc) report no length; those stream too.
    if (S_ISREG(status.st_mode) && status.st_size > 0) {
      const auto size = static_cast<std::uint64_t>(status.st_size);
      std::uint8_t* out = place(size);
      if (readers >= 2 && size >= kSplitBytes) {
        read_split(path, file.fd, out, size, start_reader);
      } else {
        read_exactly(path, file.fd, 0, out, size);
      }
      return;
    }
    std::string bytes;
    read_to_end(path, file.fd, bytes);
    std::uint8_t* out = place(bytes.size());
    std::copy(bytes.begin(), bytes.end(), out);
  } catch (const std::bad_alloc&) {
    throw InputFileError(path, "does not fit in the host's memory");
  }
}

std::string read_input_file(const std::string& path) {
  std::string bytes;
  read_input_file(path, [&bytes](std::uint64_t size) {
    bytes.resize(static_cast<std::size_t>(size));
    return reinterpret_cast<std::uint8_t*>(bytes.data());
  });
  return bytes;
}

}  // namespace ptovp::isa

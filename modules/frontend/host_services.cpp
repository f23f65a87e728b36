#include "frontend/host_services.hpp"

#include <string>
#include <tuple>

namespace ptovp::frontend {

namespace {

constexpr std::uint64_t kWrite = 64;
constexpr std::uint64_t kExit = 93;
constexpr std::uint64_t kExitGroup = 94;
constexpr std::int64_t kEbadf = 9;
constexpr std::int64_t kEfault = 14;
constexpr std::int64_t kEnosys = 38;

}  // namespace

std::optional<int> HostServices::call() {
  const std::uint64_t service = state_.gpr(0, kServiceNumberRegister);
  const std::uint64_t a0 = state_.gpr(0, kArgumentRegister);
  std::int64_t result = -kEnosys;
  switch (service) {
    case kExit:
    case kExitGroup: return static_cast<int>(a0 & 0xFF);
    case kWrite:
      result =
          write(a0, state_.gpr(0, kArgumentRegister + 1), state_.gpr(0, kArgumentRegister + 2));
      break;
    default: break;
  }
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe)
    state_.set_gpr(pe, kArgumentRegister, static_cast<std::uint64_t>(result));
  return std::nullopt;
}

std::int64_t HostServices::write(std::uint64_t fd, std::uint64_t buffer, std::uint64_t length) {
  if (fd != 1 && fd != 2) return -kEbadf;
  if (length == 0) return 0;
  if (!memory_.contains(buffer, length)) return -kEfault;
  std::string bytes(length, '\0');
  std::ignore = memory_.read(buffer, reinterpret_cast<std::uint8_t*>(bytes.data()), length);
  std::ostream& stream = fd == 1 ? out_ : err_;
  stream.write(bytes.data(), static_cast<std::streamsize>(length));
  stream.flush();
  return static_cast<std::int64_t>(length);
}

}  // namespace ptovp::frontend

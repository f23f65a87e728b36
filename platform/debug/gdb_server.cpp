#include "debug/gdb_server.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <fmt/format.h>

#include <array>
#include <cstring>
#include <stdexcept>

#include "debug/tile_text.hpp"
#include "engine/block_text.hpp"
#include "engine/fault_report.hpp"

namespace ptovp::debug {

namespace {

using frontend::HaltKind;

// The remote register numbers: RISC-V's 32 x-slots and pc, then x0..x3,
// then the block feature. kRiscvSlot[n] is the PTO GPR in slot n, or -1.
constexpr std::array<int, 32> kRiscvSlot{0,  10, 1,  -1, -1, -1, -1, -1, 11, 12, 2,
                                         3,  4,  5,  6,  7,  8,  9,  13, 14, 15, 16,
                                         17, 18, 19, -1, -1, -1, -1, -1, -1, -1};
constexpr std::array<const char*, 32> kRiscvNames{
    "zero", "ra", "sp", "gp", "tp",  "t0",  "t1", "t2", "s0", "s1", "a0",
    "a1",   "a2", "a3", "a4", "a5",  "a6",  "a7", "s2", "s3", "s4", "s5",
    "s6",   "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6"};
constexpr unsigned kPcRegister = 32;
constexpr unsigned kExtraFirst = 33;  // x0..x3 = R20..R23
constexpr unsigned kBlockFirst = 37;  // tq1..tq4, uq1..uq4, bpc, bstate, cycle
constexpr std::array<const char*, 11> kBlockNames{"tq1", "tq2", "tq3", "tq4",    "uq1",  "uq2",
                                                  "uq3", "uq4", "bpc", "bstate", "cycle"};
constexpr unsigned kRegisterCount = kBlockFirst + kBlockNames.size();
// Attempts between two looks at the socket for the client's interrupt.
constexpr std::uint64_t kPollInterval = 4096;

std::string target_xml() {
  std::string xml =
      "<?xml version=\"1.0\"?>\n<!DOCTYPE target SYSTEM \"gdb-target.dtd\">\n"
      "<target version=\"1.0\">\n<architecture>riscv:rv64</architecture>\n"
      "<osabi>none</osabi>\n<feature name=\"org.gnu.gdb.riscv.cpu\">\n";
  for (unsigned slot = 0; slot < kRiscvSlot.size(); ++slot) {
    const int gpr = kRiscvSlot[slot];
    xml += fmt::format("<reg name=\"{}\" bitsize=\"64\" regnum=\"{}\"{}{}/>\n", kRiscvNames[slot],
                       slot, gpr >= 0 ? fmt::format(" altname=\"r{}\" group=\"pto\"", gpr) : "",
                       slot == 2   ? " generic=\"sp\""
                       : slot == 1 ? " generic=\"ra\""
                                   : "");
  }
  xml +=
      "<reg name=\"pc\" bitsize=\"64\" regnum=\"32\" type=\"code_ptr\" generic=\"pc\" "
      "group=\"pto\"/>\n</feature>\n<feature name=\"org.pto.extra\">\n";
  for (unsigned i = 0; i < 4; ++i) {
    xml += fmt::format(
        "<reg name=\"x{}\" bitsize=\"64\" regnum=\"{}\" altname=\"r{}\" group=\"pto\"/>\n", i,
        kExtraFirst + i, 20 + i);
  }
  xml += "</feature>\n<feature name=\"org.pto.block\">\n";
  for (unsigned i = 0; i < kBlockNames.size(); ++i) {
    xml += fmt::format("<reg name=\"{}\" bitsize=\"64\" regnum=\"{}\" group=\"pto.block\"/>\n",
                       kBlockNames[i], kBlockFirst + i);
  }
  return xml + "</feature>\n</target>\n";
}

std::string hex_bytes(const std::uint8_t* bytes, std::size_t length) {
  std::string text;
  for (std::size_t i = 0; i < length; ++i)
    text += fmt::format("{:02x}", bytes[i]);
  return text;
}

std::string hex_text(const std::string& text) {
  return hex_bytes(reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
}

std::optional<std::vector<std::uint8_t>> unhex(const std::string& text) {
  if (text.size() % 2 != 0) return std::nullopt;
  std::vector<std::uint8_t> bytes;
  for (std::size_t i = 0; i < text.size(); i += 2) {
    try {
      std::size_t used = 0;
      bytes.push_back(static_cast<std::uint8_t>(std::stoul(text.substr(i, 2), &used, 16)));
      if (used != 2) return std::nullopt;
    } catch (const std::exception&) {
      return std::nullopt;
    }
  }
  return bytes;
}

std::optional<std::uint64_t> parse_hex(const std::string& text) {
  try {
    std::size_t used = 0;
    const std::uint64_t value = std::stoull(text, &used, 16);
    if (used == text.size()) return value;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

std::string register_hex(std::uint64_t value) {
  std::array<std::uint8_t, 8> bytes{};
  std::memcpy(bytes.data(), &value, 8);  // little endian host and target
  return hex_bytes(bytes.data(), 8);
}

// "ADDR,LEN" (and what follows ':' in `rest`).
std::optional<std::pair<std::uint64_t, std::uint64_t>> address_length(const std::string& text,
                                                                      std::string* rest = nullptr) {
  const auto comma = text.find(',');
  const auto colon = text.find(':');
  if (comma == std::string::npos) return std::nullopt;
  const auto address = parse_hex(text.substr(0, comma));
  const auto length = parse_hex(
      text.substr(comma + 1, colon == std::string::npos ? std::string::npos : colon - comma - 1));
  if (!address || !length) return std::nullopt;
  if (rest != nullptr) *rest = colon == std::string::npos ? "" : text.substr(colon + 1);
  return std::pair{*address, *length};
}

// The POSIX signal GDB shows for a fault.
unsigned signal_of(const frontend::Halt& halt) {
  if (halt.kind == HaltKind::Stall) return 6;  // SIGABRT: nothing can make it ready
  switch (halt.fault.code) {
    case arch::FaultCode::DataAlignment: return 7;  // SIGBUS
    case arch::FaultCode::InstructionPC:
    case arch::FaultCode::InstructionPage:
    case arch::FaultCode::DataPage: return 11;  // SIGSEGV
    case arch::FaultCode::Assert: return 6;     // SIGABRT
    default: return 4;                          // SIGILL
  }
}

bool overlaps(std::uint64_t a, std::uint64_t a_length, std::uint64_t b, std::uint64_t b_length) {
  return a < b + b_length && b < a + a_length;
}

// A run that ended paused before the instruction at TPC.
engine::RunResult paused(const arch::ArchState& state, frontend::PauseCause cause,
                             std::uint64_t instructions) {
  frontend::Halt halt;
  halt.kind = HaltKind::Paused;
  halt.pause = cause;
  halt.pc = state.pc;
  halt.block = state.block;
  halt.header = state.header;
  engine::RunResult result;
  result.halt = std::move(halt);
  result.instructions = instructions;
  return result;
}

}  // namespace

GdbServer::GdbServer(std::uint16_t port) {
  listen_fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
  const int on = 1;
  ::setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(port);
  socklen_t size = sizeof address;
  if (listen_fd_ < 0 || ::bind(listen_fd_, reinterpret_cast<sockaddr*>(&address), size) != 0 ||
      ::listen(listen_fd_, 1) != 0 ||
      ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&address), &size) != 0 ||
      ::pipe(wake_fd_) != 0) {
    const std::string reason = std::strerror(errno);
    if (listen_fd_ >= 0) ::close(listen_fd_);
    throw std::runtime_error(fmt::format("--gdb {}: cannot listen on localhost: {}", port, reason));
  }
  port_ = ntohs(address.sin_port);
  acceptor_ = std::thread([this] { accept_clients(); });
}

GdbServer::~GdbServer() {
  const char wake = 0;
  [[maybe_unused]] const auto written = ::write(wake_fd_[1], &wake, 1);
  acceptor_.join();
  end_session();
  if (const int pending = pending_client_.exchange(-1); pending >= 0) ::close(pending);
  for (const int fd : {listen_fd_, wake_fd_[0], wake_fd_[1]})
    ::close(fd);
}

// The accepting thread: hands a new client to the run and pauses it, so the
// client is served at the next instruction boundary.
void GdbServer::accept_clients() {
  for (;;) {
    std::array<pollfd, 2> fds{{{listen_fd_, POLLIN, 0}, {wake_fd_[0], POLLIN, 0}}};
    if (::poll(fds.data(), fds.size(), -1) < 0) {
      if (errno == EINTR) continue;
      return;
    }
    if (fds[1].revents != 0) return;
    if (pending_client_.load() >= 0 || (fds[0].revents & POLLIN) == 0) {
      ::usleep(10000);
      continue;
    }
    const int client = ::accept(listen_fd_, nullptr, nullptr);
    if (client < 0) continue;
    const int on = 1;
    ::setsockopt(client, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
    pending_client_.store(client);
    if (target_ != nullptr)
      target_->front_end.control().request_stop(frontend::PauseCause::Debugger);
  }
}

bool GdbServer::wait_for_client() {
  while (pending_client_.load() < 0) {
    if (target_->front_end.control().pending_stop() == frontend::PauseCause::Interrupt)
      return false;
    ::usleep(20000);
  }
  return true;
}

void GdbServer::begin_session() {
  client_ = pending_client_.exchange(-1);
  no_ack_ = false;
  enter_no_ack_ = false;
  buffer_.clear();
  pe_ = 0;
  last_stop_ = "T05thread:1;";
  target_->front_end.control().attach(*this);
  target_->observe_transfers(this);
}

void GdbServer::end_session() {
  if (client_ < 0) return;
  ::close(client_);
  client_ = -1;
  software_breakpoints_.clear();
  hardware_breakpoints_.clear();
  watchpoints_.clear();
  if (target_ != nullptr) {
    target_->front_end.control().detach(*this);
    target_->observe_transfers(nullptr);
  }
}

engine::RunResult GdbServer::run(Target& target, std::uint64_t max_instructions, bool wait) {
  target_ = &target;
  if (pending_client_.load() >= 0)
    target.front_end.control().request_stop(frontend::PauseCause::Debugger);
  std::uint64_t executed = 0;
  const auto paused_here = [&target, &executed](frontend::PauseCause cause) {
    return paused(target.state, cause, executed);
  };
  if (wait) {
    if (!wait_for_client()) {
      (void)target.front_end.control().take_stop_request();
      return paused_here(frontend::PauseCause::Interrupt);
    }
    begin_session();
    (void)target.front_end.control().take_stop_request();  // the attach, served already
  }
  for (;;) {
    if (client_ >= 0) {
      const Resume resume = serve();
      if (target.front_end.control().pending_stop() == frontend::PauseCause::Interrupt) {
        // SIGINT or SIGTERM while the client was talking to the stub.
        (void)target.front_end.control().take_stop_request();
        send_packet("X02");
        end_session();
        return paused_here(frontend::PauseCause::Interrupt);
      }
      switch (resume) {
        case Resume::Kill:
          killed_ = true;
          end_session();
          return paused_here(frontend::PauseCause::Debugger);
        case Resume::Detach:
          end_session();
          if (halted_) {
            return engine::RunResult{halted_, executed, std::nullopt};
          }
          break;
        case Resume::Continue:
        case Resume::Step: break;
      }
      if (halted_) {
        // The run has ended: the client learns how, then the session ends.
        send_packet(halted_->kind == HaltKind::Breakpoint || halted_->kind == HaltKind::HostExit
                        ? fmt::format("W{:02x}", halted_->exit_code & 0xFF)
                        : fmt::format("X{:02x}", signal_of(*halted_)));
        end_session();
        return engine::RunResult{halted_, executed, std::nullopt};
      }
    }
    std::uint64_t budget = 0;
    if (max_instructions != 0) {
      if (executed >= max_instructions) {
        halted_.reset();
        if (client_ >= 0) send_packet("X18");  // SIGXCPU: the instruction limit
        end_session();
        return engine::RunResult{std::nullopt, executed, std::nullopt};
      }
      budget = max_instructions - executed;
    }
    first_ = true;
    stop_ = StopReason::None;
    watch_hit_.reset();
    poll_countdown_ = kPollInterval;
    refresh_watch_values();
    const engine::RunResult part = target.run(budget);
    executed += part.instructions;
    if (!part.halt) {
      if (client_ < 0)
        return engine::RunResult{std::nullopt, executed, std::nullopt};  // the limit
      continue;  // the limit check above ends the session
    }
    if (part.halt->kind != HaltKind::Paused) {
      if (client_ < 0) {
        return engine::RunResult{part.halt, executed, std::nullopt};
      }
      halted_ = part.halt;
      if (halted_->kind == HaltKind::Trap || halted_->kind == HaltKind::Stall)
        send_console(engine::format_fault_report(*halted_));
      if (halted_->kind == HaltKind::Breakpoint || halted_->kind == HaltKind::HostExit) {
        send_packet(fmt::format("W{:02x}", halted_->exit_code & 0xFF));
        end_session();
        return engine::RunResult{halted_, executed, std::nullopt};
      }
      last_stop_ = halt_reply(*halted_);
      send_packet(last_stop_);
      continue;
    }
    switch (part.halt->pause) {
      case frontend::PauseCause::Interrupt:
        if (client_ >= 0) send_packet("X02");
        end_session();
        return engine::RunResult{part.halt, executed, std::nullopt};
      case frontend::PauseCause::Debugger:
        if (client_ < 0) {
          if (pending_client_.load() >= 0) begin_session();  // it asks '?' first
        } else {
          stop_ = StopReason::Interrupt;
          send_stop();
        }
        break;
      case frontend::PauseCause::Observer: send_stop(); break;
    }
  }
}

bool GdbServer::pause_before(std::uint64_t pc) {
  if (!first_) {
    if (stepping_) {
      stop_ = StopReason::Step;
      return true;
    }
    if (watch_hit_) {
      stop_ = StopReason::Watch;
      return true;
    }
    if (software_breakpoints_.count(pc) != 0 || hardware_breakpoints_.count(pc) != 0) {
      stop_ = StopReason::Breakpoint;
      return true;
    }
    if (--poll_countdown_ == 0) {
      poll_countdown_ = kPollInterval;
      if (client_interrupted()) {
        stop_ = StopReason::Interrupt;
        return true;
      }
    }
  }
  first_ = false;
  if (watchpoints_.empty()) return false;
  // Scalar loads and stores: by the addresses the instruction will access.
  if (const auto access = target_->front_end.data_access()) {
    for (const std::uint64_t address : access->address)
      check_watchpoints(address, access->size, access->store);
  }
  return false;
}

void GdbServer::accessed(std::uint64_t address, std::uint64_t length, bool store) {
  check_watchpoints(address, length, store);
}

void GdbServer::check_watchpoints(std::uint64_t address, std::uint64_t length, bool store) {
  for (std::size_t i = 0; i < watchpoints_.size() && !watch_hit_; ++i) {
    const Watchpoint& watch = watchpoints_[i];
    const bool wanted =
        watch.kind == WatchKind::Access || (watch.kind == WatchKind::Write) == store;
    if (wanted && overlaps(address, length, watch.address, watch.length)) watch_hit_ = i;
  }
}

void GdbServer::after(const frontend::Attempt&) {
  // Any other writer: by the watched bytes' change.
  for (std::size_t i = 0; i < watchpoints_.size(); ++i) {
    Watchpoint& watch = watchpoints_[i];
    if (watch.kind == WatchKind::Read) continue;
    std::vector<std::uint8_t> now(watch.length);
    if (target_->read_bytes(watch.address, now.data(), now.size())) continue;
    if (now != watch.value && !watch_hit_) watch_hit_ = i;
    watch.value = std::move(now);
  }
}

void GdbServer::refresh_watch_values() {
  for (Watchpoint& watch : watchpoints_) {
    watch.value.assign(watch.length, 0);
    (void)target_->read_bytes(watch.address, watch.value.data(), watch.length);
  }
}

bool GdbServer::client_interrupted() {
  char byte = 0;
  while (::recv(client_, &byte, 1, MSG_DONTWAIT) == 1) {
    if (byte == 0x03) return true;
  }
  return false;
}

std::string GdbServer::stop_reply() const {
  switch (stop_) {
    case StopReason::Interrupt: return "T02thread:1;";
    case StopReason::Breakpoint:
      return software_breakpoints_.count(target_->state.pc) != 0 ? "T05swbreak:;thread:1;"
                                                                 : "T05hwbreak:;thread:1;";
    case StopReason::Watch: {
      const Watchpoint& watch = watchpoints_[*watch_hit_];
      const char* kind = watch.kind == WatchKind::Write  ? "watch"
                         : watch.kind == WatchKind::Read ? "rwatch"
                                                         : "awatch";
      return fmt::format("T05{}:{:x};thread:1;", kind, watch.address);
    }
    case StopReason::Step:
    case StopReason::None: break;
  }
  return "T05thread:1;";
}

void GdbServer::send_stop() {
  last_stop_ = stop_reply();
  absorb_step_ = stop_ == StopReason::Watch;
  send_packet(last_stop_);
}

std::string GdbServer::halt_reply(const frontend::Halt& halt) const {
  return fmt::format("T{:02x}thread:1;", signal_of(halt));
}

GdbServer::Resume GdbServer::serve() {
  for (;;) {
    const std::optional<std::string> packet = read_packet();
    if (!packet) return Resume::Detach;  // the client went away
    std::optional<Resume> resume;
    const std::string reply = answer(*packet, resume);
    if (!resume) {
      send_packet(reply);
      no_ack_ = no_ack_ || enter_no_ack_;
      continue;
    }
    if (*resume == Resume::Detach) send_packet("OK");
    if (*resume == Resume::Kill && !reply.empty()) send_packet(reply);
    if (*resume == Resume::Step && absorb_step_ && !halted_) {
      // The access a watchpoint reported already happened: the step over it is done.
      stop_ = StopReason::Step;
      send_stop();
      continue;
    }
    absorb_step_ = false;
    stepping_ = *resume == Resume::Step;
    return *resume;
  }
}

std::optional<std::string> GdbServer::read_packet() {
  for (;;) {
    const auto start = buffer_.find('$');
    if (start != std::string::npos) {
      const auto end = buffer_.find('#', start);
      if (end != std::string::npos && end + 2 < buffer_.size()) {
        std::string payload = buffer_.substr(start + 1, end - start - 1);
        buffer_.erase(0, end + 3);
        if (!no_ack_) ::send(client_, "+", 1, MSG_NOSIGNAL);
        return payload;
      }
    } else {
      buffer_.clear();  // acks and a stray interrupt while stopped
    }
    std::array<char, 4096> chunk{};
    const ssize_t got = ::recv(client_, chunk.data(), chunk.size(), 0);
    if (got <= 0) {
      if (got < 0 && errno == EINTR) {
        if (target_->front_end.control().pending_stop() == frontend::PauseCause::Interrupt)
          return std::nullopt;
        continue;
      }
      return std::nullopt;
    }
    buffer_.append(chunk.data(), static_cast<std::size_t>(got));
  }
}

void GdbServer::send_packet(const std::string& payload) {
  std::string escaped;
  unsigned sum = 0;
  for (const char c : payload) {
    if (c == '#' || c == '$' || c == '}' || c == '*') {
      escaped += '}';
      escaped += static_cast<char>(c ^ 0x20);
    } else {
      escaped += c;
    }
  }
  for (const char c : escaped)
    sum += static_cast<unsigned char>(c);
  const std::string frame = fmt::format("${}#{:02x}", escaped, sum & 0xFF);
  ::send(client_, frame.data(), frame.size(), MSG_NOSIGNAL);
}

void GdbServer::send_console(const std::string& text) {
  send_packet("O" + hex_text(text));
}

std::string GdbServer::answer(const std::string& packet, std::optional<Resume>& resume) {
  const char kind = packet.empty() ? '\0' : packet[0];
  const std::string body = packet.size() > 1 ? packet.substr(1) : "";
  switch (kind) {
    case '?': return last_stop_;
    case 'g': return read_registers();
    case 'G': {
      const auto bytes = unhex(body);
      if (!bytes || bytes->size() < kRegisterCount * 8) return "E01";
      for (unsigned n = 0; n < kRegisterCount; ++n) {
        std::uint64_t value = 0;
        std::memcpy(&value, bytes->data() + 8 * n, 8);
        write_register(n, value);
      }
      return "OK";
    }
    case 'p': {
      const auto number = parse_hex(body);
      const auto value = number ? read_register(static_cast<unsigned>(*number)) : std::nullopt;
      return value ? register_hex(*value) : "E01";
    }
    case 'P': {
      const auto equals = body.find('=');
      const auto number = parse_hex(body.substr(0, equals));
      const auto bytes =
          equals == std::string::npos ? std::nullopt : unhex(body.substr(equals + 1));
      if (!number || !bytes || bytes->size() != 8) return "E01";
      std::uint64_t value = 0;
      std::memcpy(&value, bytes->data(), 8);
      return write_register(static_cast<unsigned>(*number), value) ? "OK" : "E01";
    }
    case 'm': {
      const auto range = address_length(body);
      return range ? read_memory(range->first, range->second) : "E01";
    }
    case 'M': {
      std::string data;
      const auto range = address_length(body, &data);
      const auto bytes = unhex(data);
      if (!range || !bytes || bytes->size() != range->second) return "E01";
      return write_memory(range->first, *bytes) ? "OK" : "E01";
    }
    case 'X': {
      std::string data;
      const auto range = address_length(body, &data);
      if (!range) return "E01";
      std::vector<std::uint8_t> bytes;
      for (std::size_t i = 0; i < data.size(); ++i)
        bytes.push_back(static_cast<std::uint8_t>(data[i] == '}' ? data[++i] ^ 0x20 : data[i]));
      if (bytes.size() != range->second) return "E01";
      return write_memory(range->first, bytes) ? "OK" : "E01";
    }
    case 'Z':
    case 'z': {
      const auto range = body.size() > 2 ? address_length(body.substr(2)) : std::nullopt;
      if (!range) return "E01";
      return insert_point(body[0], range->first, range->second, kind == 'Z') ? "OK" : "";
    }
    case 'c': resume = Resume::Continue; return "";
    case 's': resume = Resume::Step; return "";
    case 'D': resume = Resume::Detach; return "";
    case 'k': resume = Resume::Kill; return "X09";
    case 'H':
    case 'T': return "OK";
    case 'v':
      if (packet == "vCont?") return "vCont;c;C;s;S;t";
      if (packet.rfind("vCont;", 0) == 0) {
        const char action = packet.size() > 6 ? packet[6] : 'c';
        resume = action == 's' || action == 'S' ? Resume::Step : Resume::Continue;
        return "";
      }
      if (packet.rfind("vKill", 0) == 0) {
        resume = Resume::Kill;
        return "OK";
      }
      return "";
    case 'q':
    case 'Q': return answer_query(packet);
    default: return "";
  }
}

std::string GdbServer::answer_query(const std::string& packet) {
  if (packet.rfind("qSupported", 0) == 0) {
    return "PacketSize=4000;QStartNoAckMode+;vContSupported+;swbreak+;hwbreak+;"
           "qXfer:features:read+";
  }
  if (packet == "QStartNoAckMode") {
    enter_no_ack_ = true;  // after this answer
    return "OK";
  }
  if (packet.rfind("qXfer:features:read:target.xml:", 0) == 0) {
    const auto range = address_length(packet.substr(31));
    if (!range) return "E01";
    const std::string xml = target_xml();
    if (range->first >= xml.size()) return "l";
    const std::string part = xml.substr(range->first, range->second);
    return (range->first + part.size() < xml.size() ? "m" : "l") + part;
  }
  if (packet == "qHostInfo") {
    return "triple:" + hex_text("riscv64-unknown-none-elf") +
           ";ptrsize:8;endian:little;watchpoint_exceptions_received:after;";
  }
  if (packet == "qWatchpointSupportInfo:" || packet == "qWatchpointSupportInfo") return "num:4;";
  if (packet == "qfThreadInfo") return "m1";
  if (packet == "qsThreadInfo") return "l";
  if (packet == "qC") return "QC1";
  if (packet == "qAttached") return "1";
  if (packet == "qSymbol::") return "OK";
  if (packet.rfind("qRcmd,", 0) == 0) {
    const auto command = unhex(packet.substr(6));
    if (!command) return "E01";
    send_console(monitor(std::string(command->begin(), command->end())));
    return "OK";
  }
  return "";
}

std::string GdbServer::monitor(const std::string& line) {
  const auto space = line.find(' ');
  const std::string command = line.substr(0, space);
  const std::string argument = space == std::string::npos ? "" : line.substr(space + 1);
  const arch::ArchState& state = target_->state;
  if (command == "block") {
    if (!state.block.active) return "block: none active\n";
    return fmt::format("block: active, {} (BPC 0x{:x})\n",
                       state.block.body_active ? "in its body" : "in its header",
                       state.header.bpc) +
           engine::describe_header(state.header);
  }
  if (command == "tile") return tile_text(target_->view(), argument, pe_);
  if (command == "fabric") {
    const arch::SharedTileFile& shared = target_->view().shared_tiles;
    std::string text;
    for (unsigned id = 0; id < arch::kSharedTileCount; ++id) {
      const arch::SharedTile& tile = shared.at(id);
      if (!tile.descriptor_valid) continue;
      text += fmt::format("S{}: {}, initialized {} of allocation {}: {}\n", id,
                          tile.info.describe(), arch::mask_string(tile.initialized_mask),
                          arch::mask_string(tile.allocation_mask),
                          tile.published ? "ready" : "not ready");
    }
    return text.empty() ? "fabric: no Shared tile has a descriptor\n" : text;
  }
  if (command == "stats") return target_->statistics();
  if (command == "reset") {
    target_->reset();
    halted_.reset();
    return fmt::format("reset: pc 0x{:x}\n", state.pc);
  }
  if (command == "pe") {
    const auto pe = parse_hex(argument);
    if (!pe || *pe >= arch::kPeCount) return "pe: expected 0..3\n";
    pe_ = static_cast<unsigned>(*pe);
    return fmt::format("registers now show PE{}\n", pe_);
  }
  if (command == "ssr") {
    const auto id = parse_hex(argument.rfind("0x", 0) == 0 ? argument.substr(2) : argument);
    if (!id) return "ssr: expected a hexadecimal SSR id\n";
    const auto value = state.read_ssr(pe_, static_cast<std::uint32_t>(*id));
    return value ? fmt::format("SSR 0x{:x} = 0x{:x} (PE{})\n", *id, *value, pe_)
                 : fmt::format("SSR 0x{:x}: {}\n", *id, value.fault().reason);
  }
  return "monitor commands (docs/debugging.md):\n"
         "  block          the active block and its header\n"
         "  tile NAME      a Local (T#1, U3) or Shared (S5) tile as typed values\n"
         "  fabric         the Shared tiles and their readiness\n"
         "  stats          statistics so far\n"
         "  pe N           show PE N's registers (0..3)\n"
         "  ssr ID         a system register (hexadecimal id) on that PE\n"
         "  reset          reset the platform and load the image again\n";
}

std::optional<std::uint64_t> GdbServer::read_register(unsigned number) const {
  const arch::ArchState& state = target_->state;
  if (number < kRiscvSlot.size())
    return kRiscvSlot[number] < 0 ? 0 : state.gpr(pe_, static_cast<unsigned>(kRiscvSlot[number]));
  if (number == kPcRegister) return state.pc;
  if (number >= kExtraFirst && number < kBlockFirst)
    return state.gpr(pe_, 20 + number - kExtraFirst);
  if (number >= kRegisterCount) return std::nullopt;
  const unsigned block = number - kBlockFirst;
  if (block < 8) {
    const arch::ScalarQueue& queue = state.queues[pe_][block / 4];
    return queue.valid[block % 4] ? queue.value[block % 4] : 0;
  }
  if (block == 8) return state.header.bpc;
  if (block == 9) {
    const arch::BlockControl& b = state.block;
    return std::uint64_t{b.active} | std::uint64_t{b.body_active} << 1 |
           std::uint64_t{b.condition_set} << 2 | std::uint64_t{b.commit_target_set} << 3 |
           std::uint64_t{b.system_terminal_pending} << 4;
  }
  return target_->cycle();
}

bool GdbServer::write_register(unsigned number, std::uint64_t value) {
  arch::ArchState& state = target_->state;
  if (number < kRiscvSlot.size()) {
    if (kRiscvSlot[number] > 0)
      state.set_gpr(pe_, static_cast<unsigned>(kRiscvSlot[number]), value);
    return true;
  }
  if (number == kPcRegister) {
    state.pc = value;
    return true;
  }
  if (number >= kExtraFirst && number < kBlockFirst) {
    state.set_gpr(pe_, 20 + number - kExtraFirst, value);
    return true;
  }
  return number < kRegisterCount;  // the block feature reads only
}

std::string GdbServer::read_registers() const {
  std::string text;
  for (unsigned n = 0; n < kRegisterCount; ++n)
    text += register_hex(*read_register(n));
  return text;
}

std::string GdbServer::read_memory(std::uint64_t address, std::uint64_t length) const {
  std::vector<std::uint8_t> bytes(std::min<std::uint64_t>(length, 0x2000));
  if (target_->read_bytes(address, bytes.data(), bytes.size())) return "E01";
  return hex_bytes(bytes.data(), bytes.size());
}

bool GdbServer::write_memory(std::uint64_t address, const std::vector<std::uint8_t>& bytes) {
  return !target_->load_bytes(address, bytes);
}

bool GdbServer::insert_point(char type, std::uint64_t address, std::uint64_t length, bool insert) {
  if (type == '0' || type == '1') {
    std::set<std::uint64_t>& points = type == '0' ? software_breakpoints_ : hardware_breakpoints_;
    if (insert) {
      points.insert(address);
    } else {
      points.erase(address);
    }
    return true;
  }
  if (type < '2' || type > '4' || length == 0 || length > 4096) return false;
  const auto kind = static_cast<WatchKind>(type - '0');
  const auto same = [&](const Watchpoint& w) {
    return w.kind == kind && w.address == address && w.length == length;
  };
  if (insert) {
    Watchpoint watch{kind, address, length, std::vector<std::uint8_t>(length)};
    (void)target_->read_bytes(address, watch.value.data(), length);
    watchpoints_.push_back(std::move(watch));
  } else {
    watchpoints_.erase(std::remove_if(watchpoints_.begin(), watchpoints_.end(), same),
                       watchpoints_.end());
  }
  return true;
}

}  // namespace ptovp::debug

// The GDB remote serial protocol stub (docs/debugging.md): one client at a
// time on 127.0.0.1, either engine behind debug::Target.
//
// GDB and LLDB know no PTO architecture, so the target description borrows
// RISC-V's (riscv:rv64, OS ABI none): each PTO GPR sits in the RISC-V slot
// of its ABI name, x0..x3 and the block state in features of their own, and
// the slots PTO lacks read 0. Registers show PE0 (`monitor pe N` selects).
//
// The stub is an execution observer on the front end: breakpoints, single
// steps and watchpoints pause the run before an instruction, and the client
// talks to the stub between runs. Watchpoints see scalar loads and stores by
// address, TLSU block transfers (TLOAD, TSTORE) by the GM ranges the TLSU
// reports (arch::AccessObserver), and any other write by the watched bytes' change; a hit is
// reported at the next instruction boundary after the access, and the single
// step a client makes to get past the access completes at once (the access
// already happened).
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "debug/target.hpp"

namespace ptovp::debug {

class GdbServer : public frontend::ExecutionObserver, public arch::AccessObserver {
 public:
  // Listens on 127.0.0.1:`port` (0 picks a free port); throws
  // std::runtime_error naming the port when it cannot.
  explicit GdbServer(std::uint16_t port);
  ~GdbServer() override;
  GdbServer(const GdbServer&) = delete;
  GdbServer& operator=(const GdbServer&) = delete;

  std::uint16_t port() const { return port_; }

  // Runs `target` for at most `max_instructions` attempts (0 = no limit)
  // with a client attached whenever one connects; with `wait`, the first
  // instruction waits for one. Returns how the run ended, as run() would:
  // a halt, the limit, or Paused by a signal or by the client's kill.
  engine::RunResult run(Target& target, std::uint64_t max_instructions, bool wait);
  // The client killed the run.
  bool killed() const { return killed_; }

  bool pause_before(std::uint64_t pc) override;
  void after(const frontend::Attempt& attempt) override;
  void accessed(std::uint64_t address, std::uint64_t length, bool store) override;

 private:
  enum class Resume : std::uint8_t { Continue, Step, Detach, Kill };
  enum class WatchKind : std::uint8_t { Write = 2, Read = 3, Access = 4 };
  struct Watchpoint {
    WatchKind kind;
    std::uint64_t address;
    std::uint64_t length;
    std::vector<std::uint8_t> value;  // the bytes when last looked at
  };
  enum class StopReason : std::uint8_t { None, Step, Breakpoint, Watch, Interrupt };

  void accept_clients();
  bool wait_for_client();
  void begin_session();
  void end_session();

  // Reads packets and answers until the client resumes, detaches or kills.
  Resume serve();
  std::optional<std::string> read_packet();
  void send_packet(const std::string& payload);
  void send_console(const std::string& text);
  std::string answer(const std::string& packet, std::optional<Resume>& resume);
  std::string answer_query(const std::string& packet);
  std::string monitor(const std::string& command);

  std::string read_registers() const;
  std::optional<std::uint64_t> read_register(unsigned number) const;
  bool write_register(unsigned number, std::uint64_t value);
  std::string read_memory(std::uint64_t address, std::uint64_t length) const;
  bool write_memory(std::uint64_t address, const std::vector<std::uint8_t>& bytes);
  bool insert_point(char type, std::uint64_t address, std::uint64_t length, bool insert);
  void refresh_watch_values();
  // Marks the first watchpoint an access of [address, address + length) hits.
  void check_watchpoints(std::uint64_t address, std::uint64_t length, bool store);
  bool client_interrupted();

  std::string stop_reply() const;
  void send_stop();
  std::string halt_reply(const frontend::Halt& halt) const;

  std::uint16_t port_ = 0;
  int listen_fd_ = -1;
  int wake_fd_[2] = {-1, -1};  // wakes the accepting thread at shutdown
  std::thread acceptor_;
  std::atomic<int> pending_client_{-1};
  int client_ = -1;
  bool no_ack_ = false;
  bool enter_no_ack_ = false;
  std::string buffer_;

  Target* target_ = nullptr;
  bool killed_ = false;
  unsigned pe_ = 0;  // the PE whose registers the client sees
  std::set<std::uint64_t> software_breakpoints_;
  std::set<std::uint64_t> hardware_breakpoints_;
  std::vector<Watchpoint> watchpoints_;

  // The run in progress.
  bool stepping_ = false;
  bool first_ = false;  // the instruction a resume starts at runs unconditionally
  bool absorb_step_ = false;
  std::uint64_t poll_countdown_ = 0;
  StopReason stop_ = StopReason::None;
  std::optional<std::size_t> watch_hit_;    // index into watchpoints_
  std::optional<frontend::Halt> halted_;    // a halt that ended the run
  std::string last_stop_ = "T05thread:1;";  // the answer to '?'
};

}  // namespace ptovp::debug

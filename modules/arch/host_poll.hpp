// How a host thread waits for another (arch::DataQueue's front end and worker):
// it polls briefly before it sleeps on a condition variable.
#pragma once

#include <chrono>
#include <thread>

namespace ptovp::arch {

// A thread that ran out of work polls this long for the next event before it
// sleeps: waking a sleeping thread costs microseconds.
inline constexpr auto kHostPoll = std::chrono::microseconds(100);

// Polls `ready` for up to kHostPoll. Each miss yields the core: on an idle
// host that returns at once, on a busy one it lets the other processes run
// rather than spinning against them (which made a busy host's runs slower).
template <typename Ready>
bool poll(Ready&& ready) {
  const auto until = std::chrono::steady_clock::now() + kHostPoll;
  while (!ready()) {
    if (std::chrono::steady_clock::now() >= until) return false;
    std::this_thread::yield();
  }
  return true;
}

}  // namespace ptovp::arch

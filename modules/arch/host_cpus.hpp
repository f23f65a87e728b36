// Pinning the host threads of a run to CPUs of their own (host.pin_threads,
// docs/performance.md "Host threads"): the front end and the data queue's
// worker on two distinct CPUs of the allowed set, so that the host's
// scheduler never lets them share one core for part of a run.
#pragma once

#include <pthread.h>
#include <sched.h>

#include <vector>

namespace ptovp::arch {

// The two CPUs of pinned host threads.
struct PinnedCpus {
  unsigned front;   // the run loop's thread (the front end)
  unsigned worker;  // the data queue's worker, and the loader's second reader
};

// The CPUs the calling thread may run on (sched_getaffinity), ascending.
std::vector<unsigned> allowed_cpus();

// The first two of allowed_cpus(). Throws std::invalid_argument naming
// host.pin_threads when fewer than two are allowed.
PinnedCpus choose_pinned_cpus();

// Pins `thread` to `cpu`. Throws std::system_error naming host.pin_threads
// when the host refuses.
void pin_thread(pthread_t thread, unsigned cpu);

// Pins the calling thread to a CPU while it lives; its end gives the thread
// back the CPUs it had (when it ends on that thread: a Python engine's
// caller keeps its own affinity).
class ThreadPin {
 public:
  explicit ThreadPin(unsigned cpu);
  ~ThreadPin();
  ThreadPin(const ThreadPin&) = delete;
  ThreadPin& operator=(const ThreadPin&) = delete;

 private:
  pthread_t thread_;
  cpu_set_t before_{};
};

}  // namespace ptovp::arch

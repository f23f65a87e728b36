#include "arch/host_cpus.hpp"

#include <cerrno>
#include <stdexcept>
#include <system_error>

#include <fmt/format.h>

namespace ptovp::arch {

namespace {

cpu_set_t thread_cpus(pthread_t thread) {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (const int error = pthread_getaffinity_np(thread, sizeof set, &set))
    throw std::system_error(error, std::generic_category(),
                            "host.pin_threads: cannot read the thread's CPUs");
  return set;
}

}  // namespace

std::vector<unsigned> allowed_cpus() {
  const cpu_set_t set = thread_cpus(pthread_self());
  std::vector<unsigned> cpus;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (CPU_ISSET(cpu, &set)) cpus.push_back(static_cast<unsigned>(cpu));
  }
  return cpus;
}

PinnedCpus choose_pinned_cpus() {
  const std::vector<unsigned> cpus = allowed_cpus();
  if (cpus.size() < 2) {
    throw std::invalid_argument(fmt::format(
        "host.pin_threads: the process may run on {} CPU only (sched_getaffinity); pinning the "
        "run loop and the worker needs two distinct CPUs (allow more, or set "
        "host.pin_threads=false or host.threads=1)",
        cpus.size()));
  }
  return {cpus[0], cpus[1]};
}

void pin_thread(pthread_t thread, unsigned cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  if (const int error = pthread_setaffinity_np(thread, sizeof set, &set)) {
    throw std::system_error(error, std::generic_category(),
                            fmt::format("host.pin_threads: cannot pin a thread to CPU {}", cpu));
  }
}

ThreadPin::ThreadPin(unsigned cpu) : thread_(pthread_self()), before_(thread_cpus(thread_)) {
  pin_thread(thread_, cpu);
}

ThreadPin::~ThreadPin() {
  if (pthread_equal(thread_, pthread_self()))
    pthread_setaffinity_np(thread_, sizeof before_, &before_);
}

}  // namespace ptovp::arch

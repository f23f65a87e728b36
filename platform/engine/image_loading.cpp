#include "engine/image_loading.hpp"

#include <pthread.h>

#include <optional>

#include <fmt/format.h>

#include "arch/data_queue.hpp"
#include "arch/host_cpus.hpp"
#include "isa/input_file.hpp"

namespace ptovp::engine {

arch::MaybeFault load_sections(
    const isa::ProgramImage& image,
    const std::function<arch::MaybeFault(std::uint64_t, const std::vector<std::uint8_t>&)>& write) {
  for (const isa::ImageSection& section : image.sections) {
    if (auto failed = write(section.address, section.bytes)) {
      failed->reason =
          fmt::format("section {} ({} bytes at 0x{:x}) does not fit memory: {}", section.name,
                      section.bytes.size(), section.address, failed->reason);
      return failed;
    }
  }
  return std::nullopt;
}

void load_input_file(const std::string& path,
                     const std::function<std::uint8_t*(std::uint64_t size)>& place,
                     const arch::DataQueue& queue) {
  const std::optional<arch::PinnedCpus> cpus = queue.pinned();
  isa::read_input_file(path, place, queue.deferred() ? 2 : 1, [&cpus] {
    if (cpus) arch::pin_thread(pthread_self(), cpus->worker);
  });
}

}  // namespace ptovp::engine

#include "engine/image_loading.hpp"

#include <fmt/format.h>

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

}  // namespace ptovp::engine

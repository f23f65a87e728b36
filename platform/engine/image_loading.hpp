// Loading a program image or an input file into either engine's memory.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "arch/fault.hpp"
#include "isa/program_image.hpp"

namespace ptovp::arch {
class DataQueue;
}

namespace ptovp::engine {

// Writes every section of `image` through `write`; the fault names the first
// section that does not fit.
arch::MaybeFault load_sections(
    const isa::ProgramImage& image,
    const std::function<arch::MaybeFault(std::uint64_t, const std::vector<std::uint8_t>&)>& write);

// Reads input file `path` into the bytes `place(size)` returns
// (isa::read_input_file): with the engine's worker (`queue`) in two readers,
// the second on the worker's CPU when the queue pinned its threads
// (host.pin_threads, docs/performance.md "Host threads").
void load_input_file(const std::string& path,
                     const std::function<std::uint8_t*(std::uint64_t size)>& place,
                     const arch::DataQueue& queue);

}  // namespace ptovp::engine

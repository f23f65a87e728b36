// libFuzzer target: raw images through length decode, decode and disassembly.
#include "fuzz_entry_points.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  ptovp::isa::fuzz::disassemble_bytes(data, size);
  return 0;
}

// libFuzzer target: arbitrary text through the assembler's parser.
#include "fuzz_entry_points.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  ptovp::isa::fuzz::assemble_bytes(data, size);
  return 0;
}

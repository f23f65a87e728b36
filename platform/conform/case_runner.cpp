#include "conform/case_runner.hpp"

#include <fmt/format.h>

#include "isa/assembler.hpp"

namespace ptovp::conform {

namespace {

struct HaltSequence {
  std::vector<std::uint8_t> bytes;
  std::uint64_t ebreak_offset = 0;
};

// The platform's halt, assembled once: BSTART.SYS FALL, EBREAK 0.
const HaltSequence& halt_sequence() {
  static const HaltSequence sequence = [] {
    const isa::AssemblyResult result =
        isa::Assembler().assemble_text("halt.s", "BSTART.SYS FALL\nebreak 0\n");
    if (!result.ok() || result.listing.size() != 2)
      throw std::logic_error("the halt sequence does not assemble");
    HaltSequence halt;
    for (const isa::ListingLine& line : result.listing)
      halt.bytes.insert(halt.bytes.end(), line.bytes.begin(), line.bytes.end());
    halt.ebreak_offset = result.listing[1].address - result.listing[0].address;
    return halt;
  }();
  return sequence;
}

bool is_spec_0583(const std::string& spec) {
  return spec.rfind("e599a3d3", 0) == 0;
}

}  // namespace

CaseSetup case_setup(const BlockCase& block_case) {
  const auto profile = numeric::numeric_profile_from_name(block_case.profile);
  if (!profile) {
    throw CaseError(fmt::format("{}: profile: unknown numeric profile '{}' (hardware or pto-v0)",
                                block_case.path, block_case.profile));
  }
  CaseSetup setup;
  setup.model.profile = *profile;
  setup.cube =
      is_spec_0583(block_case.spec) ? cube::CubeConfig::spec_0583_pto_v0() : cube::CubeConfig{};
  setup.cube.profile = *profile;

  for (const CaseWord& word : block_case.words) {
    for (unsigned byte = 0; byte < word.length_bits / 8; ++byte)
      setup.image.push_back(static_cast<std::uint8_t>(word.value >> (8 * byte)));
  }
  const HaltSequence& halt = halt_sequence();
  setup.halt_pc = setup.image.size() + halt.ebreak_offset;
  setup.image.insert(setup.image.end(), halt.bytes.begin(), halt.bytes.end());
  if (setup.image.size() > kDataWindowBegin) {
    throw CaseError(
        fmt::format("{}: words: the program with the halt appended ends at 0x{:x}, "
                    "inside the data window at 0x{:x}",
                    block_case.path, setup.image.size(), kDataWindowBegin));
  }
  return setup;
}

CaseRun run_functional(const BlockCase& block_case, const CaseSetup& setup) {
  functional::FunctionalModel model(setup.model);
  model.cube().set_config(setup.cube);
  return run_case_on(model, block_case, setup);
}

}  // namespace ptovp::conform

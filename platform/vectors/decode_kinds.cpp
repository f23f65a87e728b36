// The `decode` vector kind: `decode len=N word=W -> form=ID f.NAME=V ...`.
// The shared vectors were computed by the spec snapshot e599a3d3 (0.58.3), so
// they are checked against that release's tables; the 0.58.5 overlay has its
// own tests (tests/isa/decode_test.cpp).
#include <string>

#include "isa/decoder.hpp"
#include "vectors/vector_kind.hpp"

namespace ptovp::vectors {

namespace {

VectorOutputs compute_decode(const VectorInputs& inputs) {
  const std::uint64_t length_bits = inputs.u64("len");
  if (length_bits != 16 && length_bits != 32 && length_bits != 48 && length_bits != 64) {
    throw MalformedVector("len must be 16, 32, 48 or 64");
  }
  const isa::DecodedInstruction decoded =
      isa::Decoder::for_release(isa::IsaRelease::Snapshot0583)
          .decode(inputs.u64("word"), static_cast<unsigned>(length_bits));
  if (!decoded.legal()) return {{"form", "illegal"}};
  VectorOutputs outputs{{"form", std::string(decoded.form->form_id)}};
  const auto fields = isa::fields_of(*decoded.form);
  for (std::size_t i = 0; i < fields.size(); ++i) {
    outputs.emplace_back("f." + std::string(fields[i].name), std::to_string(decoded.field(i)));
  }
  return outputs;
}

}  // namespace

void register_decode_kinds(VectorKindRegistry& registry) {
  registry["decode"] = VectorKind{"decode", {"len", "word"}, {}, compute_decode, {}};
}

}  // namespace ptovp::vectors

// The `dot` vector kind: one output element of a CUBE dot product
// (FORMAT.md): A is 1 x k, B is k x 1, scales 1 x G and G x 1.
#include <stdexcept>
#include <string>

#include "numeric/dot_kernel.hpp"
#include "numeric/error.hpp"
#include "vectors/vector_kind.hpp"

namespace ptovp::vectors {

namespace {

using numeric::DataType;
using numeric::OperandView;

// Owns the bytes a view points into.
struct Operand {
  std::vector<std::uint8_t> bytes;
  OperandView view;
};

Operand operand(DataType type, const std::vector<std::uint64_t>& raw, bool column) {
  Operand out{numeric::store_elements(type, raw), {}};
  out.view = numeric::row_major_view(type, out.bytes.data(), out.bytes.size(),
                                     column ? raw.size() : 1, column ? 1 : raw.size());
  return out;
}

std::optional<Operand> optional_operand(const VectorInputs& inputs, const char* key, DataType type,
                                        bool column) {
  if (inputs.is_dash(key)) return std::nullopt;
  return operand(type, inputs.list(key), column);
}

VectorOutputs compute_dot(const VectorInputs& inputs) {
  const auto profile = numeric::numeric_profile_from_name(inputs.text("profile"));
  if (!profile) throw MalformedVector("profile must be hardware or pto-v0");
  const DataType atype = inputs.data_type("atype");
  const DataType btype = inputs.data_type("btype");
  const std::vector<std::uint64_t> a = inputs.list("a");
  const std::vector<std::uint64_t> b = inputs.list("b");
  if (a.size() != inputs.u64("k") || b.size() != inputs.u64("k")) {
    throw MalformedVector("a and b must hold k lanes each");
  }
  auto scale_type = [](DataType t) {
    return t == DataType::HiF4X2 ? DataType::U32 : DataType::E8M0;
  };
  try {
    const Operand a_op = operand(atype, a, false);
    const Operand b_op = operand(btype, b, true);
    const auto sa = optional_operand(inputs, "sa", scale_type(atype), false);
    const auto sb = optional_operand(inputs, "sb", scale_type(btype), true);
    numeric::DotOperands ops;
    ops.profile = *profile;
    ops.a = a_op.view;
    ops.b = b_op.view;
    if (sa) ops.a_scale = sa->view;
    if (sb) ops.b_scale = sb->view;
    const DataType accumulator = numeric::check_dot(ops).accumulator;
    const auto init = optional_operand(inputs, "init", accumulator, false);
    const auto bias = optional_operand(inputs, "bias", accumulator, false);
    if (init) ops.c = init->view;
    if (bias) ops.bias = bias->view;

    std::uint32_t fast = 0;
    std::uint32_t reference = 0;
    numeric::dot(ops, &fast);
    numeric::dot_reference(ops, &reference);
    if (fast != reference) {
      throw std::logic_error("dot fast path " + hex(fast) + " differs from the reference " +
                             hex(reference));
    }
    return {{"out", hex(fast)}};
  } catch (const numeric::IllegalFieldValue& error) {
    throw MalformedVector(error.what());
  }
}

}  // namespace

void register_dot_kinds(VectorKindRegistry& registry) {
  registry["dot"] =
      VectorKind{"dot",
                 {"profile", "atype", "btype", "k", "a", "b", "sa", "sb", "init", "bias"},
                 {"out"},
                 compute_dot,
                 [](const VectorInputs&, std::string_view) {
                   return OutputRange{32, false};
                 }};
}

}  // namespace ptovp::vectors

// The numeric-core vector kinds (FORMAT.md): post fenc ienc affine rss shift
// e8m0 redstep, each computed by the production function it names.
#include <functional>
#include <string>
#include <string_view>

#include "numeric/e8m0_conversion.hpp"
#include "numeric/encoders.hpp"
#include "numeric/error.hpp"
#include "numeric/postprocess.hpp"
#include "numeric/value_codec.hpp"
#include "vectors/vector_kind.hpp"

namespace ptovp::vectors {
namespace {

using numeric::DataType;
using numeric::Encoded;
using numeric::NumericControl;
using numeric::RoundingMode;

RoundingMode rounding(const VectorInputs& in) {
  const std::string& name = in.text("rmode");
  if (const auto mode = numeric::rounding_from_name(name)) return *mode;
  throw MalformedVector("key 'rmode' has value '" + name +
                        "', expected NONE RNE RTZ RDN RUP RNA RTO RHB");
}

NumericControl control(const VectorInputs& in) {
  return {rounding(in), in.boolean("sat")};
}

std::uint32_t word32(const VectorInputs& in, const char* key) {
  const std::uint64_t value = in.u64(key);
  if (value > 0xFFFFFFFFu) throw MalformedVector(std::string("key '") + key + "' exceeds 32 bits");
  return static_cast<std::uint32_t>(value);
}

// The exact value of a finite FP32 pattern.
numeric::Dyadic fp32_value(const VectorInputs& in, const char* key) {
  const numeric::DecodedValue value = numeric::decode(DataType::FP32, word32(in, key));
  if (!value.is_finite())
    throw MalformedVector(std::string("key '") + key + "' is not finite FP32");
  return numeric::to_dyadic(value);
}

VectorOutputs out_flags(const Encoded& e) {
  return {{"out", hex(e.bits)}, {"flags", hex(e.flags)}};
}

// `out` is one element at the width of `out_type`; `flags` is the 5-bit vector.
using OutType = std::function<OutputRange(const VectorInputs&)>;

OutType raw_bits(unsigned bits) {
  return [bits](const VectorInputs&) { return OutputRange{bits, false}; };
}

OutType lane_of(const char* type_key) {
  return [type_key](const VectorInputs& in) {
    return OutputRange{numeric::info(in.data_type(type_key)).lane_bits, false};
  };
}

// An input the architecture rejects makes the line malformed, naming the field.
template <typename Compute>
VectorKind kind(std::string name, std::vector<std::string> inputs, const OutType& out_type,
                Compute compute) {
  return VectorKind{std::move(name),
                    std::move(inputs),
                    {"out", "flags"},
                    [compute](const VectorInputs& in) -> VectorOutputs {
                      try {
                        return compute(in);
                      } catch (const numeric::IllegalFieldValue& error) {
                        throw MalformedVector(error.what());
                      }
                    },
                    [out_type](const VectorInputs& in, std::string_view key) {
                      return key == "flags" ? OutputRange{5, false} : out_type(in);
                    }};
}

// PreQuantMode's output type; mode 0 keeps the accumulator type.
OutputRange post_output(const VectorInputs& in) {
  const numeric::PreQuantModeInfo* mode =
      numeric::find_pre_quant_mode(static_cast<unsigned>(in.u64("mode")));
  const numeric::DataType type =
      mode == nullptr || mode->code == 0 ? in.data_type("acc") : mode->output;
  return {numeric::info(type).lane_bits, false};
}

}  // namespace

void register_numeric_kinds(VectorKindRegistry& registry) {
  registry["post"] = kind("post", {"acc", "v", "mode", "relu", "q", "r", "rmode", "sat"},
                          post_output, [](const VectorInputs& in) {
                            return out_flags(numeric::post_process_element(
                                word32(in, "v"), static_cast<unsigned>(in.u64("mode")),
                                static_cast<unsigned>(in.u64("relu")), in.data_type("acc"),
                                in.u64("q"), in.u64("r"), control(in)));
                          });
  registry["fenc"] =
      kind("fenc", {"type", "x", "rmode", "sat"}, lane_of("type"), [](const VectorInputs& in) {
        return out_flags(numeric::reference_matrix_floating_encoding(
            fp32_value(in, "x"), in.data_type("type"), control(in)));
      });
  registry["ienc"] =
      kind("ienc", {"type", "x", "rmode", "sat"}, lane_of("type"), [](const VectorInputs& in) {
        return out_flags(numeric::reference_matrix_integer_encoding(
            fp32_value(in, "x"), in.data_type("type"), control(in)));
      });
  registry["affine"] =
      kind("affine", {"x", "scale", "offset", "width", "type", "rmode", "sat"}, lane_of("type"),
           [](const VectorInputs& in) {
             return out_flags(numeric::matrix_quantized_affine(
                 fp32_value(in, "x"), fp32_value(in, "scale"), in.i64("offset"),
                 static_cast<unsigned>(in.u64("width")), in.data_type("type"), control(in)));
           });
  registry["rss"] = kind(
      "rss", {"x", "width", "rmode"},
      [](const VectorInputs& in) {
        return OutputRange{static_cast<unsigned>(in.u64("width")), true};
      },
      [](const VectorInputs& in) {
        const numeric::SignedIntermediate r = numeric::matrix_round_and_saturate_signed(
            fp32_value(in, "x"), static_cast<unsigned>(in.u64("width")), rounding(in));
        return VectorOutputs{{"out", std::to_string(r.value)}, {"flags", hex(r.flags)}};
      });
  registry["shift"] = kind("shift", {"v", "s"}, raw_bits(16), [](const VectorInputs& in) {
    return out_flags(
        numeric::matrix_shift_s32_to_s16(word32(in, "v"), static_cast<unsigned>(in.u64("s"))));
  });
  registry["e8m0"] =
      kind("e8m0", {"type", "x", "rmode", "sat"}, raw_bits(8), [](const VectorInputs& in) {
        return out_flags(numeric::tcvt_to_e8m0(in.data_type("type"), in.u64("x"), control(in)));
      });
  registry["redstep"] =
      kind("redstep", {"type", "cur", "cand", "maxabs"}, raw_bits(32), [](const VectorInputs& in) {
        return out_flags(numeric::reduction_step(in.data_type("type"), word32(in, "cur"),
                                                 word32(in, "cand"), in.boolean("maxabs")));
      });
}

}  // namespace ptovp::vectors

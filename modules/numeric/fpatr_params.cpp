#include "numeric/fpatr_params.hpp"

#include <string>

#include "numeric/error.hpp"
#include "numeric/value_codec.hpp"

namespace ptovp::numeric {
namespace {

constexpr std::uint32_t kFP19Mask = 0x7FFFF;

bool positive_normal(const DecodedValue& v) {
  return v.cls == ValueClass::Normal && !v.negative;
}

std::uint64_t field_mask(unsigned width) {
  return (std::uint64_t{1} << width) - 1;
}

void require_offset_width(unsigned offset_width) {
  if (offset_width != 0 && offset_width != 5 && offset_width != 9 && offset_width != 17) {
    throw IllegalFieldValue("offset width", offset_width, "offsets are S5, S9 or S17");
  }
}

[[noreturn]] void reject_word(const char* field, std::uint64_t word, const std::string& reason) {
  throw IllegalFieldValue(field, word, reason);
}

}  // namespace

bool fp19_scale_legal(std::uint32_t fp19) {
  return fp19 <= kFP19Mask && positive_normal(decode_fp19(fp19));
}

bool fp19_activation_legal(std::uint32_t fp19) {
  return fp19 == 0 || fp19_scale_legal(fp19);
}

std::uint32_t fp32_to_fp19(std::uint32_t fp32) {
  const DecodedValue v = decode(DataType::FP32, fp32);
  if (v.is_nan()) return 0x3FF00;
  const std::uint32_t kept = fp32 >> 13;  // sign, exponent, top 10 fraction bits
  const std::uint32_t dropped = fp32 & 0x1FFF;
  const bool up = dropped > 0x1000 || (dropped == 0x1000 && (kept & 1) != 0);
  return kept + (up ? 1 : 0);  // a fraction carry increments the exponent
}

std::uint64_t pack_quant_parameter(std::uint32_t fp19, std::int64_t offset, unsigned offset_width) {
  require_offset_width(offset_width);
  std::uint64_t word = std::uint64_t{fp19 & kFP19Mask} << 13;
  if (offset_width != 0)
    word |= (static_cast<std::uint64_t>(offset) & field_mask(offset_width)) << 37;
  return word;
}

std::uint64_t pack_shift_parameter(unsigned code) {
  if (code > 15) throw IllegalFieldValue("shift code", code, "a 4-bit code is 0..15");
  return std::uint64_t{code} << 32;
}

std::int32_t quant_offset(std::uint64_t word, unsigned offset_width) {
  require_offset_width(offset_width);
  if (offset_width == 0) return 0;
  const std::uint64_t field = (word >> 37) & field_mask(offset_width);
  const std::uint64_t sign = std::uint64_t{1} << (offset_width - 1);
  return static_cast<std::int32_t>(static_cast<std::int64_t>(field ^ sign) -
                                   static_cast<std::int64_t>(sign));
}

QuantParameter decode_quant_parameter(std::uint64_t word, ParameterKind kind,
                                      unsigned offset_width) {
  require_offset_width(offset_width);
  QuantParameter p;
  switch (kind) {
    case ParameterKind::None:
      return p;
    case ParameterKind::Shift:
      if ((word & ~(std::uint64_t{0xF} << 32)) != 0) {
        reject_word("quant parameter word", word, "a shift word has only bits 35:32 set");
      }
      p.shift = static_cast<unsigned>(word >> 32) + 1;
      return p;
    case ParameterKind::Scale:
      break;
  }
  const std::uint64_t allowed =
      (std::uint64_t{kFP19Mask} << 13) | (offset_width == 0 ? 0 : field_mask(offset_width) << 37);
  if ((word & ~allowed) != 0) {
    reject_word("quant parameter word", word,
                "bits outside the FP19 scale (31:13)" +
                    std::string(offset_width == 0 ? "" : " and the offset field") + " are set");
  }
  const auto fp19 = static_cast<std::uint32_t>(word >> 13) & kFP19Mask;
  const DecodedValue scale = decode_fp19(fp19);
  if (!positive_normal(scale)) {
    reject_word("quant parameter word", word, "the FP19 scale must be a positive normal");
  }
  p.scale = to_dyadic(scale);
  p.offset = quant_offset(word, offset_width);
  return p;
}

Dyadic decode_activation_parameter(std::uint64_t word) {
  if ((word >> 19) != 0) {
    reject_word("activation parameter word", word, "bits 63:19 must be zero");
  }
  const auto fp19 = static_cast<std::uint32_t>(word);
  if (!fp19_activation_legal(fp19)) {
    reject_word("activation parameter word", word,
                "the FP19 value must be +0 or a positive normal");
  }
  return to_dyadic(decode_fp19(fp19));
}

}  // namespace ptovp::numeric

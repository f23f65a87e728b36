#include "numeric/postprocess.hpp"

#include <array>
#include <string>

#include "numeric/encoders.hpp"
#include "numeric/encoders_impl.hpp"
#include "numeric/error.hpp"
#include "numeric/requantize.hpp"
#include "numeric/value_codec.hpp"

namespace ptovp::numeric {
namespace {

using AC = AccumulatorClass;
using PK = ParameterKind;
using RC = RoundingClass;

// B.FPATR.asl: BundleFPATROutputType, the parameter and accumulator sets,
// BundleFPATRModeOffsetWidth and BundleFPATRModeFixedRounding in one table.
constexpr std::array<PreQuantModeInfo, 27> kModes{{
    {0, "NoQuant", AC::Any, DataType::FP32, PK::None, false, 0, RC::Default},
    {1, "F322F16", AC::FP32, DataType::FP16, PK::None, false, 0, RC::FixedRNE},
    {2, "VREQ8", AC::S32, DataType::S8, PK::Scale, true, 9, RC::Programmable},
    {3, "REQ8", AC::S32, DataType::S8, PK::Scale, false, 9, RC::Programmable},
    {4, "VDEQF16", AC::S32, DataType::FP16, PK::Scale, true, 0, RC::Programmable},
    {5, "DEQF16", AC::S32, DataType::FP16, PK::Scale, false, 0, RC::Programmable},
    {12, "VSHIFTS322S16", AC::S32, DataType::S16, PK::Shift, true, 0, RC::Shift},
    {13, "SHIFTS322S16", AC::S32, DataType::S16, PK::Shift, false, 0, RC::Shift},
    {16, "F322BF16", AC::FP32, DataType::BF16, PK::None, false, 0, RC::FixedRNE},
    {17, "REQ4", AC::S32, DataType::S4X2, PK::Scale, false, 5, RC::Programmable},
    {18, "VREQ4", AC::S32, DataType::S4X2, PK::Scale, true, 5, RC::Programmable},
    {19, "DEQS16", AC::S32, DataType::S16, PK::Scale, false, 17, RC::Programmable},
    {20, "VDEQS16", AC::S32, DataType::S16, PK::Scale, true, 17, RC::Programmable},
    {23, "VQF322B8_PRE", AC::FP32, DataType::S8, PK::Scale, true, 9, RC::Programmable},
    {24, "QF322B8_PRE", AC::FP32, DataType::S8, PK::Scale, false, 9, RC::Programmable},
    {25, "QF322HIF8_PRE", AC::FP32, DataType::HiF8, PK::Scale, false, 0, RC::FixedRHB},
    {26, "QF322FP8_PRE", AC::FP32, DataType::E4M3, PK::Scale, false, 0, RC::FixedRNE},
    {27, "QF322F32_PRE", AC::FP32, DataType::FP32, PK::Scale, false, 0, RC::Programmable},
    {28, "VQF322HIF8_PRE", AC::FP32, DataType::HiF8, PK::Scale, true, 0, RC::FixedRHB},
    {32, "QF322F16_PRE", AC::FP32, DataType::FP16, PK::Scale, false, 0, RC::FixedRNE},
    {33, "VQF322F16_PRE", AC::FP32, DataType::FP16, PK::Scale, true, 0, RC::FixedRNE},
    {34, "QF322BF16_PRE", AC::FP32, DataType::BF16, PK::Scale, false, 0, RC::FixedRNE},
    {35, "QS322BF16_PRE", AC::S32, DataType::BF16, PK::Scale, false, 0, RC::Programmable},
    {36, "VQF322BF16_PRE", AC::FP32, DataType::BF16, PK::Scale, true, 0, RC::FixedRNE},
    {37, "VQF322FP8_PRE", AC::FP32, DataType::E4M3, PK::Scale, true, 0, RC::FixedRNE},
    {38, "VQF322F32_PRE", AC::FP32, DataType::FP32, PK::Scale, true, 0, RC::Programmable},
    {39, "VQS322BF16_PRE", AC::S32, DataType::BF16, PK::Scale, true, 0, RC::Programmable},
}};

std::string describe(const PreQuantModeInfo& mode) {
  return "PreQuantMode " + std::to_string(mode.code) + " (" + std::string(mode.name) + ")";
}

const PreQuantModeInfo& require_mode(unsigned code) {
  const PreQuantModeInfo* mode = find_pre_quant_mode(code);
  if (mode == nullptr) {
    throw IllegalFieldValue("B.FPATR PreQuantMode", code, "reserved PreQuantMode");
  }
  return *mode;
}

DataType require_accumulator(const PreQuantModeInfo& mode, DataType accumulator) {
  const bool legal =
      mode.accumulator == AC::Any
          ? accumulator == DataType::FP32 || accumulator == DataType::S32 ||
                accumulator == DataType::U32
          : accumulator == (mode.accumulator == AC::S32 ? DataType::S32 : DataType::FP32);
  if (!legal) {
    throw IllegalFieldValue("accumulator DataType", code(accumulator),
                            describe(mode) + " takes " +
                                (mode.accumulator == AC::Any   ? "an FP32, S32 or U32"
                                 : mode.accumulator == AC::S32 ? "an S32"
                                                               : "an FP32") +
                                " accumulator");
  }
  return mode.code == 0 ? accumulator : mode.output;
}

// BundleFPATRDATRFieldsLegal, then MatrixFPATREffectiveControl.
NumericControl effective_control(const PreQuantModeInfo& mode, NumericControl datr) {
  const bool fixed_rounding = mode.rounding != RC::Programmable;
  if (fixed_rounding && datr.rounding != RoundingMode::None) {
    throw IllegalFieldValue("B.DATR RMode", static_cast<unsigned>(datr.rounding),
                            describe(mode) + " fixes rounding; RMode must be NONE");
  }
  if ((mode.rounding == RC::Default || mode.rounding == RC::Shift) && datr.saturate) {
    throw IllegalFieldValue("B.DATR Sat", 1, describe(mode) + " fixes saturation; Sat must be 0");
  }
  NumericControl control = datr;
  control.rounding =
      mode.rounding == RC::FixedRHB ? RoundingMode::RHB : resolve(datr.rounding, RoundingMode::RNE);
  return control;
}

// MatrixFloatingInfinity: E4M3 has no infinity and yields its NaN.
std::uint64_t floating_infinity(DataType type, bool negative) {
  switch (type) {
    case DataType::FP32: return negative ? 0xFF800000 : 0x7F800000;
    case DataType::FP16: return negative ? 0xFC00 : 0x7C00;
    case DataType::BF16: return negative ? 0xFF80 : 0x7F80;
    case DataType::HiF8: return negative ? 0xEF : 0x6F;
    default: return *canonical_nan(type);
  }
}

std::uint64_t sign_bit(DataType type) {
  return std::uint64_t{1} << (info(type).storage_bits - 1);
}

// MatrixFloatingSignedZero: HiF8 has no -0.
std::uint64_t floating_negative_zero(DataType type) {
  return type == DataType::HiF8 ? 0 : sign_bit(type);
}

const Dyadic kZero{};

// Whether the AVX2 requantization runs here: built with it, and the same CPU
// check as the dot kernels' back end (dot_kernel.cpp).
bool requantize_available() {
#if defined(PTOVP_HAVE_AVX2_KERNEL)
  static const bool avx2 = __builtin_cpu_supports("avx2");
  return avx2;
#else
  return false;
#endif
}

}  // namespace

const PreQuantModeInfo* find_pre_quant_mode(unsigned code) {
  for (const PreQuantModeInfo& mode : kModes) {
    if (mode.code == code) return &mode;
  }
  return nullptr;
}

PostProcess::PostProcess(unsigned pre_quant_mode, unsigned relu_mode, DataType accumulator,
                         NumericControl datr)
    : mode_(&require_mode(pre_quant_mode)),
      relu_(relu_mode),
      accumulator_(accumulator),
      encoder_(require_accumulator(*mode_, accumulator)),
      control_(effective_control(*mode_, datr)),
      kernel_(select_kernel(pre_quant_mode)),
      requantizes_(accumulator == DataType::S32 && mode_->parameter == ParameterKind::Scale &&
                   mode_->offset_width != 0 && encoder_.is_integer() && requantize_available()) {
  if (relu_mode > kReluVector) {
    throw IllegalFieldValue("B.FPATR ReluMode", relu_mode, "ReluMode is 0..3");
  }
}

QuantParameter PostProcess::quant_parameter(std::uint64_t word) const {
  return decode_quant_parameter(word, mode_->parameter, mode_->offset_width);
}

// MatrixPostQuantSpecialValue for an FP32 NaN or infinity.
Encoded PostProcess::special(const DecodedValue& source) const {
  const bool saturate = control_.saturate;
  const DataType output = encoder_.type();
  if (source.is_nan()) {
    if (encoder_.is_integer()) return {saturate ? 0 : integer_minimum_bits(output), kFlagNV};
    const std::uint8_t flags = source.cls == ValueClass::SignallingNaN ? kFlagNV : 0;
    return {saturate ? 0 : *canonical_nan(output), flags};
  }
  const bool negative = source.negative;
  if (encoder_.is_integer()) {
    if (!saturate) return {integer_minimum_bits(output), kFlagNV};
    return {negative ? integer_minimum_bits(output) : integer_maximum_bits(output), kFlagsOverflow};
  }
  if (saturate) return {*max_finite(output) | (negative ? sign_bit(output) : 0), kFlagsOverflow};
  return {floating_infinity(output, negative),
          output == DataType::E4M3 ? kFlagsOverflow : std::uint8_t{0}};
}

template <DataType D, class Value>
Encoded PostProcess::encode(const Block& block, const Value& value, std::int32_t offset) {
  // Offset modes (all integer) round and saturate at S5/S9/S17 first; the
  // post-process always calls MatrixQuantizedAffine with scale 1 (the
  // multiplier is already applied).
  if constexpr (type_info(D).kind != TypeKind::Floating) {
    if (block.offset_width != 0) {
      const SignedIntermediate intermediate = encoder_detail::round_and_saturate_signed(
          value, block.offset_width, block.control.rounding);
      Encoded result =
          encode_to<D>(dyadic64_from_integer(intermediate.value), block.control, offset);
      result.flags |= intermediate.flags;
      return result;
    }
  }
  return encode_to<D>(value, block.control);
}

bool PostProcess::identity() const {
  return kernel_ == &row_loop<&passthrough>;
}

Encoded PostProcess::passthrough(const PostProcess&, const Block&, std::uint32_t value,
                                 const QuantParameter&, const Dyadic&) {
  return {value, 0};
}

// Shift modes return before activation: ReluMode has no effect.
Encoded PostProcess::shift(const PostProcess&, const Block&, std::uint32_t value,
                           const QuantParameter& quant, const Dyadic&) {
  return matrix_shift_s32_to_s16(value, quant.shift);
}

// The activation multiplier replaces the scale on the negative path
// (MatrixSelectedMultiplier); it is chosen before the single conversion.
const Dyadic& PostProcess::select_multiplier(bool negative, const QuantParameter& quant,
                                             const Dyadic& alpha) const {
  if (!negative || relu_ == kReluNone) return quant.scale;
  return relu_ == kReluRelu ? kZero : alpha;
}

template <PostProcess::Source S, DataType D>
Encoded PostProcess::convert(const PostProcess& post, const Block& block, std::uint32_t value,
                             const QuantParameter& quant, const Dyadic& alpha) {
  Dyadic64 x;  // significand below 2^32
  if constexpr (S == Source::S32) {
    x = dyadic64_from_integer(static_cast<std::int32_t>(value));
  } else if constexpr (S == Source::U32) {
    x = Dyadic64{false, value, 0};
  } else {
    // The finite FP32 decomposition inline (decode() is an out-of-line type
    // switch); infinities and NaNs go through decode().
    const std::uint32_t biased = (value >> 23) & 0xFF;
    if (biased == 0xFF) return post.nonfinite<D>(block, value, quant, alpha);
    const std::uint32_t normal = biased != 0;
    x = Dyadic64{(value >> 31) != 0, (value & 0x7FFFFF) | normal << 23,
                 static_cast<int>(biased + (1 - normal)) - 150};
  }
  // select_multiplier on the multipliers' 64-bit words, which hold them (see
  // multiply()); by masks, as the sign of real data is random.
  const Dyadic& scale = quant.scale;
  Dyadic64 multiplier{scale.negative, static_cast<std::uint64_t>(scale.significand),
                      scale.exponent};
  if (block.relu != kReluNone) {
    const Dyadic& activation = block.relu == kReluRelu ? kZero : alpha;
    multiplier.negative = x.negative ? activation.negative : scale.negative;
    multiplier.significand = select_if(
        x.negative, static_cast<std::uint64_t>(activation.significand), multiplier.significand);
    multiplier.exponent =
        static_cast<int>(select_if(x.negative, static_cast<unsigned>(activation.exponent),
                                   static_cast<unsigned>(scale.exponent)));
  }
  if constexpr (S == Source::FP32 && type_info(D).kind == TypeKind::Floating) {
    if (x.is_zero() && x.negative && !multiplier.is_zero() && quant.offset == 0) {
      return {floating_negative_zero(D), 0};  // the -0 rule: exact reals have no sign
    }
  }
  // An FP19 multiplier (11 bits) keeps the product in 64-bit words.
  const Dyadic product = multiply(widen(x), widen(multiplier));
  if ((product.significand >> 62) != 0) return encode<D>(block, product, quant.offset);
  return encode<D>(block, encoder_detail::narrow(product), quant.offset);
}

// An FP32 infinity or NaN: -inf times a zero multiplier (ReLU, alpha +0)
// continues as 0; every other special input has a fixed result.
template <DataType D>
Encoded PostProcess::nonfinite(const Block& block, std::uint32_t value, const QuantParameter& quant,
                               const Dyadic& alpha) const {
  const DecodedValue source = decode(DataType::FP32, value);
  if (source.cls == ValueClass::Infinity && source.negative &&
      select_multiplier(true, quant, alpha).is_zero()) {
    return encode<D>(block, kZero, quant.offset);
  }
  return special(source);
}

Encoded PostProcess::element(std::uint32_t value, const QuantParameter& quant,
                             const Dyadic& alpha) const {
  std::uint64_t bits = 0;
  const std::uint8_t flags = kernel_(*this, &value, 1, &quant, 0, &alpha, 0, &bits);
  return {bits, flags};
}

std::uint8_t PostProcess::row(const std::uint32_t* values, std::size_t n,
                              const QuantParameter* quant, bool quant_per_column,
                              const Dyadic* alpha, bool alpha_per_column,
                              std::uint64_t* out) const {
  static const QuantParameter kUnit{};
  const QuantParameter* q = quant != nullptr ? quant : &kUnit;
  const Dyadic* a = alpha != nullptr ? alpha : &kZero;
  const std::size_t q_step = quant != nullptr && quant_per_column ? 1 : 0;
  const std::size_t a_step = alpha != nullptr && alpha_per_column ? 1 : 0;
  const std::size_t whole = n & ~std::size_t{3};
  std::uint8_t flags = 0;
  if (requantizes_ && q_step == 0 && a_step == 0 && whole != 0 &&
      requantize(values, whole, *q, *a, out, flags)) {
    return flags | kernel_(*this, values + whole, n - whole, q, 0, a, 0, out + whole);
  }
  return kernel_(*this, values, n, q, q_step, a, a_step, out);
}

bool PostProcess::requantize(const std::uint32_t* values, std::size_t n,
                             const QuantParameter& quant, const Dyadic& alpha, std::uint64_t* out,
                             std::uint8_t& flags) const {
#if defined(PTOVP_HAVE_AVX2_KERNEL)
  using requantize_detail::kMultiplierLimit;
  using requantize_detail::Multiplier;
  // Decoded FP19 parameters always fit; any other dyadic takes the row loop.
  auto narrow = [](const Dyadic& m, Multiplier& to) {
    if (m.negative || m.significand >= kMultiplierLimit) return false;
    to = {static_cast<std::uint32_t>(m.significand), m.exponent};
    return true;
  };
  requantize_detail::Requantization q;
  if (!narrow(quant.scale, q.positive) ||
      !narrow(select_multiplier(true, quant, alpha), q.negative)) {
    return false;
  }
  const IntegerDestination destination =
      encoder_detail::integer_destination(info(encoder_.type()).lane_bits, true);
  q.rounds_up = kMagnitudeRoundsUp[static_cast<unsigned>(control_.rounding)];
  q.intermediate_maximum = (std::int64_t{1} << (mode_->offset_width - 1)) - 1;
  q.offset = quant.offset;
  q.minimum = destination.minimum64;
  q.maximum = destination.maximum64;
  q.mask = destination.mask;
  q.saturate = control_.saturate;
  flags = requantize_detail::requantize_avx2(q, values, n, out);
  return true;
#else
  (void)values, (void)n, (void)quant, (void)alpha, (void)out, (void)flags;
  return false;
#endif
}

// Flattened: every step of the element function inlines into the loop.
template <PostProcess::ElementFunction F>
[[gnu::flatten]] std::uint8_t PostProcess::row_loop(const PostProcess& post,
                                                    const std::uint32_t* values, std::size_t n,
                                                    const QuantParameter* quant,
                                                    std::size_t quant_step, const Dyadic* alpha,
                                                    std::size_t alpha_step, std::uint64_t* out) {
  const Block block{post.relu_, post.control_, post.mode_->offset_width};
  std::uint8_t flags = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const Encoded e = F(post, block, values[i], quant[i * quant_step], alpha[i * alpha_step]);
    out[i] = e.bits;
    flags |= e.flags;
  }
  return flags;
}

// The row loop of source S for the output type among Outputs.
template <PostProcess::Source S, DataType... Outputs>
PostProcess::RowKernel PostProcess::kernel_for(DataType output) {
  RowKernel kernel = nullptr;
  ((kernel = output == Outputs ? &row_loop<&convert<S, Outputs>> : kernel), ...);
  return kernel;
}

// One loop per (accumulator, output) pair of the PreQuantMode table; mode 0
// with an activation keeps the accumulator type.
PostProcess::RowKernel PostProcess::select_kernel(unsigned pre_quant_mode) const {
  if (pre_quant_mode == 0 && relu_ == kReluNone) return &row_loop<&passthrough>;
  if (mode_->parameter == ParameterKind::Shift) return &row_loop<&shift>;
  const DataType output = encoder_.type();
  switch (accumulator_) {
    case DataType::S32:
      return kernel_for<Source::S32, DataType::S32, DataType::S8, DataType::S4X2, DataType::S16,
                        DataType::FP16, DataType::BF16>(output);
    case DataType::U32: return kernel_for<Source::U32, DataType::U32>(output);
    default:
      return kernel_for<Source::FP32, DataType::FP32, DataType::FP16, DataType::BF16,
                        DataType::E4M3, DataType::HiF8, DataType::S8>(output);
  }
}

Encoded post_process_element(std::uint32_t value, unsigned pre_quant_mode, unsigned relu_mode,
                             DataType accumulator, std::uint64_t quant_word,
                             std::uint64_t relu_word, NumericControl datr) {
  const PostProcess post(pre_quant_mode, relu_mode, accumulator, datr);
  const QuantParameter quant = post.quant_parameter(quant_word);
  const Dyadic alpha = relu_mode == kReluScalar || relu_mode == kReluVector
                           ? decode_activation_parameter(relu_word)
                           : kZero;
  return post.element(value, quant, alpha);
}

void pack_s4x2(const std::uint64_t* lanes, std::size_t n, std::uint8_t* bytes) {
  for (std::size_t i = 0; i < n; i += 2) {
    const auto high = i + 1 < n ? static_cast<std::uint8_t>(lanes[i + 1]) : std::uint8_t{0};
    bytes[i / 2] = pack_lanes(static_cast<std::uint8_t>(lanes[i]), high);
  }
}

// ---------------------------------------------------------------------------

namespace {

void require_reduction_type(DataType type) {
  if (type != DataType::FP32 && type != DataType::S32 && type != DataType::U32) {
    throw IllegalFieldValue("reduction DataType", code(type),
                            "RowMax/GroupMax reduce FP32, S32 or U32 accumulators");
  }
}

// MatrixReductionAbsoluteWithFlags.
Encoded absolute(DataType type, std::uint32_t value) {
  switch (type) {
    case DataType::S32:
      if (value == 0x80000000u) return {0x7FFFFFFF, kFlagOF};  // OF alone
      return {(value >> 31) != 0 ? std::uint32_t(0u - value) : value, 0};
    case DataType::FP32: return {value & 0x7FFFFFFFu, 0};  // NaN payloads kept
    default: return {value, 0};
  }
}

// HardwareNumericFloatingMinMax (maximum) on FP32 words.
Encoded fp32_max(std::uint32_t lhs, std::uint32_t rhs) {
  const DecodedValue l = decode(DataType::FP32, lhs);
  const DecodedValue r = decode(DataType::FP32, rhs);
  const std::uint8_t invalid =
      l.cls == ValueClass::SignallingNaN || r.cls == ValueClass::SignallingNaN ? kFlagNV : 0;
  if (l.is_nan() && r.is_nan()) return {*canonical_nan(DataType::FP32), invalid};
  if (l.is_nan()) return {rhs, invalid};
  if (r.is_nan()) return {lhs, invalid};
  if (l.cls == ValueClass::Zero && r.cls == ValueClass::Zero) {
    return {l.negative && r.negative ? lhs : 0u, 0};
  }
  // Sign-magnitude to a monotone unsigned key.
  auto key = [](std::uint32_t v) { return (v >> 31) != 0 ? ~v : v ^ 0x80000000u; };
  return {key(lhs) >= key(rhs) ? lhs : rhs, 0};
}

}  // namespace

Encoded reduction_step(DataType type, std::uint32_t current, std::uint32_t candidate,
                       bool max_abs) {
  require_reduction_type(type);
  std::uint8_t flags = 0;
  if (max_abs) {
    const Encoded l = absolute(type, current);
    const Encoded r = absolute(type, candidate);
    current = static_cast<std::uint32_t>(l.bits);
    candidate = static_cast<std::uint32_t>(r.bits);
    flags = l.flags | r.flags;
  }
  Encoded result{current, flags};
  switch (type) {
    case DataType::S32:
      if (static_cast<std::int32_t>(candidate) > static_cast<std::int32_t>(current)) {
        result.bits = candidate;
      }
      return result;
    case DataType::U32:
      if (candidate > current) result.bits = candidate;
      return result;
    default: {
      const Encoded max = fp32_max(current, candidate);
      return {max.bits, static_cast<std::uint8_t>(flags | max.flags)};
    }
  }
}

unsigned group_n_from_code(unsigned code) {
  static constexpr std::array<unsigned, 10> kGroupN{0, 8, 16, 32, 48, 64, 80, 96, 112, 128};
  if (code >= kGroupN.size()) {
    throw IllegalFieldValue("B.FPATR GroupNCode", code, "GroupNCode is 0..9");
  }
  return kGroupN[code];
}

namespace {

// The first word (through ABS when MaxAbsEn) then a step per further word.
Encoded reduce(DataType type, const std::uint32_t* words, std::size_t n, bool max_abs) {
  Encoded value{words[0], 0};
  if (max_abs) value = reduction_step(type, words[0], words[0], true);
  for (std::size_t i = 1; i < n; ++i) {
    const Encoded next =
        reduction_step(type, static_cast<std::uint32_t>(value.bits), words[i], max_abs);
    value = {next.bits, static_cast<std::uint8_t>(value.flags | next.flags)};
  }
  return value;
}

}  // namespace

Encoded row_max(DataType type, const std::uint32_t* row, std::size_t n, bool max_abs,
                const std::uint32_t* init) {
  require_reduction_type(type);
  if (n == 0) throw IllegalFieldValue("RowMax columns", 0, "a row has at least one column");
  Encoded value = reduce(type, row, n, max_abs);
  if (init != nullptr) {
    const Encoded next =
        reduction_step(type, *init, static_cast<std::uint32_t>(value.bits), max_abs);
    value = {next.bits, static_cast<std::uint8_t>(value.flags | next.flags)};
  }
  return value;
}

std::uint8_t group_max(DataType type, const std::uint32_t* row, std::size_t n, unsigned group_n,
                       bool max_abs, std::uint32_t* out) {
  require_reduction_type(type);
  if (group_n == 0) throw IllegalFieldValue("GroupN", 0, "GroupMax needs a nonzero GroupN");
  std::uint8_t flags = 0;
  for (std::size_t first = 0, g = 0; first < n; first += group_n, ++g) {
    const std::size_t count = n - first < group_n ? n - first : group_n;
    const Encoded value = reduce(type, row + first, count, max_abs);
    out[g] = static_cast<std::uint32_t>(value.bits);
    flags |= value.flags;
  }
  return flags;
}

}  // namespace ptovp::numeric

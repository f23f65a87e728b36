// The B.FPATR element pipeline (docs/numerics.md): the PreQuantMode table,
// effective rounding and B.DATR legality, the element function
// TileProfileMatrixPostProcessWithFlags, the RowMax/GroupMax reduction step
// and drivers, and S4X2 lane packing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "numeric/data_type.hpp"
#include "numeric/dyadic.hpp"
#include "numeric/encoders.hpp"
#include "numeric/fpatr_params.hpp"
#include "numeric/rounding.hpp"

namespace ptovp::numeric {

enum class AccumulatorClass : std::uint8_t {
  Any,  // mode 0: FP32, S32 or U32, kept as the output type
  S32,
  FP32,
};

enum class RoundingClass : std::uint8_t {
  Default,       // mode 0: RMode NONE and Sat 0 (-> RNE)
  FixedRNE,      // RMode must be NONE; Sat programmable
  FixedRHB,      // the HiF8 modes 25/28
  Programmable,  // B.DATR RMode (NONE -> RNE) and Sat
  Shift,         // RMode NONE and Sat 0; neither is used
};

struct PreQuantModeInfo {
  std::uint8_t code;
  std::string_view name;
  AccumulatorClass accumulator;
  DataType output;  // mode 0: the accumulator type instead
  ParameterKind parameter;
  bool vector_parameter;      // per-column words from a 1xN U64 tile
  std::uint8_t offset_width;  // 0, 5, 9 or 17
  RoundingClass rounding;
};

// nullptr for reserved codes.
const PreQuantModeInfo* find_pre_quant_mode(unsigned code);

inline constexpr unsigned kReluNone = 0, kReluRelu = 1, kReluScalar = 2, kReluVector = 3;

// One B.FPATR element configuration, resolved and validated once per block:
// the mode's row of the table, the accumulator and output types, and the
// effective rounding (MatrixFPATREffectiveControl). The constructor rejects
// reserved modes and ReluModes, the wrong accumulator class and B.DATR fields
// the mode forbids (BundleFPATRDATRFieldsLegal) with IllegalFieldValue.
class PostProcess {
 public:
  PostProcess(unsigned pre_quant_mode, unsigned relu_mode, DataType accumulator,
              NumericControl datr);

  const PreQuantModeInfo& mode() const { return *mode_; }
  unsigned relu_mode() const { return relu_; }
  DataType accumulator_type() const { return accumulator_; }
  DataType output_type() const { return encoder_.type(); }
  NumericControl control() const { return control_; }
  // PreQuantMode 0 without an activation: every output is its accumulator
  // word, with no flag.
  bool identity() const;

  // The mode's quant-parameter word, validated and decoded (default scale 1
  // for parameterless modes, whose word is ignored).
  QuantParameter quant_parameter(std::uint64_t word) const;

  // TileProfileMatrixPostProcessWithFlags of one raw accumulator word (bits
  // 31:0). `alpha` is the LReLU/PReLU value, read only for ReluMode 2/3.
  Encoded element(std::uint32_t value, const QuantParameter& quant, const Dyadic& alpha) const;

  // n elements of one row. quant/alpha point at one entry (scalar) or n
  // entries (vector tile columns); either may be null when the mode or the
  // ReluMode takes none. Returns the OR of the element flags.
  std::uint8_t row(const std::uint32_t* values, std::size_t n, const QuantParameter* quant,
                   bool quant_per_column, const Dyadic* alpha, bool alpha_per_column,
                   std::uint64_t* out) const;

 private:
  enum class Source : std::uint8_t { FP32, S32, U32 };
  // row() specialised per block; element() is it over one column, so both
  // run the same compiled code.
  using RowKernel = std::uint8_t (*)(const PostProcess&, const std::uint32_t*, std::size_t,
                                     const QuantParameter*, std::size_t, const Dyadic*, std::size_t,
                                     std::uint64_t*);
  // The block's constants as a row loop holds them: locals, which the
  // out-of-line calls of rare paths cannot clobber.
  struct Block {
    unsigned relu;
    NumericControl control;
    unsigned offset_width;
  };
  using ElementFunction = Encoded (*)(const PostProcess&, const Block&, std::uint32_t,
                                      const QuantParameter&, const Dyadic&);

  template <ElementFunction F>
  static std::uint8_t row_loop(const PostProcess& post, const std::uint32_t* values, std::size_t n,
                               const QuantParameter* quant, std::size_t quant_step,
                               const Dyadic* alpha, std::size_t alpha_step, std::uint64_t* out);
  template <Source S, DataType... Outputs>
  static RowKernel kernel_for(DataType output);
  RowKernel select_kernel(unsigned pre_quant_mode) const;

  static Encoded passthrough(const PostProcess&, const Block&, std::uint32_t value,
                             const QuantParameter&, const Dyadic&);
  static Encoded shift(const PostProcess&, const Block&, std::uint32_t value,
                       const QuantParameter& quant, const Dyadic&);
  template <Source S, DataType D>
  static Encoded convert(const PostProcess& post, const Block& block, std::uint32_t value,
                         const QuantParameter& quant, const Dyadic& alpha);
  template <DataType D>
  Encoded nonfinite(const Block& block, std::uint32_t value, const QuantParameter& quant,
                    const Dyadic& alpha) const;
  template <DataType D, class Value>
  static Encoded encode(const Block& block, const Value& value, std::int32_t offset);
  const Dyadic& select_multiplier(bool negative, const QuantParameter& quant,
                                  const Dyadic& alpha) const;
  // row() of whole groups of four words through the AVX2 requantization, for
  // one quant parameter and alpha whose multipliers it holds; false if not.
  bool requantize(const std::uint32_t* values, std::size_t n, const QuantParameter& quant,
                  const Dyadic& alpha, std::uint64_t* out, std::uint8_t& flags) const;
  Encoded special(const DecodedValue& source) const;

  const PreQuantModeInfo* mode_;
  unsigned relu_;
  DataType accumulator_;
  DestinationEncoder encoder_;
  NumericControl control_;
  RowKernel kernel_;
  // S32 words to an integer destination with an offset, on an AVX2 host.
  bool requantizes_;
};

// The element function with raw parameter words, as the conformance vectors
// state it: the quant word is read only by modes with a parameter, the
// activation word only by ReluMode 2/3; both are validated.
Encoded post_process_element(std::uint32_t value, unsigned pre_quant_mode, unsigned relu_mode,
                             DataType accumulator, std::uint64_t quant_word,
                             std::uint64_t relu_word, NumericControl datr);

// Packs destination S4X2 lanes (the low nibble of each element) two per
// byte, element 2i in bits 3:0; an odd final high nibble is 0.
void pack_s4x2(const std::uint64_t* lanes, std::size_t n, std::uint8_t* bytes);

// ---------------------------------------------------------------------------
// Reductions over the raw accumulator (FP32, S32 or U32 words).

// TileProfileMatrixReductionStepWithFlags: optional ABS of both operands
// (S32 ABS(INT_MIN) = 0x7FFFFFFF with OF), then MAX keeping `current` on ties.
Encoded reduction_step(DataType type, std::uint32_t current, std::uint32_t candidate, bool max_abs);

// GroupNCode 0..9 -> 0, 8, 16, 32, ..., 128 columns.
unsigned group_n_from_code(unsigned code);

// RowMax of one row of n >= 1 words; RowMaxIn (when init is set) is the
// current operand of a final step.
Encoded row_max(DataType type, const std::uint32_t* row, std::size_t n, bool max_abs,
                const std::uint32_t* init);

// GroupMax of one row: ceil(n / group_n) outputs, the last group partial.
// Returns the OR of the step flags.
std::uint8_t group_max(DataType type, const std::uint32_t* row, std::size_t n, unsigned group_n,
                       bool max_abs, std::uint32_t* out);

}  // namespace ptovp::numeric

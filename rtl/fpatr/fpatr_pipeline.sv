// B.FPATR element pipeline (docs/rtl-cosim.md): LANES accumulator words per
// beat through the post-process element function or one RowMax/GroupMax
// reduction step, a stall-all pipeline of DEPTH register stages with
// valid/ready on both sides. Bit-exact to the numeric core
// (modules/numeric/postprocess.cpp) for all 27 PreQuantModes: S32, U32 and
// FP32 accumulators (FP32 NaN and infinity inputs included) times the
// mode's multiplier, to S4/S8/S16 through the S5/S9/S17 offset intermediate,
// to S32/U32, and to FP32, FP16, BF16, E4M3 and HiF8; the shift modes
// SHIFTS322S16/VSHIFTS322S16; the raw accumulator of mode 0 without an
// activation; ReluMode 0..3 (the negative path takes the activation
// multiplier); the seven rounding modes; Sat; the reductions on FP32, S32
// and U32 with MaxAbsEn; the five status flags per element.
//
// Block parameters (cfg_*) are latched on cfg_load, once per block, while
// the pipeline is empty. Per-lane parameters travel with the beat, so vector
// (per-column) modes stream their column's word beside the element:
//   lane word i of in_scale / in_alpha: {exp[9:0] signed, significand[10:0]}
//     (value = significand * 2^exp; 0 significand = zero multiplier)
//   lane word i of in_offset: {shift[4:0] at 22:18, offset[17:0] signed}
//   lane word i of in_current: the reduction's current value (op = 1)
// Outputs: lane word i of out_bits (the raw destination encoding, or the
// reduction's word) and byte i of out_flags (NV DZ OF UF NX, bits 0..4).
//
// FAULT_RNE_TIE = 1 is a fault-injection build: RNE rounds an exact tie of
// an even magnitude up (one flipped rounding decision), for the checked
// backend's test.
module fpatr_pipeline #(
    parameter int LANES = 4,
    parameter int DEPTH = 3,
    parameter int FAULT_RNE_TIE = 0
) (
    input logic clk,
    input logic rst_n,

    // Block parameters.
    input logic       cfg_load,
    input logic [1:0] cfg_source,        // 0 S32, 1 U32, 2 FP32
    input logic [1:0] cfg_kind,          // 0 multiply and encode, 1 arithmetic shift, 2 pass
    input logic [1:0] cfg_relu,          // ReluMode 0..3
    input logic [2:0] cfg_rmode,         // resolved RMode: 1 RNE 2 RTZ 3 RDN 4 RUP 5 RNA 6 RTO 7 RHB
    input logic       cfg_sat,
    input logic [4:0] cfg_offset_width,  // 0, 5, 9 or 17
    input logic [2:0] cfg_out_format,    // 0 integer, 1 FP32, 2 FP16, 3 BF16, 4 E4M3, 5 HiF8
    input logic [5:0] cfg_out_bits,      // an integer's 4, 8, 16 or 32
    input logic       cfg_out_signed,
    input logic       cfg_max_abs,

    // Input beat.
    input  logic                  in_valid,
    output logic                  in_ready,
    input  logic                  in_op,      // 0 element, 1 reduction step
    input  logic [     LANES-1:0] in_lanes,   // lanes that carry an element
    input  logic [LANES*32-1:0]   in_value,
    input  logic [LANES*32-1:0]   in_current,
    input  logic [LANES*32-1:0]   in_scale,
    input  logic [LANES*32-1:0]   in_alpha,
    input  logic [LANES*32-1:0]   in_offset,

    // Output beat.
    output logic                out_valid,
    input  logic                out_ready,
    output logic [   LANES-1:0] out_lanes,
    output logic [LANES*32-1:0] out_bits,
    output logic [ LANES*8-1:0] out_flags
);

  localparam logic [4:0] NV = 5'h01, OF = 5'h04, UF = 5'h08, NX = 5'h10;
  localparam logic [2:0] RNE = 3'd1, RTZ = 3'd2, RDN = 3'd3, RUP = 3'd4, RNA = 3'd5, RTO = 3'd6,
      RHB = 3'd7;
  // Destination formats.
  localparam logic [2:0] OUT_INT = 3'd0, OUT_FP32 = 3'd1, OUT_FP16 = 3'd2, OUT_BF16 = 3'd3,
      OUT_E4M3 = 3'd4, OUT_HIF8 = 3'd5;
  // Fraction classes of the dropped bits.
  localparam logic [1:0] F_ZERO = 2'd0, F_BELOW = 2'd1, F_HALF = 2'd2, F_ABOVE = 2'd3;

  // ---------------------------------------------------------------------
  // Latched block parameters.
  logic [1:0] source_q, kind_q, relu_q;
  logic [2:0] rmode_q, out_format_q;
  logic sat_q, out_signed_q, max_abs_q;
  logic [4:0] offset_width_q;
  logic [5:0] out_bits_q;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      source_q <= '0;
      kind_q <= '0;
      relu_q <= '0;
      rmode_q <= RNE;
      sat_q <= 1'b0;
      offset_width_q <= '0;
      out_format_q <= OUT_INT;
      out_bits_q <= 6'd32;
      out_signed_q <= 1'b1;
      max_abs_q <= 1'b0;
    end else if (cfg_load) begin
      source_q <= cfg_source;
      kind_q <= cfg_kind;
      relu_q <= cfg_relu;
      rmode_q <= cfg_rmode;
      sat_q <= cfg_sat;
      offset_width_q <= cfg_offset_width;
      out_format_q <= cfg_out_format;
      out_bits_q <= cfg_out_bits;
      out_signed_q <= cfg_out_signed;
      max_abs_q <= cfg_max_abs;
    end
  end

  // ---------------------------------------------------------------------
  // FloatingToInteger's rule: whether x rounds to floor(x) + 1, given the
  // class of x - floor(x), the parity of floor(x) and the sign of x.
  function automatic logic floor_rounds_up(logic [1:0] fraction, logic odd, logic negative,
                                           logic [2:0] mode);
    logic inexact, half, above;
    inexact = fraction != F_ZERO;
    half = fraction == F_HALF;
    above = fraction == F_ABOVE;
    case (mode)
      RNE: floor_rounds_up = above || (half && (odd || FAULT_RNE_TIE != 0));
      RUP: floor_rounds_up = inexact;
      RTZ: floor_rounds_up = inexact && negative;
      RNA: floor_rounds_up = above || (half && !negative);
      RTO: floor_rounds_up = inexact && !odd;
      RHB: floor_rounds_up = above || half;
      RDN: floor_rounds_up = 1'b0;
      default: floor_rounds_up = 1'b0;
    endcase
  endfunction

  // The same rule on a magnitude: a negative x has floor -(whole + 1) and
  // x - floor(x) = 1 - fraction.
  function automatic logic magnitude_rounds_up(logic [1:0] fraction, logic odd, logic negative,
                                               logic [2:0] mode);
    logic [1:0] mirrored;
    if (fraction == F_ZERO) return 1'b0;
    if (!negative) return floor_rounds_up(fraction, odd, 1'b0, mode);
    mirrored = fraction == F_BELOW ? F_ABOVE : fraction == F_ABOVE ? F_BELOW : fraction;
    return !floor_rounds_up(mirrored, !odd, 1'b1, mode);
  endfunction

  // Range check, Sat clamp and wrap of a rounded integer (value modulo 2^66
  // with `huge` when |value| >= 2^62) to `bits` (<= 32) two's-complement or
  // unsigned bits.
  function automatic logic [36:0] integer_result(logic signed [65:0] value, logic huge,
                                                 logic negative, logic inexact, logic [5:0] bits,
                                                 logic is_signed, logic saturate);
    logic signed [65:0] minimum, maximum;
    logic below, overflow;
    logic [31:0] selected, mask;
    logic [4:0] flags;
    maximum = is_signed ? (66'sd1 <<< (bits - 1)) - 66'sd1 : (66'sd1 <<< bits) - 66'sd1;
    minimum = is_signed ? -maximum - 66'sd1 : 66'sd0;
    below = huge ? negative : value < minimum;
    overflow = huge || below || value > maximum;
    selected = value[31:0];
    if (saturate && overflow) selected = below ? minimum[31:0] : maximum[31:0];
    mask = bits >= 6'd32 ? 32'hFFFF_FFFF : (32'd1 << bits) - 32'd1;
    flags = (overflow ? (OF | NX) : 5'd0) | (inexact ? NX : 5'd0);
    return {flags, selected & mask};
  endfunction

  // The element's exact value is product * 2^exponent (a product of the
  // accumulator's magnitude, below 2^33, and an 11-bit multiplier).
  // Unused bits of the parts below are reserved or not needed by a caller.
  /* verilator lint_off UNUSEDSIGNAL */

  // The bit position of a nonzero product's leading one.
  function automatic int leading_one(logic [43:0] product);
    leading_one = 0;
    for (int b = 0; b < 44; b++) begin
      if (product[b]) leading_one = b;
    end
  endfunction

  // product * 2^shift as {huge, whole[63:0], fraction[1:0]}: its floor
  // modulo 2^64, the class of the dropped fraction, and whether it reaches
  // 2^62.
  function automatic logic [66:0] split(logic [43:0] product, int shift);
    logic [63:0] whole;
    logic [1:0] fraction;
    logic huge;
    whole = '0;
    fraction = F_ZERO;
    huge = 1'b0;
    if (shift >= 0) begin
      if (product != 0 && shift + 44 > 62) begin
        for (int b = 43; b >= 0; b--) begin
          if (product[b] && b + shift >= 62) huge = 1'b1;
        end
      end
      whole = shift >= 64 ? 64'd0 : 64'(product) << shift;
    end else if (shift <= -64) begin
      fraction = product != 0 ? F_BELOW : F_ZERO;
    end else begin
      logic [107:0] wide, rest, one;
      wide = 108'(product) << 64;
      wide = wide >> -shift;
      whole = 64'(wide[107:64]);
      rest = {44'd0, wide[63:0]};
      one = 108'd1 << 64;
      fraction = rest == 0 ? F_ZERO : (rest << 1) < one ? F_BELOW : (rest << 1) == one ? F_HALF :
          F_ABOVE;
    end
    return {huge, whole, fraction};
  endfunction

  // ReferenceMatrixIntegerEncoding; for the offset modes
  // MatrixRoundAndSaturateSigned at S5/S9/S17 first, then the offset and the
  // destination (exact integers).
  function automatic logic [36:0] to_integer(logic negative, logic [43:0] product, int exponent,
                                             logic [17:0] offset);
    logic [66:0] parts;
    logic [63:0] whole;
    logic [1:0] fraction;
    logic [64:0] rounded;
    logic signed [65:0] signed_value, with_offset;
    logic [36:0] intermediate, result;
    logic signed [31:0] narrow;
    parts = split(product, exponent);
    whole = parts[65:2];
    fraction = parts[1:0];
    rounded = {1'b0, whole} + 65'(magnitude_rounds_up(fraction, whole[0], negative, rmode_q));
    signed_value = negative ? -$signed({1'b0, rounded}) : $signed({1'b0, rounded});
    if (offset_width_q == 5'd0) begin
      return integer_result(signed_value, parts[66], negative, fraction != F_ZERO, out_bits_q,
                            out_signed_q, sat_q);
    end
    intermediate = integer_result(signed_value, parts[66], negative, fraction != F_ZERO,
                                  6'(offset_width_q), 1'b1, 1'b1);
    // The intermediate sign-extended from its width, plus the offset.
    narrow = $signed(intermediate[31:0] << (6'd32 - 6'(offset_width_q))) >>>
        (6'd32 - 6'(offset_width_q));
    with_offset = 66'(narrow) + 66'($signed(offset));
    result = integer_result(with_offset, 1'b0, with_offset < 0, 1'b0, out_bits_q, out_signed_q,
                            sat_q);
    return {result[36:32] | intermediate[36:32], result[31:0]};
  endfunction

  // The FP32, FP16 and BF16 encoder: tininess before rounding (a value
  // below the minimum normal takes the subnormal quantum and raises UF|NX
  // when inexact), overflow decided on the exact value (docs/numerics.md).
  function automatic logic [36:0] to_ieee(logic negative, logic [43:0] product, int exponent,
                                          logic [2:0] format);
    int fraction_bits, bias, e, quantum, biased;
    logic [66:0] parts;
    logic [63:0] magnitude, hidden;
    logic [1:0] fraction;
    logic tiny, inexact;
    logic [31:0] sign, infinity;
    logic [36:0] overflow;
    fraction_bits = format == OUT_FP32 ? 23 : format == OUT_FP16 ? 10 : 7;
    bias = format == OUT_FP16 ? 15 : 127;
    if (product == 0) return '0;  // a real zero has no sign: +0
    sign = negative ? (format == OUT_FP32 ? 32'h8000_0000 : 32'h0000_8000) : 32'd0;
    infinity = 32'(2 * bias + 1) << fraction_bits;
    overflow = {OF | NX, sign | (sat_q ? infinity - 32'd1 : infinity)};
    e = exponent + leading_one(product);
    if (e > bias) return overflow;
    tiny = e < 1 - bias;
    quantum = (tiny ? 1 - bias : e) - fraction_bits;
    parts = split(product, exponent - quantum);
    fraction = parts[1:0];
    inexact = fraction != F_ZERO;
    magnitude = parts[65:2] + 64'(magnitude_rounds_up(fraction, parts[2], negative, rmode_q));
    // A magnitude of 2^fraction_bits encodes the minimum normal.
    if (tiny) return {inexact ? UF | NX : 5'd0, sign | magnitude[31:0]};
    hidden = 64'd1 << fraction_bits;
    biased = e + bias;
    if (magnitude == hidden << 1) begin  // rounded up into the next binade
      magnitude = hidden;
      biased++;
    end
    if (biased >= 2 * bias + 1) return overflow;
    return {inexact ? NX : 5'd0, sign | 32'(biased) << fraction_bits | 32'(magnitude - hidden)};
  endfunction

  // A binade [2^e, 2^(e+1)) of E4M3 or HiF8 between the formats' lowest and
  // highest: {m[2:0], base[7:0]}, its values being j * 2^(e - m) for
  // 2^m <= j < 2^(m+1), coded base + j (the decoders' code layout; HiF8's
  // tapered prefix codes run the negative exponents downwards).
  function automatic logic [10:0] fp8_binade(logic hif8, int e);
    int m, base;
    if (!hif8) begin
      m = e < -6 ? e + 9 : 3;
      base = e < -6 ? 0 : (e + 7) * 8 - 8;
    end else if (e < -15) begin  // subnormals 2^(code - 23)
      m = 0;
      base = e + 22;
    end else if (e < -7) begin  // D4, negative exponent
      m = 1;
      base = 'h6E + 2 * (-e - 8);
    end else if (e < -3) begin  // D3, negative exponent
      m = 2;
      base = 'h4C + 4 * (-e - 4);
    end else if (e < -1) begin  // D2, negative exponent
      m = 3;
      base = 'h28 + 8 * (-e - 2);
    end else if (e < 2) begin  // D1 (-1), D0 (0), D1 (1)
      m = 3;
      base = e == -1 ? 'h10 : e == 0 ? 'h00 : 'h08;
    end else if (e < 4) begin  // D2
      m = 3;
      base = 'h18 + 8 * (e - 2);
    end else if (e < 8) begin  // D3
      m = 2;
      base = 'h3C + 4 * (e - 4);
    end else begin  // D4
      m = 1;
      base = 'h5E + 2 * (e - 8);
    end
    return {3'(m), 8'(base)};
  endfunction

  // ReferenceFP8Encoding's scan of the codes decides between the two codes
  // lo and hi (lo nearer zero) that bracket an inexact value: whether hi
  // wins. An RNE tie goes to the later code only if it is even and the
  // earlier odd.
  function automatic logic fp8_takes_hi(logic [1:0] fraction, logic negative, logic lo_odd,
                                        logic hi_odd, logic lo_first, logic [2:0] mode);
    case (mode)
      RNE: begin
        if (fraction != F_HALF) return fraction == F_ABOVE;
        return lo_first ? !hi_odd && lo_odd : !(!lo_odd && hi_odd);
      end
      RNA: return fraction != F_BELOW;
      RHB: return fraction == F_ABOVE || (fraction == F_HALF && !negative);
      RUP: return !negative;
      RDN: return negative;
      RTO: return !lo_odd;
      default: return 1'b0;
    endcase
  endfunction

  // The E4M3 and HiF8 encoder (ReferenceFP8Encoding): overflow decided on
  // the exact magnitude, a zero result is +0.
  function automatic logic [36:0] to_fp8(logic negative, logic [43:0] product, int exponent,
                                         logic hif8);
    int lowest, highest, largest_steps, e, m, quantum, base, top, next, steps, lo, hi, code;
    logic [10:0] binade, above;
    logic [66:0] parts;
    logic [1:0] fraction;
    logic [7:0] sign, largest;
    logic [36:0] overflow;
    logic inexact;
    if (product == 0) return '0;
    sign = negative ? 8'h80 : 8'h00;
    largest = hif8 ? 8'h6E : 8'h7E;
    // Sat=0: HiF8's infinity, E4M3's NaN (it has no infinity).
    overflow = {OF | NX, 24'd0, sat_q ? largest | sign : hif8 ? (negative ? 8'hEF : 8'h6F) : 8'h7F};
    lowest = hif8 ? -22 : -9;
    highest = hif8 ? 15 : 8;
    largest_steps = hif8 ? 2 : 14;
    e = exponent + leading_one(product);
    if (e > highest) return overflow;
    if (e < lowest) begin  // between 0 (code 0) and the smallest positive value (code 1)
      quantum = lowest;
      base = 0;
      top = 0;
      next = 1;
    end else begin
      binade = fp8_binade(hif8, e);
      above = fp8_binade(hif8, e + 1);
      m = int'(binade[10:8]);
      quantum = e - m;
      base = int'(binade[7:0]);
      top = (2 << m) - 1;
      next = int'(above[7:0]) + (1 << above[10:8]);  // the code of 2^(e+1)
    end
    parts = split(product, exponent - quantum);
    steps = int'(parts[33:2]);
    fraction = parts[1:0];
    inexact = fraction != F_ZERO;
    if (e == highest && (steps > largest_steps || (steps == largest_steps && inexact))) begin
      return overflow;
    end
    lo = base + steps;
    hi = steps == top ? next : lo + 1;
    code = inexact && fp8_takes_hi(fraction, negative, lo[0], hi[0], lo < hi, rmode_q) ? hi : lo;
    return {
      inexact ? (e < (hif8 ? -15 : -6) ? UF | NX : NX) : 5'd0,
      24'd0,
      8'(code) | (code != 0 ? sign : 8'h00)
    };
  endfunction

  // MatrixPostQuantSpecialValue of an FP32 NaN or infinity.
  function automatic logic [36:0] special(logic [31:0] value);
    logic nan, negative;
    logic [31:0] sign, infinity, largest, quiet_nan, minimum;
    nan = value[22:0] != 0;
    negative = value[31];
    if (out_format_q == OUT_INT) begin
      minimum = 32'd1 << (out_bits_q - 6'd1);  // the FP32 modes' integer outputs are signed
      if (nan || !sat_q) return {NV, nan && sat_q ? 32'd0 : minimum};
      return {OF | NX, negative ? minimum : minimum - 32'd1};
    end
    case (out_format_q)
      OUT_FP32: {sign, infinity, largest, quiet_nan} = {32'h8000_0000, 32'h7F80_0000, 32'h7F7F_FFFF,
                                                       32'h7FC0_0000};
      OUT_FP16: {sign, infinity, largest, quiet_nan} = {32'h8000, 32'h7C00, 32'h7BFF, 32'h7E00};
      OUT_BF16: {sign, infinity, largest, quiet_nan} = {32'h8000, 32'h7F80, 32'h7F7F, 32'h7FC0};
      OUT_E4M3: {sign, infinity, largest, quiet_nan} = {32'h80, 32'h7F, 32'h7E, 32'h7F};
      default: {sign, infinity, largest, quiet_nan} = {32'h80, 32'h6F, 32'h6E, 32'h80};
    endcase
    if (nan) return {value[22] ? 5'd0 : NV, sat_q ? 32'd0 : quiet_nan};
    if (sat_q) return {OF | NX, largest | (negative ? sign : 32'd0)};
    // MatrixFloatingInfinity: E4M3 gives its NaN, with OF|NX.
    if (out_format_q == OUT_E4M3) return {OF | NX, infinity};
    return {5'd0, infinity | (negative ? sign : 32'd0)};
  endfunction

  // The element function of one lane: {flags[4:0], bits[31:0]}. The lane
  // words' unused high bits are reserved.
  function automatic logic [36:0] element(logic [31:0] value, logic [31:0] scale_word,
                                          logic [31:0] alpha_word, logic [31:0] offset_word);
    logic negative, floating_source;
    logic [32:0] magnitude;
    logic [10:0] significand;
    logic signed [9:0] multiplier_exponent;
    logic [43:0] product;
    int exponent;
    logic signed [31:0] shifted;

    if (kind_q == 2'd2) return {5'd0, value};  // PreQuantMode 0 without activation
    if (kind_q == 2'd1) begin  // MatrixShiftS32ToS16: floor division, saturating
      shifted = $signed(value) >>> offset_word[22:18];
      if (shifted < -32'sd32768) return {OF | NX, 32'h0000_8000};
      if (shifted > 32'sd32767) return {OF | NX, 32'h0000_7FFF};
      return {5'd0, 16'd0, shifted[15:0]};
    end

    floating_source = source_q == 2'd2;
    if (floating_source) begin
      negative = value[31];
      magnitude = {9'd0, value[30:23] != 8'd0, value[22:0]};
      exponent = (value[30:23] != 8'd0 ? int'(value[30:23]) : 1) - 150;
    end else begin
      negative = source_q == 2'd0 && value[31];
      magnitude = negative ? 33'(-{1'b1, value}) : {1'b0, value};
      exponent = 0;
    end
    // MatrixSelectedMultiplier: the activation replaces the scale on the
    // negative path (ReLU: zero).
    if (negative && relu_q != 2'd0) begin
      significand = relu_q == 2'd1 ? 11'd0 : alpha_word[10:0];
      multiplier_exponent = relu_q == 2'd1 ? 10'sd0 : $signed(alpha_word[20:11]);
    end else begin
      significand = scale_word[10:0];
      multiplier_exponent = $signed(scale_word[20:11]);
    end

    if (floating_source && value[30:23] == 8'hFF) begin
      // -inf times a zero multiplier continues as 0; every other FP32
      // infinity or NaN has a fixed result.
      if (value[22:0] != 0 || !negative || significand != 0) return special(value);
      negative = 1'b0;
      magnitude = '0;
    end else if (floating_source && out_format_q != OUT_INT && magnitude == 0 && negative &&
                 significand != 0) begin
      // The -0 rule (the floating modes have no offset): HiF8 has no -0.
      return {5'd0, out_format_q == OUT_FP32 ? 32'h8000_0000 : out_format_q == OUT_E4M3 ? 32'h80 :
              out_format_q == OUT_HIF8 ? 32'h0 : 32'h8000};
    end

    exponent += int'(multiplier_exponent);
    product = 44'(magnitude) * 44'(significand);
    case (out_format_q)
      OUT_INT: return to_integer(negative, product, exponent, offset_word[17:0]);
      OUT_E4M3, OUT_HIF8: return to_fp8(negative, product, exponent, out_format_q == OUT_HIF8);
      default: return to_ieee(negative, product, exponent, out_format_q);
    endcase
  endfunction

  /* verilator lint_on UNUSEDSIGNAL */

  // MatrixReductionAbsoluteWithFlags.
  function automatic logic [36:0] absolute(logic [31:0] value);
    if (source_q == 2'd0) begin
      if (value == 32'h8000_0000) return {OF, 32'h7FFF_FFFF};
      return {5'd0, value[31] ? -value : value};
    end
    if (source_q == 2'd2) return {5'd0, value & 32'h7FFF_FFFF};
    return {5'd0, value};
  endfunction

  function automatic logic fp32_nan(logic [30:0] magnitude);
    return magnitude[30:23] == 8'hFF && magnitude[22:0] != 0;
  endfunction

  // HardwareNumericFloatingMinMax (maximum) on FP32 words.
  function automatic logic [36:0] fp32_max(logic [31:0] lhs, logic [31:0] rhs);
    logic [4:0] invalid;
    logic [31:0] key_l, key_r;
    invalid = (fp32_nan(lhs[30:0]) && !lhs[22]) || (fp32_nan(rhs[30:0]) && !rhs[22]) ? NV : 5'd0;
    if (fp32_nan(lhs[30:0]) && fp32_nan(rhs[30:0])) return {invalid, 32'h7FC0_0000};
    if (fp32_nan(lhs[30:0])) return {invalid, rhs};
    if (fp32_nan(rhs[30:0])) return {invalid, lhs};
    if (lhs[30:0] == 0 && rhs[30:0] == 0) return {5'd0, lhs[31] && rhs[31] ? lhs : 32'd0};
    key_l = lhs[31] ? ~lhs : lhs ^ 32'h8000_0000;
    key_r = rhs[31] ? ~rhs : rhs ^ 32'h8000_0000;
    return {5'd0, key_l >= key_r ? lhs : rhs};
  endfunction

  // TileProfileMatrixReductionStepWithFlags: MAX keeping `current` on ties.
  function automatic logic [36:0] reduction_step(logic [31:0] current, logic [31:0] candidate);
    logic [36:0] l, r, m;
    logic [4:0] flags;
    flags = 5'd0;
    if (max_abs_q) begin
      l = absolute(current);
      r = absolute(candidate);
      current = l[31:0];
      candidate = r[31:0];
      flags = l[36:32] | r[36:32];
    end
    case (source_q)
      2'd0: return {flags, $signed(candidate) > $signed(current) ? candidate : current};
      2'd1: return {flags, candidate > current ? candidate : current};
      default: begin
        m = fp32_max(current, candidate);
        return {flags | m[36:32], m[31:0]};
      end
    endcase
  endfunction

  // ---------------------------------------------------------------------
  // DEPTH register stages, stall-all: a stage advances when the last one
  // drains or is empty. Stage 0 registers the function of the input beat,
  // computed only for the lanes that carry an element of a valid beat (the
  // others hold zero), so a Verilated model evaluates it once per clock
  // edge rather than at every input change.
  logic [DEPTH-1:0] valid_q;
  logic [LANES-1:0] lanes_q[DEPTH];
  logic [LANES*32-1:0] bits_q[DEPTH];
  logic [LANES*8-1:0] flags_q[DEPTH];
  logic advance;
  assign advance = out_ready || !valid_q[DEPTH-1];
  assign in_ready = advance;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      valid_q <= '0;
    end else if (advance) begin
      valid_q <= {valid_q[DEPTH-2:0], in_valid};
    end
  end

  always_ff @(posedge clk) begin
    if (advance) begin
      logic [LANES*32-1:0] bits_d;
      logic [LANES*8-1:0] flags_d;
      for (int i = 0; i < LANES; i++) begin
        logic [36:0] r;
        r = '0;
        if (in_valid && in_lanes[i]) begin
          r = in_op ? reduction_step(in_current[i*32+:32], in_value[i*32+:32]) :
              element(in_value[i*32+:32], in_scale[i*32+:32], in_alpha[i*32+:32],
                      in_offset[i*32+:32]);
        end
        bits_d[i*32+:32] = r[31:0];
        flags_d[i*8+:8] = {3'd0, r[36:32]};
      end
      lanes_q[0] <= in_lanes;
      bits_q[0] <= bits_d;
      flags_q[0] <= flags_d;
      for (int s = 1; s < DEPTH; s++) begin
        lanes_q[s] <= lanes_q[s-1];
        bits_q[s] <= bits_q[s-1];
        flags_q[s] <= flags_q[s-1];
      end
    end
  end

  assign out_valid = valid_q[DEPTH-1];
  assign out_lanes = lanes_q[DEPTH-1];
  assign out_bits = bits_q[DEPTH-1];
  assign out_flags = flags_q[DEPTH-1];

endmodule

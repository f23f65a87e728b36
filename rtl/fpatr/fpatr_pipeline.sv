// B.FPATR element pipeline (docs/rtl-cosim.md): LANES accumulator words per
// beat through the post-process element function or one RowMax/GroupMax
// reduction step, a stall-all pipeline of DEPTH register stages with
// valid/ready on both sides. Bit-exact to the numeric core
// (modules/numeric/postprocess.cpp) for the integer family of the
// PreQuantMode table: S32 accumulators to S4/S8/S16 with the S5/S9/S17
// offset intermediate (REQ4, VREQ4, REQ8, VREQ8, DEQS16, VDEQS16), the shift
// modes SHIFTS322S16/VSHIFTS322S16, and mode 0 with an activation on S32 and
// U32 accumulators, and the raw accumulator of mode 0 without one (any
// accumulator, beside the reductions); ReluMode 0..3 (the negative path takes the activation
// multiplier); the seven rounding modes; Sat; the reductions on FP32, S32 and
// U32 with MaxAbsEn; the five status flags per element.
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
    input logic [1:0] cfg_source,        // 0 S32, 1 U32, 2 FP32 (reductions only)
    input logic [1:0] cfg_kind,          // 0 multiply and encode, 1 arithmetic shift, 2 pass
    input logic [1:0] cfg_relu,          // ReluMode 0..3
    input logic [2:0] cfg_rmode,         // resolved RMode: 1 RNE 2 RTZ 3 RDN 4 RUP 5 RNA 6 RTO 7 RHB
    input logic       cfg_sat,
    input logic [4:0] cfg_offset_width,  // 0, 5, 9 or 17
    input logic [5:0] cfg_out_bits,      // 4, 8, 16 or 32
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

  localparam logic [4:0] NV = 5'h01, OF = 5'h04, NX = 5'h10;
  localparam logic [2:0] RNE = 3'd1, RTZ = 3'd2, RDN = 3'd3, RUP = 3'd4, RNA = 3'd5, RTO = 3'd6,
      RHB = 3'd7;
  // Fraction classes of the dropped bits.
  localparam logic [1:0] F_ZERO = 2'd0, F_BELOW = 2'd1, F_HALF = 2'd2, F_ABOVE = 2'd3;

  // ---------------------------------------------------------------------
  // Latched block parameters.
  logic [1:0] source_q, kind_q, relu_q;
  logic [2:0] rmode_q;
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

  // The element function of one lane: {flags[4:0], bits[31:0]}. The lane
  // words' unused high bits are reserved.
  /* verilator lint_off UNUSEDSIGNAL */
  function automatic logic [36:0] element(logic [31:0] value, logic [31:0] scale_word,
                                          logic [31:0] alpha_word, logic [31:0] offset_word);
    logic negative;
    logic [32:0] magnitude;
    logic [10:0] significand;
    logic signed [9:0] exponent;
    logic [43:0] product;
    logic [63:0] whole;
    logic [1:0] fraction;
    logic huge, up;
    logic [64:0] rounded;
    logic signed [65:0] signed_value;
    logic [36:0] intermediate, result;
    logic signed [31:0] shifted, narrow;
    logic signed [65:0] with_offset;
    int shift;

    if (kind_q == 2'd2) return {5'd0, value};  // PreQuantMode 0 without activation
    if (kind_q == 2'd1) begin  // MatrixShiftS32ToS16: floor division, saturating
      shifted = $signed(value) >>> offset_word[22:18];
      if (shifted < -32'sd32768) return {OF | NX, 32'h0000_8000};
      if (shifted > 32'sd32767) return {OF | NX, 32'h0000_7FFF};
      return {5'd0, 16'd0, shifted[15:0]};
    end

    negative = source_q == 2'd0 && value[31];
    magnitude = negative ? 33'(-{1'b1, value}) : {1'b0, value};
    // MatrixSelectedMultiplier: the activation replaces the scale on the
    // negative path (ReLU: zero).
    if (negative && relu_q != 2'd0) begin
      significand = relu_q == 2'd1 ? 11'd0 : alpha_word[10:0];
      exponent = relu_q == 2'd1 ? 10'sd0 : $signed(alpha_word[20:11]);
    end else begin
      significand = scale_word[10:0];
      exponent = $signed(scale_word[20:11]);
    end
    product = 44'(magnitude) * 44'(significand);

    // floor(|product * 2^exponent|) modulo 2^64, the dropped fraction, and
    // whether the magnitude reaches 2^62.
    whole = '0;
    fraction = F_ZERO;
    huge = 1'b0;
    if (exponent >= 0) begin
      shift = int'(exponent);
      if (product != 0 && shift + 44 > 62) begin
        for (int b = 43; b >= 0; b--) begin
          if (product[b] && b + shift >= 62) huge = 1'b1;
        end
      end
      whole = shift >= 64 ? 64'd0 : 64'(product) << shift;
    end else begin
      shift = -int'(exponent);
      if (shift >= 64) begin
        fraction = product != 0 ? F_BELOW : F_ZERO;
      end else begin
        logic [107:0] wide, rest, one;
        wide = 108'(product) << 64;
        wide = wide >> shift;
        whole = 64'(wide[107:64]);
        rest = {44'd0, wide[63:0]};
        one = 108'd1 << 64;
        fraction = rest == 0 ? F_ZERO : (rest << 1) < one ? F_BELOW : (rest << 1) == one ? F_HALF :
            F_ABOVE;
      end
    end
    up = magnitude_rounds_up(fraction, whole[0], negative, rmode_q);
    rounded = {1'b0, whole} + 65'(up);
    signed_value = negative ? -$signed({1'b0, rounded}) : $signed({1'b0, rounded});

    if (offset_width_q == 5'd0) begin
      return integer_result(signed_value, huge, negative, fraction != F_ZERO, out_bits_q,
                            out_signed_q, sat_q);
    end
    // MatrixRoundAndSaturateSigned at S5/S9/S17, then the offset and the
    // destination (exact integers).
    intermediate = integer_result(signed_value, huge, negative, fraction != F_ZERO,
                                  6'(offset_width_q), 1'b1, 1'b1);
    // The intermediate sign-extended from its width, plus the offset.
    narrow = $signed(intermediate[31:0] << (6'd32 - 6'(offset_width_q))) >>>
        (6'd32 - 6'(offset_width_q));
    with_offset = 66'(narrow) + 66'($signed(offset_word[17:0]));
    result = integer_result(with_offset, 1'b0, with_offset < 0, 1'b0, out_bits_q, out_signed_q,
                            sat_q);
    return {result[36:32] | intermediate[36:32], result[31:0]};
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
  // Stage 0: the combinational function of the input beat.
  logic [LANES*32-1:0] bits_d;
  logic [ LANES*8-1:0] flags_d;
  always_comb begin
    for (int i = 0; i < LANES; i++) begin
      logic [36:0] r;
      r = in_op ? reduction_step(in_current[i*32+:32], in_value[i*32+:32]) :
          element(in_value[i*32+:32], in_scale[i*32+:32], in_alpha[i*32+:32],
                  in_offset[i*32+:32]);
      bits_d[i*32+:32] = in_lanes[i] ? r[31:0] : 32'd0;
      flags_d[i*8+:8] = in_lanes[i] ? {3'd0, r[36:32]} : 8'd0;
    end
  end

  // DEPTH register stages, stall-all: a stage advances when the last one
  // drains or is empty.
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

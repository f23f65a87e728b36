// CUBE dot-product kernels (docs/numerics.md): D[m,n] = init (0, or C[m,n] after
// the optional CScale), then K terms in increasing k, then bias[n], in either
// numeric profile. Two paths compute the same bits: dot_reference is the plain
// per-element definition, dot packs the operands into panels and runs a
// register-blocked kernel that vectorizes across N.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "numeric/data_type.hpp"
#include "numeric/numeric_profile.hpp"

namespace ptovp::numeric {

// One operand as its tile stores it. Logical element (r, c) is storage element
// row_offset[r] + col_offset[c]; every tile layout (row/column major, ZN/NZ,
// CUBE_M16/M32/N8 CELLs) is separable this way, so the caller describes its
// layout once and the kernels never see it. Storage elements are counted in
// logical elements: an X2 type's element i is nibble i%2 of byte i/2; wider
// elements are little-endian at byte i * storage_bits/8.
struct OperandView {
  DataType type = DataType::FP32;
  const std::uint8_t* data = nullptr;
  std::size_t size_bytes = 0;
  std::vector<std::size_t> row_offset;  // one entry per logical row
  std::vector<std::size_t> col_offset;  // one entry per logical column

  std::size_t rows() const { return row_offset.size(); }
  std::size_t cols() const { return col_offset.size(); }
};

// A dense rows x cols view; row_pitch (in elements) defaults to cols.
OperandView row_major_view(DataType type, const std::uint8_t* data, std::size_t size_bytes,
                           std::size_t rows, std::size_t cols, std::size_t row_pitch = 0);

// Dense storage of raw elements in the order given (X2 lanes packed low nibble
// first); throws IllegalFieldValue for a raw wider than the element.
std::vector<std::uint8_t> store_elements(DataType type, const std::vector<std::uint64_t>& raw);

// The operands of one CUBE operation. M = a.rows(), K = a.cols(), N = b.cols().
// A scale is present exactly for the MX sides that need one (E4M3, E5M2,
// E2M1X2, E1M2X2: E8M0, group 32; HiF4X2: U32 scale word, group 64); FP16/BF16
// sides of an MX pair have none. Any scale makes the pair MX.
struct DotOperands {
  NumericProfile profile = NumericProfile::Hardware;
  OperandView a;                       // M x K
  OperandView b;                       // K x N
  std::optional<OperandView> a_scale;  // M x G, G = ceil(K / group)
  std::optional<OperandView> b_scale;  // G x N
  std::optional<OperandView> c;        // M x N, accumulator type (ACC forms)
  std::optional<OperandView> c_scale;  // M x 1 U8 (CScale, FP32 ACC only)
  std::optional<OperandView> bias;     // 1 x N, accumulator type
};

struct DotShape {
  std::size_t m = 0, n = 0, k = 0;
  DataType accumulator = DataType::FP32;  // FP32, S32 or U32
  bool mx = false;
};

// Validates types, shapes and storage bounds; throws IllegalFieldValue.
DotShape check_dot(const DotOperands& operands);

enum class DotBackend : std::uint8_t { Auto, Portable, Avx2 };
bool dot_backend_available(DotBackend backend);

// What dot() works out from its operands' types, offsets and storage sizes
// alone: check_dot's result and the routes that pack the A and B sides and
// load C. A caller that repeats dots over views whose offsets it keeps (the
// CUBE does while a tile shape repeats, docs/cube.md) passes the same plan to
// each and calls forget() whenever a view's type, offsets or storage size
// changes or a view other than C comes or goes; between those calls only the
// views' data may move, and C may come and go (a K loop's first block has
// none): dot() checks and plans a C that comes afresh. Filled and read by
// dot() only.
struct DotPlan {
  // The next dot() checks the operands and plans again.
  void forget() { planned = false; }

  bool planned = false;
  DotShape shape;
  // pack_float_direct's offsets per side (A: run firsts; B: pair and group
  // firsts), when the side's layout takes that route.
  struct Direct {
    bool taken = false;
    std::vector<std::size_t> first, second;
  };
  Direct a, b;
  // Whether the plan covers a C, and its words' routes: one copy of the
  // whole accumulator, or of each row.
  bool with_c = false;
  bool c_whole = false, c_rows_whole = false;
};

// Both write D as M x N row-major raw accumulator words (the pto-v0 result is
// bits 31:0 of the 64-bit carrier) and return the CScale status flags.
std::uint8_t dot_reference(const DotOperands& operands, std::uint32_t* d);
std::uint8_t dot(const DotOperands& operands, std::uint32_t* d,
                 DotBackend backend = DotBackend::Auto);
// The same with a plan kept across calls (DotPlan): the checks and the
// packing analysis run only on the first call after forget(); later calls
// check only that every view has data.
std::uint8_t dot(const DotOperands& operands, std::uint32_t* d, DotPlan& plan,
                 DotBackend backend = DotBackend::Auto);

// CScale (0.58.5, docs/spec-choices.md): FP32 c x 2^-e encoded RNE by the rules
// of ReferenceFP32FiniteEncoding; NaN, infinities and zeros pass unchanged.
struct CScaled {
  std::uint32_t bits = 0;
  std::uint8_t flags = 0;  // 0, or UF|NX when the tiny result is inexact
};
CScaled cscale(std::uint32_t c, std::uint8_t e);

}  // namespace ptovp::numeric

#include "numeric/dot_kernel.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <mutex>
#include <string>
#include <type_traits>
#include <utility>

#if defined(PTOVP_HAVE_AVX2_KERNEL)
#include <cpuid.h>
#endif

#include "numeric/dot_kernel_impl.hpp"
#include "numeric/dyadic.hpp"
#include "numeric/encoders.hpp"
#include "numeric/error.hpp"
#include "numeric/matrix_operands.hpp"
#include "numeric/pooled_memory.hpp"
#include "numeric/rounding.hpp"
#include "numeric/transpose.hpp"
#include "numeric/value_codec.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#else
#include <cfenv>
#endif

namespace ptovp::numeric {
namespace {

using dot_detail::from_bits;
using dot_detail::kCanonicalNaN;
using dot_detail::kMR;
using dot_detail::kNR;
using dot_detail::LineScales;
using dot_detail::Panels;

void check_view(const OperandView& v, const char* role, std::size_t rows, std::size_t cols) {
  if (v.rows() != rows || v.cols() != cols) {
    throw IllegalFieldValue(std::string(role) + " shape", v.rows() * 65536 + v.cols(),
                            "expected " + std::to_string(rows) + " x " + std::to_string(cols) +
                                " (value is rows * 65536 + cols)");
  }
  const std::size_t last = *std::max_element(v.row_offset.begin(), v.row_offset.end()) +
                           *std::max_element(v.col_offset.begin(), v.col_offset.end());
  const DataTypeInfo& ti = info(v.type);
  const std::size_t needed = ti.lanes == 2 ? last / 2 + 1 : (last + 1) * (ti.storage_bits / 8u);
  if (v.data == nullptr || needed > v.size_bytes) {
    throw IllegalFieldValue(std::string(role) + " storage bytes", v.size_bytes,
                            "the view needs " + std::to_string(needed) + " bytes");
  }
}

// A planned dot's views keep their offsets and sizes (DotPlan): only their
// data is checked.
void check_data(const DotOperands& ops) {
  const std::pair<const OperandView*, const char*> views[] = {
      {&ops.a, "A"},
      {&ops.b, "B"},
      {ops.a_scale ? &*ops.a_scale : nullptr, "A scale"},
      {ops.b_scale ? &*ops.b_scale : nullptr, "B scale"},
      {ops.c ? &*ops.c : nullptr, "C"},
      {ops.c_scale ? &*ops.c_scale : nullptr, "CScale"},
      {ops.bias ? &*ops.bias : nullptr, "Bias"}};
  for (const auto& [view, role] : views) {
    if (view != nullptr && view->data == nullptr) {
      throw IllegalFieldValue(std::string(role) + " storage bytes", view->size_bytes,
                              "the view has no data");
    }
  }
}

void check_type(const OperandView& v, const char* role, DataType want) {
  if (v.type != want) {
    throw IllegalFieldValue(std::string(role) + " DataType", code(v.type),
                            "must be " + std::string(name(want)));
  }
}

// ---------------------------------------------------------------------------
// Element access

// Raw logical element at storage index `i` (the view's data, little-endian).
std::uint64_t raw_at(const OperandView& v, std::size_t i) {
  const DataTypeInfo& ti = info(v.type);
  if (ti.lanes == 2) return packed_lane(v.data[i / 2], static_cast<unsigned>(i % 2));
  const std::size_t bytes = ti.storage_bits / 8u;
  std::uint64_t raw = 0;
  for (std::size_t b = 0; b < bytes; ++b)
    raw |= std::uint64_t{v.data[i * bytes + b]} << (8 * b);
  return raw;
}

std::uint64_t element(const OperandView& v, std::size_t r, std::size_t c) {
  return raw_at(v, v.row_offset[r] + v.col_offset[c]);
}

// Calls f with a reader (data, index) -> raw for the view's storage width.
// Inputs are at most 32 bits wide; storage is little-endian, as is the host.
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the readers load little-endian words");
template <typename F>
void with_reader(DataType type, F&& f) {
  const DataTypeInfo& ti = info(type);
  if (ti.lanes == 2) {
    f([](const std::uint8_t* d, std::size_t i) -> std::uint32_t {
      return (d[i / 2] >> (4 * (i % 2))) & 0xFu;
    });
  } else if (ti.storage_bits == 8) {
    f([](const std::uint8_t* d, std::size_t i) -> std::uint32_t { return d[i]; });
  } else if (ti.storage_bits == 16) {
    f([](const std::uint8_t* d, std::size_t i) -> std::uint32_t {
      std::uint16_t raw;
      std::memcpy(&raw, d + 2 * i, sizeof raw);
      return raw;
    });
  } else {
    f([](const std::uint8_t* d, std::size_t i) -> std::uint32_t {
      std::uint32_t raw;
      std::memcpy(&raw, d + 4 * i, sizeof raw);
      return raw;
    });
  }
}

// The raw scale word of term k: A scales are [m, g], B scales [g, n].
std::uint64_t scale_word(const OperandView& scale, bool a_side, std::size_t line, std::size_t g) {
  return a_side ? element(scale, line, g) : element(scale, g, line);
}

// The decoded hardware-profile scale of lane k (0xFF E8M0 and an 0xFF HiF4
// base are NaN).
DecodedValue scale_value(DataType lane_type, std::uint64_t word, std::size_t k) {
  if (lane_type == DataType::HiF4X2) {
    return hif4_scale(static_cast<std::uint32_t>(word), static_cast<unsigned>(k % 64));
  }
  return decode(DataType::E8M0, word);
}

// pto-v0 carriers (DecodeTileMemoryElementRaw): 8/16/32-bit signed integers
// sign-extended, everything else (4-bit lanes included) zero-extended.
std::uint64_t carrier(DataType t, std::uint64_t raw) {
  switch (t) {
    case DataType::S8:
      return static_cast<std::uint64_t>(std::int64_t{static_cast<std::int8_t>(raw)});
    case DataType::S16:
      return static_cast<std::uint64_t>(std::int64_t{static_cast<std::int16_t>(raw)});
    case DataType::S32:
      return static_cast<std::uint64_t>(std::int64_t{static_cast<std::int32_t>(raw)});
    default: return raw;
  }
}

// The integer value of an S*/U* element (hardware profile), as a wrapping word.
std::uint32_t integer_word(DataType t, std::uint64_t raw) {
  const DecodedValue v = decode(t, raw);
  const auto magnitude = static_cast<std::uint32_t>(v.significand);
  return v.negative ? 0u - magnitude : magnitude;
}

// ---------------------------------------------------------------------------
// The initial accumulator word: +0, or C[m,n] after CScale.

std::uint32_t initial_word(const DotOperands& ops, std::size_t m, std::size_t n,
                           std::uint8_t& flags) {
  if (!ops.c) return 0;
  const auto c = static_cast<std::uint32_t>(element(*ops.c, m, n));
  if (!ops.c_scale) return c;
  const CScaled scaled = cscale(c, static_cast<std::uint8_t>(element(*ops.c_scale, m, 0)));
  flags |= scaled.flags;
  return scaled.bits;
}

// The hardware profile runs with RNE and without FTZ/DAZ whatever the host
// thread's floating-point state is.
class FloatEnvironment {
 public:
  FloatEnvironment() {
#if defined(__x86_64__) || defined(__i386__)
    constexpr unsigned kFtz = 0x8000, kDaz = 0x0040, kRoundingControl = 0x6000;
    saved_ = _mm_getcsr();
    _mm_setcsr(saved_ & ~(kFtz | kDaz | kRoundingControl));
#else
    saved_ = static_cast<unsigned>(std::fegetround());
    std::fesetround(FE_TONEAREST);
#endif
  }
  ~FloatEnvironment() {
#if defined(__x86_64__) || defined(__i386__)
    _mm_setcsr(saved_);
#else
    std::fesetround(static_cast<int>(saved_));
#endif
  }
  FloatEnvironment(const FloatEnvironment&) = delete;
  FloatEnvironment& operator=(const FloatEnvironment&) = delete;

 private:
  unsigned saved_ = 0;
};

// ---------------------------------------------------------------------------
// Reference path: every element straight from the definitions.

// Hardware operand: the exact value, times its decoded scale with one RNE
// rounding to FP32 (the double product of a <= 4-bit lane and a <= 3-bit scale
// is exact).
float reference_operand(const OperandView& v, const std::optional<OperandView>& scale, bool a_side,
                        std::size_t line, std::size_t r, std::size_t c, std::size_t k) {
  const double value = to_double(decode(v.type, element(v, r, c)));
  if (!scale) return static_cast<float>(value);
  const std::uint64_t word = scale_word(*scale, a_side, line, k / mx_scale_group(v.type));
  return static_cast<float>(value * to_double(scale_value(v.type, word, k)));
}

std::uint32_t reference_hardware_float(const DotOperands& ops, const DotShape& s, std::size_t m,
                                       std::size_t n, std::uint32_t init) {
  float acc = from_bits<float>(init);
  for (std::size_t k = 0; k < s.k; ++k) {
    const float a = reference_operand(ops.a, ops.a_scale, true, m, m, k, k);
    const float b = reference_operand(ops.b, ops.b_scale, false, n, k, n, k);
    acc = std::fmaf(a, b, acc);
  }
  if (ops.bias) acc = acc + from_bits<float>(static_cast<std::uint32_t>(element(*ops.bias, 0, n)));
  return std::isnan(acc) ? kCanonicalNaN : dot_detail::to_bits(acc);
}

std::uint32_t reference_hardware_integer(const DotOperands& ops, const DotShape& s, std::size_t m,
                                         std::size_t n, std::uint32_t init) {
  std::uint32_t acc = init;
  for (std::size_t k = 0; k < s.k; ++k) {
    acc += integer_word(ops.a.type, element(ops.a, m, k)) *
           integer_word(ops.b.type, element(ops.b, k, n));
  }
  if (ops.bias) acc += static_cast<std::uint32_t>(element(*ops.bias, 0, n));
  return acc;
}

// TileProfileMatrixAccumulate / ScaledAccumulate / Bias on 64-bit carriers.
std::uint32_t reference_pto_v0(const DotOperands& ops, const DotShape& s, std::size_t m,
                               std::size_t n, std::uint32_t init) {
  std::uint64_t acc = carrier(s.accumulator, init);
  for (std::size_t k = 0; k < s.k; ++k) {
    std::uint64_t a = carrier(ops.a.type, element(ops.a, m, k));
    std::uint64_t b = carrier(ops.b.type, element(ops.b, k, n));
    if (ops.a_scale) a *= scale_word(*ops.a_scale, true, m, k / mx_scale_group(ops.a.type));
    if (ops.b_scale) b *= scale_word(*ops.b_scale, false, n, k / mx_scale_group(ops.b.type));
    acc += a * b;
  }
  if (ops.bias) acc += carrier(s.accumulator, element(*ops.bias, 0, n));
  return static_cast<std::uint32_t>(acc);
}

// ---------------------------------------------------------------------------
// Fast path: pack both operands into panels, then run the tiles.

// Unit j * S + t of `source` (8 lines of S consecutive units) goes to unit j
// of panel row t, for t < S and j < 8. Separate storage (restrict) lets the
// compiler move them with shuffles; inlined, it loses that and loads each
// unit alone.
template <std::size_t S, typename T>
__attribute__((noinline)) void deal_lines(const T* __restrict source, T* __restrict target) {
  for (std::size_t t = 0; t < S; ++t) {
    for (std::size_t j = 0; j < 8; ++j)
      target[t * kNR + j] = source[j * S + t];
  }
}

// Packs an operand for the tiles: A rows (block 1: plain row-major) or B
// columns in panels of kNR. Line i, depth k goes to
// (i / block) * K * block + k * block + i % block; lines are zero-padded to
// `padded_lines`. value(line, k, raw) converts one element; `widen`, when
// given, converts contiguous runs of raw elements instead, and the result says
// whether it did; `transpose`, when given, moves 8 x 8 blocks of B (T-sized
// units) and `deal4` deals B's runs of 4 (deal_lines<4> when not given).
template <typename T, typename Value>
bool pack_panels(const OperandView& v, bool a_side, std::size_t padded_lines, std::size_t depth,
                 PooledVector<T>& out, Value value, dot_detail::Widener<T> widen = nullptr,
                 Transpose8 transpose = nullptr, dot_detail::Dealer<T> deal4 = nullptr) {
  const std::size_t block = a_side ? 1 : kNR;
  // kNR is a constant: no division per line.
  auto line_term = [&](std::size_t i) {
    return a_side ? i * depth : (i / kNR) * depth * kNR + i % kNR;
  };
  // Every element is written below; only the padding lines need zeros.
  out.resize(padded_lines * depth);
  for (std::size_t i = a_side ? v.rows() : v.cols(); i < padded_lines; ++i) {
    T* line = out.data() + line_term(i);
    for (std::size_t k = 0; k < depth; ++k)
      line[k * block] = T{};
  }
  // Runs of columns that are contiguous in storage (a whole row when the view
  // is row-major, a CELL row in the CUBE_M layouts) convert in one go.
  thread_local std::vector<std::pair<std::size_t, std::size_t>> runs;  // first column, count
  runs.clear();
  for (std::size_t c = 0; c < v.cols(); ++c) {
    if (c > 0 && v.col_offset[c] == v.col_offset[c - 1] + 1) {
      ++runs.back().second;
    } else {
      runs.emplace_back(c, 1);
    }
  }
  // Runs of at most kNR columns (CELL layouts, column-major views): one
  // conversion of all the storage the view spans, then every element moves by
  // its offsets. A view
  // that spans much more storage than it holds (a slice) takes the paths below.
  if (widen != nullptr && runs.size() * kNR >= v.cols()) {
    const auto [row_lo, row_hi] = std::minmax_element(v.row_offset.begin(), v.row_offset.end());
    const auto [col_lo, col_hi] = std::minmax_element(v.col_offset.begin(), v.col_offset.end());
    const std::size_t first = *row_lo + *col_lo;
    const std::size_t span = *row_hi + *col_hi + 1 - first;
    if (span <= 2 * v.rows() * v.cols()) {
      // Grown only: resizing down and up again would zero the tail each call.
      thread_local PooledVector<T> stage;
      thread_local std::vector<std::size_t> depth_offset;
      if (stage.size() < span) stage.resize(span);
      widen(v.type, v.data, first, span, stage.data());
      const std::vector<std::size_t>& lines = a_side ? v.row_offset : v.col_offset;
      const std::vector<std::size_t>& depths = a_side ? v.col_offset : v.row_offset;
      const std::size_t line_lo = a_side ? *row_lo : *col_lo;
      const std::size_t depth_lo = a_side ? *col_lo : *row_lo;
      depth_offset.resize(depth);
      for (std::size_t k = 0; k < depth; ++k)
        depth_offset[k] = depths[k] - depth_lo;
      if (a_side) {
        // Rows of CUBE_M CELLs are runs of one width starting at multiples of
        // it: fixed-size copies. Anything else moves element by element.
        auto move_rows = [&](auto run) {
          for (std::size_t i = 0; i < lines.size(); ++i) {
            const T* source = stage.data() + (lines[i] - line_lo);
            T* target = out.data() + line_term(i);
            std::size_t k = 0;
            // A copy of constant size: inline vector moves, not a library
            // call per run.
            for (; k + run <= depth; k += run)
              std::memcpy(target + k, source + depth_offset[k], run * sizeof(T));
            for (; k < depth; ++k)
              target[k] = source[depth_offset[k]];
          }
        };
        const std::size_t width = runs[0].second;
        bool uniform = true;
        for (std::size_t j = 0; j < runs.size(); ++j) {
          uniform = uniform && runs[j].first == j * width &&
                    (runs[j].second == width || j + 1 == runs.size());
        }
        if (uniform && width % 8 == 0) {
          move_rows(std::integral_constant<std::size_t, 8>{});
        } else if (uniform && width % 4 == 0) {
          move_rows(std::integral_constant<std::size_t, 4>{});
        } else if (uniform && width % 2 == 0) {  // 16-bit lanes in CUBE_M32
          move_rows(std::integral_constant<std::size_t, 2>{});
        } else {
          move_rows(std::integral_constant<std::size_t, 1>{});
        }
        return true;
      }
      // B: 8 columns at one storage stride with 8 contiguous depths (CUBE_N8
      // CELLs, column-major views) move as one 8 x 8 transpose; 8 columns 2
      // or 4 apart with depths in runs of as many (CUBE_M32 CELL rows viewed
      // transposed) as 8 lines dealt out by depth; the rest element by
      // element. Columns c0..c0+7 share a panel row.
      // Whether the depths of whole runs of 2 (4) are consecutive units: the
      // same for every column, so checked once.
      auto depth_runs = [&](std::size_t run) {
        bool runs_of = true;
        for (std::size_t k = 0; runs_of && k < (depth & ~(run - 1)); ++k)
          runs_of = depth_offset[k] == depth_offset[k & ~(run - 1)] + (k & (run - 1));
        return runs_of;
      };
      const bool pairs = depth_runs(2), quads = pairs && depth_runs(4);
      for (std::size_t c0 = 0; c0 < v.cols(); c0 += 8) {
        const std::size_t width = std::min<std::size_t>(8, v.cols() - c0);
        const T* source = stage.data() + (lines[c0] - line_lo);
        T* target = out.data() + line_term(c0);
        bool even = width == 8 && lines[c0 + 1] > lines[c0];
        const std::size_t stride = even ? lines[c0 + 1] - lines[c0] : 0;
        for (std::size_t j = 2; j < width; ++j)
          even = even && lines[c0 + j] == lines[c0] + j * stride;
        for (std::size_t k0 = 0; k0 < depth; k0 += 8) {
          const std::size_t rows = std::min<std::size_t>(8, depth - k0);
          const std::size_t* offset = depth_offset.data() + k0;
          bool square = transpose != nullptr && even && rows == 8;
          for (std::size_t k = 1; k < rows; ++k)
            square = square && offset[k] == offset[0] + k;
          if (square) {
            transpose(reinterpret_cast<const std::uint8_t*>(source + offset[0]), stride * sizeof(T),
                      reinterpret_cast<std::uint8_t*>(target + k0 * kNR), kNR * sizeof(T));
            continue;
          }
          if (even && ((stride == 2 && pairs) || (stride == 4 && quads)) &&
              (rows & (stride - 1)) == 0) {
            for (std::size_t k = 0; k < rows; k += stride) {
              if (stride == 2) {
                deal_lines<2>(source + offset[k], target + (k0 + k) * kNR);
              } else if (deal4 != nullptr) {
                deal4(source + offset[k], target + (k0 + k) * kNR);
              } else {
                deal_lines<4>(source + offset[k], target + (k0 + k) * kNR);
              }
            }
            continue;
          }
          for (std::size_t j = 0; j < width; ++j) {
            const T* column = stage.data() + (lines[c0 + j] - line_lo);
            for (std::size_t k = 0; k < rows; ++k)
              target[(k0 + k) * kNR + j] = column[offset[k]];
          }
        }
      }
      return true;
    }
  }
  if (runs.size() * 4 <= v.cols()) {
    with_reader(v.type, [&](auto read) {
      auto convert_run = [&](std::size_t r, std::size_t c0, std::size_t count, T* target) {
        const std::size_t source = v.row_offset[r] + v.col_offset[c0];
        if (widen != nullptr) return widen(v.type, v.data, source, count, target);
        for (std::size_t j = 0; j < count; ++j) {
          const std::uint32_t raw = read(v.data, source + j);
          target[j] = a_side ? value(r, c0 + j, raw) : value(c0 + j, r, raw);
        }
      };
      thread_local std::vector<T> row;  // B: one converted row, then split into panels
      row.resize(v.cols());
      for (std::size_t r = 0; r < v.rows(); ++r) {
        T* line = a_side ? out.data() + line_term(r) : row.data();
        for (const auto& [c0, count] : runs)
          convert_run(r, c0, count, line + c0);
        if (a_side) continue;
        for (std::size_t c0 = 0; c0 < v.cols(); c0 += kNR) {
          T* target = out.data() + line_term(c0) + r * kNR;
          if (v.cols() - c0 >= kNR) {
            std::copy_n(row.data() + c0, kNR, target);  // a constant size: two vector moves
          } else {
            std::copy_n(row.data() + c0, v.cols() - c0, target);
          }
        }
      }
    });
    return widen != nullptr;
  }
  // Any other layout: both indices are sums of a row term and a column term.
  thread_local std::vector<std::size_t> row_term, col_term;
  row_term.resize(v.rows());
  col_term.resize(v.cols());
  for (std::size_t r = 0; r < v.rows(); ++r)
    row_term[r] = a_side ? line_term(r) : r * block;
  for (std::size_t c = 0; c < v.cols(); ++c)
    col_term[c] = a_side ? c * block : line_term(c);
  with_reader(v.type, [&](auto read) {
    for (std::size_t r = 0; r < v.rows(); ++r) {
      const std::size_t source = v.row_offset[r];
      T* target = out.data() + row_term[r];
      for (std::size_t c = 0; c < v.cols(); ++c) {
        const std::uint32_t raw = read(v.data, source + v.col_offset[c]);
        target[col_term[c]] = a_side ? value(r, c, raw) : value(c, r, raw);
      }
    }
  });
  return false;
}

// Exact binary16 -> FP32: a finite encoding shifted into an FP32 pattern is
// the value times 2^-112 (subnormals stay exact: no DAZ). Branch-free so that
// packing loops vectorize.
float fp16_to_float(std::uint32_t h) {
  const std::uint32_t magnitude = h & 0x7FFFu;
  const std::uint32_t finite = dot_detail::to_bits(from_bits<float>(magnitude << 13) * 0x1p112f);
  const std::uint32_t special = 0x7F800000u | (magnitude & 0x3FFu) << 13;
  return from_bits<float>((h & 0x8000u) << 16 | (magnitude >= 0x7C00u ? special : finite));
}

// Calls f with a converter raw -> exact FP32 value for an ordinary or MX input.
template <typename F>
void with_float_converter(DataType type, F&& f) {
  switch (type) {
    case DataType::FP32: f([](std::uint32_t r) { return from_bits<float>(r); }); break;
    case DataType::TF32:
      f([](std::uint32_t r) {
        return (r & 0x1FFFu) != 0 ? std::numeric_limits<float>::quiet_NaN() : from_bits<float>(r);
      });
      break;
    case DataType::HF32:
      f([](std::uint32_t r) {
        return (r & 0xFFFu) != 0 ? std::numeric_limits<float>::quiet_NaN() : from_bits<float>(r);
      });
      break;
    case DataType::FP16: f([](std::uint32_t r) { return fp16_to_float(r); }); break;
    case DataType::BF16: f([](std::uint32_t r) { return from_bits<float>(r << 16); }); break;
    default: {
      const float* table = dot_detail::lane_table(type);
      f([table](std::uint32_t r) { return table[r]; });
    }
  }
}

// A is packed along k and B across n, so each side stores its scales in the
// order it reads them.
// The scales live in storage of this thread that the next call reuses.
template <typename T, typename Scale>
LineScales<T> line_scales(const OperandView& scale, DataType lane_type, bool a_side,
                          std::size_t lines, std::size_t k, unsigned shift, Scale to_scale) {
  const std::size_t runs = ((k - 1) >> shift) + 1;
  thread_local std::vector<T> values;
  values.resize(lines * runs);  // every entry is written below
  LineScales<T> out{values.data(), a_side ? runs : 1, a_side ? 1 : lines, shift};
  // A scales are [line, g], B scales [g, line].
  const std::vector<std::size_t>& line_offset = a_side ? scale.row_offset : scale.col_offset;
  const std::vector<std::size_t>& group_offset = a_side ? scale.col_offset : scale.row_offset;
  // Groups are 32 or 64 lanes: a shift, not a division, per scale.
  const unsigned group_shift = mx_scale_group(lane_type) == 64 ? 6 : 5;
  // A group's runs are consecutive: its word is read once for all of them.
  const std::size_t group_runs = std::size_t{1} << (group_shift - shift);
  with_reader(scale.type, [&](auto read) {
    if (group_runs == 1) {  // a word per scale (E8M0 groups of 32): no run loop
      for (std::size_t r = 0; r < runs; ++r) {
        T* target = values.data() + r * out.run_stride;
        for (std::size_t i = 0; i < lines; ++i) {
          target[i * out.line_stride] =
              to_scale(read(scale.data, line_offset[i] + group_offset[r]), r << shift);
        }
      }
      return;
    }
    for (std::size_t i = 0; i < lines; ++i) {
      for (std::size_t r0 = 0; r0 < runs; r0 += group_runs) {
        const std::uint32_t word =
            read(scale.data, line_offset[i] + group_offset[(r0 << shift) >> group_shift]);
        for (std::size_t r = r0; r < std::min(runs, r0 + group_runs); ++r)
          values[i * out.line_stride + r * out.run_stride] = to_scale(word, r << shift);
      }
    }
  });
  return out;
}

// The exact FP32 values of the 256 E6M2 HiF4 scale bases (0xFF is NaN).
const float* e6m2_table() {
  static const std::array<float, 256> table = [] {
    std::array<float, 256> values{};
    for (unsigned raw = 0; raw < 256; ++raw)
      values[raw] = static_cast<float>(to_double(decode_e6m2(static_cast<std::uint8_t>(raw))));
    return values;
  }();
  return table.data();
}

// The scales of the 16 runs of 4 lanes of one HiF4 group: base * 2^(bit[8 +
// r/2] + bit[16 + r]) for run r (hif4_scale), exact.
void hif4_run_scales(std::uint32_t word, float base, float* out) {
  for (unsigned r = 0; r < 16; ++r)
    out[r] = base * static_cast<float>(1u << hif4_scale_increment(word, 4 * r));
}

// HiF4X2 scales by runs of 4 lanes: each word's base is read from the E6M2
// table and its 16 runs computed together (with AVX2 when `simd`). Bases are
// at most 1.75 * 2^15, so base * 2^increment is exact; a NaN base stays NaN.
// The scales live in storage of this thread that the next call reuses.
LineScales<float> hif4_line_scales(const OperandView& scale, bool a_side, std::size_t lines,
                                   std::size_t k, bool simd) {
  constexpr unsigned kShift = 2;
  constexpr std::size_t kGroupRuns = 16;
  const std::size_t runs = ((k - 1) >> kShift) + 1;
  thread_local std::vector<float> values;
  values.resize(lines * runs);  // every entry is written below
  LineScales<float> out{values.data(), a_side ? runs : 1, a_side ? 1 : lines, kShift};
  // A scales are [line, g], B scales [g, line]; the carrier is U32.
  const std::vector<std::size_t>& line_offset = a_side ? scale.row_offset : scale.col_offset;
  const std::vector<std::size_t>& group_offset = a_side ? scale.col_offset : scale.row_offset;
  const float* bases = e6m2_table();
  float group[kGroupRuns];
  for (std::size_t i = 0; i < lines; ++i) {
    for (std::size_t g = 0; g * kGroupRuns < runs; ++g) {
      std::uint32_t word;
      std::memcpy(&word, scale.data + 4 * (line_offset[i] + group_offset[g]), sizeof word);
      if (simd) {
        dot_detail::hif4_run_scales_avx2(word, bases[word & 0xFF], group);
      } else {
        hif4_run_scales(word, bases[word & 0xFF], group);
      }
      const std::size_t first = g * kGroupRuns;
      for (std::size_t r = 0; r < std::min(kGroupRuns, runs - first); ++r)
        values[i * out.line_stride + (first + r) * out.run_stride] = group[r];
    }
  }
  return out;
}

// A's rows are padded to the micro-tile height, B's columns to whole panels.
std::size_t padded(bool a_side, std::size_t lines) {
  const std::size_t unit = a_side ? kMR : kNR;
  return (lines + unit - 1) / unit * unit;
}

bool is_table_lane(DataType t) {
  return t == DataType::HiF8 || t == DataType::E4M3 || t == DataType::E5M2 || t == DataType::E3M2 ||
         t == DataType::E2M3 || t == DataType::HiF4X2 || t == DataType::E2M1X2 ||
         t == DataType::E1M2X2;
}

// The two layouts of the columns-first order (docs/cube.md), which the
// direct paths below pack without pack_panels' analysis. A: rows whose K
// elements come in runs of 8 consecutive ones (CUBE_N8 CELL columns,
// row-major rows); true with the first element of each run in `run_first`.
bool rows_in_runs_of_8(const OperandView& v, std::size_t depth,
                       std::vector<std::size_t>& run_first) {
  if (depth % 8 != 0) return false;
  for (std::size_t c = 0; c < depth; ++c) {
    if (v.col_offset[c] != v.col_offset[c & ~std::size_t{7}] + (c & 7)) return false;
  }
  run_first.resize(depth / 8);
  for (std::size_t j = 0; j < depth / 8; ++j)
    run_first[j] = v.col_offset[8 * j];
  return true;
}

// B: columns taken from CELL rows of `unit` consecutive depths, 8 columns a
// unit apart (CUBE_M32 viewed transposed); true with the first element of
// each run of depths in `unit_first` and of each group of 8 columns in
// `group_first`.
bool columns_in_cell_rows(const OperandView& v, std::size_t lines, std::size_t depth,
                          std::size_t unit, std::vector<std::size_t>& unit_first,
                          std::vector<std::size_t>& group_first) {
  if (depth % unit != 0 || lines % 8 != 0) return false;
  for (std::size_t n = 0; n < lines; ++n) {
    if (v.col_offset[n] != v.col_offset[n & ~std::size_t{7}] + unit * (n & 7)) return false;
  }
  for (std::size_t k = 0; k < depth; ++k) {
    if (v.row_offset[k] != v.row_offset[k & ~(unit - 1)] + (k & (unit - 1))) return false;
  }
  unit_first.resize(depth / unit);
  for (std::size_t p = 0; p < depth / unit; ++p)
    unit_first[p] = v.row_offset[unit * p];
  group_first.resize(lines / 8);
  for (std::size_t g = 0; g < lines / 8; ++g)
    group_first[g] = v.col_offset[8 * g];
  return true;
}

// The CELL-row unit of a B view's direct route: 2 FP16/BF16 lanes, 4 8-bit
// lanes; 0 for any other type.
std::size_t cell_row_unit(DataType type) {
  if (type == DataType::FP16 || type == DataType::BF16) return 2;
  return info(type).storage_bits == 8 && info(type).lanes == 1 ? 4 : 0;
}

// Whether a side's view has a columns-first layout, and its offsets
// (DotPlan::Direct); the pack_*_direct functions take the route.
void plan_direct(const OperandView& v, bool a_side, std::size_t lines, std::size_t depth,
                 DotPlan::Direct& route) {
  if (a_side) {
    route.taken = rows_in_runs_of_8(v, depth, route.first);
    return;
  }
  const std::size_t unit = cell_row_unit(v.type);
  route.taken = unit != 0 && columns_in_cell_rows(v, lines, depth, unit, route.first, route.second);
}

// Zeros what the direct paths do not write: A's rows past `lines`, the
// padding columns of B's last panel.
template <typename T>
void zero_padding(PooledVector<T>& out, bool a_side, std::size_t lines, std::size_t depth) {
  if (a_side) {
    std::fill(out.begin() + static_cast<std::ptrdiff_t>(lines * depth), out.end(), T{});
    return;
  }
  if (lines % kNR == 0) return;
  T* panel = out.data() + lines / kNR * depth * kNR;
  for (std::size_t k = 0; k < depth; ++k)
    std::fill_n(panel + k * kNR + lines % kNR, kNR - lines % kNR, T{});
}

// The columns-first layouts as FP32 panels: A's runs of 8 widen in one call,
// B's CELL rows of 2 FP16/BF16 or 4 8-bit lanes widen and deal out into the
// panels in one pass. `scales`, when given, multiply A's runs of 8 or the
// 8-bit B lanes as they are written (the caller checks that their runs are
// long enough). False, with `out` untouched, for any other view (`route` is
// the side's plan_direct); the caller checks that widen_avx2 converts the
// type.
bool pack_float_direct(const OperandView& v, bool a_side, std::size_t lines, std::size_t depth,
                       const DotPlan::Direct& route, const LineScales<float>* scales,
                       PooledVector<float>& out) {
  if (!route.taken) return false;
  if (a_side) {
    out.resize(padded(true, lines) * depth);
    dot_detail::widen_rows_avx2(v.type, v.data, v.row_offset.data(), lines, route.first.data(),
                                depth / 8, scales, out.data());
  } else {
    const bool sixteen = cell_row_unit(v.type) == 2;
    if (sixteen && scales != nullptr) return false;
    out.resize(padded(false, lines) * depth);
    if (sixteen) {
      dot_detail::deal_pairs_avx2(v.type, v.data, route.first.data(), depth / 2,
                                  route.second.data(), lines / 8, out.data());
    } else {
      dot_detail::deal_quads_avx2(v.type, v.data, route.first.data(), depth / 4,
                                  route.second.data(), lines / 8, scales, out.data());
    }
  }
  zero_padding(out, a_side, lines, depth);
  return true;
}

// Multiplies widened panels by their lanes' scales (the same one rounding as
// value() * scale per element).
void apply_scales(PooledVector<float>& out, bool a_side, std::size_t lines, std::size_t k,
                  const LineScales<float>& scales) {
  const std::size_t run = std::size_t{1} << scales.shift;
  if (a_side) {
    // Whole runs multiply by one scale in a loop of constant length.
    auto scale_rows = [&](auto whole) {
      for (std::size_t r = 0; r < lines; ++r) {
        float* row = out.data() + r * k;
        std::size_t c0 = 0;
        for (; c0 + whole <= k; c0 += whole) {
          const float scale = scales.at(r, c0);
          for (std::size_t c = 0; c < whole; ++c)
            row[c0 + c] = row[c0 + c] * scale;
        }
        for (; c0 < k; ++c0)
          row[c0] = row[c0] * scales.at(r, c0);
      }
    };
    if (run == 4) {
      scale_rows(std::integral_constant<std::size_t, 4>{});
    } else {
      scale_rows(std::integral_constant<std::size_t, 32>{});
    }
    return;
  }
  // B: each run of lanes multiplies a panel's rows by the same kNR scales
  // (zero for padding columns, which hold zeros).
  for (std::size_t n0 = 0; n0 < lines; n0 += kNR) {
    for (std::size_t k0 = 0; k0 < k; k0 += run) {
      float scale[kNR] = {};
      for (std::size_t j = 0; j < std::min(kNR, lines - n0); ++j)
        scale[j] = scales.at(n0 + j, k0);
      for (std::size_t kk = k0; kk < std::min(k, k0 + run); ++kk) {
        float* panel_row = out.data() + n0 * k + kk * kNR;
        for (std::size_t j = 0; j < kNR; ++j)
          panel_row[j] = panel_row[j] * scale[j];
      }
    }
  }
}

// `direct` is the side's plan_direct route.
void pack_float_side(const OperandView& v, const std::optional<OperandView>& scale, bool a_side,
                     bool simd, std::size_t lines, std::size_t k, const DotPlan::Direct& direct,
                     PooledVector<float>& out) {
  with_float_converter(v.type, [&](auto convert) {
    if (!scale) {
      const bool widens = v.type == DataType::FP32 || v.type == DataType::FP16 ||
                          v.type == DataType::BF16 || is_table_lane(v.type);
      if (simd && widens && pack_float_direct(v, a_side, lines, k, direct, nullptr, out)) return;
      pack_panels<float>(
          v, a_side, padded(a_side, lines), k, out,
          [&](std::size_t, std::size_t, std::uint32_t raw) { return convert(raw); },
          simd && widens ? dot_detail::widen_avx2 : nullptr,
          simd ? transpose8(sizeof(float)) : nullptr,
          simd ? dot_detail::deal4_float_avx2 : nullptr);
      return;
    }
    const float* e8m0 = dot_detail::lane_table(DataType::E8M0);  // 0xFF is NaN
    const LineScales<float> scales =
        v.type == DataType::HiF4X2
            ? hif4_line_scales(*scale, a_side, lines, k, simd)
            : line_scales<float>(*scale, v.type, a_side, lines, k, 5,
                                 [&](std::uint64_t word, std::size_t) { return e8m0[word]; });
    // One FP32 multiply: the exact product rounded once, RNE. The direct
    // paths multiply as they write when a scale covers a whole run they move
    // (8 A lanes, 4 B lanes).
    const bool folds = scales.shift >= (a_side ? 3u : 2u);
    if (simd && is_table_lane(v.type) &&
        pack_float_direct(v, a_side, lines, k, direct, folds ? &scales : nullptr, out)) {
      if (!folds) apply_scales(out, a_side, lines, k, scales);
      return;
    }
    const bool widened = pack_panels<float>(
        v, a_side, padded(a_side, lines), k, out,
        [&](std::size_t i, std::size_t kk, std::uint32_t raw) {
          return convert(raw) * scales.at(i, kk);
        },
        simd && is_table_lane(v.type) ? dot_detail::widen_avx2 : nullptr,
        simd ? transpose8(sizeof(float)) : nullptr, simd ? dot_detail::deal4_float_avx2 : nullptr);
    if (widened) apply_scales(out, a_side, lines, k, scales);
  });
}

void pack_wrap_side(const OperandView& v, const std::optional<OperandView>& scale, bool a_side,
                    NumericProfile profile, std::size_t lines, std::size_t k,
                    PooledVector<std::uint32_t>& out) {
  // Narrow lanes go through a table of their words. Wider ones are 16-bit
  // integers or pto-v0 floats, whose carrier is their word; only S4X2 lanes
  // differ between the profiles (pto-v0 zero-extends them).
  std::array<std::uint32_t, 256> narrow{};
  const bool use_table = info(v.type).lane_bits <= 8;
  if (use_table) {
    for (unsigned raw = 0; raw < 256; ++raw) {
      narrow[raw] = profile == NumericProfile::PtoV0
                        ? static_cast<std::uint32_t>(carrier(v.type, raw))
                        : integer_word(v.type, raw);
    }
  }
  auto convert = [&](std::uint32_t raw) {
    return use_table ? narrow[raw & 0xFF] : static_cast<std::uint32_t>(carrier(v.type, raw));
  };
  if (!scale) {
    pack_panels<std::uint32_t>(
        v, a_side, padded(a_side, lines), k, out,
        [&](std::size_t, std::size_t, std::uint32_t raw) { return convert(raw); });
    return;
  }
  // pto-v0 only: the raw scale carrier multiplies the raw lane carrier.
  const LineScales<std::uint32_t> scales = line_scales<std::uint32_t>(
      *scale, v.type, a_side, lines, k, v.type == DataType::HiF4X2 ? 6 : 5,
      [](std::uint64_t w, std::size_t) { return static_cast<std::uint32_t>(w); });
  pack_panels<std::uint32_t>(v, a_side, padded(a_side, lines), k, out,
                             [&](std::size_t i, std::size_t kk, std::uint32_t raw) {
                               return convert(raw) * scales.at(i, kk);
                             });
}

// Whether C's columns are consecutive (C viewed columns first, docs/cube.md:
// it loads a row at a time) and whether its rows follow each other too (one
// copy).
void plan_accumulator(const OperandView& c, std::size_t m, std::size_t n, DotPlan& plan) {
  bool rows_whole = true;
  for (std::size_t col = 1; col < n; ++col)
    rows_whole = rows_whole && c.col_offset[col] == c.col_offset[0] + col;
  bool whole = rows_whole;
  for (std::size_t r = 1; r < m; ++r)
    whole = whole && c.row_offset[r] == c.row_offset[0] + r * n;
  plan.c_rows_whole = rows_whole;
  plan.c_whole = whole;
}

// C's 32-bit words into D (row-major M x N), by the routes plan_accumulator
// found. An 8 x 8 block whose rows are consecutive in storage and whose
// columns are equally spaced (C in CUBE_M32: each CELL one column of 32 rows)
// moves as one transpose, a block whose columns are consecutive (row-major C)
// row by row, anything else element by element.
void load_accumulator(const OperandView& c, std::size_t m, std::size_t n, const DotPlan& plan,
                      std::uint32_t* d) {
  const Transpose8 transpose = transpose8(sizeof(std::uint32_t));
  const auto at = [&](std::size_t r, std::size_t col) {
    return c.data + sizeof(std::uint32_t) * (c.row_offset[r] + c.col_offset[col]);
  };
  auto spaced = [](const std::vector<std::size_t>& offsets, std::size_t first, std::size_t step) {
    for (std::size_t j = 1; j < 8; ++j) {
      if (offsets[first + j] != offsets[first] + j * step) return false;
    }
    return true;
  };
  const bool rows_whole = plan.c_rows_whole;
  if (plan.c_whole) {
    std::memcpy(d, at(0, 0), m * n * sizeof(std::uint32_t));
    return;
  }
  if (rows_whole) {
    // Copies of 8 words have a constant size: inline moves.
    for (std::size_t r = 0; r < m; ++r) {
      std::size_t col = 0;
      for (; col + 8 <= n; col += 8)
        std::memcpy(d + r * n + col, at(r, col), 8 * sizeof(std::uint32_t));
      if (col < n) std::memcpy(d + r * n + col, at(r, col), (n - col) * sizeof(std::uint32_t));
    }
    return;
  }
  for (std::size_t m0 = 0; m0 < m; m0 += 8) {
    for (std::size_t n0 = 0; n0 < n; n0 += 8) {
      if (m0 + 8 <= m && n0 + 8 <= n) {
        const std::size_t stride = c.col_offset[n0 + 1] - c.col_offset[n0];
        if (c.col_offset[n0 + 1] > c.col_offset[n0] && stride >= 8 && spaced(c.row_offset, m0, 1) &&
            spaced(c.col_offset, n0, stride)) {
          transpose(at(m0, n0), stride * sizeof(std::uint32_t),
                    reinterpret_cast<std::uint8_t*>(d + m0 * n + n0), n * sizeof(std::uint32_t));
          continue;
        }
        if (spaced(c.col_offset, n0, 1)) {
          for (std::size_t r = m0; r < m0 + 8; ++r)
            std::memcpy(d + r * n + n0, at(r, n0), 8 * sizeof(std::uint32_t));
          continue;
        }
      }
      for (std::size_t r = m0; r < std::min(m, m0 + 8); ++r) {
        for (std::size_t col = n0; col < std::min(n, n0 + 8); ++col)
          std::memcpy(d + r * n + col, at(r, col), sizeof(std::uint32_t));
      }
    }
  }
}

// Integer lanes whose values all fit 16 signed bits: the AVX2 back end
// multiplies them with vpmaddwd (hardware profile; pto-v0 keeps its carriers).
bool int16_lane(DataType t) {
  return t == DataType::S8 || t == DataType::U8 || t == DataType::S16 || t == DataType::S4X2 ||
         t == DataType::U4X2;
}

// The columns-first layouts of S8 and U8 as 16-bit panels, like
// pack_float_direct: A's runs of 8 widen in one call, B's CELL rows of 4
// lanes are dealt out and widened in one pass. False, with `out` untouched,
// for any other type or view (`route` is the side's plan_direct).
bool pack_int16_direct(const OperandView& v, bool a_side, std::size_t lines, std::size_t depth,
                       const DotPlan::Direct& route, PooledVector<std::int16_t>& out) {
  if ((v.type != DataType::S8 && v.type != DataType::U8) || !route.taken) return false;
  if (a_side) {
    out.resize(padded(true, lines) * depth);
    dot_detail::widen_rows_int16_avx2(v.type, v.data, v.row_offset.data(), lines,
                                      route.first.data(), depth / 8, out.data());
  } else {
    out.resize(padded(false, lines) * depth);
    dot_detail::deal_quads_int16_avx2(v.type, v.data, route.first.data(), depth / 4,
                                      route.second.data(), lines / 8, out.data());
  }
  zero_padding(out, a_side, lines, depth);
  return true;
}

void pack_int16_side(const OperandView& v, bool a_side, std::size_t lines, std::size_t k,
                     const DotPlan::Direct& direct, PooledVector<std::int16_t>& out) {
  if (pack_int16_direct(v, a_side, lines, k, direct, out)) return;
  pack_panels<std::int16_t>(
      v, a_side, padded(a_side, lines), k, out,
      [&](std::size_t, std::size_t, std::uint32_t raw) {
        return static_cast<std::int16_t>(integer_word(v.type, raw));
      },
      dot_detail::widen_int16_avx2, transpose8(sizeof(std::int16_t)), dot_detail::deal4_int16_avx2);
}

template <typename T>
std::vector<T> bias_panel(const DotOperands& ops, std::size_t n) {
  std::vector<T> out;
  if (!ops.bias) return out;
  out.assign((n + kNR - 1) / kNR * kNR, T{});
  for (std::size_t j = 0; j < n; ++j) {
    out[j] = from_bits<T>(static_cast<std::uint32_t>(element(*ops.bias, 0, j)));
  }
  return out;
}

// A copy of a view: its type, offsets and storage bytes.
class KeptView {
 public:
  // Bytes first: a view of other bytes differs at once.
  bool matches(const OperandView& v) const {
    return v.type == type_ && v.size_bytes == bytes_.size() &&
           std::memcmp(v.data, bytes_.data(), bytes_.size()) == 0 && v.row_offset == row_offset_ &&
           v.col_offset == col_offset_;
  }
  // False, keeping nothing, for a view into much larger storage than its
  // elements (a Shared record's slice), which is not copied whole at every call.
  bool keep(const OperandView& v) {
    if (v.size_bytes > 4 * (v.rows() * v.cols() * info(v.type).lane_bits / 8 + 64)) return false;
    type_ = v.type;
    row_offset_ = v.row_offset;
    col_offset_ = v.col_offset;
    bytes_.assign(v.data, v.data + v.size_bytes);
    return true;
  }

 private:
  DataType type_ = DataType::FP32;
  std::vector<std::size_t> row_offset_, col_offset_;
  PooledVector<std::uint8_t> bytes_;
};

// What one side's panels on a thread were packed from: the view and its MX
// scale (copies), the lines and depth, and the back end. Packing is a
// function of these alone, so a side that matches them, such as every PE's
// copy of one B and of its scales (docs/cube.md "Data flow"), finds its
// panels already packed.
class PackedSide {
 public:
  // Packs the side with `pack` unless the panels of the last call hold it.
  template <typename Pack>
  void pack(const OperandView& v, const std::optional<OperandView>& scale, bool simd,
            std::size_t lines, std::size_t depth, Pack&& pack) {
    if (valid_ && simd == simd_ && lines == lines_ && depth == depth_ && view_.matches(v) &&
        scale.has_value() == scaled_ && (!scale || scale_.matches(*scale))) {
      misses_ = 0;
      return;
    }
    valid_ = false;
    pack();
    // A side that keeps missing (each PE's own A in a GEMM) is kept only
    // after a hit or every kRearm misses: its copy and compare would cost
    // every call about what packing it does.
    ++misses_;
    if (misses_ > 1 && misses_ % kRearm != 0) return;
    simd_ = simd;
    lines_ = lines;
    depth_ = depth;
    scaled_ = scale.has_value();
    valid_ = view_.keep(v) && (!scale || scale_.keep(*scale));
  }

 private:
  static constexpr std::size_t kRearm = 8;
  bool valid_ = false, simd_ = false, scaled_ = false;
  std::size_t lines_ = 0, depth_ = 0, misses_ = 0;
  KeptView view_, scale_;
};

bool avx2_supported() {
#if defined(PTOVP_HAVE_AVX2_KERNEL)
  static const bool supported = [] {
    // F16C through CPUID leaf 1: Clang's __builtin_cpu_supports does not know it.
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    const bool f16c = __get_cpuid(1, &eax, &ebx, &ecx, &edx) != 0 && (ecx & bit_F16C) != 0;
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && f16c;
  }();
  return supported;
#else
  return false;
#endif
}

}  // namespace

// Exact FP32 value of every raw lane of a type of at most 8 bits, from the
// codec; invalid encodings are NaN. Each type's table is built on its first
// use: a program needs two or three of them, and building all of them cost
// the first block more than its kernels.
const float* dot_detail::lane_table(DataType type) {
  static std::array<std::array<float, 256>, 32> tables;
  static std::array<std::once_flag, 32> built;
  const unsigned index = code(type);
  std::call_once(built[index], [&] {
    if (info(type).lane_bits > 8) return;
    for (unsigned raw = 0; raw < 256; ++raw)
      tables[index][raw] = static_cast<float>(to_double(decode(type, raw)));
  });
  return tables[index].data();
}

OperandView row_major_view(DataType type, const std::uint8_t* data, std::size_t size_bytes,
                           std::size_t rows, std::size_t cols, std::size_t row_pitch) {
  OperandView view{type, data, size_bytes, std::vector<std::size_t>(rows),
                   std::vector<std::size_t>(cols)};
  const std::size_t pitch = row_pitch == 0 ? cols : row_pitch;
  for (std::size_t r = 0; r < rows; ++r)
    view.row_offset[r] = r * pitch;
  for (std::size_t c = 0; c < cols; ++c)
    view.col_offset[c] = c;
  return view;
}

std::vector<std::uint8_t> store_elements(DataType type, const std::vector<std::uint64_t>& raw) {
  const DataTypeInfo& ti = info(type);
  const unsigned bits = ti.lanes == 2 ? 4u : ti.storage_bits;
  const std::size_t bytes = ti.lanes == 2 ? (raw.size() + 1) / 2 : raw.size() * (bits / 8u);
  std::vector<std::uint8_t> out(bytes);
  for (std::size_t i = 0; i < raw.size(); ++i) {
    if (bits < 64 && (raw[i] >> bits) != 0) {
      throw IllegalFieldValue(std::string(ti.name) + " element", raw[i],
                              "wider than " + std::to_string(bits) + " bits");
    }
    if (ti.lanes == 2) {
      out[i / 2] = static_cast<std::uint8_t>(out[i / 2] | raw[i] << (4 * (i % 2)));
      continue;
    }
    for (unsigned b = 0; b < bits / 8u; ++b) {
      out[i * (bits / 8u) + b] = static_cast<std::uint8_t>(raw[i] >> (8 * b));
    }
  }
  return out;
}

DotShape check_dot(const DotOperands& ops) {
  DotShape s;
  s.m = ops.a.rows();
  s.k = ops.a.cols();
  s.n = ops.b.cols();
  if (s.m == 0 || s.n == 0 || s.k == 0) {
    throw IllegalFieldValue("CUBE M/N/K", 0, "M, N and K must be at least 1");
  }
  const DataType at = ops.a.type;
  const DataType bt = ops.b.type;
  s.mx = ops.a_scale.has_value() || ops.b_scale.has_value();
  if (s.mx) {
    auto check_side = [](DataType type, bool scaled, const std::string& role) {
      if (!mx_input(type)) {
        throw IllegalFieldValue(role + " DataType", code(type), "not an MX input type");
      }
      if (scaled != mx_side_scaled(type)) {
        throw IllegalFieldValue(
            role + " scale", scaled,
            scaled ? "FP16/BF16 MX sides carry no scale" : "this MX input type needs a scale");
      }
    };
    check_side(at, ops.a_scale.has_value(), "A");
    check_side(bt, ops.b_scale.has_value(), "B");
    s.accumulator = DataType::FP32;
  } else if (ordinary_floating(at) && ordinary_floating(bt)) {
    s.accumulator = DataType::FP32;
  } else if (ordinary_signed(at) && ordinary_signed(bt)) {
    s.accumulator = DataType::S32;
  } else if (ordinary_unsigned(at) && ordinary_unsigned(bt)) {
    s.accumulator = DataType::U32;
  } else if (!ordinary_floating(at) && !ordinary_signed(at) && !ordinary_unsigned(at)) {
    throw IllegalFieldValue("A DataType", code(at), "not an ordinary CUBE input type");
  } else {
    throw IllegalFieldValue("B DataType", code(bt),
                            "not an ordinary CUBE pair with A " + std::string(name(at)));
  }
  check_view(ops.a, "A", s.m, s.k);
  check_view(ops.b, "B", s.k, s.n);
  if (ops.a_scale) {
    check_type(*ops.a_scale, "A scale", mx_scale_carrier(at));
    check_view(*ops.a_scale, "A scale", s.m, mx_scale_groups(s.k, at));
  }
  if (ops.b_scale) {
    check_type(*ops.b_scale, "B scale", mx_scale_carrier(bt));
    check_view(*ops.b_scale, "B scale", mx_scale_groups(s.k, bt), s.n);
  }
  if (ops.c) {
    check_type(*ops.c, "C", s.accumulator);
    check_view(*ops.c, "C", s.m, s.n);
  }
  if (ops.bias) {
    check_type(*ops.bias, "Bias", s.accumulator);
    check_view(*ops.bias, "Bias", 1, s.n);
  }
  if (ops.c_scale) {
    if (!ops.c || s.accumulator != DataType::FP32) {
      throw IllegalFieldValue("CScale", 1, "needs an FP32 C (the ACC forms)");
    }
    check_type(*ops.c_scale, "CScale", DataType::U8);
    check_view(*ops.c_scale, "CScale", s.m, 1);
  }
  return s;
}

bool dot_backend_available(DotBackend backend) {
  return backend != DotBackend::Avx2 || avx2_supported();
}

CScaled cscale(std::uint32_t c, std::uint8_t e) {
  const DecodedValue value = decode(DataType::FP32, c);
  if (value.cls == ValueClass::Zero || !value.is_finite()) return {c, 0};
  Dyadic scaled = to_dyadic(value);
  scaled.exponent -= e;  // exact: c x 2^-e
  const Encoded encoded = reference_fp32_finite_encoding(scaled, RoundingMode::RNE);
  return {static_cast<std::uint32_t>(encoded.bits), encoded.flags};
}

std::uint8_t dot_reference(const DotOperands& ops, std::uint32_t* d) {
  const DotShape s = check_dot(ops);
  const FloatEnvironment environment;
  std::uint8_t flags = 0;
  for (std::size_t m = 0; m < s.m; ++m) {
    for (std::size_t n = 0; n < s.n; ++n) {
      const std::uint32_t init = initial_word(ops, m, n, flags);
      std::uint32_t& out = d[m * s.n + n];
      if (ops.profile == NumericProfile::PtoV0) {
        out = reference_pto_v0(ops, s, m, n, init);
      } else if (s.accumulator == DataType::FP32) {
        out = reference_hardware_float(ops, s, m, n, init);
      } else {
        out = reference_hardware_integer(ops, s, m, n, init);
      }
    }
  }
  return flags;
}

std::uint8_t dot(const DotOperands& ops, std::uint32_t* d, DotBackend backend) {
  // One plan per thread, planned afresh: its vectors keep their storage.
  thread_local DotPlan plan;
  plan.forget();
  return dot(ops, d, plan, backend);
}

std::uint8_t dot(const DotOperands& ops, std::uint32_t* d, DotPlan& plan, DotBackend backend) {
  // A CScale without C fails check_dot.
  if (!plan.planned || (ops.c_scale && !ops.c)) {
    plan.shape = check_dot(ops);
    plan_direct(ops.a, true, plan.shape.m, plan.shape.k, plan.a);
    plan_direct(ops.b, false, plan.shape.n, plan.shape.k, plan.b);
    plan.with_c = false;
    plan.planned = true;
  } else {
    check_data(ops);
  }
  if (ops.c && !plan.with_c) {
    check_type(*ops.c, "C", plan.shape.accumulator);
    check_view(*ops.c, "C", plan.shape.m, plan.shape.n);
    plan_accumulator(*ops.c, plan.shape.m, plan.shape.n, plan);
  }
  plan.with_c = ops.c.has_value();
  const DotShape& s = plan.shape;
  if (!dot_backend_available(backend)) {
    throw IllegalFieldValue("dot backend", static_cast<unsigned>(backend),
                            "not supported by this CPU");
  }
  const bool simd =
      backend == DotBackend::Avx2 || (backend == DotBackend::Auto && avx2_supported());
  const FloatEnvironment environment;
  std::uint8_t flags = 0;
  // Without C every initial word is +0 and the tiles start from zero.
  if (ops.c && !ops.c_scale) {
    load_accumulator(*ops.c, s.m, s.n, plan, d);
  } else if (ops.c) {
    for (std::size_t m = 0; m < s.m; ++m) {
      for (std::size_t n = 0; n < s.n; ++n)
        d[m * s.n + n] = initial_word(ops, m, n, flags);
    }
  }
  // Panels are reused across calls on one thread, in pooled memory (its
  // first growth would otherwise fault in a page per 4 KiB touched).
  if (ops.profile == NumericProfile::Hardware && s.accumulator == DataType::FP32) {
    thread_local PooledVector<float> a, b;
    thread_local PackedSide packed_a, packed_b;
    packed_a.pack(ops.a, ops.a_scale, simd, s.m, s.k,
                  [&] { pack_float_side(ops.a, ops.a_scale, true, simd, s.m, s.k, plan.a, a); });
    packed_b.pack(ops.b, ops.b_scale, simd, s.n, s.k,
                  [&] { pack_float_side(ops.b, ops.b_scale, false, simd, s.n, s.k, plan.b, b); });
    const std::vector<float> bias = bias_panel<float>(ops, s.n);
    const Panels<float> p{a.data(), b.data(), ops.bias ? bias.data() : nullptr, d, s.m, s.n,
                          s.k,      !ops.c};
    if (simd) {
      dot_detail::float_tiles_avx2(p);
    } else {
      dot_detail::run_tiles<float, dot_detail::FloatArithmetic>(p);
    }
  } else if (simd && ops.profile == NumericProfile::Hardware && int16_lane(ops.a.type) &&
             int16_lane(ops.b.type)) {
    thread_local PooledVector<std::int16_t> a, b;
    thread_local PackedSide packed_a, packed_b;
    packed_a.pack(ops.a, std::nullopt, simd, s.m, s.k,
                  [&] { pack_int16_side(ops.a, true, s.m, s.k, plan.a, a); });
    packed_b.pack(ops.b, std::nullopt, simd, s.n, s.k,
                  [&] { pack_int16_side(ops.b, false, s.n, s.k, plan.b, b); });
    const std::vector<std::uint32_t> bias = bias_panel<std::uint32_t>(ops, s.n);
    dot_detail::int16_tiles_avx2(
        {a.data(), b.data(), ops.bias ? bias.data() : nullptr, d, s.m, s.n, s.k, !ops.c});
  } else {
    thread_local PooledVector<std::uint32_t> a, b;
    pack_wrap_side(ops.a, ops.a_scale, true, ops.profile, s.m, s.k, a);
    pack_wrap_side(ops.b, ops.b_scale, false, ops.profile, s.n, s.k, b);
    const std::vector<std::uint32_t> bias = bias_panel<std::uint32_t>(ops, s.n);
    const Panels<std::uint32_t> p{a.data(), b.data(), ops.bias ? bias.data() : nullptr, d, s.m, s.n,
                                  s.k,      !ops.c};
    if (simd) {
      dot_detail::wrap_tiles_avx2(p);
    } else {
      dot_detail::run_tiles<std::uint32_t, dot_detail::WrapArithmetic>(p);
    }
  }
  return flags;
}

}  // namespace ptovp::numeric

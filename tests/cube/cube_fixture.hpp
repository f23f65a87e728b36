// A core's CUBE unit with Local and Shared tiles, back-door tile installers
// and a block-descriptor builder standing in for the block builder (as the
// AVS tests drive model helpers directly), plus an independent oracle: plain
// element decoders and a spec-order std::fma loop, written here and sharing
// nothing with the kernels under test.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "arch/arch_state.hpp"
#include "arch/block_descriptor.hpp"
#include "arch/local_tile_file.hpp"
#include "arch/shared_tile_file.hpp"
#include "cube/cube.hpp"
#include "fabric/fabric.hpp"

namespace ptovp::cube::test {

using arch::BlockDescriptor;
using arch::DataType;
using arch::Layout;
using arch::TileInfo;

inline constexpr unsigned kT = 0, kU = 1, kM = 2, kN = 3;
// Logical matrix of raw element encodings, row-major.
struct Matrix {
  std::uint32_t rows = 0, cols = 0;
  std::vector<std::uint64_t> raw;
  std::uint64_t at(std::uint32_t r, std::uint32_t c) const {
    return raw[std::size_t{r} * cols + c];
  }
};

inline Matrix matrix(std::uint32_t rows, std::uint32_t cols,
                     const std::function<std::uint64_t(std::uint32_t, std::uint32_t)>& f) {
  Matrix m{rows, cols, std::vector<std::uint64_t>(std::size_t{rows} * cols)};
  for (std::uint32_t r = 0; r < rows; ++r)
    for (std::uint32_t c = 0; c < cols; ++c)
      m.raw[std::size_t{r} * cols + c] = f(r, c);
  return m;
}
inline Matrix filled(std::uint32_t rows, std::uint32_t cols, std::uint64_t raw) {
  return matrix(rows, cols, [raw](std::uint32_t, std::uint32_t) { return raw; });
}
// Random raw encodings of `bits` bits.
inline Matrix random_matrix(std::uint32_t rows, std::uint32_t cols, unsigned bits,
                            std::uint32_t seed) {
  std::mt19937_64 gen(seed);
  const std::uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
  return matrix(rows, cols, [&](std::uint32_t, std::uint32_t) { return gen() & mask; });
}
inline Matrix transpose(const Matrix& m) {
  return matrix(m.cols, m.rows, [&](std::uint32_t r, std::uint32_t c) { return m.at(c, r); });
}

struct Core {
  arch::ArchState state;
  arch::LocalTileFile local;
  arch::SharedTileFile shared_file;
  fabric::Fabric fabric{shared_file};
  Cube cube{local, fabric, state};

  CubeOutcome run(const BlockDescriptor& b) { return cube.execute(b); }

  // Installs a Local tile in the first free register of `hand`; `per_pe`
  // (when given) makes PE p's element (r, c) per_pe(p, r, c).
  unsigned put(unsigned hand, const TileInfo& info, const Matrix& m,
               std::uint8_t mask = arch::kAllPes,
               const std::function<std::uint64_t(unsigned, std::uint32_t, std::uint32_t)>& per_pe =
                   nullptr) {
    auto plan = local.plan(hand, mask, info.capacity_bytes, 0, 1u << 30);
    EXPECT_TRUE(plan.ok());
    arch::LocalTile& tile = local.commit(*plan, info, mask);
    for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
      if (!arch::pe_selected(mask, pe)) continue;
      for (std::uint32_t r = 0; r < info.valid_rows; ++r)
        for (std::uint32_t c = 0; c < info.valid_columns; ++c)
          arch::write_slot(tile.payload(pe), info.data_type, arch::storage_index(info, r, c),
                           per_pe ? per_pe(pe, r, c) : m.at(r, c));
    }
    tile.define_valid_region();
    return plan->index;
  }
  unsigned put_cube(unsigned hand, DataType type, Layout layout, const Matrix& m,
                    std::uint8_t mask = arch::kAllPes) {
    return put(hand, cube_info(type, layout, m.rows, m.cols), m, mask);
  }
  unsigned put_row_major(unsigned hand, DataType type, const Matrix& m,
                         std::uint8_t mask = arch::kAllPes) {
    return put(hand, row_major_info(type, m.rows, m.cols), m, mask);
  }

  // Smallest legal CUBE descriptor.
  static TileInfo cube_info(DataType type, Layout layout, std::uint32_t rows, std::uint32_t cols) {
    for (std::uint32_t size = 128; size <= 65536; size *= 2) {
      auto info = arch::make_cube_tile(size, rows, cols, type, layout);
      if (info) return *info;
    }
    ADD_FAILURE() << "no CUBE capacity for " << rows << "x" << cols;
    return {};
  }
  static TileInfo row_major_info(DataType type, std::uint32_t rows, std::uint32_t cols) {
    std::uint32_t physical = 1;
    while (physical < cols)
      physical *= 2;
    for (std::uint32_t size = 128; size <= 65536; size *= 2) {
      auto info = arch::make_ordinary_tile(size, physical, rows, cols, type, Layout::RowMajor,
                                           arch::Location::Any, 65536);
      if (info) return *info;
    }
    ADD_FAILURE() << "no row-major capacity for " << rows << "x" << cols;
    return {};
  }
  // Smallest SizeCode whose bytes hold `bytes`.
  static unsigned size_code_for(std::uint32_t bytes) {
    unsigned code = 1;
    while ((64u << code) < bytes)
      ++code;
    return code;
  }

  // A published, fully initialized Shared row-major tile (one issuer writes the whole parent).
  void put_shared(unsigned id, DataType type, const Matrix& m) {
    std::uint32_t physical = 1;
    while (physical < m.cols)
      physical *= 2;
    TileInfo info;
    for (std::uint32_t size = 128; size <= 262144; size *= 2) {
      auto made = arch::make_ordinary_tile(size, physical, m.rows, m.cols, type, Layout::RowMajor,
                                           arch::Location::Any, 262144);
      if (made) {
        info = *made;
        break;
      }
    }
    std::vector<std::uint8_t> staged(info.capacity_bytes, 0);
    for (std::uint32_t r = 0; r < m.rows; ++r)
      for (std::uint32_t c = 0; c < m.cols; ++c)
        arch::write_slot(staged.data(), type, arch::storage_index(info, r, c), m.at(r, c));
    fabric.update(id, info, staged.data(), arch::kAllPes, true);
  }

  // Logical rows x cols of register `index` on PE `pe`.
  Matrix read(unsigned index, unsigned pe = 0) const {
    const arch::LocalTile& tile = local.at(index);
    const TileInfo& info = tile.info();
    return matrix(info.valid_rows, info.valid_columns, [&](std::uint32_t r, std::uint32_t c) {
      return arch::read_slot(tile.payload(pe), info.data_type, arch::storage_index(info, r, c));
    });
  }
  std::uint64_t capacity_in_use() const {
    return local.capacity_in_use() + shared_file.capacity_in_use();
  }
};

// The CUBE unit under pto-v0: the ASL raw-carrier arithmetic, so raw
// element encodings multiply as integers (the AVS points' expected values).
inline CubeConfig pto_v0() {
  CubeConfig config;
  config.profile = numeric::NumericProfile::PtoV0;
  return config;
}

// Whole observable state: Local registers (descriptor and payload of every
// allocated PE), Shared records, capacity and the sticky numeric flags.
struct Snapshot {
  std::vector<std::pair<arch::TileInfo, std::vector<std::uint8_t>>> tiles;
  std::vector<std::tuple<bool, std::uint8_t, std::uint8_t, bool, std::vector<std::uint8_t>>> shared;
  std::uint64_t capacity = 0;
  std::uint8_t flags = 0;
  bool operator==(const Snapshot& o) const {
    return tiles == o.tiles && shared == o.shared && capacity == o.capacity && flags == o.flags;
  }
};
inline Snapshot snapshot(const Core& core) {
  Snapshot s;
  for (unsigned i = 0; i < arch::kLocalTileCount; ++i) {
    const arch::LocalTile& t = core.local.at(i);
    std::vector<std::uint8_t> bytes;
    for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
      if (t.allocated() && arch::pe_selected(t.allocation_mask(), pe)) {
        bytes.insert(bytes.end(), t.payload(pe), t.payload(pe) + t.info().capacity_bytes);
      }
    }
    s.tiles.emplace_back(t.info(), bytes);
  }
  for (unsigned id = 0; id < arch::kSharedTileCount; ++id) {
    const arch::SharedTile& t = core.shared_file.at(id);
    s.shared.emplace_back(t.descriptor_valid, t.allocation_mask, t.initialized_mask, t.published,
                          t.payload);
  }
  s.capacity = core.capacity_in_use();
  s.flags = core.state.numeric_flags();
  return s;
}

// Runs `block`, expects success and returns D on PE0 (the registers stay in core).
inline Matrix run_ok(Core& core, const BlockDescriptor& block) {
  const CubeOutcome outcome = core.run(block);
  EXPECT_TRUE(outcome.done()) << (outcome.fault ? outcome.fault->describe() : *outcome.stall);
  if (!outcome.done()) return {};
  return core.read(core.cube.last_destinations().at(0));
}

// Runs `block`, expects a fault with `code` and its trap number, and no
// effect at all; returns the fault's reason.
inline std::string expect_fault_without_effect(Core& core, const BlockDescriptor& block,
                                               arch::FaultCode code) {
  const Snapshot before = snapshot(core);
  const CubeOutcome outcome = core.run(block);
  EXPECT_TRUE(outcome.fault.has_value()) << "no fault";
  if (!outcome.fault) return {};
  EXPECT_EQ(outcome.fault->code, code) << outcome.fault->describe();
  EXPECT_EQ(outcome.fault->trap(), arch::trap_number(code));
  EXPECT_FALSE(outcome.fault->reason.empty());
  EXPECT_TRUE(snapshot(core) == before) << "state changed: " << outcome.fault->describe();
  EXPECT_TRUE(core.cube.last_destinations().empty());
  return outcome.fault->reason;
}

// A CUBE block: BSTART function/AType, optional B.DATR BType, LB0..2, B.FPATR word.
inline BlockDescriptor cube_block(unsigned function, DataType a, DataType b, std::uint32_t m,
                                  std::uint32_t n, std::uint32_t k, std::uint32_t fpatr = 0x2023) {
  BlockDescriptor block;
  block.kind = arch::BlockKind::TileMatrix;
  block.operation_valid = true;
  block.operation_class = arch::OperationClass::Cube;
  block.function = function;
  block.data_type = numeric::code(a);
  if (b != a) {
    block.datr.present = true;
    block.datr.data_type = numeric::code(b);
    block.datr.pad = 0;
  }
  block.dims[0] = {true, m};
  block.dims[1] = {true, n};
  block.dims[2] = {true, k};
  block.fpatr.valid = true;
  block.fpatr.word = fpatr;
  return block;
}

// B.FPATR word from its fields.
inline std::uint32_t fpatr_word(unsigned pre_quant, unsigned relu = 0, unsigned group_code = 0,
                                bool row_max = false, bool group_max = false,
                                bool row_max_init = false, bool max_abs = false,
                                bool trans_a = false, bool trans_b = false, bool cscale = false) {
  return 0x2023u | pre_quant << 26 | relu << 23 | group_code << 19 | row_max << 18 |
         group_max << 17 | row_max_init << 16 | max_abs << 15 | cscale << 9 | trans_b << 8 |
         trans_a << 7;
}

// Appends a destination-only B.IOT, then one 1-source B.IOT per code; the
// final binding carries L.
inline void bind_tiles(BlockDescriptor& b, const std::vector<unsigned>& destination_hands,
                       const std::vector<unsigned>& sources, unsigned size_code = 10,
                       std::uint8_t mask = arch::kAllPes) {
  for (unsigned hand : destination_hands) {
    arch::TileBinding t;
    t.has_destination = true;
    t.destination_hand = static_cast<std::uint8_t>(hand);
    t.size_code = static_cast<std::uint8_t>(size_code);
    t.pe_mask = mask;
    b.tiles[b.tile_count++] = t;
  }
  for (unsigned code : sources) {
    arch::TileBinding t;
    t.source_count = 1;
    t.source[0] = static_cast<std::uint8_t>(code);
    t.pe_mask = mask;
    b.tiles[b.tile_count++] = t;
  }
  for (unsigned i = 0; i < b.tile_count; ++i)
    b.tiles[i].last = i + 1 == b.tile_count;
}
inline void bind_shared(BlockDescriptor& b, unsigned id, std::uint8_t mask = arch::kAllPes) {
  b.shared[b.shared_count++] = {static_cast<std::uint8_t>(id), 0, mask};
}
// B.IOR RegSrc0..2 = R1..R(words) with the same values on every PE.
inline void ior(BlockDescriptor& b, std::initializer_list<std::uint64_t> words) {
  b.ior.valid = true;
  unsigned slot = 0;
  for (std::uint64_t w : words) {
    b.ior.source[slot] = static_cast<std::uint8_t>(slot + 1);
    for (unsigned pe = 0; pe < arch::kPeCount; ++pe)
      b.ior_values[pe][slot] = w;
    ++slot;
  }
}

// ---------------------------------------------------------------------------
// Independent oracle.

// A small binary float: `e` exponent bits, `m` fraction bits, IEEE-style
// subnormals; `ieee_special` = the top exponent is inf/NaN; `e4m3_nan` =
// only S.1111.111 is NaN.
inline double minifloat(std::uint64_t raw, int e, int m, int bias, bool ieee_special,
                        bool e4m3_nan) {
  const bool sign = (raw >> (e + m)) & 1;
  const int exponent = static_cast<int>((raw >> m) & ((1u << e) - 1));
  const std::uint64_t fraction = raw & ((1u << m) - 1);
  double value;
  if (ieee_special && exponent == (1 << e) - 1) {
    value = fraction != 0 ? NAN : INFINITY;
  } else if (e4m3_nan && exponent == (1 << e) - 1 && fraction == (1u << m) - 1) {
    value = NAN;
  } else if (exponent == 0) {
    value = std::ldexp(static_cast<double>(fraction), 1 - bias - m);
  } else {
    value = std::ldexp(static_cast<double>(fraction + (1u << m)), exponent - bias - m);
  }
  return sign ? -value : value;
}

// The real value of one raw element of the CUBE input types used here.
inline double value_of(DataType type, std::uint64_t raw) {
  switch (type) {
    case DataType::FP32: {
      float f;
      const auto bits = static_cast<std::uint32_t>(raw);
      std::memcpy(&f, &bits, 4);
      return f;
    }
    case DataType::FP16: return minifloat(raw, 5, 10, 15, true, false);
    case DataType::BF16: return minifloat(raw, 8, 7, 127, true, false);
    case DataType::E4M3: return minifloat(raw, 4, 3, 7, false, true);
    case DataType::E5M2: return minifloat(raw, 5, 2, 15, true, false);
    case DataType::E2M1X2: return minifloat(raw, 2, 1, 1, false, false);
    case DataType::E1M2X2:
    case DataType::HiF4X2: return minifloat(raw, 1, 2, 1, false, false);
    case DataType::S8: return static_cast<std::int8_t>(raw);
    case DataType::S16: return static_cast<std::int16_t>(raw);
    case DataType::S4X2: return static_cast<int>(raw & 7) - static_cast<int>(raw & 8);
    default: return static_cast<double>(raw);  // unsigned
  }
}
inline double e8m0(std::uint64_t raw) {
  return raw == 0xFF ? NAN : std::ldexp(1.0, static_cast<int>(raw) - 127);
}
// HiF4 group-64 scale word, lane q.
inline double hif4_scale_value(std::uint64_t word, unsigned q) {
  const unsigned base = word & 0xFF;
  if (base == 0xFF) return NAN;
  const double e6m2 = std::ldexp(1.0 + (base & 3) / 4.0, static_cast<int>(base >> 2) - 48);
  const unsigned up = ((word >> (8 + q / 8)) & 1) + ((word >> (16 + q / 4)) & 1);
  return std::ldexp(e6m2, static_cast<int>(up));
}

inline std::uint32_t bits_of(float f) {
  std::uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}
inline float float_of(std::uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

struct OracleInput {
  DataType a_type, b_type;
  Matrix a, b;                      // M x K, K x N (logical)
  const Matrix* a_scale = nullptr;  // M x G (raw scale words)
  const Matrix* b_scale = nullptr;  // G x N
  const Matrix* c = nullptr;        // M x N accumulator words
  const Matrix* c_scale = nullptr;  // M x 1 U8
  const Matrix* bias = nullptr;     // 1 x N
};

inline double scale_of(DataType lane, const Matrix& s, bool a_side, std::uint32_t line,
                       std::uint32_t k) {
  const std::uint32_t g = lane == DataType::HiF4X2 ? k / 64 : k / 32;
  const std::uint64_t word = a_side ? s.at(line, g) : s.at(g, line);
  return lane == DataType::HiF4X2 ? hif4_scale_value(word, k % 64) : e8m0(word);
}

// Hardware profile, FP32 accumulator: spec order, one fmaf per term.
inline Matrix oracle_float(const OracleInput& in) {
  const std::uint32_t m = in.a.rows, k = in.a.cols, n = in.b.cols;
  return matrix(m, n, [&](std::uint32_t i, std::uint32_t j) -> std::uint64_t {
    float acc = 0.0f;
    if (in.c) {
      acc = float_of(static_cast<std::uint32_t>(in.c->at(i, j)));
      if (in.c_scale && std::isfinite(acc) && acc != 0.0f) {
        acc = static_cast<float>(
            std::ldexp(static_cast<double>(acc), -static_cast<int>(in.c_scale->at(i, 0))));
      }
    }
    for (std::uint32_t kk = 0; kk < k; ++kk) {
      double a = value_of(in.a_type, in.a.at(i, kk));
      double b = value_of(in.b_type, in.b.at(kk, j));
      if (in.a_scale) a *= scale_of(in.a_type, *in.a_scale, true, i, kk);
      if (in.b_scale) b *= scale_of(in.b_type, *in.b_scale, false, j, kk);
      acc = std::fma(static_cast<float>(a), static_cast<float>(b), acc);
    }
    if (in.bias) acc += float_of(static_cast<std::uint32_t>(in.bias->at(0, j)));
    return std::isnan(acc) ? 0x7FC00000u : bits_of(acc);
  });
}

// Hardware profile, S32/U32 accumulator: exact products, 32-bit wrap.
inline Matrix oracle_integer(const OracleInput& in) {
  const std::uint32_t m = in.a.rows, k = in.a.cols, n = in.b.cols;
  return matrix(m, n, [&](std::uint32_t i, std::uint32_t j) -> std::uint64_t {
    std::uint32_t acc = in.c ? static_cast<std::uint32_t>(in.c->at(i, j)) : 0u;
    for (std::uint32_t kk = 0; kk < k; ++kk) {
      const auto a = static_cast<std::int64_t>(value_of(in.a_type, in.a.at(i, kk)));
      const auto b = static_cast<std::int64_t>(value_of(in.b_type, in.b.at(kk, j)));
      acc += static_cast<std::uint32_t>(a * b);
    }
    if (in.bias) acc += static_cast<std::uint32_t>(in.bias->at(0, j));
    return acc;
  });
}

// pto-v0: raw carriers (S8/S16 sign-extended, the rest zero-extended), 64-bit wrap, low 32 bits.
inline std::uint64_t carrier(DataType type, std::uint64_t raw) {
  if (type == DataType::S8) return static_cast<std::uint64_t>(static_cast<std::int8_t>(raw));
  if (type == DataType::S16) return static_cast<std::uint64_t>(static_cast<std::int16_t>(raw));
  if (type == DataType::S32) return static_cast<std::uint64_t>(static_cast<std::int32_t>(raw));
  return raw;
}
inline Matrix oracle_pto_v0(const OracleInput& in, DataType accumulator) {
  const std::uint32_t m = in.a.rows, k = in.a.cols, n = in.b.cols;
  return matrix(m, n, [&](std::uint32_t i, std::uint32_t j) -> std::uint64_t {
    std::uint64_t acc = in.c ? carrier(accumulator, in.c->at(i, j)) : 0;
    for (std::uint32_t kk = 0; kk < k; ++kk) {
      std::uint64_t a = carrier(in.a_type, in.a.at(i, kk));
      std::uint64_t b = carrier(in.b_type, in.b.at(kk, j));
      const std::uint32_t ga = in.a_type == DataType::HiF4X2 ? kk / 64 : kk / 32;
      const std::uint32_t gb = in.b_type == DataType::HiF4X2 ? kk / 64 : kk / 32;
      if (in.a_scale) a *= in.a_scale->at(i, ga);
      if (in.b_scale) b *= in.b_scale->at(gb, j);
      acc += a * b;
    }
    if (in.bias) acc += carrier(accumulator, in.bias->at(0, j));
    return acc & 0xFFFFFFFFu;
  });
}

inline void expect_matrix(const Matrix& got, const Matrix& want, const char* what) {
  ASSERT_EQ(got.rows, want.rows) << what;
  ASSERT_EQ(got.cols, want.cols) << what;
  for (std::uint32_t r = 0; r < got.rows; ++r)
    for (std::uint32_t c = 0; c < got.cols; ++c)
      ASSERT_EQ(got.at(r, c), want.at(r, c)) << what << " at (" << r << ", " << c << ")";
}

}  // namespace ptovp::cube::test

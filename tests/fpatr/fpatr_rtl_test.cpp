// The Verilated B.FPATR RTL (rtl/fpatr/fpatr_pipeline.sv through
// fpatr::RtlBackend) against the conformance vectors and the C++ pipeline:
// every `post` vector of tests/vectors/ gives the vector's bits and flags;
// PTOVP_RTL_TEST_ELEMENTS random elements per mode family (10^6; 3 x 10^4 for
// the second build of the RTL, LANES 2 and DEPTH 5) give the C++ backend's
// bits and flags, element for element, with 0 differences (through
// fpatr::CheckedBackend); the checked backend catches the fault-injection
// build of the RTL and reports the first difference; the cycles show the
// build's LANES and DEPTH.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "fpatr/fpatr_backend.hpp"
#include "fpatr/rtl_backend.hpp"
#include "numeric/fpatr_params.hpp"
#include "numeric/postprocess.hpp"

namespace ptovp::fpatr {
namespace {

using numeric::DataType;

std::uint32_t fpatr_word(unsigned mode, unsigned relu, unsigned group_code = 0,
                         bool row_max = false, bool group_max = false, bool row_max_init = false,
                         bool max_abs = false) {
  return mode << 26 | relu << 23 | group_code << 19 | unsigned{row_max} << 18 |
         unsigned{group_max} << 17 | unsigned{row_max_init} << 16 | unsigned{max_abs} << 15;
}

arch::DataAttributes datr(unsigned rmode, bool sat) {
  arch::DataAttributes d;
  d.present = rmode != 0 || sat;
  d.rmode = static_cast<std::uint8_t>(rmode);
  d.saturating = sat;
  return d;
}

// One `post` vector line: its fields by name.
std::map<std::string, std::string> fields(const std::string& line) {
  std::map<std::string, std::string> out;
  std::istringstream in(line);
  std::string token;
  bool result = false;
  while (in >> token) {
    if (token == "->") {
      result = true;
      continue;
    }
    const auto equals = token.find('=');
    if (equals == std::string::npos) continue;
    out[(result ? "=" : "") + token.substr(0, equals)] = token.substr(equals + 1);
  }
  return out;
}

unsigned rmode_code(const std::string& name) {
  if (name == "NONE") return 0;
  return static_cast<unsigned>(*numeric::rounding_from_name(name));
}

// A 1 x 1 job of `unit` on `value` with one quant word and one activation word.
struct OneElement {
  Parameters parameters;
  std::uint32_t value = 0;
  std::uint64_t d = 0;
  std::uint8_t d_flags = 0;
  RowsJob job;

  OneElement(const Fpatr& unit, std::uint32_t v, std::uint64_t q, std::uint64_t r) {
    const numeric::PostProcess& post = unit.element_pipeline();
    const numeric::QuantParameter quant = post.quant_parameter(q);
    const numeric::Dyadic alpha = post.relu_mode() >= numeric::kReluScalar
                                      ? numeric::decode_activation_parameter(r)
                                      : numeric::Dyadic{};
    parameters.quant = quant;
    parameters.alpha = alpha;
    if (unit.vector_quant()) parameters.quant_columns = {quant};
    if (post.relu_mode() == numeric::kReluVector) parameters.alpha_columns = {alpha};
    value = v;
    job.unit = &unit;
    job.parameters = &parameters;
    job.accumulator = &value;
    job.rows = 1;
    job.columns = 1;
    job.out.d = &d;
    job.out.d_flags = &d_flags;
    job.block = "post vector";
  }
};

TEST(FpatrRtl, EveryPostVectorGivesTheVectorsBitsAndFlags) {
  RtlBackend rtl;
  unsigned checked = 0;
  std::set<unsigned> modes;
  for (const char* file : {"/spec-post.vec", "/avs.vec"}) {
    std::ifstream in(std::string(PTOVP_TEST_VECTORS_DIR) + file);
    ASSERT_TRUE(in) << file;
    std::string line;
    while (std::getline(in, line)) {
      if (line.rfind("post ", 0) != 0) continue;
      SCOPED_TRACE(line);
      auto f = fields(line);
      const DataType acc = *numeric::data_type_from_name(f["acc"]);
      arch::FpAttributes fp;
      fp.valid = true;
      fp.word = fpatr_word(static_cast<unsigned>(std::stoul(f["mode"])),
                           static_cast<unsigned>(std::stoul(f["relu"])));
      auto unit = Fpatr::configure(fp, datr(rmode_code(f["rmode"]), f["sat"] == "1"), acc);
      ASSERT_TRUE(unit.ok()) << unit.fault().reason;
      OneElement e(unit.value(), static_cast<std::uint32_t>(std::stoul(f["v"], nullptr, 0)),
                   std::stoull(f["q"], nullptr, 0), std::stoull(f["r"], nullptr, 0));
      const RowsAnswer answer = rtl.run(e.job);
      ASSERT_FALSE(rtl.failure()) << *rtl.failure();
      EXPECT_EQ(e.d, std::stoull(f["=out"], nullptr, 0));
      EXPECT_EQ(e.d_flags, std::stoul(f["=flags"], nullptr, 0));
      EXPECT_EQ(answer.flags, e.d_flags);
      ++checked;
      modes.insert(unit.value().element_pipeline().mode().code);
    }
  }
  // 3000 spec vectors and 112 AVS points over every PreQuantMode.
  EXPECT_EQ(checked, 3112u);
  EXPECT_EQ(modes.size(), 27u);
}

// A random legal FP19 scale: mostly near 1 (so results land in range, at
// ties and at the saturation edges), sometimes anywhere.
std::uint32_t random_scale(std::mt19937_64& rng) {
  const bool near = rng() % 5 != 0;
  const unsigned exponent =
      near ? 127 - 24 + static_cast<unsigned>(rng() % 30) : 1 + static_cast<unsigned>(rng() % 254);
  return exponent << 10 | static_cast<std::uint32_t>(rng() & 0x3FF);
}
std::uint32_t random_alpha(std::mt19937_64& rng) {
  return rng() % 8 == 0 ? 0 : random_scale(rng);
}
// Accumulator words with the edges over-represented.
std::uint32_t random_s32(std::mt19937_64& rng) {
  switch (rng() % 8) {
    case 0: return 0x80000000u;
    case 1: return 0x7FFFFFFFu;
    case 2: return static_cast<std::uint32_t>(static_cast<std::int32_t>(rng() % 512) - 256);
    case 3: return static_cast<std::uint32_t>(static_cast<std::int32_t>(rng() % 0x40000) - 0x20000);
    default: return static_cast<std::uint32_t>(rng());
  }
}
// FP32 words: specials, subnormals, values near 1 (where every destination
// has its range), and among those exact ties at every fraction width.
std::uint32_t random_fp32(std::mt19937_64& rng) {
  const auto sign = static_cast<std::uint32_t>(rng() % 2) << 31;
  const auto near_one = [&] {
    return sign | (127 - 40 + static_cast<std::uint32_t>(rng() % 80)) << 23 |
           static_cast<std::uint32_t>(rng() & 0x7FFFFF);
  };
  switch (rng() % 10) {
    case 0: return sign | 0x7F800000u;                                          // infinities
    case 1: return 0x7F800001u + static_cast<std::uint32_t>(rng() % 0x7FFFFF);  // NaNs
    case 2: return sign;                                                        // zeros
    case 3: return sign | static_cast<std::uint32_t>(rng() & 0x7FFFFF);         // subnormals
    case 4:
    case 5: return near_one();
    case 6: {
      const unsigned dropped = 1 + static_cast<unsigned>(rng() % 23);
      return (near_one() & ~((1u << dropped) - 1)) | 1u << (dropped - 1);
    }
    default: return static_cast<std::uint32_t>(rng());
  }
}

struct Family {
  const char* name;
  std::vector<unsigned> modes;
  std::vector<DataType> accumulators;
  bool reductions;
};

// Runs `elements` random elements of `family` through C++ and RTL side by
// side; every difference fails.
void run_family(const Family& family, std::uint64_t elements, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  CheckedBackend checked(std::make_unique<CppBackend>(), std::make_unique<RtlBackend>());
  constexpr std::uint32_t kRows = 4, kColumns = 64;
  std::vector<std::uint32_t> accumulator(kRows * kColumns);
  std::vector<std::uint64_t> d(accumulator.size());
  std::vector<std::uint32_t> row_max(kRows), group_max(kRows * kColumns);
  std::uint64_t done = 0;
  while (done < elements) {
    const unsigned mode = family.modes[rng() % family.modes.size()];
    const DataType acc = family.accumulators[rng() % family.accumulators.size()];
    const numeric::PreQuantModeInfo& info = *numeric::find_pre_quant_mode(mode);
    const unsigned relu =
        mode == 0 && !family.reductions ? 1 + static_cast<unsigned>(rng() % 3) : rng() % 4;
    arch::FpAttributes fp;
    fp.valid = true;
    const bool row = family.reductions && rng() % 2 == 0;
    const bool group = family.reductions && (!row || rng() % 2 == 0);
    fp.word = fpatr_word(mode, family.reductions ? 0 : relu,
                         group ? 1 + static_cast<unsigned>(rng() % 9) : 0, row, group,
                         row && rng() % 2 == 0, rng() % 2 == 0);
    const bool programmable = info.rounding == numeric::RoundingClass::Programmable;
    const unsigned rmode = programmable ? static_cast<unsigned>(rng() % 8) : 0;
    const bool sat =
        (programmable || info.rounding == numeric::RoundingClass::FixedRNE) && rng() % 2 == 0;
    auto unit = Fpatr::configure(fp, datr(rmode, sat), acc);
    ASSERT_TRUE(unit.ok()) << unit.fault().reason;
    const numeric::PostProcess& post = unit.value().element_pipeline();
    auto quant_word = [&] {
      if (info.parameter == numeric::ParameterKind::Shift)
        return numeric::pack_shift_parameter(static_cast<unsigned>(rng() % 16));
      if (info.parameter == numeric::ParameterKind::None) return std::uint64_t{0};
      const std::int64_t range =
          info.offset_width == 0 ? 0 : std::int64_t{1} << (info.offset_width - 1);
      const std::int64_t offset =
          range == 0 ? 0 : static_cast<std::int64_t>(rng() % (2 * range)) - range;
      return numeric::pack_quant_parameter(random_scale(rng), offset, info.offset_width);
    };
    Parameters p;
    p.quant = post.quant_parameter(quant_word());
    if (post.relu_mode() == numeric::kReluScalar)
      p.alpha = numeric::decode_activation_parameter(random_alpha(rng));
    for (std::uint32_t c = 0; c < kColumns && unit.value().vector_quant(); ++c)
      p.quant_columns.push_back(post.quant_parameter(quant_word()));
    for (std::uint32_t c = 0; c < kColumns && post.relu_mode() == numeric::kReluVector; ++c)
      p.alpha_columns.push_back(numeric::decode_activation_parameter(random_alpha(rng)));
    for (std::uint32_t r = 0; r < kRows && unit.value().attributes().row_max_init(); ++r)
      p.row_max_in.push_back(acc == DataType::FP32 ? random_fp32(rng) : random_s32(rng));
    for (std::uint32_t& word : accumulator)
      word = acc == DataType::FP32 ? random_fp32(rng) : random_s32(rng);
    RowsJob job;
    job.unit = &unit.value();
    job.parameters = &p;
    job.accumulator = accumulator.data();
    job.rows = kRows;
    job.columns = kColumns;
    job.out = {d.data(), row_max.data(), group_max.data()};
    job.block = family.name;
    checked.run(job);
    ASSERT_FALSE(checked.failure()) << *checked.failure();
    done += accumulator.size();
  }
}

#ifndef PTOVP_RTL_TEST_ELEMENTS
#define PTOVP_RTL_TEST_ELEMENTS 1'000'000
#endif
constexpr std::uint64_t kElements = PTOVP_RTL_TEST_ELEMENTS;

TEST(FpatrRtl, OffsetModesMatchTheCppPipelineOnRandomElements) {
  run_family({"offset", {2, 3, 17, 18, 19, 20}, {DataType::S32}, false}, kElements, 1);
}

TEST(FpatrRtl, ShiftModesMatchTheCppPipelineOnRandomElements) {
  run_family({"shift", {12, 13}, {DataType::S32}, false}, kElements, 2);
}

TEST(FpatrRtl, ActivationsOfMode0MatchTheCppPipelineOnRandomElements) {
  run_family({"mode 0 activation", {0}, {DataType::S32, DataType::U32, DataType::FP32}, false},
             kElements, 3);
}

TEST(FpatrRtl, Fp32ToFp16AndBf16MatchTheCppPipelineOnRandomElements) {
  run_family({"FP32 to FP16/BF16", {1, 16, 32, 33, 34, 36}, {DataType::FP32}, false}, kElements, 5);
}

TEST(FpatrRtl, S32ToFp16AndBf16MatchTheCppPipelineOnRandomElements) {
  run_family({"S32 to FP16/BF16", {4, 5, 35, 39}, {DataType::S32}, false}, kElements, 6);
}

TEST(FpatrRtl, Fp32ToFp32MatchesTheCppPipelineOnRandomElements) {
  run_family({"FP32 to FP32", {27, 38}, {DataType::FP32}, false}, kElements, 7);
}

TEST(FpatrRtl, Fp32ToE4m3AndHiF8MatchTheCppPipelineOnRandomElements) {
  run_family({"FP32 to E4M3/HiF8", {25, 26, 28, 37}, {DataType::FP32}, false}, kElements, 8);
}

TEST(FpatrRtl, Fp32ToS8MatchesTheCppPipelineOnRandomElements) {
  run_family({"FP32 to S8", {23, 24}, {DataType::FP32}, false}, kElements, 9);
}

TEST(FpatrRtl, ReductionsMatchTheCppPipelineOnRandomElements) {
  run_family({"reductions", {0}, {DataType::FP32, DataType::S32, DataType::U32}, true}, kElements,
             4);
}

// The fault-injection build rounds an RNE tie of an even magnitude up: REQ8
// with scale 0.5 on 5 gives 2.5, which RNE rounds to 2 and the faulty RTL to
// 3. The checked backend stops there and names everything.
TEST(FpatrRtl, CheckedCatchesAnInjectedRoundingFaultAndReportsIt) {
  CheckedBackend checked(std::make_unique<CppBackend>(), std::make_unique<RtlBackend>(true));
  arch::FpAttributes fp;
  fp.valid = true;
  fp.word = fpatr_word(3, 0);
  auto unit = Fpatr::configure(fp, datr(1, false), DataType::S32);
  ASSERT_TRUE(unit.ok());
  Parameters p;
  p.quant = unit.value().element_pipeline().quant_parameter(
      numeric::pack_quant_parameter(numeric::fp32_to_fp19(0x3F000000u), 0, 9));
  const std::uint32_t accumulator[3] = {4, 7, 5};  // 2, 3.5 -> 4 (odd tie), 2.5 -> 2
  std::uint64_t d[3] = {};
  RowsJob job;
  job.unit = &unit.value();
  job.parameters = &p;
  job.accumulator = accumulator;
  job.rows = 1;
  job.columns = 3;
  job.out.d = d;
  job.pe = 2;
  job.block = "TMATMUL";
  job.block_pc = 0x1040;
  checked.run(job);
  ASSERT_TRUE(checked.failure());
  const std::string& report = *checked.failure();
  for (const char* part :
       {"block TMATMUL at 0x1040", "PE2", "PreQuantMode 3 (REQ8)", "S32", "D row 0 column 2",
        "input 0x00000005", "cpp: 0x2 flags 0x10", "rtl: 0x3 flags 0x10"}) {
    EXPECT_NE(report.find(part), std::string::npos) << part << " in: " << report;
  }
  // The outputs are the reference's.
  EXPECT_EQ(d[0], 2u);
  EXPECT_EQ(d[1], 4u);
  EXPECT_EQ(d[2], 2u);
}

// A lane carries a multiplier as an unsigned 11-bit significand and an
// exponent in [-512, 511]. No legal B.FPATR parameter falls outside, but one
// past either edge, or a negative multiplier, is refused with a report naming
// the block and the PE, and D is left as it was instead of being computed from
// a truncated multiplier. Inside, the RTL agrees with the C++ pipeline.
TEST(FpatrRtl, TheLaneMultiplierFormatAtItsEdges) {
  arch::FpAttributes fp;
  fp.valid = true;
  fp.word = fpatr_word(3, 0);  // REQ8: a scale per element
  auto unit = Fpatr::configure(fp, datr(1, false), DataType::S32);
  ASSERT_TRUE(unit.ok());
  struct Case {
    numeric::Dyadic scale;
    std::uint32_t input;
    bool fits;
  };
  const Case cases[] = {
      {{false, 2047, -11}, 100, true}, {{false, 2048, -12}, 100, false},
      {{false, 1, -512}, 0, true},     {{false, 1, -513}, 0, false},
      {{false, 1, 511}, 0, true},      {{false, 1, 512}, 0, false},
      {{true, 1, 0}, 100, false},
  };
  for (const Case& c : cases) {
    Parameters p;
    p.quant.scale = c.scale;
    std::uint64_t d = 0xD0;
    RowsJob job;
    job.unit = &unit.value();
    job.parameters = &p;
    job.accumulator = &c.input;
    job.rows = 1;
    job.columns = 1;
    job.out.d = &d;
    job.pe = 1;
    job.block = "TMATMUL";
    job.block_pc = 0x40;
    const std::string name =
        fmt::format("{}{} x 2^{}", c.scale.negative ? "-" : "",
                    static_cast<std::uint64_t>(c.scale.significand), c.scale.exponent);
    if (c.fits) {
      CheckedBackend checked(std::make_unique<CppBackend>(), std::make_unique<RtlBackend>());
      checked.run(job);
      EXPECT_FALSE(checked.failure()) << name << ": " << *checked.failure();
    } else {
      RtlBackend rtl;
      rtl.run(job);
      ASSERT_TRUE(rtl.failure()) << name;
      for (const char* part :
           {"block TMATMUL at 0x40, PE1", "a multiplier outside the RTL's lane format"}) {
        EXPECT_NE(rtl.failure()->find(part), std::string::npos) << name << ": " << *rtl.failure();
      }
      EXPECT_EQ(d, 0xD0u) << name;
    }
  }
}

// The build's parameters show in its timing: n elements stream in
// ceil(n / LANES) beats, one a cycle, and the last result leaves the DEPTH
// register stages DEPTH cycles after its beat went in.
TEST(FpatrRtl, TheCyclesShowTheBuildsLanesAndDepth) {
  EXPECT_EQ(RtlBackend::lanes(), PTOVP_RTL_TEST_LANES);
  EXPECT_EQ(RtlBackend::depth(), PTOVP_RTL_TEST_DEPTH);
  arch::FpAttributes fp;
  fp.valid = true;
  fp.word = fpatr_word(3, 0);  // REQ8
  auto unit = Fpatr::configure(fp, datr(1, false), DataType::S32);
  ASSERT_TRUE(unit.ok());
  Parameters p;
  p.quant = unit.value().element_pipeline().quant_parameter(
      numeric::pack_quant_parameter(numeric::fp32_to_fp19(0x3F800000u), 0, 9));
  RtlBackend rtl;
  for (const std::uint32_t n : {1u, 2u, 5u, 64u, 257u}) {
    std::vector<std::uint32_t> accumulator(n, 7);
    std::vector<std::uint64_t> d(n);
    RowsJob job;
    job.unit = &unit.value();
    job.parameters = &p;
    job.accumulator = accumulator.data();
    job.rows = 1;
    job.columns = n;
    job.out.d = d.data();
    job.block = "TMATMUL";
    const RowsAnswer answer = rtl.run(job);
    ASSERT_FALSE(rtl.failure()) << *rtl.failure();
    EXPECT_EQ(answer.cycles, (n + PTOVP_RTL_TEST_LANES - 1) / PTOVP_RTL_TEST_LANES +
                                 PTOVP_RTL_TEST_DEPTH)
        << n << " elements";
    EXPECT_EQ(d[n - 1], 7u) << n << " elements";
  }
}

}  // namespace
}  // namespace ptovp::fpatr

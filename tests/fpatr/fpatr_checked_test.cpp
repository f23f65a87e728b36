// CheckedBackend (docs/rtl-cosim.md) without the RTL: a candidate that
// differs from the C++ pipeline in exactly one output, bits or flags, is
// caught at that output, and the report names the reduction's settings.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "../cube/cube_fixture.hpp"
#include "fpatr/fpatr_backend.hpp"

namespace ptovp::fpatr {
namespace {

using numeric::DataType;
using ptovp::cube::test::fpatr_word;

std::uint32_t bits(float value) {
  std::uint32_t word;
  std::memcpy(&word, &value, sizeof word);
  return word;
}

// The C++ pipeline, then `skew` on its outputs.
class Skewed final : public Backend {
 public:
  explicit Skewed(std::function<void(const RowsJob&)> skew) : skew_(std::move(skew)) {}
  std::string_view name() const override { return "skewed"; }
  RowsAnswer run(const RowsJob& job) override {
    const RowsAnswer answer = cpp_.run(job);
    skew_(job);
    return answer;
  }

 private:
  CppBackend cpp_;
  std::function<void(const RowsJob&)> skew_;
};

struct Case {
  Fpatr unit;
  Parameters parameters;
  std::vector<std::uint32_t> accumulator;
  std::vector<std::uint64_t> d;
  std::vector<std::uint32_t> row_max, group_max;

  // Rows 2 x columns 32 of FP32 1.0 .. 64.0 through mode 0 (no quantization).
  static Case make(bool max_abs, bool row_max_init) {
    arch::FpAttributes fp;
    fp.valid = true;
    fp.word = fpatr_word(0, 0, 1, true, true, row_max_init, max_abs);
    auto unit = Fpatr::configure(fp, {}, DataType::FP32);
    EXPECT_TRUE(unit.ok()) << unit.fault().reason;
    Case c{unit.value(), {}, {}, {}, {}, {}};
    for (unsigned i = 1; i <= 64; ++i)
      c.accumulator.push_back(bits(static_cast<float>(i)));
    if (row_max_init) c.parameters.row_max_in = {0x42000000u, 0x43000000u};  // 32, 128
    c.d.assign(64, 0);
    c.row_max.assign(2, 0);
    c.group_max.assign(2 * c.unit.groups(32), 0);
    return c;
  }

  RowsJob job() {
    RowsJob j;
    j.unit = &unit;
    j.parameters = &parameters;
    j.accumulator = accumulator.data();
    j.rows = 2;
    j.columns = 32;
    j.out = {d.data(), row_max.data(), group_max.data()};
    j.pe = 1;
    j.block = "TMATMUL";
    j.block_pc = 0x2000;
    return j;
  }
};

std::string report(Case& c, std::function<void(const RowsJob&)> skew) {
  CheckedBackend checked(std::make_unique<CppBackend>(), std::make_unique<Skewed>(skew));
  checked.run(c.job());
  return checked.failure().value_or("");
}

void expect_parts(const std::string& text, std::initializer_list<const char*> parts) {
  for (const char* part : parts)
    EXPECT_NE(text.find(part), std::string::npos) << part << " in: " << text;
}

TEST(FpatrChecked, EqualOutputsPassAndKeepTheReferences) {
  Case c = Case::make(false, false);
  EXPECT_EQ(report(c, [](const RowsJob&) {}), "");
  EXPECT_EQ(c.d[63], bits(64.0f));
  EXPECT_EQ(c.row_max[0], bits(32.0f));
  EXPECT_EQ(c.row_max[1], bits(64.0f));
}

TEST(FpatrChecked, OneOutputBitOrFlagIsCaughtWhereItDiffers) {
  Case c = Case::make(false, false);
  expect_parts(report(c, [](const RowsJob& j) { j.out.d[33] ^= 1; }),
               {"block TMATMUL at 0x2000, PE1", "D row 1 column 1 differs", "input 0x42080000"});
  expect_parts(
      report(c, [](const RowsJob& j) { j.out.d_flags[0] = 0x10; }),
      {"D row 0 column 0 differs", "cpp: 0x3f800000 flags 0x00", "skewed: 0x3f800000 flags 0x10"});
  // The first row's reductions are checked before the second row's elements.
  expect_parts(report(c,
                      [](const RowsJob& j) {
                        j.out.row_max[0] ^= 1;
                        j.out.d[32] ^= 1;
                      }),
               {"RowMaxOut row 0 differs (MaxAbsEn 0, RowMaxIn none)"});
  expect_parts(report(c, [](const RowsJob& j) { j.out.row_max_flags[1] = 1; }),
               {"RowMaxOut row 1 differs (MaxAbsEn 0, RowMaxIn none)"});
  const std::size_t last = c.group_max.size() - 1;
  const std::string group =
      fmt::format("GroupMaxOut row 1 group {} differs (MaxAbsEn 0)", c.unit.groups(32) - 1);
  expect_parts(report(c, [last](const RowsJob& j) { j.out.group_max[last] ^= 1; }),
               {group.c_str()});
  expect_parts(report(c, [last](const RowsJob& j) { j.out.group_max_flags[last] = 1; }),
               {group.c_str()});
}

TEST(FpatrChecked, TheRowMaxReportNamesMaxAbsAndRowMaxIn) {
  Case c = Case::make(true, true);
  expect_parts(report(c, [](const RowsJob& j) { j.out.row_max[1] ^= 1; }),
               {"RowMaxOut row 1 differs (MaxAbsEn 1, RowMaxIn 0x43000000)"});
  expect_parts(report(c, [](const RowsJob& j) { j.out.group_max[0] ^= 1; }),
               {"GroupMaxOut row 0 group 0 differs (MaxAbsEn 1)"});
}

}  // namespace
}  // namespace ptovp::fpatr

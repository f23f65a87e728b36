// The vector checker's parsing, key validation, comparison and reporting,
// exercised with a kind defined here (sum of two integers).
#include "vectors/vector_checker.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

namespace ptovp::vectors {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

VectorKindRegistry sum_kind() {
  VectorKindRegistry registry;
  registry["sum"] = VectorKind{"sum",
                               {"a", "b"},
                               {"out"},
                               [](const VectorInputs& in) {
                                 return VectorOutputs{{"out", hex(in.u64("a") + in.u64("b"))}};
                               },
                               {}};
  registry["neg"] = VectorKind{"neg",
                               {"a"},
                               {"out"},
                               [](const VectorInputs& in) {
                                 return VectorOutputs{{"out", std::to_string(-in.i64("a"))}};
                               },
                               {}};
  return registry;
}

struct CheckRun {
  std::string report;
  std::size_t passed;
  std::size_t failed;
  std::size_t malformed;
};

CheckRun check(const std::string& text, std::size_t max_reported = 20) {
  const VectorKindRegistry kinds = sum_kind();
  std::ostringstream report;
  VectorChecker checker(kinds, report, max_reported);
  std::istringstream input(text);
  checker.check_stream(input, "t.vec");
  checker.print_summary();
  return {report.str(), checker.passed(), checker.failed(), checker.malformed()};
}

TEST(VectorChecker, ComparesIntegersByValueWhateverTheirSpelling) {
  const CheckRun run = check(
      "# comment\n\n"
      "sum a=1 b=2 -> out=3\n"
      "  sum\ta=0x10  b=0x0f -> out=0x001F\n"
      "neg a=5 -> out=-5\n");
  EXPECT_EQ(run.passed, 3u);
  EXPECT_EQ(run.failed, 0u);
  EXPECT_EQ(run.malformed, 0u);
  EXPECT_THAT(run.report, HasSubstr("vectors: 3 passed, 0 failed"));
  EXPECT_THAT(run.report, HasSubstr("sum: 2 passed, 0 failed"));
}

TEST(VectorChecker, ReportsAMismatchWithTheLineExpectedAndComputed) {
  const CheckRun run = check("sum a=1 b=2 -> out=3\nsum a=1 b=2 -> out=4\n");
  EXPECT_EQ(run.passed, 1u);
  EXPECT_EQ(run.failed, 1u);
  EXPECT_THAT(run.report, HasSubstr("t.vec:2: MISMATCH"));
  EXPECT_THAT(run.report, HasSubstr("sum a=1 b=2 -> out=4"));
  EXPECT_THAT(run.report, HasSubstr("expected: out=4"));
  EXPECT_THAT(run.report, HasSubstr("computed: out=0x3"));
}

TEST(VectorChecker, PrintsOnlyTheFirstMismatchesButCountsAll) {
  const CheckRun run = check("sum a=1 b=1 -> out=0\nsum a=1 b=2 -> out=0\nsum a=2 b=2 -> out=0\n",
                             /*max_reported=*/2);
  EXPECT_EQ(run.failed, 3u);
  EXPECT_THAT(run.report, HasSubstr("t.vec:2: MISMATCH"));
  EXPECT_THAT(run.report, Not(HasSubstr("t.vec:3: MISMATCH")));
  EXPECT_THAT(run.report, HasSubstr("1 further mismatches not shown"));
}

TEST(VectorChecker, RejectsMalformedLinesWithFileLineAndReason) {
  const CheckRun run = check(
      "sum a=1 b=2 out=3\n"         // no arrow
      "sum a=1 -> out=1\n"          // missing input
      "sum a=1 b=2 c=3 -> out=3\n"  // unknown input
      "sum a=1 b=2 -> out=3 x=1\n"  // unknown output
      "sum a=1 a=2 b=2 -> out=3\n"  // duplicate key
      "sum a=zz b=2 -> out=3\n"     // unparsable value
      "mul a=1 b=2 -> out=2\n"      // unknown kind
      "sum a=1 b -> out=3\n");      // not key=value
  EXPECT_EQ(run.malformed, 8u);
  EXPECT_EQ(run.passed, 0u);
  EXPECT_THAT(run.report, HasSubstr("t.vec:1: malformed: no '->'"));
  EXPECT_THAT(run.report, HasSubstr("t.vec:2: malformed: missing input key 'b'"));
  EXPECT_THAT(run.report, HasSubstr("t.vec:3: malformed: unknown input key 'c'"));
  EXPECT_THAT(run.report, HasSubstr("t.vec:4: malformed: unknown output key 'x'"));
  EXPECT_THAT(run.report, HasSubstr("t.vec:5: malformed: key 'a' appears twice"));
  EXPECT_THAT(run.report, HasSubstr("t.vec:6: malformed: key 'a' has value 'zz'"));
  EXPECT_THAT(run.report, HasSubstr("t.vec:7: malformed: unknown kind 'mul'"));
  EXPECT_THAT(run.report, HasSubstr("t.vec:8: malformed: token 'b' is not key=value"));
  EXPECT_THAT(run.report, HasSubstr("8 malformed"));
}

TEST(VectorChecker, AnExpectationNoKindCanComputeIsMalformedNotAMismatch) {
  VectorKindRegistry kinds;
  register_numeric_kinds(kinds);
  register_dot_kinds(kinds);
  std::ostringstream report;
  VectorChecker checker(kinds, report);
  std::istringstream input(
      "fenc type=FP16 x=0x3f800000 rmode=RNE sat=0 -> out=0x3c00 flags=0\n"
      "fenc type=FP16 x=0x3f800000 rmode=RNE sat=0 -> out=0x13c00 flags=0\n"    // wider than FP16
      "fenc type=FP16 x=0x3f800000 rmode=RNE sat=0 -> out=0x3c00 flags=0x20\n"  // no 6th flag
      "fenc type=FP16 x=0x3f800000 rmode=RNE sat=0 -> out=-1 flags=0\n"   // raw bits are unsigned
      "fenc type=FP16 x=0x3f800000 rmode=RNE sat=0 -> out=one flags=0\n"  // not an integer
      "rss x=0x41780000 width=5 rmode=RNE -> out=15 flags=0x14\n"
      "rss x=0x41780000 width=5 rmode=RNE -> out=16 flags=0x14\n"  // beyond signed 5 bits
      "dot profile=hardware atype=S8 btype=S8 k=1 a=0x2 b=0x3 sa=- sb=- init=- bias=- "
      "-> out=0x100000000\n");  // wider than the S32 accumulator
  checker.check_stream(input, "t.vec");
  EXPECT_EQ(checker.passed(), 2u) << report.str();
  EXPECT_EQ(checker.failed(), 0u) << report.str();
  EXPECT_EQ(checker.malformed(), 6u) << report.str();
  EXPECT_THAT(report.str(), Not(HasSubstr("MISMATCH")));
  EXPECT_THAT(report.str(),
              HasSubstr("t.vec:2: malformed: expected output 'out=0x13c00' does not fit the "
                        "16-bit output"));
  EXPECT_THAT(report.str(), HasSubstr("t.vec:3: malformed: expected output 'flags=0x20' does not "
                                      "fit the 5-bit output"));
  EXPECT_THAT(report.str(), HasSubstr("t.vec:4: malformed: expected output 'out=-1' is negative"));
  EXPECT_THAT(report.str(),
              HasSubstr("t.vec:5: malformed: expected output 'out=one' is not an integer"));
  EXPECT_THAT(report.str(), HasSubstr("t.vec:7: malformed: expected output 'out=16' does not fit "
                                      "the signed 5-bit output"));
  EXPECT_THAT(report.str(), HasSubstr("t.vec:8: malformed: expected output 'out=0x100000000'"));
}

TEST(VectorChecker, AMissingFileIsReportedNotThrown) {
  const VectorKindRegistry kinds = sum_kind();
  std::ostringstream report;
  VectorChecker checker(kinds, report);
  EXPECT_FALSE(checker.check_file("/nonexistent/ptovp.vec"));
  EXPECT_FALSE(checker.all_passed());
  EXPECT_THAT(report.str(), HasSubstr("/nonexistent/ptovp.vec: cannot read the file"));
  // A directory opens, then fails to read: reported, not thrown.
  EXPECT_FALSE(checker.check_file("/"));
  EXPECT_THAT(report.str(), HasSubstr("/: is a directory, not a file"));
}

TEST(VectorInputs, ParsesListsDashesAndTypes) {
  const VectorInputs in({{"l", "0x1,2,0x3"}, {"d", "-"}, {"t", "hif8"}, {"n", "-9"}});
  EXPECT_EQ(in.list("l"), (std::vector<std::uint64_t>{1, 2, 3}));
  EXPECT_TRUE(in.list("d").empty());
  EXPECT_TRUE(in.is_dash("d"));
  EXPECT_EQ(in.data_type("t"), numeric::DataType::HiF8);
  EXPECT_EQ(in.i64("n"), -9);
  EXPECT_THROW(in.u64("n"), MalformedVector);
  EXPECT_THROW(in.text("missing"), MalformedVector);
}

}  // namespace
}  // namespace ptovp::vectors

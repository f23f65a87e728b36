// The --vcd writer on a hand-made activity log: one wire per unit, all low at
// time 0, a rise at a slice's start and a fall at its end, back-to-back and
// overlapping slices of one unit merged into one high period; the --trace
// writer streaming what the log records.
#include <gtest/gtest.h>

#include <sstream>

#include "harness.hpp"
#include "systemc/trace_writer.hpp"
#include "systemc/vcd_writer.hpp"

namespace ptovp::systemc {
namespace {

using sc_common::Unit;
using testing::ns;

TEST(VcdWriter, WritesEachUnitsBusyPeriodsInPicoseconds) {
  sc_common::ActivityLog log(true);
  log.busy(Unit::Pe0, ns(10), ns(20), "TMATMUL");
  log.busy(Unit::Pe0, ns(20), ns(30), "TMATMUL");  // back to back: stays high
  log.busy(Unit::Tlsu, ns(15), ns(25), "TLOAD");
  log.busy(Unit::Tlsu, ns(18), ns(22), "TLOAD");     // inside the first: no edge
  log.busy(Unit::Fpatr, ns(40), ns(40), "TMATMUL");  // empty: no edge
  std::ostringstream out;
  write_vcd(out, log);
  EXPECT_EQ(out.str(),
            "$timescale 1 ps $end\n$scope module ptovp $end\n"
            "$var wire 1 ! front_end_busy $end\n"
            "$var wire 1 \" builder_busy $end\n"
            "$var wire 1 # PE0_busy $end\n"
            "$var wire 1 $ PE1_busy $end\n"
            "$var wire 1 % PE2_busy $end\n"
            "$var wire 1 & PE3_busy $end\n"
            "$var wire 1 ' FPATR_busy $end\n"
            "$var wire 1 ( TLSU_busy $end\n"
            "$var wire 1 ) fabric_busy $end\n"
            "$upscope $end\n$enddefinitions $end\n"
            "#0\n$dumpvars\n0!\n0\"\n0#\n0$\n0%\n0&\n0'\n0(\n0)\n$end\n"
            "#10000\n1#\n"
            "#15000\n1(\n"
            "#25000\n0(\n"
            "#30000\n0#\n");
}

TEST(TraceWriter, StreamsEachSliceAsItIsRecordedAndKeepsNone) {
  sc_common::ActivityLog log;  // keeps no slices: the writer hears them
  std::ostringstream out;
  TraceWriter trace(out);
  log.set_listener(&trace);
  EXPECT_TRUE(log.keeps_slices()) << "units describe their blocks for a listener";
  log.busy(Unit::Pe1, ns(10), ns(25), "TMATMUL", "M=16");
  const std::string after_one = out.str();
  EXPECT_NE(after_one.find(R"({"ph":"X","pid":1,"tid":3,"ts":0.010000,"dur":0.015000,)"
                           R"("name":"TMATMUL","args":{"detail":"M=16"}})"),
            std::string::npos)
      << after_one;
  log.capacity(ns(12), 4096);
  log.capacity(ns(13), 4096);  // unchanged: no sample
  trace.finish();
  EXPECT_TRUE(log.slices().empty());
  EXPECT_TRUE(log.capacity_samples().empty());
  const std::string text = out.str();
  EXPECT_EQ(text.substr(after_one.size()),
            ",\n{\"ph\":\"C\",\"pid\":1,\"name\":\"tile capacity in use\",\"ts\":0.012000,"
            "\"args\":{\"bytes\":4096}}\n]}\n");
}

}  // namespace
}  // namespace ptovp::systemc

// The --vcd writer on a hand-made activity log: one wire per unit, all low at
// time 0, a rise at a slice's start and a fall at its end, back-to-back and
// overlapping slices of one unit merged into one high period.
#include <gtest/gtest.h>

#include <sstream>

#include "harness.hpp"
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

}  // namespace
}  // namespace ptovp::systemc

// The AMO forms (asl/scalar/model/amo/semantics.asl) through the engine,
// against values computed here from the ASL's definitions: every
// read-modify-write operation at W and D width (returning the old value,
// words sign-extended), the byte and halfword SWAP/CAS, CAS match and
// mismatch, LR/SC with the reservation's 64-byte line and what clears it, DMA,
// the four PEs applied in PE order, and the precise alignment faults.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "program_fixture.hpp"

namespace ptovp::testing {
namespace {

using arch::FaultCode;
using V = std::uint64_t;

constexpr V kOld = 0x8899AABB11223344;      // every location's first value
constexpr V kOperand = 0xF0000000000000F5;  // a1: negative as D, positive as W
constexpr V kBase = 0x2000;

// Loads `body` with kOld at kBase + 8 * i (i < 128) and runs it; a0 = kBase,
// a1 = kOperand.
class AtomicProgram : public ProgramTest {
 protected:
  void run_body(const std::string& body) {
    load(
        "  hl.liu 0x2000, ->a0\n  hl.lis 0xf5, ->a1\n  andi a1, 0xff, ->a1\n"
        "  hl.lui 0xf0000000, ->a2\n  or a1, a2, ->a1\n" +
        body + kHalt);
    for (unsigned i = 0; i < 128; ++i)
      ASSERT_FALSE(model.memory().store(kBase + 8 * i, 8, kOld));
    const engine::RunResult result = model.run(100000);
    ASSERT_TRUE(result.halt);
    ASSERT_EQ(result.halt->kind, frontend::HaltKind::Breakpoint) << result.halt->fault.describe();
  }
  V memory(V address, unsigned size) const { return *model.memory().load(address, size); }
};

V sign_extend32(V v) {
  return static_cast<V>(static_cast<std::int64_t>(static_cast<std::int32_t>(v)));
}

struct RmwCase {
  const char* op;
  V (*apply)(V old, V operand, bool word);
};

V lane(V v, bool word) {
  return word ? v & 0xFFFFFFFFu : v;
}
std::int64_t signed_lane(V v, bool word) {
  return word ? static_cast<std::int32_t>(v) : static_cast<std::int64_t>(v);
}

const RmwCase kRmw[] = {
    {"add", [](V o, V x, bool w) { return lane(o + x, w); }},
    {"and", [](V o, V x, bool w) { return lane(o & x, w); }},
    {"or", [](V o, V x, bool w) { return lane(o | x, w); }},
    {"xor", [](V o, V x, bool w) { return lane(o ^ x, w); }},
    {"smin",
     [](V o, V x, bool w) { return lane(signed_lane(o, w) < signed_lane(x, w) ? o : x, w); }},
    {"smax",
     [](V o, V x, bool w) { return lane(signed_lane(o, w) > signed_lane(x, w) ? o : x, w); }},
    {"umin", [](V o, V x, bool w) { return std::min(lane(o, w), lane(x, w)); }},
    {"umax", [](V o, V x, bool w) { return std::max(lane(o, w), lane(x, w)); }},
};

// Each operation on its own location, so every PE sees kOld... except that
// the four PEs apply it in turn: PE p reads the value after p applications.
TEST_F(AtomicProgram, ReadModifyWriteOperationsAtBothWidths) {
  std::string body;
  for (const RmwCase& c : kRmw) {
    body += std::string("  ld.") + c.op + " [a0], a1, ->s0\n  sdi s0, [a0, 0x400]\n";
    body += std::string("  addi a0, 8, ->a0\n  lw.") + c.op + " [a0], a1, ->s0\n";
    body += "  sdi s0, [a0, 0x400]\n  addi a0, 8, ->a0\n";
  }
  body += "  sd.add [a0], a1\n  addi a0, 8, ->a0\n  sw.umin [a0], a1\n  addi a0, 8, ->a0\n";
  body += "  swapd [a0], a1, ->s1\n  addi a0, 8, ->a0\n  swapw [a0], a1, ->s2\n";
  run_body(body);
  V address = kBase;
  for (const RmwCase& c : kRmw) {
    for (bool word : {false, true}) {
      V value = kOld;
      V returned = 0;
      for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
        returned = word ? sign_extend32(value) : value;
        value = word ? (kOld & ~V{0xFFFFFFFF}) | c.apply(value, kOperand, true)
                     : c.apply(value, kOperand, false);
      }
      EXPECT_EQ(memory(address, 8), value) << c.op << (word ? " W" : " D");
      // The old value PE3 saw (the last written to address + 0x400).
      EXPECT_EQ(memory(address + 0x400, 8), returned) << c.op << (word ? " W" : " D");
      address += 8;
    }
  }
  EXPECT_EQ(memory(address, 8), kOld + 4 * kOperand);  // SD.ADD: no destination
  EXPECT_EQ(memory(address + 8, 8),
            (kOld & ~V{0xFFFFFFFF}) | std::min<V>(kOld & 0xFFFFFFFF, kOperand & 0xFFFFFFFF));
  // SWAPD: PE0 sees kOld, the others kOperand; SWAPW returns the word sign-extended.
  EXPECT_EQ(gpr(0, 12), kOld);
  EXPECT_EQ(gpr(3, 12), kOperand);
  EXPECT_EQ(gpr(0, 13), sign_extend32(kOld));
  EXPECT_EQ(gpr(1, 13), sign_extend32(kOperand));
  EXPECT_EQ(memory(address + 24, 8), (kOld & ~V{0xFFFFFFFF}) | (kOperand & 0xFFFFFFFF));
}

// CAS: the old value is returned; the store happens on a match of the
// expected value's low bytes. PE0 matches kOld, so PE1..3 see the new value
// and mismatch. Bytes and halfwords return zero-extended values.
TEST_F(AtomicProgram, CompareAndSwapAtEveryWidth) {
  run_body(
      "  hl.lui 0x8899aabb, ->a2\n  hl.liu 0x11223344, ->a3\n  or a2, a3, ->a2\n"  // a2 = kOld
      "  casd [a0], a2, a1, ->s0\n"
      "  addi a0, 8, ->a0\n  hl.casw.aqrl [a0], a2, a1, ->s1\n"
      "  addi a0, 8, ->a0\n  cash.aq [a0], a2, a1, ->s2\n"
      "  addi a0, 8, ->a0\n  casb.rl [a0], a1, a2, ->s3\n"  // 0xf5 != 0x44: no store
      "  addi a0, 8, ->a0\n  swaph [a0], a1, ->s4\n  addi a0, 8, ->a0\n  swapb [a0], a1, ->s5\n");
  EXPECT_EQ(gpr(0, 11), kOld);
  EXPECT_EQ(gpr(1, 11), kOperand);  // PE0 stored a1
  EXPECT_EQ(memory(kBase, 8), kOperand);
  EXPECT_EQ(gpr(0, 12), sign_extend32(kOld));
  EXPECT_EQ(gpr(2, 12), sign_extend32(kOperand));
  EXPECT_EQ(memory(kBase + 8, 8), (kOld & ~V{0xFFFFFFFF}) | (kOperand & 0xFFFFFFFF));
  EXPECT_EQ(gpr(0, 13), 0x3344u);
  EXPECT_EQ(gpr(3, 13), 0x00F5u);
  EXPECT_EQ(memory(kBase + 16, 8), (kOld & ~V{0xFFFF}) | 0x00F5);
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe)
    EXPECT_EQ(gpr(pe, 14), 0x44u);
  EXPECT_EQ(memory(kBase + 24, 8), kOld);
  EXPECT_EQ(gpr(0, 15), 0x3344u);
  EXPECT_EQ(gpr(1, 15), 0x00F5u);
  EXPECT_EQ(gpr(0, 16), 0x44u);
  EXPECT_EQ(gpr(1, 16), 0xF5u);
  EXPECT_EQ(memory(kBase + 40, 8), (kOld & ~V{0xFF}) | 0xF5);
}

// LR/SC: each PE reserves its own line (THREAD_ID is the PE index); an SC to
// any address in the reserved 64-byte line succeeds (0) once, a second SC
// fails (1) without storing; a store into the line, a fence or an SC to
// another line ends the reservation.
TEST_F(AtomicProgram, LoadReservedStoreConditional) {
  run_body(
      "  BSTART.SYS FALL\n  ssrget 0x26, ->a6\n  BSTOP\n"
      "  slli a6, 8, ->a6\n  add a0, a6, ->a0\n"  // a0 = 0x2000 + 256 * PE
      "  lr.w.aq [a0], zero, ->s0\n"
      "  addi a0, 48, ->a3\n  sc.d.rl a1, [a3], ->s1\n"  // same line: stores, 0
      "  sc.d a1, [a3], ->s2\n"                          // no reservation: 1
      "  lr.d [a0], zero, ->s3\n  addi a0, 8, ->a3\n  sdi zero, [a3, 0]\n  sc.d a1, [a0], ->s4\n"
      "  lr.d [a0], zero, ->s5\n  BSTART.SYS FALL\n  fence.d 3, 3\n  BSTOP\n  sc.d a1, [a0], ->s6\n"
      "  lr.h [a0], zero, ->s7\n  addi a0, 64, ->a3\n  sc.h a1, [a3], ->s8\n  sc.h a1, [a0], ->x0\n"
      "  lr.b [a0], zero, ->x1\n  addi a0, 128, ->a3\n  sdi zero, [a3, 0]\n  sc.b a1, [a0], "
      "->x2\n");
  expect(11, sign_extend32(kOld));
  expect(12, 0);
  expect(13, 1);
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
    const V base = kBase + 256 * pe;
    EXPECT_EQ(memory(base + 48, 8), kOperand) << pe;
    EXPECT_EQ(memory(base + 8, 8), 0u) << pe;
    EXPECT_EQ(memory(base, 8), (kOld & ~V{0xFF}) | 0xF5) << pe;  // the final SC.B
  }
  expect(14, kOld);
  expect(15, 1);  // a store into the line cleared the reservation
  expect(16, kOld);
  expect(17, 1);  // FENCE.D cleared it
  expect(18, kOld & 0xFFFF);
  expect(19, 1);  // another line: fails, and clears the reservation
  expect(20, 1);
  expect(21, kOld & 0xFF);
  expect(22, 0);  // a store to another line leaves it
}

// Every PE reserves the same line: PE0's SC stores and ends the others'
// reservations, which then fail.
TEST_F(AtomicProgram, AStoreConditionalEndsTheOtherPesReservations) {
  run_body("  lr.d [a0], zero, ->s0\n  sc.d a1, [a0], ->s1\n");
  EXPECT_EQ(gpr(0, 12), 0u);
  for (unsigned pe = 1; pe < arch::kPeCount; ++pe)
    EXPECT_EQ(gpr(pe, 12), 1u) << pe;
  EXPECT_EQ(memory(kBase, 8), kOperand);
}

// DMA copies 64 bytes per PE (as memmove: here overlapping, one word up).
TEST_F(AtomicProgram, DmaCopiesSixtyFourBytes) {
  run_body("  addi a0, 8, ->a3\n  sdi zero, [a0, 0]\n  dma [a0], a3\n");
  EXPECT_EQ(memory(kBase, 8), 0u);
  EXPECT_EQ(memory(kBase + 8, 8), 0u);  // four overlapping copies shift the zero up
  EXPECT_EQ(memory(kBase + 32, 8), 0u);
  EXPECT_EQ(memory(kBase + 40, 8), kOld);
  EXPECT_EQ(memory(kBase + 72, 8), kOld);
}

// A misaligned atomic raises DataAlignment at its address and changes
// nothing; an SC without a reservation fails without probing its address.
TEST_F(AtomicProgram, MisalignedAccessesFaultPrecisely) {
  const frontend::Halt halt =
      expect_clean_trap("  hl.liu 0x2004, ->a0\n  lw.add [a0], a0, ->s0\n  ld.add [a0], a0, ->s1\n",
                        FaultCode::DataAlignment, 10, 2);
  EXPECT_EQ(halt.fault.address, 0x2004u);
  // LW.ADD at 0x2004 is aligned and ran on each PE in turn.
  EXPECT_EQ(gpr(0, 11), 0u);
  EXPECT_EQ(gpr(1, 11), 0x2004u);
  EXPECT_EQ(*model.memory().load(0x2004, 4), 4 * 0x2004u);
  const frontend::Halt cas = expect_clean_trap("  hl.liu 0x2002, ->a0\n  casw [a0], a0, a0, ->s0\n",
                                               FaultCode::DataAlignment, 6);
  EXPECT_EQ(cas.fault.address, 0x2002u);
  run_body("  addi a0, 3, ->a0\n  sc.d a1, [a0], ->s0\n");
  expect(11, 1);
}

}  // namespace
}  // namespace ptovp::testing

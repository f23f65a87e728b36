// The functional runner end to end: firmware with independent goldens, TLSU
// blocks through the builder (block/execution AVS intents), the state dump,
// and bad input.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "engine/block_text.hpp"
#include "engine/fault_report.hpp"
#include "engine/state_dump.hpp"
#include "isa/program_image.hpp"
#include "program_fixture.hpp"

namespace ptovp::testing {
namespace {

using arch::FaultCode;
using FunctionalTest = ProgramTest;

// The block header of a fault report names every field once, each flag as 0
// or 1 (alternating here, so that a swapped or stuck flag shows).
TEST(BlockText, HeaderWithEveryFieldPresent) {
  arch::BlockDescriptor h;
  h.kind = arch::BlockKind::TileMatrix;
  h.transfer = arch::TransferType::Conditional;
  h.taken = true;
  h.bpc = 0x40;
  h.bpcn = 0x80;
  h.operation_valid = true;
  h.operation_class = arch::OperationClass::Cube;
  h.function = 4;
  h.data_type = 7;
  h.dims[0] = {true, 16};
  h.dims[2] = {true, 65535};
  h.datr = {true, 2, 21, 1, 0, 3, true, false};
  h.catr = {true, true, false, true, false, true, false};
  h.hint = {true, 0xABCD};
  h.fpatr = {true, 0x12345678};
  h.ior.valid = true;
  h.ior.source = {11, 12, 0};
  h.ior.destination = 13;
  h.tiles[0] = {true, 2, 3, 0xF, 2, {1, 2}, true};
  h.tiles[1] = {false, 0, 0, 0x8, 1, {5, 0}, false};
  h.tile_count = 2;
  h.shared[0] = {7, 0, 0x3};
  h.shared[1] = {9, 12, 0xF};
  h.shared_count = 2;
  h.zero_participation_seen = true;
  EXPECT_EQ(
      engine::describe_header(h),
      "    BSTART at 0x40: TileMatrix block, COND taken BPCN 0x80\n"
      "    operation CUBE function 4, DataType E4M3\n"
      "    LB0 = 16\n"
      "    LB2 = 65535\n"
      "    B.DATR DataType TF32 Layout ND2M32 Pad Max CMode EQ RMode RDN Sat 1 Canonicalize 0\n"
      "    B.FPATR 0x12345678\n"
      "    B.CATR DR 1 trap 0 far 1 atom 0 aq 1 rl 0\n"
      "    B.HINT 0x0000abcd\n"
      "    B.IOR [s0, s1, zero], ->s2\n"
      "    B.IOT T#2, T#3, mask=1111, last, ->M<3>\n"
      "    B.IOT T#6, mask=1000\n"
      "    B.IOS S7, mask=0011\n"
      "    B.IOS mask=1111, ->S9<12>\n"
      "    (zero-mask bindings seen)\n");
  h.catr = {true, false, true, false, true, false, true};
  EXPECT_NE(engine::describe_header(h).find("B.CATR DR 0 trap 1 far 0 atom 1 aq 0 rl 1\n"),
            std::string::npos);
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::uint32_t word_at(const memory::Memory& memory, std::uint64_t address) {
  return static_cast<std::uint32_t>(*memory.load(address, 4));
}

// firmware/tile_copy: PE p fills 64 U32 with p*0x100 + i; S3 quarter q holds
// PE q's rows 2q and 2q+1 (elements 16q .. 16q+15); every PE's output and the
// Shared store are S3.
TEST_F(FunctionalTest, TileCopyFirmwareMatchesGolden) {
  const engine::RunResult result =
      run(read_text(PTOVP_SOURCE_DIR "/firmware/tile_copy/tile_copy.s"), 10000);
  ASSERT_TRUE(result.halt);
  ASSERT_EQ(result.halt->kind, frontend::HaltKind::Breakpoint)
      << engine::format_fault_report(*result.halt);
  EXPECT_EQ(result.halt->exit_code, 0);
  for (unsigned element = 0; element < 64; ++element) {
    const unsigned owner = element / 16;  // the quarter's PE
    const std::uint32_t expected = owner * 0x100 + element;
    for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
      EXPECT_EQ(word_at(model.memory(), 0x1000 + 256 * pe + 4 * element), pe * 0x100 + element);
      EXPECT_EQ(word_at(model.memory(), 0x2000 + 256 * pe + 4 * element), expected)
          << "PE" << pe << " e" << element;
    }
    EXPECT_EQ(word_at(model.memory(), 0x3000 + 4 * element), expected);
  }
  const arch::SharedTile& s3 = model.shared_tiles().at(3);
  EXPECT_TRUE(s3.published);
  EXPECT_EQ(s3.allocation_mask, 0xF);
  // Two 256 B Local tiles on four PEs; S3 charges its 256 B once (ADR-0097).
  EXPECT_EQ(capacity_in_use(), 2u * 4 * 256 + 256);
}

// firmware/gather_scatter: PE p's table word i is p*0x100 + i. The gather
// reads the table words at its byte displacements; the scatter writes them
// to the output at the other displacements; the CAS finds every output lane
// equal to the gathered one, stores the replacements (table words 32..39 and
// 40..47) and writes the gathered values to SWAPPED.
TEST_F(FunctionalTest, GatherScatterFirmwareMatchesGolden) {
  const engine::RunResult result =
      run(read_text(PTOVP_SOURCE_DIR "/firmware/gather_scatter/gather_scatter.s"), 10000);
  ASSERT_TRUE(result.halt);
  ASSERT_EQ(result.halt->kind, frontend::HaltKind::Breakpoint)
      << engine::format_fault_report(*result.halt);
  EXPECT_EQ(result.halt->exit_code, 0);
  const unsigned gather[16] = {0, 4, 60, 252, 128, 8, 200, 16, 44, 36, 28, 20, 12, 4, 132, 248};
  const unsigned scatter[16] = {60, 56, 52, 48, 44, 40, 36, 32, 28, 24, 20, 16, 12, 8, 4, 0};
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
    for (unsigned lane = 0; lane < 16; ++lane) {
      const std::uint32_t gathered = pe * 0x100 + gather[lane] / 4;
      const std::uint32_t replacement = pe * 0x100 + 32 + lane;
      EXPECT_EQ(word_at(model.memory(), 0x2000 + 256 * pe + scatter[lane]), replacement)
          << "PE" << pe << " lane " << lane;
      EXPECT_EQ(word_at(model.memory(), 0x3000 + 256 * pe + 4 * lane), gathered)
          << "PE" << pe << " lane " << lane;
    }
  }
}

// block/execution BSTART.TLOAD + BSTART.TSTORE: per-PE base through B.IOR
// returns the same bytes, with an odd shape (5 x 3 U16, stride 10 bytes).
TEST_F(FunctionalTest, TloadTstoreRoundTripPerPe) {
  std::vector<std::uint8_t> input(4 * 64);
  for (std::size_t i = 0; i < input.size(); ++i)
    input[i] = static_cast<std::uint8_t>(i * 7 + 1);
  ASSERT_FALSE(model.load_bytes(0x1000, input));
  const engine::RunResult result = run(
      "  BSTART.SYS FALL\n  ssrget 0x26, ->a0\n  BSTOP\n"
      "  slli a0, 6, ->a1\n  hl.liu 0x1000, ->s0\n  add s0, a1.sw, ->s0\n"
      "  hl.liu 0x2000, ->s2\n  add s2, a1.sw, ->s2\n  addi zero, 10, ->s1\n"
      "  BSTART.TLOAD U16\n  B.DIM zero, 3, ->LB0\n  B.DIM zero, 5, ->LB1\n  B.DIM zero, 4, ->LB2\n"
      "  B.IOR [s0, s1]\n  B.IOT mask=1111, last, ->T<1>\n"
      "  BSTART.TSTORE U16\n  B.DIM zero, 3, ->LB0\n  B.DIM zero, 5, ->LB1\n  B.DIM zero, 4, "
      "->LB2\n"
      "  B.IOR [s2, s1]\n  B.IOT T0, mask=1111, last\n  BSTOP\n" +
      std::string(kHalt));
  ASSERT_TRUE(result.halt);
  ASSERT_EQ(result.halt->kind, frontend::HaltKind::Breakpoint)
      << engine::format_fault_report(*result.halt);
  for (unsigned pe = 0; pe < 4; ++pe) {
    for (unsigned row = 0; row < 5; ++row) {
      for (unsigned byte = 0; byte < 6; ++byte) {
        const std::uint64_t offset = 64 * pe + 10 * row + byte;
        EXPECT_EQ(*model.memory().load(0x2000 + offset, 1), input[offset]);
      }
      // The 4 gap bytes of each 10-byte row are never written.
      EXPECT_EQ(*model.memory().load(0x2000 + 64 * pe + 10 * row + 6, 1), 0u);
    }
  }
}

// block/execution BSTART.TMOV: BROADCAST of an unpublished Sx raises
// TileLegality at commit and leaves tiles, Shared records and capacity unchanged.
TEST_F(FunctionalTest, BroadcastOfUnpublishedSharedFaults) {
  const frontend::Halt halt = expect_trap(
      "  BSTART.TMOV.S2L.BROADCAST U32\n  B.IOS S9, mask=1111\n  B.IOT mask=1111, last, ->U<2>\n  "
      "BSTOP\n",
      FaultCode::TileLegality);
  EXPECT_EQ(halt.pc, 12u);
  EXPECT_EQ(allocated_local_tiles(), 0u);
  EXPECT_EQ(capacity_in_use(), 0u);
  EXPECT_FALSE(model.shared_tiles().at(9).descriptor_valid);
  const std::string report = engine::format_fault_report(halt);
  EXPECT_NE(report.find("trap 5: Fault_TileLegality"), std::string::npos) << report;
  EXPECT_NE(report.find("BSTOP"), std::string::npos) << report;
  EXPECT_NE(report.find("B.IOS S9, mask=1111"), std::string::npos) << report;
}

// Fault reasons spell tiles and codes as the assembler does (N#1, DTYPE_NONE,
// ND2M16, FP16), never as raw register numbers or field codes.
TEST(FaultReasons, UseTheAssemblerNames) {
  const std::string load_n =
      "  BSTART.TLOAD U16\n  B.DIM zero, 8, ->LB0\n  B.DIM zero, 1, ->LB1\n"
      "  B.IOR [zero, zero]\n  B.IOT mask=1111, last, ->N<1>\n  BSTOP\n";
  struct Case {
    std::string program;
    arch::FaultCode code;
    std::string reason;
  };
  const Case cases[] = {
      {load_n + "  BSTART.TSTORE U8\n  B.IOR [zero, zero]\n  B.IOT N#1, mask=1111, last\n"
                "  BSTOP\n",
       FaultCode::TileLegality, "source tile N#1 holds U16, BSTART.TSTORE names U8"},
      {"  BSTART.TSTORE U8\n  B.IOR [zero, zero]\n  B.IOT N#3, mask=1111, last\n  BSTOP\n",
       FaultCode::TileLegality, "source tile N#3 is not allocated"},
      {"  BSTART.TLOAD U16\n  B.DATR NORM, FP16, Zero, EQ, NONE, 0, 0\n  B.DIM zero, 8, ->LB0\n"
       "  B.IOR [zero, zero]\n  B.IOT mask=1111, last, ->N<1>\n  BSTOP\n",
       FaultCode::TileLegality, "B.DATR DataType FP16 must be DTYPE_NONE in a TLSU block"},
      {load_n + "  BSTART.TSTORE U16\n  B.DATR ND2M16, DTYPE_NONE, Zero, EQ, NONE, 0, 0\n"
                "  B.IOR [zero, zero]\n  B.IOT N#1, mask=1111, last\n  BSTOP\n",
       FaultCode::TileLegality, "B.DATR Layout ND2M16 is not legal here"},
      {"  BSTART.TMATMUL FP16\n  B.DATR NORM, DTYPE_NONE, Zero, EQ, NONE, 0, 0\n"
       "  B.FPATR None, None, 0, 0, 0, 0, 0, 0, 0, 0\n  B.DIM zero, 16, ->LB0\n  B.DIM zero, 16, ->LB1\n  B.DIM zero, 16, ->LB2\n"
       "  B.IOT T#1, T#2, mask=1111, last, ->M<4>\n  BSTOP\n",
       FaultCode::TileLegality, "TMATMUL: AType FP16 / BType DTYPE_NONE is not a tile data type"},
  };
  for (const Case& c : cases) {
    functional::FunctionalModel fresh;
    const isa::AssemblyResult assembled = isa::Assembler().assemble_text("test.s", c.program);
    ASSERT_TRUE(assembled.ok()) << assembled.diagnostics.front().format();
    ASSERT_FALSE(fresh.load(assembled.image));
    const engine::RunResult result = fresh.run(100000);
    ASSERT_TRUE(result.halt) << c.reason;
    EXPECT_EQ(result.halt->fault.code, c.code) << result.halt->fault.describe();
    EXPECT_NE(result.halt->fault.reason.find(c.reason), std::string::npos)
        << "reason: " << result.halt->fault.reason << "\nwanted: " << c.reason;
  }
}

// A cooperative TMATMUL whose Shared B (S3) was never published: the CUBE unit
// stalls, nothing else can publish S3, so the run stops with a stall report,
// TPC on the block stop and no D allocated (the block stays active).
TEST_F(FunctionalTest, UnreadySharedSourceIsAReportedStall) {
  const engine::RunResult result =
      run("  BSTART.TLOAD FP16\n  B.DATR ND2M16, DTYPE_NONE, Zero, EQ, NONE, 0, 0\n"
          "  B.DIM zero, 32, ->LB0\n  B.DIM zero, 16, ->LB1\n  B.IOR [zero, zero]\n"
          "  B.IOT mask=1111, last, ->T<4>\n  BSTOP\n"
          "  BSTART.TMATMUL FP16\n  B.DATR NORM, FP16, Zero, EQ, NONE, 0, 0\n"
          "  B.FPATR None, None, 0, 0, 0, 0, 0, 0, 0, 0\n  B.DIM zero, 40, ->LB0\n"
          "  B.DIM zero, 16, ->LB1\n  B.DIM zero, 32, ->LB2\n"
          "  B.IOT T#1, mask=1111, last, ->M<4>\n  B.IOS S3, mask=1111\n  BSTOP\n" +
          std::string(kHalt));
  ASSERT_TRUE(result.halt);
  ASSERT_EQ(result.halt->kind, frontend::HaltKind::Stall) << result.halt->fault.describe();
  const std::uint64_t stop = 0x3c;  // the second block's BSTOP
  EXPECT_EQ(result.halt->pc, stop);
  EXPECT_EQ(model.state().pc, stop);
  EXPECT_TRUE(model.state().block.active);
  EXPECT_EQ(allocated_local_tiles(), 1u);  // A only
  const std::string report = engine::format_fault_report(*result.halt);
  EXPECT_EQ(report.rfind("stalled: B source Shared S3 not ready: descriptor_valid=0 "
                         "allocation_mask=0000",
                         0),
            0u)
      << report;
  EXPECT_NE(report.find("BSTOP"), std::string::npos) << report;
  EXPECT_EQ(report.find("trap"), std::string::npos) << report;
}

// PTO-AVS-BLOCK-B-IOT-CAPACITY-003 under the 0.58.5 pools (ADR-0097): four
// 64 KiB x 4 PE destinations fill every PE's 256 KiB Local pool exactly; the
// next destination raises TileAllocation with nothing allocated.
TEST_F(FunctionalTest, CapacityExhaustionRaisesTileAllocation) {
  const std::string load64k =
      "  BSTART.TLOAD U8\n  B.DIM zero, 1, ->LB0\n  B.DIM zero, 1, ->LB1\n  B.DIM zero, 256, "
      "->LB2\n  B.IOT mask=1111, last, ->T<10>\n  BSTOP\n";
  const frontend::Halt halt =
      expect_trap(load64k + load64k + load64k + load64k + load64k, FaultCode::TileAllocation);
  EXPECT_EQ(allocated_local_tiles(), 4u);
  EXPECT_EQ(capacity_in_use(), 4 * arch::kResetTileCapacity);
  for (unsigned pe = 0; pe < arch::kPeCount; ++pe)
    EXPECT_EQ(model.local_tiles().capacity_in_use(pe), arch::kResetTileCapacity);
  EXPECT_TRUE(halt.block.active);
}

TEST_F(FunctionalTest, StateDumpDescribesTilesAndRegisters) {
  const engine::RunResult result =
      run(read_text(PTOVP_SOURCE_DIR "/firmware/tile_copy/tile_copy.s"), 10000);
  ASSERT_TRUE(result.halt);
  const nlohmann::json dump = engine::state_dump(model.state_view());
  EXPECT_EQ(dump["format"], "ptovp-state-1");
  EXPECT_EQ(dump["gprs"].size(), 4u);
  EXPECT_EQ(dump["gprs"][2][2], "0x2");  // a0 = THREAD_ID on PE2
  ASSERT_EQ(dump["local_tiles"].size(), 2u);
  EXPECT_EQ(dump["local_tiles"][1]["name"], "U0");
  EXPECT_EQ(dump["local_tiles"][1]["descriptor"]["data_type"], "U32");
  // U0 on PE1, element 16 (PE1's quarter): 0x110 little endian.
  EXPECT_EQ(dump["local_tiles"][1]["payload"]["PE1"].get<std::string>().substr(128, 8), "10010000");
  ASSERT_EQ(dump["shared_tiles"].size(), 1u);
  EXPECT_EQ(dump["shared_tiles"][0]["id"], 3);
  EXPECT_EQ(dump["shared_tiles"][0]["published"], true);
  EXPECT_EQ(dump["trap"]["last_fault"], "Fault_SoftwareBreakpoint");
}

// Bad input: a PC outside memory is a clear InstructionPage fault.
TEST_F(FunctionalTest, PcOutsideMemory) {
  const frontend::Halt halt =
      expect_trap("  hl.liu 0x5000000, ->a0\n  jr a0, 0, 0\n", FaultCode::InstructionPage);
  EXPECT_EQ(halt.pc, 0x5000000u);
  EXPECT_FALSE(halt.instruction.has_value());
  EXPECT_NE(halt.fault.reason.find("outside memory"), std::string::npos);
}

// Bad input: a runaway loop stops at the instruction limit.
TEST_F(FunctionalTest, RunawayLoopStopsAtLimit) {
  const engine::RunResult result = run("spin: j spin\n", 5000);
  EXPECT_FALSE(result.halt);
  EXPECT_EQ(result.instructions, 5000u);
}

// Bad input: running into zeroed memory is C.BSTOP with no block (BundleControl).
TEST_F(FunctionalTest, ZeroedMemoryIsInactiveStop) {
  const frontend::Halt halt = expect_trap("  addi zero, 1, ->a0\n", FaultCode::BundleControl);
  EXPECT_EQ(halt.pc, 4u);
}

// Bad input: an undecodable word is IllegalInstruction with the reason.
TEST_F(FunctionalTest, UndecodableWord) {
  const frontend::Halt halt = expect_trap("  .word 0xffffffff\n", FaultCode::IllegalInstruction);
  EXPECT_EQ(halt.pc, 0u);
}

// Bad input: a corrupt ELF is rejected by the image reader, and an image that
// does not fit memory is a clear load error.
TEST_F(FunctionalTest, CorruptAndOversizedImages) {
  std::vector<std::uint8_t> corrupt = {0x7f, 'E', 'L', 'F', 2, 1, 1, 0, 0, 0};
  EXPECT_THROW(isa::parse_program_image(corrupt, "corrupt.elf"), isa::ImageError);
  isa::ProgramImage image;
  image.sections.push_back(
      {"big", memory::kDefaultSize - 4, std::vector<std::uint8_t>(16), false, true});
  const arch::MaybeFault failed = model.load(image);
  ASSERT_TRUE(failed);
  EXPECT_NE(failed->reason.find("does not fit memory"), std::string::npos);
}

}  // namespace
}  // namespace ptovp::testing

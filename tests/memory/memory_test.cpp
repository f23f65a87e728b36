#include "memory/memory.hpp"

#include <algorithm>
#include <iterator>
#include <utility>

#include <gtest/gtest.h>

namespace ptovp::memory {
namespace {

using arch::FaultCode;

TEST(Memory, LittleEndianScalarAccess) {
  Memory mem(0x1000, 256);
  ASSERT_FALSE(mem.store(0x1008, 8, 0x0102030405060708ULL));
  EXPECT_EQ(*mem.load(0x1008, 1), 0x08u);
  EXPECT_EQ(*mem.load(0x100E, 2), 0x0102u);
  EXPECT_EQ(*mem.load(0x1008, 4), 0x05060708u);
  EXPECT_EQ(mem.direct(0x1008, 8)[7], 0x01);
}

TEST(Memory, AlignmentIsCheckedBeforeTheBound) {
  Memory mem(0, 64);
  auto misaligned_outside = mem.load(0x101, 4);
  ASSERT_FALSE(misaligned_outside);
  EXPECT_EQ(misaligned_outside.fault().code, FaultCode::DataAlignment);
  EXPECT_EQ(misaligned_outside.fault().trap(), 34u);
  EXPECT_EQ(misaligned_outside.fault().address, 0x101u);
  auto outside = mem.store(64, 4, 1);
  ASSERT_TRUE(outside);
  EXPECT_EQ(outside->code, FaultCode::DataPage);
  EXPECT_EQ(outside->trap(), 35u);
  EXPECT_EQ(outside->address, 64u);
  auto straddle = mem.load(60, 8);
  ASSERT_FALSE(straddle);
  EXPECT_EQ(straddle.fault().code, FaultCode::DataAlignment);
  EXPECT_TRUE(mem.load(56, 8));
}

TEST(Memory, BoundsNeverWrapAndDirectReturnsNull) {
  Memory mem(0x1000, 16);
  EXPECT_EQ(mem.direct(0xFFF, 1), nullptr);
  EXPECT_EQ(mem.direct(0x1000, 17), nullptr);
  EXPECT_EQ(mem.direct(~0ULL, 2), nullptr);
  EXPECT_NE(mem.direct(0x1000, 16), nullptr);
  std::uint8_t buf[4] = {1, 2, 3, 4};
  EXPECT_TRUE(mem.write(0x100E, buf, 4));
  EXPECT_EQ(*mem.load(0x100E, 1), 0u);  // the faulting write changed nothing
  EXPECT_THROW(Memory(~0ULL, 2), std::invalid_argument);
  EXPECT_THROW(Memory(0, 0), std::invalid_argument);
}

// The window is [base, base + size): a transfer may start at base and end
// exactly at base + size; an empty one is legal anywhere up to the end and
// one byte past it faults.
TEST(Memory, TransfersAtBothEdgesOfTheWindow) {
  Memory mem(0x1000, 16);
  std::uint8_t buf[16] = {};
  EXPECT_FALSE(mem.read(0x1000, buf, 16));
  EXPECT_FALSE(mem.write(0x1000, buf, 16));
  EXPECT_FALSE(mem.read(0x1010, buf, 0));
  EXPECT_FALSE(mem.write(0x1010, buf, 0));
  EXPECT_TRUE(mem.read(0x1011, buf, 0));
  EXPECT_TRUE(mem.read(0x0FFF, buf, 0));
  EXPECT_TRUE(mem.write(0x1001, buf, 16));
  EXPECT_FALSE(mem.store(0x1000, 8, 0x8877665544332211ULL));
  EXPECT_FALSE(mem.store(0x1008, 8, 1));
  EXPECT_EQ(*mem.load(0x1000, 1), 0x11u);
  EXPECT_EQ(*mem.load(0x100F, 1), 0u);
  EXPECT_EQ(mem.load(0x1010, 1).fault().code, FaultCode::DataPage);
  EXPECT_EQ(mem.load(0x0FF8, 8).fault().code, FaultCode::DataPage);
}

// The shortest transfers: one byte moves, none touches nothing (a null
// buffer is then never used).
TEST(Memory, TransfersOfOneByteAndOfNone) {
  Memory mem(0x1000, 16);
  const std::uint8_t in = 0xA5;
  ASSERT_FALSE(mem.write(0x100F, &in, 1));
  EXPECT_EQ(*mem.load(0x100F, 1), 0xA5u);
  EXPECT_EQ(*mem.load(0x100E, 1), 0u);
  ASSERT_FALSE(mem.store(0x1000, 1, 0x5A));
  std::uint8_t out[2] = {0, 0};
  ASSERT_FALSE(mem.read(0x1000, out, 1));
  EXPECT_EQ(out[0], 0x5A);
  EXPECT_EQ(out[1], 0);
  EXPECT_FALSE(mem.read(0x1000, nullptr, 0));
  EXPECT_FALSE(mem.write(0x1000, nullptr, 0));
  EXPECT_EQ(*mem.load(0x1000, 1), 0x5Au);
}

// A loader fills the RAM's own bytes in place (docs/functional-model.md
// "Memory and tile transfers"): what it writes there is what reads see, up to
// the last byte; one byte too many is the Fault_DataPage of a write.
TEST(Memory, LoadTargetIsTheRamItselfInsideTheWindowOnly) {
  Memory mem(0x1000, 16);
  const arch::Expected<std::uint8_t*> whole = mem.load_target(0x1000, 16);
  ASSERT_TRUE(whole);
  for (std::uint8_t i = 0; i < 16; ++i)
    (*whole)[i] = static_cast<std::uint8_t>(0xF0 + i);
  EXPECT_EQ(*mem.load(0x1000, 8), 0xF7F6F5F4F3F2F1F0u);
  EXPECT_EQ(*mem.load(0x100F, 1), 0xFFu);
  const arch::Expected<std::uint8_t*> tail = mem.load_target(0x100C, 4);
  ASSERT_TRUE(tail);
  EXPECT_EQ(*tail, *whole + 12);
  std::uint8_t spare[17] = {};
  for (const auto& [address, length] :
       {std::pair<std::uint64_t, std::uint64_t>{0x1001, 16}, {0x0FFF, 2}, {~0ULL, 2}}) {
    const arch::Expected<std::uint8_t*> outside = mem.load_target(address, length);
    ASSERT_FALSE(outside);
    EXPECT_EQ(outside.fault().code, FaultCode::DataPage);
    EXPECT_EQ(outside.fault().reason, mem.write(address, spare, length)->reason);
  }
}

// The RAM is mapped, not zeroed: every byte of a large window reads zero, a
// write lands, and clear() makes it read zero again through the same pointer.
TEST(Memory, LazyRamReadsZeroAndClearKeepsTheMapping) {
  constexpr std::uint64_t kBase = 0x1'0000'0000;
  constexpr std::uint64_t kSize = 1ull << 30;
  Memory mem(kBase, kSize);
  EXPECT_EQ(mem.size(), kSize);
  for (std::uint64_t offset : {std::uint64_t{0}, kSize / 2 + 8, kSize - 8})
    EXPECT_EQ(*mem.load(kBase + offset, 8), 0u);
  std::uint8_t block[64];
  std::fill(std::begin(block), std::end(block), 0xA5);
  ASSERT_FALSE(mem.read(kBase + kSize - 64, block, 64));
  EXPECT_EQ(std::count(std::begin(block), std::end(block), 0), 64);

  std::uint8_t* const last = mem.direct(kBase + kSize - 8, 8);
  ASSERT_NE(last, nullptr);
  ASSERT_FALSE(mem.store(kBase + kSize - 8, 8, 0x1122334455667788ULL));
  ASSERT_FALSE(mem.store(kBase + 4096, 4, 0xCAFEF00D));
  EXPECT_EQ(last[0], 0x88);
  EXPECT_EQ(*mem.load(kBase + 4096, 4), 0xCAFEF00Du);

  mem.clear();
  EXPECT_EQ(mem.direct(kBase + kSize - 8, 8), last);
  EXPECT_EQ(*mem.load(kBase + kSize - 8, 8), 0u);
  EXPECT_EQ(*mem.load(kBase + 4096, 4), 0u);
  ASSERT_FALSE(mem.store(kBase + kSize - 8, 8, 7));
  EXPECT_EQ(last[0], 7);
}

}  // namespace
}  // namespace ptovp::memory

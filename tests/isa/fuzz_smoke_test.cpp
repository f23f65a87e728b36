// The short fuzz run of the default suite (works with any compiler): random and
// mutated inputs through the same entry points as the libFuzzer targets.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "fuzz_entry_points.hpp"
#include "isa/decoder.hpp"

namespace ptovp::isa {
namespace {

TEST(FuzzSmoke, TwoMillionRandomWordsDecodeDeterministically) {
  std::mt19937_64 rng(1);
  const Decoder& decoder = Decoder::for_release();
  for (int i = 0; i < 2'000'000; ++i) {
    const std::uint64_t word = rng();
    for (unsigned length_bits : {16u, 32u, 48u, 64u}) {
      const auto a = decoder.decode(word, length_bits);
      const auto b = decoder.decode(word, length_bits);
      ASSERT_EQ(a.form, b.form);
      ASSERT_EQ(a.field_values(), b.field_values());
    }
  }
}

TEST(FuzzSmoke, RandomImagesDisassemble) {
  std::mt19937_64 rng(2);
  std::vector<std::uint8_t> bytes;
  for (int i = 0; i < 20'000; ++i) {
    bytes.resize(rng() % 64);
    for (auto& b : bytes)
      b = static_cast<std::uint8_t>(rng());
    if (i % 3 == 0 && bytes.size() >= 4)
      bytes[0] = 0x7F, bytes[1] = 'E', bytes[2] = 'L', bytes[3] = 'F';
    fuzz::disassemble_bytes(bytes.data(), bytes.size());
  }
}

TEST(FuzzSmoke, MutatedSourcesAssembleWithoutCrashing) {
  const std::vector<std::string> seeds{
      "B.IOT [T1, T2], last, ->M<4>\n",   "B.FPATR None, ReLU, 0, 0, 0, 0, 0, 0, 0, 0\n",
      "x: BSTART DIRECT, x + (3 << 2)\n", ".equ A, ~(1|2)&7\n.word A, 'c'\n",
      "B.IOS mask=1111, ->S3<2>\n",       "B.IOR [x1, x2], []\n",
      ".ascii \"a\\x41\\n\"\n",           "ldi [a0, -8], ->a1\n",
      "FENTRY [ra ~ s2], sp!, 64\n",      ".include \"nothing.s\"\n"};
  const std::string alphabet = "[](),<>->#:;.\"'~|&+-*0123456789abcTMNSx \n\t";
  std::mt19937_64 rng(3);
  for (int i = 0; i < 50'000; ++i) {
    std::string text = seeds[rng() % seeds.size()] + seeds[rng() % seeds.size()];
    for (int m = 0, n = static_cast<int>(rng() % 6); m < n; ++m) {
      const std::size_t at = rng() % (text.size() + 1);
      switch (rng() % 3) {
        case 0: text.insert(at, 1, alphabet[rng() % alphabet.size()]); break;
        case 1:
          if (at < text.size()) text.erase(at, 1);
          break;
        default:
          if (at < text.size()) text[at] = static_cast<char>(rng());
          break;
      }
    }
    fuzz::assemble_bytes(reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
  }
}

}  // namespace
}  // namespace ptovp::isa

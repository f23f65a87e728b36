// Decode throughput: the bucketed Decoder against a linear scan over every
// encoding in precedence order (the same-run baseline in docs/performance.md).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <bitset>
#include <random>
#include <tuple>
#include <vector>

#include "isa/decoder.hpp"
#include "isa/encoder.hpp"

namespace ptovp::isa {
namespace {

struct Word {
  std::uint64_t bits;
  unsigned length_bits;
};

// A fetch-like mix: each catalog form's match with random operand bits.
std::vector<Word> sample_words() {
  std::mt19937_64 rng(5);
  const auto forms = forms_in_release(kDefaultRelease);
  std::vector<Word> words;
  for (int i = 0; i < 4096; ++i) {
    const FormInfo& f = *forms[rng() % forms.size()];
    const std::uint64_t width_mask = f.length_bits == 64 ? ~0ULL : (1ULL << f.length_bits) - 1;
    words.push_back({((rng() & ~f.mask) | f.match) & width_mask, f.length_bits});
  }
  return words;
}

void decode_loop(benchmark::State& state, const std::vector<Word>& words) {
  const Decoder& decoder = Decoder::for_release();
  std::size_t i = 0;
  for (auto _ : state) {
    const Word& w = words[i++ & 4095];
    benchmark::DoNotOptimize(decoder.decode(w.bits, w.length_bits));
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}

void BM_DecodeRandomForms(benchmark::State& state) {
  decode_loop(state, sample_words());
}
BENCHMARK(BM_DecodeRandomForms);

// The instruction stream of the firmware example in docs/state-model.md
// (load A, load B, TMATMUL, store D, halt), as a fetch loop sees it.
std::vector<Word> firmware_words() {
  const std::vector<Word> program{
      {0x0100059d000e, 48}, {0x0200061d000e, 48}, {0x0300069d000e, 48}, {0x04000715, 32},
      {0x02000795, 32},     {0x04000815, 32},     {0x20011181, 32},     {0x01f01b23, 32},
      {0x083c, 16},         {0x443c, 16},         {0x00e58013, 32},     {0x000a6f13, 32},
      {0x00000001, 32},     {0x20011181, 32},     {0x01f01ba3, 32},     {0x043c, 16},
      {0x483c, 16},         {0x00f60013, 32},     {0x000a6f93, 32},     {0x00000001, 32},
      {0x20031181, 32},     {0x00002023, 32},     {0x043c, 16},         {0x443c, 16},
      {0x883c, 16},         {0xc20a4e13, 32},     {0x00000001, 32},     {0x08111181, 32},
      {0x01f01ca3, 32},     {0x043c, 16},         {0x443c, 16},         {0x01068013, 32},
      {0x00085e13, 32},     {0x00000001, 32},     {0x00001081, 32},     {0x0010102b, 32}};
  std::vector<Word> words;
  while (words.size() < 4096)
    words.insert(words.end(), program.begin(), program.end());
  words.resize(4096);
  return words;
}

void BM_DecodeFirmwareStream(benchmark::State& state) {
  decode_loop(state, firmware_words());
}
BENCHMARK(BM_DecodeFirmwareStream);

// Decode and read every field value (what the disassembler and a cache fill
// do): the cost the lazy field extraction moves to the reader.
void BM_DecodeFirmwareStreamAllFields(benchmark::State& state) {
  const Decoder& decoder = Decoder::for_release();
  const std::vector<Word> words = firmware_words();
  std::size_t i = 0;
  for (auto _ : state) {
    const Word& w = words[i++ & 4095];
    benchmark::DoNotOptimize(decoder.decode(w.bits, w.length_bits).field_values());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_DecodeFirmwareStreamAllFields);

void BM_LinearScanBaseline(benchmark::State& state) {
  const auto words = sample_words();
  auto forms = forms_in_release(kDefaultRelease);
  std::stable_sort(forms.begin(), forms.end(), [](const FormInfo* a, const FormInfo* b) {
    return std::make_tuple(a->catalog != Catalog::Command, -int(std::bitset<64>(a->mask).count()),
                           a->form_id) < std::make_tuple(b->catalog != Catalog::Command,
                                                         -int(std::bitset<64>(b->mask).count()),
                                                         b->form_id);
  });
  std::size_t i = 0;
  for (auto _ : state) {
    const Word& w = words[i++ & 4095];
    const FormInfo* found = nullptr;
    for (const FormInfo* f : forms) {
      if (f->length_bits == w.length_bits && (w.bits & f->mask) == f->match) {
        found = f;
        break;
      }
    }
    benchmark::DoNotOptimize(found);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_LinearScanBaseline);

}  // namespace
}  // namespace ptovp::isa

BENCHMARK_MAIN();

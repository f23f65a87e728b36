// PE masks in the spec's notation: a 4-bit value b3..b0 where b3 is PE0 and b0
// is PE3 (PTOPEMaskBitOfPEIdentity), so "1000" reads PE0 only.
#pragma once

#include <cstdint>
#include <string>

namespace ptovp::arch {

inline constexpr unsigned kPeCount = 4;
inline constexpr std::uint8_t kAllPes = 0xF;

inline constexpr std::uint8_t pe_bit(unsigned pe) {
  return static_cast<std::uint8_t>(1u << (kPeCount - 1 - pe));
}
inline constexpr bool pe_selected(std::uint8_t mask, unsigned pe) {
  return (mask & pe_bit(pe)) != 0;
}
// work(pe) for every PE of `mask`, in PE order.
template <typename Work>
void for_each_pe(std::uint8_t mask, Work&& work) {
  for (unsigned pe = 0; pe < kPeCount; ++pe) {
    if (pe_selected(mask, pe)) work(pe);
  }
}
inline constexpr unsigned pe_count(std::uint8_t mask) {
  return ((mask >> 3) & 1u) + ((mask >> 2) & 1u) + ((mask >> 1) & 1u) + (mask & 1u);
}

// B.IOT/B.IOS PEMode field [11:9] -> mask (PTOv0PEMaskOfPEMode).
inline constexpr std::uint8_t mask_of_pe_mode(unsigned pe_mode) {
  constexpr std::uint8_t kMasks[8] = {0x0, 0x8, 0x4, 0x2, 0x1, 0xC, 0xE, 0xF};
  return kMasks[pe_mode & 7u];
}

// "1000" for PE0 only.
inline std::string mask_string(std::uint8_t mask) {
  std::string text(kPeCount, '0');
  for (unsigned bit = 0; bit < kPeCount; ++bit) {
    if (mask & (1u << (kPeCount - 1 - bit))) text[bit] = '1';
  }
  return text;
}

}  // namespace ptovp::arch

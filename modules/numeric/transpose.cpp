#include "numeric/transpose.hpp"

#include <cstring>

namespace ptovp::numeric {

#if defined(PTOVP_HAVE_AVX2_KERNEL)
namespace transpose_detail {
Transpose8 transpose8_avx2(unsigned unit_bytes);  // transpose_avx2.cpp
}
#endif

namespace {

template <std::size_t Unit>
void transpose8_units(const std::uint8_t* source, std::size_t source_stride, std::uint8_t* target,
                      std::size_t target_stride) {
  for (std::size_t t = 0; t < 8; ++t) {
    for (std::size_t j = 0; j < 8; ++j)
      std::memcpy(target + t * target_stride + j * Unit, source + j * source_stride + t * Unit,
                  Unit);
  }
}

}  // namespace

Transpose8 transpose8_portable(unsigned unit_bytes) {
  switch (unit_bytes) {
    case 1: return transpose8_units<1>;
    case 2: return transpose8_units<2>;
    case 4: return transpose8_units<4>;
    default: return nullptr;
  }
}

Transpose8 transpose8(unsigned unit_bytes) {
#if defined(PTOVP_HAVE_AVX2_KERNEL)
  // The same CPU check as the dot kernels' back end (dot_kernel.cpp).
  static const bool avx2 = __builtin_cpu_supports("avx2");
  if (avx2) return transpose_detail::transpose8_avx2(unit_bytes);
#endif
  return transpose8_portable(unit_bytes);
}

}  // namespace ptovp::numeric

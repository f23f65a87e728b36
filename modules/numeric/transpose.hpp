// 8 x 8 transposes of 1-, 2- or 4-byte units, shared by the dot kernels'
// packing (CUBE_N8 B columns) and the TLSU's CUBE-layout transfers. Pure data
// moves: the SIMD and portable versions give the same bytes.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ptovp::numeric {

// Unit t of source line j (8 contiguous units at source + j * source_stride
// bytes) goes to unit j of target line t (target + t * target_stride bytes).
// Source and target must not overlap.
using Transpose8 = void (*)(const std::uint8_t* source, std::size_t source_stride,
                            std::uint8_t* target, std::size_t target_stride);

// The transpose of `unit_bytes` (1, 2 or 4) units for this CPU: AVX2 when the
// build has the back end and the CPU runs it, portable otherwise.
Transpose8 transpose8(unsigned unit_bytes);
// The portable one, for tests and hosts without AVX2.
Transpose8 transpose8_portable(unsigned unit_bytes);

}  // namespace ptovp::numeric

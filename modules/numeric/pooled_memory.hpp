// Host memory for buffers that come and go at block rate: Local tile payloads
// and the dot kernels' packing scratch. A process-wide pool recycles freed
// buffers by size (zeroed again) and carves new ones from 8 MiB arenas
// advised for transparent huge pages: fresh arena memory is zero and faults
// in 2 MiB at a time instead of one 4 KiB page per touch, which was the
// largest cost of a run's blocks beyond their kernels (docs/performance.md).
// Under AddressSanitizer every buffer is its own heap allocation, so that
// ASan still sees each one's bounds.
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>
#include <vector>

namespace ptovp::numeric {

// `bytes` zero bytes, 64-byte aligned (16 under ASan); bad_alloc when the
// host has no memory.
std::uint8_t* pooled_acquire(std::size_t bytes);
// `bytes` bytes that the caller overwrites before reading them: a recycled
// buffer is not cleared first (fresh storage is zero all the same).
std::uint8_t* pooled_acquire_for_overwrite(std::size_t bytes);
// Returns a buffer from pooled_acquire with the same `bytes`.
void pooled_release(std::uint8_t* storage, std::size_t bytes);
// Faults in the pool's next `bytes` (at most one arena) of fresh storage now,
// so that a model pays for it when it is built rather than in its first
// blocks. Cheap once done: the pages stay.
void prefault_pooled_memory(std::size_t bytes);

template <typename T>
struct PooledAllocator {
  using value_type = T;
  PooledAllocator() = default;
  template <typename U>
  PooledAllocator(const PooledAllocator<U>&) {}  // NOLINT: rebinding is implicit
  T* allocate(std::size_t n) {
    static_assert(alignof(T) <= 16, "the pool aligns to 16 bytes at least");
    return reinterpret_cast<T*>(pooled_acquire(n * sizeof(T)));
  }
  void deallocate(T* p, std::size_t n) {
    pooled_release(reinterpret_cast<std::uint8_t*>(p), n * sizeof(T));
  }
  template <typename U>
  bool operator==(const PooledAllocator<U>&) const {
    return true;
  }
  template <typename U>
  bool operator!=(const PooledAllocator<U>&) const {
    return false;
  }
};

template <typename T>
using PooledVector = std::vector<T, PooledAllocator<T>>;

}  // namespace ptovp::numeric

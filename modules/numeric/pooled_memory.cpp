#include "numeric/pooled_memory.hpp"

#include <cstdlib>
#include <cstring>

#if defined(__SANITIZE_ADDRESS__)
#define PTOVP_POOL_ON_HEAP 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PTOVP_POOL_ON_HEAP 1
#endif
#endif

#ifndef PTOVP_POOL_ON_HEAP
#include <sys/mman.h>

#include <algorithm>
#include <mutex>
#include <unordered_map>
#endif

namespace ptovp::numeric {

#ifdef PTOVP_POOL_ON_HEAP

std::uint8_t* pooled_acquire(std::size_t bytes) {
  void* storage = std::calloc(bytes == 0 ? 1 : bytes, 1);
  if (storage == nullptr) throw std::bad_alloc();
  return static_cast<std::uint8_t*>(storage);
}

std::uint8_t* pooled_acquire_for_overwrite(std::size_t bytes) {
  return pooled_acquire(bytes);
}

void pooled_release(std::uint8_t* storage, std::size_t) {
  std::free(storage);
}

void prefault_pooled_memory(std::size_t) {}

#else

namespace {

constexpr std::size_t kHugePage = std::size_t{2} << 20;
constexpr std::size_t kArenaBytes = 4 * kHugePage;
// Buffers start on cache lines; the pool recycles by rounded size.
constexpr std::size_t kGranule = 64;

std::size_t rounded(std::size_t bytes) {
  return bytes == 0 ? kGranule : (bytes + kGranule - 1) & ~(kGranule - 1);
}

class Pool {
 public:
  // `size` bytes, zero when `zeroed`.
  std::uint8_t* acquire(std::size_t size, bool zeroed) {
    const std::lock_guard lock(mutex_);
    if (auto& recycled = free_[size]; !recycled.empty()) {
      std::uint8_t* storage = recycled.back();
      recycled.pop_back();
      if (zeroed) std::memset(storage, 0, size);
      return storage;
    }
    // A buffer larger than a quarter arena gets its own mapping rather than
    // abandoning most of the current arena.
    if (size > kArenaBytes / 4) return map_zeroed(size);
    if (size > arena_left_) new_arena();
    // Carved storage has not been touched since it was mapped: it is zero.
    std::uint8_t* storage = arena_next_;
    arena_next_ += size;
    arena_left_ -= size;
    return storage;
  }

  void release(std::uint8_t* storage, std::size_t size) {
    const std::lock_guard lock(mutex_);
    free_[size].push_back(storage);
  }

  void prefault(std::size_t bytes) {
    const std::lock_guard lock(mutex_);
    bytes = std::min(bytes, kArenaBytes);
    if (bytes > arena_left_) new_arena();
    // Only storage not yet carved is written, and with zero: it stays zero.
    constexpr std::size_t kPage = 4096;
    for (std::size_t at = 0; at < bytes; at += kPage)
      static_cast<volatile std::uint8_t*>(arena_next_)[at] = 0;
  }

 private:
  // The rest of the current arena is abandoned: less than one buffer.
  void new_arena() {
    arena_next_ = map_zeroed(kArenaBytes);
    arena_left_ = kArenaBytes;
  }

  // Zero memory on a huge-page boundary, advised for transparent huge pages
  // (only advice: without them it is ordinary 4 KiB pages).
  static std::uint8_t* map_zeroed(std::size_t size) {
    const std::size_t length = (size + kHugePage - 1) / kHugePage * kHugePage;
    void* mapped = mmap(nullptr, length + kHugePage, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapped == MAP_FAILED) throw std::bad_alloc();
    // Keep the huge-page-aligned `length` bytes; unmap the head and the tail.
    auto* const base = static_cast<std::uint8_t*>(mapped);
    const std::size_t head =
        (kHugePage - reinterpret_cast<std::uintptr_t>(base) % kHugePage) % kHugePage;
    std::uint8_t* const start = base + head;
    if (head > 0) munmap(base, head);
    if (head < kHugePage) munmap(start + length, kHugePage - head);
    madvise(start, length, MADV_HUGEPAGE);
    return start;
  }

  std::mutex mutex_;
  std::unordered_map<std::size_t, std::vector<std::uint8_t*> > free_;
  std::uint8_t* arena_next_ = nullptr;
  std::size_t arena_left_ = 0;
};

Pool& pool() {
  // Never destroyed: buffers with static or thread storage duration may
  // outlive it.
  static auto* const instance = new Pool;
  return *instance;
}

}  // namespace

std::uint8_t* pooled_acquire(std::size_t bytes) {
  return pool().acquire(rounded(bytes), true);
}

std::uint8_t* pooled_acquire_for_overwrite(std::size_t bytes) {
  return pool().acquire(rounded(bytes), false);
}

void pooled_release(std::uint8_t* storage, std::size_t bytes) {
  pool().release(storage, rounded(bytes));
}

void prefault_pooled_memory(std::size_t bytes) {
  pool().prefault(bytes);
}

#endif

}  // namespace ptovp::numeric

// The bytes one PE holds for a Local tile. Tiles come and go at block rate, so
// payloads do not use the general heap: they come from a process-wide pool that
// recycles freed payloads by size and carves new ones from large arenas
// advised for transparent huge pages. A fresh arena is zero and faults in one
// 2 MiB page at a time instead of one 4 KiB page per touch, which was the
// largest cost of a block beyond its kernels (docs/performance.md). Under
// AddressSanitizer every payload is its own heap allocation so that ASan
// still sees each one's bounds.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ptovp::arch {

class TilePayload {
 public:
  TilePayload() = default;
  TilePayload(const TilePayload& other);
  TilePayload& operator=(const TilePayload& other);
  TilePayload(TilePayload&& other) noexcept;
  TilePayload& operator=(TilePayload&& other) noexcept;
  ~TilePayload();

  // `bytes` zero bytes; the current storage is kept when its size matches.
  void assign_zeroed(std::uint32_t bytes);
  void clear();

  std::uint8_t* data() { return bytes_; }
  const std::uint8_t* data() const { return bytes_; }
  std::uint32_t size() const { return size_; }

 private:
  std::uint8_t* bytes_ = nullptr;
  std::uint32_t size_ = 0;
};

// Faults in the pool's next `bytes` (at most one arena) of fresh storage now:
// a model calls it when it is built, so that its first TLOADs do not stop to
// have the kernel clear a huge page. Cheap once done (the pages stay).
void prefault_tile_storage(std::size_t bytes);

}  // namespace ptovp::arch

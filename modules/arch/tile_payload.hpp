// The bytes one PE holds for a Local tile. Tiles come and go at block rate, so
// payloads come from the pooled memory (numeric/pooled_memory.hpp), not the
// general heap. Not a PooledVector: a vector zero-fills on every resize, and
// fresh pooled storage is zero already.
#pragma once

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
  // `bytes` bytes whose contents the caller overwrites before reading: the
  // current storage is kept as it is when its size matches, and recycled
  // storage is not cleared.
  void assign_overwritten(std::uint32_t bytes);
  void zero();
  void clear();

  std::uint8_t* data() { return bytes_; }
  const std::uint8_t* data() const { return bytes_; }
  std::uint32_t size() const { return size_; }

 private:
  std::uint8_t* bytes_ = nullptr;
  std::uint32_t size_ = 0;
};

}  // namespace ptovp::arch

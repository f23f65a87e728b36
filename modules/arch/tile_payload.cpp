#include "arch/tile_payload.hpp"

#include <cstring>
#include <utility>

#include "numeric/pooled_memory.hpp"

namespace ptovp::arch {

TilePayload::TilePayload(const TilePayload& other) {
  *this = other;
}

TilePayload& TilePayload::operator=(const TilePayload& other) {
  if (this == &other) return *this;
  assign_zeroed(other.size_);
  if (size_ != 0) std::memcpy(bytes_, other.bytes_, size_);
  return *this;
}

TilePayload::TilePayload(TilePayload&& other) noexcept
    : bytes_(std::exchange(other.bytes_, nullptr)), size_(std::exchange(other.size_, 0)) {}

TilePayload& TilePayload::operator=(TilePayload&& other) noexcept {
  if (this == &other) return *this;
  clear();
  bytes_ = std::exchange(other.bytes_, nullptr);
  size_ = std::exchange(other.size_, 0);
  return *this;
}

TilePayload::~TilePayload() {
  clear();
}

void TilePayload::assign_zeroed(std::uint32_t bytes) {
  if (bytes == size_) {
    if (size_ != 0) std::memset(bytes_, 0, size_);
    return;
  }
  clear();
  if (bytes == 0) return;
  bytes_ = numeric::pooled_acquire(bytes);
  size_ = bytes;
}

void TilePayload::assign_overwritten(std::uint32_t bytes) {
  if (bytes == size_) return;
  clear();
  if (bytes == 0) return;
  bytes_ = numeric::pooled_acquire_for_overwrite(bytes);
  size_ = bytes;
}

void TilePayload::zero() {
  if (size_ != 0) std::memset(bytes_, 0, size_);
}

void TilePayload::clear() {
  if (bytes_ != nullptr) numeric::pooled_release(bytes_, size_);
  bytes_ = nullptr;
  size_ = 0;
}

}  // namespace ptovp::arch

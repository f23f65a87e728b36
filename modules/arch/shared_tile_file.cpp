#include "arch/shared_tile_file.hpp"

#include "arch/pe_mask.hpp"

namespace ptovp::arch {

void SharedTileFile::reset() {
  for (SharedTile& tile : tiles_)
    tile = SharedTile{};
}

std::uint64_t SharedTileFile::capacity_in_use() const {
  std::uint64_t total = 0;
  for (const SharedTile& tile : tiles_) {
    if (!tile.descriptor_valid) continue;
    const unsigned charged =
        capacity_.model == CapacityModel::Pools ? 1 : pe_count(tile.allocation_mask);
    total += std::uint64_t{charged} * tile.info.capacity_bytes;
  }
  return total;
}

}  // namespace ptovp::arch

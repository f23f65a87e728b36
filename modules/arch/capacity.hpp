// Tile capacity accounting (platform choice D5).
//  - Pools (0.58.5 default, ADR-0097 / PTO-TILE-CAPACITY-PER-PE): each PE owns
//    a Local pool of TILE_CAPACITY bytes, and a Local tile charges its TSize
//    once in each PE of its allocation mask. The core owns one Shared pool of
//    `shared_pool_bytes`; a Shared record charges its TSize once, whatever its
//    mask. Local and Shared never compete.
//  - Aggregate (the e599a3d3 ASL): sum of popcount(mask) x TSize over every
//    Local and Shared allocation <= TILE_CAPACITY.
#pragma once

#include <cstdint>

#include "keys/key_table.hpp"

namespace ptovp::arch {

enum class CapacityModel : std::uint8_t { Pools, Aggregate };

// SharedTileCapacityLimitBytes: no SSR exposes it; the post-ADR ASL fixes it
// at the largest Shared object.
inline constexpr std::uint64_t kSharedPoolBytes = 262144;

struct CapacityConfig {
  CapacityModel model = CapacityModel::Pools;
  std::uint64_t shared_pool_bytes = kSharedPoolBytes;  // Pools only
};

// tile.capacity_model and tile.shared_pool_bytes.
keys::KeyTable<CapacityConfig> capacity_keys();

}  // namespace ptovp::arch

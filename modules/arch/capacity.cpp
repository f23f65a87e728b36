#include "arch/capacity.hpp"

namespace ptovp::arch {

keys::KeyTable<CapacityConfig> capacity_keys() {
  keys::KeyTable<CapacityConfig> table("arch::CapacityConfig");
  table
      .choice("tile.capacity_model", &CapacityConfig::model,
              {{CapacityModel::Pools, "pools"}, {CapacityModel::Aggregate, "aggregate"}},
              "per-PE Local pools and one Shared pool (0.58.5), or one aggregate sum (e599a3d3)")
      .number("tile.shared_pool_bytes", &CapacityConfig::shared_pool_bytes, 1,
              std::uint64_t{1} << 32, "bytes", "the Shared pool under pools");
  return table;
}

}  // namespace ptovp::arch

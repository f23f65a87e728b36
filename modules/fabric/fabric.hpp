// Shared-tile fabric semantics over the Shared tile file
// (asl/tile/model/state/shared-registers.asl): fixed byte quarters, the first
// write fixing the allocation mask, compatible later writes, publication,
// readiness, the deterministic undefined-read pattern and the one-assignment
// record update. Checks never change state; update() runs only after them.
#pragma once

#include <cstdint>
#include <optional>

#include "arch/fault.hpp"
#include "arch/shared_tile_file.hpp"
#include "arch/tile_info.hpp"

namespace ptovp::fabric {

using arch::DataType;
using arch::Expected;
using arch::Layout;
using arch::MaybeFault;
using arch::TileInfo;

class Fabric {
 public:
  explicit Fabric(arch::SharedTileFile& tiles) : tiles_(tiles) {}

  const arch::SharedTileFile& tiles() const { return tiles_; }

  // SharedTileElementRegion: the quarter (= owning PE) of storage slot `slot`.
  static unsigned quarter(const TileInfo& tile, std::uint32_t slot);
  // The undefined-register value of Sx slot `slot`: ZeroExtend(id) XOR slot,
  // truncated to the element width.
  static std::uint64_t undefined_value(unsigned id, std::uint32_t slot, DataType type);

  // ReadSharedTileWord: the slot's value, or the undefined pattern when Sx has
  // no descriptor or the slot's quarter is uninitialized. `view` is the
  // descriptor the reader uses (the record's, or a temporary one for an
  // unallocated Sx).
  std::uint64_t read_slot(unsigned id, const TileInfo& view, std::uint32_t slot) const;

  bool descriptor_legal(unsigned id) const;
  bool fully_initialized(unsigned id) const;
  bool published(unsigned id) const;
  // SharedTileCooperativeMatrixReady (four-quarter readiness) with the failing
  // term, e.g. "Shared S3 not CooperativeMatrixReady: allocation_mask=1000".
  MaybeFault check_cooperative_ready(unsigned id) const;
  // 0.58.5 (ADR-CUBE-0014) whole-parent readiness: descriptor legal, fully
  // initialized and published, whatever the quarter masks.
  MaybeFault check_whole_parent_ready(unsigned id) const;

  // SharedTileUpdateCompatible with the capacity charge of a first write
  // (Fault_TileLegality): TSize against the Shared pool (CapacityModel::Pools),
  // or popcount(mask) x TSize plus `local_in_use`, the Local charge, against
  // `limit`, TILE_CAPACITY (Aggregate).
  MaybeFault check_update(unsigned id, const TileInfo& tile, std::uint8_t mask,
                          std::uint64_t local_in_use, std::uint64_t limit) const;
  // The PUBLISH rule: the write must leave every allocated quarter initialized.
  MaybeFault check_publish(unsigned id, std::uint8_t mask) const;

  // AtomicUpdateSharedTileWithPublication after check_update passed: `staged`
  // holds tile.capacity_bytes of slots, of which the valid elements in the
  // quarters of `mask` are written. A zero mask is a no-op.
  void update(unsigned id, const TileInfo& tile, const std::uint8_t* staged, std::uint8_t mask,
              bool publish);

  // The descriptor a Shared read uses (SharedTileReadSchemaLegal and
  // MaterializeSharedTileForReadSchema[AtCapacity]): the record's shape when Sx
  // is valid, otherwise a temporary one of `capacity` (or the smallest legal
  // capacity when none is given). Fault_TileLegality when the request does not
  // fit.
  Expected<TileInfo> read_view(unsigned id, std::uint32_t valid_rows, std::uint32_t valid_columns,
                               std::uint32_t columns, DataType type, Layout layout,
                               std::optional<std::uint32_t> capacity) const;

 private:
  arch::SharedTileFile& tiles_;
};

}  // namespace ptovp::fabric

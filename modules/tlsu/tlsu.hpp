// The tile load/store unit: executes one resolved TLSU block (BSTART class 2)
// against memory, the Local tile file and the Shared fabric.
//   F0 TLOAD (Local ordinary, Local CUBE ND2M32/ND2M16/ND2N8, Shared)
//   F1 TSTORE (Local ordinary, Local CUBE M322ND/M162ND/N82ND, Shared mask 1111)
//   F2 TMOV Local copy, F3 TPREFETCH, F9/F10 TMOV.L2S.INSERT/.PUBLISH,
//   F4 MGATHER, F5 MSCATTER, F6/F7 MGATHER.MASK/MSCATTER.MASK (TileLegality:
//   no predicate tile exists here), F8 MGATHER.CAS, F11/F12 TMOV.S2L.BROADCAST/.EXTRACT,
//   F13 GMOV, F14 TSTORE.SPART.
// Every check (schema, attributes, descriptors, allocation, the whole GM
// footprint: alignment then DataPage) runs before the first effect, so a fault
// leaves tiles, Shared records, memory and capacity unchanged.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>

#include "arch/access_observer.hpp"
#include "arch/block_descriptor.hpp"
#include "arch/data_queue.hpp"
#include "arch/fault.hpp"
#include "arch/local_tile_file.hpp"
#include "fabric/fabric.hpp"
#include "memory/memory_port.hpp"

namespace ptovp::tlsu {

struct Footprint;

// Stored (TSTORE, TSTORE.SPART), loaded (TLOAD, TPREFETCH) or moved
// (between tiles): how the statistics file a block's bytes.
enum class Transfer : std::uint8_t { Loaded, Stored, Moved };
Transfer transfer_direction(const arch::BlockDescriptor& block);
// "loaded", "stored", "moved".
const char* transfer_name(Transfer transfer);

using arch::PackedFinalNibble;

class Tlsu {
 public:
  Tlsu(memory::MemoryPort& memory, arch::LocalTileFile& local, fabric::Fabric& fabric,
       PackedFinalNibble final_nibble = PackedFinalNibble::Keep)
      : memory_(memory), local_(local), fabric_(fabric), final_nibble_(final_nibble) {}

  // Runs `block` (block.ior_values hold each PE's B.IOR sources) with
  // `tile_capacity` = TILE_CAPACITY. Tile faults carry address 0 (the caller
  // supplies the TPC); data faults carry the element address.
  arch::MaybeFault execute(const arch::BlockDescriptor& block, std::uint64_t tile_capacity);

  // The bytes a successful `block` moved, from the tile it filled or drained
  // (TPREFETCH: the rows it names). The platforms' statistics count them.
  std::uint64_t bytes_moved(const arch::BlockDescriptor& block) const;

  // The Local register the last successful block allocated, if any.
  std::optional<unsigned> last_destination() const { return last_destination_; }

  // Told the GM ranges of every TLOAD and TSTORE before its transfers;
  // nullptr detaches.
  void set_access_observer(arch::AccessObserver* observer) { observer_ = observer; }
  // Where a Local TLOAD's or TSTORE's payload moves go once the block passed
  // every check (nullptr: they run at once); every other function drains it
  // first. `queue` must outlive the unit's use of it.
  void use_data_queue(arch::DataQueue* queue) { queue_ = queue; }

 private:
  arch::MaybeFault load_local(const arch::BlockDescriptor& block);
  arch::MaybeFault load_shared(const arch::BlockDescriptor& block);
  arch::MaybeFault store_local(const arch::BlockDescriptor& block);
  arch::MaybeFault store_shared(const arch::BlockDescriptor& block);
  arch::MaybeFault copy_local(const arch::BlockDescriptor& block);
  arch::MaybeFault prefetch(const arch::BlockDescriptor& block);
  arch::MaybeFault local_to_shared(const arch::BlockDescriptor& block, bool publish);
  arch::MaybeFault shared_to_local(const arch::BlockDescriptor& block, bool broadcast);
  arch::MaybeFault gmov(const arch::BlockDescriptor& block);
  arch::MaybeFault gather(const arch::BlockDescriptor& block);
  arch::MaybeFault scatter(const arch::BlockDescriptor& block);
  arch::MaybeFault masked_indexed(const arch::BlockDescriptor& block);

  // Plans the block's Local destination; the charge includes Shared records.
  arch::Expected<arch::AllocationPlan> plan_destination(const arch::TileBinding& binding,
                                                        std::uint32_t capacity) const;
  // The source of a move that reads old and writes new, when the plan retires
  // its register (queue naming): its contents move out before the commit.
  // Otherwise the source stays in place and nullopt is returned.
  std::optional<arch::LocalTile> take_if_retired(const arch::AllocationPlan& plan, unsigned source);
  // Commits a planned destination and records it as the block's result.
  // `overwritten` as arch::LocalTile::install.
  arch::LocalTile& commit_destination(const arch::AllocationPlan& plan, const arch::TileInfo& info,
                                      std::uint8_t mask, bool overwritten = false);
  // GM bytes [first, second).
  using GmRange = std::pair<std::uint64_t, std::uint64_t>;
  // work(pes), the values of a checked block for the PEs `pes`: at once, or
  // queued except for the front end's PEs (DataQueue::front_pes()). It uses
  // the payloads of the Local registers in `tiles` (a bit each), reads GM
  // in `read` and writes GM in `written`. Work whose GM the memory port does
  // not reach directly runs at once, after the queue drained.
  template <typename Work>
  void defer(std::uint64_t tiles, std::uint8_t pes, GmRange read, GmRange written, Work work);
  // Tells the observer, if any, the footprint's GM ranges.
  void report(const Footprint& footprint, bool store) const;

  memory::MemoryPort& memory_;
  arch::LocalTileFile& local_;
  fabric::Fabric& fabric_;
  PackedFinalNibble final_nibble_;
  std::uint64_t tile_capacity_ = 0;
  std::optional<unsigned> last_destination_;
  arch::AccessObserver* observer_ = nullptr;
  arch::DataQueue* queue_ = nullptr;
};

}  // namespace ptovp::tlsu

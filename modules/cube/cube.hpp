// The CUBE unit: executes one resolved CUBE block (BSTART class 6, the 12
// TMATMUL*/TGEMV* functions) against the Local tile file and the Shared
// fabric, with the B.FPATR post-process of modules/fpatr.
//
// Order (docs/cube.md "Preflight order"): zero-mask no-op, B.FPATR presence
// (BundleControl), the combined TileLegality check (types, binding stream,
// B.IOR, B.DATR incl. RMode/Sat against the mode and CScaleEn, dimensions,
// masks), GEMV M, Shared schemas and readiness, post-process sources,
// mathematical sources, the ACC distinctness rule, D's layout, the output
// group's shapes (TileAllocation); then every active PE computes into staging
// buffers, the output group is allocated (a failure releases what the group
// took) and D, RowMaxOut, GroupMaxOut and the sticky status flags publish
// together. A fault or a stall leaves tiles, capacity and flags unchanged.
//
// A block is a rendezvous of the four PEs (ADR 0078), so the unit runs it in
// three phases: prepare() (the combined preflight; opens the block), one
// compute_rows() per PE (that PE's rows into staging, no effect) and commit()
// (allocation and the atomic publish; closes the block). Between a PE's
// compute_rows() and the commit, its accumulator rows go to B.FPATR as a
// fpatr::RowsJob (post_process_job()), whose outputs land in the same
// staging and whose flags join the block's (post_processed()). execute() is
// the whole sequence with the unit's own fpatr::Backend; the SystemC PEs run
// it each in its own transport and send the job over their FPATR socket.
//
// The PEs' rows are independent: with a data queue (use_data_queue(),
// docs/functional-model.md "Deferred data work") some PEs' rows and
// publication run on the queue's worker while the others run here; each PE
// writes only its own staging and payload, so the results do not depend on
// the thread count.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "arch/arch_state.hpp"
#include "arch/block_descriptor.hpp"
#include "arch/data_queue.hpp"
#include "arch/fault.hpp"
#include "arch/local_tile_file.hpp"
#include "cube/cube_config.hpp"
#include "fabric/fabric.hpp"
#include "fpatr/fpatr_backend.hpp"

namespace ptovp::cube {

struct CubePlan;  // cube_preflight.hpp

// What one attempt did. Neither a fault nor a stall has any effect.
struct CubeOutcome {
  arch::MaybeFault fault;            // the block stays active (TPC at its completion)
  std::optional<std::string> stall;  // a Shared source is not ready yet; retry later
  bool done() const { return !fault && !stall; }
};

class Cube {
 public:
  Cube(arch::LocalTileFile& local, fabric::Fabric& fabric, arch::ArchState& state,
       CubeConfig config = {});
  ~Cube();
  Cube(const Cube&) = delete;
  Cube& operator=(const Cube&) = delete;

  const CubeConfig& config() const { return config_; }
  void set_config(const CubeConfig& config) { config_ = config; }
  // The B.FPATR implementation execute() hands the rows to (default: the C++
  // backend); `backend` must outlive the unit's use of it.
  void use_fpatr_backend(fpatr::Backend& backend) { fpatr_ = &backend; }
  // Where execute() queues a block's values once it is allocated: the rows,
  // their post-process and the publication (nullptr: they run at once). A
  // block with a Shared operand, or whose B.FPATR backend takes no concurrent
  // jobs, drains the queue and runs in place. `queue` must outlive the
  // unit's use of it.
  void use_data_queue(arch::DataQueue* queue);

  // Runs `block` (block.ior_values hold each PE's B.IOR sources): prepare(),
  // every PE's compute_rows(), commit(). Tile faults carry address 0; the
  // caller supplies the TPC.
  CubeOutcome execute(const arch::BlockDescriptor& block);

  // The combined preflight of the four PEs. When it passes and the block is
  // not a no-op, the block is open: its plan() holds the shapes and row split
  // and the PEs may compute. `block` must outlive the open block.
  CubeOutcome prepare(const arch::BlockDescriptor& block);
  bool open() const { return open_; }
  const CubePlan& plan() const;
  // PE `pe`'s kernel into staging (nothing published); a PE without rows
  // does nothing. Calls for different PEs may run concurrently.
  void compute_rows(unsigned pe);
  // compute_rows() for every PE. With a data queue
  // (use_data_queue()) a block that execute() would queue has the rows of
  // the PEs but the front end's queued instead (queued_post_flags()); the
  // others drain the queue first.
  void compute_all_rows();
  // After compute_all_rows() or compute_rows(pe): what B.FPATR must do with
  // PE `pe`'s rows (its accumulator, the block's post-process and this PE's
  // parameters, the staging its outputs go to); nullptr when the PE has no
  // rows or the post-process is the identity. For a queued PE the queued
  // rows fill it in. Valid until the commit's values ran.
  const fpatr::RowsJob* post_process_job(unsigned pe);
  // Where B.FPATR leaves the status flags of PE `pe`'s job when that PE's
  // rows are queued: B.FPATR queues the job behind them (or drains the queue
  // first and answers the flags, post_processed()). nullptr: the rows are
  // computed.
  std::uint8_t* queued_post_flags(unsigned pe);
  // B.FPATR's answer to a job: its status flags join the block's.
  void post_processed(std::uint8_t flags);
  // Allocates the output group (a failure releases what the group took:
  // TileAllocation, no effect) and publishes every PE's D, RowMaxOut,
  // GroupMaxOut rows and the status flags together; a queued PE's values
  // and flags are queued behind its rows. Closes the block.
  CubeOutcome commit();

  // The registers the last successful block allocated: D, then RowMaxOut and
  // GroupMaxOut when enabled.
  const std::vector<unsigned>& last_destinations() const { return last_destinations_; }

 private:
  struct Block;  // the open block: plan, operand views, staging

  void compute_rows(Block& open, unsigned pe);
  const fpatr::RowsJob* post_process_job(Block& open, unsigned pe);
  // Bit i: the open block reads Local register i (its operands and
  // post-process sources).
  std::uint64_t source_tiles(const Block& open) const;
  // A queued block keeps its own descriptor (the jobs outlive the builder's).
  void hold_descriptor(Block& open);
  // The rows of the PEs `pes` and their post-process, with the unit's
  // backend; returns their status flags.
  std::uint8_t compute_and_post_process(Block& open, std::uint8_t pes);
  // Whether the open block's values may be queued (use_data_queue()).
  bool deferrable() const;
  // Allocates the open block's output group, queues the values of the
  // worker's PEs and computes the front end's (DataQueue::front_pes()).
  CubeOutcome defer();
  // The output group's allocation (commit() without the values). With
  // `deferred` no payload is zeroed here: the block's `unzeroed` lists the
  // destinations its values zero first. Closes the block.
  CubeOutcome allocate(bool deferred);
  // commit() of a block whose PEs' rows were queued (compute_all_rows()).
  CubeOutcome commit_queued();
  // The published values of a queued block for the PEs `pes`: the
  // destinations' payloads zeroed where needed (allocate(true)), then D,
  // RowMaxOut and GroupMaxOut.
  void zero_and_publish(Block& open, const std::vector<unsigned>& destinations, std::uint8_t pes);
  // Keeps last_destinations() with a queued block for its jobs; returns
  // them as register bits.
  std::uint64_t hold_destinations(Block& open) const;
  // Writes the staged D, RowMaxOut and GroupMaxOut rows of the PEs `pes`
  // into the allocated `destinations`.
  void publish(Block& open, const std::vector<unsigned>& destinations, std::uint8_t pes);

  arch::LocalTileFile& local_;
  fabric::Fabric& fabric_;
  arch::ArchState& state_;
  CubeConfig config_;
  fpatr::CppBackend cpp_fpatr_;
  fpatr::Backend* fpatr_ = &cpp_fpatr_;
  arch::DataQueue* queue_ = nullptr;
  // Blocks are reused from block to block (their staging keeps its
  // capacity): block_ is the open or last one; queued_ holds the queued
  // ones in queue order, and the oldest is reused once its last job ran.
  std::vector<std::unique_ptr<Block>> blocks_;
  Block* block_ = nullptr;
  bool handed_off_ = false;  // block_ is queued
  std::deque<Block*> queued_;
  bool open_ = false;
  std::vector<unsigned> last_destinations_;
};

}  // namespace ptovp::cube

// One Local tile register: the descriptor shared by every PE, the allocation
// mask, per-element definedness and one payload per participating PE (platform
// choice D3: each PE holds TSize bytes with an identical descriptor).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "arch/pe_mask.hpp"
#include "arch/tile_info.hpp"
#include "arch/tile_payload.hpp"

namespace ptovp::arch {

class LocalTile {
 public:
  const TileInfo& info() const { return info_; }
  std::uint8_t allocation_mask() const { return allocation_mask_; }
  bool allocated() const { return info_.allocated; }
  // Every element of the valid region is defined.
  bool contents_defined() const;
  bool slot_defined(std::uint32_t slot) const { return defined_[slot]; }

  // PE `pe`'s payload: capacity_bytes bytes of storage slots; empty when the
  // PE is not in the allocation mask.
  const std::uint8_t* payload(unsigned pe) const { return payload_[pe].data(); }
  std::uint8_t* payload(unsigned pe) { return payload_[pe].data(); }

  // Installs a fresh descriptor: payloads zeroed for the PEs of `mask`,
  // nothing defined (ADR 0014: allocation clears definedness). With
  // `overwritten` the caller writes every payload byte of those PEs before
  // anything reads them (writes_every_byte), so the zeros are skipped.
  void install(const TileInfo& info, std::uint8_t mask, bool overwritten = false);
  // Zeroes the payloads of the PEs `pes`: the data queue installs with
  // `overwritten` and zeroes where the values are written, so that the front
  // end never touches payload bytes (docs/functional-model.md).
  void zero_payloads(std::uint8_t pes);
  void release();

  // Marks one storage slot defined; `in_valid` says it lies in the valid region.
  void define_slot(std::uint32_t slot, bool in_valid);
  void define_valid_region();
  // The valid region and every padding slot around it (a CUBE TLOAD with a
  // PadValue): every slot of the tile is defined.
  void define_every_slot();
  // Takes over the definedness of a source with the same descriptor (TMOV, GMOV).
  void copy_definedness(const LocalTile& source);

 private:
  // The descriptor and the payloads, which queued jobs read on the worker,
  // on cache lines of their own that the front end writes only when the
  // register's shape or storage changes; definedness, rewritten at every
  // allocation, is the front end's alone (docs/functional-model.md
  // "Deferred data work").
  alignas(64) TileInfo info_;
  std::uint8_t allocation_mask_ = 0;
  std::array<TilePayload, kPeCount> payload_;
  // One bit per storage slot: a byte per slot was as large as an 8-bit
  // operand's payload, and every allocation touches it afresh.
  alignas(64) std::vector<bool> defined_;
  std::uint32_t defined_valid_ = 0;
};

}  // namespace ptovp::arch

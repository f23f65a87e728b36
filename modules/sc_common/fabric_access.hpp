// Transactions to the shared-tile fabric and the post-process unit, carried
// beside the block transaction:
//  - SharedAccess: a unit reads or updates Shared tile S<id>. A read answers
//    when the tile becomes ready (its readiness event in the annotated
//    timeline) and points the payload at the tile's storage (by reference);
//    an update tells the fabric when the writer finished, and the fabric
//    publishes it.
//  - PeRows: a CUBE PE hands its accumulator rows to the B.FPATR unit.
#pragma once

#include <cstdint>

#include <systemc>
#include <tlm>

namespace ptovp::sc_common {

class SharedAccess : public tlm::tlm_extension<SharedAccess> {
 public:
  tlm::tlm_extension_base* clone() const override { return new SharedAccess(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const SharedAccess&>(other);
  }

  unsigned id = 0;
  bool update = false;    // false: a read
  sc_core::sc_time time;  // request: when the update finished; answer: when S<id> is ready
};

class PeRows : public tlm::tlm_extension<PeRows> {
 public:
  tlm::tlm_extension_base* clone() const override { return new PeRows(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const PeRows&>(other);
  }

  unsigned pe = 0;
  std::uint32_t rows = 0;
  std::uint32_t columns = 0;
  sc_core::sc_time ready;  // when the PE's accumulator rows are complete
};

}  // namespace ptovp::sc_common

// The transaction to the shared-tile fabric, carried beside the block
// transaction: a unit reads or updates Shared tile S<id>. A read answers when
// the tile becomes ready (its readiness event in the annotated timeline) and
// points the payload at the tile's storage (by reference); an update tells
// the fabric when the writer finished, and the fabric publishes it.
#pragma once

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

}  // namespace ptovp::sc_common

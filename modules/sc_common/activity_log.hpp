// What the platform's units did, in simulated time: busy intervals (one
// slice per block per unit) with their mnemonic and shapes, the tile capacity
// counter, and the run's statistics (busy time per unit, blocks by kind, bytes
// moved, MACs by type, faults, SystemC process activations). Units append as
// they annotate time; platform/systemc turns it into the trace, the stats and
// the VCD. Slices are kept only when a trace or VCD was asked for.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <systemc>

#include "arch/fault.hpp"
#include "numeric/data_type.hpp"

namespace ptovp::sc_common {

// One track per unit.
enum class Unit : std::uint8_t { FrontEnd, Builder, Pe0, Pe1, Pe2, Pe3, Fpatr, Tlsu, Fabric };
inline constexpr std::size_t kUnitCount = 9;
std::string_view unit_name(Unit unit);
// Picoseconds of a time: the kernel's default resolution, which the platform keeps.
inline std::uint64_t picoseconds(const sc_core::sc_time& time) {
  return time.value();
}

inline Unit pe_unit(unsigned pe) {
  return static_cast<Unit>(static_cast<unsigned>(Unit::Pe0) + pe);
}

// Counts and times by name ("TLOAD", "FP16", "TLSU operands"), as the
// statistics list them.
template <typename Value>
using ByName = std::map<std::string, Value, std::less<>>;

// Counts under names kept by a dense index that the counting unit has at
// hand (a data type's code, a stall cause, a block name's index): a block
// counts without comparing strings; by_name() is the statistics' view.
template <typename Value>
class IndexedCounts {
 public:
  // Adds `amount` at `index`, whose name is `name` (one name per index).
  void add(std::size_t index, std::string_view name, const Value& amount) {
    if (index >= entries_.size()) entries_.resize(index + 1);
    Entry& entry = entries_[index];
    if (!entry.name) entry.name = std::string(name);
    entry.value += amount;
  }
  // Every name counted so far (a zero amount too); indices of one name add up.
  ByName<Value> by_name() const {
    ByName<Value> named;
    add_to(named);
    return named;
  }
  void add_to(ByName<Value>& named) const {
    for (const Entry& entry : entries_) {
      if (entry.name) named[*entry.name] += entry.value;
    }
  }

 private:
  struct Entry {
    std::optional<std::string> name;
    Value value{};
  };
  std::vector<Entry> entries_;
};

// Why a unit sat idle before a block (docs/platform.md "Stall causes").
enum class StallCause : std::uint8_t { FrontEnd, TlsuOperands, CubeOperands, SharedReadiness };
// "front end", "TLSU operands", "CUBE operands", "Shared readiness".
std::string_view stall_cause_name(StallCause cause);

struct Slice {
  Unit unit;
  sc_core::sc_time start;
  sc_core::sc_time end;
  std::string name;    // the block's mnemonic, e.g. "TMATMUL.BIAS"
  std::string detail;  // shapes and types, e.g. "M=16 K=64 N=32 A=E4M3 B=E4M3"
};

struct CounterSample {
  sc_core::sc_time time;
  std::uint64_t value;
};

// What the units had done by one point in simulated time (a region's mark).
struct ActivityTotals {
  sc_core::sc_time time;
  std::array<sc_core::sc_time, kUnitCount> busy{};
  ByName<std::uint64_t> macs, bytes;
};

// A region of interest between a B.HINT TRACE begin and its end
// (docs/debugging.md, "Regions of interest"): the blocks issued in it.
struct Region {
  std::uint64_t begin_pc = 0;
  std::uint64_t end_pc = 0;
  ActivityTotals begin, end;
};

// Receives each slice and each capacity change as it is recorded, so a trace
// of a long run streams to its file instead of waiting in memory.
class ActivityListener {
 public:
  virtual ~ActivityListener() = default;
  virtual void slice(const Slice& slice) = 0;
  virtual void capacity(const CounterSample& sample) = 0;
  // A region of interest closed (mark_region).
  virtual void region(const Region& region) = 0;
};

class ActivityLog {
 public:
  explicit ActivityLog(bool keep_slices = false) : keep_slices_(keep_slices) {}

  // Whether slices are kept or listened to: units then describe their blocks.
  bool keeps_slices() const { return keep_slices_ || listener_ != nullptr; }
  // `listener` (not owned; nullptr for none) hears every later slice and
  // capacity change.
  void set_listener(ActivityListener* listener) { listener_ = listener; }

  // A unit was busy over [start, end); `name` and `detail` are kept for the trace.
  void busy(Unit unit, const sc_core::sc_time& start, const sc_core::sc_time& end,
            std::string_view name, std::string detail = {});
  // The tile capacity in use (Local + Shared bytes) changed at `time`.
  void capacity(const sc_core::sc_time& time, std::uint64_t bytes);

  // A block named `kind` at `index` (block_builder::block_name).
  void count_block(std::size_t index, std::string_view kind) { blocks_.add(index, kind, 1); }
  void count_fault(arch::FaultCode code) {
    faults_.add(static_cast<std::size_t>(code), arch::name(code), 1);
  }
  // MACs a PE computed, by input type; macs() sums the PEs.
  void count_macs(Unit unit, numeric::DataType type, std::uint64_t macs) {
    unit_macs_[static_cast<std::size_t>(unit)].add(numeric::code(type), numeric::name(type), macs);
  }
  // A block waited `duration` on `unit` for `cause`.
  void stall(Unit unit, StallCause cause, const sc_core::sc_time& duration) {
    stalls_[static_cast<std::size_t>(unit)].add(static_cast<std::size_t>(cause),
                                                stall_cause_name(cause), duration);
  }
  // Bytes moved in `direction`, named `name`, at the index `direction`.
  void count_bytes(std::size_t direction, std::string_view name, std::uint64_t bytes) {
    bytes_.add(direction, name, bytes);
  }
  void count_activation(Unit unit) { ++activations_[static_cast<std::size_t>(unit)]; }
  // A B.HINT TRACE at `pc` began (end = false) or ended a region at `time`,
  // the front end's time; the region lasts until its last block finished.
  // Regions nest; an end with none open is ignored.
  void mark_region(const sc_core::sc_time& time, std::uint64_t pc, bool end);
  // The closed regions in the order they ended.
  const std::vector<Region>& regions() const { return regions_; }

  const std::vector<Slice>& slices() const { return slices_; }
  const std::vector<CounterSample>& capacity_samples() const { return capacity_; }
  const sc_core::sc_time& busy_time(Unit unit) const {
    return busy_[static_cast<std::size_t>(unit)];
  }
  // The end of the last busy interval of any unit.
  const sc_core::sc_time& last_end() const { return last_end_; }
  std::uint64_t activations(Unit unit) const {
    return activations_[static_cast<std::size_t>(unit)];
  }
  ByName<std::uint64_t> blocks() const { return blocks_.by_name(); }
  ByName<std::uint64_t> faults() const { return faults_.by_name(); }
  ByName<std::uint64_t> macs() const;
  ByName<std::uint64_t> macs(Unit unit) const {
    return unit_macs_[static_cast<std::size_t>(unit)].by_name();
  }
  ByName<sc_core::sc_time> stalls(Unit unit) const {
    return stalls_[static_cast<std::size_t>(unit)].by_name();
  }
  ByName<std::uint64_t> bytes() const { return bytes_.by_name(); }

 private:
  bool keep_slices_;
  ActivityListener* listener_ = nullptr;
  std::vector<Slice> slices_;
  std::optional<std::uint64_t> capacity_in_use_;
  std::vector<CounterSample> capacity_;
  std::array<sc_core::sc_time, kUnitCount> busy_{};
  std::array<std::uint64_t, kUnitCount> activations_{};
  sc_core::sc_time last_end_ = sc_core::SC_ZERO_TIME;
  IndexedCounts<std::uint64_t> blocks_, faults_, bytes_;
  std::array<IndexedCounts<std::uint64_t>, kUnitCount> unit_macs_;
  std::array<IndexedCounts<sc_core::sc_time>, kUnitCount> stalls_;
  std::vector<std::pair<std::uint64_t, ActivityTotals>> open_regions_;  // begin PC, totals
  std::vector<Region> regions_;
};

}  // namespace ptovp::sc_common

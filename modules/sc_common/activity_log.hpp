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

// Counts and times by name ("TLOAD", "FP16", "TLSU operands"). The comparator
// is transparent: units count under a std::string_view, once per block each,
// and a lookup makes no std::string.
template <typename Value>
using ByName = std::map<std::string, Value, std::less<>>;

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

  void count_block(std::string_view kind) { ++entry(blocks_, kind); }
  void count_fault(std::string_view code) { ++entry(faults_, code); }
  // MACs a PE computed, by input type; macs() sums the PEs.
  void count_macs(Unit unit, std::string_view type, std::uint64_t macs) {
    entry(unit_macs_[static_cast<std::size_t>(unit)], type) += macs;
    entry(macs_, type) += macs;
  }
  // A block waited `duration` on `unit` for `cause` (docs/platform.md "Stall causes").
  void stall(Unit unit, std::string_view cause, const sc_core::sc_time& duration) {
    entry(stalls_[static_cast<std::size_t>(unit)], cause) += duration;
  }
  void count_bytes(std::string_view direction, std::uint64_t bytes) {
    entry(bytes_, direction) += bytes;
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
  const ByName<std::uint64_t>& blocks() const { return blocks_; }
  const ByName<std::uint64_t>& faults() const { return faults_; }
  const ByName<std::uint64_t>& macs() const { return macs_; }
  const ByName<std::uint64_t>& macs(Unit unit) const {
    return unit_macs_[static_cast<std::size_t>(unit)];
  }
  const ByName<sc_core::sc_time>& stalls(Unit unit) const {
    return stalls_[static_cast<std::size_t>(unit)];
  }
  const ByName<std::uint64_t>& bytes() const { return bytes_; }

 private:
  // The count of `name`, a new zero one if it has none yet.
  template <typename Value>
  static Value& entry(ByName<Value>& counts, std::string_view name) {
    auto found = counts.find(name);
    if (found == counts.end()) found = counts.emplace(std::string(name), Value{}).first;
    return found->second;
  }

  bool keep_slices_;
  ActivityListener* listener_ = nullptr;
  std::vector<Slice> slices_;
  std::optional<std::uint64_t> capacity_in_use_;
  std::vector<CounterSample> capacity_;
  std::array<sc_core::sc_time, kUnitCount> busy_{};
  std::array<std::uint64_t, kUnitCount> activations_{};
  sc_core::sc_time last_end_ = sc_core::SC_ZERO_TIME;
  ByName<std::uint64_t> blocks_, faults_, macs_, bytes_;
  std::array<ByName<std::uint64_t>, kUnitCount> unit_macs_;
  std::array<ByName<sc_core::sc_time>, kUnitCount> stalls_;
  std::vector<std::pair<std::uint64_t, ActivityTotals>> open_regions_;  // begin PC, totals
  std::vector<Region> regions_;
};

}  // namespace ptovp::sc_common

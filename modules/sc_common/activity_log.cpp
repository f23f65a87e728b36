#include "sc_common/activity_log.hpp"

#include <algorithm>

namespace ptovp::sc_common {

std::string_view unit_name(Unit unit) {
  static constexpr std::array<std::string_view, kUnitCount> kNames{
      "front end", "builder", "PE0", "PE1", "PE2", "PE3", "FPATR", "TLSU", "fabric"};
  return kNames[static_cast<std::size_t>(unit)];
}

std::string_view stall_cause_name(StallCause cause) {
  static constexpr std::array<std::string_view, 4> kNames{"front end", "TLSU operands",
                                                          "CUBE operands", "Shared readiness"};
  return kNames[static_cast<std::size_t>(cause)];
}

ByName<std::uint64_t> ActivityLog::macs() const {
  ByName<std::uint64_t> total;
  for (const auto& unit : unit_macs_)
    unit.add_to(total);
  return total;
}

void ActivityLog::busy(Unit unit, const sc_core::sc_time& start, const sc_core::sc_time& end,
                       std::string_view name, std::string detail) {
  busy_[static_cast<std::size_t>(unit)] += end - start;
  if (end > last_end_) last_end_ = end;
  if (!keeps_slices()) return;
  Slice slice{unit, start, end, std::string(name), std::move(detail)};
  if (listener_) listener_->slice(slice);
  if (keep_slices_) slices_.push_back(std::move(slice));
}

void ActivityLog::capacity(const sc_core::sc_time& time, std::uint64_t bytes) {
  if (!keeps_slices() || capacity_in_use_ == bytes) return;
  capacity_in_use_ = bytes;
  const CounterSample sample{time, bytes};
  if (listener_) listener_->capacity(sample);
  if (keep_slices_) capacity_.push_back(sample);
}

void ActivityLog::mark_region(const sc_core::sc_time& time, std::uint64_t pc, bool end) {
  // A region ends when the last block issued in it has finished.
  const ActivityTotals now{end ? std::max(time, last_end_) : time, busy_, macs(), bytes()};
  if (!end) {
    open_regions_.emplace_back(pc, now);
    return;
  }
  if (open_regions_.empty()) return;
  regions_.push_back({open_regions_.back().first, pc, std::move(open_regions_.back().second), now});
  open_regions_.pop_back();
  if (listener_) listener_->region(regions_.back());
}

}  // namespace ptovp::sc_common

#include "systemc/vcd_writer.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace ptovp::systemc {

namespace {

// "PE0" -> "PE0_busy", "front end" -> "front_end_busy".
std::string signal_name(sc_common::Unit unit) {
  std::string name(sc_common::unit_name(unit));
  std::replace(name.begin(), name.end(), ' ', '_');
  return name + "_busy";
}

}  // namespace

void write_vcd(std::ostream& out, const sc_common::ActivityLog& log) {
  // Per unit, +1 at each slice start and -1 at each end; busy while the sum > 0.
  struct Edge {
    std::uint64_t time;
    std::size_t unit;
    int step;
  };
  std::vector<Edge> edges;
  for (const sc_common::Slice& slice : log.slices()) {
    if (slice.end == slice.start) continue;
    const auto unit = static_cast<std::size_t>(slice.unit);
    edges.push_back({sc_common::picoseconds(slice.start), unit, +1});
    edges.push_back({sc_common::picoseconds(slice.end), unit, -1});
  }
  std::stable_sort(edges.begin(), edges.end(),
                   [](const Edge& a, const Edge& b) { return a.time < b.time; });

  out << "$timescale 1 ps $end\n$scope module ptovp $end\n";
  for (std::size_t unit = 0; unit < sc_common::kUnitCount; ++unit) {
    out << "$var wire 1 " << static_cast<char>('!' + unit) << ' '
        << signal_name(static_cast<sc_common::Unit>(unit)) << " $end\n";
  }
  out << "$upscope $end\n$enddefinitions $end\n#0\n$dumpvars\n";
  for (std::size_t unit = 0; unit < sc_common::kUnitCount; ++unit)
    out << '0' << static_cast<char>('!' + unit) << '\n';
  out << "$end\n";

  std::array<int, sc_common::kUnitCount> depth{};
  std::array<bool, sc_common::kUnitCount> shown{};
  for (std::size_t i = 0; i < edges.size();) {
    const std::uint64_t time = edges[i].time;
    for (; i < edges.size() && edges[i].time == time; ++i)
      depth[edges[i].unit] += edges[i].step;
    std::string changes;
    for (std::size_t unit = 0; unit < sc_common::kUnitCount; ++unit) {
      const bool busy = depth[unit] > 0;
      if (busy == shown[unit]) continue;
      shown[unit] = busy;
      changes += busy ? '1' : '0';
      changes += static_cast<char>('!' + unit);
      changes += '\n';
    }
    if (!changes.empty()) out << '#' << time << '\n' << changes;
  }
}

}  // namespace ptovp::systemc

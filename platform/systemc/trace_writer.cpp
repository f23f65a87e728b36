#include "systemc/trace_writer.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

namespace ptovp::systemc {

namespace {

// Exact microseconds: "12.345678" from 12345678 ps.
std::string microseconds_text(const sc_core::sc_time& time) {
  const std::uint64_t ps = sc_common::picoseconds(time);
  return fmt::format("{}.{:06}", ps / 1000000, ps % 1000000);
}

std::string json_string(std::string_view text) {
  return nlohmann::json(std::string(text)).dump();
}

}  // namespace

TraceWriter::TraceWriter(std::ostream& out) : out_(out) {
  out_ << "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n";
  out_ << R"({"ph":"M","pid":1,"tid":0,"name":"process_name","args":{"name":"ptovp"}})";
  for (std::size_t unit = 0; unit < sc_common::kUnitCount; ++unit) {
    const std::string name = json_string(sc_common::unit_name(static_cast<sc_common::Unit>(unit)));
    out_ << fmt::format(
        ",\n{{\"ph\":\"M\",\"pid\":1,\"tid\":{0},\"name\":\"thread_name\",\"args\":{{\"name\":{1}}}"
        "}}"
        ",\n{{\"ph\":\"M\",\"pid\":1,\"tid\":{0},\"name\":\"thread_sort_index\","
        "\"args\":{{\"sort_index\":{0}}}}}",
        unit, name);
  }
}

void TraceWriter::slice(const sc_common::Slice& slice) {
  out_ << fmt::format(
      ",\n{{\"ph\":\"X\",\"pid\":1,\"tid\":{},\"ts\":{},\"dur\":{},\"name\":{},"
      "\"args\":{{\"detail\":{}}}}}",
      static_cast<unsigned>(slice.unit), microseconds_text(slice.start),
      microseconds_text(slice.end - slice.start), json_string(slice.name),
      json_string(slice.detail));
}

void TraceWriter::capacity(const sc_common::CounterSample& sample) {
  out_ << fmt::format(
      ",\n{{\"ph\":\"C\",\"pid\":1,\"name\":\"tile capacity in use\",\"ts\":{},"
      "\"args\":{{\"bytes\":{}}}}}",
      microseconds_text(sample.time), sample.value);
}

void TraceWriter::region(const sc_common::Region& region) {
  // Regions of interest (B.HINT TRACE) on a track of their own, after the units'.
  const std::size_t track = sc_common::kUnitCount;
  if (regions_ == 0) {
    out_ << fmt::format(
        ",\n{{\"ph\":\"M\",\"pid\":1,\"tid\":{0},\"name\":\"thread_name\","
        "\"args\":{{\"name\":\"regions\"}}}}",
        track);
  }
  out_ << fmt::format(
      ",\n{{\"ph\":\"X\",\"pid\":1,\"tid\":{},\"ts\":{},\"dur\":{},"
      "\"name\":\"region {}\",\"args\":{{\"begin_pc\":{},\"end_pc\":{}}}}}",
      track, microseconds_text(region.begin.time),
      microseconds_text(region.end.time - region.begin.time), regions_++, region.begin_pc,
      region.end_pc);
}

void TraceWriter::finish() {
  out_ << "\n]}\n";
}

}  // namespace ptovp::systemc

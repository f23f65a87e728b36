// The Python API (docs/python.md): `import ptovp` gives a Platform on the
// functional engine, built from the configuration keys `ptovp run` takes
// (--config JSON, --set), with load, run, step, breakpoints, registers,
// memory, tiles by assembly name, statistics and the exit reason. Breakpoints
// and steps are an execution observer on the front end
// (frontend::ExecutionControl), attached only while there is one, so a plain
// run() runs at the engine's full speed. Errors carry the CLI's messages.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <fmt/format.h>

#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "config/platform_config.hpp"
#include "debug/tile_text.hpp"
#include "engine/fault_report.hpp"
#include "functional/functional_model.hpp"
#include "functional/functional_statistics.hpp"
#include "isa/operand_names.hpp"
#include "isa/program_image.hpp"

namespace py = pybind11;

namespace ptovp::python {

namespace {

// Pauses before a breakpoint's instruction; the instruction a run starts at
// always runs.
class Breakpoints : public frontend::ExecutionObserver {
 public:
  std::set<std::uint64_t> addresses;

  void start() { first_ = true; }
  bool pause_before(std::uint64_t pc) override {
    if (first_) {
      first_ = false;
      return false;
    }
    return addresses.count(pc) != 0;
  }
  void after(const frontend::Attempt&) override {}

 private:
  bool first_ = true;
};

// Defaults, then the file, then each key, as `ptovp run --config FILE --set
// KEY=VALUE` builds them.
config::PlatformConfig build_config(const py::dict& keys, const std::optional<std::string>& file) {
  config::PlatformConfig config;
  if (file) {
    if (auto error = config.apply_file(*file)) throw py::value_error(*error);
  }
  // Python values as the JSON file spells them (strings, unsigned numbers,
  // booleans, nested groups).
  const std::string text = py::str(py::module_::import("json").attr("dumps")(keys));
  if (auto error = config.apply(nlohmann::json::parse(text))) throw py::value_error(*error);
  if (auto error = config.validate()) throw py::value_error(*error);
  return config;
}

const char* halt_kind(frontend::HaltKind kind) {
  switch (kind) {
    case frontend::HaltKind::Breakpoint: return "ebreak";
    case frontend::HaltKind::HostExit: return "exit";
    case frontend::HaltKind::Trap: return "trap";
    case frontend::HaltKind::Stall: return "stall";
    case frontend::HaltKind::Paused: break;
  }
  return "paused";
}

// An element as a Python number: integers exactly (64-bit ones too), floating
// types as float (NaN and infinities as such).
py::object element(const arch::TileInfo& info, const std::uint8_t* payload, std::uint32_t row,
                   std::uint32_t col) {
  const numeric::DataTypeInfo& type = numeric::info(info.data_type);
  if (type.kind != numeric::TypeKind::Signed && type.kind != numeric::TypeKind::Unsigned)
    return py::float_(debug::element_value(info, payload, row, col));
  const std::uint64_t raw =
      arch::read_slot(payload, info.data_type, arch::storage_index(info, row, col));
  if (type.kind == numeric::TypeKind::Unsigned) return py::int_(raw);
  const unsigned shift = 64 - type.lane_bits;
  return py::int_(static_cast<std::int64_t>(raw << shift) >> shift);
}

class Platform {
 public:
  Platform(const py::dict& config, const std::optional<std::string>& config_file)
      : config_(build_config(config, config_file)), model_(make_model(config_, output_)) {
    model_->cube().set_config(config_.cube);
  }

  void load(const std::string& path) {
    try {
      image_ = isa::load_program_image(path);
      image_path_ = path;
    } catch (const isa::ImageError& error) {
      throw py::value_error(error.what());
    }
    reset();
  }

  // The reset state with the image loaded again.
  void reset() {
    model_->reset();
    if (auto failed = model_->load(image_))
      throw py::value_error(fmt::format("{}: {}", image_path_, failed->reason));
    exit_reason_ = py::none();
    ended_ = false;
  }

  std::uint64_t symbol(const std::string& name) const {
    for (const isa::ImageSymbol& symbol : image_.symbols) {
      if (symbol.name == name) return symbol.value;
    }
    throw py::key_error(fmt::format("no symbol '{}' in the image", name));
  }

  py::dict run(std::uint64_t max_instructions) { return execute(max_instructions, false); }
  py::dict step() { return execute(1, true); }

  void add_breakpoint(std::uint64_t address) { breakpoints_.addresses.insert(address); }
  void remove_breakpoint(std::uint64_t address) {
    if (breakpoints_.addresses.erase(address) == 0)
      throw py::key_error(fmt::format("no breakpoint at 0x{:x}", address));
  }
  std::vector<std::uint64_t> breakpoints() const {
    return {breakpoints_.addresses.begin(), breakpoints_.addresses.end()};
  }

  std::uint64_t pc() const { return model_->state().pc; }
  void set_pc(std::uint64_t pc) { model_->state().pc = pc; }

  std::uint64_t register_value(const std::string& name, unsigned pe) const {
    return model_->state().gpr(check_pe(pe), gpr(name));
  }
  void set_register(const std::string& name, std::uint64_t value, unsigned pe) {
    model_->state().set_gpr(check_pe(pe), gpr(name), value);
  }
  std::map<std::string, std::uint64_t> registers(unsigned pe) const {
    std::map<std::string, std::uint64_t> values;
    for (unsigned index = 0; index < arch::kGprCount; ++index)
      values[isa::source_register_name(index)] = model_->state().gpr(check_pe(pe), index);
    return values;
  }

  py::bytes read_memory(std::uint64_t address, std::uint64_t length) const {
    std::string bytes(length, '\0');
    if (auto failed =
            model_->memory().read(address, reinterpret_cast<std::uint8_t*>(bytes.data()), length)) {
      throw py::value_error(failed->reason);
    }
    return py::bytes(bytes);
  }
  void write_memory(std::uint64_t address, const py::buffer& data) {
    const py::buffer_info buffer = data.request();
    const auto* first = static_cast<const std::uint8_t*>(buffer.ptr);
    const auto size = static_cast<std::size_t>(buffer.size * buffer.itemsize);
    if (auto failed = model_->load_bytes(address, {first, first + size}))
      throw py::value_error(failed->reason);
  }

  py::dict tile(const std::string& name, unsigned pe) const {
    const auto found = debug::find_tile(view(), name, check_pe(pe));
    if (const auto* why = std::get_if<std::string>(&found)) throw py::key_error(*why);
    const debug::NamedTile& tile = std::get<debug::NamedTile>(found);
    const arch::TileInfo& info = tile.info;
    py::dict result;
    result["description"] = tile.title;
    result["type"] = std::string(numeric::info(info.data_type).name);
    result["layout"] = std::string(arch::name(info.layout));
    result["shape"] = py::make_tuple(info.rows, info.columns);
    result["valid"] = py::make_tuple(info.valid_rows, info.valid_columns);
    py::list rows;
    for (std::uint32_t row = 0; tile.payload != nullptr && row < info.valid_rows; ++row) {
      py::list values;
      for (std::uint32_t col = 0; col < info.valid_columns; ++col)
        values.append(element(info, tile.payload, row, col));
      rows.append(values);
    }
    result["values"] = rows;
    return result;
  }

  py::object stats() const {
    const std::string text =
        functional::run_statistics(*model_, model_->front_end().instructions()).dump();
    return py::module_::import("json").attr("loads")(text);
  }

  py::object exit_reason() const { return exit_reason_; }
  std::string output() const { return output_.str(); }

 private:
  static std::unique_ptr<functional::FunctionalModel> make_model(
      const config::PlatformConfig& config, std::ostringstream& output) {
    try {
      return std::make_unique<functional::FunctionalModel>(config.model, output, output);
    } catch (const std::invalid_argument& error) {
      throw py::value_error(error.what());
    }
  }
  static unsigned check_pe(unsigned pe) {
    if (pe >= arch::kPeCount) throw py::value_error(fmt::format("pe {}: PEs are 0..3", pe));
    return pe;
  }
  static unsigned gpr(const std::string& name) {
    const std::optional<unsigned> code = isa::register_code(name, false);
    if (!code || *code >= arch::kGprCount)
      throw py::key_error(
          fmt::format("'{}' is not a GPR (zero, sp, a0..a7, ra, s0..s8, x0..x3)", name));
    return *code;
  }
  engine::StateView view() const {
    return {model_->state(), model_->local_tiles(), model_->shared_tiles(),
            model_->front_end().instructions()};
  }

  py::dict execute(std::uint64_t max_instructions, bool stepping) {
    if (ended_) {
      throw py::value_error(fmt::format("the run has ended ({}); reset() or load() first",
                                        py::str(exit_reason_["kind"]).cast<std::string>()));
    }
    frontend::ExecutionControl& control = model_->front_end().control();
    // A step is a run of one attempt: no breakpoint can pause it.
    const bool observe = !stepping && !breakpoints_.addresses.empty();
    breakpoints_.start();
    if (observe) control.attach(breakpoints_);
    engine::RunResult result;
    try {
      result = model_->run(max_instructions);
    } catch (...) {
      if (observe) control.detach(breakpoints_);
      throw;
    }
    if (observe) control.detach(breakpoints_);
    py::dict reason;
    reason["instructions"] = result.instructions;
    reason["pc"] = model_->state().pc;
    if (result.fpatr_failure) {
      reason["kind"] = "diverged";
      reason["reason"] = *result.fpatr_failure;
      ended_ = true;
    } else if (!result.halt) {
      reason["kind"] = stepping ? "step" : "limit";
    } else if (result.halt->kind == frontend::HaltKind::Paused) {
      reason["kind"] = "breakpoint";
    } else {
      const frontend::Halt& halt = *result.halt;
      reason["kind"] = halt_kind(halt.kind);
      reason["pc"] = halt.pc;
      if (halt.kind == frontend::HaltKind::Trap || halt.kind == frontend::HaltKind::Stall) {
        reason["fault"] = std::string(arch::name(halt.fault.code));
        reason["reason"] = halt.fault.reason;
        reason["report"] = engine::format_fault_report(halt);
      } else {
        reason["code"] = halt.exit_code;
      }
      ended_ = true;
    }
    exit_reason_ = reason;
    return reason;
  }

  config::PlatformConfig config_;
  std::ostringstream output_;  // the firmware's host-service output
  std::unique_ptr<functional::FunctionalModel> model_;
  isa::ProgramImage image_;
  std::string image_path_;
  Breakpoints breakpoints_;
  py::object exit_reason_ = py::none();
  bool ended_ = false;  // a halt ended the run
};

}  // namespace

// The configuration links the SystemC library (its timing keys), which needs
// an sc_main to load; the interpreter never starts SystemC.
extern "C" __attribute__((visibility("default"))) int sc_main(int, char**) {
  return 0;
}

PYBIND11_MODULE(ptovp, module) {
  module.doc() = "The ptovp functional engine from Python (docs/python.md)";
  py::class_<Platform>(module, "Platform")
      .def(py::init<const py::dict&, const std::optional<std::string>&>(),
           py::arg("config") = py::dict(), py::arg("config_file") = py::none(),
           "A platform from configuration keys as `ptovp run --config FILE --set KEY=VALUE` "
           "takes them: the file first, then the keys (flat or nested)")
      .def("load", &Platform::load, py::arg("path"),
           "Load an ELF or raw image into the reset state; TPC = its entry")
      .def("reset", &Platform::reset, "The reset state with the image loaded again")
      .def("symbol", &Platform::symbol, py::arg("name"), "A symbol's value in the loaded image")
      .def("run", &Platform::run, py::arg("max_instructions") = 0,
           "Run to a halt, a breakpoint or the limit (0 = none); returns the exit reason")
      .def("step", &Platform::step, "Run one instruction attempt; returns the exit reason")
      .def("add_breakpoint", &Platform::add_breakpoint, py::arg("address"))
      .def("remove_breakpoint", &Platform::remove_breakpoint, py::arg("address"))
      .def_property_readonly("breakpoints", &Platform::breakpoints)
      .def_property("pc", &Platform::pc, &Platform::set_pc, "TPC")
      .def("register", &Platform::register_value, py::arg("name"), py::arg("pe") = 0,
           "A GPR by its assembly name on one PE")
      .def("set_register", &Platform::set_register, py::arg("name"), py::arg("value"),
           py::arg("pe") = 0)
      .def("registers", &Platform::registers, py::arg("pe") = 0)
      .def("read_memory", &Platform::read_memory, py::arg("address"), py::arg("length"))
      .def("write_memory", &Platform::write_memory, py::arg("address"), py::arg("data"))
      .def("tile", &Platform::tile, py::arg("name"), py::arg("pe") = 0,
           "A Local (T#1, U3) or Shared (S5) tile: descriptor and valid elements as numbers")
      .def("stats", &Platform::stats,
           "Instructions, MACs, bytes and regions of interest so far (as --stats writes them)")
      .def_property_readonly("exit_reason", &Platform::exit_reason)
      .def_property_readonly("output", &Platform::output,
                             "What the firmware wrote (host services)");
}

}  // namespace ptovp::python

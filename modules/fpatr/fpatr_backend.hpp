// The B.FPATR arithmetic behind the unit's socket (docs/rtl-cosim.md): a CUBE
// PE hands one RowsJob per block, that is its raw accumulator rows, the
// block's post-process configuration and decoded parameters, and where the
// staged outputs go; a Backend fills the outputs and answers the status
// flags and, when it counts them, the cycles it took. Both engines call a
// Backend: the functional engine from cube::Cube::execute, the SystemC
// platform from fpatr::FpatrModule's b_transport, so an implementation
// (C++, Verilated RTL, both checked against each other) is a configuration
// choice (`fpatr.backend`).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fpatr/fpatr.hpp"

namespace ptovp::fpatr {

struct RowsJob {
  const Fpatr* unit = nullptr;  // the block's B.FPATR/B.DATR configuration
  const Parameters* parameters = nullptr;
  const std::uint32_t* accumulator = nullptr;  // rows x columns raw words, row-major
  std::uint32_t rows = 0, columns = 0;
  Outputs out;  // the per-output flags only when a comparison asks for them
  // For reports: the PE and the block (its mnemonic and TPC).
  unsigned pe = 0;
  std::string_view block;
  std::uint64_t block_pc = 0;
};

struct RowsAnswer {
  std::uint8_t flags = 0;               // OR of every element's and reduction's flags
  std::optional<std::uint64_t> cycles;  // absent: the platform's timing model applies
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string_view name() const = 0;
  virtual RowsAnswer run(const RowsJob& job) = 0;
  // Whether run() may be called for different PEs' jobs at once (host
  // threads, cube::Cube::execute); otherwise the jobs come one at a time in
  // PE order.
  virtual bool concurrent() const { return false; }
  // Why the backend's results can no longer be trusted (checked: the first
  // difference, as a report); the engines stop the run when it is set. The
  // reference stays valid for the backend's lifetime.
  virtual const std::optional<std::string>& failure() const {
    static const std::optional<std::string> kNone;
    return kNone;
  }
};

// The numeric core (numeric/postprocess.hpp) through Fpatr::run.
class CppBackend final : public Backend {
 public:
  std::string_view name() const override { return "cpp"; }
  RowsAnswer run(const RowsJob& job) override;
  bool concurrent() const override { return true; }  // Fpatr::run keeps no state
};

// `fpatr.backend`.
enum class BackendKind : std::uint8_t { Cpp, Rtl, Checked };

// Whether this build has the Verilated RTL (CMake option PTOVP_RTL).
bool rtl_available();
// A backend of `kind`; std::invalid_argument naming the CMake option when
// the RTL is not built in.
std::unique_ptr<Backend> make_backend(BackendKind kind);

// Runs `reference` and `candidate` on every job, element for element, and
// keeps the reference's outputs. At the first difference in an output's bits
// or flags it records a report naming the block, PE, row, column, mode,
// inputs and both outputs (failure()); the run then stops (exit status 102,
// docs/rtl-cosim.md).
class CheckedBackend final : public Backend {
 public:
  CheckedBackend(std::unique_ptr<Backend> reference, std::unique_ptr<Backend> candidate);
  ~CheckedBackend() override;
  std::string_view name() const override { return "checked"; }
  RowsAnswer run(const RowsJob& job) override;
  const std::optional<std::string>& failure() const override { return failure_; }

 private:
  // The first difference between the two outputs of `job`, as a report.
  std::optional<std::string> compare(const RowsJob& job) const;

  std::unique_ptr<Backend> reference_, candidate_;
  struct Buffers;  // both backends' outputs and flags, reused from job to job
  std::unique_ptr<Buffers> buffers_;
  std::optional<std::string> failure_;
};

}  // namespace ptovp::fpatr

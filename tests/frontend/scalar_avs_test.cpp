// Replays the spec's scalar witnesses (tests/vectors/scalar-avs.witness, facts
// extracted by scripts/gen_scalar_avs.py from the generated ValidateScalar*
// functions and the hand-written AVS mains; docs/avs/scalar.md lists every
// AVS ID): each case sets the registers, queues, memory, CORE_STATE and LR
// reservation (on every PE), executes one instruction at its TPC on the
// functional model and checks every result the witness checks, the FP flags
// and the reservation included. The decode witnesses check the form ptovp's
// decoder finds, its raw operand fields and the register an operand reads,
// before or instead of an execution.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "frontend/instruction_plan.hpp"
#include "frontend/prepared_instruction.hpp"
#include "frontend/scalar_unit.hpp"
#include "functional/functional_model.hpp"
#include "isa/catalog.hpp"
#include "isa/decoder.hpp"
#include "isa/instruction_length.hpp"

namespace ptovp::testing {
namespace {

struct AvsCase {
  std::string id;
  int line = 0;
  std::vector<std::string> setup;
  std::uint64_t word = 0;
  unsigned bits = 0;  // 0: no execution, the case checks decode only
  std::vector<std::string> expect;
};

std::vector<AvsCase> load_cases() {
  std::ifstream in(PTOVP_SOURCE_DIR "/tests/vectors/scalar-avs.witness");
  std::vector<AvsCase> cases;
  std::string line;
  int number = 0;
  AvsCase current;
  while (std::getline(in, line)) {
    ++number;
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    std::string directive;
    words >> directive;
    if (directive == "case") {
      current = AvsCase{};
      words >> current.id;
      current.line = number;
    } else if (directive == "exec") {
      words >> std::hex >> current.word >> std::dec >> current.bits;
    } else if (directive == "expect") {
      current.expect.push_back(line.substr(7));
    } else if (directive == "end") {
      cases.push_back(current);
    } else {
      current.setup.push_back(line);
    }
  }
  return cases;
}

std::uint64_t hex(std::istringstream& words) {
  std::uint64_t value = 0;
  words >> std::hex >> value >> std::dec;
  return value;
}

constexpr std::uint32_t kCoreState = 0x20;  // the CORE_STATE SSR

// The ASL's BundleKind and BundleTransfer names.
arch::BlockKind block_kind(const std::string& name) {
  if (name == "System") return arch::BlockKind::System;
  if (name == "Floating") return arch::BlockKind::Floating;
  EXPECT_EQ(name, "Standard") << "unknown block kind";
  return arch::BlockKind::Standard;
}
arch::TransferType transfer_type(const std::string& name) {
  static const std::pair<const char*, arch::TransferType> kTransfers[] = {
      {"Fallthrough", arch::TransferType::Fallthrough}, {"Direct", arch::TransferType::Direct},
      {"Conditional", arch::TransferType::Conditional}, {"Return", arch::TransferType::Return},
      {"Indirect", arch::TransferType::Indirect},
  };
  for (const auto& [spelling, type] : kTransfers) {
    if (name == spelling) return type;
  }
  ADD_FAILURE() << "unknown transfer type " << name;
  return arch::TransferType::Fallthrough;
}

// The fault the spec spells `name` (Fault_DataPage, ...).
arch::FaultCode fault_code(const std::string& name) {
  for (unsigned code = 0; code <= static_cast<unsigned>(arch::FaultCode::Assert); ++code) {
    if (arch::name(static_cast<arch::FaultCode>(code)) == name)
      return static_cast<arch::FaultCode>(code);
  }
  ADD_FAILURE() << "unknown fault " << name;
  return arch::FaultCode::None;
}

// The spec's name of a scalar form (ScalarOperation_*): its mnemonic, '.'
// spelled '_'.
std::string operation_name(std::string_view mnemonic) {
  std::string name(mnemonic);
  for (char& c : name) {
    if (c == '.') c = '_';
  }
  return name;
}

// The witnesses' machine: PTO_MODEL_MEMORY_BYTES (4096) bytes of RAM, so an
// access past it is the spec's Fault_DataPage, and ACRC always the
// architectural request (no host services, docs/spec-choices.md).
engine::ModelConfig witness_config(numeric::NumericProfile profile) {
  engine::ModelConfig config;
  config.profile = profile;
  config.memory_size = 4096;
  config.front_end.host_services = false;
  return config;
}

class ScalarAvsTest : public ::testing::Test {
 protected:
  std::ostringstream out, err;
  functional::FunctionalModel hardware{witness_config(numeric::NumericProfile::Hardware), out, err};
  // "profile pto-v0": the FSU witnesses of the reference profile's
  // raw-carrier arithmetic (asl/arch/profile/reference-profile.asl).
  functional::FunctionalModel reference{witness_config(numeric::NumericProfile::PtoV0), out, err};

  // A decode probe: "operation INDEX NAME" (the spec's form INDEX is the
  // catalog's form NAME), or for an instruction word "form HEX BITS INDEX"
  // (it decodes as the spec's scalar form INDEX), "field HEX BITS NAME RAW"
  // (the field's raw bits) and "operand HEX BITS FIELD VALUE" (the value the
  // source operand FIELD reads now, on every PE).
  static void check(functional::FunctionalModel& model, std::istringstream& words) {
    std::string what;
    words >> what;
    if (what == "operation") {
      unsigned index = 0;
      std::string name;
      words >> index >> name;
      const isa::FormInfo* named = nullptr;
      for (const isa::FormInfo& form : isa::all_forms()) {
        if (form.catalog == isa::Catalog::Scalar && form.model_index == index) named = &form;
      }
      ASSERT_NE(named, nullptr) << "no scalar form " << index;
      EXPECT_EQ(operation_name(named->mnemonic), name);
      return;
    }
    const std::uint64_t word = hex(words);
    unsigned bits = 0;
    words >> bits;
    const isa::DecodedInstruction decoded = isa::Decoder::for_release().decode(word, bits);
    ASSERT_TRUE(decoded.legal()) << decoded.illegal_reason();
    if (what == "form") {
      unsigned index = 0;
      words >> index;
      EXPECT_EQ(decoded.form->catalog, isa::Catalog::Scalar) << decoded.form->mnemonic;
      EXPECT_EQ(decoded.form->model_index, index) << decoded.form->mnemonic;
    } else if (what == "field") {
      std::string name;
      words >> name;
      const std::uint64_t raw = hex(words);
      const int index = isa::field_index(*decoded.form, name);
      ASSERT_GE(index, 0) << decoded.form->mnemonic << " has no field " << name;
      const isa::FieldInfo& field = isa::fields_of(*decoded.form)[static_cast<std::size_t>(index)];
      const std::uint64_t mask =
          field.width >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << field.width) - 1;
      EXPECT_EQ(static_cast<std::uint64_t>(decoded.field(static_cast<std::size_t>(index))) & mask,
                raw)
          << decoded.form->mnemonic << " " << name;
    } else if (what == "operand") {
      std::string field;
      words >> field;
      const std::uint64_t value = hex(words);
      const frontend::PreparedInstruction prepared =
          frontend::prepare(decoded, frontend::InstructionPlans::for_release().plan(*decoded.form));
      const std::uint8_t selector = field == "SrcL"    ? prepared.srcl
                                    : field == "SrcR"  ? prepared.srcr
                                    : field == "SrcD"  ? prepared.srcd
                                    : field == "SrcD1" ? prepared.srcd1
                                                       : prepared.srcp;
      EXPECT_TRUE(field == "SrcL" || field == "SrcR" || field == "SrcD" || field == "SrcD1" ||
                  field == "SrcP")
          << "unknown operand " << field;
      const frontend::ScalarUnit unit(model.state(), model.memory());
      for (unsigned pe = 0; pe < arch::kPeCount; ++pe)
        EXPECT_EQ(unit.read(pe, selector), value) << decoded.form->mnemonic << " " << field;
    } else {
      ADD_FAILURE() << "unknown check: " << what;
    }
  }

  // Runs one case; failures name its AVS ID and vector line. Returns false
  // for the canonical sequences' closing probe, the all-zero word executed
  // as 32 bits, whose first parcel encodes a 16-bit instruction (the
  // extractor leaves out the other cases no fetch can place).
  bool replay(const AvsCase& avs) {
    SCOPED_TRACE(avs.id + " (scalar-avs.witness:" + std::to_string(avs.line) + ")");
    const auto has = [&avs](const char* directive) {
      return std::find(avs.setup.begin(), avs.setup.end(), directive) != avs.setup.end();
    };
    functional::FunctionalModel& model = has("profile pto-v0") ? reference : hardware;
    arch::ArchState& state = model.state();
    // "carry": the case continues the state the previous one left but the
    // block control state (ResetBundleControlState), as the canonical
    // witnesses' sequence of executions does.
    if (!has("carry")) {
      state.reset();
    } else {
      state.block = {};
      state.header = {};
    }
    std::uint64_t tpc = 0;
    // "agent": the witness's one agent is PE0. The other PEs keep zero
    // registers and zero queue values (entries valid as on PE0), so their
    // atomic accesses reach address 0 with zero operands, where the case
    // sets and checks no memory; only PE0's registers are checked.
    const bool one_agent = has("agent");
    const unsigned checked_pes = one_agent ? 1 : arch::kPeCount;
    for (const std::string& line : avs.setup) {
      std::istringstream words(line);
      std::string directive;
      words >> directive;
      if (directive == "gpr") {
        unsigned index = 0;
        words >> index;
        const std::uint64_t value = hex(words);
        for (unsigned pe = 0; pe < checked_pes; ++pe)
          state.set_gpr(pe, index, value);
      } else if (directive == "queue" || directive == "push") {
        std::string which;
        unsigned entry = 0;
        words >> which;
        if (directive == "queue") words >> entry;
        const std::uint64_t witness_value = hex(words);
        for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
          arch::ScalarQueue& queue = state.queues[pe][which == "t" ? 0 : 1];
          const std::uint64_t value = pe < checked_pes ? witness_value : 0;
          if (directive == "push") {
            queue.push(value);
          } else {
            queue.value[entry] = value;
            queue.valid[entry] = true;
          }
        }
      } else if (directive == "queue_invalid") {
        std::string which;
        unsigned entry = 0;
        words >> which >> entry;
        for (unsigned pe = 0; pe < arch::kPeCount; ++pe)
          state.queues[pe][which == "t" ? 0 : 1].valid[entry] = false;
      } else if (directive == "mem") {
        const std::uint64_t address = hex(words);
        unsigned size = 0;
        words >> size;
        EXPECT_FALSE(model.memory().store(address, size, hex(words)));
      } else if (directive == "tpc") {
        tpc = hex(words);
      } else if (directive == "return") {
        state.return_address = hex(words);
      } else if (directive == "core_state") {
        EXPECT_FALSE(state.write_ssr(kCoreState, hex(words)));
      } else if (directive == "reservation") {
        const std::uint64_t address = hex(words);
        unsigned size = 0;
        words >> size;
        state.reservations.fill({address, size});
        state.reserved_pes = static_cast<std::uint8_t>((1u << checked_pes) - 1);
      } else if (directive == "acr") {
        unsigned ring = 0;
        words >> ring;
        state.set_current_acr(ring);
      } else if (directive == "block") {
        // BeginBundleAt the TPC: BPC is the TPC, the TPC moves to the
        // sequential address; a SYS block keeps no candidate continuation.
        std::string kind, transfer;
        words >> kind >> transfer;
        const std::uint64_t target = hex(words);
        const std::uint64_t sequential = hex(words);
        unsigned taken = 0;
        words >> taken;
        arch::BlockDescriptor& header = state.header;
        header.kind = block_kind(kind);
        const bool system = header.kind == arch::BlockKind::System;
        header.transfer = system ? arch::TransferType::Fallthrough : transfer_type(transfer);
        header.taken = !system && taken != 0;
        header.bpcn = system ? 0 : target;
        header.bpc = tpc;
        state.block.active = true;
        state.block.sequential_pc = sequential;
        tpc = sequential;
      } else if (directive == "body") {
        state.block.body_active = true;
      } else if (directive == "bpcn") {
        state.header.bpcn = hex(words);
      } else if (directive == "ssr") {
        const auto address = static_cast<std::uint32_t>(hex(words));
        EXPECT_FALSE(state.write_ssr(address, hex(words)));
      } else if (directive == "context_register") {
        unsigned ring = 0;
        words >> ring;
        const auto low = static_cast<std::uint16_t>(hex(words));
        state.set_context_register(ring, low, hex(words));
      } else if (directive == "cycle") {
        std::uint64_t cycles = 0;
        words >> cycles;
        state.advance_cycle(cycles);
      } else if (directive == "commit_argument") {
        state.commit_argument = hex(words);
      } else if (directive == "check") {
        check(model, words);
      } else if (directive == "agent" || directive == "carry" || directive == "profile") {
        continue;  // read above
      } else {
        ADD_FAILURE() << "unknown setup directive: " << line;
      }
    }
    if (avs.bits == 0) return true;
    if (model.memory().direct(tpc, avs.bits / 8) == nullptr) {
      ADD_FAILURE() << "the instruction lies outside the memory";
      return true;
    }
    // A word the witness executes at a length its first parcel does not
    // encode cannot be fetched as such.
    const auto parcel = [&avs](unsigned index) {
      return static_cast<std::uint16_t>(avs.word >> (16 * index));
    };
    if (isa::instruction_length_bits(parcel(0), parcel(1)) != avs.bits) {
      EXPECT_EQ(avs.word, 0u) << "a word of another length";
      return false;
    }
    for (unsigned byte = 0; byte < avs.bits / 8; ++byte)
      EXPECT_FALSE(model.memory().store(tpc + byte, 1, (avs.word >> (8 * byte)) & 0xFF));
    state.pc = tpc;
    std::array<bool, arch::kAcrCount> banked{};
    for (unsigned ring = 0; ring < arch::kAcrCount; ++ring)
      banked[ring] = state.trap_contexts[ring].valid;
    const engine::RunResult result = model.run(1);
    const arch::Fault fault = result.halt ? result.halt->fault : arch::Fault{};
    // With EVBASE set the trap is taken, not halted on: the status of the
    // ring whose trap context it filled names its number and address.
    const arch::TrapStatus* taken = nullptr;
    for (unsigned ring = 0; ring < arch::kAcrCount; ++ring) {
      if (!result.halt && state.trap_contexts[ring].valid && !banked[ring])
        taken = &state.trap_status[ring];
    }
    // A trap banks the block state in the trap context it fills (ACRE
    // restores it) and clears the live copy: a faulting case's block checks
    // read the banked copy.
    const arch::BlockControl* block = &state.block;
    const arch::BlockDescriptor* header = &state.header;
    for (const arch::TrapContext& context : state.trap_contexts) {
      if ((fault.code != arch::FaultCode::None || taken != nullptr) && context.valid) {
        block = &context.block;
        header = &context.header;
      }
    }
    for (const std::string& line : avs.expect) {
      std::istringstream words(line);
      std::string what;
      words >> what;
      if (what == "fault") {
        std::string name;
        words >> name;
        if (taken != nullptr) {
          EXPECT_EQ(taken->number, arch::trap_number(fault_code(name))) << name;
        } else {
          EXPECT_EQ(arch::name(fault.code), name) << fault.describe();
        }
      } else if (what == "fault_address") {
        EXPECT_EQ(taken != nullptr ? taken->argument0 : fault.address, hex(words));
      } else if (what == "acr") {
        unsigned ring = 0;
        words >> ring;
        EXPECT_EQ(state.current_acr(), ring);
      } else if (what == "gpr" || what == "gpr_not") {
        unsigned index = 0;
        words >> index;
        const std::uint64_t value = hex(words);
        for (unsigned pe = 0; pe < checked_pes; ++pe) {
          EXPECT_EQ(state.gpr(pe, index) == value, what == "gpr")
              << "R" << index << " on PE" << pe << ": " << state.gpr(pe, index) << " vs " << value;
        }
      } else if (what == "queue") {
        std::string which;
        unsigned entry = 0;
        words >> which >> entry;
        const std::uint64_t value = hex(words);
        for (unsigned pe = 0; pe < checked_pes; ++pe) {
          const arch::ScalarQueue& queue = state.queues[pe][which == "t" ? 0 : 1];
          EXPECT_EQ(queue.value[entry], value) << which << "#" << entry + 1 << " on PE" << pe;
        }
      } else if (what == "tpc") {
        EXPECT_EQ(state.pc, hex(words));
      } else if (what == "return") {
        EXPECT_EQ(state.return_address, hex(words));
      } else if (what == "mem") {
        const std::uint64_t address = hex(words);
        unsigned size = 0;
        words >> size;
        EXPECT_EQ(*model.memory().load(address, size), hex(words)) << "memory at " << address;
      } else if (what == "commit_argument") {
        EXPECT_EQ(state.commit_argument, hex(words));
      } else if (what == "cycle") {
        std::uint64_t cycles = 0;
        words >> cycles;
        EXPECT_EQ(state.read_ssr(0, static_cast<std::uint32_t>(arch::Ssr::Cycle)).value(), cycles);
      } else if (what == "flags") {
        EXPECT_EQ(unsigned{state.numeric_flags()}, hex(words));
      } else if (what == "bpc") {
        EXPECT_EQ(header->bpc, hex(words));
      } else if (what == "bpcn") {
        EXPECT_EQ(header->bpcn, hex(words));
      } else if (what == "block_type") {
        std::string kind;
        words >> kind;
        EXPECT_EQ(header->kind, block_kind(kind));
      } else if (what == "transfer_type") {
        std::string transfer;
        words >> transfer;
        EXPECT_EQ(header->transfer, transfer_type(transfer));
      } else if (what == "taken" || what == "block_active" || what == "body_active" ||
                 what == "terminal_pending") {
        unsigned expected = 0;
        words >> expected;
        const bool actual = what == "taken"          ? header->taken
                            : what == "block_active" ? block->active
                            : what == "body_active"  ? block->body_active
                                                     : block->system_terminal_pending;
        EXPECT_EQ(actual, expected != 0) << what;
      } else if (what == "queue_valid") {
        std::string which;
        unsigned entry = 0, valid = 0;
        words >> which >> entry >> valid;
        for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
          EXPECT_EQ(state.queues[pe][which == "t" ? 0 : 1].valid[entry], valid != 0)
              << which << "#" << entry + 1 << " on PE" << pe;
        }
      } else if (what == "ssr") {
        const auto address = static_cast<std::uint32_t>(hex(words));
        const std::uint64_t value = hex(words);
        for (unsigned pe = 0; pe < arch::kPeCount; ++pe) {
          const arch::Expected<std::uint64_t> read = state.read_ssr(pe, address);
          EXPECT_TRUE(read.ok()) << "SSR " << address;
          if (read.ok()) {
            EXPECT_EQ(*read, value) << "SSR " << address;
          }
        }
      } else if (what == "trap_number" || what == "trap_cause" || what == "trap_argument0") {
        unsigned ring = 0;
        words >> ring;
        const arch::TrapStatus& status = state.trap_status[ring];
        const std::uint64_t actual = what == "trap_number"  ? status.number
                                     : what == "trap_cause" ? status.cause
                                                            : status.argument0;
        EXPECT_EQ(actual, hex(words)) << what << " of ACR" << ring;
      } else if (what == "trap_valid" || what == "trap_tpc" || what == "trap_source_acr") {
        unsigned ring = 0;
        words >> ring;
        const arch::TrapContext& context = state.trap_contexts[ring];
        const std::uint64_t actual = what == "trap_valid" ? std::uint64_t{context.valid}
                                     : what == "trap_tpc" ? context.tpc
                                                          : std::uint64_t{context.source_acr};
        EXPECT_EQ(actual, hex(words)) << what << " of ACR" << ring;
      } else if (what == "reservation") {
        unsigned valid = 0;
        words >> valid;
        EXPECT_EQ(state.reserved_pes & ((1u << checked_pes) - 1),
                  valid != 0 ? (1u << checked_pes) - 1 : 0u);
      } else if (what == "reservation_address" || what == "reservation_size") {
        const std::uint64_t value = hex(words);
        for (unsigned pe = 0; pe < checked_pes; ++pe) {
          const arch::Reservation& r = state.reservations[pe];
          EXPECT_EQ(what == "reservation_size" ? r.size : r.address, value)
              << what << " on PE" << pe;
        }
      } else {
        ADD_FAILURE() << "unknown expectation: " << line;
      }
    }
    return true;
  }
};

constexpr unsigned kUnplacedCases = 5;

TEST_F(ScalarAvsTest, EveryExtractedWitness) {
  const std::vector<AvsCase> cases = load_cases();
  ASSERT_GE(cases.size(), 190u) << "tests/vectors/scalar-avs.witness is missing or truncated";
  unsigned unplaced = 0;
  for (const AvsCase& avs : cases) {
    if (!replay(avs)) ++unplaced;
  }
  // The closing probes replay() names; a change in their number means a
  // case stopped (or started) being replayed.
  EXPECT_EQ(unplaced, kUnplacedCases);
}

// docs/avs/scalar.md lists every AVS ID with its spec file; a form's
// witnesses live in the directory named by its mnemonic (agu/SB,
// bru/HL.SETC.EQI, ...). Every accepted scalar form of the catalog must have
// an ID replayed by EveryExtractedWitness, with as many cases in the witness
// file as the doc says; the ASL model's directories (model/*) witness helper
// functions, not forms, and only those named below may have none.
TEST(ScalarAvsCoverageTest, EveryScalarFormHasAReplayedWitness) {
  std::map<std::string, unsigned> cases_of_id;
  for (const AvsCase& avs : load_cases())
    ++cases_of_id[avs.id.substr(0, avs.id.find('#'))];

  std::ifstream doc(PTOVP_SOURCE_DIR "/docs/avs/scalar.md");
  ASSERT_TRUE(doc) << "docs/avs/scalar.md is missing";
  // A row: "| ID | `directory/file.asl` | test |".
  constexpr std::string_view kReplayed = "`ScalarAvsTest.EveryExtractedWitness` (";
  std::map<std::string, bool> directory_replayed;
  std::string line;
  while (std::getline(doc, line)) {
    if (line.rfind("| PTO-AVS-", 0) != 0) continue;
    const std::size_t id_end = line.find(" | `");
    const std::size_t path_end = line.find("` | ", id_end);
    ASSERT_NE(path_end, std::string::npos) << line;
    const std::string id = line.substr(2, id_end - 2);
    const std::string path = line.substr(id_end + 4, path_end - id_end - 4);
    const std::string directory = path.substr(0, path.rfind('/'));
    const std::string test = line.substr(path_end + 4);
    const bool replays = test.rfind(kReplayed, 0) == 0;
    if (replays) {
      EXPECT_EQ(cases_of_id[id], std::stoul(test.substr(kReplayed.size())))
          << id << ": cases in the witness file";
    } else {
      EXPECT_EQ(cases_of_id.count(id), 0u) << id << " is replayed but listed as not";
    }
    directory_replayed[directory] = directory_replayed[directory] || replays;
  }

  const std::set<std::string> exceptions = {
      "model/agu/addressing",  "model/agu/memory",     "model/alu/semantics",
      "model/amo/semantics",   "model/bru/semantics",  "model/dispatch/agu",
      "model/dispatch/amo",    "model/dispatch/bru",   "model/dispatch/decode",
      "model/dispatch/fsu",    "model/fsu/arithmetic", "model/fsu/profile",
      "model/sys/registers",   "model/sys/semantics",  "model/types/operands",
      "model/types/operations"};
  std::set<std::string> forms_with_directory;
  for (const auto& [directory, replays] : directory_replayed) {
    if (directory.rfind("model/", 0) == 0) {
      EXPECT_EQ(replays, exceptions.count(directory) == 0)
          << directory
          << (replays ? " is replayed: drop it from the exceptions" : " has no replayed witness");
      continue;
    }
    EXPECT_TRUE(replays) << directory << " has no replayed witness";
    forms_with_directory.insert(directory.substr(directory.find('/') + 1));
  }
  unsigned forms = 0;
  for (const isa::FormInfo& form : isa::all_forms()) {
    if (form.catalog != isa::Catalog::Scalar || form.status != isa::FormStatus::Accepted) continue;
    ++forms;
    EXPECT_EQ(forms_with_directory.count(std::string(form.mnemonic)), 1u)
        << form.mnemonic << " has no witness directory in docs/avs/scalar.md";
  }
  EXPECT_EQ(forms, forms_with_directory.size());
}

}  // namespace
}  // namespace ptovp::testing

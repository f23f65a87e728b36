// No silent gaps: every accepted scalar and command form of the release has
// a plan (none answers "not yet executed"); the plan tables bind scalar forms
// by their generated ids (isa::ScalarForm, so a misspelt binding does not
// compile), command forms by their generated handler ids, and control
// block starts by the generated per-form table.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "frontend/instruction_plan.hpp"
#include "isa/catalog.hpp"

namespace ptovp::testing {
namespace {

// The accepted forms of a catalog that have no plan in the default release.
std::set<std::string_view> unplanned(isa::Catalog catalog) {
  const frontend::InstructionPlans& plans = frontend::InstructionPlans::for_release();
  std::set<std::string_view> missing;
  for (const isa::FormInfo* form : isa::forms_in_release(isa::kDefaultRelease)) {
    if (form->catalog != catalog || form->status != isa::FormStatus::Accepted) continue;
    if (plans.plan(*form).op == frontend::Op::NotExecuted) missing.insert(form->mnemonic);
  }
  return missing;
}

// Every accepted scalar form has semantics: no form answers "not yet
// executed".
TEST(FormCoverageTest, EveryAcceptedScalarFormHasSemantics) {
  EXPECT_EQ(unplanned(isa::Catalog::Scalar), std::set<std::string_view>{});
}

// Every accepted command form has semantics (the reserved-in-PTO ESAVE,
// ERCOV and XB raise IllegalInstruction by design).
TEST(FormCoverageTest, EveryAcceptedCommandFormHasSemantics) {
  EXPECT_EQ(unplanned(isa::Catalog::Command), std::set<std::string_view>{});
}

// Control block starts take their kind and transfer from the generated
// per-form table; the oracle here is the template's keyword.
TEST(FormCoverageTest, EveryControlStartIsBoundByForm) {
  using arch::TransferType;
  const frontend::InstructionPlans& plans = frontend::InstructionPlans::for_release();
  unsigned starts = 0;
  for (const isa::FormInfo* form : isa::forms_in_release(isa::kDefaultRelease)) {
    if (form->semantic_handler != "ExecuteBundleStart" ||
        isa::field_index(*form, "DataType") >= 0) {
      continue;
    }
    ++starts;
    const frontend::FormPlan& plan = plans.plan(*form);
    const std::string text(form->asm_template);
    const auto names = [&](const char* word) { return text.find(word) != std::string::npos; };
    TransferType expected = TransferType::Fallthrough;
    if (form->mnemonic == "BSTART.CALL") {
      expected = TransferType::Call;
    } else if (form->mnemonic == "BSTART.ICALL") {
      expected = TransferType::IndirectCall;
    } else if (names(" DIRECT")) {
      expected = TransferType::Direct;
    } else if (names(" COND")) {
      expected = TransferType::Conditional;
    } else if (names(" RET")) {
      expected = TransferType::Return;
    } else if (names(" IND")) {
      expected = TransferType::Indirect;
    }
    EXPECT_NE(isa::block_start_of(*form), nullptr) << form->form_id;
    EXPECT_EQ(plan.branch_type_field, names("{FALL, IND, RET}")) << form->form_id;
    if (!plan.branch_type_field) {
      EXPECT_EQ(plan.transfer, expected) << form->form_id;
    }
    const arch::BlockKind kind = names(".FP")    ? arch::BlockKind::Floating
                                 : names(".SYS") ? arch::BlockKind::System
                                                 : arch::BlockKind::Standard;
    EXPECT_EQ(plan.kind, kind) << form->form_id;
  }
  EXPECT_EQ(starts, 20u);
}

// The plan tables bind scalar forms by their generated ids (a misspelt id
// does not compile): each is a scalar form of the release, bound once, and
// its plan is the bound one.
TEST(FormCoverageTest, EveryBoundFormIsAScalarFormBoundOnce) {
  const frontend::InstructionPlans& plans = frontend::InstructionPlans::for_release();
  std::set<isa::ScalarForm> seen;
  for (isa::ScalarForm id : frontend::bound_forms()) {
    const isa::FormInfo& form = isa::form_of(id);
    EXPECT_EQ(form.catalog, isa::Catalog::Scalar) << form.mnemonic;
    EXPECT_TRUE(isa::in_release(form, isa::kDefaultRelease)) << form.mnemonic;
    EXPECT_TRUE(seen.insert(id).second) << form.mnemonic << " is bound twice";
    EXPECT_NE(plans.plan(form).op, frontend::Op::NotExecuted) << form.mnemonic;
  }
  EXPECT_FALSE(seen.empty());
}

// The standalone command table binds handlers by their generated ids: each
// is a command form's handler, bound once, and those forms plan its op.
TEST(FormCoverageTest, EveryBoundHandlerIsACommandHandlerBoundOnce) {
  const frontend::InstructionPlans& plans = frontend::InstructionPlans::for_release();
  std::set<isa::SemanticHandler> seen;
  for (isa::SemanticHandler handler : frontend::bound_handlers()) {
    EXPECT_TRUE(seen.insert(handler).second) << static_cast<int>(handler) << " is bound twice";
    unsigned forms = 0;
    for (const isa::FormInfo* form : isa::forms_in_release(isa::kDefaultRelease)) {
      if (form->handler != handler) continue;
      ++forms;
      EXPECT_EQ(form->catalog, isa::Catalog::Command) << form->mnemonic;
      EXPECT_NE(plans.plan(*form).op, frontend::Op::NotExecuted) << form->mnemonic;
    }
    EXPECT_GT(forms, 0u) << static_cast<int>(handler) << " is bound but no form has it";
  }
  EXPECT_EQ(seen.size(), 9u);
}

// CMP.* and SETC.* (with their C. and HL. forms) are bound by form id, and
// the plan is the one the mnemonic spells; the oracle reads the mnemonic.
TEST(FormCoverageTest, EveryCompareFormIsBoundByFormId) {
  using frontend::Condition;
  using frontend::Op;
  const frontend::InstructionPlans& plans = frontend::InstructionPlans::for_release();
  const std::vector<isa::ScalarForm> bound = frontend::bound_forms();
  const std::set<isa::ScalarForm> ids(bound.begin(), bound.end());
  const std::pair<const char*, Condition> conditions[] = {
      {"EQ", Condition::Eq},   {"NE", Condition::Ne}, {"LTU", Condition::Ltu},
      {"GEU", Condition::Geu}, {"LT", Condition::Lt}, {"GE", Condition::Ge}};
  unsigned compares = 0;
  for (const isa::FormInfo* form : isa::forms_in_release(isa::kDefaultRelease)) {
    if (form->catalog != isa::Catalog::Scalar) continue;
    std::string m(form->mnemonic);
    for (const char* prefix : {"C.", "HL."}) {
      if (m.rfind(prefix, 0) == 0) m.erase(0, std::string(prefix).size());
    }
    const bool setc = m.rfind("SETC.", 0) == 0;
    if (!setc && m.rfind("CMP.", 0) != 0) continue;
    const std::string suffix = m.substr(m.find('.') + 1);
    if (suffix == "TGT") continue;
    ++compares;
    const frontend::FormPlan& plan = plans.plan(*form);
    EXPECT_EQ(ids.count(isa::scalar_form_id(*form)), 1u) << form->mnemonic;
    EXPECT_EQ(plan.commit_setter, setc) << form->mnemonic;
    const bool immediate = suffix.back() == 'I';
    if (suffix.rfind("AND", 0) == 0 || suffix.rfind("OR", 0) == 0) {
      EXPECT_EQ(plan.logical_or, suffix.rfind("OR", 0) == 0) << form->mnemonic;
      const Op op = setc ? (immediate ? Op::SetCommitLogicalImmediate : Op::SetCommitLogical)
                         : (immediate ? Op::CompareLogicalImmediate : Op::CompareLogical);
      EXPECT_EQ(plan.op, op) << form->mnemonic;
      continue;
    }
    bool found = false;
    for (const auto& [name, condition] : conditions) {
      if (suffix.rfind(name, 0) != 0) continue;
      EXPECT_EQ(plan.condition, condition) << form->mnemonic;
      found = true;
      break;
    }
    EXPECT_TRUE(found) << form->mnemonic;
    // C.SETC.EQ/NE compare two registers; every other I form an immediate.
    const Op op = setc ? (immediate ? Op::SetCommitImmediate : Op::SetCommit)
                       : (immediate ? Op::CompareImmediate : Op::Compare);
    EXPECT_EQ(plan.op, op) << form->mnemonic;
  }
  EXPECT_EQ(compares, 52u);
}

// The forms legal only in a SYS block body (IsSystemBlockScalarOperation) are
// bound by form id: the oracle is the catalog's SYS group, less SETC.TGT and
// LSRGET, which the ASL allows in any block.
TEST(FormCoverageTest, SystemBlockFormsAreTheSysGroupButSetcTgtAndLsrget) {
  const frontend::InstructionPlans& plans = frontend::InstructionPlans::for_release();
  unsigned system = 0;
  for (const isa::FormInfo* form : isa::forms_in_release(isa::kDefaultRelease)) {
    if (form->catalog != isa::Catalog::Scalar) continue;
    const bool expected =
        form->semantic_group == "SYS" && form->mnemonic != "SETC.TGT" && form->mnemonic != "LSRGET";
    EXPECT_EQ(plans.plan(*form).system_block, expected) << form->mnemonic;
    system += expected ? 1 : 0;
  }
  EXPECT_EQ(system, 33u);
}

}  // namespace
}  // namespace ptovp::testing

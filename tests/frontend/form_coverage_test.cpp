// No silent gaps: every accepted scalar and command form of the release has
// a plan (none answers "not yet executed"); the plan tables bind scalar forms
// by their generated ids (isa::ScalarForm, so a misspelt binding does not
// compile) and control block starts by the generated per-form table, and
// every semantic handler they name exists in a catalog.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <string_view>

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

TEST(FormCoverageTest, EveryBoundHandlerExistsInACatalog) {
  std::set<std::string_view> handlers;
  for (const isa::FormInfo& form : isa::all_forms())
    handlers.insert(form.semantic_handler);
  for (std::string_view handler : frontend::bound_handlers())
    EXPECT_EQ(handlers.count(handler), 1u) << handler << " is bound but no form has it";
}

}  // namespace
}  // namespace ptovp::testing

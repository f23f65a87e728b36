// No silent gaps: every accepted scalar and command form of the release has
// a plan (none answers "not yet executed"), and every mnemonic the plan
// tables bind exists in a catalog, so a misspelt binding cannot fall back to
// "not yet executed" unnoticed.
#include <gtest/gtest.h>

#include <set>
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

TEST(FormCoverageTest, EveryBoundMnemonicExistsInACatalog) {
  std::set<std::string_view> catalog;
  for (const isa::FormInfo& form : isa::all_forms())
    catalog.insert(form.mnemonic);
  for (std::string_view mnemonic : frontend::bound_mnemonics())
    EXPECT_EQ(catalog.count(mnemonic), 1u) << mnemonic << " is bound but no form has it";
  std::set<std::string_view> handlers;
  for (const isa::FormInfo& form : isa::all_forms())
    handlers.insert(form.semantic_handler);
  for (std::string_view handler : frontend::bound_handlers())
    EXPECT_EQ(handlers.count(handler), 1u) << handler << " is bound but no form has it";
}

}  // namespace
}  // namespace ptovp::testing

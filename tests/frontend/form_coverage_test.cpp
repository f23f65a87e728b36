// No silent gaps: every scalar form of the release has a plan except the
// forms listed here (the list shrinks as families land; it is what the front
// end still answers with "not yet executed"), and every mnemonic the plan
// tables bind exists in a catalog, so a misspelt binding cannot fall back to
// "not yet executed" unnoticed.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <string_view>
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

// Scalar forms without semantics yet: LSRGET, the
// maintenance and control requests, SSRSWAP and C.SSRGET.
const std::set<std::string_view> kNotExecuted = {
    // SYS
    "BC.IALL", "BC.IVA", "BSE",     "BWE",     "BWI",      "BWT",     "C.SSRGET", "DC.CISW",
    "DC.CIVA", "DC.CSW", "DC.CVA",  "DC.IALL", "DC.ISW",   "DC.IVA",  "DC.ZVA",   "IC.IALL",
    "IC.IVA",  "LSRGET", "SSRSWAP", "TLB.IA",  "TLB.IALL", "TLB.IAV", "TLB.IV",
};

TEST(FormCoverageTest, ScalarFormsWithoutSemanticsAreExactlyTheListed) {
  const std::set<std::string_view> missing = unplanned(isa::Catalog::Scalar);
  std::string unexpected, stale;
  for (std::string_view m : missing)
    if (kNotExecuted.count(m) == 0) unexpected += " " + std::string(m);
  for (std::string_view m : kNotExecuted)
    if (missing.count(m) == 0) stale += " " + std::string(m);
  EXPECT_TRUE(unexpected.empty()) << "scalar forms without semantics:" << unexpected;
  EXPECT_TRUE(stale.empty()) << "listed but executed (remove from kNotExecuted):" << stale;
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

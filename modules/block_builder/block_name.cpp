#include "block_builder/block_name.hpp"

#include <array>

#include "isa/isa_tables.hpp"

namespace ptovp::block_builder {

namespace {

std::string_view family_of(arch::OperationClass operation_class) {
  switch (operation_class) {
    case arch::OperationClass::Tlsu: return "TLSU";
    case arch::OperationClass::Cube: return "CUBE";
    case arch::OperationClass::Tepl: return "TEPL";
  }
  return {};
}

std::string_view without_bstart(std::string_view mnemonic) {
  constexpr std::string_view kPrefix = "BSTART.";
  return mnemonic.substr(0, kPrefix.size()) == kPrefix ? mnemonic.substr(kPrefix.size()) : mnemonic;
}

// A TLSU or CUBE block's name depends on its function alone, BSTART bits
// [26:20] (arch/block_descriptor.hpp).
constexpr unsigned kFunctionCount = 128;
using NamesByFunction = std::array<std::string_view, kFunctionCount>;

// Each function's name: the catalog's first operation of the family with
// that function, else (TLSU) the first encoding variant, else the family.
NamesByFunction names_by_function(arch::OperationClass operation_class) {
  const std::string_view family = family_of(operation_class);
  NamesByFunction names;
  const auto name = [&names](int function, std::string_view mnemonic) {
    if (function >= 0 && function < static_cast<int>(kFunctionCount) && names[function].empty())
      names[function] = mnemonic;
  };
  for (std::size_t i = 0; i < isa::generated::kTileOperationsCount; ++i) {
    const isa::TileOperationInfo& op = isa::generated::kTileOperations[i];
    if (op.family == family) name(op.function, without_bstart(op.command_mnemonic));
  }
  // TMOV.L2S/S2L and TSTORE.SPART are encoding variants of TMOV and TSTORE.
  if (operation_class == arch::OperationClass::Tlsu) {
    for (std::size_t i = 0; i < isa::generated::kVariantsCount; ++i)
      name(isa::generated::kVariants[i].function, isa::generated::kVariants[i].name);
  }
  for (std::string_view& unnamed : names) {
    if (unnamed.empty()) unnamed = family;
  }
  return names;
}

// The indices: 0 for a block without an operation, then the TLSU functions,
// the CUBE functions (each with one more for a function out of range) and
// the TEPL operations of the catalog.
constexpr std::size_t kTlsuFirst = 1;
constexpr std::size_t kCubeFirst = kTlsuFirst + kFunctionCount + 1;
constexpr std::size_t kTepl = kCubeFirst + kFunctionCount + 1;

// A TEPL block's name: the catalog's operation of its function and mode, at
// kTepl + its catalog index (kTepl + the count: none).

BlockName tepl_name(const arch::BlockDescriptor& block) {
  for (std::size_t i = 0; i < isa::generated::kTileOperationsCount; ++i) {
    const isa::TileOperationInfo& op = isa::generated::kTileOperations[i];
    if (op.family == "TEPL" && op.function == static_cast<int>(block.function) &&
        op.mode == static_cast<int>(block.mode)) {
      return {without_bstart(op.command_mnemonic), kTepl + i};
    }
  }
  return {"TEPL", kTepl + isa::generated::kTileOperationsCount};
}

// A TLSU or CUBE function's name at `first` + function (`first` +
// kFunctionCount: a function out of range, named after the family).
BlockName function_name(const NamesByFunction& names, std::size_t first, unsigned function,
                        std::string_view family) {
  if (function < kFunctionCount) return {names[function], first + function};
  return {family, first + kFunctionCount};
}

}  // namespace

BlockName block_name(const arch::BlockDescriptor& block) {
  if (!block.operation_valid) return {"block", 0};
  // Every block is named as it is sent, so the catalog is searched once.
  static const NamesByFunction kTlsu = names_by_function(arch::OperationClass::Tlsu);
  static const NamesByFunction kCube = names_by_function(arch::OperationClass::Cube);
  switch (block.operation_class) {
    case arch::OperationClass::Tlsu:
      return function_name(kTlsu, kTlsuFirst, block.function, "TLSU");
    case arch::OperationClass::Cube:
      return function_name(kCube, kCubeFirst, block.function, "CUBE");
    case arch::OperationClass::Tepl: return tepl_name(block);
  }
  return {};
}

}  // namespace ptovp::block_builder

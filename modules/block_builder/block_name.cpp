#include "block_builder/block_name.hpp"

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

}  // namespace

std::string_view block_mnemonic(const arch::BlockDescriptor& block) {
  if (!block.operation_valid) return "block";
  const std::string_view family = family_of(block.operation_class);
  const bool tepl = block.operation_class == arch::OperationClass::Tepl;
  for (std::size_t i = 0; i < isa::generated::kTileOperationsCount; ++i) {
    const isa::TileOperationInfo& op = isa::generated::kTileOperations[i];
    if (op.family == family && op.function == static_cast<int>(block.function) &&
        (!tepl || op.mode == static_cast<int>(block.mode))) {
      return without_bstart(op.command_mnemonic);
    }
  }
  // TMOV.L2S/S2L and TSTORE.SPART are encoding variants of TMOV and TSTORE.
  for (std::size_t i = 0; i < isa::generated::kVariantsCount; ++i) {
    const isa::EncodingVariant& variant = isa::generated::kVariants[i];
    if (block.operation_class == arch::OperationClass::Tlsu && variant.function == block.function)
      return variant.name;
  }
  return family;
}

}  // namespace ptovp::block_builder

#include "frontend/instruction_plan.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace ptovp::frontend {

using arch::BlockKind;
using arch::TransferType;

namespace {

constexpr std::uint8_t kFirstT = 24;  // t#1
constexpr std::uint8_t kPushT = 31;   // ->t

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}
bool contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

std::int8_t field(const isa::FormInfo& form, std::string_view name) {
  return static_cast<std::int8_t>(isa::field_index(form, name));
}

// The first immediate-like field the form has.
std::int8_t immediate_field(const isa::FormInfo& form) {
  for (std::string_view name :
       {"uimm12", "simm12", "uimm24", "simm24", "simm5", "imm20", "imm", "simm32", "uimm32",
        "simm22", "uimm19", "uimm5", "imm4", "imm5", "shamt"}) {
    if (auto index = field(form, name); index >= 0) return index;
  }
  return -1;
}

void plan_block_start(const isa::FormInfo& form, FormPlan& plan) {
  const std::string_view m = form.mnemonic;
  const std::string_view text = form.asm_template;
  plan.op = Op::Start;
  plan.imm = -1;
  for (std::string_view name : {"simm25", "simm17", "simm12"}) {
    if (auto index = field(form, name); index >= 0) plan.imm = index;
  }
  plan.srcd = field(form, "uimm5");  // CALL / ICALL return offset
  if (contains(m, ".FP")) plan.kind = BlockKind::Floating;
  if (contains(m, ".SYS")) plan.kind = BlockKind::System;
  if (m == "BSTART.CALL")
    plan.transfer = TransferType::Call;
  else if (m == "BSTART.ICALL")
    plan.transfer = TransferType::IndirectCall;
  else if (contains(text, " DIRECT"))
    plan.transfer = TransferType::Direct;
  else if (contains(text, " COND"))
    plan.transfer = TransferType::Conditional;
  else if (contains(text, " RET"))
    plan.transfer = TransferType::Return;
  else if (contains(text, " IND"))
    plan.transfer = TransferType::Indirect;
  plan.branch_type_field = field(form, "BrType") >= 0;
  plan.rd = field(form, "BrType");
  // Tile starts carry DataType; their class and function come from the word.
  plan.tile_start = field(form, "DataType") >= 0;
  plan.rtype = field(form, "DataType");
  plan.shamt = field(form, "Mode");
}

// The standalone commands: the templates (a register range and a frame size,
// or three absolute GPRs) and the queue manager commands.
struct NamedStandalone {
  std::string_view handler;
  Op op;
};
static constexpr NamedStandalone kStandalone[] = {
    {"ExecuteFrameEntry", Op::FrameEntry},
    {"ExecuteFrameExit", Op::FrameExit},
    {"ExecuteFrameReturnAddress", Op::FrameReturnAddress},
    {"ExecuteFrameReturnStack", Op::FrameReturnStack},
    {"ExecuteMemoryCopy", Op::MemoryCopy},
    {"ExecuteMemorySet", Op::MemorySet},
    {"ExecuteQueueMove", Op::QueueMove},
    {"ExecuteQueuePop", Op::QueuePop},
    {"ExecuteQueuePush", Op::QueuePush},
};

bool plan_standalone(const isa::FormInfo& form, FormPlan& plan) {
  for (const NamedStandalone& row : kStandalone) {
    if (row.handler != form.semantic_handler) continue;
    plan.op = row.op;
    plan.srcl = field(form, row.op == Op::FrameEntry ? "SrcBegin" : "DstBegin");
    plan.srcr = field(form, row.op == Op::FrameEntry ? "SrcEnd" : "DstEnd");
    if (plan.srcl < 0) plan.srcl = field(form, "RegSrc0");
    if (plan.srcr < 0) plan.srcr = field(form, "RegSrc1");
    if (plan.srcl < 0) plan.srcl = field(form, "SrcL");
    if (plan.srcr < 0) plan.srcr = field(form, "SrcR");
    plan.srcd = field(form, "RegSrc2");
    plan.rd = field(form, "RegDst");
    if (plan.rd < 0) plan.rd = field(form, "RegDst0");
    plan.rd1 = field(form, "RegDst1");
    plan.imm = field(form, "uimm");
    return true;
  }
  return false;
}

void plan_command(const isa::FormInfo& form, FormPlan& plan) {
  const std::string_view h = form.semantic_handler;
  if (h == "ExecuteBundleStart") return plan_block_start(form, plan);
  if (plan_standalone(form, plan)) return;
  if (h == "ExecuteBundleStop")
    plan.op = Op::Stop;
  else if (h == "SetBundleControlAttributes")
    plan.op = Op::ControlAttributes;
  else if (h == "SetBundleDataAttributes")
    plan.op = Op::DataAttributes;
  else if (h == "SetBundleFixedPointAttributes")
    plan.op = Op::FpAttributes;
  else if (h == "BindBundleScalarIO")
    plan.op = Op::ScalarBinding;
  else if (h == "BindBundleTileIO")
    plan.op = Op::TileBinding;
  else if (h == "BindBundleSharedIO")
    plan.op = Op::SharedBinding;
  else if (h == "SetBundleHint") {
    plan.op = field(form, "B/E") >= 0 ? Op::HintTrace : Op::Hint;
    plan.imm = field(form, "B/E");  // TRACE: begin (0) or end (1)
  } else if (h == "SetBundleDimension") {
    // B.DIM: LB[form bits 14:12] = RegSrc + uimm17; C.B.DIMI: LB[LoopNest] = imm8.
    plan.op = field(form, "RegSrc") >= 0 ? Op::Dimension : Op::DimensionImmediate;
    plan.dimension = static_cast<std::uint8_t>((form.match >> 12) & 3);
    plan.srcl = field(form, "RegSrc");
    plan.rd = field(form, "LoopNest");
    plan.imm = field(form, plan.op == Op::Dimension ? "uimm17" : "imm8");
  }
}

// Every load, store and prefetch form, from the catalog's addressing record.
bool plan_memory(const isa::FormInfo& form, FormPlan& plan) {
  const isa::AguInfo* agu = isa::agu_of(form);
  if (agu == nullptr) return false;
  using isa::AguAction;
  const bool store = agu->action == AguAction::Store || agu->action == AguAction::StorePair;
  plan.op = agu->action == AguAction::Prefetch ? Op::Prefetch : store ? Op::Store : Op::Load;
  plan.size = agu->size_bytes;
  plan.scale = agu->offset_scale;
  plan.sign_extend = agu->signed_load;
  plan.compressed = agu->address == isa::AguAddress::Compressed;
  plan.paired = agu->action == AguAction::LoadPair || agu->action == AguAction::StorePair;
  plan.pc_relative = agu->address == isa::AguAddress::PCRelative;
  plan.base_in_srcr = store && agu->address == isa::AguAddress::Immediate;
  plan.returns_address = agu->returns_address;
  plan.update = agu->update;
  plan.srcd1 = field(form, "SrcD1");
  if (plan.rd < 0) plan.rd = field(form, "RegDst0");
  plan.rd1 = field(form, "RegDst1");
  if (plan.compressed && !store) plan.implicit_rd = kPushT;
  // ScalarDecodedAGUImmediate: the first of these the form has.
  plan.imm = -1;
  if (agu->address != isa::AguAddress::Register) {
    for (std::string_view name : {"simm5", "simm12", "simm17", "simm22", "simm"}) {
      if (auto index = field(form, name); index >= 0) {
        plan.imm = index;
        break;
      }
    }
  }
  return true;
}

std::optional<Condition> condition_of(std::string_view suffix) {
  if (starts_with(suffix, "EQ")) return Condition::Eq;
  if (starts_with(suffix, "NE")) return Condition::Ne;
  if (starts_with(suffix, "LTU")) return Condition::Ltu;
  if (starts_with(suffix, "GEU")) return Condition::Geu;
  if (starts_with(suffix, "LT")) return Condition::Lt;
  if (starts_with(suffix, "GE")) return Condition::Ge;
  return std::nullopt;
}

// CMP.* and SETC.* (and C.SETC.EQ/NE, HL.CMP.*I, HL.SETC.*I).
bool plan_compare(const isa::FormInfo& form, FormPlan& plan) {
  std::string_view m = form.mnemonic;
  const bool compressed = starts_with(m, "C.");
  if (compressed) m.remove_prefix(2);
  if (starts_with(m, "HL.")) m.remove_prefix(3);
  const bool setc = starts_with(m, "SETC.");
  if (!setc && !starts_with(m, "CMP.")) return false;
  const std::string_view suffix = m.substr(m.find('.') + 1);
  const bool immediate = plan.imm >= 0;
  if (suffix == "TGT") {
    plan.op = Op::SetCommitTarget;
    plan.compressed = compressed;  // SetCompressedCommitTarget: once per block
    return true;
  }
  if (starts_with(suffix, "AND") || starts_with(suffix, "OR")) {
    plan.logical_or = starts_with(suffix, "OR");
    plan.op = setc ? (immediate ? Op::SetCommitLogicalImmediate : Op::SetCommitLogical)
                   : (immediate ? Op::CompareLogicalImmediate : Op::CompareLogical);
  } else if (auto condition = condition_of(suffix)) {
    plan.condition = *condition;
    plan.op = setc ? (immediate ? Op::SetCommitImmediate : Op::SetCommit)
                   : (immediate ? Op::CompareImmediate : Op::Compare);
  } else {
    return false;
  }
  plan.commit_setter = setc;
  if (compressed && !setc) {  // C.CMP.EQI/NEI: t#1 against simm5, ->t
    plan.implicit_srcl = kFirstT;
    plan.implicit_rd = kPushT;
  }
  return true;
}

// The single-destination forms whose plan is the op and its kind.
struct NamedOp {
  std::string_view mnemonic;
  Op op;
  BinaryKind binary;
  bool word;
};
static constexpr NamedOp kNamed[] = {
    {"ADD", Op::Binary, BinaryKind::Add, false},
    {"SUB", Op::Binary, BinaryKind::Sub, false},
    {"AND", Op::Binary, BinaryKind::And, false},
    {"OR", Op::Binary, BinaryKind::Or, false},
    {"XOR", Op::Binary, BinaryKind::Xor, false},
    {"ADDW", Op::Binary, BinaryKind::Add, true},
    {"SUBW", Op::Binary, BinaryKind::Sub, true},
    {"ANDW", Op::Binary, BinaryKind::And, true},
    {"ORW", Op::Binary, BinaryKind::Or, true},
    {"XORW", Op::Binary, BinaryKind::Xor, true},
    {"ADDI", Op::BinaryImmediate, BinaryKind::Add, false},
    {"SUBI", Op::BinaryImmediate, BinaryKind::Sub, false},
    {"ANDI", Op::BinaryImmediate, BinaryKind::And, false},
    {"ORI", Op::BinaryImmediate, BinaryKind::Or, false},
    {"XORI", Op::BinaryImmediate, BinaryKind::Xor, false},
    {"HL.ADDI", Op::BinaryImmediate, BinaryKind::Add, false},
    {"HL.SUBI", Op::BinaryImmediate, BinaryKind::Sub, false},
    {"HL.ANDI", Op::BinaryImmediate, BinaryKind::And, false},
    {"HL.ORI", Op::BinaryImmediate, BinaryKind::Or, false},
    {"HL.XORI", Op::BinaryImmediate, BinaryKind::Xor, false},
    {"ADDIW", Op::BinaryImmediate, BinaryKind::Add, true},
    {"SUBIW", Op::BinaryImmediate, BinaryKind::Sub, true},
    {"ANDIW", Op::BinaryImmediate, BinaryKind::And, true},
    {"ORIW", Op::BinaryImmediate, BinaryKind::Or, true},
    {"XORIW", Op::BinaryImmediate, BinaryKind::Xor, true},
    {"HL.ADDIW", Op::BinaryImmediate, BinaryKind::Add, true},
    {"HL.SUBIW", Op::BinaryImmediate, BinaryKind::Sub, true},
    {"HL.ANDIW", Op::BinaryImmediate, BinaryKind::And, true},
    {"HL.ORIW", Op::BinaryImmediate, BinaryKind::Or, true},
    {"HL.XORIW", Op::BinaryImmediate, BinaryKind::Xor, true},
    {"SLLI", Op::BinaryImmediate, BinaryKind::Sll, false},
    {"SRLI", Op::BinaryImmediate, BinaryKind::Srl, false},
    {"SRAI", Op::BinaryImmediate, BinaryKind::Sra, false},
    {"SLLIW", Op::BinaryImmediate, BinaryKind::Sll, true},
    {"SRLIW", Op::BinaryImmediate, BinaryKind::Srl, true},
    {"SRAIW", Op::BinaryImmediate, BinaryKind::Sra, true},
    {"SLL", Op::RegisterBinary, BinaryKind::Sll, false},
    {"SRL", Op::RegisterBinary, BinaryKind::Srl, false},
    {"SRA", Op::RegisterBinary, BinaryKind::Sra, false},
    {"SLLW", Op::RegisterBinary, BinaryKind::Sll, true},
    {"SRLW", Op::RegisterBinary, BinaryKind::Srl, true},
    {"SRAW", Op::RegisterBinary, BinaryKind::Sra, true},
    {"MIN", Op::RegisterBinary, BinaryKind::Min, false},
    {"MINU", Op::RegisterBinary, BinaryKind::Minu, false},
    {"MAX", Op::RegisterBinary, BinaryKind::Max, false},
    {"MAXU", Op::RegisterBinary, BinaryKind::Maxu, false},
    {"MUL", Op::RegisterBinary, BinaryKind::Mul, false},
    {"MULU", Op::RegisterBinary, BinaryKind::Mul, false},
    // ScalarMultiplyW: both take the low 32 bits of the product.
    {"MULW", Op::RegisterBinary, BinaryKind::Mul, true},
    {"MULUW", Op::RegisterBinary, BinaryKind::Mul, true},
    {"DIV", Op::RegisterBinary, BinaryKind::Div, false},
    {"DIVU", Op::RegisterBinary, BinaryKind::Divu, false},
    {"REM", Op::RegisterBinary, BinaryKind::Rem, false},
    {"REMU", Op::RegisterBinary, BinaryKind::Remu, false},
    {"DIVW", Op::RegisterBinary, BinaryKind::Div, true},
    {"DIVUW", Op::RegisterBinary, BinaryKind::Divu, true},
    {"REMW", Op::RegisterBinary, BinaryKind::Rem, true},
    {"REMUW", Op::RegisterBinary, BinaryKind::Remu, true},
    {"MADD", Op::MultiplyAdd, BinaryKind::Add, false},
    {"MADDW", Op::MultiplyAdd, BinaryKind::Add, true},
    {"HL.MIADD", Op::MultiplyAdd, BinaryKind::Add, false},
    {"HL.MISUB", Op::MultiplyAdd, BinaryKind::Sub, false},
    {"C.ADD", Op::CompressedBinary, BinaryKind::Add, false},
    {"C.SUB", Op::CompressedBinary, BinaryKind::Sub, false},
    {"C.AND", Op::CompressedBinary, BinaryKind::And, false},
    {"C.OR", Op::CompressedBinary, BinaryKind::Or, false},
    {"C.ADDI", Op::CompressedBinary, BinaryKind::Add, false},
    {"C.SLLI", Op::CompressedBinary, BinaryKind::Sll, false},
    {"C.SRLI", Op::CompressedBinary, BinaryKind::Srl, false},
    {"C.MOVR", Op::Move, BinaryKind::Add, false},
    {"ADDTPC", Op::AddToPc, BinaryKind::Add, false},
    {"HL.ADDTPC", Op::AddToPc, BinaryKind::Add, false},
    {"CSEL", Op::Select, BinaryKind::Add, false},
    {"J", Op::Jump, BinaryKind::Add, false},
    {"JR", Op::JumpRegister, BinaryKind::Add, false},
    {"SETRET", Op::SetReturn, BinaryKind::Add, false},
    {"C.SETRET", Op::SetReturn, BinaryKind::Add, false},
    {"HL.SETRET", Op::SetReturn, BinaryKind::Add, false},
    {"SSRGET", Op::SystemRegisterGet, BinaryKind::Add, false},
    {"HL.SSRGET", Op::SystemRegisterGet, BinaryKind::Add, false},
    {"SSRSET", Op::SystemRegisterSet, BinaryKind::Add, false},
    {"HL.SSRSET", Op::SystemRegisterSet, BinaryKind::Add, false},
    {"FENCE.D", Op::Fence, BinaryKind::Add, false},
    {"FENCE.I", Op::Fence, BinaryKind::Add, false},
    {"EBREAK", Op::Breakpoint, BinaryKind::Add, false},
    {"C.EBREAK", Op::Breakpoint, BinaryKind::Add, false},
    {"ASSERT", Op::Assert, BinaryKind::Add, false},
    {"ACRE", Op::EnterRequest, BinaryKind::Add, false},
    {"ACRC", Op::CloseRequest, BinaryKind::Add, false},
    {"C.SSRGET", Op::SystemRegisterGet, BinaryKind::Add, false},
    {"SSRSWAP", Op::SystemRegisterSwap, BinaryKind::Add, false},
    {"LSRGET", Op::LocalStateGet, BinaryKind::Add, false},
    {"BC.IALL", Op::CacheMaintenance, BinaryKind::Add, false},
    {"BC.IVA", Op::CacheMaintenance, BinaryKind::Add, false},
    {"DC.CISW", Op::CacheMaintenance, BinaryKind::Add, false},
    {"DC.CIVA", Op::CacheMaintenance, BinaryKind::Add, false},
    {"DC.CSW", Op::CacheMaintenance, BinaryKind::Add, false},
    {"DC.CVA", Op::CacheMaintenance, BinaryKind::Add, false},
    {"DC.IALL", Op::CacheMaintenance, BinaryKind::Add, false},
    {"DC.ISW", Op::CacheMaintenance, BinaryKind::Add, false},
    {"DC.IVA", Op::CacheMaintenance, BinaryKind::Add, false},
    {"DC.ZVA", Op::CacheMaintenance, BinaryKind::Add, false},
    {"IC.IALL", Op::CacheMaintenance, BinaryKind::Add, false},
    {"IC.IVA", Op::CacheMaintenance, BinaryKind::Add, false},
    {"TLB.IV", Op::TlbInvalidateAddress, BinaryKind::Add, false},
    {"TLB.IAV", Op::TlbInvalidateAddress, BinaryKind::Add, false},
    {"TLB.IA", Op::TlbInvalidateAsid, BinaryKind::Add, false},
    {"TLB.IALL", Op::TlbInvalidateAll, BinaryKind::Add, false},
    {"BSE", Op::ControlRequest, BinaryKind::Add, false},
    {"BWE", Op::ControlRequest, BinaryKind::Add, false},
    {"BWI", Op::ControlRequest, BinaryKind::Add, false},
    {"BWT", Op::ControlRequest, BinaryKind::Add, false},
};

// The two-destination ALU forms (RegDst0, RegDst1).
struct NamedPair {
  std::string_view mnemonic;
  PairKind kind;
  bool word;
};
static constexpr NamedPair kPairs[] = {
    {"HL.MUL", PairKind::Multiply, false},     {"HL.MULU", PairKind::MultiplyUnsigned, false},
    {"HL.MADD", PairKind::MultiplyAdd, false}, {"HL.MADDW", PairKind::MultiplyAdd, true},
    {"HL.DIV", PairKind::Divide, false},       {"HL.DIVU", PairKind::DivideUnsigned, false},
    {"HL.DIVW", PairKind::Divide, true},       {"HL.DIVUW", PairKind::DivideUnsigned, true},
    {"HL.REM", PairKind::Remainder, false},    {"HL.REMU", PairKind::RemainderUnsigned, false},
    {"HL.REMW", PairKind::Remainder, true},    {"HL.REMUW", PairKind::RemainderUnsigned, true},
    {"HL.CCAT", PairKind::Concatenate, false}, {"HL.CCATW", PairKind::Concatenate, true},
};

// The bit-field forms and their fixed widths.
struct NamedBitfield {
  std::string_view mnemonic;
  BitfieldKind kind;
  std::uint8_t fixed_width;  // C.SEXT / C.ZEXT: no imml, result to t
};
static constexpr NamedBitfield kBitfields[] = {
    {"BXS", BitfieldKind::ExtractSigned, 0},
    {"BXU", BitfieldKind::ExtractUnsigned, 0},
    {"CLZ", BitfieldKind::CountLeading, 0},
    {"CTZ", BitfieldKind::CountTrailing, 0},
    {"BCNT", BitfieldKind::Population, 0},
    {"BIC", BitfieldKind::Clear, 0},
    {"BIS", BitfieldKind::Set, 0},
    {"REV", BitfieldKind::ReverseBytes, 0},
    {"HL.BFI", BitfieldKind::Insert, 0},
    {"C.SEXT.B", BitfieldKind::ExtractSigned, 8},
    {"C.SEXT.H", BitfieldKind::ExtractSigned, 16},
    {"C.SEXT.W", BitfieldKind::ExtractSigned, 32},
    {"C.ZEXT.B", BitfieldKind::ExtractUnsigned, 8},
    {"C.ZEXT.H", BitfieldKind::ExtractUnsigned, 16},
    {"C.ZEXT.W", BitfieldKind::ExtractUnsigned, 32},
};

// The FSU forms (asl/scalar/model/dispatch/fsu.asl).
struct NamedFloat {
  std::string_view mnemonic;
  FloatOp op;
  bool signalling;
  numeric::RoundingMode fixed;  // ScalarFPFixedConversionRoundingMode
};
// The forms without a fixed mode round by CORE_STATE[39:37].
constexpr numeric::RoundingMode kActive = numeric::RoundingMode::None;
static constexpr NamedFloat kFloats[] = {
    {"FABS", FloatOp::Abs, false, kActive},
    {"FEXP", FloatOp::Exp, false, kActive},
    {"FRECIP", FloatOp::Reciprocal, false, kActive},
    {"FSQRT", FloatOp::Sqrt, false, kActive},
    {"FADD", FloatOp::Add, false, kActive},
    {"FSUB", FloatOp::Sub, false, kActive},
    {"FMUL", FloatOp::Mul, false, kActive},
    {"FDIV", FloatOp::Div, false, kActive},
    {"FMIN", FloatOp::Min, false, kActive},
    {"FMAX", FloatOp::Max, false, kActive},
    {"FEQ", FloatOp::Equal, false, kActive},
    {"FEQS", FloatOp::Equal, true, kActive},
    {"FNE", FloatOp::NotEqual, false, kActive},
    {"FNES", FloatOp::NotEqual, true, kActive},
    {"FLT", FloatOp::Less, false, kActive},
    {"FLTS", FloatOp::Less, true, kActive},
    {"FGE", FloatOp::GreaterEqual, false, kActive},
    {"FGES", FloatOp::GreaterEqual, true, kActive},
    {"FMADD", FloatOp::MulAdd, false, kActive},
    {"FMSUB", FloatOp::MulSub, false, kActive},
    {"FNMADD", FloatOp::NegMulAdd, false, kActive},
    {"FNMSUB", FloatOp::NegMulSub, false, kActive},
    {"FCVT", FloatOp::Convert, false, kActive},
    {"FCVTA", FloatOp::ConvertToInteger, false, numeric::RoundingMode::RNA},
    {"FCVTM", FloatOp::ConvertToInteger, false, numeric::RoundingMode::RDN},
    {"FCVTN", FloatOp::ConvertToInteger, false, numeric::RoundingMode::RNE},
    {"FCVTP", FloatOp::ConvertToInteger, false, numeric::RoundingMode::RUP},
    {"FCVTZ", FloatOp::ConvertToInteger, false, numeric::RoundingMode::RTZ},
    {"SCVTF", FloatOp::SignedToFloat, false, kActive},
    {"UCVTF", FloatOp::UnsignedToFloat, false, kActive},
};

// The AMO forms (asl/scalar/model/dispatch/amo.asl) and their access sizes;
// SW.*/SD.* have no RegDst, so they return nothing.
struct NamedAtomic {
  std::string_view mnemonic;
  AtomicKind kind;
  AtomicOp op;
  std::uint8_t size;
};
static constexpr NamedAtomic kAtomics[] = {
    {"LR.B", AtomicKind::LoadReserved, AtomicOp::Swap, 1},
    {"LR.H", AtomicKind::LoadReserved, AtomicOp::Swap, 2},
    {"LR.W", AtomicKind::LoadReserved, AtomicOp::Swap, 4},
    {"LR.D", AtomicKind::LoadReserved, AtomicOp::Swap, 8},
    {"SC.B", AtomicKind::StoreConditional, AtomicOp::Swap, 1},
    {"SC.H", AtomicKind::StoreConditional, AtomicOp::Swap, 2},
    {"SC.W", AtomicKind::StoreConditional, AtomicOp::Swap, 4},
    {"SC.D", AtomicKind::StoreConditional, AtomicOp::Swap, 8},
    {"SWAPB", AtomicKind::ReadModifyWrite, AtomicOp::Swap, 1},
    {"SWAPH", AtomicKind::ReadModifyWrite, AtomicOp::Swap, 2},
    {"SWAPW", AtomicKind::ReadModifyWrite, AtomicOp::Swap, 4},
    {"SWAPD", AtomicKind::ReadModifyWrite, AtomicOp::Swap, 8},
    {"LW.ADD", AtomicKind::ReadModifyWrite, AtomicOp::Add, 4},
    {"LW.AND", AtomicKind::ReadModifyWrite, AtomicOp::And, 4},
    {"LW.OR", AtomicKind::ReadModifyWrite, AtomicOp::Or, 4},
    {"LW.XOR", AtomicKind::ReadModifyWrite, AtomicOp::Xor, 4},
    {"LW.SMIN", AtomicKind::ReadModifyWrite, AtomicOp::SignedMin, 4},
    {"LW.SMAX", AtomicKind::ReadModifyWrite, AtomicOp::SignedMax, 4},
    {"LW.UMIN", AtomicKind::ReadModifyWrite, AtomicOp::UnsignedMin, 4},
    {"LW.UMAX", AtomicKind::ReadModifyWrite, AtomicOp::UnsignedMax, 4},
    {"LD.ADD", AtomicKind::ReadModifyWrite, AtomicOp::Add, 8},
    {"LD.AND", AtomicKind::ReadModifyWrite, AtomicOp::And, 8},
    {"LD.OR", AtomicKind::ReadModifyWrite, AtomicOp::Or, 8},
    {"LD.XOR", AtomicKind::ReadModifyWrite, AtomicOp::Xor, 8},
    {"LD.SMIN", AtomicKind::ReadModifyWrite, AtomicOp::SignedMin, 8},
    {"LD.SMAX", AtomicKind::ReadModifyWrite, AtomicOp::SignedMax, 8},
    {"LD.UMIN", AtomicKind::ReadModifyWrite, AtomicOp::UnsignedMin, 8},
    {"LD.UMAX", AtomicKind::ReadModifyWrite, AtomicOp::UnsignedMax, 8},
    {"SW.ADD", AtomicKind::ReadModifyWrite, AtomicOp::Add, 4},
    {"SW.AND", AtomicKind::ReadModifyWrite, AtomicOp::And, 4},
    {"SW.OR", AtomicKind::ReadModifyWrite, AtomicOp::Or, 4},
    {"SW.XOR", AtomicKind::ReadModifyWrite, AtomicOp::Xor, 4},
    {"SW.SMIN", AtomicKind::ReadModifyWrite, AtomicOp::SignedMin, 4},
    {"SW.SMAX", AtomicKind::ReadModifyWrite, AtomicOp::SignedMax, 4},
    {"SW.UMIN", AtomicKind::ReadModifyWrite, AtomicOp::UnsignedMin, 4},
    {"SW.UMAX", AtomicKind::ReadModifyWrite, AtomicOp::UnsignedMax, 4},
    {"SD.ADD", AtomicKind::ReadModifyWrite, AtomicOp::Add, 8},
    {"SD.AND", AtomicKind::ReadModifyWrite, AtomicOp::And, 8},
    {"SD.OR", AtomicKind::ReadModifyWrite, AtomicOp::Or, 8},
    {"SD.XOR", AtomicKind::ReadModifyWrite, AtomicOp::Xor, 8},
    {"SD.SMIN", AtomicKind::ReadModifyWrite, AtomicOp::SignedMin, 8},
    {"SD.SMAX", AtomicKind::ReadModifyWrite, AtomicOp::SignedMax, 8},
    {"SD.UMIN", AtomicKind::ReadModifyWrite, AtomicOp::UnsignedMin, 8},
    {"SD.UMAX", AtomicKind::ReadModifyWrite, AtomicOp::UnsignedMax, 8},
    {"CASB", AtomicKind::CompareAndSwap, AtomicOp::Swap, 1},
    {"HL.CASB", AtomicKind::CompareAndSwap, AtomicOp::Swap, 1},
    {"CASH", AtomicKind::CompareAndSwap, AtomicOp::Swap, 2},
    {"HL.CASH", AtomicKind::CompareAndSwap, AtomicOp::Swap, 2},
    {"CASW", AtomicKind::CompareAndSwap, AtomicOp::Swap, 4},
    {"HL.CASW", AtomicKind::CompareAndSwap, AtomicOp::Swap, 4},
    {"CASD", AtomicKind::CompareAndSwap, AtomicOp::Swap, 8},
    {"HL.CASD", AtomicKind::CompareAndSwap, AtomicOp::Swap, 8},
    {"DMA", AtomicKind::Copy64, AtomicOp::Swap, 64},
};

// The row of a mnemonic-keyed table, or nullptr.
template <class Row, std::size_t N>
const Row* find_row(const Row (&table)[N], std::string_view mnemonic) {
  for (const Row& row : table) {
    if (row.mnemonic == mnemonic) return &row;
  }
  return nullptr;
}

// The single-destination forms whose plan is the op and its kind.
bool plan_named(const isa::FormInfo& form, FormPlan& plan) {
  const std::string_view m = form.mnemonic;
  const NamedOp* named = find_row(kNamed, m);
  if (named == nullptr) return false;
  plan.op = named->op;
  plan.binary = named->binary;
  plan.word = named->word;
  if (plan.op == Op::BinaryImmediate && plan.imm < 0) plan.imm = plan.shamt;  // shifts by shamt
  if (m == "C.SLLI" || m == "C.SRLI") plan.implicit_srcl = kFirstT;
  if (field(form, "imm32") >= 0) plan.imm_bits = 32;  // HL.ADDTPC, HL.SETRET
  if (plan.op == Op::SystemRegisterGet || plan.op == Op::SystemRegisterSet ||
      plan.op == Op::SystemRegisterSwap) {
    plan.imm = field(form, form.mnemonic == "C.SSRGET" ? "SSRID" : "SSR_ID");
    if (plan.rd < 0) plan.implicit_rd = kPushT;  // C.SSRGET -> t
  }
  if (plan.op == Op::LocalStateGet) plan.imm = field(form, "LSR_ID");
  if (plan.op == Op::EnterRequest) plan.imm = field(form, "RRA_Type");
  if (plan.op == Op::CloseRequest) plan.imm = field(form, "RST_Type");
  return true;
}

// The two-destination ALU forms (RegDst0, RegDst1).
bool plan_pair(const isa::FormInfo& form, FormPlan& plan) {
  const NamedPair* named = find_row(kPairs, form.mnemonic);
  if (named == nullptr) return false;
  plan.op = Op::Pair;
  plan.pair = named->kind;
  plan.word = named->word;
  plan.rd = field(form, "RegDst0");
  plan.rd1 = field(form, "RegDst1");
  return true;
}

// The bit-field forms: imm holds the width field (imml, or HL.BFI's first bit
// immr), shamt the offset (imms, REV's immr, HL.BFI's last bit imms).
bool plan_bitfield(const isa::FormInfo& form, FormPlan& plan) {
  const NamedBitfield* named = find_row(kBitfields, form.mnemonic);
  if (named == nullptr) return false;
  plan.op = Op::Bitfield;
  plan.bitfield = named->kind;
  plan.fixed_width = named->fixed_width;
  const bool insert = named->kind == BitfieldKind::Insert;
  const bool reverse = named->kind == BitfieldKind::ReverseBytes;
  plan.imm = field(form, insert ? "immr" : "imml");
  plan.shamt = field(form, insert || !reverse ? "imms" : "immr");
  if (named->fixed_width != 0) plan.implicit_rd = kPushT;
  return true;
}

// The FSU forms: SrcType, DstType and the fused addend SrcA.
bool plan_floating(const isa::FormInfo& form, FormPlan& plan) {
  const NamedFloat* named = find_row(kFloats, form.mnemonic);
  if (named == nullptr) return false;
  plan.op = Op::Floating;
  plan.floating = named->op;
  plan.signalling = named->signalling;
  plan.fixed_rounding = named->fixed;
  plan.rtype = field(form, "SrcType");
  plan.imm = field(form, "DstType");
  plan.srcd = field(form, "SrcA");
  return true;
}

// The AMO forms: the address is SrcL (SC: SrcR), the operand SrcR (SC:
// SrcL), CAS's desired value SrcD. The aq/rl/far flags change nothing in
// this single in-order agent (docs/spec-choices.md).
bool plan_atomic(const isa::FormInfo& form, FormPlan& plan) {
  const NamedAtomic* named = find_row(kAtomics, form.mnemonic);
  if (named == nullptr) return false;
  plan.op = Op::Atomic;
  plan.atomic = named->kind;
  plan.atomic_op = named->op;
  plan.size = named->size;
  return true;
}

void plan_scalar(const isa::FormInfo& form, FormPlan& plan) {
  const std::string_view m = form.mnemonic;
  plan.rd = field(form, "RegDst");
  plan.srcl = field(form, "SrcL");
  plan.srcr = field(form, "SrcR");
  plan.srcd = field(form, "SrcD");
  plan.srcp = field(form, "SrcP");
  plan.rtype = field(form, "SrcRType");
  plan.shamt = field(form, "shamt");
  plan.imm = immediate_field(form);
  if (plan.imm == plan.shamt) plan.imm = -1;
  // IsSystemBlockScalarOperation: every SYS form but SETC.TGT and LSRGET.
  plan.system_block = form.semantic_group == "SYS" && m != "SETC.TGT" && m != "LSRGET";
  if (plan_memory(form, plan) || plan_compare(form, plan)) return;
  if (plan_named(form, plan) || plan_pair(form, plan) || plan_bitfield(form, plan)) return;
  if (plan_floating(form, plan) || plan_atomic(form, plan)) return;
  // Immediate materialisation: the value is a pure function of the field.
  if (m == "C.MOVI" || m == "HL.LIS" || m == "HL.LIU") {
    plan.op = Op::MoveImmediate;
  } else if (m == "LUI") {
    plan.op = Op::MoveImmediate;
    plan.imm_shift = 12;
  } else if (m == "HL.LUI") {
    plan.op = Op::MoveImmediate;
    plan.imm_shift = 32;
  }
}

}  // namespace

InstructionPlans::InstructionPlans(isa::IsaRelease release) {
  const auto forms = isa::all_forms();
  plans_.resize(forms.size());
  for (std::size_t i = 0; i < forms.size(); ++i) {
    const isa::FormInfo& form = forms[i];
    if (!isa::in_release(form, release)) continue;
    if (form.catalog == isa::Catalog::Command) {
      plan_command(form, plans_[i]);
    } else {
      plan_scalar(form, plans_[i]);
    }
  }
}

std::vector<std::string_view> bound_mnemonics() {
  std::vector<std::string_view> mnemonics;
  for (const NamedOp& row : kNamed)
    mnemonics.push_back(row.mnemonic);
  for (const NamedPair& row : kPairs)
    mnemonics.push_back(row.mnemonic);
  for (const NamedBitfield& row : kBitfields)
    mnemonics.push_back(row.mnemonic);
  for (const NamedFloat& row : kFloats)
    mnemonics.push_back(row.mnemonic);
  for (const NamedAtomic& row : kAtomics)
    mnemonics.push_back(row.mnemonic);
  return mnemonics;
}

std::vector<std::string_view> bound_handlers() {
  std::vector<std::string_view> handlers;
  for (const NamedStandalone& row : kStandalone)
    handlers.push_back(row.handler);
  return handlers;
}

const InstructionPlans& InstructionPlans::for_release(isa::IsaRelease release) {
  static const InstructionPlans snapshot(isa::IsaRelease::Snapshot0583);
  static const InstructionPlans current(isa::IsaRelease::Release0585);
  return release == isa::IsaRelease::Snapshot0583 ? snapshot : current;
}

}  // namespace ptovp::frontend

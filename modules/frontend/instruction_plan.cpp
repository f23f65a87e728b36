#include "frontend/instruction_plan.hpp"

#include <algorithm>
#include <iterator>
#include <string_view>

namespace ptovp::frontend {

using arch::BlockKind;
using arch::TransferType;
using isa::ScalarForm;
using Handler = isa::SemanticHandler;

namespace {

constexpr std::uint8_t kFirstT = 24;  // t#1
constexpr std::uint8_t kPushT = 31;   // ->t

std::int8_t field(const isa::FormInfo& form, std::string_view name) {
  return static_cast<std::int8_t>(isa::field_index(form, name));
}

// The first immediate-like field the form has.
std::int8_t immediate_field(const isa::FormInfo& form) {
  for (std::string_view name :
       {"uimm12", "simm12", "uimm24", "simm24", "simm5", "imm20", "imm", "imm32", "simm32",
        "uimm32", "simm22", "uimm19", "uimm5", "imm4", "imm5", "shamt"}) {
    if (auto index = field(form, name); index >= 0) return index;
  }
  return -1;
}

BlockKind block_kind(isa::StartKind kind) {
  switch (kind) {
    case isa::StartKind::Floating: return BlockKind::Floating;
    case isa::StartKind::System: return BlockKind::System;
    case isa::StartKind::Standard: break;
  }
  return BlockKind::Standard;
}

// BranchType: prepare() reads the transfer from the BrType field.
TransferType transfer_type(isa::StartTransfer transfer) {
  switch (transfer) {
    case isa::StartTransfer::Direct: return TransferType::Direct;
    case isa::StartTransfer::Conditional: return TransferType::Conditional;
    case isa::StartTransfer::Call: return TransferType::Call;
    case isa::StartTransfer::Return: return TransferType::Return;
    case isa::StartTransfer::Indirect: return TransferType::Indirect;
    case isa::StartTransfer::IndirectCall: return TransferType::IndirectCall;
    case isa::StartTransfer::Fallthrough:
    case isa::StartTransfer::BranchType: break;
  }
  return TransferType::Fallthrough;
}

void plan_block_start(const isa::FormInfo& form, FormPlan& plan) {
  plan.op = Op::Start;
  plan.imm = -1;
  for (std::string_view name : {"simm25", "simm17", "simm12"}) {
    if (auto index = field(form, name); index >= 0) plan.imm = index;
  }
  plan.srcd = field(form, "uimm5");  // CALL / ICALL return offset
  // Control starts by form (the generated table); tile starts by the word.
  if (const isa::BlockStartInfo* start = isa::block_start_of(form)) {
    plan.kind = block_kind(start->kind);
    plan.transfer = transfer_type(start->transfer);
    plan.branch_type_field = start->transfer == isa::StartTransfer::BranchType;
  }
  plan.rd = field(form, "BrType");
  // Tile starts carry DataType; their class and function come from the word.
  plan.tile_start = field(form, "DataType") >= 0;
  plan.rtype = field(form, "DataType");
  plan.shamt = field(form, "Mode");
}

// The standalone commands: the templates (a register range and a frame size,
// or three absolute GPRs) and the queue manager commands.
struct NamedStandalone {
  Handler handler;
  Op op;
};
static constexpr NamedStandalone kStandalone[] = {
    {Handler::kExecuteFrameEntry, Op::FrameEntry},
    {Handler::kExecuteFrameExit, Op::FrameExit},
    {Handler::kExecuteFrameReturnAddress, Op::FrameReturnAddress},
    {Handler::kExecuteFrameReturnStack, Op::FrameReturnStack},
    {Handler::kExecuteMemoryCopy, Op::MemoryCopy},
    {Handler::kExecuteMemorySet, Op::MemorySet},
    {Handler::kExecuteQueueMove, Op::QueueMove},
    {Handler::kExecuteQueuePop, Op::QueuePop},
    {Handler::kExecuteQueuePush, Op::QueuePush},
};

bool plan_standalone(const isa::FormInfo& form, FormPlan& plan) {
  for (const NamedStandalone& row : kStandalone) {
    if (row.handler != form.handler) continue;
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

// The block commands, by their handler.
void plan_command(const isa::FormInfo& form, FormPlan& plan) {
  if (plan_standalone(form, plan)) return;
  switch (form.handler) {
    case Handler::kExecuteBundleStart: plan_block_start(form, plan); break;
    case Handler::kExecuteBundleStop: plan.op = Op::Stop; break;
    case Handler::kSetBundleControlAttributes: plan.op = Op::ControlAttributes; break;
    case Handler::kSetBundleDataAttributes: plan.op = Op::DataAttributes; break;
    case Handler::kSetBundleFixedPointAttributes: plan.op = Op::FpAttributes; break;
    case Handler::kBindBundleScalarIO: plan.op = Op::ScalarBinding; break;
    case Handler::kBindBundleTileIO: plan.op = Op::TileBinding; break;
    case Handler::kBindBundleSharedIO: plan.op = Op::SharedBinding; break;
    case Handler::kSetBundleHint:
      plan.op = field(form, "B/E") >= 0 ? Op::HintTrace : Op::Hint;
      plan.imm = field(form, "B/E");  // TRACE: begin (0) or end (1)
      break;
    case Handler::kSetBundleDimension:
      // B.DIM: LB[form bits 14:12] = RegSrc + uimm17; C.B.DIMI: LB[LoopNest] = imm8.
      plan.op = field(form, "RegSrc") >= 0 ? Op::Dimension : Op::DimensionImmediate;
      plan.dimension = static_cast<std::uint8_t>((form.match >> 12) & 3);
      plan.srcl = field(form, "RegSrc");
      plan.rd = field(form, "LoopNest");
      plan.imm = field(form, plan.op == Op::Dimension ? "uimm17" : "imm8");
      break;
    default: break;  // ESAVE, ERCOV, XB: reserved in PTO
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

// The condition of each CMP.*/SETC.* form and of its C./HL. forms (the
// handler says compare or set-commit).
struct NamedCondition {
  ScalarForm form;
  Condition condition;
};
static constexpr NamedCondition kConditions[] = {
    {ScalarForm::kCMP_EQ, Condition::Eq},       {ScalarForm::kCMP_EQI, Condition::Eq},
    {ScalarForm::kC_CMP_EQI, Condition::Eq},    {ScalarForm::kHL_CMP_EQI, Condition::Eq},
    {ScalarForm::kSETC_EQ, Condition::Eq},      {ScalarForm::kSETC_EQI, Condition::Eq},
    {ScalarForm::kC_SETC_EQ, Condition::Eq},    {ScalarForm::kHL_SETC_EQI, Condition::Eq},
    {ScalarForm::kCMP_NE, Condition::Ne},       {ScalarForm::kCMP_NEI, Condition::Ne},
    {ScalarForm::kC_CMP_NEI, Condition::Ne},    {ScalarForm::kHL_CMP_NEI, Condition::Ne},
    {ScalarForm::kSETC_NE, Condition::Ne},      {ScalarForm::kSETC_NEI, Condition::Ne},
    {ScalarForm::kC_SETC_NE, Condition::Ne},    {ScalarForm::kHL_SETC_NEI, Condition::Ne},
    {ScalarForm::kCMP_LT, Condition::Lt},       {ScalarForm::kCMP_LTI, Condition::Lt},
    {ScalarForm::kHL_CMP_LTI, Condition::Lt},   {ScalarForm::kSETC_LT, Condition::Lt},
    {ScalarForm::kSETC_LTI, Condition::Lt},     {ScalarForm::kHL_SETC_LTI, Condition::Lt},
    {ScalarForm::kCMP_GE, Condition::Ge},       {ScalarForm::kCMP_GEI, Condition::Ge},
    {ScalarForm::kHL_CMP_GEI, Condition::Ge},   {ScalarForm::kSETC_GE, Condition::Ge},
    {ScalarForm::kSETC_GEI, Condition::Ge},     {ScalarForm::kHL_SETC_GEI, Condition::Ge},
    {ScalarForm::kCMP_LTU, Condition::Ltu},     {ScalarForm::kCMP_LTUI, Condition::Ltu},
    {ScalarForm::kHL_CMP_LTUI, Condition::Ltu}, {ScalarForm::kSETC_LTU, Condition::Ltu},
    {ScalarForm::kSETC_LTUI, Condition::Ltu},   {ScalarForm::kHL_SETC_LTUI, Condition::Ltu},
    {ScalarForm::kCMP_GEU, Condition::Geu},     {ScalarForm::kCMP_GEUI, Condition::Geu},
    {ScalarForm::kHL_CMP_GEUI, Condition::Geu}, {ScalarForm::kSETC_GEU, Condition::Geu},
    {ScalarForm::kSETC_GEUI, Condition::Geu},   {ScalarForm::kHL_SETC_GEUI, Condition::Geu},
};

// The logical CMP/SETC forms: the OR or the AND of two comparisons.
struct NamedLogical {
  ScalarForm form;
  bool logical_or;
};
static constexpr NamedLogical kLogicals[] = {
    {ScalarForm::kCMP_AND, false},     {ScalarForm::kCMP_ANDI, false},
    {ScalarForm::kHL_CMP_ANDI, false}, {ScalarForm::kSETC_AND, false},
    {ScalarForm::kSETC_ANDI, false},   {ScalarForm::kHL_SETC_ANDI, false},
    {ScalarForm::kCMP_OR, true},       {ScalarForm::kCMP_ORI, true},
    {ScalarForm::kHL_CMP_ORI, true},   {ScalarForm::kSETC_OR, true},
    {ScalarForm::kSETC_ORI, true},     {ScalarForm::kHL_SETC_ORI, true},
};

// The single-destination forms whose plan is the op and its kind.
struct NamedOp {
  ScalarForm form;
  Op op;
  BinaryKind binary;
  bool word;
};
static constexpr NamedOp kNamed[] = {
    {ScalarForm::kADD, Op::Binary, BinaryKind::Add, false},
    {ScalarForm::kSUB, Op::Binary, BinaryKind::Sub, false},
    {ScalarForm::kAND, Op::Binary, BinaryKind::And, false},
    {ScalarForm::kOR, Op::Binary, BinaryKind::Or, false},
    {ScalarForm::kXOR, Op::Binary, BinaryKind::Xor, false},
    {ScalarForm::kADDW, Op::Binary, BinaryKind::Add, true},
    {ScalarForm::kSUBW, Op::Binary, BinaryKind::Sub, true},
    {ScalarForm::kANDW, Op::Binary, BinaryKind::And, true},
    {ScalarForm::kORW, Op::Binary, BinaryKind::Or, true},
    {ScalarForm::kXORW, Op::Binary, BinaryKind::Xor, true},
    {ScalarForm::kADDI, Op::BinaryImmediate, BinaryKind::Add, false},
    {ScalarForm::kSUBI, Op::BinaryImmediate, BinaryKind::Sub, false},
    {ScalarForm::kANDI, Op::BinaryImmediate, BinaryKind::And, false},
    {ScalarForm::kORI, Op::BinaryImmediate, BinaryKind::Or, false},
    {ScalarForm::kXORI, Op::BinaryImmediate, BinaryKind::Xor, false},
    {ScalarForm::kHL_ADDI, Op::BinaryImmediate, BinaryKind::Add, false},
    {ScalarForm::kHL_SUBI, Op::BinaryImmediate, BinaryKind::Sub, false},
    {ScalarForm::kHL_ANDI, Op::BinaryImmediate, BinaryKind::And, false},
    {ScalarForm::kHL_ORI, Op::BinaryImmediate, BinaryKind::Or, false},
    {ScalarForm::kHL_XORI, Op::BinaryImmediate, BinaryKind::Xor, false},
    {ScalarForm::kADDIW, Op::BinaryImmediate, BinaryKind::Add, true},
    {ScalarForm::kSUBIW, Op::BinaryImmediate, BinaryKind::Sub, true},
    {ScalarForm::kANDIW, Op::BinaryImmediate, BinaryKind::And, true},
    {ScalarForm::kORIW, Op::BinaryImmediate, BinaryKind::Or, true},
    {ScalarForm::kXORIW, Op::BinaryImmediate, BinaryKind::Xor, true},
    {ScalarForm::kHL_ADDIW, Op::BinaryImmediate, BinaryKind::Add, true},
    {ScalarForm::kHL_SUBIW, Op::BinaryImmediate, BinaryKind::Sub, true},
    {ScalarForm::kHL_ANDIW, Op::BinaryImmediate, BinaryKind::And, true},
    {ScalarForm::kHL_ORIW, Op::BinaryImmediate, BinaryKind::Or, true},
    {ScalarForm::kHL_XORIW, Op::BinaryImmediate, BinaryKind::Xor, true},
    {ScalarForm::kSLLI, Op::BinaryImmediate, BinaryKind::Sll, false},
    {ScalarForm::kSRLI, Op::BinaryImmediate, BinaryKind::Srl, false},
    {ScalarForm::kSRAI, Op::BinaryImmediate, BinaryKind::Sra, false},
    {ScalarForm::kSLLIW, Op::BinaryImmediate, BinaryKind::Sll, true},
    {ScalarForm::kSRLIW, Op::BinaryImmediate, BinaryKind::Srl, true},
    {ScalarForm::kSRAIW, Op::BinaryImmediate, BinaryKind::Sra, true},
    {ScalarForm::kSLL, Op::RegisterBinary, BinaryKind::Sll, false},
    {ScalarForm::kSRL, Op::RegisterBinary, BinaryKind::Srl, false},
    {ScalarForm::kSRA, Op::RegisterBinary, BinaryKind::Sra, false},
    {ScalarForm::kSLLW, Op::RegisterBinary, BinaryKind::Sll, true},
    {ScalarForm::kSRLW, Op::RegisterBinary, BinaryKind::Srl, true},
    {ScalarForm::kSRAW, Op::RegisterBinary, BinaryKind::Sra, true},
    {ScalarForm::kMIN, Op::RegisterBinary, BinaryKind::Min, false},
    {ScalarForm::kMINU, Op::RegisterBinary, BinaryKind::Minu, false},
    {ScalarForm::kMAX, Op::RegisterBinary, BinaryKind::Max, false},
    {ScalarForm::kMAXU, Op::RegisterBinary, BinaryKind::Maxu, false},
    {ScalarForm::kMUL, Op::RegisterBinary, BinaryKind::Mul, false},
    {ScalarForm::kMULU, Op::RegisterBinary, BinaryKind::Mul, false},
    // ScalarMultiplyW: both take the low 32 bits of the product.
    {ScalarForm::kMULW, Op::RegisterBinary, BinaryKind::Mul, true},
    {ScalarForm::kMULUW, Op::RegisterBinary, BinaryKind::Mul, true},
    {ScalarForm::kDIV, Op::RegisterBinary, BinaryKind::Div, false},
    {ScalarForm::kDIVU, Op::RegisterBinary, BinaryKind::Divu, false},
    {ScalarForm::kREM, Op::RegisterBinary, BinaryKind::Rem, false},
    {ScalarForm::kREMU, Op::RegisterBinary, BinaryKind::Remu, false},
    {ScalarForm::kDIVW, Op::RegisterBinary, BinaryKind::Div, true},
    {ScalarForm::kDIVUW, Op::RegisterBinary, BinaryKind::Divu, true},
    {ScalarForm::kREMW, Op::RegisterBinary, BinaryKind::Rem, true},
    {ScalarForm::kREMUW, Op::RegisterBinary, BinaryKind::Remu, true},
    {ScalarForm::kMADD, Op::MultiplyAdd, BinaryKind::Add, false},
    {ScalarForm::kMADDW, Op::MultiplyAdd, BinaryKind::Add, true},
    {ScalarForm::kHL_MIADD, Op::MultiplyAdd, BinaryKind::Add, false},
    {ScalarForm::kHL_MISUB, Op::MultiplyAdd, BinaryKind::Sub, false},
    {ScalarForm::kC_ADD, Op::CompressedBinary, BinaryKind::Add, false},
    {ScalarForm::kC_SUB, Op::CompressedBinary, BinaryKind::Sub, false},
    {ScalarForm::kC_AND, Op::CompressedBinary, BinaryKind::And, false},
    {ScalarForm::kC_OR, Op::CompressedBinary, BinaryKind::Or, false},
    {ScalarForm::kC_ADDI, Op::CompressedBinary, BinaryKind::Add, false},
    {ScalarForm::kC_SLLI, Op::CompressedBinary, BinaryKind::Sll, false},
    {ScalarForm::kC_SRLI, Op::CompressedBinary, BinaryKind::Srl, false},
    {ScalarForm::kC_MOVR, Op::Move, BinaryKind::Add, false},
    {ScalarForm::kADDTPC, Op::AddToPc, BinaryKind::Add, false},
    {ScalarForm::kHL_ADDTPC, Op::AddToPc, BinaryKind::Add, false},
    {ScalarForm::kCSEL, Op::Select, BinaryKind::Add, false},
    {ScalarForm::kJ, Op::Jump, BinaryKind::Add, false},
    {ScalarForm::kJR, Op::JumpRegister, BinaryKind::Add, false},
    {ScalarForm::kSETRET, Op::SetReturn, BinaryKind::Add, false},
    {ScalarForm::kC_SETRET, Op::SetReturn, BinaryKind::Add, false},
    {ScalarForm::kHL_SETRET, Op::SetReturn, BinaryKind::Add, false},
    {ScalarForm::kSSRGET, Op::SystemRegisterGet, BinaryKind::Add, false},
    {ScalarForm::kHL_SSRGET, Op::SystemRegisterGet, BinaryKind::Add, false},
    {ScalarForm::kSSRSET, Op::SystemRegisterSet, BinaryKind::Add, false},
    {ScalarForm::kHL_SSRSET, Op::SystemRegisterSet, BinaryKind::Add, false},
    {ScalarForm::kFENCE_D, Op::Fence, BinaryKind::Add, false},
    {ScalarForm::kFENCE_I, Op::Fence, BinaryKind::Add, false},
    {ScalarForm::kEBREAK, Op::Breakpoint, BinaryKind::Add, false},
    {ScalarForm::kC_EBREAK, Op::Breakpoint, BinaryKind::Add, false},
    {ScalarForm::kASSERT, Op::Assert, BinaryKind::Add, false},
    {ScalarForm::kACRE, Op::EnterRequest, BinaryKind::Add, false},
    {ScalarForm::kACRC, Op::CloseRequest, BinaryKind::Add, false},
    {ScalarForm::kC_SSRGET, Op::SystemRegisterGet, BinaryKind::Add, false},
    {ScalarForm::kSSRSWAP, Op::SystemRegisterSwap, BinaryKind::Add, false},
    {ScalarForm::kLSRGET, Op::LocalStateGet, BinaryKind::Add, false},
    {ScalarForm::kBC_IALL, Op::CacheMaintenance, BinaryKind::Add, false},
    {ScalarForm::kBC_IVA, Op::CacheMaintenance, BinaryKind::Add, false},
    {ScalarForm::kDC_CISW, Op::CacheMaintenance, BinaryKind::Add, false},
    {ScalarForm::kDC_CIVA, Op::CacheMaintenance, BinaryKind::Add, false},
    {ScalarForm::kDC_CSW, Op::CacheMaintenance, BinaryKind::Add, false},
    {ScalarForm::kDC_CVA, Op::CacheMaintenance, BinaryKind::Add, false},
    {ScalarForm::kDC_IALL, Op::CacheMaintenance, BinaryKind::Add, false},
    {ScalarForm::kDC_ISW, Op::CacheMaintenance, BinaryKind::Add, false},
    {ScalarForm::kDC_IVA, Op::CacheMaintenance, BinaryKind::Add, false},
    {ScalarForm::kDC_ZVA, Op::CacheMaintenance, BinaryKind::Add, false},
    {ScalarForm::kIC_IALL, Op::CacheMaintenance, BinaryKind::Add, false},
    {ScalarForm::kIC_IVA, Op::CacheMaintenance, BinaryKind::Add, false},
    {ScalarForm::kTLB_IV, Op::TlbInvalidateAddress, BinaryKind::Add, false},
    {ScalarForm::kTLB_IAV, Op::TlbInvalidateAddress, BinaryKind::Add, false},
    {ScalarForm::kTLB_IA, Op::TlbInvalidateAsid, BinaryKind::Add, false},
    {ScalarForm::kTLB_IALL, Op::TlbInvalidateAll, BinaryKind::Add, false},
    {ScalarForm::kBSE, Op::ControlRequest, BinaryKind::Add, false},
    {ScalarForm::kBWE, Op::ControlRequest, BinaryKind::Add, false},
    {ScalarForm::kBWI, Op::ControlRequest, BinaryKind::Add, false},
    {ScalarForm::kBWT, Op::ControlRequest, BinaryKind::Add, false},
};

// The two-destination ALU forms (RegDst0, RegDst1).
struct NamedPair {
  ScalarForm form;
  PairKind kind;
  bool word;
};
static constexpr NamedPair kPairs[] = {
    {ScalarForm::kHL_MUL, PairKind::Multiply, false},
    {ScalarForm::kHL_MULU, PairKind::MultiplyUnsigned, false},
    {ScalarForm::kHL_MADD, PairKind::MultiplyAdd, false},
    {ScalarForm::kHL_MADDW, PairKind::MultiplyAdd, true},
    {ScalarForm::kHL_DIV, PairKind::Divide, false},
    {ScalarForm::kHL_DIVU, PairKind::DivideUnsigned, false},
    {ScalarForm::kHL_DIVW, PairKind::Divide, true},
    {ScalarForm::kHL_DIVUW, PairKind::DivideUnsigned, true},
    {ScalarForm::kHL_REM, PairKind::Remainder, false},
    {ScalarForm::kHL_REMU, PairKind::RemainderUnsigned, false},
    {ScalarForm::kHL_REMW, PairKind::Remainder, true},
    {ScalarForm::kHL_REMUW, PairKind::RemainderUnsigned, true},
    {ScalarForm::kHL_CCAT, PairKind::Concatenate, false},
    {ScalarForm::kHL_CCATW, PairKind::Concatenate, true},
};

// The bit-field forms and their fixed widths.
struct NamedBitfield {
  ScalarForm form;
  BitfieldKind kind;
  std::uint8_t fixed_width;  // C.SEXT / C.ZEXT: no imml, result to t
};
static constexpr NamedBitfield kBitfields[] = {
    {ScalarForm::kBXS, BitfieldKind::ExtractSigned, 0},
    {ScalarForm::kBXU, BitfieldKind::ExtractUnsigned, 0},
    {ScalarForm::kCLZ, BitfieldKind::CountLeading, 0},
    {ScalarForm::kCTZ, BitfieldKind::CountTrailing, 0},
    {ScalarForm::kBCNT, BitfieldKind::Population, 0},
    {ScalarForm::kBIC, BitfieldKind::Clear, 0},
    {ScalarForm::kBIS, BitfieldKind::Set, 0},
    {ScalarForm::kREV, BitfieldKind::ReverseBytes, 0},
    {ScalarForm::kHL_BFI, BitfieldKind::Insert, 0},
    {ScalarForm::kC_SEXT_B, BitfieldKind::ExtractSigned, 8},
    {ScalarForm::kC_SEXT_H, BitfieldKind::ExtractSigned, 16},
    {ScalarForm::kC_SEXT_W, BitfieldKind::ExtractSigned, 32},
    {ScalarForm::kC_ZEXT_B, BitfieldKind::ExtractUnsigned, 8},
    {ScalarForm::kC_ZEXT_H, BitfieldKind::ExtractUnsigned, 16},
    {ScalarForm::kC_ZEXT_W, BitfieldKind::ExtractUnsigned, 32},
};

// The FSU forms (asl/scalar/model/dispatch/fsu.asl).
struct NamedFloat {
  ScalarForm form;
  FloatOp op;
  bool signalling;
  numeric::RoundingMode fixed;  // ScalarFPFixedConversionRoundingMode
};
// The forms without a fixed mode round by CORE_STATE[39:37].
constexpr numeric::RoundingMode kActive = numeric::RoundingMode::None;
static constexpr NamedFloat kFloats[] = {
    {ScalarForm::kFABS, FloatOp::Abs, false, kActive},
    {ScalarForm::kFEXP, FloatOp::Exp, false, kActive},
    {ScalarForm::kFRECIP, FloatOp::Reciprocal, false, kActive},
    {ScalarForm::kFSQRT, FloatOp::Sqrt, false, kActive},
    {ScalarForm::kFADD, FloatOp::Add, false, kActive},
    {ScalarForm::kFSUB, FloatOp::Sub, false, kActive},
    {ScalarForm::kFMUL, FloatOp::Mul, false, kActive},
    {ScalarForm::kFDIV, FloatOp::Div, false, kActive},
    {ScalarForm::kFMIN, FloatOp::Min, false, kActive},
    {ScalarForm::kFMAX, FloatOp::Max, false, kActive},
    {ScalarForm::kFEQ, FloatOp::Equal, false, kActive},
    {ScalarForm::kFEQS, FloatOp::Equal, true, kActive},
    {ScalarForm::kFNE, FloatOp::NotEqual, false, kActive},
    {ScalarForm::kFNES, FloatOp::NotEqual, true, kActive},
    {ScalarForm::kFLT, FloatOp::Less, false, kActive},
    {ScalarForm::kFLTS, FloatOp::Less, true, kActive},
    {ScalarForm::kFGE, FloatOp::GreaterEqual, false, kActive},
    {ScalarForm::kFGES, FloatOp::GreaterEqual, true, kActive},
    {ScalarForm::kFMADD, FloatOp::MulAdd, false, kActive},
    {ScalarForm::kFMSUB, FloatOp::MulSub, false, kActive},
    {ScalarForm::kFNMADD, FloatOp::NegMulAdd, false, kActive},
    {ScalarForm::kFNMSUB, FloatOp::NegMulSub, false, kActive},
    {ScalarForm::kFCVT, FloatOp::Convert, false, kActive},
    {ScalarForm::kFCVTA, FloatOp::ConvertToInteger, false, numeric::RoundingMode::RNA},
    {ScalarForm::kFCVTM, FloatOp::ConvertToInteger, false, numeric::RoundingMode::RDN},
    {ScalarForm::kFCVTN, FloatOp::ConvertToInteger, false, numeric::RoundingMode::RNE},
    {ScalarForm::kFCVTP, FloatOp::ConvertToInteger, false, numeric::RoundingMode::RUP},
    {ScalarForm::kFCVTZ, FloatOp::ConvertToInteger, false, numeric::RoundingMode::RTZ},
    {ScalarForm::kSCVTF, FloatOp::SignedToFloat, false, kActive},
    {ScalarForm::kUCVTF, FloatOp::UnsignedToFloat, false, kActive},
};

// The AMO forms (asl/scalar/model/dispatch/amo.asl) and their access sizes;
// SW.*/SD.* have no RegDst, so they return nothing.
struct NamedAtomic {
  ScalarForm form;
  AtomicKind kind;
  AtomicOp op;
  std::uint8_t size;
};
static constexpr NamedAtomic kAtomics[] = {
    {ScalarForm::kLR_B, AtomicKind::LoadReserved, AtomicOp::Swap, 1},
    {ScalarForm::kLR_H, AtomicKind::LoadReserved, AtomicOp::Swap, 2},
    {ScalarForm::kLR_W, AtomicKind::LoadReserved, AtomicOp::Swap, 4},
    {ScalarForm::kLR_D, AtomicKind::LoadReserved, AtomicOp::Swap, 8},
    {ScalarForm::kSC_B, AtomicKind::StoreConditional, AtomicOp::Swap, 1},
    {ScalarForm::kSC_H, AtomicKind::StoreConditional, AtomicOp::Swap, 2},
    {ScalarForm::kSC_W, AtomicKind::StoreConditional, AtomicOp::Swap, 4},
    {ScalarForm::kSC_D, AtomicKind::StoreConditional, AtomicOp::Swap, 8},
    {ScalarForm::kSWAPB, AtomicKind::ReadModifyWrite, AtomicOp::Swap, 1},
    {ScalarForm::kSWAPH, AtomicKind::ReadModifyWrite, AtomicOp::Swap, 2},
    {ScalarForm::kSWAPW, AtomicKind::ReadModifyWrite, AtomicOp::Swap, 4},
    {ScalarForm::kSWAPD, AtomicKind::ReadModifyWrite, AtomicOp::Swap, 8},
    {ScalarForm::kLW_ADD, AtomicKind::ReadModifyWrite, AtomicOp::Add, 4},
    {ScalarForm::kLW_AND, AtomicKind::ReadModifyWrite, AtomicOp::And, 4},
    {ScalarForm::kLW_OR, AtomicKind::ReadModifyWrite, AtomicOp::Or, 4},
    {ScalarForm::kLW_XOR, AtomicKind::ReadModifyWrite, AtomicOp::Xor, 4},
    {ScalarForm::kLW_SMIN, AtomicKind::ReadModifyWrite, AtomicOp::SignedMin, 4},
    {ScalarForm::kLW_SMAX, AtomicKind::ReadModifyWrite, AtomicOp::SignedMax, 4},
    {ScalarForm::kLW_UMIN, AtomicKind::ReadModifyWrite, AtomicOp::UnsignedMin, 4},
    {ScalarForm::kLW_UMAX, AtomicKind::ReadModifyWrite, AtomicOp::UnsignedMax, 4},
    {ScalarForm::kLD_ADD, AtomicKind::ReadModifyWrite, AtomicOp::Add, 8},
    {ScalarForm::kLD_AND, AtomicKind::ReadModifyWrite, AtomicOp::And, 8},
    {ScalarForm::kLD_OR, AtomicKind::ReadModifyWrite, AtomicOp::Or, 8},
    {ScalarForm::kLD_XOR, AtomicKind::ReadModifyWrite, AtomicOp::Xor, 8},
    {ScalarForm::kLD_SMIN, AtomicKind::ReadModifyWrite, AtomicOp::SignedMin, 8},
    {ScalarForm::kLD_SMAX, AtomicKind::ReadModifyWrite, AtomicOp::SignedMax, 8},
    {ScalarForm::kLD_UMIN, AtomicKind::ReadModifyWrite, AtomicOp::UnsignedMin, 8},
    {ScalarForm::kLD_UMAX, AtomicKind::ReadModifyWrite, AtomicOp::UnsignedMax, 8},
    {ScalarForm::kSW_ADD, AtomicKind::ReadModifyWrite, AtomicOp::Add, 4},
    {ScalarForm::kSW_AND, AtomicKind::ReadModifyWrite, AtomicOp::And, 4},
    {ScalarForm::kSW_OR, AtomicKind::ReadModifyWrite, AtomicOp::Or, 4},
    {ScalarForm::kSW_XOR, AtomicKind::ReadModifyWrite, AtomicOp::Xor, 4},
    {ScalarForm::kSW_SMIN, AtomicKind::ReadModifyWrite, AtomicOp::SignedMin, 4},
    {ScalarForm::kSW_SMAX, AtomicKind::ReadModifyWrite, AtomicOp::SignedMax, 4},
    {ScalarForm::kSW_UMIN, AtomicKind::ReadModifyWrite, AtomicOp::UnsignedMin, 4},
    {ScalarForm::kSW_UMAX, AtomicKind::ReadModifyWrite, AtomicOp::UnsignedMax, 4},
    {ScalarForm::kSD_ADD, AtomicKind::ReadModifyWrite, AtomicOp::Add, 8},
    {ScalarForm::kSD_AND, AtomicKind::ReadModifyWrite, AtomicOp::And, 8},
    {ScalarForm::kSD_OR, AtomicKind::ReadModifyWrite, AtomicOp::Or, 8},
    {ScalarForm::kSD_XOR, AtomicKind::ReadModifyWrite, AtomicOp::Xor, 8},
    {ScalarForm::kSD_SMIN, AtomicKind::ReadModifyWrite, AtomicOp::SignedMin, 8},
    {ScalarForm::kSD_SMAX, AtomicKind::ReadModifyWrite, AtomicOp::SignedMax, 8},
    {ScalarForm::kSD_UMIN, AtomicKind::ReadModifyWrite, AtomicOp::UnsignedMin, 8},
    {ScalarForm::kSD_UMAX, AtomicKind::ReadModifyWrite, AtomicOp::UnsignedMax, 8},
    {ScalarForm::kCASB, AtomicKind::CompareAndSwap, AtomicOp::Swap, 1},
    {ScalarForm::kHL_CASB, AtomicKind::CompareAndSwap, AtomicOp::Swap, 1},
    {ScalarForm::kCASH, AtomicKind::CompareAndSwap, AtomicOp::Swap, 2},
    {ScalarForm::kHL_CASH, AtomicKind::CompareAndSwap, AtomicOp::Swap, 2},
    {ScalarForm::kCASW, AtomicKind::CompareAndSwap, AtomicOp::Swap, 4},
    {ScalarForm::kHL_CASW, AtomicKind::CompareAndSwap, AtomicOp::Swap, 4},
    {ScalarForm::kCASD, AtomicKind::CompareAndSwap, AtomicOp::Swap, 8},
    {ScalarForm::kHL_CASD, AtomicKind::CompareAndSwap, AtomicOp::Swap, 8},
    {ScalarForm::kDMA, AtomicKind::Copy64, AtomicOp::Swap, 64},
};

// The row of a form-keyed table, or nullptr.
template <class Row, std::size_t N>
const Row* find_row(const Row (&table)[N], const isa::FormInfo& form) {
  const ScalarForm id = isa::scalar_form_id(form);
  for (const Row& row : table) {
    if (row.form == id) return &row;
  }
  return nullptr;
}

// The single-destination forms whose plan is the op and its kind.
bool plan_named(const isa::FormInfo& form, FormPlan& plan) {
  const ScalarForm id = isa::scalar_form_id(form);
  const NamedOp* named = find_row(kNamed, form);
  if (named == nullptr) return false;
  plan.op = named->op;
  plan.binary = named->binary;
  plan.word = named->word;
  if (plan.op == Op::BinaryImmediate && plan.imm < 0) plan.imm = plan.shamt;  // shifts by shamt
  if (id == ScalarForm::kC_SLLI || id == ScalarForm::kC_SRLI) {
    plan.implicit_srcl = kFirstT;
    plan.implicit_srcl_checked = true;
  }
  if (field(form, "imm32") >= 0) plan.imm_bits = 32;  // HL.ADDTPC, HL.SETRET
  if (plan.op == Op::SystemRegisterGet || plan.op == Op::SystemRegisterSet ||
      plan.op == Op::SystemRegisterSwap) {
    plan.imm = field(form, id == ScalarForm::kC_SSRGET ? "SSRID" : "SSR_ID");
    if (plan.rd < 0) plan.implicit_rd = kPushT;  // C.SSRGET -> t
  }
  if (plan.op == Op::LocalStateGet) plan.imm = field(form, "LSR_ID");
  if (plan.op == Op::EnterRequest) plan.imm = field(form, "RRA_Type");
  if (plan.op == Op::CloseRequest) plan.imm = field(form, "RST_Type");
  return true;
}

// The two-destination ALU forms (RegDst0, RegDst1).
bool plan_pair(const isa::FormInfo& form, FormPlan& plan) {
  const NamedPair* named = find_row(kPairs, form);
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
  const NamedBitfield* named = find_row(kBitfields, form);
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

// CMP.*, SETC.* and their C./HL. forms, by handler and form; the 16-bit
// forms are the compressed ones.
bool plan_compare(const isa::FormInfo& form, FormPlan& plan) {
  const bool compressed = form.length_bits == 16;
  const bool immediate = plan.imm >= 0;
  const bool setc = form.handler == Handler::kExecuteSetCommit ||
                    form.handler == Handler::kExecuteSetCommitLogical;
  switch (form.handler) {
    case Handler::kSetCommitTarget:
      plan.op = Op::SetCommitTarget;
      plan.compressed = compressed;  // SetCompressedCommitTarget: once per block
      return true;
    case Handler::kExecuteCompareLogical:
    case Handler::kExecuteSetCommitLogical: {
      const NamedLogical* named = find_row(kLogicals, form);
      if (named == nullptr) return false;
      plan.logical_or = named->logical_or;
      plan.op = setc ? (immediate ? Op::SetCommitLogicalImmediate : Op::SetCommitLogical)
                     : (immediate ? Op::CompareLogicalImmediate : Op::CompareLogical);
      break;
    }
    case Handler::kExecuteCompare:
    case Handler::kExecuteSetCommit: {
      const NamedCondition* named = find_row(kConditions, form);
      if (named == nullptr) return false;
      plan.condition = named->condition;
      plan.op = setc ? (immediate ? Op::SetCommitImmediate : Op::SetCommit)
                     : (immediate ? Op::CompareImmediate : Op::Compare);
      break;
    }
    default: return false;
  }
  plan.commit_setter = setc;
  if (compressed && !setc) {  // C.CMP.EQI/NEI: t#1 against simm5, ->t
    plan.implicit_srcl = kFirstT;
    plan.implicit_rd = kPushT;
  }
  return true;
}

// The FSU forms: SrcType, DstType and the fused addend SrcA.
bool plan_floating(const isa::FormInfo& form, FormPlan& plan) {
  const NamedFloat* named = find_row(kFloats, form);
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
  const NamedAtomic* named = find_row(kAtomics, form);
  if (named == nullptr) return false;
  plan.op = Op::Atomic;
  plan.atomic = named->kind;
  plan.atomic_op = named->op;
  plan.size = named->size;
  return true;
}

// IsSystemBlockScalarOperation (asl/scalar/model/sys/semantics.asl): the
// forms legal only in a SYS block body.
static constexpr ScalarForm kSystemBlockForms[] = {
    ScalarForm::kACRC,    ScalarForm::kACRE,     ScalarForm::kASSERT,    ScalarForm::kBC_IALL,
    ScalarForm::kBC_IVA,  ScalarForm::kBSE,      ScalarForm::kBWE,       ScalarForm::kBWI,
    ScalarForm::kBWT,     ScalarForm::kC_EBREAK, ScalarForm::kC_SSRGET,  ScalarForm::kDC_CISW,
    ScalarForm::kDC_CIVA, ScalarForm::kDC_CSW,   ScalarForm::kDC_CVA,    ScalarForm::kDC_IALL,
    ScalarForm::kDC_ISW,  ScalarForm::kDC_IVA,   ScalarForm::kDC_ZVA,    ScalarForm::kEBREAK,
    ScalarForm::kFENCE_D, ScalarForm::kFENCE_I,  ScalarForm::kHL_SSRGET, ScalarForm::kHL_SSRSET,
    ScalarForm::kIC_IALL, ScalarForm::kIC_IVA,   ScalarForm::kSSRGET,    ScalarForm::kSSRSET,
    ScalarForm::kSSRSWAP, ScalarForm::kTLB_IA,   ScalarForm::kTLB_IALL,  ScalarForm::kTLB_IAV,
    ScalarForm::kTLB_IV,
};

void plan_scalar(const isa::FormInfo& form, FormPlan& plan) {
  const ScalarForm id = isa::scalar_form_id(form);
  plan.rd = field(form, "RegDst");
  plan.srcl = field(form, "SrcL");
  plan.srcr = field(form, "SrcR");
  plan.srcd = field(form, "SrcD");
  plan.srcp = field(form, "SrcP");
  plan.rtype = field(form, "SrcRType");
  plan.shamt = field(form, "shamt");
  plan.imm = immediate_field(form);
  if (plan.imm == plan.shamt) plan.imm = -1;
  plan.system_block = std::find(std::begin(kSystemBlockForms), std::end(kSystemBlockForms), id) !=
                      std::end(kSystemBlockForms);
  if (plan_memory(form, plan) || plan_compare(form, plan)) return;
  if (plan_named(form, plan) || plan_pair(form, plan) || plan_bitfield(form, plan)) return;
  if (plan_floating(form, plan) || plan_atomic(form, plan)) return;
  // Immediate materialisation: the value is a pure function of the field.
  if (id == ScalarForm::kC_MOVI || id == ScalarForm::kHL_LIS || id == ScalarForm::kHL_LIU) {
    plan.op = Op::MoveImmediate;
  } else if (id == ScalarForm::kLUI) {
    plan.op = Op::MoveImmediate;
    plan.imm_shift = 12;
  } else if (id == ScalarForm::kHL_LUI) {
    plan.op = Op::MoveImmediate;
    plan.imm_shift = 32;
  }
}

bool queue_manager(Op op) {
  return op == Op::QueueMove || op == Op::QueuePop || op == Op::QueuePush;
}

// Memory, CORE_STATE and the other system state may be what queued data work
// reads or writes. Register arithmetic, control flow, block commands (a
// block's unit drains when it needs to), queue manager commands and scalar
// floating point (its flags are sticky, so they merge with the queue's in any
// order) are not.
bool drains_data_queue(Op op) {
  switch (op_class(op)) {
    case OpClass::LoadStore:
    case OpClass::Other: return true;
    case OpClass::System: return !queue_manager(op);
    default: return false;
  }
}

}  // namespace

InstructionPlans::InstructionPlans(isa::IsaRelease release) {
  const auto forms = isa::all_forms();
  plans_.resize(forms.size());
  for (std::size_t i = 0; i < forms.size(); ++i) {
    const isa::FormInfo& form = forms[i];
    FormPlan& plan = plans_[i];
    if (!isa::in_release(form, release)) continue;
    if (form.catalog == isa::Catalog::Command) {
      plan_command(form, plan);
    } else {
      plan_scalar(form, plan);
      plan.front_end_checks = plan.commit_setter || plan.system_block ||
                              plan.op == Op::SetCommitTarget ||
                              routed_outside_scalar_unit(plan.op);  // LSRGET among them
    }
    plan.drains_data_queue = drains_data_queue(plan.op);
  }
}

bool routed_outside_scalar_unit(Op op) {
  // Of the other SYS-class ops, ScalarUnit runs FENCE, ASSERT and ACRE, and the
  // queue manager commands are block commands.
  return op_class(op) == OpClass::System && op != Op::Fence && op != Op::Assert &&
         op != Op::EnterRequest && !queue_manager(op);
}

std::string_view op_class_name(OpClass cls) {
  switch (cls) {
    case OpClass::ScalarAlu: return "scalar ALU";
    case OpClass::LoadStore: return "load/store";
    case OpClass::Branch: return "branch";
    case OpClass::BlockStart: return "block start";
    case OpClass::HeaderCommand: return "header command";
    case OpClass::BlockStop: return "block stop";
    case OpClass::System: return "SYS";
    case OpClass::Other: break;
  }
  return "other";
}

OpClass op_class(Op op) {
  switch (op) {
    case Op::Binary:
    case Op::BinaryImmediate:
    case Op::RegisterBinary:
    case Op::CompressedBinary:
    case Op::MultiplyAdd:
    case Op::Pair:
    case Op::Bitfield:
    case Op::Move:
    case Op::MoveImmediate:
    case Op::AddToPc:
    case Op::Compare:
    case Op::CompareImmediate:
    case Op::CompareLogical:
    case Op::CompareLogicalImmediate:
    case Op::Select:
    case Op::SetCommit:
    case Op::SetCommitImmediate:
    case Op::SetCommitLogical:
    case Op::SetCommitLogicalImmediate:
    case Op::SetCommitTarget:
    case Op::SetReturn:
    case Op::Floating: return OpClass::ScalarAlu;
    case Op::Load:
    case Op::Store:
    case Op::Prefetch:
    case Op::Atomic:
    case Op::FrameEntry:
    case Op::FrameExit:
    case Op::FrameReturnAddress:
    case Op::FrameReturnStack:
    case Op::MemoryCopy:
    case Op::MemorySet: return OpClass::LoadStore;
    case Op::Jump:
    case Op::JumpRegister: return OpClass::Branch;
    case Op::Start: return OpClass::BlockStart;
    case Op::ControlAttributes:
    case Op::DataAttributes:
    case Op::FpAttributes:
    case Op::Dimension:
    case Op::DimensionImmediate:
    case Op::Hint:
    case Op::HintTrace:
    case Op::ScalarBinding:
    case Op::TileBinding:
    case Op::SharedBinding: return OpClass::HeaderCommand;
    case Op::Stop: return OpClass::BlockStop;
    case Op::SystemRegisterGet:
    case Op::SystemRegisterSet:
    case Op::SystemRegisterSwap:
    case Op::LocalStateGet:
    case Op::CacheMaintenance:
    case Op::TlbInvalidateAddress:
    case Op::TlbInvalidateAsid:
    case Op::TlbInvalidateAll:
    case Op::ControlRequest:
    case Op::Fence:
    case Op::Breakpoint:
    case Op::Assert:
    case Op::EnterRequest:
    case Op::CloseRequest:
    case Op::QueueMove:
    case Op::QueuePop:
    case Op::QueuePush: return OpClass::System;
    case Op::NotExecuted: break;
  }
  return OpClass::Other;
}

std::vector<isa::ScalarForm> bound_forms() {
  std::vector<ScalarForm> forms;
  for (const NamedOp& row : kNamed)
    forms.push_back(row.form);
  for (const NamedPair& row : kPairs)
    forms.push_back(row.form);
  for (const NamedBitfield& row : kBitfields)
    forms.push_back(row.form);
  for (const NamedFloat& row : kFloats)
    forms.push_back(row.form);
  for (const NamedAtomic& row : kAtomics)
    forms.push_back(row.form);
  for (const NamedCondition& row : kConditions)
    forms.push_back(row.form);
  for (const NamedLogical& row : kLogicals)
    forms.push_back(row.form);
  return forms;
}

std::vector<isa::SemanticHandler> bound_handlers() {
  std::vector<isa::SemanticHandler> handlers;
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

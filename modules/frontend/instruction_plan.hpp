// What the front end does with each decoded form, resolved once per form from
// the catalog (mnemonic, semantic handler and field names) so execution is a
// switch on a small enum and direct field reads, with no string work per
// instruction.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "arch/block_descriptor.hpp"
#include "frontend/scalar_atomic.hpp"
#include "frontend/scalar_fp.hpp"
#include "isa/catalog.hpp"

namespace ptovp::frontend {

enum class Op : std::uint8_t {
  NotExecuted,  // a decoded scalar or command form outside the modelled subset
  // Block commands.
  Start,
  Stop,
  ControlAttributes,
  DataAttributes,
  FpAttributes,
  Dimension,
  DimensionImmediate,
  Hint,
  HintTrace,
  ScalarBinding,
  TileBinding,
  SharedBinding,
  // Template commands (TemplateUnit).
  FrameEntry,          // FENTRY
  FrameExit,           // FEXIT
  FrameReturnAddress,  // FRET.RA
  FrameReturnStack,    // FRET.STK
  MemoryCopy,          // MCOPY
  MemorySet,           // MSET
  // General queue manager commands (flags packed in imm: see prepare()).
  QueueMove,  // HL.QMT
  QueuePop,   // HL.QPOP
  QueuePush,  // HL.QPUSH
  // Scalar ALU.
  Binary,            // ADD/SUB/AND/OR/XOR[W] with SrcRType and shamt
  BinaryImmediate,   // ADDI/SUBI/ANDI/ORI/XORI[W] (and HL.), SLLI/SRLI/SRAI[W]
  RegisterBinary,    // SrcL op SrcR: shifts, MIN/MAX, MUL, DIV/REM [W]
  CompressedBinary,  // C.ADD/C.SUB/C.AND/C.OR/C.ADDI/C.SLLI/C.SRLI -> t
  MultiplyAdd,       // MADD[W] (SrcD + SrcL * SrcR), HL.MIADD/MISUB (SrcL +- SrcR * uimm19)
  Pair,              // HL.MUL/MADD/DIV/REM/CCAT: two destinations
  Bitfield,          // BXS/BXU/CLZ/CTZ/BCNT/BIC/BIS/REV/HL.BFI, C.SEXT/C.ZEXT
  Move,              // C.MOVR
  MoveImmediate,     // C.MOVI, LUI, HL.LIS/LIU/LUI (value prepared at decode)
  AddToPc,
  Compare,
  CompareImmediate,
  CompareLogical,
  CompareLogicalImmediate,
  Select,
  SetCommit,
  SetCommitImmediate,
  SetCommitLogical,
  SetCommitLogicalImmediate,
  SetCommitTarget,
  Jump,
  JumpRegister,
  SetReturn,
  Load,      // every load addressing form, pairs included (isa::AguInfo)
  Store,     // every store addressing form, pairs included
  Prefetch,  // PRF*, HL.PRF*: an address without an access
  Atomic,    // every AMO form (AtomicKind), plan.size bytes
  Floating,  // every FSU form (FloatOp): rtype holds SrcType, imm DstType, srcd SrcA
  // SYS block operations.
  SystemRegisterGet,  // SSRGET, HL.SSRGET, C.SSRGET (-> t)
  SystemRegisterSet,
  SystemRegisterSwap,    // SSRSWAP
  LocalStateGet,         // LSRGET (any block body)
  CacheMaintenance,      // BC.*, DC.*, IC.*
  TlbInvalidateAddress,  // TLB.IV, TLB.IAV
  TlbInvalidateAsid,     // TLB.IA
  TlbInvalidateAll,      // TLB.IALL
  ControlRequest,        // BSE, BWE, BWI, BWT
  Fence,
  Breakpoint,
  Assert,
  EnterRequest,  // ACRE
  CloseRequest,  // ACRC
};

enum class BinaryKind : std::uint8_t {
  Add,
  Sub,
  And,
  Or,
  Xor,
  Sll,
  Srl,
  Sra,
  Min,
  Minu,
  Max,
  Maxu,
  Mul,
  Div,
  Divu,
  Rem,
  Remu,
};
// Op::Pair: what the two destinations receive (asl/scalar/model/alu/semantics.asl).
enum class PairKind : std::uint8_t {
  Multiply,           // HL.MUL: the signed 128-bit product, low then high
  MultiplyUnsigned,   // HL.MULU
  MultiplyAdd,        // HL.MADD[W]: signed product + SrcD
  Divide,             // HL.DIV[W]: quotient then remainder
  DivideUnsigned,     // HL.DIVU[W]
  Remainder,          // HL.REM[W]: remainder then quotient
  RemainderUnsigned,  // HL.REMU[W]
  Concatenate,        // HL.CCAT[W]: SrcL:SrcR shifted right by shamt, low then high
};
// Op::Bitfield (ExtractBitfield, CountBitfield, ModifyBitfield,
// ReverseBitfieldBytes, InsertBitfield).
enum class BitfieldKind : std::uint8_t {
  ExtractSigned,
  ExtractUnsigned,
  CountLeading,
  CountTrailing,
  Population,
  Clear,
  Set,
  ReverseBytes,
  Insert,
};
enum class Condition : std::uint8_t { Eq, Ne, Lt, Ge, Ltu, Geu };

// Field indices within the form (-1 when absent) and the per-form constants.
struct FormPlan {
  Op op = Op::NotExecuted;
  BinaryKind binary = BinaryKind::Add;
  PairKind pair = PairKind::Multiply;
  BitfieldKind bitfield = BitfieldKind::ExtractSigned;
  Condition condition = Condition::Eq;
  FloatOp floating = FloatOp::Add;
  AtomicKind atomic = AtomicKind::ReadModifyWrite;
  AtomicOp atomic_op = AtomicOp::Swap;
  bool signalling = false;  // FEQS/FNES/FLTS/FGES: NV on any NaN
  numeric::RoundingMode fixed_rounding = numeric::RoundingMode::RNE;  // FCVTA/M/N/P/Z
  bool logical_or = false;                                            // CMP.OR / SETC.OR
  bool word = false;           // *W forms: 32-bit operation, result sign-extended
  bool system_block = false;   // legal only in a SYS block body
  bool commit_setter = false;  // SETC.*: legal only in a COND block body
  // Placement rules (SETC*, SETC.TGT, LSRGET, SYS) or executed outside
  // ScalarUnit (EBREAK, ACRC, SystemUnit's forms): the scalar hot path tests
  // this one flag.
  bool front_end_checks = false;
  // Whether the instruction may touch what queued data work reads or writes
  // (arch::DataQueue; docs/functional-model.md "Deferred data work").
  bool drains_data_queue = false;
  std::int8_t rd = -1, srcl = -1, srcr = -1, srcd = -1, srcp = -1, rtype = -1, shamt = -1, imm = -1;
  std::int8_t rd1 = -1;  // Op::Pair: the second destination
  // The selectors a form reads or writes without naming them (C.SLLI reads
  // t#1, C.CMP.EQI and C.SEXT.B write t): used when rd / srcl is absent.
  std::uint8_t implicit_rd = 0, implicit_srcl = 0;
  // ScalarImplicitSourceOperandsLegal: an empty implicit t#1 faults for
  // C.SLLI and C.SRLI (and the compressed stores' data); C.CMP.EQI and
  // C.CMP.NEI read it as it is.
  bool implicit_srcl_checked = false;
  // AddToPc / SetReturn: the immediate's width (imm20, HL. imm32).
  std::uint8_t imm_bits = 20;
  // Op::Bitfield: the field width when the form has no imml (C.SEXT.B: 8).
  std::uint8_t fixed_width = 0;
  // MoveImmediate: value = imm << imm_shift, zero- or sign-extended from imm_bits.
  std::uint8_t imm_shift = 0;
  // Memory access (asl/scalar/model/dispatch/agu.asl).
  std::uint8_t size = 0;
  std::uint8_t scale = 0;
  bool sign_extend = false;
  bool compressed = false;       // C.* forms: implicit t#1 data / ->t result
  bool paired = false;           // LoadPair / StorePair: a second element at address + size
  bool pc_relative = false;      // the base is TPC with bits 1:0 cleared
  bool base_in_srcr = false;     // immediate stores name the base SrcR
  bool returns_address = false;  // HL.PRF*.A / PRFI.UA write the address to RegDst
  isa::AguUpdate update = isa::AguUpdate::None;
  std::int8_t srcd1 = -1;  // StorePair's second element
  // Block starts.
  arch::BlockKind kind = arch::BlockKind::Standard;
  arch::TransferType transfer = arch::TransferType::Fallthrough;
  bool branch_type_field = false;  // C.BSTART.STD/FP: transfer from BrType
  bool tile_start = false;
  std::uint8_t dimension = 0;  // B.DIM target LB
};

// Every scalar form the plan tables bind by id (the tests check each is bound
// once and is a form of the release).
std::vector<isa::ScalarForm> bound_forms();
// Every handler the standalone command table binds (each must be a command
// form's, bound once).
std::vector<isa::SemanticHandler> bound_handlers();

// The scalar ops FrontEnd runs itself (EBREAK, ACRC) or hands to SystemUnit.
bool routed_outside_scalar_unit(Op op);

// What the front end does with an op, the classes `--stats` counts; Other is
// an op outside the modelled subset. Declared in output order.
enum class OpClass : std::uint8_t {
  ScalarAlu,
  LoadStore,
  Branch,
  BlockStart,
  HeaderCommand,
  BlockStop,
  System,
  Other
};
inline constexpr std::size_t kOpClassCount = static_cast<std::size_t>(OpClass::Other) + 1;
OpClass op_class(Op op);
std::string_view op_class_name(OpClass cls);

class InstructionPlans {
 public:
  // The plans of every form of a release, built once.
  static const InstructionPlans& for_release(isa::IsaRelease release = isa::kDefaultRelease);

  const FormPlan& plan(const isa::FormInfo& form) const {
    return plans_[static_cast<std::size_t>(&form - isa::all_forms().begin())];
  }

 private:
  explicit InstructionPlans(isa::IsaRelease release);
  std::vector<FormPlan> plans_;
};

}  // namespace ptovp::frontend

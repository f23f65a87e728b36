// An instruction made ready to execute: its decode, its form's plan, and
// every field value the handlers read, extracted from the word once, when
// the instruction enters the front end's per-PC cache, instead of at each
// execution. A header command carries its whole builder request, which is a
// function of the word alone.
#pragma once

#include <cstdint>
#include <variant>

#include "arch/block_descriptor.hpp"
#include "block_builder/block_builder.hpp"
#include "frontend/instruction_plan.hpp"
#include "isa/decoded_instruction.hpp"

namespace ptovp::frontend {

// What a header command hands to the block builder (B.DIM, B.HINT, B.FPATR
// and stops need nothing beyond the operands below and the word).
using CommandRequest =
    std::variant<std::monostate, block_builder::StartRequest, arch::ControlAttributes,
                 arch::DataAttributes, arch::ScalarBinding, arch::TileBinding, arch::SharedBinding>;

struct PreparedInstruction {
  isa::DecodedInstruction decoded;
  const FormPlan* plan = nullptr;
  std::uint8_t length_bytes = 0;
  // The values of the plan's fields (0, or the plan's implicit selector, when
  // the form has none).
  std::uint8_t rd = 0, rd1 = 0, srcl = 0, srcr = 0, srcd = 0, srcd1 = 0, srcp = 0, rtype = 0,
               shamt = 0;
  // Op::Binary's SrcRType in modify()'s order (see prepare()); 0 for other ops.
  std::uint8_t binary_modifier = 0;
  // A source names a T/U queue entry (or a compressed store reads t#1): its
  // validity is checked before the instruction executes.
  bool reads_queue = false;
  std::uint64_t imm = 0;
  CommandRequest command;
};

// The prepared form of a decoded instruction (legal or not) and its plan.
PreparedInstruction prepare(const isa::DecodedInstruction& decoded, const FormPlan& plan);

}  // namespace ptovp::frontend

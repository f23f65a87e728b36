#!/usr/bin/env python3
"""Extracts the spec's scalar witnesses into tests/vectors/scalar-avs.witness.

    scripts/gen_scalar_avs.py --spec SPEC_CHECKOUT --generated MONOLITHIC.asl

SPEC_CHECKOUT is a checkout of the PTO spec; MONOLITHIC.asl is the output of
its `scripts/generate-asl-decoders --kind monolithic` (the generated
ValidateScalar* functions). The script keeps facts only: for each case the
initial registers, queue entries and memory, the instruction word, and the
expected registers, queues, TPC and fault; for a decode witness the word, its
form and fields. A case using any statement outside that vocabulary is left
out and counted per AVS ID, so docs/avs/scalar.md can say why; an assert the
replay does not check is named in the ID's row (NOT_CHECKED).

Vector format (one directive per line, '#' comments):
    case ID            begins a case named by its AVS ID and ordinal
    agent | carry | profile pto-v0   run as one agent on PE0 | keep the previous
                       case's state | on the raw-carrier FP profile
    check form HEX BITS N | check operation N NAME | check field HEX BITS NAME RAW
    check operand HEX BITS FIELD HEX   decode probes (before or without exec)
    commit_argument HEX  the commit argument
    gpr N HEX          initial GPR N (every PE)
    queue t|u I HEX    initial queue entry I (valid)
    queue_invalid t|u I   entry I made empty
    push t|u HEX       a queue push
    mem ADDR SIZE HEX  initial memory
    tpc HEX | return HEX  TPC, the SETRET return address
    core_state HEX     initial CORE_STATE (FP rounding mode and flags)
    reservation ADDR SIZE  an LR reservation on every PE
    acr N              the current ACR
    block KIND TRANSFER TARGET SEQUENTIAL TAKEN  BSTART state (BeginBundle at the TPC)
    body               the block's body is active (EnterBundleBody)
    bpcn HEX | ssr ADDR HEX | cycle N   BARG.BPCN, a base SSR, the cycle count
    context_register RING LOW HEX   a ring's context register (EVBASE: 0xf01)
    exec HEX BITS      the instruction word and its length
    expect gpr N HEX | expect queue t|u I HEX | expect tpc HEX | expect fault NAME
    expect fault_address HEX | expect return HEX | expect mem ADDR SIZE HEX
    expect flags HEX (CORE_STATE[36:32]) | expect reservation 0|1
    expect reservation_address HEX | expect reservation_size N
    expect bpc HEX | expect bpcn HEX | expect block_type KIND | expect transfer_type TRANSFER
    expect taken 0|1 | expect queue_valid t|u I 0|1 | expect ssr ADDR HEX
    expect trap_number|trap_cause|trap_argument0 RING HEX | expect block_active 0|1
    expect trap_valid|trap_tpc|trap_source_acr RING HEX | expect commit_argument HEX
    expect cycle N | expect gpr_not N HEX | expect acr N
    expect body_active|terminal_pending 0|1
    end
"""

import argparse
import json
import os
import re
import sys

WORD = (1 << 64) - 1


class Unsupported(Exception):
    pass


def split_top(expr):
    """The rightmost top-level binary + or - of expr: (left, op, right) or None."""
    depth = 0
    for i in range(len(expr) - 1, 0, -1):
        c = expr[i]
        if c == ")":
            depth += 1
        elif c == "(":
            depth -= 1
        elif c in "+-" and depth == 0 and expr[i - 1] == " ":
            return expr[:i].strip(), c, expr[i + 1:].strip()
    return None


def evaluate(expr, names):
    expr = expr.strip()
    m = re.fullmatch(r"'([01]+)'", expr)
    if m:
        return int(m.group(1), 2), len(m.group(1))
    if re.fullmatch(r"0x[0-9a-fA-F]+|\d+", expr):
        return int(expr, 0), 64
    m = re.fullmatch(r"(Zeros|Ones)\{(\w+)\}", expr)
    if m:
        width = 64 if m.group(2) == "PTO_XLEN" else int(m.group(2))
        return (0 if m.group(1) == "Zeros" else (1 << width) - 1), width
    m = re.fullmatch(r"(SignExtend|ZeroExtend)\{PTO_XLEN\}\((.+)\)", expr)
    if m:
        value, width = evaluate(m.group(2), names)
        if m.group(1) == "SignExtend" and value >> (width - 1):
            value -= 1 << width
        return value & WORD, 64
    m = re.fullmatch(r"NormalizeAtomicReturn\((.+), (\d)\)", expr)
    if m:  # bytes and halfwords zero-extended, words sign-extended
        value, size = evaluate(m.group(1), names)[0], int(m.group(2))
        value &= (1 << (8 * size)) - 1
        if size == 4 and value >> 31:
            value -= 1 << 32
        return value & WORD, 64
    m = re.fullmatch(r"NormalizeMemoryAccessValue\((.+), (\d)\)", expr)
    if m:
        return evaluate(m.group(1), names)[0] & ((1 << (8 * int(m.group(2)))) - 1), 64
    if expr in names:
        return names[expr]
    if expr == "PTO_MODEL_MEMORY_BYTES":
        return MODEL_MEMORY_BYTES, 64
    m = re.fullmatch(r"(\w+)\[(\d+)(?::(\d+))?\]", expr)
    if m and m.group(1) in names:
        hi = int(m.group(2))
        lo = int(m.group(3)) if m.group(3) else hi
        return (names[m.group(1)][0] >> lo) & ((1 << (hi - lo + 1)) - 1), hi - lo + 1
    if expr.startswith("(") and expr.endswith(")") and split_top(expr[1:-1]) is not None:
        return evaluate(expr[1:-1], names)
    parts = split_top(expr)
    if parts:
        (left, width), (right, _) = evaluate(parts[0], names), evaluate(parts[2], names)
        value = left + right if parts[1] == "+" else left - right
        return value & ((1 << width) - 1), width
    raise Unsupported(expr)


FAULTS_KEPT = re.compile(r"Fault_\w+")


class Case:
    def __init__(self):
        self.setup, self.expect, self.exec = [], [], None
        self.not_checked = set()

    def checks(self):
        return any(line.startswith("check ") for line in self.setup)


def not_checked(statement):
    for pattern, label in NOT_CHECKED:
        if re.fullmatch(pattern, statement):
            return label
    return None


def queue_entry(setup, which, index):
    """The queue entry the setup lines leave (PushTemporaryQueue shifts the
    entries up; the reset clears them)."""
    entries = {"t": [0] * 4, "u": [0] * 4}
    for line in setup:
        words = line.split()
        if words[0] == "push":
            entries[words[1]] = [int(words[2], 16)] + entries[words[1]][:3]
        elif words[0] == "queue":
            entries[words[1]][int(words[2])] = int(words[3], 16)
    return entries[which][index]


def statements(body):
    """The statements of a body, an assert continued on the next line joined."""
    pending = ""
    for line in body.splitlines():
        line = line.strip()
        if not line or line.startswith("//") or line in ("begin", "end;"):
            continue
        if line.startswith("func "):  # a hand-written main after its check function
            return
        if pending:
            line = pending + " " + line
            pending = ""
        if (line.startswith("assert ") and not line.endswith(";")) or \
                line.count("(") > line.count(")"):
            pending = line
            continue
        yield line.rstrip(";")


IGNORED = re.compile(
    r"^(ResetProfileState\(\)|ResetBundleControlState\(\)|SetCurrentACR\(0\)|ClearFault\(\)|"
    r"StopMemoryEventCapture\(\)|"
    r"ResetMemoryExecution\(\)|StartMemoryEventCapture\(\d+\)|SelectMemoryEventAgent\(\d+\)|"
    r"_TrapContexts\[\[0\]\]\.valid = FALSE|WriteBPC\(.*\)|return 0|"
    # The ASL's completion epochs and last-maintenance record have no reader
    # (docs/spec-choices.md, "SYS maintenance and control requests").
    r"_\w+Epoch = \d+|assert _\w+Epoch == .*|_LastMaintenance\w+ = .*|"
    r"assert _LastMaintenance\w+ == .*|_LastControlRequest\w* = .*|_ControlRequestOperand = .*|"
    r"assert _LastControlRequest\w* == .*|assert _ControlRequestOperand == .*|"
    r"_LastFence\w+ = .*|assert _LastFence\w+ == .*)$")

# The statements that begin a case of a generated function.
BOUNDARIES = ("ResetProfileState", "ResetBundleControlState", "SetCurrentACR(0)")
REISSUE = "the recovery (RecoverTrapContext) and reissue after the fault"
AGU_OFFSET = "ScalarDecodedAGUOffset (the offset alone; the executions check the address)"

# Asserts the replay does not check, by the label docs/avs/scalar.md gives
# them in the row of each AVS ID that has them.
NOT_CHECKED = [
    (r"assert _MemoryEventCount == .*|assert !_MemoryEvent.*|"
     r"assert _MemoryEvents\[\[\d+\]\]\.(agent|order|write_performed|read_value)( .*)?",
     "memory-event records"),
    (r"assert !?_TrapContexts\[\[\d\]\]\.(?!(valid|tpc|source_acr)\b).*", "banked block state"),
    (r"assert ScalarAGU\w+OfForm.*", "ScalarAGU*OfForm"),
    (r"assert ScalarHandlerOfForm.*", "ScalarHandlerOfForm"),
    (r"assert !?InstructionContract.*", "InstructionContract*"),
    (r"assert AtomicValueSized\(.*", "AtomicValueSized (an ASL helper; the memory result is checked)"),
]

# The base system registers a witness sets or checks by name.
SSR_ADDRESSES = {"thread_ptr": 0x0, "global_ptr": 0x1}


# The vocabulary: (ASL statement, vector directive). A directive names the
# statement's groups as {N} (the text), {N:x} (the expression's value in hex),
# {N:d} (in decimal), {N:tu} (TRUE/FALSE: the T or U queue), {N:not} ('!' -> 0, else 1),
# {N:lower} and {N:ssr} (a base SSR's address); an empty directive accepts
# the statement without a check.
SETUP = [
    (r"SetCurrentACR\((\d+)\)", "acr {1}"),
    (r"EnterBundleBody\(\)", "body"),
    (r"_BARG\.bpcn = (.+)", "bpcn {1:x}"),
    (r"_SystemRegisters\.cycle = (.+)", "cycle {1:d}"),
    (r"_SystemRegisters\.(thread_ptr|global_ptr) = (.+)", "ssr {1:ssr} {2:x}"),
    (r"assert !_[TU]QueueValid\[\[\d\]\]", ""),  # a precondition the reset establishes
    (r"WriteGPR\((\d+), (.+)\)", "gpr {1} {2:x}"),
    (r"_([TU])Queue\[\[(\d)\]\] = (.+)", "queue {1:lower} {2} {3:x}"),
    (r"_[TU]QueueValid\[\[\d\]\] = TRUE", ""),
    (r"_([TU])QueueValid\[\[(\d)\]\] = FALSE", "queue_invalid {1:lower} {2}"),
    (r"PushTemporaryQueue\((TRUE|FALSE), (.+)\)", "push {1:tu} {2:x}"),
    (r"Store\((.+), (\d), (.+)\)", "mem {1:x} {2} {3:x}"),
    (r"_ReturnAddress = (.+)", "return {1:x}"),
    (r"_CommitArgument = (.+)", "commit_argument {1:x}"),
    (r"WriteTPC\((.+)\)", "tpc {1:x}"),
    (r"assert ReadTPC\(\) == (.+)", ""),
    (r"assert !_TrapContexts\[\[\d\]\]\.valid", ""),  # a precondition the reset establishes
    (r"assert !TemporaryQueueSourceAvailable\((?:TRUE|FALSE), \d\)", ""),  # likewise
    (r"PTOv0WriteContextRegister\((\d), (0x[0-9a-f]+), (.+)\)", "context_register {1} {2} {3:x}"),
]

EXPECTATIONS = [
    (r"assert ScalarFPFlags\(\) == (.+)", "expect flags {1:x}"),
    (r"assert ReadTemporaryQueue\((TRUE|FALSE), (\d)\) == (.+)", "expect queue {1:tu} {2} {3:x}"),
    (r"assert _Reservation(Address|Size) == (.+)", "expect reservation_{1:lower} {2:x}"),
    (r"assert (!?)_ReservationValid", "expect reservation {1:not}"),
    (r"assert LoadTranslatedUnsigned\((.+), (\d)\) == (.+)", "expect mem {1:x} {2} {3:x}"),
    (r"assert _LastFault == (Fault_\w+)", "expect fault {1}"),
    (r"assert ReadGPR\((\d+)\) == (.+)", "expect gpr {1} {2:x}"),
    (r"assert ReadGPR\((\d+)\) != (.+)", "expect gpr_not {1} {2:x}"),
    (r"assert (!?)TemporaryQueueSourceAvailable\((TRUE|FALSE), (\d)\)",
     "expect queue_valid {2:tu} {3} {1:not}"),
    (r"assert ReadTPC\(\) == (.+)", "expect tpc {1:x}"),
    (r"assert _FaultAddress == (.+)", "expect fault_address {1:x}"),
    (r"assert _ReturnAddress == (.+)", "expect return {1:x}"),
    (r"assert _CommitArgument == (.+)", "expect commit_argument {1:x}"),
    (r"assert _SystemRegisters\.cycle == (.+)", "expect cycle {1:d}"),
    (r"assert ReadBPC\(\) == (.+)", "expect bpc {1:x}"),
    (r"assert _BARG\.bpcn == (.+)", "expect bpcn {1:x}"),
    (r"assert _BARG\.(block_type|transfer_type) == Bundle(?:Kind|Transfer)_(\w+)", "expect {1} {2}"),
    (r"assert _BARG\.taken(?: == TRUE)?", "expect taken 1"),
    (r"assert !_BARG\.taken(?: == (?:TRUE|FALSE))?|assert _BARG\.taken == FALSE", "expect taken 0"),
    (r"assert _SystemRegisters\.(thread_ptr|global_ptr) == (.+)", "expect ssr {1:ssr} {2:x}"),
    (r"assert (!?)_BundleActive", "expect block_active {1:not}"),
    (r"assert (!?)_BundleBodyActive", "expect body_active {1:not}"),
    (r"assert (!?)_SystemBlockTerminalPending", "expect terminal_pending {1:not}"),
    (r"assert CurrentACR\(\) == (\d)", "expect acr {1}"),
    (r"assert (!?)_TrapContexts\[\[(\d)\]\]\.valid", "expect trap_valid {2} {1:not}"),
    (r"assert _TrapContexts\[\[(\d)\]\]\.(tpc|source_acr) == (.+)", "expect trap_{2} {1} {3:x}"),
    (r"assert _ACRTrap(Number|Cause|Argument0)\[\[(\d+)\]\] == (.+)", "expect trap_{1:lower} {2} {3:x}"),
    (r"assert (!?)_([TU])QueueValid\[\[(\d)\]\]", "expect queue_valid {2:lower} {3} {1:not}"),
    (r"assert _([TU])Queue\[\[(\d)\]\] == (.+)", "expect queue {1:lower} {2} {3:x}"),
]


def render_first(table, statement, names):
    """The directive of the first row of table matching statement, or None."""
    for pattern, directive in table:
        m = re.fullmatch(pattern, statement)
        if m:
            return re.sub(r"\{(\d)(?::(\w+))?\}",
                          lambda field: render(m.group(int(field.group(1))), field.group(2), names),
                          directive)
    return None


def render(text, conversion, names):
    if conversion == "x":
        return "0x%x" % evaluate(text, names)[0]
    if conversion == "d":
        return "%d" % evaluate(text, names)[0]
    if conversion == "tu":
        return "t" if text == "TRUE" else "u"
    if conversion == "not":
        return "0" if text else "1"
    if conversion == "lower":
        return text.lower()
    if conversion == "ssr":
        return "0x%x" % SSR_ADDRESSES[text]
    return text


def cases_of(body):
    """Splits a function body into cases at each execution; yields Case or raises."""
    names, loads, events, state, probes, lengths = {}, {}, {}, {}, {}, {}
    case = Case()
    status_names, offsets = set(), set()
    recovering = None  # after RecoverTrapContext: "recovering", then "reissued"
    for st in statements(body):
        if recovering:
            if re.match(r"(?:let \w+ = )?ExecuteScalarInstruction\(", st):
                recovering = "reissued"
                continue
            if recovering == "recovering" or not st.startswith(BOUNDARIES):
                continue
            recovering = None
        if IGNORED.match(st):
            # Each case of a generated function begins by resetting the
            # profile or the ring.
            if st.startswith(BOUNDARIES) and case.exec is not None:
                yield case
                case = Case()
            continue
        label = not_checked(st)
        if label:
            case.not_checked.add(label)
            continue
        m = re.fullmatch(r"(?:let \w+ = |assert )RecoverTrapContext\(\d\)", st)
        if m and case.exec is not None:
            # The fault is checked; the recovery and the reissue that follows
            # are not replayed (ptovp recovers through ACRE only).
            case.not_checked.add(REISSUE)
            yield case
            case = Case()
            recovering = "recovering"
            continue
        m = re.fullmatch(r"let (\w+) = ScalarDecodedAGUOffset\(.+\)", st)
        if m:
            offsets.add(m.group(1))
            case.not_checked.add(AGU_OFFSET)
            continue
        m = re.fullmatch(r"assert (\w+) == .+", st)
        if m and m.group(1) in offsets:
            continue
        m = re.fullmatch(r"(?:let|var) (\w+)(?:: [\w(){}]+)? = (ExecuteScalarInstruction\((.+), (\d+)\))", st)
        if m or st.startswith("ExecuteScalarInstruction("):
            if case.exec is not None:
                yield case
                case = Case()
            events.clear()
            if state.get("core_state"):
                case.setup.append("core_state 0x%x" % state["core_state"])
            if state.get("reservation_valid"):
                case.setup.append("reservation 0x%x %d" % (state.get("reservation_address", 0),
                                                          state.get("reservation_size", 0)))
            state.clear()
            inner = m.group(3) if m else st[len("ExecuteScalarInstruction("):st.rindex(",")]
            bits = int(m.group(4)) if m else int(st[st.rindex(",") + 1:].strip(" )"))
            case.exec = (evaluate(inner, names)[0], bits)
            lengths[case.exec[0]] = bits
            if m:
                status_names.add(m.group(1))
            continue
        if case.exec is None:
            check = probe(st, names, probes, lengths, case.setup)
            if check is not None:
                if check:
                    case.setup.append(check)
                continue
        m = re.fullmatch(r"let (\w+) = LoadUnsigned\((.+), (\d)\)", st)
        if m and case.exec is not None:  # memory read back after the execution
            loads[m.group(1)] = (evaluate(m.group(2), names)[0], int(m.group(3)))
            continue
        m = re.fullmatch(r"(?:let|var) (\w+)(?:: [\w(){}]+)? = (.+)", st)
        if m:
            names[m.group(1)] = evaluate(m.group(2), names)
            continue
        m = re.fullmatch(r"(\w+)\[(\d+)\] = (.+)", st)
        if m and m.group(1) in names:
            st = "%s[%s:%s] = %s" % (m.group(1), m.group(2), m.group(2), m.group(3))
        m = re.fullmatch(r"(\w+)\[(\d+):(\d+)\] = (.+)", st)
        if m and m.group(1) in names:
            value, width = names[m.group(1)]
            hi, lo = int(m.group(2)), int(m.group(3))
            field, _ = evaluate(m.group(4), names)
            mask = ((1 << (hi - lo + 1)) - 1) << lo
            names[m.group(1)] = ((value & ~mask) | ((field << lo) & mask), width)
            continue
        if st == "_SystemRegisters.core_state = Zeros{PTO_XLEN}":
            state["core_state"] = 0
            continue
        m = re.fullmatch(r"_SystemRegisters\.core_state\[(\d+):(\d+)\] = (.+)", st)
        if m and case.exec is None:
            hi, lo = int(m.group(1)), int(m.group(2))
            mask = ((1 << (hi - lo + 1)) - 1) << lo
            field, _ = evaluate(m.group(3), names)
            state["core_state"] = (state.get("core_state", 0) & ~mask) | ((field << lo) & mask)
            continue
        m = re.fullmatch(r"_Reservation(Valid|Address|Size) = (.+)", st)
        if m and case.exec is None:
            value = m.group(2) == "TRUE" if m.group(1) == "Valid" else evaluate(m.group(2), names)[0]
            state["reservation_" + m.group(1).lower()] = value
            continue
        if case.exec is None:
            directive = render_first(SETUP, st, names)
            if directive is not None:
                if directive:
                    case.setup.append(directive)
                continue
            m = re.fullmatch(r"BeginBundle\(BundleKind_(\w+), BundleTransfer_(\w+), (.+), (.+), (.+), "
                             r"(TRUE|FALSE)\)", st)
            if m and m.group(2) not in ("Call", "IndirectCall"):
                case.setup.append("block %s %s 0x%x 0x%x %d" % (
                    m.group(1), m.group(2), evaluate(m.group(3), names)[0],
                    evaluate(m.group(4), names)[0], m.group(6) == "TRUE"))
                continue
            if constant_assert(st, names):
                continue
            raise Unsupported(st)
        m = re.fullmatch(r"assert (\w+) == ScalarExecution_\w+", st)
        if m and m.group(1) in status_names:
            continue
        directive = render_first(EXPECTATIONS, st, names)
        if directive:
            case.expect.append(directive)
            continue
        m = re.fullmatch(r"assert (\w+) == (.+)", st)
        if m and m.group(1) in loads:
            address, size = loads[m.group(1)]
            case.expect.append("expect mem 0x%x %d 0x%x" % (address, size,
                                                          evaluate(m.group(2), names)[0]))
            continue
        m = re.fullmatch(r"assert _MemoryEvents\[\[(\d+)\]\]\.(kind|address|size_bytes|write_value) == (.+)", st)
        if m:
            event = events.setdefault(int(m.group(1)), {})
            event[m.group(2)] = m.group(3) if m.group(2) == "kind" else evaluate(m.group(3), names)[0]
            if event.get("kind") == "MemoryEvent_Store" and len(event) == 4:
                case.expect.append("expect mem 0x%x %d 0x%x" % (
                    event["address"], event["size_bytes"], event["write_value"]))
            continue
        if constant_assert(st, names):
            continue
        raise Unsupported(st)
    if case.exec is not None or case.checks():
        yield case


# The length of each spec form, from the decode witnesses
# (DecodeScalarForm(word, length) == form); main() fills it.
FORM_LENGTHS = {}


def constant_assert(st, names):
    """Whether st asserts an equation of constants (the witness's own address
    arithmetic): it holds or the witness is wrong, and involves no state."""
    m = re.fullmatch(r"assert (.+?) == (.+)", st)
    if not m or " == " in m.group(2):
        return False
    try:
        left, right = evaluate(m.group(1), names), evaluate(m.group(2), names)
    except Unsupported:
        return False
    width = min(left[1], right[1])
    if (left[0] - right[0]) % (1 << width):
        raise Unsupported("false constant assert: " + st)
    return True


def probe(st, names, probes, lengths, setup):
    """The check line of a decode or operand probe before the execution, ''
    for a probe whose value a later assert checks, None for other statements."""
    m = re.fullmatch(r"(?:(let \w+ = )|assert )DecodeScalarForm\((.+), (\d+)\)(?: == (\d+))?", st)
    if m and (m.group(1) is None) == (m.group(4) is not None):
        word = evaluate(m.group(2), names)[0]
        lengths[word] = int(m.group(3))
        line = "check form 0x%x %s" % (word, m.group(3))
        if m.group(1):
            probes[m.group(1)[4:-3]] = line
            return ""
        return line + " " + m.group(4)
    m = re.fullmatch(r"assert DecodeScalarOperandRaw\((.+), (\d+), ScalarField_(\w+)\) == (.+)", st)
    if m:
        word = evaluate(m.group(1), names)[0]
        return "check field 0x%x %d %s 0x%x" % (
            word, lengths.get(word, FORM_LENGTHS[int(m.group(2))]), m.group(3),
            evaluate(m.group(4), names)[0])
    m = re.fullmatch(r"assert ScalarOperationOfForm\((\d+)\) == ScalarOperation_(\w+)", st)
    if m:
        return "check operation %s %s" % (m.group(1), m.group(2))
    m = re.fullmatch(r"let (\w+) = ReadDecodedScalarRegister\((.+), (\d+), ScalarField_(\w+)\)", st)
    if m:
        word = evaluate(m.group(2), names)[0]
        probes[m.group(1)] = "check operand 0x%x %d %s" % (
            word, lengths.get(word, FORM_LENGTHS.get(int(m.group(3)), 0)), m.group(4))
        return ""
    m = re.fullmatch(r"let (\w+) = ReadTemporaryQueue\((TRUE|FALSE), (\d)\)", st)
    if m:
        names[m.group(1)] = (queue_entry(setup, "t" if m.group(2) == "TRUE" else "u",
                                         int(m.group(3))), 64)
        return ""
    m = re.fullmatch(r"assert (\w+) == (.+)", st)
    if m and m.group(1) in probes:
        value = m.group(2)
        return probes.pop(m.group(1)) + " " + (value if value.isdigit() else
                                               "0x%x" % evaluate(value, names)[0])
    return None


# The FSU forms whose results come from the numeric profile hooks
# (ScalarFP*Profile): the witnesses use the reference profile's raw-carrier
# arithmetic, so they run with numeric.profile = pto-v0 ("profile pto-v0");
# ptovp's default is IEEE 754 (docs/spec-choices.md). FABS, FMIN/FMAX and the
# comparisons are profile-free.
PROFILE_FORMS = {"FADD", "FSUB", "FMUL", "FDIV", "FSQRT", "FRECIP", "FEXP", "FMADD", "FMSUB",
                 "FNMADD", "FNMSUB", "FCVT", "FCVTA", "FCVTM", "FCVTN", "FCVTP", "FCVTZ",
                 "SCVTF", "UCVTF"}


def profile_dependent(path):
    parts = path.split(os.sep)
    return len(parts) > 2 and parts[0] == "fsu" and parts[1] in PROFILE_FORMS


# Witnesses of a spec rule ptovp departs from on purpose (docs/spec-choices.md).
PLATFORM_CHOICES = {
    avs_id: "ptovp lets every ring use the context registers (docs/spec-choices.md, "
            "\"Context register addresses\")"
    for avs_id in ("PTO-AVS-SYS-SSRGET-RING-001", "PTO-AVS-SYS-SSRSET-RING-001",
                   "PTO-AVS-SYS-SSRSWAP-RING-001")
}


def single_agent_store(path, case):
    """Whether an AMO witness stores: its one agent does it once, where the four
    lockstep PEs each perform the atomic in turn (docs/spec-choices.md). Such
    a case runs as one agent on PE0 (the "agent" directive). An SC with a
    reservation is such a store."""
    parts = path.split(os.sep)
    if parts[0] != "amo":
        return False
    if parts[1].startswith("SC.") and any(line.startswith("reservation ") for line in case.setup):
        return True
    initial = {}
    for line in case.setup:
        words = line.split()
        if words[0] == "mem":
            initial[(int(words[1], 16), int(words[2]))] = int(words[3], 16)
    for line in case.expect:
        words = line.split()
        if words[1] == "mem" and initial.get((int(words[2], 16), int(words[3]))) != int(words[4], 16):
            return True
    return False


def carries_state(call, number):
    """Whether a case continues the previous one's state: the canonical
    execution sequences reset only the block control state between their
    executions (ResetBundleControlState), so a later word may read a queue
    entry an earlier one pushed."""
    return bool(call) and re.fullmatch(r"ValidateCanonicalScalar\w+Execution", call) is not None \
        and number > 0


OUTER_RING_WINDOW = ("the ACR2+ access past the ring's 3 KiB window (docs/spec-choices.md, "
                     "\"D8 Memory map\": identity translation, no window)")


# The witnesses' memory: PTO_MODEL_MEMORY_BYTES, the spec's default.
MODEL_MEMORY_BYTES = 4096
UNPLACEABLE = ("an instruction no fetch can place: outside the 4 KiB memory (a TPC wrap, a "
               "PC-relative access from the memory's end) or on bytes the case uses as data")


def unplaceable(case):
    """Whether the instruction cannot be fetched from where the witness
    executes it: the ASL executes a word without fetching it."""
    tpc = int([line for line in case.setup if line.startswith("tpc ")][-1].split()[1], 16) \
        if any(line.startswith("tpc ") for line in case.setup) else 0
    end = tpc + case.exec[1] // 8
    if end > MODEL_MEMORY_BYTES:
        return True
    for line in case.setup + case.expect:
        words = line.split()
        if words[0] == "expect":
            words = words[1:]
        if words[0] == "mem" and int(words[1], 16) < end and tpc < int(words[1], 16) + int(words[2]):
            return True
    return False


def outer_ring_window(case):
    """Whether the case checks the reference profile's ACR2+ data window
    (DataAccessPermitted), which ptovp does not model: a DataPage fault in
    ACR2+ not known to lie past the whole memory."""
    addresses = [int(line.split()[2], 16) for line in case.expect
                 if line.startswith("expect fault_address ")]
    return any(re.fullmatch(r"acr [2-9]", line) for line in case.setup) and \
        "expect fault Fault_DataPage" in case.expect and \
        not (addresses and all(address >= MODEL_MEMORY_BYTES for address in addresses))


HALT_TPC = "the TPC after a fault at another address (docs/spec-choices.md, \"Halt\")"


def halt_moves_tpc(case):
    """Drops the TPC check of a fault whose address is not the instruction's:
    the ASL then continues at the fault address (TrapVectorEntry with EVBASE
    zero), where ptovp halts on the faulting instruction, as documented."""
    expected = dict(line.split(" ", 2)[1:] for line in case.expect)
    tpc = [line.split()[1] for line in case.setup if line.startswith("tpc ")]
    if expected.get("fault", "Fault_None") == "Fault_None" or "tpc" not in expected:
        return False
    if expected["tpc"] != expected.get("fault_address") or tpc[-1:] == [expected["tpc"]]:
        return False
    case.expect.remove("expect tpc " + expected["tpc"])
    return True


# The bytes the other PEs of a one-agent case access: their registers are zero.
IDLE_PE_BYTES = range(0, 64)


def touches_idle_pe_bytes(case):
    """Whether the case sets or checks memory where the idle PEs' zero
    addresses reach (an AMO or DMA of theirs at address 0, with zero operands,
    leaves zero memory as it is)."""
    for line in case.setup + case.expect:
        words = line.split()
        if words[0] == "expect":
            words = words[1:]
        if words[0] == "mem" and int(words[1], 16) < IDLE_PE_BYTES.stop:
            return True
    return False


def avs_mains(spec):
    """(AVS ID, path, body of main, called Validate function or None) for scalar AVS files."""
    root = os.path.join(spec, "tests", "asl", "scalar")
    for directory, _, files in sorted(os.walk(root)):
        for name in sorted(files):
            if not name.endswith(".asl"):
                continue
            path = os.path.join(directory, name)
            text = open(path, encoding="utf-8").read()
            m = re.search(r"PTO-TEST: (\{.*\})", text)
            if not m:
                continue
            avs_id = json.loads(m.group(1))["id"]
            body = text[text.index("begin"):]
            call = re.search(r"^\s*(Validate(?:Canonical)?Scalar\w+)\(\);", body, re.M)
            yield avs_id, os.path.relpath(path, root), body, call.group(1) if call else None


def form_directories(index):
    """{spec directory: replayed?} for the directories of the scalar forms
    (agu/SB, ...) and of the ASL model (model/...)."""
    directories = {}
    for entry in index.values():
        directory = os.path.dirname(entry["path"])
        directories[directory] = directories.get(directory, False) or "cases" in entry
    return directories


def write_doc(path, index):
    replayed = sum(1 for v in index.values() if "cases" in v)
    directories = form_directories(index)
    forms = {d: r for d, r in directories.items() if not d.startswith("model")}
    models = {d: r for d, r in directories.items() if d.startswith("model")}
    lines = [
        "# Scalar AVS\n\n",
        "Every scalar AVS ID of the spec (`tests/asl/scalar/**`), generated by\n",
        "`scripts/gen_scalar_avs.py` with the test that replays it. **%d of %d IDs are\n"
        % (replayed, len(index)),
        "replayed** (%d cases) from `tests/vectors/scalar-avs.witness` by\n"
        % sum(v.get("cases", 0) for v in index.values()),
        "`ScalarAvsTest.EveryExtractedWitness` (tests/frontend/scalar_avs_test.cpp).\n",
        "**%d of the %d scalar forms have at least one replayed ID**, at least\n"
        % (sum(forms.values()), len(forms)),
        "their decode witness; `ScalarAvsCoverageTest.EveryScalarFormHasAReplayedWitness`\n",
        "fails if a form of the catalog has none. The %d `model/*`\n" % len(models),
        "directories hold the witnesses of the ASL model's helper functions\n",
        "(ScalarBinary, ReadMemoryByte, the dispatch tables; many are `assert TRUE`),\n",
        "not of an instruction form: %d of them have a replayed ID, and the others\n"
        % sum(models.values()),
        "are the test's named exceptions, since ptovp has no such functions to call\n",
        "and the forms they serve have their own witnesses replayed.\n\n",
        "An execution case sets registers, queues, memory and TPC on every PE,\n",
        "executes one instruction and compares every checked register, queue entry,\n",
        "memory word (read back, or the store's memory event), TPC, fault, fault\n",
        "address, cycle count, commit argument and banked trap context (valid, TPC,\n",
        "source ring), with CORE_STATE (FP rounding mode and flags) and the LR\n",
        "reservation set before and checked after where the witness does. A decode\n",
        "case checks that ptovp's decoder finds the spec's form for the word\n",
        "(DecodeScalarForm, by the catalog's form index), the form's name\n",
        "(ScalarOperationOfForm), each raw operand field (DecodeScalarOperandRaw) and\n",
        "the value a source operand reads (ReadDecodedScalarRegister, through the\n",
        "scalar unit's operand read). An AMO witness that stores runs as one agent\n",
        "on PE0 (`agent`): the other lockstep PEs hold zero registers, so their\n",
        "atomics reach address 0 with zero operands and change nothing the case\n",
        "checks. The canonical execution sequences keep their state from one word to\n",
        "the next but the block control state (`carry`). The witnesses' machine has\n",
        "PTO_MODEL_MEMORY_BYTES (4096) bytes of RAM and no ACRC host services\n",
        "(`host.services = off`). The ASL executes a word without\n",
        "fetching it; the cases no fetch can place (an instruction outside that\n",
        "memory: the TPC wraps below 2^64 and PC-relative accesses from its end, or\n",
        "on bytes the case uses as data) are named in their rows, and the test skips\n",
        "and counts the canonical sequences' closing probe, the all-zero word\n",
        "executed as 32 bits, whose first parcel encodes a 16-bit instruction.\n",
        "The FSU witnesses of arithmetic\n",
        "and conversion forms follow the reference profile's raw-carrier arithmetic\n",
        "(integer arithmetic on the encodings): they run with `numeric.profile =\n",
        "pto-v0` (`profile pto-v0`); tests/frontend/scalar_fp_test.cpp checks the\n",
        "default IEEE 754 profile against the host's arithmetic.\n",
        "SYS witnesses run in the state they set up: the current\n",
        "ACR, the block a BSTART opened (kind, transfer, BPC, BPCN, taken) and its\n",
        "active body, THREAD_PTR/GLOBAL_PTR and the cycle count; they check BPC,\n",
        "BARG, the queue valid bits, those registers and the ring's trap number,\n",
        "cause and argument. The ASL's completion epochs, last maintenance,\n",
        "control-request and fence records have no reader in the ASL or in ptovp\n",
        "(docs/spec-choices.md, \"SYS maintenance and control requests\") and are\n",
        "not checked.\n\n",
        "A row's \"not checked\" names the asserts of its witness the replay does not\n",
        "check: memory-event records (agent, order, read value and event count:\n",
        "ptovp's memory port keeps no event log, its scalar accesses go through\n",
        "direct host pointers; a store's address, size and value are checked in\n",
        "memory), banked block state other than valid/TPC/ring,\n",
        "the ASL's contract tables (ScalarHandlerOfForm, InstructionContract*,\n",
        "ScalarAGU*OfForm: ASL function names with no ptovp counterpart), and the TPC\n",
        "after a fault at another address than the instruction's (the ASL continues\n",
        "at the fault address when EVBASE is zero, ptovp halts on the faulting\n",
        "instruction: docs/spec-choices.md, \"Halt\"). The IDs not replayed name the\n",
        "first statement outside the extractor's vocabulary (trap-bank recovery,\n",
        "register values read from the model, loops) or the reason.\n\n",
        "Regenerate (needs a spec checkout and its generated functions):\n\n",
        "```sh norun=\"needs a checkout of the spec repository (SPEC), which the repository "
        "does not carry\"\n",
        "(cd SPEC && scripts/generate-asl-decoders --kind monolithic) > /tmp/mono.asl\n",
        "scripts/gen_scalar_avs.py --spec SPEC --generated /tmp/mono.asl\n",
        "```\n\n",
        "| AVS ID | spec file | test |\n|---|---|---|\n",
    ]
    for avs_id in sorted(index):
        entry = index[avs_id]
        if "cases" in entry:
            test = "`ScalarAvsTest.EveryExtractedWitness` (%d case%s)" % (
                entry["cases"], "" if entry["cases"] == 1 else "s")
            if entry["not_checked"]:
                test += "; not checked: " + ", ".join(entry["not_checked"])
        else:
            reason = entry["left_out"].replace("|", "\\|").replace("`", "'")
            if len(reason) > 70:
                reason = reason[:70] + "..."
            test = "not replayed: `%s`" % reason
        lines.append("| %s | `%s` | %s |\n" % (avs_id, entry["path"], test))
    with open(path, "w", encoding="utf-8") as f:
        f.writelines(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spec", required=True)
    parser.add_argument("--generated", required=True)
    parser.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "..", "tests",
                                                       "vectors", "scalar-avs.witness"))
    parser.add_argument("--doc", default=os.path.join(os.path.dirname(__file__), "..", "docs", "avs",
                                                       "scalar.md"))
    args = parser.parse_args()
    generated = open(args.generated, encoding="utf-8").read()
    functions = {m.group(1): m.group(2) for m in
                 re.finditer(r"^func (Validate(?:Canonical)?Scalar\w+)\(\)\n(.*?)^end;", generated,
                             re.M | re.S)}
    for text in [generated] + [body for _, _, body, _ in avs_mains(args.spec)]:
        for m in re.finditer(r"DecodeScalarForm\('[01]+', (\d+)\) == (\d+)", text):
            FORM_LENGTHS[int(m.group(2))] = int(m.group(1))
    out = ["# GENERATED by scripts/gen_scalar_avs.py from the spec's scalar witnesses; facts only.\n"]
    index = {}
    for avs_id, path, body, call in avs_mains(args.spec):
        source = functions.get(call) if call else body
        if avs_id in PLATFORM_CHOICES:
            index[avs_id] = {"path": path, "left_out": PLATFORM_CHOICES[avs_id]}
            continue
        if source is None:
            index[avs_id] = {"path": path, "left_out": "generated function %s not found" % call}
            continue
        kept, reason, skipped_stores, unchecked, unplaced = [], None, False, set(), False
        try:
            for number, case in enumerate(cases_of(source)):
                if case.exec is None:  # decode and operand checks only
                    kept.append(["case %s#%d" % (avs_id, number)] + case.setup + ["end"])
                    unchecked |= case.not_checked
                    continue
                if not case.expect:
                    continue
                if outer_ring_window(case):
                    unchecked |= case.not_checked | {OUTER_RING_WINDOW}
                    continue
                if unplaceable(case):
                    unchecked |= case.not_checked | {UNPLACEABLE}
                    unplaced = True
                    continue
                if halt_moves_tpc(case):
                    unchecked.add(HALT_TPC)
                if carries_state(call, number):
                    case.setup.insert(0, "carry")
                if single_agent_store(path, case):
                    if touches_idle_pe_bytes(case):
                        skipped_stores = True
                        continue
                    case.setup.insert(0, "agent")
                if profile_dependent(path):
                    case.setup.insert(0, "profile pto-v0")
                kept.append(["case %s#%d" % (avs_id, number)] + case.setup +
                            ["exec 0x%x %d" % case.exec] + case.expect + ["end"])
                unchecked |= case.not_checked
        except Unsupported as error:
            reason = str(error)
            kept = []
        except KeyError as error:
            reason = "unknown name %s" % error
            kept = []
        if kept:
            for lines in kept:
                out.append("\n".join(lines) + "\n")
            index[avs_id] = {"path": path, "cases": len(kept), "not_checked": sorted(unchecked)}
        elif unplaced and reason is None:
            index[avs_id] = {"path": path, "left_out": UNPLACEABLE}
        elif skipped_stores and reason is None:
            index[avs_id] = {"path": path, "left_out": "one agent's atomic store at the bytes "
                             "the idle PEs of a one-agent replay access"}
        else:
            index[avs_id] = {"path": path,
                             "left_out": reason or "no execution with a checked result"}
    with open(args.out, "w", encoding="utf-8") as f:
        f.writelines(out)
    write_doc(args.doc, index)
    kept = sum(1 for v in index.values() if "cases" in v)
    print("%d AVS IDs, %d replayed (%d cases), %d left out" % (
        len(index), kept, sum(v.get("cases", 0) for v in index.values()), len(index) - kept),
        file=sys.stderr)


if __name__ == "__main__":
    main()

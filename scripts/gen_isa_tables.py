#!/usr/bin/env python3
"""Generates the spec tables from the spec catalogs.

    scripts/gen_isa_tables.py [--spec-data DIR] [--out DIR] [--arch-out DIR]
                              [--numeric-out DIR]

Reads ../shared/spec-data/catalog/{command-forms,scalar-forms,tile-operations,
extension-encoding-reservations,system-registers}.json and
../shared/spec-data/hardware-conformance-profile.json and writes
- modules/isa/generated/isa_tables.cpp: the encodings, forms, tile operations
  and the CUBE function properties (structs in modules/isa/isa_tables.hpp);
- modules/arch/generated/arch_tables.hpp: the system register map and the
  trap numbers;
- modules/isa/generated/scalar_forms.hpp: every scalar form by mnemonic
  (isa::ScalarForm, its index in the form table), so the front end binds
  semantics to forms, not to mnemonic text;
- modules/isa/generated/semantic_handlers.hpp: every semantic handler of the
  scalar and command catalogs (isa::SemanticHandler, FormInfo::handler), so
  the front end binds commands by handler, not by its name;
- modules/numeric/generated/data_types.hpp: the 25 tile data types (codes,
  names, kinds, storage and lane widths; DataTypeInfo in
  modules/numeric/data_type_info.hpp);
- modules/isa/generated/catalogs.sha256: the SHA-256 of each catalog read and
  of each file written.
The output is checked in. tests/isa/generated_tables_test.py checks the
written files against catalogs.sha256 (always) and, when the catalogs are
present, the catalogs against it and a fresh run against the files.

Every catalog record is emitted for release 0.58.3 (the catalog snapshot). The
0.58.5 deltas are applied by OVERLAY_0585 below as replacement records that
exist only in release 0.58.5; nothing in the output is edited by hand.
"""

import argparse
import copy
import hashlib
import json
import os
import re
import sys

RELEASE_0583 = 1
RELEASE_0585 = 2
ALL_RELEASES = RELEASE_0583 | RELEASE_0585


# --- 0.58.5 overlay (docs/spec-choices.md, the 0.58.5 contract) ---------------

def _overlay_fpatr(form):
    """B.FPATR: bit 9 becomes CScaleEn; bit 10 stays the reserved zero bit."""
    form["encoding"][0]["mask"] = "0x00007c7f"
    fields = []
    for field in form["fields"]:
        if field["name"] == "Reserved":
            field = {"name": "Reserved", "signedness": "encoding-defined", "width": 1,
                     "pieces": [{"instruction_lsb": 10, "value_lsb": 0, "width": 1}]}
        fields.append(field)
        if field["name"] == "TransB":
            fields.append({"name": "CScaleEn", "signedness": "encoding-defined", "width": 1,
                           "pieces": [{"instruction_lsb": 9, "value_lsb": 0, "width": 1}]})
    form["fields"] = fields
    form["constraints"].append({"field": "CScaleEn", "operator": "one-of", "values": [0, 1]})
    form["asm"] += ", CScaleEn"
    return form


def _overlay_ios(form):
    """B.IOS: SharedTileID narrows to 6 bits [25:20]; bits 27:26 become fixed zero."""
    form["encoding"][0]["mask"] = "0xfc0871ff"
    for field in form["fields"]:
        if field["name"] == "SharedTID":
            field["name"] = "SharedTileID"
            field["width"] = 6
            field["pieces"] = [{"instruction_lsb": 20, "value_lsb": 0, "width": 6}]
    form["asm"] = form["asm"].replace("SharedTID", "SharedTileID")
    return form


OVERLAY_0585 = {
    "b_fpatr_32_30c307e06d4a": _overlay_fpatr,
    "b_ios_32_4ba5ef98fdaa": _overlay_ios,
}


# --- Assembly syntax ----------------------------------------------------------
# A form's operands are a list of slots (modules/isa/operand_syntax.hpp):
#   (kind, [field names], text, optional)

DEST_FIELDS = ("RegDst", "RegDst0")
SECOND_DEST_FIELDS = ("RegDst1",)
FLAG_FIELDS = ("aq", "rl", "far", "e", "i", "r", "s", "h")
# Branch-target immediates: halfword offsets from the instruction's own address.
PC_RELATIVE = {
    "BSTART": "simm25", "BSTART.STD": "simm17", "BSTART.FP": "simm17", "C.BSTART": "simm12",
    "BSTART.CALL": "simm12", "J": "simm22",
}
DATA_TYPE_OR_NONE = ("B.DATR", "BSTART.TMOV")


def slot(kind, fields=(), text="", optional=False):
    return (kind, list(fields), text, optional)


def command_slots(form, index):
    """Canonical operands of the command forms, after the spec's assembly templates."""
    m = form["mnemonic"]
    asm = form["asm"]
    names = [f["name"] for f in form["fields"]]
    if m == "B.CATR":
        return [slot("Flag", ["trap"], "trap"), slot("Flag", ["atom"], "atomic"),
                slot("Flag", ["aq"], "aq"), slot("Flag", ["rl"], "rl"),
                slot("Flag", ["far"], "far"), slot("Flag", ["DR"], "dr")]
    if m == "B.DATR":
        return [slot("Enum", ["Layout"], "Layout"), slot("Enum", ["DataType"], "DataTypeOrNone"),
                slot("Enum", ["PadValueOrByteId"], "PadValue"), slot("Enum", ["CMode"], "CMode"),
                slot("Enum", ["RMode"], "RoundingMode"), slot("Immediate", ["Sat"]),
                slot("Immediate", ["Canonicalize"])]
    if m == "B.DIM":
        return [slot("Register", ["RegSrc"]), slot("Immediate", ["uimm17"]),
                slot("Keyword", [], asm.split(", ")[-1])]
    if m == "B.HINT" and "TRACE" in asm:
        return [slot("Keyword", [], "TRACE"), slot("Enum", ["B/E"], "TraceEdge")]
    if m == "B.HINT":
        return [slot("Immediate", ["L/UL"]), slot("Immediate", ["V"]),
                slot("Enum", ["temp"], "Temperature"), slot("Immediate", ["prefetch_size"])]
    if m == "B.IOR":
        return [slot("RegisterList", ["RegSrc0", "RegSrc1", "RegSrc2"]),
                slot("DestRegister", ["RegDst"], optional=True)]
    if m == "B.IOT":
        slots = [slot("TileSource", [n]) for n in ("SrcTile0", "SrcTile1") if n in names]
        slots += [slot("PeMask", ["PEMode"], optional=True), slot("Flag", ["L"], "last")]
        if "DstTile" in names:
            slots.append(slot("TileDest", ["DstTile", "SizeCode"]))
        return slots
    if m == "B.IOS":
        shared = [n for n in names if n.startswith("Shared")]
        return [slot("SharedSource", shared + ["SizeCode"], optional=True),
                slot("PeMask", ["PEMode"], optional=True),
                slot("SharedDest", shared + ["SizeCode"], optional=True)]
    if m == "B.FPATR":
        return [slot("Enum", ["PreQuantMode"], "PreQuantMode"), slot("Enum", ["ReluMode"], "ReluMode")] + [
            slot("Immediate", [n]) for n in ("GroupNCode", "RowMaxEn", "GroupMaxEn", "RowMaxInit",
                                             "MaxAbsEn", "TransA", "TransB", "CScaleEn") if n in names]
    if m in ("BSTART", "BSTART.STD", "BSTART.FP", "BSTART.SYS", "C.BSTART", "C.BSTART.SYS"):
        keyword = asm.split()[1].rstrip(",")
        slots = [slot("Keyword", [], keyword)]
        if keyword in ("DIRECT", "COND"):
            slots.append(slot("PcRelative", [PC_RELATIVE[m]]))
        return slots
    if m in ("C.BSTART.STD", "C.BSTART.FP"):
        return [slot("Enum", ["BrType"], "BranchType")]
    if m == "BSTART.CALL":
        return [slot("PcRelative", ["simm12"]), slot("PcRelative", ["uimm5"], "return+2"),
                slot("Keyword", [], "->ra", optional=True)]
    if m == "BSTART.ICALL":
        return [slot("PcRelative", ["uimm5"], "return+2"), slot("Keyword", [], "->ra", optional=True)]
    if m == "BSTART.TEPL":
        return [slot("Immediate", ["Mode"]), slot("Immediate", ["Function"]),
                slot("Enum", ["DataType"], "DataType")]
    if m.startswith("BSTART."):
        return [slot("Enum", ["DataType"], "DataTypeOrNone" if m in DATA_TYPE_OR_NONE else "DataType")]
    if m == "C.B.DIMI":
        return [slot("Immediate", ["imm8"]), slot("DestEnum", ["LoopNest"], "LoopNest")]
    if m in ("MCOPY", "MSET", "ESAVE", "ERCOV"):
        return [slot("RegisterList", ["RegSrc0", "RegSrc1", "RegSrc2"])]
    if m.startswith("FENTRY") or m.startswith("FEXIT") or m.startswith("FRET"):
        return [slot("RegisterRange", names[:2]), slot("Keyword", [], "sp!"),
                slot("Immediate", ["uimm"])]
    return None


def template_position(asm, name):
    """Where a field is named in the assembly template, for operand order."""
    lowered = asm.lower()
    candidates = [name.lower(), name.lower().rstrip("0123456789")]
    for candidate in candidates:
        position = lowered.find(candidate)
        if candidate and position >= 0:
            return position
    return len(asm)


# ADD/SUB/AND/OR/XOR[W] order SrcRType .sw, .uw, .neg/.not, none
# (DecodeScalarBinaryRightModifier); every other form none, .sw, .uw, .neg.
BINARY_MODIFIER_FORMS = ("ADD", "SUB", "AND", "OR", "XOR", "ADDW", "SUBW", "ANDW", "ORW", "XORW")
# Return-address operands: a label, encoded as halfwords from the parcel that
# holds the field (SETRET forms: the instruction; BSTART.CALL/ICALL: its
# C.SETRET half, two bytes in).
RETURN_TARGET = {"SETRET": "imm20", "C.SETRET": "uimm5", "HL.SETRET": "imm32"}


def byte_scale(form):
    """log2 of the access size when a memory form's immediate counts elements:
    the assembly writes bytes (LinxISA convention), the field holds bytes >> scale."""
    m = form["mnemonic"]
    if not (form["semantic_group"].startswith("LDA/") or form["semantic_group"].startswith("STA/")):
        return 0
    stem = m[2:] if m.startswith("C.") else m[3:] if m.startswith("HL.") else m
    match = re.match(r"^[LS]([BHWD])U?I", stem)
    if not match or ".U" in stem or ".PCR" in stem:
        return 0
    return "BHWD".index(match.group(1))


def shifted_register_text(form):
    """The SrcR modifier syntax of a form: its SrcRType order and a fixed shift."""
    order = "binary" if form["mnemonic"] in BINARY_MODIFIER_FORMS else "ordered"
    fixed = re.search(r"SrcR<[^>]*><<(\d)", form["asm"])
    return order + ("<<" + fixed.group(1) if fixed else "")


def generic_slots(form):
    """Operands of every other form: sources and immediates in template order,
    then one-bit modifier flags, then destinations. Fixed operands of the
    template (t#1, ->t) are written out; fields the template does not name are
    optional."""
    m = form["mnemonic"]
    asm = form["asm"]
    operands, flags, dests = [], [], []
    fixed = {c["field"] for c in form["constraints"]
             if c["operator"] == "one-of" and len(c["values"]) == 1}
    names = [f["name"] for f in form["fields"]]
    for order, field in enumerate(form["fields"]):
        name = field["name"]
        if name in fixed or name in ("SrcRType", "shamt") and "SrcRType" in names:
            continue
        position = template_position(asm, name)
        if name in DEST_FIELDS:
            dests.insert(0, slot("DestRegister", [name], optional="->" not in asm))
        elif name in SECOND_DEST_FIELDS:
            dests.append(slot("DestRegisterNext", [name]))
        elif name in FLAG_FIELDS and field["width"] == 1:
            flags.append(slot("Flag", [name], name))
        elif name == "SrcR" and "SrcRType" in names:
            shift = ["shamt"] if "shamt" in names else []
            operands.append((position, order, slot("ShiftedRegister", ["SrcR", "SrcRType"] + shift,
                                                   shifted_register_text(form))))
        elif name.startswith("Src") and name not in ("SrcRType", "SrcType"):
            # HL.QMT's "[, SrcR when i]": omitted, it encodes R0.
            operands.append((position, order, slot("Register", [name],
                                                   optional="[, %s " % name in asm)))
        elif PC_RELATIVE.get(m) == name:
            operands.append((position, order, slot("PcRelative", [name])))
        elif RETURN_TARGET.get(m) == name:
            operands.append((position, order, slot("PcRelative", [name], "return")))
        else:
            scale = byte_scale(form)
            operands.append((position, order, slot("Immediate", [name],
                                                   "bytes<<%d" % scale if scale else "",
                                                   optional=name == "shamt" and position == len(asm))))
    operands.sort(key=lambda entry: (entry[0], entry[1]))
    slots = [entry[2] for entry in operands] + flags + dests
    lowered = asm.lower()
    if lowered.split(" ", 1)[-1].startswith("t#1,"):
        slots.insert(0, slot("Keyword", [], "t#1"))
    if "->ra" in lowered and not dests:
        slots.append(slot("Keyword", [], "->ra", optional=True))
    elif lowered.endswith("->t") and not dests:
        slots.append(slot("Keyword", [], "->t", optional=True))
    return slots


# --- Emission -----------------------------------------------------------------

def cxx_string(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def total_mask_match(encoding):
    mask = match = 0
    for part in encoding:
        mask |= int(part["mask"], 16) << (32 * part["index"])
        match |= int(part["match"], 16) << (32 * part["index"])
    return mask, match


class Emitter:
    def __init__(self):
        self.forms, self.fields, self.pieces, self.constraints = [], [], [], []
        self.values, self.variants, self.slots, self.agu = [], [], [], []
        self.starts, self.scalar_forms = [], []
        self.handlers = set()

    def add_form(self, form, catalog, model_index, releases):
        names = [f["name"] for f in form["fields"]]
        field_begin = len(self.fields)
        for field in form["fields"]:
            piece_begin = len(self.pieces)
            for piece in field["pieces"]:
                self.pieces.append("{%d, %d, %d}" % (piece["instruction_lsb"], piece["value_lsb"],
                                                     piece["width"]))
            signedness = {"signed": "Signed", "unsigned": "Unsigned",
                          "encoding-defined": "EncodingDefined"}[field["signedness"]]
            self.fields.append("{%s, %d, Signedness::%s, %d, %d}" % (
                cxx_string(field["name"]), field["width"], signedness, piece_begin,
                len(field["pieces"])))
        constraint_begin = len(self.constraints)
        for constraint in form["constraints"]:
            value_begin = len(self.values)
            if constraint["operator"] == "one-of":
                values, op = constraint["values"], "OneOf"
            else:
                values, op = [constraint["value"]], "NotEqual"
            self.values.extend(values)
            self.constraints.append("{%d, ConstraintOperator::%s, %d, %d}" % (
                names.index(constraint["field"]), op, value_begin, len(values)))
        variant_begin = len(self.variants)
        for variant in form.get("encoding_variants", []):
            mask, match = total_mask_match(variant["encoding"])
            self.variants.append("{0x%x, 0x%x, %d, %s}" % (mask, match, variant["function"],
                                                           cxx_string(variant["name"])))
        slot_begin = len(self.slots)
        slots = (command_slots(form, model_index) if catalog == "Command" else None) or \
            generic_slots(form)
        for kind, slot_fields, text, optional in slots:
            indices = [names.index(n) for n in slot_fields] + [-1] * (3 - len(slot_fields))
            self.slots.append("{OperandKind::%s, {%d, %d, %d}, %s, %s}" % (
                kind, indices[0], indices[1], indices[2], cxx_string(text),
                "true" if optional else "false"))
        agu = form.get("agu")
        if agu:
            self.agu.append("{%d, AguAction::%s, AguAddress::%s, AguUpdate::%s, %d, %d, %s, %s}" % (
                len(self.forms), agu["action"], agu["address_kind"], agu["update_mode"],
                agu["size_bytes"], agu["offset_scale"], "true" if agu["signed_load"] else "false",
                "true" if agu["prefetch_returns_address"] else "false"))
        start = block_start(form)
        if start:
            self.starts.append("{%d, StartKind::%s, StartTransfer::%s}" % ((len(self.forms),) + start))
        if catalog == "Scalar":
            self.scalar_forms.append((form["mnemonic"], len(self.forms)))
        self.handlers.add(form["semantic_handler"])
        mask, match = total_mask_match(form["encoding"])
        self.forms.append(
            "{%s, %s, %s, %s, %s, %s, SemanticHandler::k%s, Catalog::%s, %d, %d, FormStatus::%s,\n"
            "   %d, 0x%x, 0x%x, %d, %d, %d, %d, %d, %d, %d, %d}" % (
                cxx_string(form["form_id"]), cxx_string(form["mnemonic"]), cxx_string(form["asm"]),
                cxx_string(form["semantic_family"]), cxx_string(form["semantic_group"]),
                cxx_string(form["semantic_handler"]), form["semantic_handler"], catalog,
                model_index, form["length_bits"],
                "Accepted" if form["status"] == "accepted" else "ReservedInPto", releases, mask,
                match, field_begin, len(form["fields"]), constraint_begin, len(form["constraints"]),
                variant_begin, len(form.get("encoding_variants", [])), slot_begin, len(slots)))


# The transfer a control block start names in its template (the spec
# generator's CommandBundleTransferOfForm); C.BSTART.STD/FP take it from BrType.
START_TRANSFERS = (("DIRECT", "Direct"), ("COND", "Conditional"), ("RET", "Return"),
                   ("IND", "Indirect"), ("FALL", "Fallthrough"))


def block_start(form):
    """(kind, transfer) of a control block start, None for other forms and
    for tile starts (their kind follows the operation class in the word)."""
    names = [f["name"] for f in form["fields"]]
    if form["semantic_handler"] != "ExecuteBundleStart" or "DataType" in names:
        return None
    m = form["mnemonic"]
    kind = "Floating" if ".FP" in m else "System" if ".SYS" in m else "Standard"
    if m == "BSTART.CALL":
        return kind, "Call"
    if m == "BSTART.ICALL":
        return kind, "IndirectCall"
    if "BrType" in names:
        return kind, "BranchType"
    words = form["asm"].replace(",", " ").split()
    for word, transfer in START_TRANSFERS:
        if word in words:
            return kind, transfer
    raise SystemExit("%s: no transfer type in %r" % (form["form_id"], form["asm"]))


def generate_scalar_forms(scalar_forms):
    """modules/isa/generated/scalar_forms.hpp."""
    rows = ["  k%s = %d,\n" % (mnemonic.replace(".", "_"), index)
            for mnemonic, index in sorted(scalar_forms)]
    return "".join([
        "// GENERATED by scripts/gen_isa_tables.py from the spec catalogs; do not edit.\n",
        "// Every scalar form by its mnemonic ('.' spelled '_'), valued by its index\n",
        "// in the form table (isa::all_forms()).\n",
        "// clang-format off\n",
        "#pragma once\n\n#include <cstdint>\n\nnamespace ptovp::isa {\n\n",
        "enum class ScalarForm : std::uint16_t {\n", "".join(rows), "};\n",
        "\n}  // namespace ptovp::isa\n",
    ])


def generate_semantic_handlers(handlers):
    """modules/isa/generated/semantic_handlers.hpp."""
    rows = ["  k%s,\n" % handler for handler in sorted(handlers)]
    return "".join([
        "// GENERATED by scripts/gen_isa_tables.py from the spec catalogs; do not edit.\n",
        "// Every semantic handler of the scalar and command catalogs, by its name in\n",
        "// the ASL (FormInfo::handler).\n",
        "// clang-format off\n",
        "#pragma once\n\n#include <cstdint>\n\nnamespace ptovp::isa {\n\n",
        "enum class SemanticHandler : std::uint8_t {\n", "".join(rows), "};\n",
        "\n}  // namespace ptovp::isa\n",
    ])


def tile_operation_row(op):
    operands = ",".join(o["operand"] for o in op["arguments"] if "operand" in o)
    allowed = ",".join(op["datr_contract"]["allowed_nonzero_fields"])
    selector = int(op["selector"], 16) if "selector" in op else -1
    mode = op["mode"] if op.get("mode") is not None else -1
    return "{%s, %s, %s, %s, %d, %d, %d, %s, %s, %s, %s}" % (
        cxx_string(op["name"]), cxx_string(op["family"]), cxx_string(op["engine"]),
        cxx_string(op["command_mnemonic"]), op["function"], mode, selector,
        cxx_string(op["semantic_handler"]), cxx_string(operands), cxx_string(allowed),
        cxx_string(op["datr_contract"]["pad_union"]))


def cube_function_row(op):
    """A CUBE function's properties from its operand roles. CScaleEn (0.58.5,
    docs/spec-choices.md) is legal on the accumulating TMATMUL forms."""
    roles = [o["role"] for o in op["operands"]]
    bias, accumulate = "bias" in roles, "accumulator" in roles
    mx, gemv = "row-scale" in roles, "left-vector" in roles
    name = op["command_mnemonic"][len("BSTART."):]
    flag = lambda b: "true" if b else "false"
    return "{%d, %s, %s, %s, %s, %s, %s}" % (
        op["function"], cxx_string(name), flag(bias), flag(accumulate), flag(mx), flag(gemv),
        flag(accumulate and not gemv))


# Spec names that are two words written as one.
CAMEL_SPELLING = {"BLOCKNUM": "BlockNum", "BLOCKID": "BlockId"}


def camel(name):
    if name in CAMEL_SPELLING:
        return CAMEL_SPELLING[name]
    return "".join(part.capitalize() for part in name.lower().split("_"))


def generate_arch(registers):
    """modules/arch/generated/arch_tables.hpp."""
    ssr = ["  %s = %s,\n" % (camel(r["name"]), r["address"]) for r in registers["registers"]
           if r["scope"] == "base"]
    traps = ["inline constexpr unsigned kTrap%s = %d;\n" % (camel(t["name"]), t["number"])
             for t in registers["trap_numbers"]]
    access = {"RW": "ReadWrite", "RO": "ReadOnly", "WO": "WriteOnly"}
    context = ["    {%s, SsrAccess::%s},  // %s\n" % (r["low_index"], access[r["access"]], r["name"])
               for r in sorted(registers["registers"], key=lambda r: int(r.get("low_index", "0"), 16))
               if r["scope"] == "context-family"]
    return "".join([
        "// GENERATED by scripts/gen_isa_tables.py from the spec catalogs; do not edit.\n",
        "// The base system register map and the trap numbers (system-registers.json).\n",
        "// clang-format off\n",
        "#pragma once\n\n#include <cstdint>\n\nnamespace ptovp::arch {\n\n",
        "// SSR addresses of the base registers.\n",
        "enum class Ssr : std::uint16_t {\n", "".join(ssr), "};\n\n",
        "// The assigned context registers of every ACR bank, by low index, and\n",
        "// what an SSR instruction may do with them.\n",
        "enum class SsrAccess : std::uint8_t { ReadWrite, ReadOnly, WriteOnly };\n",
        "struct ContextRegisterInfo {\n  std::uint16_t low;\n  SsrAccess access;\n};\n",
        "inline constexpr ContextRegisterInfo kContextRegisters[] = {\n", "".join(context), "};\n\n",
        "// TRAPNO values.\n", "".join(traps),
        "\n}  // namespace ptovp::arch\n",
    ])


# The catalogs read, as paths under --spec-data.
CATALOGS = tuple("catalog/%s.json" % name for name in (
    "command-forms", "scalar-forms", "tile-operations", "extension-encoding-reservations",
    "system-registers")) + ("hardware-conformance-profile.json",)

# A data type's class (hardware-conformance-profile.json) as a TypeKind.
TYPE_KINDS = {"floating": "Floating", "packed-floating": "Floating", "scale": "Scale",
              "signed-integer": "Signed", "packed-signed-integer": "Signed",
              "unsigned-integer": "Unsigned", "packed-unsigned-integer": "Unsigned"}


def generate_data_types(profile):
    """modules/numeric/generated/data_types.hpp."""
    types = profile["data_types"]
    enum, rows = [], []
    for t in types:
        lanes = t["lanes_per_storage"]
        lane_bits = t.get("payload_bits", t["storage_bits"] // lanes)
        enum.append("  %s = %d,  // %s\n" % (t["name"], t["code"], t.get("format", t["class"])))
        rows.append("    {DataType::%s, %s, TypeKind::%s, %d, %d, %d},\n" % (
            t["name"], cxx_string(t["name"]), TYPE_KINDS[t["class"]], t["storage_bits"], lanes,
            lane_bits))
    reserved = ", ".join(str(c) for c in profile["reserved_data_type_codes"])
    return "".join([
        "// GENERATED by scripts/gen_isa_tables.py from the spec catalogs; do not edit.\n",
        "// The tile data types (hardware-conformance-profile.json data_types).\n",
        "// clang-format off\n",
        "#pragma once\n\n#include <array>\n#include <cstdint>\n\n",
        '#include "numeric/data_type_info.hpp"\n\n',
        "namespace ptovp::numeric {\n\n",
        "// The 5-bit DataType field values; %s are reserved.\n" % reserved,
        "enum class DataType : std::uint8_t {\n", "".join(enum), "};\n\n",
        "inline constexpr std::array<DataTypeInfo, %d> kDataTypes{{\n" % len(types),
        "".join(rows), "}};\n",
        "\n}  // namespace ptovp::numeric\n",
    ])


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def generate(spec_data):
    catalog_dir = os.path.join(spec_data, "catalog")

    def load(name):
        with open(os.path.join(catalog_dir, name + ".json"), encoding="utf-8") as f:
            return json.load(f)

    commands = load("command-forms")
    scalars = load("scalar-forms")
    tile_ops = load("tile-operations")
    reservations = load("extension-encoding-reservations")
    registers = load("system-registers")
    with open(os.path.join(spec_data, "hardware-conformance-profile.json"), encoding="utf-8") as f:
        profile = json.load(f)
    if scalars["family_constraints"]:
        sys.exit("gen_isa_tables: scalar family_constraints are not supported")

    emitter = Emitter()
    for catalog, data in (("Command", commands), ("Scalar", scalars)):
        for index, form in enumerate(data["forms"]):
            overlay = OVERLAY_0585.get(form["form_id"])
            emitter.add_form(form, catalog, index, RELEASE_0583 if overlay else ALL_RELEASES)
    for index, form in enumerate(commands["forms"]):
        overlay = OVERLAY_0585.get(form["form_id"])
        if overlay:
            emitter.add_form(overlay(copy.deepcopy(form)), "Command", index, RELEASE_0585)

    reserved_rows = []
    for r in reservations["reservations"]:
        mask, match = total_mask_match(r["encoding"])
        reserved_rows.append("{%s, %s, %d, 0x%x, 0x%x}" % (
            cxx_string(r["mnemonic"]), cxx_string(r["owner"]), r["length_bits"], mask, match))
    overlap_rows = ["{%s, %s, %s}" % (cxx_string(o["broad_form_id"]), cxx_string(o["narrow_form_id"]),
                                      cxx_string(o["reason"]))
                    for o in commands["reviewed_encoding_overlaps"]]

    def array(type_name, name, rows):
        body = "".join("    %s,\n" % row for row in rows)
        # constexpr: constant-initialized, so the compiler emits data instead of
        # a dynamic initializer for every row (38 s -> 0.3 s at -O3).
        return ("constexpr %s %s[] = {\n%s};\nconst std::size_t %sCount = %d;\n\n"
                % (type_name, name, body, name, len(rows)))

    out = [
        "// GENERATED by scripts/gen_isa_tables.py from the spec catalogs; do not edit.\n",
        "// Regenerate: python3 scripts/gen_isa_tables.py --spec-data ../shared/spec-data\n",
        "// clang-format off\n",
        '#include "isa/isa_tables.hpp"\n\n',
        "namespace ptovp::isa::generated {\n\n",
        array("FormInfo", "kForms", emitter.forms),
        array("FieldInfo", "kFields", emitter.fields),
        array("FieldPiece", "kPieces", emitter.pieces),
        array("FormConstraint", "kConstraints", emitter.constraints),
        array("std::int64_t", "kConstraintValues", [str(v) for v in emitter.values]),
        array("EncodingVariant", "kVariants", emitter.variants),
        array("OperandSlot", "kSlots", emitter.slots),
        array("ReservedEncoding", "kReservations", reserved_rows),
        array("ReviewedOverlap", "kReviewedOverlaps", overlap_rows),
        array("AguInfo", "kAgu", emitter.agu),
        array("BlockStartInfo", "kBlockStarts", emitter.starts),
        array("TileOperationInfo", "kTileOperations",
              [tile_operation_row(op) for op in tile_ops["operations"]]),
        array("CubeFunctionInfo", "kCubeFunctions",
              [cube_function_row(op) for op in tile_ops["operations"] if op["family"] == "CUBE"]),
        "}  // namespace ptovp::isa::generated\n",
    ]
    return ("".join(out), generate_scalar_forms(emitter.scalar_forms),
            generate_semantic_handlers(emitter.handlers), generate_arch(registers),
            generate_data_types(profile))


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spec-data", default=os.path.join(root, "..", "shared", "spec-data"))
    parser.add_argument("--out", default=os.path.join(root, "modules", "isa", "generated"))
    parser.add_argument("--arch-out", default=os.path.join(root, "modules", "arch", "generated"))
    parser.add_argument("--numeric-out",
                        default=os.path.join(root, "modules", "numeric", "generated"))
    args = parser.parse_args()
    isa_text, scalar_forms_text, handlers_text, arch_text, numeric_text = generate(args.spec_data)
    lock = ["# SHA-256 of the spec catalogs scripts/gen_isa_tables.py read and of what it wrote.\n"]
    for name in CATALOGS:
        with open(os.path.join(args.spec_data, name), "rb") as f:
            lock.append("catalog %s %s\n" % (name, sha256(f.read())))
    for folder, name, text in ((args.out, "isa_tables.cpp", isa_text),
                               (args.out, "scalar_forms.hpp", scalar_forms_text),
                               (args.out, "semantic_handlers.hpp", handlers_text),
                               (args.arch_out, "arch_tables.hpp", arch_text),
                               (args.numeric_out, "data_types.hpp", numeric_text)):
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, name), "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        lock.append("output %s %s\n" % (name, sha256(text.encode("utf-8"))))
    with open(os.path.join(args.out, "catalogs.sha256"), "w", encoding="utf-8", newline="\n") as f:
        f.write("".join(lock))


if __name__ == "__main__":
    main()

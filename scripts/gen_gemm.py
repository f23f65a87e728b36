#!/usr/bin/env python3
"""Looped GEMM benchmark firmware, its inputs and an independent golden.

    gen_gemm.py asm --m M --n N --k K [--type fp16] [--tile 32x32x32 | --tile auto]
                [--capacity 262144] [--relu] [-o FILE]
    gen_gemm.py make SOURCE DIR    writes DIR/input.bin, prints "ADDR LEN"
    gen_gemm.py check SOURCE DIR [--sample N]
                                   compares DIR/output.bin with the golden

D = A x B (FP32 out; S8 out through REQ8 for `--type s8`) with A [M,K] and
B [K,N] row-major in memory. PE p computes rows p*MP .. (p+1)*MP - 1, MP =
ceil(M/4) (A and D hold 4*MP rows; rows past M are zero inputs), one TM x TN
output tile at a time: nested scalar loops over row tiles, column tiles and K
steps, each step a TLOAD of the A tile into the T hand, of the B tile into the
N hand (MX: their scales into the U hand) and a TMATMUL[MX] whose first step
writes the accumulator into the M hand and whose later steps are .ACC with
C = M#1; then one TSTORE. Tiles are named by queue position, so the run needs
`--set tile.naming=queue` (a 17th live tile of a hand retires the oldest).
Edge tiles (M, N or K not multiples of the tile) get their own copy of the loop
body with their sizes; the last K step is peeled (it applies REQ8 for S8).

Types: fp16, bf16, fp32 (TMATMUL, FP32 out); e4m3, e5m2 (TMATMULMX with E8M0
scales per 32 K lanes), hif4 (TMATMULMX HiF4X2 with U32 scale words per 64 K
lanes); s8 (TMATMUL S8, S32 accumulator, REQ8 to S8 with an FP19 scale 2^-S and
an S9 offset, RNE with saturation, optional ReLU).

Tile fit: 16 live tiles of each hand (the queue's depth) must fit one PE's
Local pool of CAPACITY bytes (`tile.capacity`, pools model) and every tile
SizeCode 10 (64 KiB); `--tile auto` picks the largest TN x TK (TM = 32,
powers of two) that fits.

Golden: inputs are drawn so that every product and partial sum is exact in
FP32 (S8: in S32 without wrap-around), so D does not depend on the
accumulation order and is computed here with Python integers and floats, not
with ptovp. Sizes, types and addresses come from the firmware's .equ symbols.
"""
import argparse
import operator
import os
import random
import re
import struct
import sys

from cube_layout import align, m32_bytes, n8_bytes, size_code

HAND_DEPTH = 16  # live registers per Local hand before the queue retires one

# kind: (ordinal, element type, lane bits, scale type, scale bits, scale group, output)
TYPES = {
    "fp16": (0, "FP16", 16, None, 0, 0, "FP32"),
    "bf16": (1, "BF16", 16, None, 0, 0, "FP32"),
    "fp32": (2, "FP32", 32, None, 0, 0, "FP32"),
    "e4m3": (3, "E4M3", 8, "E8M0", 8, 32, "FP32"),
    "e5m2": (4, "E5M2", 8, "E8M0", 8, 32, "FP32"),
    "hif4": (5, "HiF4X2", 4, "U32", 32, 64, "FP32"),
    "s8": (6, "S8", 8, None, 0, 0, "S8"),
}
KIND_NAMES = {spec[0]: name for name, spec in TYPES.items()}


def fail(message):
    """A bad argument: the message on stderr and exit status 2."""
    print(f"gen_gemm: {message}", file=sys.stderr)
    sys.exit(2)


def ceil_div(a, b):
    return (a + b - 1) // b


def tile_codes(kind, tm, tn, tk):
    """SizeCodes of the A, B, scale and D tiles and the live bytes of 16 of each hand."""
    _, _, bits, scale, scale_bits, group, out = TYPES[kind]
    acc_bits = 32
    sizes = {
        "A": m32_bytes(tm, tk, bits),
        "B": n8_bytes(tk, tn, bits),
        "D": m32_bytes(tm, tn, acc_bits),
    }
    if scale:
        groups = ceil_div(tk, group)
        sizes["AS"] = m32_bytes(tm, groups, scale_bits)
        sizes["BS"] = m32_bytes(tn, groups, scale_bits)
    codes = {name: size_code(size) for name, size in sizes.items()}
    live = HAND_DEPTH * (sizes["A"] + sizes["B"] + sizes["D"])
    if scale:
        live += HAND_DEPTH * max(sizes["AS"], sizes["BS"])
    return codes, live


def fits(kind, tm, tn, tk, capacity):
    codes, live = tile_codes(kind, tm, tn, tk)
    return all(code is not None for code in codes.values()) and live <= capacity


def choose_tile(kind, capacity):
    """The largest power-of-two TN x TK with TM = 32 whose tiles fit (ties: larger TK)."""
    best = None
    for tn in (2 ** i for i in range(5, 11)):
        for tk in (2 ** i for i in range(5, 13)):
            if TYPES[kind][5] and tk % TYPES[kind][5]:
                continue
            if fits(kind, 32, tn, tk, capacity) and (best is None or (tn * tk, tk) > best[0]):
                best = ((tn * tk, tk), (32, tn, tk))
    if best is None:
        fail(f"no 32 x TN x TK tile of {kind} fits a Local pool of {capacity} bytes")
    return best[1]


def byte_count(lanes, bits):
    return lanes * bits // 8


def generate(m, n, k, kind, tile, capacity, relu, shift):
    ordinal, etype, bits, scale, scale_bits, group, out = TYPES[kind]
    tm, tn, tk = tile
    errors = []
    if min(m, n, k) < 1:
        errors.append("M, N and K must be at least 1")
    if not 1 <= tm <= 32:
        errors.append("TM must be 1..32 (A, C and D stay one CUBE_M32 block)")
    if tn < 1 or tk < 1:
        errors.append("TN and TK must be at least 1")
    if group and tk % group:
        errors.append(f"TK must be a multiple of the scale group ({group}) for {kind}")
    if bits == 4 and (n % 2 or k % 2 or tn % 2):
        errors.append("hif4 needs even N, K and TN (two lanes a byte)")
    if errors:
        fail("; ".join(errors))
    codes, live = tile_codes(kind, tm, tn, tk)
    if any(code is None for code in codes.values()) or live > capacity:
        fail(f"{tm}x{tn}x{tk} {kind} tiles need {live} live bytes per PE "
                 f"(16 per hand) or exceed SizeCode 10; the Local pool holds {capacity} "
                 "(use a smaller --tile or --tile auto)")
    mp = ceil_div(m, 4)
    rows = 4 * mp
    groups = ceil_div(k, group) if group else 0
    out_bits = 8 if out == "S8" else 32
    layout = []
    offset = 0

    def region(name, size):
        nonlocal offset
        layout.append((name, offset, size))
        offset = align(offset + size, 64)

    region("A_OFF", byte_count(rows * k, bits))
    region("B_OFF", byte_count(k * n, bits))
    if scale:
        region("AS_OFF", rows * groups * scale_bits // 8)
        region("BS_OFF", n * groups * scale_bits // 8)
    region("D_OFF", rows * n * out_bits // 8)
    total = align(offset, 64)

    out_lines = []
    emit = out_lines.append
    relu_text = "ReLU" if relu else "None"
    emit(f"""# Looped GEMM D = A x B generated by scripts/gen_gemm.py (regenerate rather
# than edit): {kind}, M = {m}, N = {n}, K = {k}, tiles {tm} x {tn} x {tk}.
# Run with --set tile.naming=queue; inputs and golden: gen_gemm.py make/check.
# PE p computes rows p*MP .. p*MP+MP-1 of D; A and D hold 4*MP rows.
        .equ KIND, {ordinal}            # {kind}
        .equ M, {m}
        .equ N, {n}
        .equ K, {k}
        .equ MP, {mp}
        .equ TM, {tm}
        .equ TN, {tn}
        .equ TK, {tk}
        .equ G, {groups}                # scale groups along K
        .equ RELU, {int(relu)}
        .equ SHIFT, {shift}             # S8: REQ8 scale 2^-SHIFT
        .equ OFFSET, -3                 # S8: REQ8 S9 offset
        .equ DATA, 0x10000
        .equ DATA_BYTES, {total}""")
    for name, off, size in layout:
        emit(f"        .equ {name}, {off:#x}{' ' * max(1, 10 - len(f'{off:#x}'))}# {size} bytes")
    a_row = byte_count(k, bits)  # bytes per A row
    b_row = byte_count(n, bits)  # bytes per B row
    s_row = groups * scale_bits // 8  # bytes per scale row
    d_row = n * out_bits // 8
    emit(f"""
        .global _start
_start: BSTART.SYS FALL
        ssrget 0x26, ->a0         # THREAD_ID: the PE index
        BSTOP
        BSTART.STD FALL
        hl.liu DATA, ->s3         # s3 = data base
        hl.liu MP, ->a1
        mul a0, a1, ->a0          # a0 = first row of this PE
        hl.liu {a_row}, ->a1      # a1 = A row stride
        mul a0, a1, ->a5
        hl.addi s3, A_OFF, ->s0
        add s0, a5, ->s0    # s0 = this PE's A rows
        hl.liu {d_row}, ->a4      # a4 = D row stride
        mul a0, a4, ->a5
        hl.addi s3, D_OFF, ->s1
        add s1, a5, ->s1    # s1 = this PE's D rows
        hl.liu {b_row}, ->a2      # a2 = B row stride""")
    if scale:
        emit(f"""        hl.liu {s_row}, ->a3      # a3 = scale row stride
        mul a0, a3, ->a5
        hl.addi s3, AS_OFF, ->s8
        add s8, a5, ->s8    # s8 = this PE's A scale rows""")
    if out == "S8":
        fp19 = struct.unpack("<I", struct.pack("<f", 2.0 ** -shift))[0]
        emit(f"""        hl.liu {((-3) & 0x1FF) << 5:#x}, ->x3     # x3 = REQ8 word: S9 offset in bits 45:37
        slli x3, 32, ->x3
        hl.liu {fp19:#x}, ->a5    # FP19 scale 2^-SHIFT in bits 31:13
        add x3, a5, ->x3""")
    emit("        BSTOP")

    labels = iter(range(1, 1 << 30))

    def tload(what, dtype, datr, cols, rows_, addr, stride, dest):
        emit(f"        BSTART.TLOAD {dtype}      # {what}")
        emit(f"        B.DATR {datr}, DTYPE_NONE, Zero, EQ, NONE, 0, 0")
        emit(f"        B.DIM zero, {cols}, ->LB0")
        emit(f"        B.DIM zero, {rows_}, ->LB1")
        emit(f"        B.IOR [{addr}, {stride}]")
        emit(f"        B.IOT mask=1111, last, ->{dest}")
        emit("        BSTOP")

    def k_step(h, w, depth, first, last):
        """One K step of an h x w tile over `depth` lanes of K."""
        step_groups = ceil_div(depth, group) if group else 0
        tload(f"A [{h},{depth}]", etype, "ND2M32", depth, h, "a5", "a1", f"T<{codes['A']}>")
        if scale:
            tload(f"A scale [{h},{step_groups}]", scale, "ND2M32", step_groups, h, "a7", "a3",
                  f"U<{codes['AS']}>")
        tload(f"B [{depth},{w}]", etype, "ND2N8", w, depth, "a6", "a2", f"N<{codes['B']}>")
        if scale:
            tload(f"B scale [{w},{step_groups}]", scale, "ND2M32", step_groups, w, "x2", "a3",
                  f"U<{codes['BS']}>")
        requant = out == "S8" and last
        op = "TMATMULMX" if scale else "TMATMUL"
        emit(f"        BSTART.{op}{'' if first else '.ACC'} {etype}")
        if requant:
            emit(f"        B.DATR NORM, {etype}, Zero, EQ, RNE, 1, 0")
            emit(f"        B.FPATR REQ8, {relu_text}, 0, 0, 0, 0, 0, 0, 0, 0")
        else:
            emit(f"        B.DATR NORM, {etype}, Zero, EQ, NONE, 0, 0")
            emit("        B.FPATR None, None, 0, 0, 0, 0, 0, 0, 0, 0")
        emit(f"        B.DIM zero, {h}, ->LB0")
        emit(f"        B.DIM zero, {w}, ->LB1")
        emit(f"        B.DIM zero, {depth}, ->LB2")
        if requant:
            emit("        B.IOR [x3]")
        sources = ([] if first else ["M#1"]) + (["T#1", "U#2", "N#1", "U#1"] if scale
                                                 else ["T#1", "N#1"])
        d_code = m32_bytes(h, w, out_bits if requant else 32)
        pairs = [sources[i:i + 2] for i in range(0, len(sources), 2)]  # two per B.IOT
        for pair in pairs[:-1]:
            emit(f"        B.IOT {', '.join(pair)}, mask=1111")
        emit(f"        B.IOT {', '.join(pairs[-1])}, mask=1111, last, ->M<{size_code(d_code)}>")
        emit("        BSTOP")
        if not last:
            emit("        BSTART.STD FALL")
            emit(f"        hl.addi a5, {byte_count(depth, bits)}, ->a5")
            emit(f"        hl.addi a6, {byte_count(depth, bits) * n}, ->a6")
            if scale:
                emit(f"        hl.addi a7, {step_groups * scale_bits // 8}, ->a7")
                emit(f"        hl.addi x2, {step_groups * scale_bits // 8}, ->x2")
            emit("        BSTOP")

    def loop(count, counter, body, advance):
        """`count` iterations of body(); advance() emits the pointer updates of one iteration."""
        if count == 0:
            return
        if count == 1:
            body()
            emit("        BSTART.STD FALL")
            advance()
            emit("        BSTOP")
            return
        label = f"loop{next(labels)}"
        emit("        BSTART.STD FALL")
        emit(f"        hl.liu {count}, ->{counter}")
        emit("        BSTOP")
        emit(f"{label}:")
        body()
        emit(f"        BSTART.STD COND, {label}")
        advance()
        emit(f"        subi {counter}, 1, ->{counter}")
        emit(f"        setc.nei {counter}, 0, 0")
        emit("        BSTOP")

    def output_tile(h, w):
        emit(f"        # tile {h} x {w}")
        emit("        BSTART.STD FALL")
        emit("        add s0, zero, ->a5  # a5 = A tile")
        emit("        add s4, zero, ->a6  # a6 = B tile")
        if scale:
            emit("        add s8, zero, ->a7  # a7 = A scale tile")
            emit("        add x0, zero, ->x2  # x2 = B scale tile")
        emit("        BSTOP")
        steps = ceil_div(k, tk)
        tail = k - (steps - 1) * tk
        k_step(h, w, min(tk, k), True, steps == 1)
        if steps > 2:
            loop(steps - 2, "s7", lambda: k_step(h, w, tk, False, False), lambda: None)
        if steps > 1:
            k_step(h, w, tail, False, True)
        emit(f"        BSTART.TSTORE {out}")
        emit("        B.DATR M322ND, DTYPE_NONE, Zero, EQ, NONE, 0, 0")
        emit(f"        B.DIM zero, {w}, ->LB0")
        emit(f"        B.DIM zero, {h}, ->LB1")
        emit("        B.IOR [s5, a4]")
        emit("        B.IOT M#1, mask=1111, last")
        emit("        BSTOP")

    def advance_column(w):
        emit(f"        hl.addi s4, {byte_count(w, bits)}, ->s4")
        emit(f"        hl.addi s5, {w * out_bits // 8}, ->s5")
        if scale:
            emit(f"        hl.addi x0, {w * s_row}, ->x0")

    def row_band(h):
        emit("        BSTART.STD FALL")
        emit("        hl.addi s3, B_OFF, ->s4   # s4 = B column tile")
        emit("        add s1, zero, ->s5  # s5 = D tile")
        if scale:
            emit("        hl.addi s3, BS_OFF, ->x0  # x0 = B scale rows of the column tile")
        emit("        BSTOP")
        full, edge = divmod(n, tn)
        loop(full, "s6", lambda: output_tile(h, tn), lambda: advance_column(tn))
        if edge:
            output_tile(h, edge)

    def advance_rows(h):
        emit(f"        hl.addi s0, {h * a_row}, ->s0")
        emit(f"        hl.addi s1, {h * d_row}, ->s1")
        if scale:
            emit(f"        hl.addi s8, {h * s_row}, ->s8")

    full, edge = divmod(mp, tm)
    loop(full, "s2", lambda: row_band(tm), lambda: advance_rows(tm))
    if edge:
        row_band(edge)
    emit("""
        BSTART.SYS FALL
        ebreak 0""")
    return "\n".join(out_lines) + "\n"


# ---- inputs and golden ---------------------------------------------------------------------

FLOAT_VALUES = (-2.0, -1.5, -1.0, -0.5, 0.0, 0.5, 1.0, 1.5, 2.0)


def encode_float(value, kind):
    if kind == "fp32":
        return struct.pack("<f", value)
    if kind == "fp16":
        return struct.pack("<e", value)
    if kind == "bf16":
        return struct.pack("<f", value)[2:]
    exp_bits, man_bits = (4, 3) if kind == "e4m3" else (5, 2)
    if value == 0:
        return bytes([0])
    mag = abs(value)
    exponent = 0
    while mag >= 2:
        mag /= 2
        exponent += 1
    while mag < 1:
        mag *= 2
        exponent -= 1
    bias = (1 << (exp_bits - 1)) - 1
    code = (exponent + bias) << man_bits | int((mag - 1) * (1 << man_bits))
    return bytes([code | (0x80 if value < 0 else 0)])


def symbols(source):
    values = {}
    for match in re.finditer(r"^\s*\.equ\s+(\w+),\s*(-?\w+)", open(source).read(), re.M):
        values[match.group(1)] = int(match.group(2), 0)
    return values


class Problem:
    """The operands of a generated image, drawn from a fixed seed; values as numbers."""

    def __init__(self, s):
        self.s = s
        self.kind = KIND_NAMES[s["KIND"]]
        self.m, self.n, self.k, self.rows = s["M"], s["N"], s["K"], 4 * s["MP"]
        rng = random.Random(20261201)
        kind, m, n, k = self.kind, self.m, self.n, self.k
        if kind == "s8":
            self.a = [rng.choices(range(-128, 128), k=k) for _ in range(m)]
            self.b = [rng.choices(range(-128, 128), k=n) for _ in range(k)]
        elif kind == "hif4":
            self.a = [rng.choices(range(16), k=k) for _ in range(m)]  # nibbles
            self.b = [rng.choices(range(16), k=n) for _ in range(k)]
            g = s["G"]
            # E6M2 bases 2^-1 and 2^0 (exponent 47, 48, m = 0) and E1_8 increments only:
            # lane scales 2^-1 .. 2^1, so sums stay exact in FP32.
            word = lambda: (rng.getrandbits(8) << 8) | rng.choice((47 << 2, 48 << 2))
            self.a_scale = [[word() for _ in range(g)] for _ in range(m)]
            self.b_scale = [[word() for _ in range(g)] for _ in range(n)]
        else:
            self.a = [rng.choices(FLOAT_VALUES, k=k) for _ in range(m)]
            self.b = [rng.choices(FLOAT_VALUES, k=n) for _ in range(k)]
            if kind in ("e4m3", "e5m2"):
                g = s["G"]
                self.a_scale = [rng.choices((126, 127, 128), k=g) for _ in range(m)]
                self.b_scale = [rng.choices((126, 127, 128), k=g) for _ in range(n)]

    def image(self):
        s, kind, k, n = self.s, self.kind, self.k, self.n
        data = bytearray(s["DATA_BYTES"])

        def put(offset, payload):
            data[offset: offset + len(payload)] = payload

        if kind == "s8":
            put(s["A_OFF"], bytes(v & 0xFF for row in self.a for v in row))
            put(s["B_OFF"], bytes(v & 0xFF for row in self.b for v in row))
        elif kind == "hif4":
            pack = lambda row: bytes(row[i] | row[i + 1] << 4 for i in range(0, len(row), 2))
            put(s["A_OFF"], b"".join(pack(row) for row in self.a))
            put(s["B_OFF"], b"".join(pack(row) for row in self.b))
            g = s["G"]
            put(s["AS_OFF"], b"".join(struct.pack(f"<{g}I", *row) for row in self.a_scale))
            put(s["BS_OFF"], b"".join(struct.pack(f"<{g}I", *row) for row in self.b_scale))
        else:
            codes = {v: encode_float(v, kind) for v in FLOAT_VALUES}
            put(s["A_OFF"], b"".join(codes[v] for row in self.a for v in row))
            put(s["B_OFF"], b"".join(codes[v] for row in self.b for v in row))
            if kind in ("e4m3", "e5m2"):
                put(s["AS_OFF"], bytes(v for row in self.a_scale for v in row))
                put(s["BS_OFF"], bytes(v for row in self.b_scale for v in row))
        return data

    def scaled_rows(self):
        """A's rows and B's columns as exact numbers (MX and HiF4: scale applied per lane)."""
        kind, k = self.kind, self.k
        if kind == "hif4":
            magnitude = (0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75)
            lane = lambda nib: -magnitude[nib & 7] if nib & 8 else magnitude[nib & 7]
            scale = lambda word, x: (2.0 ** ((word & 0xFF) // 4 - 48)
                                     * 2.0 ** (((word >> (8 + x % 64 // 8)) & 1)
                                               + ((word >> (16 + x % 64 // 4)) & 1)))
            a = [[lane(r[x]) * scale(self.a_scale[i][x // 64], x) for x in range(k)]
                 for i, r in enumerate(self.a)]
            b = [[lane(self.b[x][j]) * scale(self.b_scale[j][x // 64], x) for x in range(k)]
                 for j in range(self.n)]
        elif kind in ("e4m3", "e5m2"):
            a = [[r[x] * 2.0 ** (self.a_scale[i][x // 32] - 127) for x in range(k)]
                 for i, r in enumerate(self.a)]
            b = [[self.b[x][j] * 2.0 ** (self.b_scale[j][x // 32] - 127) for x in range(k)]
                 for j in range(self.n)]
        else:
            a = self.a
            b = [[self.b[x][j] for x in range(k)] for j in range(self.n)]
        return a, b

    def golden(self, acc):
        """D's element from the exact accumulator (S8: REQ8 as the firmware configures it)."""
        if self.kind != "s8":
            return acc
        acc = (acc + (1 << 31)) % (1 << 32) - (1 << 31)  # S32 wrap-around
        if self.s["RELU"]:
            acc = max(acc, 0)
        shift = self.s["SHIFT"]
        quotient, remainder = divmod(acc, 1 << shift)  # floor
        half = 1 << shift >> 1 if shift else 0
        if shift and (remainder > half or (remainder == half and quotient & 1)):
            quotient += 1
        value = min(max(quotient, -256), 255) + self.s["OFFSET"]
        return min(max(value, -128), 127)


def make(source, directory):
    s = symbols(source)
    os.makedirs(directory, exist_ok=True)
    open(f"{directory}/input.bin", "wb").write(Problem(s).image())
    print(f"0x{s['DATA']:x} {s['DATA_BYTES']}")


def check(source, directory, sample):
    s = symbols(source)
    problem = Problem(s)
    m, n = problem.m, problem.n
    a, b = problem.scaled_rows()
    output = open(f"{directory}/output.bin", "rb").read()
    if len(output) < s["DATA_BYTES"]:
        print(f"gen_gemm: {directory}/output.bin has {len(output)} bytes, "
              f"the image's data {s['DATA_BYTES']}")
        return 1
    if problem.kind == "s8":
        d = struct.unpack_from(f"<{problem.rows * n}b", output, s["D_OFF"])
    else:
        d = struct.unpack_from(f"<{problem.rows * n}f", output, s["D_OFF"])
    points = [(i, j) for i in range(m) for j in range(n)]
    if sample and sample < len(points):
        points = random.Random(7).sample(points, sample)
    mismatches = 0
    for i, j in points:
        golden = problem.golden(sum(map(operator.mul, a[i], b[j])))
        if d[i * n + j] != golden:
            mismatches += 1
            if mismatches <= 5:
                print(f"D[{i},{j}] = {d[i * n + j]}, golden {golden}")
    print(f"gen_gemm: {len(points) - mismatches}/{len(points)} elements of D match the golden")
    return 1 if mismatches else 0


def parse_tile(text, kind, capacity):
    if text == "auto":
        return choose_tile(kind, capacity)
    parts = text.lower().split("x")
    if len(parts) != 3 or not all(p.isdigit() for p in parts):
        fail(f"--tile {text}: expected TMxTNxTK, e.g. 32x32x32, or auto")
    return tuple(int(p) for p in parts)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    asm = commands.add_parser("asm", help="write the firmware")
    asm.add_argument("--m", type=int, required=True)
    asm.add_argument("--n", type=int, required=True)
    asm.add_argument("--k", type=int, required=True)
    asm.add_argument("--type", choices=sorted(TYPES), default="fp16")
    asm.add_argument("--tile", default="32x32x32", help="TMxTNxTK or auto")
    asm.add_argument("--capacity", type=int, default=262144,
                     help="one PE's Local pool (tile.capacity) the tiles must fit")
    asm.add_argument("--relu", action="store_true", help="s8: ReLU before REQ8")
    asm.add_argument("--shift", type=int, help="s8: REQ8 scale 2^-SHIFT (default from K)")
    asm.add_argument("-o", "--output", help="output file (default stdout)")
    for name in ("make", "check"):
        sub = commands.add_parser(name)
        sub.add_argument("source")
        sub.add_argument("directory")
        if name == "check":
            sub.add_argument("--sample", type=int, default=0,
                             help="check N elements drawn at random (default: all)")
    args = parser.parse_args()
    if args.command == "make":
        make(args.source, args.directory)
    elif args.command == "check":
        sys.exit(check(args.source, args.directory, args.sample))
    else:
        tile = parse_tile(args.tile, args.type, args.capacity)
        # S8: spread sqrt(K) * 74^2 (the S8 products' standard deviation) over about +-64.
        shift = args.shift if args.shift is not None else max(
            0, round((args.k ** 0.5 * 74 * 74 / 64)).bit_length() - 1)
        text = generate(args.m, args.n, args.k, args.type, tile, args.capacity, args.relu, shift)
        if args.output:
            with open(args.output, "w") as f:
                f.write(text)
        else:
            sys.stdout.write(text)


if __name__ == "__main__":
    main()

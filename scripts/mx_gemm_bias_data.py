#!/usr/bin/env python3
"""Inputs and an independent golden for firmware/mx_gemm_bias (the README demo).

    mx_gemm_bias_data.py make SOURCE DIR    writes DIR/input.bin, prints "ADDR LEN"
    mx_gemm_bias_data.py check SOURCE DIR   compares DIR/output.bin with the golden

Sizes and addresses come from the firmware's .equ symbols. The inputs are E4M3
values in {0, +-0.5, +-1, +-1.5, +-2} with E8M0 scales 2^-1..2^1 and small
integer biases, so every product and partial sum is exact in FP32 and the
golden D_i[m,n] = sum_k A_i[m,k]*2^(AS_i[m,k/32]-127) * B[k,n]*2^(BS[n,k/32]-127)
+ Bias[n] does not depend on the accumulation order.
"""
import operator
import random
import re
import struct
import sys

E4M3 = {0.0: 0x00, 0.5: 0x30, 1.0: 0x38, 1.5: 0x3C, 2.0: 0x40}
SCALES = (126, 127, 128)  # E8M0: 2^-1, 2^0, 2^1


def symbols(source):
    values = {}
    for match in re.finditer(r"^\s*\.equ\s+(\w+),\s*(\w+)", open(source).read(), re.M):
        values[match.group(1)] = int(match.group(2), 0)
    return values


def e4m3(value):
    return E4M3[abs(value)] | (0x80 if value < 0 else 0)


def inputs(s, pe):
    """PE pe's B, BS, Bias and per block A, AS, from a fixed seed."""
    rng = random.Random(1000 + pe)
    m, n, k, g = s["M"], s["N"], s["K"], s["G"]
    value = lambda: rng.choice((-2.0, -1.5, -1.0, -0.5, 0.0, 0.5, 1.0, 1.5, 2.0))
    b = [[value() for _ in range(n)] for _ in range(k)]
    bs = [[rng.choice(SCALES) for _ in range(g)] for _ in range(n)]
    bias = [float(rng.randint(-8, 8)) for _ in range(n)]
    blocks = []
    for _ in range(s["BLOCKS"]):
        a = [[value() for _ in range(k)] for _ in range(m)]
        a_scale = [[rng.choice(SCALES) for _ in range(g)] for _ in range(m)]
        blocks.append((a, a_scale))
    return b, bs, bias, blocks


def region(s):
    return s["DATA"], 4 * s["PE_STRIDE"]


def make(source, directory):
    s = symbols(source)
    base, length = region(s)
    data = bytearray(length)
    for pe in range(4):
        b, bs, bias, blocks = inputs(s, pe)
        at = pe * s["PE_STRIDE"]

        def put(offset, payload):
            data[at + offset: at + offset + len(payload)] = payload

        put(s["B_OFF"], bytes(e4m3(v) for row in b for v in row))
        put(s["BS_OFF"], bytes(v for row in bs for v in row))
        put(s["BIAS_OFF"], struct.pack(f"<{len(bias)}f", *bias))
        for i, (a, a_scale) in enumerate(blocks):
            put(s[f"A{i}_OFF"], bytes(e4m3(v) for row in a for v in row))
            put(s[f"AS{i}_OFF"], bytes(v for row in a_scale for v in row))
    open(f"{directory}/input.bin", "wb").write(data)
    print(f"0x{base:x} {length}")


def check(source, directory):
    s = symbols(source)
    m, n, k = s["M"], s["N"], s["K"]
    output = open(f"{directory}/output.bin", "rb").read()
    mismatches = 0
    for pe in range(4):
        b, bs, bias, blocks = inputs(s, pe)
        # Scaled values, B by column: every product and sum is exact, so the
        # order does not matter and each term is scaled once, not per output.
        b_cols = [[b[x][col] * 2.0 ** (bs[col][x // 32] - 127) for x in range(k)]
                  for col in range(n)]
        for i, (a, a_scale) in enumerate(blocks):
            at = pe * s["PE_STRIDE"] + s[f"D{i}_OFF"]
            d = struct.unpack_from(f"<{m * n}f", output, at)
            for row in range(m):
                a_row = [a[row][x] * 2.0 ** (a_scale[row][x // 32] - 127) for x in range(k)]
                for col in range(n):
                    golden = bias[col] + sum(map(operator.mul, a_row, b_cols[col]))
                    if d[row * n + col] != golden:
                        mismatches += 1
                        if mismatches <= 5:
                            print(f"PE{pe} D{i}[{row},{col}] = {d[row * n + col]}, golden {golden}")
    total = 4 * s["BLOCKS"] * m * n
    print(f"mx_gemm_bias: {total - mismatches}/{total} elements of D match the golden")
    return 1 if mismatches else 0


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("make", "check"):
        sys.exit(__doc__)
    if sys.argv[1] == "make":
        make(sys.argv[2], sys.argv[3])
    else:
        sys.exit(check(sys.argv[2], sys.argv[3]))


if __name__ == "__main__":
    main()

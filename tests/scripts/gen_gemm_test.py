#!/usr/bin/env python3
"""scripts/gen_gemm.py end to end: generate, assemble, make the inputs, run on
both engines, check every element of D against the script's golden.

    gen_gemm_test.py PTOVP TYPE M N K TILE [--relu]

Also checks that a tile too large for the Local pool is refused with exit 2.
"""
import os
import subprocess
import sys
import tempfile

SCRIPTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts")
GEN = [sys.executable, os.path.join(SCRIPTS, "gen_gemm.py")]


def run(command, **kwargs):
    result = subprocess.run(command, capture_output=True, text=True, **kwargs)
    if result.returncode != 0:
        sys.exit(f"FAILED ({result.returncode}): {' '.join(command)}\n{result.stdout}{result.stderr}")
    return result.stdout


def main():
    ptovp, kind, m, n, k, tile = sys.argv[1:7]
    extra = sys.argv[7:]
    with tempfile.TemporaryDirectory() as tmp:
        source, image = os.path.join(tmp, "gemm.s"), os.path.join(tmp, "gemm.elf")
        run(GEN + ["asm", "--m", m, "--n", n, "--k", k, "--type", kind, "--tile", tile,
                   "-o", source] + extra)
        run([ptovp, "asm", source, "-o", image])
        address, length = run(GEN + ["make", source, tmp]).split()
        for engine in ("functional", "systemc"):
            output = os.path.join(tmp, "output.bin")
            if os.path.exists(output):
                os.remove(output)
            run([ptovp, "run", image, "--engine", engine, "--quiet", "--set", "tile.naming=queue",
                 "--load", f"{os.path.join(tmp, 'input.bin')}@{address}",
                 "--dump", f"{address}:{length}:{output}"])
            verdict = run(GEN + ["check", source, tmp])
            total = int(m) * int(n)
            expected = f"{total}/{total} elements of D match"
            if expected not in verdict:
                sys.exit(f"{engine}: {verdict}")
            print(f"{engine}: {verdict.strip()}")
        refused = subprocess.run(GEN + ["asm", "--m", m, "--n", n, "--k", k, "--type", kind,
                                        "--tile", "32x1024x1024"], capture_output=True, text=True)
        if refused.returncode != 2 or "Local pool" not in refused.stderr:
            sys.exit(f"an oversized tile was not refused: {refused.returncode} {refused.stderr}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""scripts/sweep.py end to end on one backend.

    sweep_test.py PTOVP local|parallel|slurm

Sweeps firmware/tile_copy and a small generated GEMM over tlsu.bytes_per_cycle
x tile.capacity, where tile.capacity=64 makes every run fault: the sweep must
keep going, give one row per point with a column per swept key, say why the
failed points failed, show fewer cycles at the higher bandwidth, and
`sweep.py merge` must rebuild the same CSV from the point files.
"""
import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
SWEEP = os.path.join(ROOT, "scripts", "sweep.py")
GEN = os.path.join(ROOT, "scripts", "gen_gemm.py")


def run(command, **kwargs):
    result = subprocess.run(command, capture_output=True, text=True, **kwargs)
    if result.returncode != 0:
        sys.exit(f"FAILED ({result.returncode}): {' '.join(command)}\n{result.stdout}{result.stderr}")
    return result.stdout


def check(condition, message):
    if not condition:
        sys.exit(f"FAILED: {message}")


def check_point_threads(tmp):
    """A point gets --threads 1 unless the sweep or its run arguments choose."""
    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    import sweep
    nested, flat, other = (os.path.join(tmp, name) for name in ("n.json", "f.json", "o.json"))
    for path, config in ((nested, {"host": {"threads": 2}}), (flat, {"host.threads": 2}),
                         (other, {"tile": {"naming": "queue"}})):
        with open(path, "w") as f:
            json.dump(config, f)
    cases = [([], [], ["--threads", "1"]),
             (["tile.capacity"], ["--set", "tile.naming=queue"], ["--threads", "1"]),
             (["host.threads"], [], []),
             ([], ["--threads", "2"], []),
             ([], ["--set", "host.threads=2"], []),
             ([], ["--config", nested], []),
             ([], [f"--config={flat}"], []),
             ([], ["--config", other], ["--threads", "1"])]
    for keys, extra, expected in cases:
        got = sweep.point_threads(keys, extra)
        check(got == expected, f"point_threads({keys}, {extra}) = {got}, expected {expected}")


def main():
    ptovp, backend = sys.argv[1:3]
    if backend == "parallel" and not shutil.which("parallel"):
        print("GNU parallel is not installed (Debian package parallel); skipped")
        sys.exit(77)
    with tempfile.TemporaryDirectory() as tmp:
        check_point_threads(tmp)
        copy = os.path.join(tmp, "tile_copy.elf")
        run([ptovp, "asm", os.path.join(ROOT, "firmware", "tile_copy", "tile_copy.s"), "-o", copy])
        gemm_source, gemm = os.path.join(tmp, "gemm.s"), os.path.join(tmp, "gemm.elf")
        run([sys.executable, GEN, "asm", "--m", "64", "--n", "32", "--k", "64", "-o", gemm_source])
        run([ptovp, "asm", gemm_source, "-o", gemm])
        output = os.path.join(tmp, "out")
        command = [sys.executable, SWEEP, copy, gemm, "--set", "tlsu.bytes_per_cycle=16,64",
                   "--set", "tile.capacity=64,262144", "-o", output, "--ptovp", ptovp,
                   "--backend", backend, "--timeout", "120"]
        if backend == "parallel":
            command += ["--sshlogin", ":"]
        stdout = run(command + ["--", "--set", "tile.naming=queue"])
        print(stdout)
        with open(output + ".csv") as f:
            rows = list(csv.DictReader(f))
        check(len(rows) == 8, f"{len(rows)} rows, expected 8")
        check(list(rows[0])[:4] == ["image", "tlsu.bytes_per_cycle", "tile.capacity", "status"],
              f"columns {list(rows[0])[:4]}")
        for row in rows:
            if row["tile.capacity"] == "64":
                check(row["status"].startswith("exit 100") and "TileAllocation" in row["status"],
                      f"a failed point's status: {row['status']}")
                check(row["cycles"] == "", "a failed point has no cycles")
            else:
                check(row["status"] == "ok", f"status {row['status']}")
        ok = {(r["image"], r["tlsu.bytes_per_cycle"]): int(r["cycles"]) for r in rows
              if r["status"] == "ok"}
        for image in ("tile_copy.elf", "gemm.elf"):
            check(ok[(image, "16")] > ok[(image, "64")],
                  f"{image}: {ok[(image, '16')]} cycles at 16 B/cycle, {ok[(image, '64')]} at 64")
        with open(os.path.join(output + ".d", "points", "1.json")) as f:
            command = json.load(f)["command"]
        check(command[-4:] == ["--threads", "1", "--set", "tile.naming=queue"],
              f"a point runs on one host thread before the run arguments: {command}")
        with open(output + ".csv") as f:
            first = f.read()
        os.remove(output + ".csv")
        run([sys.executable, SWEEP, "merge", output])
        with open(output + ".csv") as f:
            check(f.read() == first, "merge did not rebuild the same CSV")
        # A point that left no result is a row that says so, and exit 1.
        os.remove(os.path.join(output + ".d", "points", "0.json"))
        merged = subprocess.run([sys.executable, SWEEP, "merge", output], capture_output=True,
                                text=True)
        check(merged.returncode == 1, f"merge with a missing point exited {merged.returncode}")
        with open(output + ".csv") as f:
            check(list(csv.DictReader(f))[0]["status"].startswith("no result"),
                  "the missing point's row")
    print(f"sweep ({backend}): 8 points, 4 failed as configured, merge reproduces the CSV")


if __name__ == "__main__":
    main()

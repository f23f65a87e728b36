#!/usr/bin/python3
"""Runs one firmware over a grid of configuration values and writes a CSV and a plot.

    sweep.py IMAGE --set KEY=V1,V2,... [--set KEY=...]... [-o OUT] [--ptovp BIN]
             [-- EXTRA ptovp run ARGS]

Every combination of the values is one `ptovp run IMAGE --stats ... --set KEY=V`
(systemc engine); OUT.csv gets one row per run (the values, cycles, MACs,
bytes and each unit's utilisation) and OUT.png its plot (scripts/plot_stats.py).
A run that does not exit 0 stops the sweep.
"""
import argparse
import csv
import itertools
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import plot_stats  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("image")
    parser.add_argument("--set", action="append", required=True, dest="grid",
                        help="KEY=V1,V2,...: the values of one configuration key")
    parser.add_argument("-o", "--output", default="sweep", help="OUT.csv and OUT.png")
    parser.add_argument("--ptovp", default="build/release/platform/ptovp")
    parser.add_argument("extra", nargs="*", help="more `ptovp run` arguments (after --)")
    args = parser.parse_args()

    keys, values = [], []
    for item in args.grid:
        key, _, listed = item.partition("=")
        keys.append(key)
        values.append(listed.split(","))
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        stats_path = os.path.join(tmp, "stats.json")
        for combination in itertools.product(*values):
            command = [args.ptovp, "run", args.image, "--quiet", "--stats", stats_path]
            for key, value in zip(keys, combination):
                command += ["--set", f"{key}={value}"]
            result = subprocess.run(command + args.extra, capture_output=True, text=True)
            if result.returncode != 0:
                sys.exit(f"sweep: {' '.join(command)} exited {result.returncode}\n{result.stderr}")
            with open(stats_path) as f:
                row = plot_stats.point(json.load(f))
            row["label"] = " ".join(f"{k}={v}" for k, v in zip(keys, combination))
            rows.append(row)
            print(f"{row['label']}: {row['cycles']} cycles")
    with open(args.output + ".csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        writer.writeheader()
        writer.writerows(rows)
    print(f"sweep: wrote {args.output}.csv")
    plot_stats.plot(rows, args.output + ".png")


if __name__ == "__main__":
    main()

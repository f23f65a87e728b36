#!/usr/bin/env python3
"""CPU time of two ptovp builds on the same run, interleaved (docs/performance.md).

    ab_cpu.py --base OLD/ptovp --new NEW/ptovp --rounds 21 -- run IMAGE [ARGS...]

Each round runs the base, then the new build, once each; a run's cost is the
user + system CPU time the child used (getrusage), which a loaded machine
disturbs far less than wall time. Prints JSON: best and median seconds of
each, and new / base of both.
"""
import argparse
import json
import resource
import statistics
import subprocess
import sys


def cpu_seconds(command):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    result = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode != 0:
        sys.exit(f"ab_cpu: {' '.join(command)} exited {result.returncode}: {result.stderr}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", required=True)
    parser.add_argument("--new", required=True)
    parser.add_argument("--rounds", type=int, default=21)
    parser.add_argument("args", nargs=argparse.REMAINDER)
    options = parser.parse_args()
    args = options.args[1:] if options.args[:1] == ["--"] else options.args
    times = {"base": [], "new": []}
    for _ in range(options.rounds):
        for build in ("base", "new"):
            times[build].append(cpu_seconds([getattr(options, build), *args]))
    summary = {build: {"best": min(t), "median": statistics.median(t)} for build, t in times.items()}
    summary["ratio"] = {k: summary["new"][k] / summary["base"][k] for k in ("best", "median")}
    json.dump(summary, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()

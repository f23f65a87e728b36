#!/usr/bin/env python3
"""A whole firmware run under fpatr.backend=cpp and rtl in the same session
(docs/performance.md): ROUNDS rounds, each one run per backend, interleaved.
Two times per run: the run phase the tool reports (wall clock, without the
loading: the functional engine's "N instructions in T s" under `--verbose`,
the SystemC summary's `host` line) and the CPU time of the whole process
(user + system, loading included), which a loaded machine disturbs less.
Prints JSON: per time the median of each backend and the median of the
per-round ratios rtl/cpp.

    fpatr_firmware_bench.py --ptovp BIN IMAGE [--engine systemc|functional]
                            [--rounds N] [-- RUN ARGS...]
"""
import argparse
import json
import re
import resource
import statistics
import subprocess
import sys

RUN_TIME = re.compile(r"instructions in ([0-9.]+) s|^\s*host\s+([0-9.]+) s", re.MULTILINE)


def cpu_seconds():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_seconds(ptovp, image, engine, backend, extra):
    """The run phase's wall seconds and the process's CPU seconds."""
    report = ["--verbose"] if engine == "functional" else []  # SystemC: the summary
    cpu = cpu_seconds()
    result = subprocess.run([ptovp, "run", image, "--engine", engine, *report,
                             "--set", f"fpatr.backend={backend}", *extra],
                            capture_output=True, text=True, check=False)
    if result.returncode != 0:
        sys.exit(f"fpatr_firmware_bench: {backend} run exited {result.returncode}:\n"
                 f"{result.stderr}")
    match = RUN_TIME.search(result.stdout + result.stderr)
    if match is None:
        sys.exit(f"fpatr_firmware_bench: no run time in the {backend} run's output")
    return float(match.group(1) or match.group(2)), cpu_seconds() - cpu


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ptovp", required=True)
    parser.add_argument("image")
    parser.add_argument("--engine", choices=("systemc", "functional"), default="systemc")
    parser.add_argument("--rounds", type=int, default=7)
    argv = sys.argv[1:]
    split = argv.index("--") if "--" in argv else len(argv)
    args = parser.parse_args(argv[:split])
    extra = argv[split + 1:]
    runs = {"cpp": [], "rtl": []}
    for _ in range(args.rounds):
        for backend, times in runs.items():
            times.append(run_seconds(args.ptovp, args.image, args.engine, backend, extra))
    result = {"image": args.image, "engine": args.engine, "rounds": args.rounds}
    for index, time in enumerate(("run", "cpu")):
        cpp = [run[index] for run in runs["cpp"]]
        rtl = [run[index] for run in runs["rtl"]]
        result[f"cpp_{time}_s"] = round(statistics.median(cpp), 6)
        result[f"rtl_{time}_s"] = round(statistics.median(rtl), 6)
        # The SystemC summary counts milliseconds: a short run can read 0.
        ratios = [r / c for c, r in zip(cpp, rtl) if c > 0]
        result[f"{time}_rtl_over_cpp"] = round(statistics.median(ratios), 3) if ratios else None
    print(json.dumps(result))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""A whole firmware run under fpatr.backend=cpp and rtl in the same session
(docs/performance.md): ROUNDS rounds, each one run per backend, interleaved,
timing the run phase the tool reports (the functional engine's "N
instructions in T s" under `--verbose`, the SystemC summary's `host` line),
not the loading.
Prints JSON: the median seconds of each backend and the median of the
per-round ratios rtl/cpp.

    fpatr_firmware_bench.py --ptovp BIN IMAGE [--engine systemc|functional]
                            [--rounds N] [-- RUN ARGS...]
"""
import argparse
import json
import re
import statistics
import subprocess
import sys

RUN_TIME = re.compile(r"instructions in ([0-9.]+) s|^\s*host\s+([0-9.]+) s", re.MULTILINE)


def run_seconds(ptovp, image, engine, backend, extra):
    report = ["--verbose"] if engine == "functional" else []  # SystemC: the summary
    result = subprocess.run([ptovp, "run", image, "--engine", engine, *report,
                             "--set", f"fpatr.backend={backend}", *extra],
                            capture_output=True, text=True, check=False)
    if result.returncode != 0:
        sys.exit(f"fpatr_firmware_bench: {backend} run exited {result.returncode}:\n"
                 f"{result.stderr}")
    match = RUN_TIME.search(result.stdout + result.stderr)
    if match is None:
        sys.exit(f"fpatr_firmware_bench: no run time in the {backend} run's output")
    return float(match.group(1) or match.group(2))


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
    seconds = {"cpp": [], "rtl": []}
    for _ in range(args.rounds):
        for backend in seconds:
            seconds[backend].append(run_seconds(args.ptovp, args.image, args.engine, backend,
                                                extra))
    ratios = [rtl / cpp for cpp, rtl in zip(seconds["cpp"], seconds["rtl"])]
    print(json.dumps({"image": args.image, "engine": args.engine, "rounds": args.rounds,
                      "cpp_s": statistics.median(seconds["cpp"]),
                      "rtl_s": statistics.median(seconds["rtl"]),
                      "rtl_over_cpp": round(statistics.median(ratios), 3)}))


if __name__ == "__main__":
    main()

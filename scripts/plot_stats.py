#!/usr/bin/python3
"""Plots `ptovp run --stats` output (matplotlib from Debian: python3-matplotlib).

    plot_stats.py STATS.json [-o PNG]    utilisation per unit, and the run on a roofline
    plot_stats.py SWEEP.csv  [-o PNG]    the same for every point of scripts/sweep.py

Roofline: attainable MACs per cycle = min(peak CUBE MACs per cycle, intensity x
TLSU bytes per cycle), with the arithmetic intensity = MACs / bytes moved by
the TLSU; each run is a point at its achieved MACs per cycle. The CUBE peak
is four PEs of 16 x 16 x k_step MACs per step, k_step for 8-bit inputs.
"""
import argparse
import csv
import json

UNITS = ["front end", "builder", "PE0", "PE1", "PE2", "PE3", "FPATR", "TLSU", "fabric"]


def point(stats):
    """A row of the plotted quantities from one stats document."""
    config = stats["config"]
    macs = sum(stats["macs"].values())
    moved = sum(stats["bytes"].values())
    row = {
        "cycles": stats["cycles"],
        "macs": macs,
        "bytes": moved,
        "tlsu_bytes_per_cycle": config["tlsu"]["bytes_per_cycle"],
        "k_step_bytes": config["cube"]["k_step_bytes"],
    }
    for unit in UNITS:
        row[unit] = stats["units"][unit]["utilisation"]
    return row


def read_points(path):
    if not path.endswith(".csv"):
        with open(path) as f:
            return [point(json.load(f))]
    # A sweep.py CSV: the columns before `status` name the point, those after are quantities.
    points = []
    with open(path) as f:
        reader = csv.DictReader(f)
        names = reader.fieldnames[:reader.fieldnames.index("status")]
        for row in reader:
            if row["status"] != "ok":
                continue
            p = {key: float(value) for key, value in row.items()
                 if key not in names and key != "status"}
            p["label"] = " ".join(f"{key}={row[key]}" for key in names)
            points.append(p)
    return points


def plot(points, output):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, (left, right) = plt.subplots(1, 2, figsize=(13, 4.8))
    width = 0.8 / len(points)
    for i, p in enumerate(points):
        left.bar([x + i * width for x in range(len(UNITS))], [100 * p[u] for u in UNITS], width,
                 label=p.get("label") or None)
    left.set_xticks([x + 0.4 - width / 2 for x in range(len(UNITS))])
    left.set_xticklabels(UNITS, rotation=30)
    left.set_ylabel("utilisation (% of simulated cycles)")
    left.set_title("utilisation per unit")
    if any(p.get("label") for p in points):
        left.legend(fontsize=7)

    peak = 4 * 16 * 16 * points[0]["k_step_bytes"]  # 8-bit inputs
    intensities = [p["macs"] / p["bytes"] for p in points if p["bytes"] and p["macs"]]
    if intensities:
        low, high = min(intensities) / 4, max(intensities) * 4
        xs = [low * (high / low) ** (i / 100) for i in range(101)]
        for bandwidth in sorted({p["tlsu_bytes_per_cycle"] for p in points}):
            right.plot(xs, [min(peak, x * bandwidth) for x in xs], "--",
                       label=f"roof: {bandwidth:g} B/cycle")
        for p in points:
            if p["bytes"] and p["macs"]:
                right.plot(p["macs"] / p["bytes"], p["macs"] / p["cycles"], "o")
                if p.get("label"):
                    right.annotate(p["label"], (p["macs"] / p["bytes"], p["macs"] / p["cycles"]),
                                   fontsize=7)
        right.set_xscale("log")
        right.set_yscale("log")
        right.legend(fontsize=7)
    right.set_xlabel("arithmetic intensity (MACs per TLSU byte)")
    right.set_ylabel("MACs per cycle")
    right.set_title("roofline")
    figure.tight_layout()
    figure.savefig(output, dpi=110)
    print(f"plot_stats: wrote {output}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("input", help="a --stats JSON file or a sweep.py CSV")
    parser.add_argument("-o", "--output", help="PNG to write (default: INPUT.png)")
    args = parser.parse_args()
    plot(read_points(args.input), args.output or args.input.rsplit(".", 1)[0] + ".png")


if __name__ == "__main__":
    main()

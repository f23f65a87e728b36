#!/usr/bin/python3
"""Plots `ptovp run --stats` output (matplotlib from Debian: python3-matplotlib).

    plot_stats.py STATS.json [--trace TRACE.json] [-o PNG]
    plot_stats.py SWEEP.csv  [-o PNG]

Panels: utilisation per unit (busy cycles of the run; for the PEs also their
MACs against the peak over the run and over their busy cycles), stall
cycles by cause, a roofline, and with --trace (`ptovp run --trace`) the
timeline of every unit's blocks. A sweep.py CSV puts every ok point on the
bars and the roofline.

Roofline: attainable MACs per cycle = min(CUBE peak, intensity x TLSU
bandwidth), intensity = MACs per byte the TLSU moved. The CUBE peak is the
four PEs' peak MACs per cycle for the input types the run used, as the stats
report them from the configured cube.k_step_bytes and cycles per step; the
bandwidth is the configured tlsu.bytes_per_cycle. Each run is a point at its
achieved MACs per cycle.
"""
import argparse
import csv
import json

UNITS = ["front end", "builder", "PE0", "PE1", "PE2", "PE3", "FPATR", "TLSU", "fabric"]
PES = ["PE0", "PE1", "PE2", "PE3"]


def point(stats):
    """The plotted quantities of one stats document (sweep.py's CSV columns)."""
    units = stats["units"]
    macs = sum(stats["macs"].values())
    # The PEs' peak for the run's mix of types: MACs over the cycles they take at peak.
    peak_cycles = sum(units[pe]["mac_utilisation_run"] for pe in PES) * stats["cycles"]
    row = {
        "cycles": stats["cycles"],
        "macs": macs,
        "bytes": sum(stats["bytes"].values()),
        "macs_per_cycle": macs / stats["cycles"] if stats["cycles"] else 0.0,
        "peak_macs_per_cycle": len(PES) * macs / peak_cycles if peak_cycles else 0.0,
        "pe_mac_utilisation": sum(units[pe]["mac_utilisation_run"] for pe in PES) / len(PES),
        "pe_mac_utilisation_busy": sum(units[pe]["mac_utilisation_busy"] for pe in PES) / len(PES),
        "tlsu_bytes_per_cycle": units["TLSU"]["bytes_per_cycle"],
        "tlsu_configured_bytes_per_cycle": units["TLSU"]["configured_bytes_per_cycle"],
        "tlsu_bandwidth_utilisation": units["TLSU"]["bandwidth_utilisation"],
    }
    for unit in UNITS:
        row[unit] = units[unit]["utilisation"]
    for unit in ("PE0", "TLSU"):
        for cause, cycles in units[unit]["stall_cycles"].items():
            row[f"{unit} stall {cause}"] = cycles
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
                 if key not in names and key != "status" and value != ""}
            p["label"] = " ".join(f"{key}={row[key]}" for key in names)
            points.append(p)
    return points


def bars(axis, points):
    width = 0.8 / len(points)
    columns = UNITS + ["PE MACs/peak", "PE MACs/peak busy", "TLSU B/peak"]
    for i, p in enumerate(points):
        values = [p[u] for u in UNITS] + [p["pe_mac_utilisation"], p["pe_mac_utilisation_busy"],
                                          p["tlsu_bandwidth_utilisation"]]
        axis.bar([x + i * width for x in range(len(columns))], [100 * v for v in values], width,
                 label=p.get("label") or None)
    axis.set_xticks([x + 0.4 - width / 2 for x in range(len(columns))])
    axis.set_xticklabels(columns, rotation=35, ha="right", fontsize=8)
    axis.set_ylabel("% of the run's cycles (busy: of the PEs' busy cycles)")
    axis.set_title("utilisation against peak")
    if any(p.get("label") for p in points):
        axis.legend(fontsize=7)


def stalls(axis, points):
    causes = sorted({key for p in points for key in p if " stall " in key})
    width = 0.8 / len(points)
    for i, p in enumerate(points):
        axis.bar([x + i * width for x in range(len(causes))],
                 [100 * p.get(c, 0) / p["cycles"] for c in causes], width)
    axis.set_xticks([x + 0.4 - width / 2 for x in range(len(causes))])
    axis.set_xticklabels([c.replace(" stall ", ": ") for c in causes], rotation=35, ha="right",
                         fontsize=8)
    axis.set_ylabel("% of the run's cycles")
    axis.set_title("stall cycles by cause (PE0, TLSU)")


def roofline(axis, points):
    shown = [p for p in points if p["bytes"] and p["macs"]]
    if not shown:
        axis.set_title("roofline (no MACs or no TLSU bytes)")
        return
    intensities = [p["macs"] / p["bytes"] for p in shown]
    low, high = min(intensities) / 8, max(intensities) * 8
    xs = [low * (high / low) ** (i / 100) for i in range(101)]
    for peak, bandwidth in sorted({(p["peak_macs_per_cycle"], p["tlsu_configured_bytes_per_cycle"])
                                   for p in shown}):
        axis.plot(xs, [min(peak, x * bandwidth) for x in xs], "--",
                  label=f"roof: {peak:g} MACs/cycle, {bandwidth:g} B/cycle")
    for p in shown:
        x, y = p["macs"] / p["bytes"], p["macs_per_cycle"]
        axis.plot(x, y, "o")
        if p.get("label"):
            axis.annotate(p["label"], (x, y), fontsize=6)
    axis.set_xscale("log")
    axis.set_yscale("log")
    axis.legend(fontsize=7)
    axis.set_xlabel("arithmetic intensity (MACs per TLSU byte)")
    axis.set_ylabel("MACs per cycle")
    axis.set_title("roofline from the configured peaks")


def timeline(axis, trace_path):
    """Every unit's blocks from a --trace file (Chrome trace events, one track per unit)."""
    with open(trace_path) as f:
        events = json.load(f)
    events = events["traceEvents"] if isinstance(events, dict) else events
    names = {e["tid"]: e["args"]["name"] for e in events
             if e.get("ph") == "M" and e.get("name") == "thread_name"}
    tracks = sorted(names, key=lambda tid: UNITS.index(names[tid]) if names[tid] in UNITS else 99)
    colours = {}
    for row, tid in enumerate(tracks):
        spans = [(e["ts"], e["dur"]) for e in events if e.get("ph") == "X" and e["tid"] == tid]
        kinds = [e["name"] for e in events if e.get("ph") == "X" and e["tid"] == tid]
        for (start, duration), kind in zip(spans, kinds):
            colour = colours.setdefault(kind, f"C{len(colours) % 10}")
            axis.broken_barh([(start, duration)], (row - 0.4, 0.8), color=colour)
    axis.set_yticks(range(len(tracks)))
    axis.set_yticklabels([names[t] for t in tracks])
    axis.set_xlabel("simulated time (µs)")
    axis.set_title("timeline")
    axis.legend(handles=[__import__("matplotlib.patches").patches.Patch(color=c, label=k)
                         for k, c in colours.items()], fontsize=6, ncol=4)


def plot(points, output, trace=None):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = 3 if trace else 2
    figure = plt.figure(figsize=(13, 4.6 * rows))
    bars(figure.add_subplot(rows, 2, 1), points)
    stalls(figure.add_subplot(rows, 2, 2), points)
    roofline(figure.add_subplot(rows, 2, 3), points)
    if trace:
        timeline(figure.add_subplot(rows, 1, 3), trace)
    figure.tight_layout()
    figure.savefig(output, dpi=100)
    print(f"plot_stats: wrote {output}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("input", help="a --stats JSON file or a sweep.py CSV")
    parser.add_argument("--trace", help="a --trace file of the same run: adds the timeline")
    parser.add_argument("-o", "--output", help="PNG to write (default: INPUT.png)")
    args = parser.parse_args()
    plot(read_points(args.input), args.output or args.input.rsplit(".", 1)[0] + ".png",
         args.trace)


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""Runs firmware images over a grid of configuration values; one CSV row per point.

    sweep.py IMAGE... --set KEY=V1,V2,... [--set ...] [-o OUT] [--backend local|parallel|slurm]
             [--jobs N] [--sshlogin LOGIN]... [--sbatch-arg ARG]... [--no-wait]
             [--engine systemc|functional] [--ptovp BIN] [--timeout S] [-- RUN ARGS...]
    sweep.py merge OUT                 OUT.d's point results -> OUT.csv and OUT.png
    sweep.py point OUT.d INDEX         one point (what every backend runs)

Every combination of the images and the values is one point: `ptovp run IMAGE
--quiet --stats ... --set KEY=V ... [--threads 1] RUN ARGS` (one host thread
per point unless a swept key, RUN ARGS or their --config set host.threads). The sweep writes OUT.d/plan.json
(the points), each point writes OUT.d/points/INDEX.json (its values, its
status and, when it ran to its exit, the quantities of scripts/plot_stats.py),
and `merge` joins them into OUT.csv: one row per point with a column per swept
key (and `image`), `status` (ok, or why the point failed: exit status and
the first line of ptovp's report, or no result) and the quantities. A failing
point does not stop the sweep; the exit status is 0 when every point has a
result (ok or failed), 1 when some point left none, 2 on bad arguments.
OUT.png draws cycles and utilisation against
each swept key, one line per combination of the other keys.

Backends (all run `sweep.py point`, so they write the same files):
  local     a pool of --jobs processes on this machine (default: its cores)
  parallel  GNU parallel: --sshlogin LOGIN (repeatable, `:` is this machine,
            the default) reaches more machines; OUT.d, the images, ptovp and
            this script must be at the same paths there (a shared file system)
  slurm     one Slurm job array (`sbatch --array`, each task one point, extra
            sbatch options by --sbatch-arg); waits for it unless --no-wait,
            after which `sweep.py merge OUT` collects the results
A value with a comma in it cannot be swept (commas separate the values).
"""
import argparse
import concurrent.futures
import csv
import itertools
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import plot_stats  # noqa: E402

SCRIPT = os.path.abspath(__file__)


def fail(message):
    print(f"sweep: {message}", file=sys.stderr)
    sys.exit(2)


# ---- plan -------------------------------------------------------------------------------------

def parse_grid(items):
    keys, values = [], []
    for item in items:
        key, sep, listed = item.partition("=")
        if not sep or not key or not listed:
            fail(f"--set {item}: expected KEY=V1,V2,...")
        if key in keys:
            fail(f"--set {item}: {key} is swept twice")
        keys.append(key)
        values.append(listed.split(","))
    return keys, values


def config_sets_threads(path):
    """Whether the --config FILE (JSON, nested or flat keys) sets host.threads."""
    try:
        with open(path) as f:
            config = json.load(f)
    except (OSError, ValueError):
        return True  # ptovp reports the file; nothing is added to its arguments
    host = config.get("host") if isinstance(config, dict) else None
    return "host.threads" in config or (isinstance(host, dict) and "threads" in host)


def point_threads(keys, extra):
    """`--threads 1` unless the sweep or its run arguments choose host.threads: the
    backends run as many points at once as there are cores, and a second thread per
    point would only contend for them (docs/performance.md, "Host threads")."""
    if "host.threads" in keys:
        return []
    for i, arg in enumerate(extra):
        if arg.startswith("--threads") or arg.startswith("host.threads="):
            return []
        if arg == "--config" and i + 1 < len(extra) and config_sets_threads(extra[i + 1]):
            return []
        if arg.startswith("--config=") and config_sets_threads(arg.partition("=")[2]):
            return []
    return ["--threads", "1"]


def write_plan(directory, args, extra):
    keys, values = parse_grid(args.grid)
    extra = point_threads(keys, extra) + extra
    for image in args.images:
        if not os.path.isfile(image):
            fail(f"{image}: no such image")
    ptovp = os.path.abspath(args.ptovp)
    if not os.access(ptovp, os.X_OK):
        fail(f"--ptovp {args.ptovp}: not an executable")
    points = []
    for image in args.images:
        for combination in itertools.product(*values):
            points.append({"index": len(points), "image": os.path.abspath(image),
                           "values": dict(zip(keys, combination))})
    plan = {"format": "ptovp-sweep-1", "keys": keys, "images": [p for p in args.images],
            "ptovp": ptovp, "engine": args.engine, "extra": extra, "points": points}
    os.makedirs(os.path.join(directory, "points"), exist_ok=True)
    for name in os.listdir(os.path.join(directory, "points")):
        os.remove(os.path.join(directory, "points", name))  # a rerun starts clean
    with open(os.path.join(directory, "plan.json"), "w") as f:
        json.dump(plan, f, indent=1)
    return plan


def read_plan(directory):
    path = os.path.join(directory, "plan.json")
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as error:
        fail(f"{path}: {error}")


# ---- one point --------------------------------------------------------------------------------

def run_point(directory, index):
    """Runs point `index` of the plan in `directory` and writes its result file."""
    plan = read_plan(directory)
    point = plan["points"][index]
    stats_path = os.path.join(directory, "points", f"{index}.stats.json")
    command = [plan["ptovp"], "run", point["image"], "--quiet", "--engine", plan["engine"],
               "--stats", stats_path]
    for key, value in point["values"].items():
        command += ["--set", f"{key}={value}"]
    command += plan["extra"]
    result = {"index": index, "image": point["image"], "values": point["values"],
              "command": command}
    try:
        run = subprocess.run(command, capture_output=True, text=True)
        report = (run.stderr.strip() or run.stdout.strip()).splitlines()
        if run.returncode != 0:
            result["status"] = f"exit {run.returncode}: " + (report[0] if report else "")
        elif plan["engine"] != "systemc":
            result["status"] = "ok"
        else:
            with open(stats_path) as f:
                result["quantities"] = plot_stats.point(json.load(f))
            result["status"] = "ok"
    except (OSError, ValueError, KeyError) as error:
        result["status"] = f"error: {error}"
    finally:
        if os.path.exists(stats_path):
            os.remove(stats_path)
    path = os.path.join(directory, "points", f"{index}.json")
    with open(path + ".tmp", "w") as f:
        json.dump(result, f)
    os.replace(path + ".tmp", path)
    return result


# ---- backends ---------------------------------------------------------------------------------

def point_command(directory):
    return [sys.executable, SCRIPT, "point", os.path.abspath(directory)]


def run_local(directory, plan, jobs):
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        runs = [pool.submit(subprocess.run, point_command(directory) + [str(p["index"])],
                            capture_output=True) for p in plan["points"]]
        for done in runs:
            done.result()


def run_parallel(directory, plan, logins, jobs, timeout):
    environment = dict(os.environ, PARALLEL_HOME=os.path.join(directory, "parallel"))
    os.makedirs(environment["PARALLEL_HOME"], exist_ok=True)
    command = ["parallel", "--will-cite", "--halt", "never",
               "--joblog", os.path.join(directory, "parallel.log")]
    for login in logins or [":"]:
        command += ["-S", login]
    if jobs:
        command += ["-j", str(jobs)]
    command += [" ".join(point_command(directory)) + " {}", ":::"]
    command += [str(p["index"]) for p in plan["points"]]
    try:
        subprocess.run(command, env=environment, stdin=subprocess.DEVNULL, timeout=timeout)
    except FileNotFoundError:
        fail("the parallel backend needs GNU parallel (Debian package parallel)")
    except subprocess.TimeoutExpired:
        print(f"sweep: GNU parallel stopped after {timeout} s", file=sys.stderr)


def run_slurm(directory, output, plan, sbatch_args, wait, timeout):
    count = len(plan["points"])
    wrap = " ".join(point_command(directory)) + " $SLURM_ARRAY_TASK_ID"
    command = ["sbatch", "--parsable", f"--array=0-{count - 1}", "--job-name=ptovp-sweep",
               f"--output={os.path.join(os.path.abspath(directory), 'slurm-%a.log')}"]
    command += sbatch_args + (["--wait"] if wait else []) + ["--wrap", wrap]
    try:
        job = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    except FileNotFoundError:
        fail("the slurm backend needs sbatch (Debian package slurm-client)")
    job_id = job.stdout.readline().strip().split(";")[0]
    print(f"sweep: Slurm job {job_id}, {count} array tasks")
    if not wait:
        print(f"sweep: when it is done, run: {sys.argv[0]} merge {output}")
        return False
    try:
        job.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        job.terminate()
        subprocess.run(["scancel", job_id])
        print(f"sweep: Slurm job {job_id} cancelled after {timeout} s", file=sys.stderr)
    return True


# ---- merge and plot ---------------------------------------------------------------------------

def merge(output):
    directory = output + ".d"
    plan = read_plan(directory)
    rows = []
    for point in plan["points"]:
        path = os.path.join(directory, "points", f"{point['index']}.json")
        row = {"image": os.path.basename(point["image"])}
        row.update(point["values"])
        try:
            with open(path) as f:
                result = json.load(f)
            row["status"] = result["status"]
            row.update(result.get("quantities", {}))
        except (OSError, ValueError):
            row["status"] = "no result (the point did not run or did not finish)"
        rows.append(row)
    columns = []
    for row in rows:
        columns += [key for key in row if key not in columns]
    with open(output + ".csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=columns)
        writer.writeheader()
        writer.writerows(rows)
    failed = [row for row in rows if row["status"] != "ok"]
    missing = [row for row in rows if row["status"].startswith("no result")]
    print(f"sweep: wrote {output}.csv ({len(rows)} points, {len(failed)} failed)")
    for row in failed:
        print(f"  failed: {row['image']} "
              + " ".join(f"{k}={row[k]}" for k in plan["keys"]) + f": {row['status']}")
    if plan["engine"] == "systemc" and len(rows) > len(failed):
        try:
            plot_sweep(rows, plan["keys"], output + ".png")
        except ImportError:
            print("sweep: no plot: matplotlib is missing (Debian package python3-matplotlib)")
    return 1 if missing else 0


def numeric(value):
    try:
        return float(value)
    except ValueError:
        return None


def plot_sweep(rows, keys, path):
    """Cycles and utilisation against each swept key, a line per combination of the others."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    dimensions = (["image"] if len({row["image"] for row in rows}) > 1 else []) + keys
    ok = [row for row in rows if row["status"] == "ok"]
    figure, axes = plt.subplots(len(dimensions), 2, figsize=(12, 3.6 * len(dimensions)),
                                squeeze=False)
    for line, key in enumerate(dimensions):
        others = [k for k in dimensions if k != key]
        values = list(dict.fromkeys(row[key] for row in rows))
        numbers = [numeric(v) for v in values]
        position = ({v: n for v, n in zip(values, numbers)} if None not in numbers
                    else {v: i for i, v in enumerate(values)})
        groups = {}
        for row in ok:
            groups.setdefault(tuple(row[k] for k in others), []).append(row)
        cycles_axis, use_axis = axes[line]
        for group, members in groups.items():
            members.sort(key=lambda r: position[r[key]])
            xs = [position[r[key]] for r in members]
            label = " ".join(f"{k}={v}" for k, v in zip(others, group)) or None
            cycles_axis.plot(xs, [float(r["cycles"]) for r in members], "o-", label=label)
            use_axis.plot(xs, [100 * float(r["pe_mac_utilisation"]) for r in members], "o-",
                          label=f"PE MACs vs peak {label or ''}")
            use_axis.plot(xs, [100 * float(r["TLSU"]) for r in members], "s--",
                          label=f"TLSU busy {label or ''}")
        for axis, title in ((cycles_axis, "simulated cycles"),
                            (use_axis, "utilisation (% of the run's cycles)")):
            axis.set_xlabel(key)
            axis.set_title(f"{title} against {key}")
            if None in numbers:
                axis.set_xticks(range(len(values)))
                axis.set_xticklabels(values, rotation=20)
            elif max(numbers) > 8 * max(min(numbers), 1e-30):
                axis.set_xscale("log", base=2)
            if groups and len(groups) <= 8:
                axis.legend(fontsize=7)
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    print(f"sweep: wrote {path}")


# ---- command line -----------------------------------------------------------------------------

def main():
    argv = sys.argv[1:]
    if argv[:1] == ["point"]:
        if len(argv) != 3 or not argv[2].isdigit():
            fail("usage: sweep.py point OUT.d INDEX")
        run_point(argv[1], int(argv[2]))
        return 0
    if argv[:1] == ["merge"]:
        if len(argv) != 2:
            fail("usage: sweep.py merge OUT")
        return merge(argv[1])
    extra = []
    if "--" in argv:  # ptovp run arguments follow `--`
        extra = argv[argv.index("--") + 1:]
        argv = argv[:argv.index("--")]
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     usage=__doc__.split("\n\n")[1])
    parser.add_argument("images", nargs="+", metavar="IMAGE")
    parser.add_argument("--set", action="append", required=True, dest="grid",
                        help="KEY=V1,V2,...: the values of one configuration key")
    parser.add_argument("-o", "--output", default="sweep", help="OUT.csv, OUT.png, OUT.d/")
    parser.add_argument("--backend", choices=("local", "parallel", "slurm"), default="local")
    parser.add_argument("--jobs", type=int, help="concurrent points (local: default the cores)")
    parser.add_argument("--sshlogin", action="append", help="parallel: a GNU parallel -S login")
    parser.add_argument("--sbatch-arg", action="append", default=[], help="slurm: an sbatch option")
    parser.add_argument("--no-wait", action="store_true", help="slurm: submit and return")
    parser.add_argument("--timeout", type=float, help="parallel, slurm: stop waiting after S s")
    parser.add_argument("--engine", choices=("systemc", "functional"), default="systemc")
    parser.add_argument("--ptovp", default=os.path.join(os.path.dirname(SCRIPT), "..", "build",
                                                        "release", "platform", "ptovp"))
    args = parser.parse_args(argv)
    directory = os.path.abspath(args.output + ".d")
    plan = write_plan(directory, args, extra)
    print(f"sweep: {len(plan['points'])} points, backend {args.backend}")
    if args.backend == "local":
        run_local(directory, plan, args.jobs or os.cpu_count())
    elif args.backend == "parallel":
        run_parallel(directory, plan, args.sshlogin, args.jobs, args.timeout)
    elif not run_slurm(directory, args.output, plan, args.sbatch_arg, not args.no_wait,
                       args.timeout):
        return 0
    return merge(args.output)


if __name__ == "__main__":
    sys.exit(main())

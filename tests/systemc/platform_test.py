#!/usr/bin/env python3
"""The SystemC platform end to end, through `ptovp run` in subprocesses (one
SystemC elaboration per process).

    platform_test.py --ptovp BIN --firmware DIR SUITE

Suites: Equivalence (every firmware on both engines: identical exit status,
state dump and memory), Determinism (two runs: byte-identical trace, stats,
VCD, state), Statistics (instructions by kind, the VCD's busy signals), Faults (a fault inside a block leaves the functional engine's
state), Timing (one latency key moves the totals by the expected amount),
BadInput (exit 2, a message naming the problem, no output left behind),
Backends (fpatr.backend=rtl and checked give the memory, state and exit
status of cpp on firmware with random inputs, integer and floating outputs;
skipped without the RTL), HostThreads (--threads 1, 2 and 4 and pinned
threads write byte-identical files), MemoryPort (a memory that refuses DMI and has wait
states: the same results in more simulated time).
"""
import glob
import json
import os
import random
import resource
import stat
import struct
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import ptovp_case  # noqa: E402

PTOVP = None
FIRMWARE = None
MEMORY_WINDOW = "0:0x100000"  # every firmware's code and data
MX_INPUTS = 0x18000  # mx_gemm_bias's data: 4 PEs x 0x6000


class PlatformCase(ptovp_case.PtovpCase):
    def run_engine(self, image, engine, tag, *extra):
        state, memory = self.path(tag + ".state"), self.path(tag + ".mem")
        result = self.ptovp("run", image, "--engine", engine, "--quiet", "--dump-state", state,
                            "--dump", f"{MEMORY_WINDOW}:{memory}", *extra)
        with open(state, "rb") as f, open(memory, "rb") as g:
            return result.returncode, f.read(), g.read()

    def assert_same_as_functional(self, image, tag):
        functional = self.run_engine(image, "functional", tag + ".functional")
        systemc = self.run_engine(image, "systemc", tag + ".systemc")
        self.assertEqual(systemc[0], functional[0], "exit status")
        self.assertEqual(systemc[1], functional[1], "state dump")
        self.assertEqual(systemc[2], functional[2], "memory")
        return systemc[0]

    def stats(self, image, *settings):
        stats = self.path("stats.json")
        args = ["run", image, "--quiet", "--stats", stats]
        for setting in settings:
            args += ["--set", setting]
        result = self.ptovp(*args)
        self.assertEqual(result.returncode, 0, result.stderr)
        with open(stats) as f:
            return json.load(f)


def firmware_sources():
    return sorted(glob.glob(os.path.join(FIRMWARE, "*", "*.s")))


class Equivalence(PlatformCase):
    def test_every_firmware_matches_the_functional_engine(self):
        sources = firmware_sources()
        self.assertGreater(len(sources), 0)
        for source in sources:
            name = os.path.splitext(os.path.basename(source))[0]
            with self.subTest(firmware=name):
                status = self.assert_same_as_functional(self.assemble(source, name), name)
                self.assertEqual(status, 0)


    def test_load_files_land_in_order_from_files_and_pipes(self):
        # --load reads a regular file straight into the RAM (one of 1 MiB or
        # more in two halves at once with two host threads) and a pipe whole
        # first; later loads overwrite earlier ones; an empty file places
        # nothing, anywhere (docs/functional-model.md "Memory and tile transfers").
        image = self.assemble(os.path.join(FIRMWARE, "tile_copy", "tile_copy.s"), "copy")
        rng = random.Random(17)
        first, piped, large = rng.randbytes(5000), rng.randbytes(3000), rng.randbytes(3 << 20 | 5)
        paths = {name: self.path(name) for name in ("first", "ones", "empty", "large")}
        for name, data in (("first", first), ("ones", b"\xff" * 16), ("empty", b""),
                           ("large", large)):
            with open(paths[name], "wb") as f:
                f.write(data)
        expected = bytearray(0x3000)
        expected[3:3 + len(first)] = first
        expected[0x1800:0x1800 + len(piped)] = piped
        expected[0x10:0x20] = b"\xff" * 16
        # Pinned, the second reader runs on the worker's CPU (docs/performance.md
        # "Host threads").
        runs = (("1", "off"), ("2", "off")) + (
            (("2", "on"),) if len(os.sched_getaffinity(0)) >= 2 else ())
        for engine in ("functional", "systemc"):
            for threads, pin in runs:
                with self.subTest(engine=engine, threads=threads, pin=pin):
                    memory, copy = self.path("m.bin"), self.path("large.bin")
                    result = subprocess.run(
                        [PTOVP, "run", image, "--engine", engine, "--threads", threads, "--quiet",
                         "--set", f"host.pin_threads={pin}",
                         "--load", f"{paths['first']}@0x300003", "--load", "/dev/stdin@0x301800",
                         "--load", f"{paths['ones']}@0x300010", "--load",
                         f"{paths['empty']}@0xffffffffffff0000", "--load",
                         f"{paths['large']}@0x400001", "--dump", f"0x300000:0x3000:{memory}",
                         "--dump", f"0x400001:{len(large)}:{copy}"],
                        input=piped, capture_output=True, timeout=300)
                    self.assertEqual(result.returncode, 0, result.stderr)
                    with open(memory, "rb") as f:
                        self.assertEqual(f.read(), bytes(expected))
                    with open(copy, "rb") as f:
                        self.assertTrue(f.read() == large, "the large file")


class Backends(PlatformCase):
    """The B.FPATR backends by configuration (docs/rtl-cosim.md)."""

    def setUp(self):
        super().setUp()
        probe = self.ptovp("run", "--print-config", "--set", "fpatr.backend=rtl")
        if probe.returncode != 0:
            self.skipTest("this ptovp has no Verilated RTL (PTOVP_RTL)")

    def random_inputs(self, size, seed):
        path = self.path(f"inputs{seed}.bin")
        data = bytearray(random.Random(seed).randbytes(size))
        if size == MX_INPUTS:
            self.make_mx_inputs_finite(data, random.Random(seed))
        with open(path, "wb") as f:
            f.write(data)
        return path

    @staticmethod
    def make_mx_inputs_finite(data, rng):
        """mx_gemm_bias's inputs (its memory map, per PE) with no E4M3 NaN, E8M0
        scales 2^-11..2^1 and FP32 biases in [-64, 64], so D has finite values
        of every size, most of them in FP16's range."""
        for pe in range(4):
            base = pe * 0x6000
            for i in range(base, base + 0x3200):
                if data[i] & 0x7F == 0x7F:
                    data[i] ^= 1
            for scales in (0x1000, 0x2100, 0x3180):
                for i in range(base + scales, base + scales + 0x80):
                    data[i] = rng.randrange(116, 129)
            for n in range(32):
                struct.pack_into("<f", data, base + 0x1080 + 4 * n, rng.uniform(-64, 64))

    def assert_backends_agree(self, image, name, inputs_size):
        inputs = self.random_inputs(inputs_size, len(name))
        for engine in ("systemc", "functional"):
            runs = {backend: self.run_engine(image, engine, f"{name}.{engine}.{backend}",
                                             "--load", f"{inputs}@0x10000", "--set",
                                             f"fpatr.backend={backend}")
                    for backend in ("cpp", "rtl", "checked")}
            with self.subTest(firmware=name, engine=engine):
                self.assertEqual(runs["cpp"][0], 0)
                for backend in ("rtl", "checked"):
                    self.assertEqual(runs[backend][0], runs["cpp"][0], backend + " status")
                    self.assertEqual(runs[backend][1], runs["cpp"][1], backend + " state")
                    self.assertEqual(runs[backend][2], runs["cpp"][2], backend + " memory")

    def test_rtl_and_checked_match_cpp_on_the_post_process_firmware(self):
        for name, size in (("s8_gemm_req8_relu_rowmax", 0x4000), ("mx_gemm_bias", MX_INPUTS)):
            image = self.assemble(os.path.join(FIRMWARE, name, name + ".s"), name)
            self.assert_backends_agree(image, name, size)

    def variant(self, name, edits):
        """The firmware `name` with each edit: `old`, found `count` times, has its first
        occurrence replaced by `new`."""
        with open(os.path.join(FIRMWARE, name, name + ".s")) as f:
            text = f.read()
        for old, new, count in edits:
            self.assertEqual(text.count(old), count, old)
            text = text.replace(old, new, 1)
        return text

    def test_rtl_and_checked_match_cpp_on_floating_outputs(self):
        # S32 accumulators to FP16 (DEQF16, B.DATR RNE with Sat): D is FP16,
        # twice the bytes, so RowMax moves up.
        deqf16 = self.variant("s8_gemm_req8_relu_rowmax", (
            ("B.FPATR REQ8,", "B.FPATR DEQF16,", 1),
            (".equ QUANT_HI, 0x3FA0", ".equ QUANT_HI, 0", 1),
            ("->M<4>", "->M<5>", 1),
            ("BSTART.TSTORE S8", "BSTART.TSTORE FP16", 1),
            ("hl.addi s0, D_OFF, ->a1\n        hl.liu N, ->a2",
             "hl.addi s0, D_OFF, ->a1\n        hl.liu N*2, ->a2", 1),
            (".equ ROWMAX_OFF, 0x900", ".equ ROWMAX_OFF, 0xB00", 1)))
        self.assert_backends_agree(self.assemble_text(deqf16, "deqf16"), "deqf16", 0x4000)
        # FP32 accumulators: block 0 to FP16 with ReLU (F322F16), block 1
        # mode 0 with ReLU (FP32 out).
        store_fp32 = "hl.liu N*4, ->a2\n        BSTART.TSTORE FP32"
        store_fp16 = "hl.liu N*2, ->a2\n        BSTART.TSTORE FP16"
        floating = self.variant("mx_gemm_bias", (
            ("B.FPATR None, None,", "B.FPATR F322F16, ReLU,", 2),
            ("B.FPATR None, None,", "B.FPATR None, ReLU,", 1),
            ("->M<6>", "->M<5>", 2),
            (store_fp32, store_fp16, 2)))
        self.assert_backends_agree(self.assemble_text(floating, "mx_floating"), "mx_floating",
                                   MX_INPUTS)


class MemoryPort(PlatformCase):
    """A memory that refuses DMI and has wait states (docs/platform.md, "Memory port")."""

    def test_every_firmware_gives_the_same_results_in_more_simulated_time(self):
        inputs = self.path("inputs.bin")
        with open(inputs, "wb") as f:
            f.write(random.Random(12).randbytes(0x18000))
        slow = ("--set", "memory.dmi=off", "--set", "memory.latency_cycles=4")
        for source in firmware_sources():
            name = os.path.splitext(os.path.basename(source))[0]
            image = self.assemble(source, name)
            load = ("--load", f"{inputs}@0x10000")
            with self.subTest(firmware=name):
                dmi = self.run_engine(image, "systemc", name + ".dmi", *load)
                transported = self.run_engine(image, "systemc", name + ".slow", *load, *slow)
                self.assertEqual(dmi[0], 0)
                self.assertEqual(transported[0], dmi[0], "exit status")
                self.assertEqual(transported[1], dmi[1], "state dump")
                self.assertEqual(transported[2], dmi[2], "memory")
                fast_stats = self.stats(image)
                slow_stats = self.stats(image, "memory.dmi=off", "memory.latency_cycles=4")
                self.assertEqual(slow_stats["instructions"], fast_stats["instructions"])
                self.assertGreater(slow_stats["cycles"], fast_stats["cycles"])

    def test_the_wait_states_are_what_the_transports_cost(self):
        # scalar_loop without DMI: every instruction's cache check reads its
        # bytes through one transport, so each wait state adds about one
        # cycle per instruction.
        image = self.assemble(os.path.join(FIRMWARE, "scalar_loop", "scalar_loop.s"), "loop")
        one = self.stats(image, "memory.dmi=off", "memory.latency_cycles=1")
        two = self.stats(image, "memory.dmi=off", "memory.latency_cycles=2")
        dmi = self.stats(image)
        transports = two["cycles"] - one["cycles"]
        self.assertEqual(one["cycles"], dmi["cycles"] + transports)
        self.assertGreaterEqual(transports, dmi["instructions"])


class Determinism(PlatformCase):
    def test_two_runs_write_identical_files(self):
        image = self.assemble(os.path.join(FIRMWARE, "mx_gemm_bias", "mx_gemm_bias.s"), "mx")
        outputs = []
        for run in range(2):
            files = {kind: self.path(f"{run}.{kind}") for kind in ("trace", "stats", "vcd", "state")}
            result = self.ptovp("run", image, "--quiet", "--trace", files["trace"], "--stats",
                                files["stats"], "--vcd", files["vcd"], "--dump-state",
                                files["state"])
            self.assertEqual(result.returncode, 0, result.stderr)
            outputs.append({kind: open(path, "rb").read() for kind, path in files.items()})
        for kind in outputs[0]:
            self.assertEqual(outputs[0][kind], outputs[1][kind], kind)
        trace = json.loads(outputs[0]["trace"])
        tracks = {e["args"]["name"] for e in trace["traceEvents"] if e["name"] == "thread_name"}
        self.assertEqual(tracks, {"front end", "builder", "PE0", "PE1", "PE2", "PE3", "FPATR",
                                  "TLSU", "fabric"})
        slices = [e for e in trace["traceEvents"] if e["ph"] == "X"]
        self.assertIn("TMATMULMX.BIAS", {e["name"] for e in slices})
        self.assertTrue(any(e["ph"] == "C" for e in trace["traceEvents"]))


# HostThreads: deferred values and the front end's reads of them.
DRAINS = """\
# Deferred data work meets the front end: each PE fills an 8x8 U32 input by
# scalar stores, TLOADs it, TSTOREs it to OUTPUT, reads the stored words back
# by scalar loads (their sum goes to SUM), then a TLOAD outside memory faults.
        .equ INPUT, 0x1000        # PE p input at INPUT + p*256
        .equ OUTPUT, 0x2000       # PE p output at OUTPUT + p*256
        .equ SUM, 0x3000          # PE p sum at SUM + p*8
        .equ ROW_BYTES, 32

        .global _start
_start: BSTART.SYS FALL
        ssrget 0x26, ->a0         # THREAD_ID: the PE index
        BSTOP
        slli a0, 8, ->a1
        hl.liu INPUT, ->s0
        add s0, a1, ->s0
        hl.liu OUTPUT, ->s2
        add s2, a1, ->s2
        addi zero, ROW_BYTES, ->s1
        slli a0, 8, ->a5
        c.movr s0, ->a4
        addi zero, 0, ->a3
fill:   BSTART.STD COND, fill
        add a5, a3, ->a6
        swi a6, [a4, 0]
        addi a4, 4, ->a4
        addi a3, 1, ->a3
        setc.nei a3, 64, 0
        BSTOP
        BSTART.TLOAD U32
        B.DIM zero, 8, ->LB0
        B.DIM zero, 8, ->LB1
        B.IOR [s0, s1]
        B.IOT mask=1111, last, ->T<2>
        BSTOP
        BSTART.TSTORE U32
        B.DIM zero, 8, ->LB0
        B.DIM zero, 8, ->LB1
        B.IOR [s2, s1]
        B.IOT T0, mask=1111, last
        BSTOP
        BSTART.STD FALL
        c.movr s2, ->a4
        addi zero, 0, ->a3
        addi zero, 0, ->a7
        BSTOP
sum:    BSTART.STD COND, sum
        lwi [a4, 0], ->a6
        add a7, a6, ->a7
        addi a4, 4, ->a4
        addi a3, 1, ->a3
        setc.nei a3, 64, 0
        BSTOP
        BSTART.STD FALL
        hl.liu SUM, ->a4
        sd a7, [a4, a0<<3]
        hl.liu 0x7fff0000, ->s0
        BSTOP
        BSTART.TLOAD U32          # outside memory: a data fault
        B.DIM zero, 8, ->LB0
        B.DIM zero, 8, ->LB1
        B.IOR [s0, s1]
        B.IOT mask=1111, last, ->T<2>
        BSTOP
        BSTART.SYS FALL
        ebreak 0
"""


class HostThreads(PlatformCase):
    """--threads / host.threads: the PEs' work of a block on host threads changes
    no output (docs/performance.md "Host threads")."""

    GEMMS = (("fp16", "280", "80", "160", "32x32x32"), ("e4m3", "100", "70", "96", "32x32x32"),
             ("hif4", "132", "36", "200", "32x32x64"), ("s8", "64", "48", "200", "32x32x128",
                                                        "--relu"))

    def outputs(self, image, engine, threads, *extra):
        """Every file a run writes, by kind, and its exit status."""
        kinds = ("state", "memory", "stats") + (("trace", "vcd") if engine == "systemc" else ())
        files = {kind: self.path(f"{engine}.{threads}.{kind}") for kind in kinds}
        args = ["run", image, "--engine", engine, "--quiet", "--threads", str(threads),
                "--dump-state", files["state"], "--dump", f"{MEMORY_WINDOW}:{files['memory']}",
                "--stats", files["stats"], *extra]
        if engine == "systemc":
            args += ["--trace", files["trace"], "--vcd", files["vcd"]]
        result = self.ptovp(*args)
        written = {kind: open(path, "rb").read() for kind, path in files.items()}
        return result.returncode, result.stdout, written

    def assert_thread_counts_agree(self, image, *extra, status=0,
                                   engines=("functional", "systemc")):
        """Returns the first engine's files at one thread."""
        first = None
        for engine in engines:
            one = self.outputs(image, engine, 1, *extra)
            self.assertEqual(one[0], status, one[1])
            first = first or one[2]
            for threads in (2, 4):
                with self.subTest(engine=engine, threads=threads):
                    many = self.outputs(image, engine, threads, *extra)
                    self.assertEqual(many[0], one[0], "exit status")
                    self.assertEqual(many[1], one[1], "stdout")
                    for kind in one[2]:
                        self.assertEqual(many[2][kind], one[2][kind], kind)
        return first

    def test_every_firmware_gives_identical_files_at_1_2_and_4_threads(self):
        inputs = self.path("inputs.bin")
        with open(inputs, "wb") as f:
            f.write(random.Random(17).randbytes(0x18000))
        for source in firmware_sources():
            name = os.path.splitext(os.path.basename(source))[0]
            # The post-process firmware read their operands from 0x10000.
            extra = (("--load", f"{inputs}@0x10000")
                     if name in ("s8_gemm_req8_relu_rowmax", "mx_gemm_bias") else ())
            with self.subTest(firmware=name):
                self.assert_thread_counts_agree(self.assemble(source, name), *extra)

    def test_looped_gemms_give_identical_files_at_1_2_and_4_threads(self):
        for gemm in self.GEMMS:
            with self.subTest(gemm=gemm[0]):
                image, load = self.make_gemm(*gemm)
                self.assert_thread_counts_agree(image, "--set", "tile.naming=queue", "--load", load)

    def make_gemm(self, kind, m, n, k, tile, *flags):
        """Assembles a gen_gemm.py GEMM; returns its image and the --load of its inputs."""
        gen = [sys.executable, os.path.join(FIRMWARE, "..", "scripts", "gen_gemm.py")]
        source = self.path(kind + ".s")
        subprocess.run(gen + ["asm", "--m", m, "--n", n, "--k", k, "--type", kind,
                              "--tile", tile, "-o", source, *flags], check=True)
        address = subprocess.run(gen + ["make", source, self.dir], check=True,
                                 capture_output=True, text=True).stdout.split()[0]
        return self.assemble(source, kind), f"{self.path('input.bin')}@{address}"

    def test_pinned_threads_give_the_files_of_one_thread(self):
        """host.pin_threads=on pins the run loop and the worker to two CPUs of
        their own and changes no output (docs/performance.md "Host threads")."""
        if len(os.sched_getaffinity(0)) < 2:
            self.skipTest("the test may run on one CPU only")
        image, load = self.make_gemm(*self.GEMMS[0])
        extra = ("--set", "tile.naming=queue", "--load", load)
        for engine in ("functional", "systemc"):
            with self.subTest(engine=engine):
                one = self.outputs(image, engine, 1, *extra)
                self.assertEqual(one[0], 0, one[1])
                pinned = self.outputs(image, engine, 2, *extra, "--set", "host.pin_threads=on")
                self.assertEqual(pinned[0], 0, pinned[1])
                self.assertEqual(pinned[1], one[1], "stdout")
                for kind in one[2]:
                    self.assertEqual(pinned[2][kind], one[2][kind], kind)

    def test_pinning_on_one_allowed_cpu_is_a_usage_error(self):
        image = self.assemble(os.path.join(FIRMWARE, "tile_copy", "tile_copy.s"), "copy")
        cpu = min(os.sched_getaffinity(0))
        for engine in ("functional", "systemc"):
            for threads, status in (("2", 2), ("1", 0)):  # one thread: nothing to pin
                with self.subTest(engine=engine, threads=threads):
                    result = subprocess.run(
                        [PTOVP, "run", image, "--engine", engine, "--quiet", "--threads", threads,
                         "--set", "host.pin_threads=on"],
                        capture_output=True, text=True, timeout=300,
                        preexec_fn=lambda: os.sched_setaffinity(0, {cpu}))
                    self.assertEqual(result.returncode, status, result.stderr)
                    if status:
                        self.assertIn("host.pin_threads: the process may run on 1 CPU only",
                                      result.stderr)

    def test_queued_values_follow_the_memory_port(self):
        """SystemC: TLSU values are queued only inside the DMI grant; with DMI
        refused and wait states every TLOAD and TSTORE runs in place and the
        CUBE's rows still queue, with the same files and time at 1, 2 and 4
        threads (docs/platform.md "Deferred data work")."""
        image, load = self.make_gemm("e4m3", "96", "64", "128", "32x32x32")
        self.assert_thread_counts_agree(
            image, "--set", "tile.naming=queue", "--set", "memory.dmi=off", "--set",
            "memory.latency_cycles=3", "--load", load, engines=("systemc",))

    def test_the_front_end_drains_queued_values_before_it_reads_them(self):
        """Scalar loads read what the queued TSTOREs wrote, and a fault after
        queued blocks reports as at one thread (docs/functional-model.md,
        "Deferred data work")."""
        source = self.path("drains.s")
        with open(source, "w") as f:
            f.write(DRAINS)
        memory = self.assert_thread_counts_agree(self.assemble(source, "drains"), status=100)[
            "memory"]
        # PE p stored p * 256 + i for i < 64 and summed it back.
        sums = [int.from_bytes(memory[0x3000 + 8 * pe:0x3008 + 8 * pe], "little")
                for pe in range(4)]
        self.assertEqual(sums, [pe * 256 * 64 + 2016 for pe in range(4)])
        result = self.ptovp("run", self.assemble(source, "drains"), "--threads", "2")
        self.assertIn("Fault_DataPage", result.stdout + result.stderr)
        self.assertIn("0x7fff0000", result.stdout + result.stderr)

    def test_a_bad_thread_count_is_a_usage_error(self):
        image = self.assemble(os.path.join(FIRMWARE, "tile_copy", "tile_copy.s"), "copy")
        for value in ("two", "-1", "4096"):
            with self.subTest(value=value):
                result = self.ptovp("run", image, "--threads", value)
                self.assertEqual(result.returncode, 2)
                self.assertIn("host.threads", result.stderr)
        result = self.ptovp("run", image, "--quiet", "--set", "host.threads=0")
        self.assertEqual(result.returncode, 0, result.stderr)
        # The former per-PE pool's minimums are refused with the reason.
        for key in ("host.pool_min_macs", "host.pool_min_bytes"):
            with self.subTest(key=key):
                result = self.ptovp("run", image, "--set", f"{key}=0")
                self.assertEqual(result.returncode, 2)
                self.assertIn(f"{key}: removed; blocks no longer split their PEs", result.stderr)
        printed = json.loads(self.ptovp("run", "--print-config", "--threads", "3").stdout)
        self.assertEqual(printed["host"], {"pin_threads": "off", "services": "on", "threads": 3})


class Keys(PlatformCase):
    """--list-keys lists the registry (docs/platform.md "Configuration")."""

    def test_list_keys_shows_every_printed_key_with_its_default_and_owner(self):
        printed = json.loads(self.ptovp("run", "--print-config").stdout)
        expected = {f"{group}.{name}": str(value)
                    for group, keys in printed.items() for name, value in keys.items()}
        listed = self.ptovp("run", "--list-keys")
        self.assertEqual(listed.returncode, 0, listed.stderr)
        lines = listed.stdout.splitlines()
        self.assertEqual({line.split()[0]: line.split()[1] for line in lines}, expected)
        by_key = {line.split()[0]: " ".join(line.split()) for line in lines}
        self.assertIn("1 .. 10^9 ns temporal-decoupling quantum (sc_common::TimingConfig)",
                      by_key["quantum.ns"])
        self.assertIn("cpp, rtl, checked the B.FPATR implementation (engine::ModelConfig)",
                      by_key["fpatr.backend"])
        self.assertTrue(by_key["coop.nk_pow2"].endswith("(cube::CubeConfig)"))
        bad = self.ptovp("run", "--list-keys", "--set", "quantum.ns=0")
        self.assertEqual(bad.returncode, 2)
        self.assertIn("quantum.ns: 0 is below the minimum 1", bad.stderr)


# Known instruction counts: 3 scalar ALU, a J (over one more), 3 loop
# iterations of (BSTART, store, load, 2 ALU, BSTOP), a TLOAD block (start, 4
# header commands, stop), then BSTART.SYS and EBREAK: 30 instructions.
COUNTED = """
        .global _start
_start: addi zero, 3, ->s0
        hl.liu 0x1000, ->s1
        addi zero, 32, ->s2
        j loop
        addi zero, 9, ->s0
loop:   BSTART.STD COND, loop
        swi s0, [s1, 0]
        ldi [s1, 0], ->a0
        subi s0, 1, ->s0
        setc.nei s0, 0, 0
        BSTOP
        BSTART.TLOAD U32
        B.DIM zero, 8, ->LB0
        B.DIM zero, 8, ->LB1
        B.IOR [s1, s2]
        B.IOT mask=1111, last, ->T<2>
        BSTOP
        BSTART.SYS FALL
        ebreak 0
"""


def vcd_intervals(text):
    """{signal: [(rise, fall), ...]} in ps from a one-bit-per-signal VCD."""
    header, body = text.split("$enddefinitions $end", 1)
    names = {}
    for line in header.splitlines():
        fields = line.split()
        if fields[:1] == ["$var"]:
            names[fields[3]] = fields[4]
    intervals = {name: [] for name in names.values()}
    rises, time = {}, 0
    for line in body.splitlines():
        if line.startswith("#"):
            time = int(line[1:])
        elif line[:1] in ("0", "1") and line[1:] in names:
            name = names[line[1:]]
            if line[0] == "1":
                rises[name] = time
            elif name in rises:
                intervals[name].append((rises.pop(name), time))
    return intervals


def trace_busy(trace, tid):
    """The union of a track's slices, in ps (ts and dur are exact microseconds)."""
    spans = sorted((round(float(e["ts"]) * 1e6), round(float(e["ts"]) * 1e6 + float(e["dur"]) * 1e6))
                   for e in trace["traceEvents"] if e["ph"] == "X" and e["tid"] == tid
                   and float(e["dur"]) > 0)
    merged = []
    for start, end in spans:
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


class Statistics(PlatformCase):
    def test_instructions_by_kind_are_counted_exactly(self):
        image = self.assemble_text(COUNTED, "counted")
        stats = self.stats(image)
        self.assertEqual(stats["instructions"], 30)
        self.assertEqual(stats["instructions_by_class"], {
            "scalar ALU": 3 + 2 * 3, "load/store": 2 * 3, "branch": 1, "block start": 3 + 2,
            "header command": 4, "block stop": 3 + 1, "SYS": 1, "other": 0})
        self.assertEqual(stats["instructions_by_mnemonic"], {
            "ADDI": 2, "B.DIM": 2, "B.IOR": 1, "B.IOT": 1, "BSTART.STD": 3, "BSTART.SYS": 1,
            "BSTART.TLOAD": 1, "BSTOP": 4, "EBREAK": 1, "HL.LIU": 1, "J": 1, "LDI": 3,
            "SETC.NEI": 3, "SUBI": 3, "SWI": 3})
        self.assertEqual(stats["blocks"], {"TLOAD": 1})
        summary = self.ptovp("run", image).stderr
        self.assertIn("30 (", summary)
        self.assertIn("scalar ALU 9, load/store 6, branch 1, block start 5, header command 4, "
                      "block stop 4, SYS 1", summary)

    def test_utilisation_against_peak_bandwidth_and_stall_causes(self):
        source = os.path.join(FIRMWARE, "mx_gemm_bias", "mx_gemm_bias.s")
        image = self.assemble(source, "mx")
        equ = {}
        with open(source) as f:
            for line in f:
                parts = line.split()
                if parts[:1] == [".equ"]:
                    equ[parts[1].rstrip(",")] = int(parts[2], 0)
        m, n, k, blocks = equ["M"], equ["N"], equ["K"], equ["BLOCKS"]
        for k_step_bytes, bandwidth in ((32, 64), (64, 16)):
            stats = self.stats(image, f"cube.k_step_bytes={k_step_bytes}",
                               f"tlsu.bytes_per_cycle={bandwidth}")
            cycles = stats["cycles"]
            # E4M3: a 16 x k_step x 16 step per cycle, k_step = k_step_bytes lanes.
            peak = 16 * 16 * k_step_bytes
            for pe in ("PE0", "PE1", "PE2", "PE3"):
                unit = stats["units"][pe]
                macs = blocks * m * n * k
                self.assertEqual(unit["macs"], {"E4M3": macs})
                self.assertEqual(unit["peak_macs_per_cycle"], {"E4M3": peak})
                self.assertAlmostEqual(unit["mac_utilisation_busy"],
                                       macs / peak / unit["busy_cycles"])
                self.assertAlmostEqual(unit["mac_utilisation_run"], macs / peak / cycles)
                # Idle stretches before its blocks: waiting for the TLSU's loads.
                self.assertGreater(unit["stall_cycles"]["TLSU operands"], 0)
                self.assertNotIn("CUBE operands", unit["stall_cycles"])
                self.assertLessEqual(unit["busy_cycles"] + sum(unit["stall_cycles"].values()),
                                     cycles)
            tlsu = stats["units"]["TLSU"]
            moved = sum(stats["bytes"].values())
            self.assertEqual(tlsu["configured_bytes_per_cycle"], bandwidth)
            self.assertAlmostEqual(tlsu["bytes_per_cycle"], moved / cycles)
            self.assertAlmostEqual(tlsu["bytes_per_busy_cycle"], moved / tlsu["busy_cycles"])
            self.assertAlmostEqual(tlsu["bandwidth_utilisation"], moved / cycles / bandwidth)
            # The stores wait for the CUBE's D; the last store ends the run, so the
            # TLSU's busy and idle cycles make up the whole run.
            self.assertGreater(tlsu["stall_cycles"]["CUBE operands"], 0)
            self.assertEqual(tlsu["busy_cycles"] + sum(tlsu["stall_cycles"].values()), cycles)

    def test_vcd_has_a_busy_signal_per_unit_rising_and_falling_with_the_trace(self):
        image = self.assemble(os.path.join(FIRMWARE, "mx_gemm_bias", "mx_gemm_bias.s"), "mx")
        trace_path, vcd_path, stats_path = self.path("t.json"), self.path("v.vcd"), self.path("s.json")
        result = self.ptovp("run", image, "--quiet", "--trace", trace_path, "--vcd", vcd_path,
                            "--stats", stats_path)
        self.assertEqual(result.returncode, 0, result.stderr)
        with open(trace_path) as f:
            trace = json.load(f)
        with open(stats_path) as f:
            stats = json.load(f)
        with open(vcd_path) as f:
            vcd = f.read()
        self.assertIn("$timescale 1 ps $end", vcd)
        intervals = vcd_intervals(vcd)
        tracks = {e["args"]["name"]: e["tid"] for e in trace["traceEvents"]
                  if e["name"] == "thread_name"}
        self.assertEqual(set(intervals), {name.replace(" ", "_") + "_busy" for name in tracks})
        for unit, tid in tracks.items():
            with self.subTest(unit=unit):
                signal = intervals[unit.replace(" ", "_") + "_busy"]
                self.assertEqual(signal, trace_busy(trace, tid))
                # The PEs, FPATR and TLSU serve one block at a time: busy time = high time.
                if unit.startswith("PE") or unit in ("FPATR", "TLSU"):
                    high = sum(end - start for start, end in signal)
                    self.assertEqual(high, stats["units"][unit]["busy_cycles"] * 1000)
        for unit in ("PE0", "PE1", "PE2", "PE3", "FPATR", "TLSU"):
            self.assertGreater(len(intervals[unit + "_busy"]), 0, unit)


FAULTING_BLOCK = """
        .global _start
_start: hl.liu 0x3fffff00, ->s0   # the TLOAD runs past the end of the 64 MiB RAM
        addi zero, 32, ->s1
        BSTART.TLOAD U32
        B.DIM zero, 8, ->LB0
        B.DIM zero, 8, ->LB1
        B.IOR [s0, s1]
        B.IOT mask=1111, last, ->T<2>
        BSTOP
        BSTART.SYS FALL
        ebreak 0
"""

# Three 64 KiB Local tiles on all four PEs: 192 KiB in each PE's Local pool,
# 768 KiB in one aggregate.
THREE_LARGE_TILES = """
        .global _start
_start: hl.liu 0x1000, ->s0
        addi zero, 32, ->s1
""" + """
        BSTART.TLOAD U32
        B.DIM zero, 8, ->LB0
        B.DIM zero, 8, ->LB1
        B.IOR [s0, s1]
        B.IOT mask=1111, last, ->T<10>
        BSTOP
""" * 3 + """
        BSTART.SYS FALL
        ebreak 0
"""


class Faults(PlatformCase):
    def test_a_fault_inside_a_block_leaves_the_functional_state(self):
        image = self.assemble_text(FAULTING_BLOCK, "fault")
        self.assertEqual(self.assert_same_as_functional(image, "fault"), 100)
        result = self.ptovp("run", image)
        self.assertEqual(result.returncode, 100)
        self.assertIn("Fault_DataPage", result.stderr)

    def test_capacity_model_key_selects_pools_or_one_aggregate(self):
        image = self.assemble_text(THREE_LARGE_TILES, "tiles")
        for engine in ("functional", "systemc"):
            with self.subTest(engine=engine):
                pools = self.ptovp("run", image, "--engine", engine, "--quiet")
                self.assertEqual(pools.returncode, 0, pools.stderr)
                aggregate = self.ptovp("run", image, "--engine", engine, "--quiet", "--set",
                                       "tile.capacity_model=aggregate")
                self.assertEqual(aggregate.returncode, 100)
                self.assertIn("Fault_TileAllocation", aggregate.stderr)


class Timing(PlatformCase):
    def test_front_end_cycles_per_instruction_scale_a_scalar_run(self):
        image = self.assemble(os.path.join(FIRMWARE, "scalar_loop", "scalar_loop.s"), "loop")
        one = self.stats(image)
        three = self.stats(image, "frontend.cycles_per_instruction=3")
        self.assertEqual(one["cycles"], one["instructions"])
        self.assertEqual(three["cycles"], 3 * one["cycles"])

    def test_a_latency_key_moves_its_unit_by_blocks_times_delta(self):
        image = self.assemble(os.path.join(FIRMWARE, "mx_gemm_bias", "mx_gemm_bias.s"), "mx")
        base = self.stats(image)
        tlsu_blocks = base["blocks"]["TLOAD"] + base["blocks"]["TSTORE"]
        slower = self.stats(image, "tlsu.latency_cycles=120")
        self.assertEqual(slower["units"]["TLSU"]["busy_cycles"],
                         base["units"]["TLSU"]["busy_cycles"] + 100 * tlsu_blocks)
        self.assertGreater(slower["cycles"], base["cycles"])
        cube = self.stats(image, "cube.base_cycles=16")
        self.assertEqual(cube["units"]["PE0"]["busy_cycles"],
                         base["units"]["PE0"]["busy_cycles"] + 10 * base["blocks"]["TMATMULMX.BIAS"])

    def test_every_unit_latency_key_moves_its_unit_by_the_formula(self):
        image = self.assemble(os.path.join(FIRMWARE, "mx_gemm_bias", "mx_gemm_bias.s"), "mx")
        base = self.stats(image)
        busy = lambda stats, unit: stats["units"][unit]["busy_cycles"]
        cube_blocks = base["blocks"]["TMATMULMX.BIAS"]
        tlsu_blocks = base["blocks"]["TLOAD"] + base["blocks"]["TSTORE"]
        # builder: cycles_per_block per dispatched block.
        self.assertEqual(busy(base, "builder"), base["blocks_total"])
        self.assertEqual(busy(self.stats(image, "builder.cycles_per_block=5"), "builder"),
                         5 * base["blocks_total"])
        # CUBE: base + steps * cycles_per_step; doubling the step cost doubles the steps.
        steps = busy(base, "PE0") - 6 * cube_blocks
        self.assertGreater(steps, 0)
        self.assertEqual(busy(self.stats(image, "cube.cycles_per_step=2"), "PE0"),
                         6 * cube_blocks + 2 * steps)
        # FPATR: ceil(rows * N / group_elements) * cycles_per_group.
        self.assertEqual(busy(self.stats(image, "fpatr.cycles_per_group=3"), "FPATR"),
                         3 * busy(base, "FPATR"))
        # TLSU: latency + ceil(bytes / bytes_per_cycle); the tiles are whole 64-byte lines.
        transfer = busy(base, "TLSU") - 20 * tlsu_blocks
        self.assertEqual(transfer * 64, sum(base["bytes"].values()))
        self.assertEqual(busy(self.stats(image, "tlsu.bytes_per_cycle=32"), "TLSU"),
                         20 * tlsu_blocks + 2 * transfer)

    def test_fabric_publish_cycles_per_shared_update(self):
        image = self.assemble(os.path.join(FIRMWARE, "tile_copy", "tile_copy.s"), "copy")
        base = self.stats(image)
        updates = base["units"]["fabric"]["busy_cycles"] // 4
        self.assertGreater(updates, 0)
        slower = self.stats(image, "fabric.publish_cycles=10")
        self.assertEqual(slower["units"]["fabric"]["busy_cycles"], 10 * updates)
        self.assertGreater(slower["cycles"], base["cycles"])


class BadInput(PlatformCase):
    def expect_usage_error(self, args, message, outputs=()):
        result = self.ptovp(*args)
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertIn(message, result.stderr)
        for output in outputs:
            self.assertFalse(os.path.exists(output), output)

    def test_each_bad_input_exits_2_and_writes_nothing(self):
        image = self.assemble(os.path.join(FIRMWARE, "tile_copy", "tile_copy.s"), "copy")
        trace, stats = self.path("t.json"), self.path("s.json")
        outs = ["--trace", trace, "--stats", stats]
        config = self.path("bad.json")
        with open(config, "w") as f:
            f.write('{"tlsu": {"bytes_per_cycle": 16,}')
        self.expect_usage_error(["run", image, "--config", config, *outs], "malformed JSON",
                                [trace, stats])
        with open(config, "w") as f:
            json.dump({"tlsu": {"bandwidth": 16}}, f)
        self.expect_usage_error(["run", image, "--config", config, *outs], "tlsu.bandwidth",
                                [trace, stats])
        self.expect_usage_error(["run", image, "--set", "tlsu.bytes_per_cycle=0", *outs],
                                "tlsu.bytes_per_cycle", [trace, stats])
        self.expect_usage_error(["run", image, "--set", "quantum.ns=0", *outs], "quantum.ns",
                                [trace, stats])
        self.expect_usage_error(["run", image, "--set", "memory.size=64", *outs], "does not fit",
                                [trace, stats])
        blob = self.path("blob.bin")
        with open(blob, "wb") as f:
            f.write(b"\0" * 16)
        self.expect_usage_error(["run", image, "--load", f"{blob}@0x3fffff8", *outs],
                                "--load", [trace, stats])
        self.expect_usage_error(["run", image, "--trace", "/nonexistent/dir/t.json", "--stats",
                                 stats], "/nonexistent/dir/t.json", [stats])

    def test_out_of_memory_names_the_key_or_the_file(self):
        # An address-space limit the RAM window and the file do not fit in.
        # ASan reserves its shadow far beyond any such limit and cannot start.
        image = self.assemble(os.path.join(FIRMWARE, "tile_copy", "tile_copy.s"), "copy")
        big = self.path("big.bin")
        with open(big, "wb") as f:
            f.truncate(3 << 30)  # sparse: 3 GiB that take no disk

        def limited(*args):
            limit = lambda: resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
            return subprocess.run([PTOVP, *args], capture_output=True, text=True, timeout=300,
                                  preexec_fn=limit)

        if "AddressSanitizer" in limited("--version").stderr:
            self.skipTest("ASan cannot start under an address-space limit")
        for engine in ("systemc", "functional"):
            with self.subTest(engine=engine):
                result = limited("run", image, "--engine", engine, "--set",
                                 "memory.size=0x100000000")
                self.assertEqual(result.returncode, 2, result.stderr)
                self.assertIn("memory.size = 0x100000000: the host cannot map that much memory",
                              result.stderr)
                # A --load file is read straight into the RAM: one larger than
                # its place there is out of range, whatever the host could map.
                result = limited("run", image, "--engine", engine, "--load", f"{big}@0x10000")
                self.assertEqual(result.returncode, 2, result.stderr)
                self.assertIn(f"--load {big}@0x10000: access 0x10000+{3 << 30} outside memory "
                              "[0x0, 0x4000000)", result.stderr)
        result = limited("asm", big, "-o", self.path("big.elf"))
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertIn(f"{big}: error: does not fit in the host's memory", result.stderr)

    def test_impossible_values_and_unwritable_outputs_exit_2_and_write_nothing(self):
        image = self.assemble(os.path.join(FIRMWARE, "tile_copy", "tile_copy.s"), "copy")
        trace, stats, vcd, state = (self.path(name) for name in ("t.json", "s.json", "v.vcd",
                                                                  "state.json"))
        outs = ["--trace", trace, "--stats", stats, "--vcd", vcd, "--dump-state", state]
        every = [trace, stats, vcd, state]
        for setting in ("clock.period_ps=0", "fpatr.group_elements=0", "cube.k_step_bytes=4",
                        "memory.size=0", "quantum.ns=fast", "tlsu.latency_cycles=-1"):
            with self.subTest(setting=setting):
                self.expect_usage_error(["run", image, "--set", setting, *outs],
                                        setting.split("=")[0], every)
        config = self.path("typed.json")
        with open(config, "w") as f:
            json.dump({"quantum": {"ns": "fast"}}, f)
        self.expect_usage_error(["run", image, "--config", config, *outs], "quantum.ns", every)
        self.expect_usage_error(["run", image, "--config", self.path("missing.json"), *outs],
                                "missing.json", every)
        for flag in ("--trace", "--stats", "--vcd", "--dump-state"):
            with self.subTest(flag=flag):
                args = list(outs)
                args[args.index(flag) + 1] = "/nonexistent/dir/out"
                self.expect_usage_error(["run", image, *args], "/nonexistent/dir/out",
                                        [path for path in every if path in args])
        self.expect_usage_error(["run", image, "--dump", f"0:16:/nonexistent/dir/m.bin", *outs],
                                "/nonexistent/dir/m.bin", every)
        self.expect_usage_error(["run", image, "--dump", f"0x3fffff8:16:{self.path('m.bin')}",
                                 *outs], "outside memory", every + [self.path("m.bin")])
        blob = self.path("big.bin")
        with open(blob, "wb") as f:
            f.write(b"\0" * 4096)
        self.expect_usage_error(["run", image, "--set", "memory.size=8192", "--load",
                                 f"{blob}@0x1800", *outs], "--load", every)

    def test_a_failed_write_never_removes_or_truncates_an_existing_file(self):
        image = self.assemble(os.path.join(FIRMWARE, "tile_copy", "tile_copy.s"), "copy")
        state = self.path("state.json")
        with open(state, "w") as f:
            f.write("old state")
        if os.path.exists("/dev/full"):
            self.expect_usage_error(["run", image, "--quiet", "--stats", "/dev/full"],
                                    "/dev/full: cannot write the file")
            self.assertTrue(stat.S_ISCHR(os.stat("/dev/full").st_mode), "/dev/full survives")
            self.expect_usage_error(["run", image, "--quiet", "--dump-state", state, "--vcd",
                                     "/dev/full"], "/dev/full: cannot write the file")
            with open(state) as f:
                self.assertEqual(f.read(), "old state")
        self.assertEqual(sorted(os.listdir(self.dir)), ["copy.elf", "state.json"],
                         "no temporary file is left behind")
        result = self.ptovp("run", image, "--quiet", "--dump-state", state)
        self.assertEqual(result.returncode, 0, result.stderr)
        with open(state) as f:
            self.assertIn('"pc"', f.read())

    def test_extreme_values_are_out_of_range_not_wrapped(self):
        image = self.assemble(os.path.join(FIRMWARE, "tile_copy", "tile_copy.s"), "copy")
        for setting, message in (
                ("cube.k_step_bytes=0x2000000000000000", "above the maximum 4096"),
                ("clock.period_ps=0xffffffffffffffff", "above the maximum 1000000"),
                ("memory.size=0x20000000000", "above the maximum"),
                ("tlsu.latency_cycles= 5", "is not an unsigned number"),
                ("quantum.ns=-1", "is not an unsigned number")):
            with self.subTest(setting=setting):
                result = self.ptovp("run", image, "--set", setting)
                self.assertEqual(result.returncode, 2, result.stderr)
                self.assertIn(setting.split("=")[0] + ":", result.stderr)
                self.assertIn(message, result.stderr)
        for limit in ("-1", "18446744073709551616", "1e9"):
            with self.subTest(limit=limit):
                self.expect_usage_error(["run", image, "--max-instructions", limit],
                                        "--max-instructions")

    def test_json_that_is_too_deep_or_has_trailing_garbage_is_malformed(self):
        image = self.assemble(os.path.join(FIRMWARE, "tile_copy", "tile_copy.s"), "copy")
        config = self.path("deep.json")
        with open(config, "w") as f:
            f.write('{"tlsu": ' + "[" * 100000 + "]" * 100000 + "}")
        self.expect_usage_error(["run", image, "--config", config], "nested deeper than 64")
        with open(config, "w") as f:
            f.write('{"tlsu": {"bytes_per_cycle": 32}} trailing')
        self.expect_usage_error(["run", image, "--config", config], "malformed JSON")
        with open(config, "w") as f:
            f.write('{"tlsu": {"bytes_per_cycle": [' + ",".join(["1"] * 1000) + "]}}")
        result = self.ptovp("run", image, "--config", config)
        self.assertEqual(result.returncode, 2)
        self.assertLess(len(result.stderr), 300, "the bad value is quoted in short")
        case = self.path("case.json")
        with open(case, "w") as f:
            f.write("[" * 100000 + "]" * 100000)
        result = self.ptovp("conform", case)
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertIn("nested deeper than 64", result.stdout)

    def test_options_before_the_image_do_not_swallow_it(self):
        image = self.assemble(os.path.join(FIRMWARE, "tile_copy", "tile_copy.s"), "copy")
        blob = self.path("blob.bin")
        with open(blob, "wb") as f:
            f.write(b"\0" * 16)
        for args in (["--load", f"{blob}@0x80000", image], ["--set", "quantum.ns=500", image],
                     ["--dump", f"0:16:{self.path('m.bin')}", image]):
            with self.subTest(args=args):
                result = self.ptovp("run", *args, "--quiet")
                self.assertEqual(result.returncode, 0, result.stderr)
        result = self.ptovp("run", image, "--stats", "--quiet")
        self.assertEqual(result.returncode, 2)
        self.assertIn("--stats: expected a FILE, got '--quiet'", result.stderr)
        self.assertFalse(os.path.exists("--quiet"))

    def test_the_functional_engine_refuses_timed_outputs(self):
        image = self.assemble(os.path.join(FIRMWARE, "tile_copy", "tile_copy.s"), "copy")
        for flag in ("--trace", "--vcd"):
            with self.subTest(flag=flag):
                out = self.path("out")
                self.expect_usage_error(["run", image, "--engine", "functional", flag, out],
                                        f"{flag}: only the systemc engine writes it", [out])


if __name__ == "__main__":
    ptovp_case.main(sys.modules[__name__])

#!/usr/bin/env python3
"""The SystemC platform end to end, through `ptovp run` in subprocesses (one
SystemC elaboration per process).

    platform_test.py --ptovp BIN --firmware DIR SUITE

Suites: Equivalence (every firmware on both engines: identical exit status,
state dump and memory), Determinism (two runs: byte-identical trace, stats,
VCD, state), Faults (a fault inside a block leaves the functional engine's
state), Timing (one latency key moves the totals by the expected amount),
BadInput (exit 2, a message naming the problem, no output left behind).
"""
import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile
import unittest

PTOVP = None
FIRMWARE = None
MEMORY_WINDOW = "0:0x100000"  # every firmware's code and data


class PlatformCase(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def path(self, name):
        return os.path.join(self.dir, name)

    def ptovp(self, *args):
        return subprocess.run([PTOVP, *args], capture_output=True, text=True, timeout=300)

    def assemble(self, source, name):
        image = self.path(name + ".elf")
        result = self.ptovp("asm", source, "-o", image)
        self.assertEqual(result.returncode, 0, result.stderr)
        return image

    def assemble_text(self, text, name):
        source = self.path(name + ".s")
        with open(source, "w") as f:
            f.write(text)
        return self.assemble(source, name)

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


class Faults(PlatformCase):
    def test_a_fault_inside_a_block_leaves_the_functional_state(self):
        image = self.assemble_text(FAULTING_BLOCK, "fault")
        self.assertEqual(self.assert_same_as_functional(image, "fault"), 100)
        result = self.ptovp("run", image)
        self.assertEqual(result.returncode, 100)
        self.assertIn("Fault_DataPage", result.stderr)


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


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ptovp", required=True)
    parser.add_argument("--firmware", required=True)
    parser.add_argument("suite")
    args = parser.parse_args()
    global PTOVP, FIRMWARE
    PTOVP, FIRMWARE = args.ptovp, args.firmware
    suite = unittest.defaultTestLoader.loadTestsFromName(args.suite, sys.modules[__name__])
    result = unittest.TextTestRunner(verbosity=2).run(suite)
    sys.exit(0 if result.wasSuccessful() else 1)


if __name__ == "__main__":
    main()

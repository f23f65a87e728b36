#!/usr/bin/env python3
"""Firmware debugging end to end, through `ptovp run` in subprocesses
(docs/debugging.md).

    debug_test.py --ptovp BIN --firmware DIR SUITE

Suites: InstructionTrace (--trace-insn: one line per attempt, its writes and
block events, ranges, the size limit, bad input), Interrupt (SIGINT and
SIGTERM stop a run that would not end, every output is written, exit 130),
Regions (B.HINT TRACE begin/end: cycles, MACs, bytes and utilisation per
region in the stats, the summary and the Perfetto trace), Gdb (gdb-multiarch in batch mode against `--gdb` on both engines: attach,
break at a label, registers by name, memory, stepi, watchpoints hit by a
store, by a TSTORE and (read and access) by a TLOAD, monitor commands, a fault stop, Ctrl-C, detach,
kill). Every subprocess has a timeout; the stub listens on loopback only.
"""
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import ptovp_case  # noqa: E402

PTOVP = None
FIRMWARE = None
ENGINES = ("functional", "systemc")


def listing_address(line):
    """The address of a `ptovp dis` line, from its `# ADDR: WORD` comment."""
    return int(line.split("# ")[1].split(":")[0], 16)

# a0 counts up for ever: a run that only a signal or a limit ends.
SPIN = """
        .global _start
_start: addi zero, 0, ->a0
spin:   BSTART.STD DIRECT, spin
        addi a0, 1, ->a0
        BSTOP
"""

# Register writes, a store, a block, then a load that faults (outside memory).
WRITES_THEN_FAULT = """
        .global _start
_start: addi zero, 5, ->a0
        hl.liu 0x4000, ->s0
        sdi a0, [s0, 0]
        BSTART.STD FALL
        addi a0, 2, ->a1
        BSTOP
        hl.liu 0x7ffffff0, ->s1
        ldi [s1, 0], ->a2
"""


class DebugCase(ptovp_case.PtovpCase):
    def lines(self, name):
        with open(self.path(name)) as f:
            return f.read().splitlines()


# A store loop, a block, then a load that faults (outside memory).
DEBUGGED = """
        .global _start
_start: addi zero, 3, ->a0
        hl.liu 0x4000, ->s0
        addi zero, 0, ->a1
loop:   addi a1, 1, ->a1
        sdi a1, [s0, 0]
load:   ldi [s0, 0], ->a2
        subi a0, 1, ->a0
        BSTART.STD COND, loop
cond:   setc.nei a0, 0, 0
        BSTOP
        hl.liu 0x7ffffff0, ->s1
bad:    ldi [s1, 0], ->a2
"""


class InstructionTrace(DebugCase):
    def test_one_line_per_attempt_matches_the_stats_on_both_engines(self):
        for firmware in ("tile_copy", "s8_gemm_req8_relu_rowmax"):
            image = self.assemble_firmware(firmware)
            traces = {}
            for engine in ENGINES:
                stats = ["--stats", self.path("stats.json")] if engine == "systemc" else []
                result = self.ptovp("run", image, "--engine", engine, "--quiet",
                                    "--trace-insn", self.path(engine + ".trace"), *stats)
                self.assertEqual(result.returncode, 0, result.stderr)
                traces[engine] = self.lines(engine + ".trace")
            with open(self.path("stats.json")) as f:
                instructions = json.load(f)["instructions"]
            self.assertEqual(len(traces["systemc"]), instructions, firmware)
            self.assertEqual(len(traces["functional"]), instructions, firmware)
            # Same attempts, PCs, bytes, text and writes; only the cycle column may differ.
            strip = lambda line: line.split(" ", 2)[2]
            self.assertEqual([strip(l) for l in traces["functional"]],
                             [strip(l) for l in traces["systemc"]], firmware)
            self.assertEqual([int(l.split()[0]) for l in traces["systemc"]],
                             list(range(instructions)))
            self.assertTrue(any("block start TileMemory" in l for l in traces["systemc"]), firmware)
            self.assertTrue(traces["systemc"][-1].endswith("| EBREAK 0"), traces["systemc"][-1])

    def test_register_and_memory_writes_and_block_events(self):
        image = self.assemble_text(WRITES_THEN_FAULT, "writes")
        for engine in ENGINES:
            result = self.ptovp("run", image, "--engine", engine, "--quiet",
                                "--trace-insn", self.path("t"))
            self.assertEqual(result.returncode, 100, result.stderr)
            lines = self.lines("t")
            self.assertEqual(len(lines), 8, lines)
            self.assertRegex(lines[0], r"^0 \d+ 0x00000000 [0-9a-f]{8} ADDI zero, 5, ->a0 \| a0=0x5$")
            self.assertTrue(lines[1].endswith("| s0=0x4000"), lines[1])
            self.assertTrue(lines[2].endswith("| [0x4000]8=0x5"), lines[2])
            self.assertTrue(lines[3].endswith("| block start Standard FALL"), lines[3])
            self.assertTrue(lines[4].endswith("| a1=0x7"), lines[4])
            self.assertTrue(lines[5].endswith("| block commit"), lines[5])
            self.assertRegex(lines[7], r"LDI s1, 0, ->a2 \| fault trap \d+ Fault_DataPage: ")

    def test_ranges_by_attempt_and_by_pc(self):
        image = self.assemble_text(SPIN, "spin")
        result = self.ptovp("run", image, "--quiet", "--max-instructions", "40",
                            "--trace-insn", self.path("n"), "--trace-insn-range", "10:13")
        self.assertEqual(result.returncode, 101, result.stderr)
        self.assertEqual([l.split()[0] for l in self.lines("n")], ["10", "11", "12"])
        result = self.ptovp("run", image, "--quiet", "--max-instructions", "40",
                            "--trace-insn", self.path("pc"), "--trace-insn-range", "pc=0x8:")
        self.assertEqual(result.returncode, 101, result.stderr)
        pcs = [l.split()[2] for l in self.lines("pc")]
        self.assertEqual(len(pcs), 26)  # 2 of every 3 loop attempts after the first
        self.assertTrue(all(int(pc, 16) >= 8 for pc in pcs), pcs)

    def test_the_size_limit_ends_the_trace_with_a_note(self):
        image = self.assemble_text(SPIN, "spin")
        result = self.ptovp("run", image, "--quiet", "--max-instructions", "1000",
                            "--trace-insn", self.path("t"), "--trace-insn-limit", "2000")
        self.assertEqual(result.returncode, 101, result.stderr)
        size = os.path.getsize(self.path("t"))
        lines = self.lines("t")
        self.assertEqual(lines[-1], "# --trace-insn-limit reached: the trace stops here")
        self.assertLessEqual(size - len(lines[-1]) - 1, 2000)
        self.assertGreater(len(lines), 20)

    def test_a_bad_range_is_a_usage_error(self):
        image = self.assemble_text(SPIN, "spin")
        result = self.ptovp("run", image, "--trace-insn", self.path("t"),
                            "--trace-insn-range", "pc=zz")
        self.assertEqual(result.returncode, 2)
        self.assertIn("--trace-insn-range 'pc=zz'", result.stderr)


class Interrupt(DebugCase):
    def interrupt(self, engine, signum, *outputs):
        image = self.assemble_text(SPIN, "spin")
        process = subprocess.Popen([PTOVP, "run", image, "--engine", engine, "--max-instructions",
                                    "0", *outputs], stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True)
        time.sleep(1.0)
        process.send_signal(signum)
        _, err = process.communicate(timeout=60)
        return process.returncode, err

    def test_sigint_and_sigterm_write_every_output_and_exit_130(self):
        for engine in ENGINES:
            for signum, name in ((signal.SIGINT, "SIGINT"), (signal.SIGTERM, "SIGTERM")):
                outputs = ["--dump-state", self.path("state.json"), "--dump",
                           f"0:64:{self.path('mem.bin')}", "--trace-insn", self.path("t"),
                           "--trace-insn-range", "0:100"]
                if engine == "systemc":
                    outputs += ["--stats", self.path("stats.json"), "--trace",
                                self.path("trace.json"), "--vcd", self.path("run.vcd")]
                status, err = self.interrupt(engine, signum, *outputs)
                self.assertEqual(status, 130, err)
                found = re.search(rf"interrupted by {name} after (\d+) instructions, before pc 0x([0-9a-f]+)", err)
                self.assertIsNotNone(found, err)
                with open(self.path("state.json")) as f:
                    state = json.load(f)
                self.assertEqual(state["instructions"], int(found.group(1)))
                self.assertEqual(int(state["pc"], 16), int(found.group(2), 16))
                self.assertEqual(os.path.getsize(self.path("mem.bin")), 64)
                self.assertEqual(len(self.lines("t")), 100)
                if engine == "systemc":
                    with open(self.path("stats.json")) as f:
                        self.assertEqual(json.load(f)["instructions"], int(found.group(1)))
                    self.assertGreater(os.path.getsize(self.path("run.vcd")), 0)
                    with open(self.path("trace.json")) as f:
                        self.assertIn("traceEvents", json.load(f))


class Regions(DebugCase):
    M, N = 20, 24  # the S8 GEMM's shape

    def region_image(self):
        """The S8 GEMM with a region around its TMATMUL and stores, and the
        addresses of the two marks."""
        with open(os.path.join(FIRMWARE, "s8_gemm_req8_relu_rowmax",
                               "s8_gemm_req8_relu_rowmax.s")) as f:
            source = f.read()
        source = source.replace("        hl.liu QUANT_HI, ->a3",
                                "        B.HINT TRACE, begin\n        hl.liu QUANT_HI, ->a3", 1)
        source = source.replace("        BSTART.SYS FALL\n        ebreak 0",
                                "        B.HINT TRACE, end\n        BSTART.SYS FALL\n        ebreak 0")
        image = self.assemble_text(source, "region")
        listing = self.ptovp("dis", image).stdout.splitlines()
        hints = [listing_address(l) for l in listing if "B.HINT TRACE" in l]
        self.assertEqual(len(hints), 2)
        return image, hints

    def test_a_region_around_the_matmul_and_its_stores(self):
        image, hints = self.region_image()
        result = self.ptovp("run", image, "--stats", self.path("stats.json"),
                            "--trace", self.path("trace.json"))
        self.assertEqual(result.returncode, 0, result.stderr)
        with open(self.path("stats.json")) as f:
            stats = json.load(f)
        self.assertEqual(len(stats["regions"]), 1)
        region = stats["regions"][0]
        self.assertEqual((region["begin_pc"], region["end_pc"]), tuple(hints))
        # The only TMATMUL is inside; the loads are before it, the stores inside:
        # each PE stores its S8 D (M x N) and its S32 row maxima (M x 4 bytes).
        self.assertEqual(region["macs"], stats["macs"])
        self.assertEqual(region["bytes"], {"stored": 4 * (self.M * self.N + 4 * self.M)})
        self.assertGreater(region["cycles"], 0)
        self.assertLessEqual(region["begin_cycle"] + region["cycles"], stats["cycles"])
        self.assertNotIn("front end", region["utilisation"])
        for unit, share in region["utilisation"].items():
            self.assertTrue(0 <= share <= 1, (unit, share))
        self.assertGreater(region["utilisation"]["PE0"], 0)
        self.assertGreater(region["utilisation"]["TLSU"], 0)
        self.assertIn(f"region        0x{hints[0]:x}..0x{hints[1]:x}: {region['cycles']} cycles",
                      result.stderr)
        with open(self.path("trace.json")) as f:
            events = json.load(f)["traceEvents"]
        track = [e["tid"] for e in events if e.get("args", {}).get("name") == "regions"]
        spans = [e for e in events if e.get("name") == "region 0"]
        self.assertEqual(len(track), 1)
        self.assertEqual(len(spans), 1)
        self.assertEqual(spans[0]["tid"], track[0])
        self.assertAlmostEqual(float(spans[0]["ts"]), region["begin_cycle"] / 1000.0)
        self.assertAlmostEqual(float(spans[0]["dur"]), region["cycles"] / 1000.0)

    def test_the_functional_engine_counts_a_region_in_instructions(self):
        image, hints = self.region_image()
        runs = {}
        for engine in ENGINES:
            result = self.ptovp("run", image, "--engine", engine,
                                "--stats", self.path(engine + ".json"),
                                "--trace-insn", self.path(engine + ".trace"))
            self.assertEqual(result.returncode, 0, result.stderr)
            with open(self.path(engine + ".json")) as f:
                runs[engine] = (json.load(f), result.stderr)
        stats, err = runs["functional"]
        self.assertEqual(stats["engine"], "functional")
        self.assertEqual(len(stats["regions"]), 1)
        region = stats["regions"][0]
        self.assertEqual((region["begin_pc"], region["end_pc"]), tuple(hints))
        # The instruction trace numbers every attempt: the marks are two of its lines.
        marks = [int(l.split()[0]) for l in self.lines("functional.trace") if "B.HINT TRACE" in l]
        self.assertEqual(len(marks), 2)
        self.assertEqual(region["begin_instruction"], marks[0])
        self.assertEqual(region["instructions"], marks[1] - marks[0])
        self.assertEqual(stats["instructions"], len(self.lines("functional.trace")))
        # The blocks' MACs and bytes are those the SystemC engine counts.
        systemc = runs["systemc"][0]
        self.assertEqual(region["macs"], stats["macs"])
        self.assertEqual(region["macs"], systemc["regions"][0]["macs"])
        self.assertEqual(stats["macs"], systemc["macs"])
        self.assertEqual(stats["bytes"], systemc["bytes"])
        self.assertEqual(region["bytes"], {"stored": 4 * (self.M * self.N + 4 * self.M)})
        self.assertIn(f"region        0x{hints[0]:x}..0x{hints[1]:x}: "
                      f"{region['instructions']} instructions, MACs S8 "
                      f"{stats['macs']['S8']}, bytes stored {region['bytes']['stored']}", err)

    def test_no_region_no_regions_key(self):
        image = self.assemble_firmware("tile_copy")
        for engine in ENGINES:
            result = self.ptovp("run", image, "--quiet", "--engine", engine,
                                "--stats", self.path("stats.json"))
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertEqual(result.stderr, "")
            with open(self.path("stats.json")) as f:
                self.assertNotIn("regions", json.load(f))


class Gdb(DebugCase):
    """One batch gdb-multiarch session per test and engine."""

    def setUp(self):
        super().setUp()
        if shutil.which("gdb-multiarch") is None:
            self.skipTest("gdb-multiarch is not installed (scripts/setup.sh)")

    def labels(self, image):
        result = self.ptovp("dis", image)
        self.assertEqual(result.returncode, 0, result.stderr)
        found, pending = {}, None
        for line in result.stdout.splitlines():
            if line.endswith(":") and not line.startswith(" "):
                pending = line[:-1]
            elif pending:
                found[pending] = listing_address(line)
                pending = None
        return found

    def start(self, image, engine, *extra):
        err = open(self.path("ptovp.err"), "w+")
        process = subprocess.Popen([PTOVP, "run", image, "--engine", engine, "--gdb", "0", *extra],
                                   stdout=subprocess.DEVNULL, stderr=err, text=True)
        deadline = time.time() + 30
        while time.time() < deadline:
            err.seek(0)
            found = re.search(r"listening on localhost:(\d+)", err.read())
            if found:
                return process, err, int(found.group(1))
            time.sleep(0.05)
        process.kill()
        self.fail("the stub did not start")

    def drive(self, image, engine, client, extra=("--gdb-wait",)):
        """Runs the debugger whose command line client(port) gives against a
        stub; returns its output, ptovp's exit status and ptovp's stderr."""
        process, err, port = self.start(image, engine, *extra)
        try:
            run = subprocess.run(client(port), capture_output=True, text=True, timeout=60)
            status = process.wait(timeout=60)
        finally:
            if process.poll() is None:
                process.kill()
        err.seek(0)
        return run.stdout + run.stderr, status, err.read()

    # The batch client: its command line, how it attaches and how it takes a command.
    CLIENT = ["gdb-multiarch", "-nx", "-batch"]
    ATTACH = "target remote 127.0.0.1:{port}"
    COMMAND = "-ex"

    def session(self, image, engine, commands, after_crash=()):
        """`after_crash`: LLDB's commands for after a stop by a signal (-k)."""
        def client(port):
            args = [*self.CLIENT, self.COMMAND, self.ATTACH.format(port=port)]
            for command in commands:
                args += [self.COMMAND, command]
            for command in after_crash:
                args += ["-k", command]
            return args
        return self.drive(image, engine, client)

    def test_break_registers_memory_step_watch_monitor_fault_detach(self):
        image = self.assemble_text(DEBUGGED, "debugged")
        at = self.labels(image)
        for engine in ENGINES:
            out, status, err = self.session(image, engine, [
                "info registers a0 pc",
                f"break *{at['load']}", "continue", "info registers a1 s0", "x/gx 0x4000",
                "stepi", "p/x $pc", "p/x $a2",
                "delete", "watch *(long *)0x4000", "continue", "p/x $pc",
                "delete", f"hbreak *{at['cond']}", "continue", "monitor block", "p/x $bstate",
                "delete", "continue", "p/x $pc", "detach"])
            self.assertRegex(out, r"a0\s+0x0\s")
            self.assertRegex(out, r"pc\s+0x0\s")
            self.assertIn(f"Breakpoint 1, 0x{at['load']:016x} in ?? ()", out)
            self.assertRegex(out, r"a1\s+0x1\s")
            self.assertRegex(out, r"s0\s+0x4000\s")
            self.assertIn("0x4000:\t0x0000000000000001", out)
            self.assertIn(f"$1 = 0x{at['load'] + 4:x}", out)  # LDI is 4 bytes
            self.assertIn("$2 = 0x1", out)
            # The store of the second iteration; the stop is after it.
            self.assertIn("Old value = 1\nNew value = 2", out)
            self.assertIn(f"$3 = 0x{at['load']:x}", out)
            self.assertIn("block: active", out)
            self.assertIn("$4 = 0x1", out)  # bstate: active, header not yet entered
            self.assertIn("Fault_DataPage", out)
            self.assertIn("Program received signal SIGSEGV", out)
            self.assertIn(f"$5 = 0x{at['bad']:x}", out)
            self.assertIn("[Inferior 1 (Remote target) detached]", out)
            self.assertEqual(status, 100, err)
            self.assertIn("trap 35: Fault_DataPage", err)

    def test_a_tstore_hits_a_watchpoint_and_monitor_shows_tiles(self):
        image = self.assemble_firmware("tile_copy")
        for engine in ENGINES:
            out, status, err = self.session(image, engine, [
                "watch *(long *)0x2000", "continue", "x/2gx 0x2000", "delete",
                "monitor tile T#1", "monitor tile S3", "monitor fabric", "monitor tile S9",
                "kill"])
            # PE0's output row 0 is 0, 1 (U32): the TSTORE block wrote it.
            self.assertIn("Old value = 0\nNew value = 4294967296", out)
            self.assertIn("0x2000:\t0x0000000100000000\t0x0000000300000002", out)
            self.assertIn("T#1 (register 0): U32 RowMajor 8x8 (valid 8x8) 256 B", out)
            self.assertIn("  [  1] 8 9 10 11 12 13 14 15", out)
            self.assertIn("  [  2] 272 273 274 275 276 277 278 279", out)  # PE1's quarter of S3
            self.assertIn("S3: U32 RowMajor 8x8 (valid 8x8) 256 B, initialized 1111 of "
                          "allocation 1111: ready", out)
            self.assertIn("S9: no descriptor", out)
            self.assertIn("[Inferior 1 (Remote target) killed]", out)
            self.assertEqual(status, 130, err)
            self.assertIn("killed by the debugger", err)

    def test_a_tload_hits_read_and_access_watchpoints(self):
        image = self.assemble_firmware("tile_copy")
        at = self.labels(image)
        after_tload = self.block_after_tload(image)
        self.assertGreater(after_tload, at["fill"])
        for engine in ENGINES:
            # PE1's input element 2 (0x102): the fill loop writes it, only the TLOAD reads it.
            out, status, err = self.session(image, engine, [
                "rwatch *(int *)0x1108", "continue", "p/x $pc", "delete", "continue"])
            self.assertIn("Hardware read watchpoint 1: *(int *)0x1108\n\nValue = 258", out)
            self.assert_stopped_after(out, engine, after_tload, 1)
            self.assertIn("[Inferior 1 (Remote target) exited normally]", out)
            self.assertEqual(status, 0, err)
            # PE2's element 2: written by the SWI of its fill loop, then read by the TLOAD.
            out, status, err = self.session(image, engine, [
                "awatch *(int *)0x1208", "continue", "continue", "p/x $pc", "delete", "continue"])
            self.assertIn("Hardware access (read/write) watchpoint 1: *(int *)0x1208\n\n"
                          "Old value = 0\nNew value = 514", out)
            self.assertIn("Hardware access (read/write) watchpoint 1: *(int *)0x1208\n\n"
                          "Value = 514", out)
            self.assert_stopped_after(out, engine, after_tload, 1)
            self.assertIn("[Inferior 1 (Remote target) exited normally]", out)
            self.assertEqual(status, 0, err)

    def assert_stopped_after(self, out, engine, after_tload, count):
        pcs = [int(x, 16) for x in re.findall(r"\$\d+ = 0x([0-9a-f]+)", out)]
        self.assertEqual(len(pcs), count, out)
        # The stop is at an instruction boundary after the TLOAD block's stop; the
        # SystemC TLSU may run the block while the front end goes on.
        for pc in pcs:
            if engine == "functional":
                self.assertEqual(pc, after_tload)
            else:
                self.assertGreaterEqual(pc, after_tload, hex(pc))

    def block_after_tload(self, image):
        """The address of the first instruction after the TLOAD block's BSTOP."""
        code = [l for l in self.ptovp("dis", image).stdout.splitlines() if "# " in l]
        start = next(i for i, l in enumerate(code) if "BSTART.TLOAD" in l)
        stop = next(i for i in range(start, len(code)) if code[i].split()[0] == "BSTOP")
        return listing_address(code[stop + 1])

    def test_attach_to_a_running_program_interrupt_and_detach(self):
        image = self.assemble_text(SPIN, "spin")
        interrupt = ("python import threading; threading.Timer(1.0, lambda: "
                     "gdb.post_event(lambda: gdb.execute('interrupt'))).start()")
        for engine in ENGINES:
            process, err, port = self.start(image, engine, "--max-instructions", "0")
            time.sleep(0.5)
            gdb = subprocess.run(
                ["gdb-multiarch", "-nx", "-batch", "-ex", f"target remote 127.0.0.1:{port}",
                 "-ex", "p $a0 > 0", "-ex", interrupt, "-ex", "continue", "-ex", "p $a0 > 1000",
                 "-ex", "detach"], capture_output=True, text=True, timeout=60)
            out = gdb.stdout + gdb.stderr
            time.sleep(0.3)
            self.assertIsNone(process.poll(), "the run goes on after the detach")
            process.send_signal(signal.SIGINT)
            status = process.wait(timeout=60)
            err.seek(0)
            self.assertIn("$1 = 1", out)
            self.assertIn("Program received signal SIGINT", out)
            self.assertIn("$2 = 1", out)
            self.assertIn("[Inferior 1 (Remote target) detached]", out)
            self.assertEqual(status, 130)
            self.assertIn("interrupted by SIGINT", err.read())


    def test_a_second_client_interrupts_the_attached_one(self):
        """GDB remote protocol by hand: a client that continued gets the
        SIGINT stop reply (T02) when a second client connects, so it is never
        left waiting while the run pauses for the newcomer."""
        image = self.assemble_text(SPIN, "spin")
        for engine in ENGINES:
            process, err, port = self.start(image, engine, "--max-instructions", "0")
            try:
                first = RspClient(port)
                self.assertTrue(first.request("?").startswith("T"))
                first.send("c")
                time.sleep(0.3)
                second = socket.create_connection(("127.0.0.1", port), timeout=30)
                self.assertEqual(first.reply()[:3], "T02", engine)
                second.close()
                first.close()
            finally:
                process.kill()
                process.wait(timeout=60)
                err.close()


class RspClient:
    """The GDB remote serial protocol's packets: $data#checksum, each
    acknowledged with +."""

    def __init__(self, port):
        self.socket = socket.create_connection(("127.0.0.1", port), timeout=30)
        self.pending = b""

    def send(self, data):
        checksum = sum(data.encode()) % 256
        self.socket.sendall(f"${data}#{checksum:02x}".encode())

    def reply(self):
        while True:
            start = self.pending.find(b"$")
            end = self.pending.find(b"#", start + 1) if start >= 0 else -1
            if start >= 0 and end >= 0 and len(self.pending) >= end + 3:
                data = self.pending[start + 1:end].decode()
                self.pending = self.pending[end + 3:]
                self.socket.sendall(b"+")
                return data
            chunk = self.socket.recv(4096)
            if not chunk:
                raise ConnectionError("the stub closed the connection")
            self.pending += chunk

    def request(self, data):
        self.send(data)
        return self.reply()

    def close(self):
        self.socket.close()


class Lldb(Gdb):
    """One batch LLDB session per test and engine (`gdb-remote`): LLDB takes
    the register roles and names from the stub's target description."""

    def setUp(self):
        DebugCase.setUp(self)
        if shutil.which("lldb") is None:
            self.skipTest("lldb is not installed (scripts/setup.sh)")

    test_a_second_client_interrupts_the_attached_one = None  # no client program: once, in Gdb

    CLIENT = ["lldb", "--no-lldbinit", "--batch"]
    ATTACH = "gdb-remote 127.0.0.1:{port}"
    COMMAND = "-o"

    def test_break_registers_memory_step_watch_monitor_fault_detach(self):
        image = self.assemble_text(DEBUGGED, "debugged")
        at = self.labels(image)
        for engine in ENGINES:
            out, status, err = self.session(image, engine, [
                "register read a0 pc",
                f"breakpoint set -a {at['load']}", "continue", "register read a1 s0",
                "memory read -s8 -fx -c1 0x4000",
                "thread step-inst", "register read pc a2", "breakpoint delete -f",
                "watchpoint set expression -w write -s 8 -- 0x4000", "continue",
                "register read pc", "watchpoint delete -f",
                f"breakpoint set -a {at['cond']}", "continue",
                "process plugin packet monitor block", "register read bstate",
                "breakpoint delete -f", "continue"],
                after_crash=["register read pc", "process detach"])
            self.assertRegex(out, r"a0 = 0x0+\n\s+pc = 0x0+\n")
            self.assertIn(f"stop reason = breakpoint 1.1\n    frame #0: 0x{at['load']:016x}", out)
            self.assertRegex(out, r"a1 = 0x0+1\n\s+s0 = 0x0+4000\n")
            self.assertIn("0x00004000: 0x0000000000000001", out)
            self.assertIn("stop reason = instruction step into", out)
            self.assertRegex(out, rf"pc = 0x0*{at['load'] + 4:x}\n\s+a2 = 0x0+1\n")
            # The store of the second iteration; the stop is after it.
            self.assertIn("Watchpoint 1 hit:\nold value: 1\nnew value: 2", out)
            self.assertRegex(out, rf"pc = 0x0*{at['load']:x}\n")
            self.assertIn("block: active", out)  # monitor block, in the COND block's header
            self.assertRegex(out, r"bstate = 0x0+1\n")
            self.assertIn("Fault_DataPage", out)
            self.assertIn(f"stop reason = signal SIGSEGV\n    frame #0: 0x{at['bad']:016x}", out)
            self.assertIn("Process 1 detached", out)
            self.assertEqual(status, 100, err)
            self.assertIn("trap 35: Fault_DataPage", err)

    def test_a_tload_hits_a_read_watchpoint_and_monitor_shows_tiles(self):
        image = self.assemble_firmware("tile_copy")
        after_tload = self.block_after_tload(image)
        for engine in ENGINES:
            out, status, err = self.session(image, engine, [
                "watchpoint set expression -w read -s 4 -- 0x1108", "continue",
                "p/x $pc", "watchpoint delete -f",
                "process plugin packet monitor tile T#1", "continue"])
            self.assertIn("stop reason = watchpoint 1", out)
            self.assert_stopped_after(out, engine, after_tload, 1)
            self.assertIn("T#1 (register 0): U32 RowMajor 8x8 (valid 8x8) 256 B", out)
            self.assertIn("  [  0] 0 1 2 3 4 5 6 7", out)  # PE0's input
            self.assertIn("Process 1 exited with status = 0", out)
            self.assertEqual(status, 0, err)

    test_a_tstore_hits_a_watchpoint_and_monitor_shows_tiles = None
    test_a_tload_hits_read_and_access_watchpoints = None
    test_attach_to_a_running_program_interrupt_and_detach = None


if __name__ == "__main__":
    ptovp_case.main(sys.modules[__name__])

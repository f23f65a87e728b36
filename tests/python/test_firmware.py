"""Firmware unit tests written in Python against the ptovp module
(docs/python.md), run by pytest under CTest (python.firmware). PTOVP_BINARY
is the ptovp tool (it assembles the sources and is the CLI the errors are
compared with), PTOVP_FIRMWARE the firmware folder; PYTHONPATH finds ptovp."""
import json
import os
import subprocess

import pytest

import ptovp

FIRMWARE = os.environ["PTOVP_FIRMWARE"]
PTOVP = os.environ["PTOVP_BINARY"]

BAD_LOAD = """
        .global _start
_start: hl.liu 0x7ffffff0, ->s1
        ldi [s1, 0], ->a2
"""

# Writes "hello\n" through the host's write service, then exits with 5.
HELLO = """
        .global _start
_start: hl.liu msg, ->a1
        addi zero, 1, ->a0
        addi zero, 6, ->a2
        addi zero, 64, ->x1
        BSTART.SYS FALL
        acrc 1
        BSTOP
        addi zero, 5, ->a0
        addi zero, 0x5e, ->x1
        BSTART.SYS FALL
        acrc 1
msg:    .ascii "hello\\n"
"""

# A region around three iterations of a loop of four instructions.
REGION = """
        .global _start
_start: addi zero, 3, ->a0
        B.HINT TRACE, begin
loop:   BSTART.STD COND, loop
        subi a0, 1, ->a0
        setc.nei a0, 0, 0
        BSTOP
        B.HINT TRACE, end
        BSTART.SYS FALL
        ebreak 0
"""


def assemble(tmp_path, source=None, firmware=None):
    if firmware:
        source_path = os.path.join(FIRMWARE, firmware, firmware + ".s")
    else:
        source_path = tmp_path / "program.s"
        source_path.write_text(source)
    image = tmp_path / "program.elf"
    subprocess.run([PTOVP, "asm", str(source_path), "-o", str(image)], check=True, timeout=60)
    return str(image)


def cli_error(*args):
    """What `ptovp run` prints for bad input (exit 2)."""
    result = subprocess.run([PTOVP, "run", *args], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2, result.stderr
    return result.stderr


def test_scalar_loop_checksums_on_every_pe(tmp_path):
    platform = ptovp.Platform()
    platform.load(assemble(tmp_path, firmware="scalar_loop"))
    reason = platform.run()
    assert reason["kind"] == "ebreak" and reason["code"] == 0
    assert platform.exit_reason == reason
    n = platform.symbol("ITERATIONS")
    checksum = platform.symbol("CHECKSUM")
    for pe in range(4):
        expected = n * (n + 1) // 2 + n * pe
        stored = int.from_bytes(platform.read_memory(checksum + 8 * pe, 8), "little")
        assert stored == expected
        assert platform.register("a4", pe=pe) == expected
    # Ten instructions before the loop, eleven per iteration, four after it.
    assert reason["instructions"] == 11 * n + 14
    assert platform.stats()["instructions"] == 11 * n + 14


def test_breakpoint_step_registers_and_limit(tmp_path):
    platform = ptovp.Platform({"numeric.profile": "hardware"})
    platform.load(assemble(tmp_path, firmware="scalar_loop"))
    loop = platform.symbol("loop")
    platform.add_breakpoint(loop)
    assert platform.breakpoints == [loop]
    first = platform.run()
    assert first["kind"] == "breakpoint" and first["pc"] == loop and first["instructions"] == 10
    assert platform.register("a2") == platform.symbol("ITERATIONS")
    assert platform.registers()["s0"] == 0x4000
    assert platform.registers(pe=3)["s0"] == 0x4300
    again = platform.run()  # one iteration later, at the same breakpoint
    assert again["kind"] == "breakpoint" and again["instructions"] == 11
    assert platform.register("a2") == platform.symbol("ITERATIONS") - 1
    step = platform.step()
    assert step == {"kind": "step", "instructions": 1, "pc": loop + 4}
    assert platform.pc == loop + 4
    platform.remove_breakpoint(loop)
    with pytest.raises(KeyError, match="no breakpoint at 0x"):
        platform.remove_breakpoint(loop)
    limited = platform.run(max_instructions=5)
    assert limited["kind"] == "limit" and limited["instructions"] == 5


def test_memory_and_register_writes(tmp_path):
    platform = ptovp.Platform()
    platform.load(assemble(tmp_path, firmware="scalar_loop"))
    platform.write_memory(0x9000, bytes(range(16)))
    assert platform.read_memory(0x9000, 16) == bytes(range(16))
    platform.write_memory(0x9010, bytearray(b"\xaa\xbb"))
    assert platform.read_memory(0x900f, 3) == b"\x0f\xaa\xbb"
    platform.set_register("x1", 0x1234, pe=2)
    assert platform.register("x1", pe=2) == 0x1234
    assert platform.register("x1", pe=0) == 0
    platform.set_register("zero", 7)
    assert platform.register("zero") == 0
    with pytest.raises(KeyError, match="'t9' is not a GPR"):
        platform.register("t9")
    with pytest.raises(ValueError, match="PEs are 0..3"):
        platform.register("a0", pe=4)
    with pytest.raises(ValueError, match="outside memory"):
        platform.read_memory(0x7fffffff0, 8)


def test_tiles_by_name_after_tile_copy(tmp_path):
    platform = ptovp.Platform()
    platform.load(assemble(tmp_path, firmware="tile_copy"))
    assert platform.run()["kind"] == "ebreak"
    for pe in range(4):
        loaded = platform.tile("T#1", pe=pe)
        assert loaded["type"] == "U32" and loaded["layout"] == "RowMajor"
        assert loaded["shape"] == (8, 8) and loaded["valid"] == (8, 8)
        # PE p filled its input with p*0x100 + i, i = row*8 + col.
        assert loaded["values"] == [[pe * 0x100 + 8 * r + c for c in range(8)] for r in range(8)]
        assert all(type(v) is int for row in loaded["values"] for v in row)
    shared = platform.tile("S3")
    # Quarter q (rows 2q, 2q+1) was published by PE q from its own input.
    assert shared["values"] == [[(r // 2) * 0x100 + 8 * r + c for c in range(8)]
                                for r in range(8)]
    with pytest.raises(KeyError, match="S9: no descriptor"):
        platform.tile("S9")
    # Every PE loaded 8x8 U32 (256 B); U0 went to four outputs and S3 to one.
    stats = platform.stats()
    assert stats["bytes"]["loaded"] == 4 * 256
    assert stats["bytes"]["stored"] == 4 * 256 + 256


def test_a_fault_is_the_exit_reason(tmp_path):
    platform = ptovp.Platform()
    platform.load(assemble(tmp_path, BAD_LOAD))
    reason = platform.run()
    assert reason["kind"] == "trap"
    assert reason["fault"] == "Fault_DataPage"
    assert reason["reason"] == "load on PE0: access 0x7ffffff0+8 outside memory [0x0, 0x4000000)"
    assert reason["pc"] == 6  # the LDI after the 6-byte HL.LIU
    assert "trap 35: Fault_DataPage" in reason["report"]
    with pytest.raises(ValueError, match=r"the run has ended \(trap\)"):
        platform.run()
    platform.reset()
    assert platform.run() == reason


def test_host_output_and_exit(tmp_path):
    platform = ptovp.Platform()
    platform.load(assemble(tmp_path, HELLO))
    reason = platform.run()
    assert reason["kind"] == "exit" and reason["code"] == 5
    assert platform.output == "hello\n"


def test_a_region_of_interest_in_the_stats(tmp_path):
    platform = ptovp.Platform()
    platform.load(assemble(tmp_path, REGION))
    assert platform.run()["kind"] == "ebreak"
    (region,) = platform.stats()["regions"]
    # After the begin mark: three iterations of four, then the end mark.
    assert region["instructions"] == 3 * 4 + 1
    assert region["begin_instruction"] == 1
    assert region["macs"] == {} and region["bytes"] == {}


def test_configuration_keys_as_the_cli_takes_them(tmp_path):
    image = assemble(tmp_path, firmware="scalar_loop")
    with pytest.raises(ValueError) as error:
        ptovp.Platform({"no.such": 1})
    assert str(error.value) == "unknown configuration key 'no.such'"
    assert f"--set: {error.value}" in cli_error(image, "--set", "no.such=1")
    with pytest.raises(ValueError) as error:
        ptovp.Platform({"numeric.profile": "fast"})
    assert str(error.value) in cli_error(image, "--set", "numeric.profile=fast")
    with pytest.raises(ValueError) as error:
        ptovp.Platform({"tlsu": {"bytes_per_cycle": 0}})  # nested as in a --config file
    assert str(error.value) in cli_error(image, "--set", "tlsu.bytes_per_cycle=0")
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"memory": {"size": "nope"}}))
    with pytest.raises(ValueError) as error:
        ptovp.Platform(config_file=str(config))
    assert str(error.value) in cli_error(image, "--config", str(config))
    with pytest.raises(ValueError) as error:
        ptovp.Platform().load(str(tmp_path / "missing.elf"))
    assert "missing.elf" in str(error.value)
    # A smaller memory from a file: the checksums still fit, a far read does not.
    config.write_text(json.dumps({"memory": {"size": 0x10000}}))
    small = ptovp.Platform({"numeric.profile": "pto-v0"}, config_file=str(config))
    small.load(image)
    assert small.run()["kind"] == "ebreak"
    with pytest.raises(ValueError, match="outside memory"):
        small.read_memory(0x10000, 1)

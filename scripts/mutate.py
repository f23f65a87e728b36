#!/usr/bin/env python3
"""Mutation testing for ptovp: how many small, plausible bugs does the suite catch?

Each mutant is one edit to one source file (a flipped comparison, an
off-by-one constant, a swapped operator, a dropped condition or statement).
The mutants are applied one at a time to a scratch copy of the repository
with its own build directory, so every rebuild is incremental (and ccache
serves the unchanged objects); then the Release suite (`ctest`, without the
`long`, `bench` and `mutation` labels) and the vector-file replay
(`ptovp vectors tests/vectors/*.vec`) run. A mutant is

  killed        a test failed (the report names every failing test)
  timeout       no test failed but one ran past the time limit
  survived      the whole suite passed: a bug no test notices
  equivalent    listed in tests/mutation/equivalent.txt with the reason it
                cannot change behaviour; not run
  uncompilable  the edit does not compile; not counted

score = (killed + timeout) / (killed + timeout + survived).

The sample is deterministic: the same files, seed and count give the same
mutants. See docs/testing.md for how to run it and read the report.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import dataclasses
import fnmatch
import hashlib
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_FILES = ["modules/*/*.cpp", "platform/*/*.cpp"]
EXCLUDED_FILES = ["modules/isa/generated/*"]
EQUIVALENT_FILE = "tests/mutation/equivalent.txt"
EXCLUDED_LABELS = "long|bench|mutation"
# Tests that took at least this long in the baseline run after the others.
SLOW_TEST_SECONDS = 2.0


# ---------------------------------------------------------------- the catalog

@dataclasses.dataclass(frozen=True)
class Mutant:
    path: str         # relative to the repository
    line: int         # 1-based
    column: int       # 0-based, in the line
    operator: str     # catalog name
    original: str     # the text replaced
    replacement: str  # what replaces it
    key: str          # stable identity (see mutant_key)

    @property
    def module(self) -> str:
        parts = self.path.split("/")
        return parts[1] if parts[0] == "modules" else parts[0]

    def apply(self, lines: list[str]) -> list[str]:
        text = lines[self.line - 1]
        end = self.column + len(self.original)
        assert text[self.column:end] == self.original, (self.key, text)
        mutated = list(lines)
        mutated[self.line - 1] = text[:self.column] + self.replacement + text[end:]
        return mutated

    def describe(self) -> str:
        return f"{self.path}:{self.line}: {self.operator}: `{self.original.strip()}` -> " \
               f"`{self.replacement.strip() or '(deleted)'}`"


# Binary operators are matched only with a blank on both sides, which is how
# clang-format spells them; template brackets, pointers and references never
# are.
SWAPS = {
    # comparison boundary: the edge case moves by one
    "boundary": {"<": ["<="], "<=": ["<"], ">": [">="], ">=": [">"]},
    # comparison negated
    "negate": {"==": ["!="], "!=": ["=="], "<": [">="], ">=": ["<"], ">": ["<="], "<=": [">"]},
    # arithmetic, bitwise and shift operator replacement
    "arith": {"+": ["-"], "-": ["+"], "*": ["+"], "&": ["|"], "|": ["&"], "^": ["|"],
              "<<": [">>"], ">>": ["<<"], "%": ["&"]},
    "logical": {"&&": ["||"], "||": ["&&"]},
}
BINARY = re.compile(r"(?<=\s)(<<|>>|<=|>=|==|!=|&&|\|\||[<>+\-*&|^%])(?=\s)")
INTEGER = re.compile(r"(?<![\w.])(0[xX][0-9A-Fa-f']+|\d[\d']*)([uU]?[lL]{0,2}[uU]?)(?![\w.'])")
BOOLEAN = re.compile(r"\b(true|false)\b")
IF_HEAD = re.compile(r"\b(if|while)\s*\(")
ASSIGNMENT = re.compile(
    r"^\s*(\+\+|--)?[A-Za-z_][\w.\[\]>\-:]*(\s*\[[^\]]*\])*\s*([-+*|&^]|<<|>>)?=\s")
CALL = re.compile(r"^\s*[A-Za-z_][\w.\->:]*(\[[^\]]*\])?(\.|->)?[\w:]*\(.*\);\s*$")
JUMP = re.compile(r"^\s*(break|continue);\s*$")
DECLARATION_START = re.compile(
    r"^\s*(return|const|constexpr|static|auto|using|typedef|case|default|throw|co_)\b")


def code_mask(text: str) -> list[bool]:
    """True at every character of `text` that is code, not a comment, string,
    character literal or preprocessor line."""
    mask = [True] * len(text)
    i, n = 0, len(text)
    at_line_start = True
    while i < n:
        c = text[i]
        if at_line_start and c == "#":
            j = i
            while True:  # to the end of the line, across backslash continuations
                j = text.find("\n", j)
                if j < 0:
                    j = n
                elif text[j - 1] == "\\":
                    j += 1
                    continue
                break
            for k in range(i, j):
                mask[k] = False
            i = j
            continue
        if c == "\n":
            at_line_start = True
            i += 1
            continue
        if not c.isspace():
            at_line_start = False
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
        elif c == 'R' and text.startswith('R"', i):
            delimiter = text[i + 2:text.index("(", i)]
            j = text.index(")" + delimiter + '"', i) + len(delimiter) + 2
        elif c in "\"'" and not (c == "'" and i > 0 and text[i - 1].isalnum()):
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            j += 1
        else:
            i += 1
            continue
        for k in range(i, min(j, n)):
            mask[k] = False
        i = j
    return mask


def mutant_key(path: str, operator: str, stripped_line: str, occurrence: int, column: int,
               replacement: str) -> str:
    """An identity that survives edits elsewhere in the file: the line's text
    and its occurrence among identical lines, not its number."""
    digest = hashlib.sha1(
        f"{path}|{operator}|{stripped_line}|{occurrence}|{column}|{replacement}".encode())
    return digest.hexdigest()[:12]


def statement_starts_here(lines: list[str], masks: list[list[bool]], index: int) -> bool:
    """True when the previous code line ends a statement or opens a block."""
    for back in range(index - 1, -1, -1):
        code = "".join(ch for ch, m in zip(lines[back], masks[back]) if m).strip()
        if code:
            return code[-1] in ";{}" or code.endswith(":") and not code.endswith("::")
    return True


def matching_paren(text: str, mask: list[bool], open_at: int) -> int:
    depth = 0
    for i in range(open_at, len(text)):
        if not mask[i]:
            continue
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return i
    return -1


def enumerate_mutants(path: str, source: str) -> list[Mutant]:
    lines = source.split("\n")
    text_mask = code_mask(source)
    masks, offset = [], 0
    for line in lines:
        masks.append(text_mask[offset:offset + len(line)])
        offset += len(line) + 1
    seen: dict[str, int] = {}
    mutants: list[Mutant] = []

    def add(number: int, column: int, operator: str, original: str, replacement: str):
        stripped = lines[number - 1].strip()
        mutants.append(Mutant(path, number, column, operator, original, replacement,
                              mutant_key(path, operator, stripped, seen[stripped],
                                         column, replacement)))

    for index, line in enumerate(lines):
        number = index + 1
        mask = masks[index]
        stripped = line.strip()
        seen[stripped] = seen.get(stripped, -1) + 1
        if not any(mask) or stripped.startswith(("template", "#")):
            continue
        for match in BINARY.finditer(line):
            if not mask[match.start()]:
                continue
            token = match.group(1)
            for operator, table in SWAPS.items():
                for replacement in table.get(token, []):
                    add(number, match.start(), operator, token, replacement)
        for match in INTEGER.finditer(line):
            if not mask[match.start()]:
                continue
            digits = match.group(1).replace("'", "")
            value = int(digits, 16) if digits[:2].lower() == "0x" else int(digits, 10)
            if digits.startswith("0") and len(digits) > 1 and digits[1] not in "xX":
                continue  # octal: leave alone
            for new in ([value + 1, value - 1] if value > 0 else [1]):
                spelled = hex(new) if digits[:2].lower() == "0x" else str(new)
                add(number, match.start(1), "constant", match.group(1), spelled)
        for match in BOOLEAN.finditer(line):
            if mask[match.start()]:
                add(number, match.start(), "constant", match.group(1),
                    "false" if match.group(1) == "true" else "true")
        for match in IF_HEAD.finditer(line):
            if not mask[match.start()]:
                continue
            close = matching_paren(line, mask, match.end() - 1)
            if close < 0:
                continue  # the condition spans lines
            condition = line[match.end():close]
            add(number, match.end(), "condition", condition, "true")
            add(number, match.end(), "condition", condition, "false")
        if (stripped.endswith(";") and mask[line.index(stripped[0])]
                and not DECLARATION_START.match(line)
                and (ASSIGNMENT.match(line) or CALL.match(line) or JUMP.match(line))
                and statement_starts_here(lines, masks, index)):
            add(number, line.index(stripped[0]), "statement", stripped, "")
    return mutants


# ------------------------------------------------------------ the scratch copy

def run(command: list[str], cwd: Path, timeout: float | None = None,
        log: Path | None = None) -> tuple[int, str, float]:
    """Runs `command` at low priority; returns status, output and seconds."""
    start = time.monotonic()
    # A session of its own, so that a timeout ends every process the command
    # started (a hung test under ctest), not only the command.
    process = subprocess.Popen(["nice", "-n", "19", *command], cwd=cwd, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, errors="replace",
                               start_new_session=True)
    try:
        output, _ = process.communicate(timeout=timeout)
        status = process.returncode
    except subprocess.TimeoutExpired:
        kill_session(process.pid)
        try:
            output, _ = process.communicate(timeout=10)
        except subprocess.TimeoutExpired:  # a process outside the session holds the pipe
            output = ""
        status = -1
    if log:
        log.write_text(output)
    return status, output, time.monotonic() - start


def kill_session(session: int) -> None:
    """Kills every process of the session (ctest may start its tests in
    process groups of their own)."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(fields[3]) == session:
                os.kill(int(stat.parent.name), signal.SIGKILL)
        except (OSError, IndexError, ValueError):
            continue  # ended meanwhile


def source_commit() -> str:
    """The commit the sources are at, with `+changes` when the tree differs."""
    head = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=REPO,
                          stdout=subprocess.PIPE, text=True).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=REPO,
                           stdout=subprocess.PIPE, text=True).stdout.strip()
    return head + ("+changes" if dirty else "")


def repository_files() -> list[str]:
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=REPO,
                            stdout=subprocess.PIPE, check=True).stdout.decode()
    return [f for f in listed.split("\0") if f and (REPO / f).is_file()]


def sync_scratch(source: Path) -> None:
    """Copies changed files only, so unchanged files keep their time stamps and
    the scratch build stays incremental; removes the files the repository no
    longer has (a renamed source would otherwise stay in the scratch copy)."""
    wanted = set(repository_files())
    for relative in wanted:
        original, copy = REPO / relative, source / relative
        data = original.read_bytes()
        if copy.is_file() and copy.read_bytes() == data:
            continue
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_bytes(data)
        shutil.copymode(original, copy)
    for copy in source.rglob("*"):
        relative = copy.relative_to(source)
        if relative.parts[0] != "build" and copy.is_file() and str(relative) not in wanted:
            copy.unlink()


class Scratch:
    """A copy of the repository and its Release build. The build directory sits
    at the same depth below the copy as build/release below the repository,
    so ccache (base_dir) serves the objects the main build already made."""

    def __init__(self, root: Path, jobs: int, exclude: str | None = None):
        self.source = root / "src"
        self.build = self.source / "build" / "mutation"
        self.jobs = jobs
        self.exclude = exclude

    def prepare(self) -> None:
        self.source.mkdir(parents=True, exist_ok=True)
        sync_scratch(self.source)
        # Always configured: a source renamed since the last run leaves build.ninja
        # naming a file that is gone, which ninja cannot regenerate by itself.
        configure = ["cmake", "-S", str(self.source), "-B", str(self.build), "-G", "Ninja",
                     "-DCMAKE_BUILD_TYPE=Release", "-DPTOVP_BUILD_BENCHMARKS=OFF",
                     f"-DPTOVP_SHARED_DIR={REPO.parent / 'shared'}"]
        if shutil.which("ccache"):
            configure.append("-DCMAKE_CXX_COMPILER_LAUNCHER=ccache")
        status, output, _ = run(configure, self.source)
        if status != 0:
            sys.exit(f"mutate: configuring the scratch build failed:\n{output[-4000:]}")

    def compile(self, timeout: float, targets: list[str] | None = None) -> tuple[bool, str]:
        command = ["cmake", "--build", str(self.build), "-j", str(self.jobs)]
        if targets:
            command += ["--target", *targets]
        status, output, _ = run(command, self.source, timeout)
        return status == 0, output

    def ctest(self, timeout: float, only: list[str] | None = None, label: str | None = None,
              outside: str | None = None, names: list[str] | None = None,
              skip: list[str] | None = None, stop: bool = False,
              wall: float | None = None) -> tuple[list[str], list[str]]:
        """Runs the suite, or the part of it with the CTest label `label`,
        without the label `outside`, only the tests in `names` (or `only`),
        without those in `skip`; returns the failed and the timed-out tests.
        `stop` ends the run at the first failure; a run longer than `wall`
        seconds (default: the budget set by the baseline) is stopped, and the
        tests it was running count as timed out (a test's own TIMEOUT property
        would otherwise let a hang run for minutes)."""
        wall = wall or getattr(self, "budget", 7200.0)
        excluded = EXCLUDED_LABELS + (f"|^{outside}$" if outside else "")
        command = ["ctest", "--test-dir", str(self.build), "-j", str(self.jobs), "-LE", excluded,
                   "--timeout", str(int(timeout))]
        if label:
            command += ["-L", f"^{label}$"]
        chosen = only or names
        if chosen:
            command += ["-R", exact(chosen)]
        skipped = [exact(skip)] if skip else []
        if self.exclude:
            skipped.append(f"({self.exclude})")
        if skipped:
            command += ["-E", "|".join(skipped)]
        if stop:
            command.append("--stop-on-failure")
        status, output, _ = run(command, self.source, wall)
        failed, timed_out = [], []
        if status == -1:
            # Stopped from outside: the tests started and not finished hung.
            started = re.findall(r"^\s*Start\s+\d+: (\S+)$", output, re.M)
            finished = set(re.findall(r"Test\s+#\d+: (\S+) \.", output))
            timed_out += [t for t in started if t not in finished] or ["ctest (whole run)"]
        listing = output.split("The following tests FAILED:", 1)
        if len(listing) == 2:
            for match in re.finditer(r"^\s*\d+ - (\S+) \(([^)]*)\)", listing[1], re.M):
                (timed_out if "Timeout" in match.group(2) else failed).append(match.group(1))
        elif status not in (0, -1):
            failed.append("ctest (status %d)" % status)
        return failed, timed_out

    def select(self, label: str | None = None, outside: str | None = None,
               skip: list[str] | None = None) -> tuple[dict, list[str]] | None:
        """The tests ctest would run, as GoogleTest executables (place ->
        gtest name -> test name) and the other tests; None if ctest fails."""
        excluded = EXCLUDED_LABELS + (f"|^{outside}$" if outside else "")
        command = ["ctest", "--test-dir", str(self.build), "-N", "--show-only=json-v1",
                   "-LE", excluded]
        if label:
            command += ["-L", f"^{label}$"]
        skipped = [exact(skip)] if skip else []
        if self.exclude:
            skipped.append(f"({self.exclude})")
        if skipped:
            command += ["-E", "|".join(skipped)]
        status, output, _ = run(command, self.source, 600)
        if status != 0:
            return None
        groups: dict[tuple[str, str], dict[str, str]] = {}
        others = []
        unbatchable = getattr(self, "unbatchable", set())
        for test in json.loads(output[output.index("{"):]).get("tests", []):
            arguments = test.get("command", [])
            properties = {p["name"]: p["value"] for p in test.get("properties", [])}
            if (len(arguments) >= 2 and arguments[1].startswith("--gtest_filter=")
                    and not properties.get("WILL_FAIL") and arguments[0] not in unbatchable):
                place = (arguments[0], properties.get("WORKING_DIRECTORY", str(self.build)))
                groups.setdefault(place, {})[arguments[1].split("=", 1)[1]] = test["name"]
            else:
                others.append(test["name"])
        return groups, others

    def run_group(self, timeout: float, place: tuple[str, str],
                  tests: dict[str, str]) -> tuple[list[str], list[str]]:
        """Runs the GoogleTest tests `tests` of one executable in one process."""
        costs = getattr(self, "costs", {})
        wall = timeout + 10 * sum(costs.get(name, 1.0) for name in tests.values())
        status, output, _ = run([place[0], "--gtest_filter=" + ":".join(tests),
                                 "--gtest_also_run_disabled_tests"], Path(place[1]), wall)
        started = re.findall(r"^\[ RUN      \] (\S+)$", output, re.M)
        ended = set(re.findall(r"^\[ +(?:OK|FAILED|SKIPPED) +\] (\S+) \(", output, re.M))
        unfinished = [tests.get(name, name) for name in started if name not in ended]
        if status == -1:
            return [], unfinished or [Path(place[0]).name]
        failed = sorted({tests.get(name, name)
                         for name in re.findall(r"^\[  FAILED  \] (\S+) \(", output, re.M)})
        if status != 0 and not failed:  # a crash
            failed = unfinished or [Path(place[0]).name + f" (status {status})"]
        return failed, []

    def find_unbatchable(self, timeout: float) -> None:
        """The executables whose tests do not all pass in one process
        unmutated (SystemC tests share one simulation): their tests keep a
        process each."""
        self.unbatchable: set[str] = set()
        selected = self.select(skip=getattr(self, "slow", []))
        for place, tests in (selected[0] if selected else {}).items():
            failed, late = self.run_group(timeout, place, tests)
            if failed or late:
                self.unbatchable.add(place[0])

    def batched(self, timeout: float, label: str | None = None, outside: str | None = None,
                skip: list[str] | None = None) -> tuple[list[str], list[str]]:
        """Like ctest(stop=True) for quick tests, but each GoogleTest
        executable that passes so unmutated runs once with all its selected
        tests (--gtest_filter) instead of once per test: the same tests and
        assertions, without a process start per test. Other tests go through
        ctest. Returns the failed and the timed-out tests, stopping at the
        first failure."""
        selected = self.select(label, outside, skip)
        if selected is None:
            return self.ctest(timeout, label=label, outside=outside, skip=skip, stop=True)
        groups, others = selected
        failed: list[str] = []
        timed_out: list[str] = []
        with concurrent.futures.ThreadPoolExecutor(self.jobs) as pool:
            pending = [pool.submit(self.run_group, timeout, place, tests)
                       for place, tests in groups.items()]
            for future in concurrent.futures.as_completed(pending):
                more_failed, late = future.result()
                failed += more_failed
                timed_out += late
                if failed:
                    for other in pending:
                        other.cancel()
                    break
        if failed:
            return failed, timed_out
        if others:
            more_failed, late = self.ctest(timeout, names=others, stop=True)
            failed += more_failed
            timed_out += late
        return failed, timed_out

    def replay_vectors(self, timeout: float) -> tuple[list[str], list[str]]:
        vectors = sorted(str(p) for p in (self.source / "tests" / "vectors").glob("*.vec"))
        ptovp = self.build / "platform" / "ptovp"
        status, _, _ = run([str(ptovp), "vectors", *vectors], self.source,
                           max(timeout, getattr(self, "budget", 0.0)))
        if status == -1:
            return [], ["vector-replay"]
        return (["vector-replay"] if status != 0 else []), []

    def baseline(self, timeout: float) -> tuple[list[str], list[str], float]:
        """Runs the whole suite and the vector replay once, unmutated; records
        each test's duration so that the quick tests run before the slow ones."""
        start = time.monotonic()
        failed, timed_out = self.ctest(timeout)
        more_failed, more_timed_out = self.replay_vectors(timeout)
        seconds = time.monotonic() - start
        costs = self.build / "Testing" / "Temporary" / "CTestCostData.txt"
        self.costs = {}
        for line in costs.read_text().splitlines() if costs.is_file() else []:
            fields = line.split()
            if len(fields) == 3:
                self.costs[fields[0]] = float(fields[2])
        self.slow = [name for name, cost in self.costs.items() if cost >= SLOW_TEST_SECONDS]
        # Any one ctest run of a mutant gets three times the whole baseline.
        self.budget = max(300.0, 3 * seconds)
        self.find_unbatchable(timeout)
        return failed + more_failed, timed_out + more_timed_out, seconds

    def label_targets(self, label: str) -> list[str] | None:
        """The executables the tests labelled `label` run, as build targets;
        None when one of them is not an executable of this build."""
        command = ["ctest", "--test-dir", str(self.build), "-N", "--show-only=json-v1",
                   "-L", f"^{label}$", "-LE", EXCLUDED_LABELS]
        status, output, _ = run(command, self.source, 600)
        if status != 0:
            return None
        targets = set()
        for test in json.loads(output[output.index("{"):]).get("tests", []):
            executable = Path(test.get("command", [""])[0])
            if self.build not in executable.parents:
                return None
            targets.add(executable.name)
        return sorted(targets)

    def unaffected_tests(self, path: str) -> list[str]:
        """The tests that cannot see a mutant of the source `path`: their
        executable is built here and neither it nor anything it depends on
        (`ninja -t inputs`, which follows add_dependencies, so a test that
        starts ptovp depends on ptovp's objects) is made from `path`. They
        are not relinked, so they would run exactly as in the baseline."""
        if not hasattr(self, "inputs"):
            self.inputs: dict[str, list[str] | None] = {}
            command = ["ctest", "--test-dir", str(self.build), "-N", "--show-only=json-v1",
                       "-LE", EXCLUDED_LABELS]
            status, output, _ = run(command, self.source, 600)
            tests = json.loads(output[output.index("{"):]).get("tests", []) if status == 0 \
                else []
            objects: dict[Path, list[str] | None] = {}
            for test in tests:
                executable = Path(test.get("command", [""])[0])
                if self.build not in executable.parents:
                    self.inputs[test["name"]] = None
                    continue
                if executable not in objects:
                    status, listed, _ = run(["ninja", "-C", str(self.build), "-t", "inputs",
                                             str(executable.relative_to(self.build))],
                                            self.source, 600)
                    objects[executable] = [line for line in listed.splitlines()
                                           if line.endswith(".o")] if status == 0 else None
                self.inputs[test["name"]] = objects[executable]

        def made_from(line: str) -> bool:  # DIR/CMakeFiles/TARGET.dir/SOURCE.o, DIR/SOURCE == path
            match = OBJECT.fullmatch(line)
            return match is not None and f"{match[1]}/{match[2]}" == path

        return sorted(test for test, lines in self.inputs.items()
                      if lines is not None and not any(made_from(line) for line in lines))

    def test(self, timeout: float, label: str | None = None, first_build: list[str] | None = None,
             unaffected: list[str] | None = None) -> tuple[list[str], list[str], bool]:
        """Runs the suite and the vector replay on a mutant; returns the failed
        tests, the timed-out tests and whether everything built. The tests
        most likely to fail run first and the run stops at the first failure:
        the mutated unit's own label (built alone: `first_build`), then the
        vector replay, then the rest, each part with its quick tests before
        its slow ones. Only a mutant that no test kills runs the whole suite,
        so the verdict is the one a whole run would give. Timeouts are
        confirmed at once (confirm_timeouts), so a hang costs one limit, not
        one per part."""
        slow = getattr(self, "slow", [])
        skip = set(unaffected or [])
        quick_skip, slow_names = sorted(skip | set(slow)), sorted(set(slow) - skip)
        stages = []
        if label:
            stages += [("label", dict(label=label, skip=quick_skip)),
                       ("label", dict(label=label, names=slow_names))]
        stages += [("vectors", {}), ("rest", dict(outside=label, skip=quick_skip)),
                   ("rest", dict(outside=label, names=slow_names))]
        built = None
        for kind, selection in stages:
            if kind == "label" and built is None:
                built = "label"
                if not self.compile(3600, first_build)[0]:
                    return [], [], False
            elif kind != "label" and built != "all":
                built = "all"
                if not self.compile(3600)[0]:
                    return [], [], False
            if kind == "vectors":
                failed, late = self.replay_vectors(timeout)
            else:
                if "names" in selection and not selection["names"]:
                    continue
                if "names" in selection:
                    failed, late = self.ctest(timeout * 5, stop=True, **selection)
                else:
                    failed, late = self.batched(timeout, **selection)
            if failed:
                return failed, late, True
            if late:
                failed, late = self.confirm_timeouts(timeout, late)
                if failed or late:
                    return failed, late, True
        return [], [], True

    def confirm_timeouts(self, timeout: float,
                         timed_out: list[str]) -> tuple[list[str], list[str]]:
        """Runs each timed-out test again alone, the quickest first, with
        thirty times its baseline duration (at least 180 s); the first that
        fails or times out again decides. A test that passes alone was slowed
        by a busy machine, not by the mutant."""
        costs = getattr(self, "costs", {})
        for name in sorted(timed_out, key=lambda t: costs.get(t, 0.0)):
            if name in ("ctest (whole run)", "vector-replay"):
                return [], [name]
            wall = max(180.0, 30 * costs.get(name, 0.0))
            failed, late = self.ctest(3 * timeout, only=[name], wall=wall)
            if failed or late:
                return failed, late
        return [], []


OBJECT = re.compile(r"(.*)/CMakeFiles/[^/]+\.dir/(.*)\.o")


def exact(names: list[str]) -> str:
    return "^(" + "|".join(re.escape(name) for name in names) + ")$"


# Where a mutant's own tests are: the CTest label of each source directory
# whose name is not itself the label.
LABELS = {"modules/sc_common": "systemc", "platform/vectors": "platform",
          "platform/config": "platform"}


def label_of(path: str) -> str:
    directory = path.rsplit("/", 1)[0]
    return LABELS.get(directory, directory.split("/")[-1])


# ----------------------------------------------------------------- sampling

def select_files(patterns: list[str]) -> list[str]:
    files = repository_files()
    chosen = [f for f in files if any(fnmatch.fnmatch(f, p) for p in patterns)
              and not any(fnmatch.fnmatch(f, p) for p in EXCLUDED_FILES)]
    return sorted(chosen)


def sample(mutants: list[Mutant], count: int, seed: int) -> list[Mutant]:
    """A deterministic sample spread over the modules: each module's mutants
    are shuffled by the seed, then taken round-robin across the modules."""
    by_module: dict[str, list[Mutant]] = {}
    for mutant in mutants:
        by_module.setdefault(mutant.module, []).append(mutant)
    rng = random.Random(seed)
    queues = []
    for module in sorted(by_module):
        group = sorted(by_module[module], key=lambda m: m.key)
        rng.shuffle(group)
        queues.append(group)
    chosen: list[Mutant] = []
    while len(chosen) < count and any(queues):
        for group in queues:
            if group and len(chosen) < count:
                chosen.append(group.pop())
    return chosen


def load_equivalents(path: Path) -> dict[str, str]:
    """`KEY  reason...` per line; `#` starts a comment."""
    equivalents = {}
    if path.is_file():
        for number, raw in enumerate(path.read_text().splitlines(), 1):
            line = raw.split("#", 1)[0].strip() if raw.lstrip().startswith("#") else raw.strip()
            if not line:
                continue
            key, _, reason = line.partition(" ")
            if not re.fullmatch(r"[0-9a-f]{12}", key) or not reason.strip():
                sys.exit(f"mutate: {path}:{number}: expected `KEY reason`, got {raw!r}")
            equivalents[key] = reason.strip()
    return equivalents


# ------------------------------------------------------------------ reports

def summarize(results: list[dict]) -> dict:
    modules: dict[str, dict[str, int]] = {}
    for result in results:
        counts = modules.setdefault(result["module"], {})
        counts[result["status"]] = counts.get(result["status"], 0) + 1
    total: dict[str, int] = {}
    for counts in modules.values():
        for status, count in counts.items():
            total[status] = total.get(status, 0) + count

    def score(counts):
        detected = counts.get("killed", 0) + counts.get("timeout", 0)
        scored = detected + counts.get("survived", 0)
        return round(100.0 * detected / scored, 1) if scored else None

    return {"modules": {m: dict(c, score=score(c)) for m, c in sorted(modules.items())},
            "total": dict(total, score=score(total))}


def write_reports(results: list[dict], settings: dict, json_path: Path, text_path: Path) -> dict:
    summary = summarize(results)
    json_path.write_text(json.dumps({"settings": settings, "summary": summary,
                                     "mutants": results}, indent=1) + "\n")
    statuses = ["killed", "timeout", "survived", "equivalent", "uncompilable"]
    out = [f"ptovp mutation report: {settings['command']}", ""]
    out.append(f"{'module':<14}" + "".join(f"{s:>13}" for s in statuses) + f"{'score %':>9}")
    for name, counts in list(summary["modules"].items()) + [("TOTAL", summary["total"])]:
        score = counts.get("score")
        out.append(f"{name:<14}" + "".join(f"{counts.get(s, 0):>13}" for s in statuses) +
                   f"{'-' if score is None else score:>9}")
    for status in ["survived", "timeout", "killed", "equivalent", "uncompilable"]:
        group = [r for r in results if r["status"] == status]
        if not group:
            continue
        out += ["", f"{status.upper()} ({len(group)})"]
        for r in group:
            out.append(f"  {r['key']}  {r['description']}")
            if status == "killed":
                tests = r["killed_by"]
                shown = ", ".join(tests[:6]) + (f" and {len(tests) - 6} more" if len(tests) > 6
                                                 else "")
                single = "  [single test]" if len(tests) == 1 else ""
                out.append(f"      killed by {shown}{single}")
            elif status == "equivalent":
                out.append(f"      {r['reason']}")
            elif status == "timeout":
                out.append(f"      timed out: {', '.join(r['timed_out'])}")
    text_path.write_text("\n".join(out) + "\n")
    return summary


# --------------------------------------------------------------------- main

def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--files", nargs="+", default=DEFAULT_FILES, metavar="GLOB",
                        help="source files to mutate (globs relative to the repository; "
                             "default: %(default)s)")
    parser.add_argument("--operators", nargs="+", metavar="NAME",
                        choices=sorted(set(SWAPS) | {"constant", "condition", "statement"}),
                        help="only these operators (default: all)")
    parser.add_argument("--sample", type=int, default=40, help="mutants to run (default 40)")
    parser.add_argument("--seed", type=int, default=1, help="sampling seed (default 1)")
    parser.add_argument("--only", nargs="+", metavar="KEY",
                        help="run exactly these mutants, in this order")
    parser.add_argument("--list", action="store_true",
                        help="print the sampled mutants with their keys and stop")
    parser.add_argument("--scratch", type=Path, default=REPO / "build" / "mutation",
                        help="scratch copy and its build (default build/mutation)")
    parser.add_argument("--jobs", type=int, default=2, help="build and ctest jobs (default 2)")
    parser.add_argument("--timeout", type=float, default=60.0,
                        help="seconds after which a quick test times out; a slow one (at "
                             f"least {SLOW_TEST_SECONDS:g} s in the baseline) gets five times "
                             "it, a test with its own TIMEOUT keeps that (default 60)")
    parser.add_argument("--exclude", metavar="REGEX",
                        help="leave out the tests this ctest -E expression matches (a test "
                             "that fails without any mutant; say why in the report)")
    parser.add_argument("--resume", action="store_true",
                        help="keep the results already in the report; run only the others")
    parser.add_argument("--min-score", type=float,
                        help="exit 1 when the score is below this percentage")
    args = parser.parse_args()

    files = select_files(args.files)
    if not files:
        sys.exit(f"mutate: no file matches {args.files}")
    population = [m for f in files for m in enumerate_mutants(f, (REPO / f).read_text())
                  if not args.operators or m.operator in args.operators]
    if args.only:
        by_key = {m.key: m for m in population}
        chosen = [by_key[key] for key in dict.fromkeys(args.only) if key in by_key]
        missing = set(args.only) - set(by_key)
        if missing:
            sys.exit(f"mutate: no mutant with key {', '.join(sorted(missing))}")
    else:
        chosen = sample(population, args.sample, args.seed)
    if args.list:
        for mutant in chosen:
            print(f"{mutant.key}  {mutant.describe()}")
        print(f"{len(chosen)} of {len(population)} mutants in {len(files)} files")
        return 0

    equivalents = load_equivalents(REPO / EQUIVALENT_FILE)
    scratch = Scratch(args.scratch.resolve(), args.jobs, args.exclude)
    json_path, text_path = args.scratch / "report.json", args.scratch / "report.txt"
    settings = {"command": "scripts/mutate.py " + " ".join(sys.argv[1:]), "seed": args.seed,
                "commit": source_commit(), "files": files, "population": len(population)}
    results: list[dict] = []
    if args.resume and json_path.is_file():
        done = {m["key"]: m for m in json.loads(json_path.read_text())["mutants"]}
        results = [done[m.key] for m in chosen if m.key in done]
    finished = {r["key"] for r in results}

    print(f"mutate: {len(chosen)} of {len(population)} mutants in {len(files)} files; "
          f"scratch {scratch.source}", flush=True)
    scratch.prepare()
    compiled, output = scratch.compile(timeout=7200)
    if not compiled:
        sys.exit(f"mutate: the unmutated scratch copy does not build:\n{output[-4000:]}")
    failed, timed_out, seconds = scratch.baseline(timeout=3600)
    if failed or timed_out:
        sys.exit(f"mutate: the unmutated suite fails ({', '.join(failed + timed_out)}); "
                 "mutation results would mean nothing")
    print(f"mutate: baseline suite passes in {seconds:.0f} s on {settings['commit']}; "
          f"{len(scratch.slow)} slow tests run last", flush=True)
    targets: dict[str, list[str] | None] = {}

    for number, mutant in enumerate(chosen, 1):
        if mutant.key in finished:
            continue
        result = {"key": mutant.key, "module": mutant.module, "path": mutant.path,
                  "line": mutant.line, "operator": mutant.operator,
                  "original": mutant.original, "replacement": mutant.replacement,
                  "description": mutant.describe(), "killed_by": [], "timed_out": []}
        if mutant.key in equivalents:
            result.update(status="equivalent", reason=equivalents[mutant.key])
        else:
            target = scratch.source / mutant.path
            original = target.read_text()
            try:
                target.write_text("\n".join(mutant.apply(original.split("\n"))))
                started = time.monotonic()
                label = label_of(mutant.path)
                if label not in targets:
                    targets[label] = scratch.label_targets(label)
                failed, timed_out, compiled = scratch.test(
                    args.timeout, label, targets[label], scratch.unaffected_tests(mutant.path))
                if not compiled:
                    result["status"] = "uncompilable"
                else:
                    result["killed_by"], result["timed_out"] = failed, timed_out
                    result["status"] = ("killed" if failed else
                                        "timeout" if timed_out else "survived")
                result["seconds"] = round(time.monotonic() - started, 1)
            finally:
                target.write_text(original)
        results.append(result)
        print(f"[{number}/{len(chosen)}] {result['status']:<12} {result.get('seconds', 0):>6.0f} s "
              f"{mutant.key}  {mutant.describe()}", flush=True)
        write_reports(results, settings, json_path, text_path)

    # Leave the scratch build matching the sources for the next run.
    scratch.compile(timeout=3600)
    summary = write_reports(results, settings, json_path, text_path)
    print(text_path.read_text())
    print(f"mutate: reports in {text_path} and {json_path}")
    score = summary["total"].get("score")
    if args.min_score is not None and (score is None or score < args.min_score):
        print(f"mutate: score {score} % is below {args.min_score} %")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

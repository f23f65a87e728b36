#!/usr/bin/env python3
"""Checks every fenced code block of one Markdown file (docs/testing.md,
"Code blocks in the docs").

usage: doc_blocks_test.py PTOVP BUILD_DIR SOURCE_DIR FILE.md

The info string after the fence says what a block is and how it is checked:

  asm                 a complete program: assembled, then run on both engines;
                      `exit=N` (default 0) is the exit status, every
                      `expect="TEXT"` must appear in the run's output and
                      `set="KEY=VALUE ..."` are --set options of the run;
                      `file=NAME` saves it as NAME in the scratch folder, for
                      the sh blocks after it
  asm fragment        assembled alone (a line or a block header, not a program)
  sh                  shell commands, run with bash -e in the file's scratch
                      folder (shared by its blocks in order, so a later block
                      sees an earlier one's files), which links the
                      repository's folders and has build/release = the tree
                      under test, with the built ptovp first on PATH; `/tmp/`
                      in a command is the scratch folder's tmp/; a command
                      whose comment says `# exit N` must exit N;
                      `sub="OLD=>NEW;..."` replaces text first (smaller sizes)
  sh norun="REASON"   shell commands that are not run, with the reason
  synopsis            usage lines: every --option of `ptovp CMD` lines must be
                      in `ptovp CMD --help`
  json                parsed as JSON
  python              compiled; `file=NAME` saves it as NAME in the scratch
                      folder, for the sh blocks after it
  text                output, listings and diagrams: not executed; a text block
                      that shows a command (a line starting with ptovp,
                      python3 scripts/ or bash scripts/, after an optional
                      `$ `) is a transcript and needs norun="REASON"
  cpp|cmake norun="REASON"   excerpts in another language: not executed

A block without an info string, an unknown kind, or a not-run block without
its reason fails the test with FILE:LINE.
"""
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

FENCE = re.compile(r"^ {0,3}(```+|~~~+)\s*(.*)$")
LINKED = ["firmware", "scripts", "tests", "docs", "README.md", "cmake", "modules", "platform"]
BLOCK_TIMEOUT = 600


class Block:
    def __init__(self, path, line, info, text):
        self.path, self.line, self.text = path, line, text
        words = shlex.split(info) if info else []
        self.kind = words[0] if words else ""
        self.flags = set()
        self.attrs = {}
        self.expects = []
        for word in words[1:]:
            key, equals, value = word.partition("=")
            if not equals:
                self.flags.add(key)
            elif key == "expect":
                self.expects.append(value)
            else:
                self.attrs[key] = value

    def where(self):
        return f"{self.path}:{self.line}"


LIST_ITEM = re.compile(r"^\s*([-*+]|\d+\.)\s")


def read_blocks(path):
    """The fenced blocks, and the lines that open an indented code block (a
    line indented 4 spaces after a blank line that does not continue a list),
    which must be fenced to say what they are."""
    blocks, indented, lines = [], [], open(path, encoding="utf-8").read().split("\n")
    i, last_text = 0, ""
    while i < len(lines):
        match = FENCE.match(lines[i])
        if not match:
            if (lines[i].startswith("    ") and i > 0 and not lines[i - 1].strip()
                    and not LIST_ITEM.match(last_text) and not last_text.startswith(" ")):
                indented.append(i + 1)
            if lines[i].strip() and not lines[i].startswith("    "):
                last_text = lines[i]
            i += 1
            continue
        fence, info, start = match.group(1), match.group(2).strip(), i + 1
        body = []
        i += 1
        while i < len(lines) and not lines[i].lstrip().startswith(fence):
            body.append(lines[i])
            i += 1
        blocks.append(Block(path, start, info,
                            "\n".join(body) + "\n"))
        i += 1
        last_text = ""
    return blocks, indented


class Checker:
    def __init__(self, ptovp, build_dir, source_dir, scratch):
        self.ptovp, self.build_dir, self.source_dir = ptovp, build_dir, source_dir
        self.scratch = scratch
        self.failures = []
        self.counts = {}

    def fail(self, block, message):
        self.failures.append(f"{block.where()}: {message}")

    def run(self, command, cwd, timeout=BLOCK_TIMEOUT, env=None, shell=False):
        return subprocess.run(command, cwd=cwd, env=env, shell=shell, timeout=timeout,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)

    def check(self, block):
        kind = block.kind
        self.counts[kind or "(none)"] = self.counts.get(kind or "(none)", 0) + 1
        if not kind:
            return self.fail(block, "code block without an info string (asm, sh, text, ...: "
                             "see docs/testing.md)")
        handler = {"asm": self.check_asm, "sh": self.check_sh, "synopsis": self.check_synopsis,
                   "json": self.check_json, "python": self.check_python,
                   "text": self.check_text, "cpp": self.check_excerpt,
                   "cmake": self.check_excerpt}.get(kind)
        if handler is None:
            return self.fail(block, f"unknown code block kind '{kind}'")
        handler(block)

    def block_dir(self, block):
        folder = os.path.join(self.scratch, "work")
        if os.path.isdir(folder):
            return folder
        os.makedirs(folder)
        for name in LINKED:
            target = os.path.join(self.source_dir, name)
            if os.path.exists(target):
                os.symlink(target, os.path.join(folder, name))
        # build/release (and build/asan) is the tree under test.
        os.makedirs(os.path.join(folder, "build"))
        for preset in ("release", "asan", "debug"):
            os.symlink(self.build_dir, os.path.join(folder, "build", preset))
        os.makedirs(os.path.join(folder, "tmp"))
        return folder

    def check_asm(self, block):
        folder = self.block_dir(block)
        source = block.attrs.get("file", f"block{block.line}.s")
        name = f"block{block.line}"
        with open(os.path.join(folder, source), "w", encoding="utf-8") as out:
            out.write(block.text)
        assembled = self.run([self.ptovp, "asm", source, "-o", name + ".elf"], folder)
        if assembled.returncode != 0:
            return self.fail(block, "does not assemble:\n" + assembled.stdout)
        if "fragment" in block.flags:
            return
        wanted = int(block.attrs.get("exit", "0"))
        for engine in ("systemc", "functional"):
            options = [o for pair in block.attrs.get("set", "").split() for o in ("--set", pair)]
            ran = self.run([self.ptovp, "run", name + ".elf", "--engine", engine] + options,
                           folder)
            if ran.returncode != wanted:
                self.fail(block, f"{engine} run exits {ran.returncode}, the doc says {wanted}:\n"
                          + ran.stdout[-3000:])
                continue
            for text in block.expects:
                if text not in ran.stdout:
                    self.fail(block, f"{engine} run does not print '{text}':\n"
                              + ran.stdout[-3000:])

    def check_sh(self, block):
        if "norun" in block.attrs:
            if not block.attrs["norun"].strip():
                self.fail(block, "norun needs a reason")
            return
        if "norun" in block.flags:
            return self.fail(block, 'norun needs a reason: norun="..."')
        text = block.text
        for pair in filter(None, block.attrs.get("sub", "").split(";")):
            old, arrow, new = pair.partition("=>")
            if not arrow or old not in text:
                return self.fail(block, f"sub '{pair}' does not apply to the block")
            text = text.replace(old, new)
        folder = self.block_dir(block)
        text = text.replace("/tmp/", os.path.join(folder, "tmp") + "/")
        script = ["set -e -o pipefail"]
        for command in logical_lines(text):
            expected = re.search(r"#\s*exit (\d+)", command)
            if expected:
                body = command[:expected.start()].rstrip()
                script.append(f"set +e; ( {body} ); rc=$?; set -e; if [ $rc -ne "
                              f"{expected.group(1)} ]; then echo \"exit $rc, the doc says "
                              f"{expected.group(1)}: {shlex.quote(body)}\"; exit 1; fi")
            else:
                script.append(command)
        env = dict(os.environ)
        env["PATH"] = os.path.dirname(self.ptovp) + os.pathsep + env.get("PATH", "")
        try:
            ran = self.run(["bash", "-c", "\n".join(script)], folder, env=env)
        except subprocess.TimeoutExpired:
            return self.fail(block, f"did not finish in {BLOCK_TIMEOUT} s")
        if ran.returncode != 0:
            self.fail(block, f"exits {ran.returncode}:\n{text}\n--- output ---\n"
                      + ran.stdout[-4000:])

    def check_synopsis(self, block):
        for line in block.text.splitlines():
            words = line.split()
            if not words or words[0] != "ptovp":
                continue
            command = [w for w in words[1:2] if re.fullmatch(r"[a-z]+", w)]
            helped = self.run([self.ptovp] + command + ["--help"], self.scratch)
            for option in re.findall(r"--[a-z][a-z0-9-]*", line):
                if option not in helped.stdout:
                    self.fail(block, f"'{option}' is not in `ptovp {' '.join(command)} --help`")

    def check_json(self, block):
        try:
            json.loads(block.text)
        except ValueError as error:
            self.fail(block, f"not JSON: {error}")

    def check_python(self, block):
        try:
            compile(block.text, block.where(), "exec")
        except SyntaxError as error:
            return self.fail(block, f"not Python: {error}")
        if "file" in block.attrs:
            with open(os.path.join(self.block_dir(block), block.attrs["file"]), "w",
                      encoding="utf-8") as out:
                out.write(block.text)

    def check_text(self, block):
        command = re.compile(r"^(\$ )?(ptovp [a-z]+( |$)|python3 scripts/|bash scripts/)")
        shows = any(command.match(line) for line in block.text.splitlines())
        if shows and not block.attrs.get("norun", "").strip():
            self.fail(block, 'a transcript (it shows a command) needs norun="REASON", or make '
                      'it an sh block that runs')

    def check_excerpt(self, block):
        if not block.attrs.get("norun", "").strip():
            self.fail(block, f'a {block.kind} excerpt needs norun="REASON"')


def logical_lines(text):
    """Joins backslash continuations; drops blank and comment-only lines."""
    lines, current = [], ""
    for raw in text.splitlines():
        current += raw
        if current.endswith("\\"):
            current = current[:-1] + " "
            continue
        if current.strip() and not current.strip().startswith("#"):
            lines.append(current)
        current = ""
    if current.strip():
        lines.append(current)
    return lines


def main():
    ptovp, build_dir, source_dir, markdown = sys.argv[1:5]
    ptovp, build_dir = os.path.abspath(ptovp), os.path.abspath(build_dir)
    with tempfile.TemporaryDirectory(prefix="doc-blocks-") as scratch:
        checker = Checker(ptovp, build_dir, os.path.abspath(source_dir), scratch)
        blocks, indented = read_blocks(markdown)
        for line in indented:
            checker.failures.append(f"{markdown}:{line}: an indented code block: fence it with "
                                    "an info string")
        for block in blocks:
            checker.check(block)
    summary = ", ".join(f"{count} {kind}" for kind, count in sorted(checker.counts.items()))
    print(f"{markdown}: {len(blocks)} code blocks ({summary})")
    for failure in checker.failures:
        print("FAIL " + failure)
    return 1 if checker.failures else 0


if __name__ == "__main__":
    sys.exit(main())

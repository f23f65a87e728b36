#!/usr/bin/env python3
"""The generated spec tables are current.

- Always (CI clones only the repository): every file scripts/gen_isa_tables.py
  wrote has the SHA-256 that modules/isa/generated/catalogs.sha256 pins, so a
  hand edit of a table or of the pin fails.
- When the spec catalogs are present (PTOVP_SHARED_DIR): each catalog has its
  pinned SHA-256 (a new catalog means: regenerate), and a fresh run of the
  generator reproduces the checked-in files byte for byte.
"""

import hashlib
import os
import subprocess
import sys
import tempfile
import unittest

SOURCE = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SHARED = os.environ.get("PTOVP_SHARED_DIR", os.path.join(SOURCE, "..", "shared"))
SPEC_DATA = os.path.join(SHARED, "spec-data")
PIN = os.path.join(SOURCE, "modules", "isa", "generated", "catalogs.sha256")
OUTPUTS = {"isa_tables.cpp": os.path.join(SOURCE, "modules", "isa", "generated"),
           "scalar_forms.hpp": os.path.join(SOURCE, "modules", "isa", "generated"),
           "semantic_handlers.hpp": os.path.join(SOURCE, "modules", "isa", "generated"),
           "arch_tables.hpp": os.path.join(SOURCE, "modules", "arch", "generated"),
           "data_types.hpp": os.path.join(SOURCE, "modules", "numeric", "generated")}


def sha256_of(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def read_pin():
    pinned = {"catalog": {}, "output": {}}
    with open(PIN, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            kind, name, digest = line.split()
            pinned[kind][name] = digest
    return pinned


class GeneratedTablesTest(unittest.TestCase):
    def test_the_tables_have_their_pinned_hash(self):
        outputs = read_pin()["output"]
        self.assertEqual(sorted(outputs), sorted(OUTPUTS))
        for name, folder in OUTPUTS.items():
            self.assertEqual(sha256_of(os.path.join(folder, name)), outputs[name],
                             f"{name} differs from the output pinned in {PIN}: "
                             "run scripts/gen_isa_tables.py, never edit the tables by hand")

    def test_the_pin_names_every_catalog(self):
        self.assertEqual(len(read_pin()["catalog"]), 6)

    @unittest.skipUnless(os.path.isdir(SPEC_DATA), "no spec catalogs beside the repository")
    def test_the_live_catalogs_have_their_pinned_hash(self):
        for name, digest in read_pin()["catalog"].items():
            self.assertEqual(sha256_of(os.path.join(SPEC_DATA, name)), digest,
                             f"{name} changed since the tables were generated: "
                             "run scripts/gen_isa_tables.py")

    @unittest.skipUnless(os.path.isdir(SPEC_DATA), "no spec catalogs beside the repository")
    def test_a_fresh_run_reproduces_the_checked_in_files(self):
        with tempfile.TemporaryDirectory(prefix="ptovp-gen-") as out:
            subprocess.run([sys.executable, os.path.join(SOURCE, "scripts", "gen_isa_tables.py"),
                            "--spec-data", SPEC_DATA, "--out", out, "--arch-out", out,
                            "--numeric-out", out], check=True)
            for name, folder in OUTPUTS.items() | {("catalogs.sha256", os.path.dirname(PIN))}:
                with open(os.path.join(out, name), "rb") as fresh, \
                        open(os.path.join(folder, name), "rb") as checked_in:
                    self.assertTrue(fresh.read() == checked_in.read(), f"{name} is stale")


if __name__ == "__main__":
    unittest.main()

#!/usr/bin/env python3
"""The mutation catalog of scripts/mutate.py on fixed C++ text: which edits it
makes and which it leaves alone, stable keys, the seeded sample and the
equivalent-mutant list."""

import importlib.util
import sys
import tempfile
import unittest
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "mutate.py"
spec = importlib.util.spec_from_file_location("mutate", SCRIPT)
mutate = importlib.util.module_from_spec(spec)
sys.modules["mutate"] = mutate
spec.loader.exec_module(mutate)

SOURCE = """#include <vector>  // 1 < 2
// if (a < b) return 3;
int f(int a, int b) {
  std::vector<int> v{1};
  const char* s = "x < y";
  int c = a + 0x10;
  if (a < b) c = 7;
  c += b;
  run(c);
  return a == b && c >= 2;
}
"""


def mutants_of(text, path="modules/unit/f.cpp"):
    return mutate.enumerate_mutants(path, text)


def edits(mutants):
    return {(m.line, m.operator, m.original, m.replacement) for m in mutants}


class Catalog(unittest.TestCase):
    def test_every_operator_at_its_places(self):
        found = edits(mutants_of(SOURCE))
        expected = {
            (6, "arith", "+", "-"),
            (6, "constant", "0x10", "0x11"),
            (6, "constant", "0x10", "0xf"),
            (7, "boundary", "<", "<="),
            (7, "negate", "<", ">="),
            (7, "condition", "a < b", "true"),
            (7, "condition", "a < b", "false"),
            (7, "constant", "7", "8"),
            (7, "constant", "7", "6"),
            (8, "statement", "c += b;", ""),
            (9, "statement", "run(c);", ""),
            (10, "negate", "==", "!="),
            (10, "logical", "&&", "||"),
            (10, "boundary", ">=", ">"),
            (10, "negate", ">=", "<"),
            (10, "constant", "2", "3"),
            (10, "constant", "2", "1"),
        }
        self.assertTrue(expected <= found, expected - found)

    def test_comments_strings_templates_and_declarations_stay(self):
        lines = {m.line for m in mutants_of(SOURCE)}
        self.assertNotIn(1, lines)  # preprocessor line and its comment
        self.assertNotIn(2, lines)  # comment
        self.assertNotIn(5, lines)  # string literal; a declaration is never deleted
        vector_line = [m for m in mutants_of(SOURCE) if m.line == 4]
        self.assertEqual({(m.operator, m.original) for m in vector_line},
                         {("constant", "1")})  # not the template brackets
        declarations = [m for m in mutants_of(SOURCE) if m.operator == "statement"]
        self.assertEqual({m.line for m in declarations}, {8, 9})

    def test_apply_changes_exactly_one_place(self):
        lines = SOURCE.split("\n")
        for mutant in mutants_of(SOURCE):
            mutated = mutant.apply(lines)
            changed = [i for i, (a, b) in enumerate(zip(lines, mutated)) if a != b]
            self.assertEqual(changed, [mutant.line - 1], mutant.describe())
        boundary = next(m for m in mutants_of(SOURCE) if m.operator == "boundary" and m.line == 7)
        self.assertEqual(boundary.apply(lines)[6], "  if (a <= b) c = 7;")

    def test_keys_follow_the_text_not_the_line_number(self):
        before = {m.key: m for m in mutants_of(SOURCE)}
        shifted = SOURCE.replace("int f(", "// a new comment\nint f(")
        after = {m.key: m for m in mutants_of(shifted)}
        self.assertEqual(set(before), set(after))
        for key, mutant in before.items():
            self.assertEqual(after[key].line, mutant.line + 1)
        self.assertEqual(len(before), len(set(before)))  # no two mutants share a key


class Sampling(unittest.TestCase):
    def population(self):
        return (mutants_of(SOURCE, "modules/alpha/a.cpp") +
                mutants_of(SOURCE, "modules/beta/b.cpp") +
                mutants_of(SOURCE, "platform/cli/c.cpp"))

    def test_the_seed_fixes_the_sample(self):
        first = [m.key for m in mutate.sample(self.population(), 9, seed=4)]
        self.assertEqual(first, [m.key for m in mutate.sample(self.population(), 9, seed=4)])
        self.assertNotEqual(first, [m.key for m in mutate.sample(self.population(), 9, seed=5)])

    def test_the_sample_spreads_over_the_modules(self):
        chosen = mutate.sample(self.population(), 9, seed=1)
        self.assertEqual([m.module for m in chosen].count("alpha"), 3)
        self.assertEqual([m.module for m in chosen].count("beta"), 3)
        self.assertEqual([m.module for m in chosen].count("platform"), 3)


class Staging(unittest.TestCase):
    def test_a_mutant_first_meets_its_own_label(self):
        self.assertEqual(mutate.label_of("modules/cube/cube_preflight.cpp"), "cube")
        self.assertEqual(mutate.label_of("modules/sc_common/activity_log.cpp"), "systemc")
        self.assertEqual(mutate.label_of("platform/vectors/vector_file.cpp"), "platform")
        self.assertEqual(mutate.label_of("platform/config/platform_config.cpp"), "platform")
        self.assertEqual(mutate.label_of("platform/cli/options.cpp"), "cli")

    def test_an_object_names_its_source(self):
        match = mutate.OBJECT.fullmatch("platform/CMakeFiles/ptovp_debug.dir/debug/gdb_server.cpp.o")
        self.assertEqual(f"{match[1]}/{match[2]}", "platform/debug/gdb_server.cpp")

    def test_test_names_are_matched_exactly(self):
        pattern = mutate.exact(["A.b", "C.d_1"])
        self.assertEqual(pattern, r"^(A\.b|C\.d_1)$")


class Equivalents(unittest.TestCase):
    def test_keys_with_reasons(self):
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "equivalent.txt"
            path.write_text("# comment\n\n0123456789ab  x.cpp:3 boundary: both give 0\n")
            self.assertEqual(mutate.load_equivalents(path),
                             {"0123456789ab": "x.cpp:3 boundary: both give 0"})
            path.write_text("0123456789ab\n")  # no reason
            with self.assertRaises(SystemExit) as raised:
                mutate.load_equivalents(path)
            self.assertIn("equivalent.txt:1", str(raised.exception))

    def test_the_checked_in_list_parses(self):
        mutate.load_equivalents(mutate.REPO / mutate.EQUIVALENT_FILE)


class Reports(unittest.TestCase):
    def test_score_counts_timeouts_as_detected_and_skips_the_rest(self):
        results = [{"module": "a", "status": s} for s in
                   ["killed", "killed", "timeout", "survived", "equivalent", "uncompilable"]]
        summary = mutate.summarize(results)
        self.assertEqual(summary["total"]["score"], 75.0)
        self.assertEqual(summary["modules"]["a"]["survived"], 1)


if __name__ == "__main__":
    unittest.main()

#!/usr/bin/env python3
"""scripts/check_layers.py passes on the tree and names each forbidden edge
planted in a copy of it (an include, a link, SystemC in a semantics file)."""

import os
import shutil
import subprocess
import sys
import tempfile
import unittest

SOURCE = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SCRIPT = os.path.join(SOURCE, "scripts", "check_layers.py")


def run(root):
    done = subprocess.run([sys.executable, SCRIPT, "--root", root], capture_output=True, text=True)
    return done.returncode, done.stdout


class CheckLayersTest(unittest.TestCase):
    def setUp(self):
        self.root = tempfile.mkdtemp(prefix="ptovp-layers-")
        for folder in ("modules", "platform"):
            shutil.copytree(os.path.join(SOURCE, folder), os.path.join(self.root, folder))
        os.makedirs(os.path.join(self.root, "docs"))
        shutil.copy(os.path.join(SOURCE, "docs", "architecture.md"), os.path.join(self.root, "docs"))

    def tearDown(self):
        shutil.rmtree(self.root)

    def append(self, rel, text):
        with open(os.path.join(self.root, rel), "a", encoding="utf-8") as out:
            out.write(text)
        with open(os.path.join(self.root, rel), encoding="utf-8") as source:
            return sum(1 for _ in source)

    def test_the_tree_is_clean(self):
        self.assertEqual(run(SOURCE), (0, ""))

    def test_a_sideways_include_is_named_with_its_line(self):
        line = self.append("modules/cube/row_split.cpp", '#include "tlsu/block_schema.hpp"\n')
        code, out = run(self.root)
        self.assertEqual(code, 1)
        self.assertEqual(out, f"modules/cube/row_split.cpp:{line}: cube includes "
                              "tlsu/block_schema.hpp (tlsu is not in its row)\n")

    def test_an_upward_include_is_named(self):
        line = self.append("modules/arch/fault.cpp", '#include "frontend/front_end.hpp"\n')
        code, out = run(self.root)
        self.assertEqual(code, 1)
        self.assertIn(f"modules/arch/fault.cpp:{line}: arch includes frontend/front_end.hpp", out)

    def test_the_systemc_engine_may_not_use_the_functional_engine(self):
        line = self.append("platform/systemc/vcd_writer.cpp",
                           '#include "functional/functional_model.hpp"\n')
        code, out = run(self.root)
        self.assertEqual(code, 1)
        self.assertIn(f"platform/systemc/vcd_writer.cpp:{line}: systemc includes "
                      "functional/functional_model.hpp", out)

    def test_a_forbidden_link_is_named(self):
        self.append("modules/cube/CMakeLists.txt", "target_link_libraries(ptovp_cube PRIVATE ptovp_tlsu)\n")
        code, out = run(self.root)
        self.assertEqual(code, 1)
        self.assertIn("modules/cube/CMakeLists.txt:", out)
        self.assertIn("ptovp_cube links ptovp_tlsu (tlsu is not in the row of cube)", out)

    def test_systemc_in_semantics_is_named(self):
        line = self.append("modules/fabric/fabric.hpp", "#include <systemc>\n")
        self.append("modules/fabric/CMakeLists.txt",
                    "target_link_libraries(ptovp_fabric PUBLIC PkgConfig::SYSTEMC ptovp_sc_common)\n")
        code, out = run(self.root)
        self.assertEqual(code, 1)
        self.assertIn(f"modules/fabric/fabric.hpp:{line}: SystemC header <systemc> outside a SystemC file", out)
        self.assertIn("ptovp_fabric links SystemC but is not a SystemC library", out)
        self.assertIn("ptovp_fabric links the SystemC library ptovp_sc_common", out)

    def test_a_folder_without_a_row_is_named(self):
        os.makedirs(os.path.join(self.root, "modules", "dma"))
        self.append("modules/dma/dma.hpp", "#pragma once\n")
        code, out = run(self.root)
        self.assertEqual(code, 1)
        self.assertIn("modules/dma/dma.hpp: the layer matrix has no row for its folder", out)


if __name__ == "__main__":
    unittest.main()

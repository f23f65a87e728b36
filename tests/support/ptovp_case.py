"""What the end-to-end Python suites share: a test case that runs `ptovp` in
subprocesses inside a scratch folder, and the command line every such suite
takes (`--ptovp BIN --firmware DIR SUITE`)."""
import argparse
import os
import subprocess
import sys
import tempfile
import unittest


class PtovpCase(unittest.TestCase):
    """A scratch folder per test, and `ptovp` commands run inside it."""

    ptovp_binary = None
    firmware_dir = None

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def path(self, name):
        return os.path.join(self.dir, name)

    def ptovp(self, *args):
        return subprocess.run([self.ptovp_binary, *args], capture_output=True, text=True,
                              timeout=300)

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

    def assemble_firmware(self, name):
        return self.assemble(os.path.join(self.firmware_dir, name, name + ".s"), name)


def main(module):
    """Runs the suite named on the command line from `module`, after setting
    the module's PTOVP and FIRMWARE and PtovpCase's paths from it; exits 0 when
    every test passed."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--ptovp", required=True)
    parser.add_argument("--firmware", required=True)
    parser.add_argument("suite")
    args = parser.parse_args()
    PtovpCase.ptovp_binary, PtovpCase.firmware_dir = args.ptovp, args.firmware
    module.PTOVP, module.FIRMWARE = args.ptovp, args.firmware
    suite = unittest.defaultTestLoader.loadTestsFromName(args.suite, module)
    result = unittest.TextTestRunner(verbosity=2).run(suite)
    sys.exit(0 if result.wasSuccessful() else 1)

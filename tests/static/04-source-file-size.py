#!/usr/bin/python3
"""No hand-written C file grows past docs/design.md's size limit: every .c under runtime/ and
handlers/ has at most MAX_LINES lines. A file that grows past it is split along its seams (the
compaction job into its steps), so each file keeps one job a reader can hold. generated/ is the
generator's and is not counted. Nothing is built or served."""

import os
import sys
import unittest

E2E_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "e2e")
sys.path.insert(0, E2E_DIR)
from floe_server import SOURCE_DIR  # noqa: E402

SOURCE_TREES = ("runtime", "handlers")
MAX_LINES = 1500  # docs/design.md, "The house"


def c_files():
    for tree in SOURCE_TREES:
        for d, _, names in os.walk(os.path.join(SOURCE_DIR, tree)):
            for name in sorted(names):
                if name.endswith(".c"):
                    yield os.path.relpath(os.path.join(d, name), SOURCE_DIR)


def line_count(path):
    with open(os.path.join(SOURCE_DIR, path), "rb") as f:
        return sum(1 for _ in f)


class SourceFileSize(unittest.TestCase):
    def test_the_limit_is_the_one_design_md_states(self):
        with open(os.path.join(SOURCE_DIR, "docs", "design.md")) as f:
            stated = "over %s lines" % format(MAX_LINES, ",") in " ".join(f.read().split())
        self.assertTrue(stated, "docs/design.md states the limit this test holds (\"over %s lines\")"
                        % format(MAX_LINES, ","))

    def test_no_hand_written_c_file_is_over_the_limit(self):
        files = list(c_files())
        self.assertGreater(len(files), 100, "the source trees are found")
        over = ["%s: %d lines" % (path, n) for path, n in ((p, line_count(p)) for p in files) if n > MAX_LINES]
        self.assertEqual(over, [], "no .c file of runtime/ or handlers/ has more than %d lines: split it along "
                                   "its seams (docs/design.md)" % MAX_LINES)


if __name__ == "__main__":
    unittest.main()

#!/usr/bin/python3
"""The failure convention (docs/design.md, "Failure") holds in the code: outside the pure Iceberg
library, a hand-written function returns a house code from base/failure.h, never a raw -1
(`return -1;` or `? 0 : -1`), unless docs/design.md's table of value-or-minus-one functions names
it (a file descriptor, a count, a parser's "more / done / failed"). The table is the one place the
exceptions are written; this test reads it and finds the function around every raw -1, so a new
one in a listed function's file but in another function still fails. Nothing is built or served."""

import os
import re
import sys
import unittest

E2E_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "e2e")
sys.path.insert(0, E2E_DIR)
from floe_server import SOURCE_DIR  # noqa: E402

DESIGN = os.path.join(SOURCE_DIR, "docs", "design.md")
SOURCE_TREES = ("runtime", "handlers")
EXEMPT_TREE = "runtime/iceberg/"  # the pure library keeps its own 0/-1 (docs/design.md, "Libraries")
RAW_MINUS_ONE = re.compile(r"return\s+-1\s*;|\?\s*0\s*:\s*-1\b")
TABLE_TITLE = "Value-or-minus-one functions"
COMMENT_OR_LITERAL = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
FUNCTION_NAME = re.compile(r"([A-Za-z_]\w*)\s*\(")


def read_exceptions():
    """{(file, function)} from the table under TABLE_TITLE: its first column names the file, its
    second the function, each in backquotes."""
    with open(DESIGN) as f:
        text = f.read()
    start = text.index(TABLE_TITLE)
    listed = set()
    for line in text[start:].splitlines()[1:]:
        if listed and not line.startswith("|"):
            break
        cells = line.split("|")
        if len(cells) < 4:
            continue
        path, function = (re.match(r"\s*`([^`]+)`", c) for c in cells[1:3])
        if path and function:
            listed.add((path.group(1), function.group(1)))
    return listed


def blank(match):
    """A comment or literal as spaces, its newlines kept, so offsets and line numbers stay true."""
    return re.sub(r"[^\n]", " ", match.group(0))


def functions_of(source):
    """[(name, first line, last line)] of the function bodies in C source: a brace opened at file
    scope after a parenthesised declarator. Comments, literals and preprocessor lines are skipped."""
    code = COMMENT_OR_LITERAL.sub(blank, source)
    code = re.sub(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", blank, code, flags=re.M)
    found, depth, head_start, opened = [], 0, 0, None
    for i, ch in enumerate(code):
        if ch == "{":
            if depth == 0:
                name = FUNCTION_NAME.search(code, head_start, i)
                opened = (name.group(1) if name else None, code.count("\n", 0, i) + 1)
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                if opened[0]:
                    found.append((opened[0], opened[1], code.count("\n", 0, i) + 1))
                head_start = i + 1
        elif ch == ";" and depth == 0:
            head_start = i + 1
    return found, code


def source_files():
    for tree in SOURCE_TREES:
        for d, _, names in os.walk(os.path.join(SOURCE_DIR, tree)):
            for name in sorted(names):
                path = os.path.relpath(os.path.join(d, name), SOURCE_DIR)
                if name.endswith(".c") and not path.startswith(EXEMPT_TREE):
                    yield path


def raw_minus_ones():
    """[(file, function or None, line)] for every raw -1 in code (not in a comment)."""
    hits = []
    for path in source_files():
        with open(os.path.join(SOURCE_DIR, path)) as f:
            functions, code = functions_of(f.read())
        for m in RAW_MINUS_ONE.finditer(code):
            line = code.count("\n", 0, m.start()) + 1
            around = [name for name, first, last in functions if first <= line <= last]
            hits.append((path, around[0] if around else None, line))
    return hits


class FailureConvention(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.listed = read_exceptions()
        cls.hits = raw_minus_ones()

    def test_the_table_lists_exceptions(self):
        self.assertTrue(self.listed, "docs/design.md has a table '%s' naming file and function" % TABLE_TITLE)

    def test_only_listed_functions_return_a_raw_minus_one(self):
        wrong = ["%s:%d in %s" % (path, line, function or "(file scope)") for path, function, line in self.hits
                 if (path, function) not in self.listed]
        self.assertEqual(wrong, [], "return a house code (runtime/base/failure.h: FLOE_EFAIL and the others), "
                                    "or, for a file descriptor, a count or a parser's value, list the function "
                                    "in docs/design.md's table '%s'" % TABLE_TITLE)

    def test_every_listed_function_still_returns_a_raw_minus_one(self):
        """The table stays exactly true: a function converted to the house codes leaves it."""
        used = {(path, function) for path, function, _ in self.hits}
        stale = sorted("%s %s" % entry for entry in self.listed - used)
        self.assertEqual(stale, [], "docs/design.md's table '%s' names only functions that return a raw -1"
                         % TABLE_TITLE)

    def test_the_scan_finds_each_function(self):
        """The boundary scan is simple; a raw -1 it cannot place in a function is a scan to fix."""
        lost = ["%s:%d" % (path, line) for path, function, line in self.hits if function is None]
        self.assertEqual(lost, [], "every raw -1 sits inside a function the scan recognises")


if __name__ == "__main__":
    unittest.main()

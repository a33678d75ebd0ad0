#!/usr/bin/python3
"""A call's failure is protocol-neutral (docs/design.md, "Failure"): the catalog, the workers and
every protocol other than S3 Tables record a house code and its subject, never one of S3 Tables'
modeled errors, and each protocol's one mapper chooses its own error from them. So S3 Tables'
error names (`FLOE_ERR_*`, generated/floe_api.h) appear in code only in the S3 Tables protocol:
its handlers (handlers/s3tables/) and its wing (runtime/s3tables/, whose dispatcher maps a house
code to them), and in generated/. Comments may name them. Nothing is built or served."""

import os
import re
import sys
import unittest

E2E_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "e2e")
sys.path.insert(0, E2E_DIR)
from floe_server import SOURCE_DIR  # noqa: E402

SOURCE_TREES = ("runtime", "handlers")
S3TABLES_PROTOCOL = ("handlers/s3tables/", "runtime/s3tables/")
S3TABLES_ERROR = re.compile(r"\bFLOE_ERR_\w+")
COMMENT_OR_LITERAL = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)


def blank(match):
    """A comment or literal as spaces, its newlines kept, so line numbers stay true."""
    return re.sub(r"[^\n]", " ", match.group(0))


def source_files():
    for tree in SOURCE_TREES:
        for d, _, names in os.walk(os.path.join(SOURCE_DIR, tree)):
            for name in sorted(names):
                path = os.path.relpath(os.path.join(d, name), SOURCE_DIR).replace(os.sep, "/")
                if name.endswith((".c", ".h")) and not path.startswith(S3TABLES_PROTOCOL):
                    yield path


def s3tables_errors_outside():
    """["file:line NAME"] for every S3 Tables error name in code outside its protocol."""
    hits = []
    for path in source_files():
        with open(os.path.join(SOURCE_DIR, path)) as f:
            code = COMMENT_OR_LITERAL.sub(blank, f.read())
        for m in S3TABLES_ERROR.finditer(code):
            hits.append("%s:%d %s" % (path, code.count("\n", 0, m.start()) + 1, m.group(0)))
    return hits


class FailureNamesNoProtocol(unittest.TestCase):
    def test_the_scan_reads_the_sources(self):
        self.assertTrue(any(p.startswith("runtime/catalog/") for p in source_files()),
                        "the scan walks runtime/ and handlers/")

    def test_s3tables_errors_appear_only_in_its_protocol(self):
        self.assertEqual(s3tables_errors_outside(), [],
                         "record a house code and its subject (floe_fail(call, FLOE_ENOTFOUND, "
                         "FLOE_SUBJECT_TABLE, ...)); each protocol's mapper chooses its error from them")


if __name__ == "__main__":
    unittest.main()

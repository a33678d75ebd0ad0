#!/usr/bin/python3
"""Checks, and with --fix restores, the order of #include lines that docs/design.md ("The order of
includes") sets for every hand-written C file and codegen template:

    #include <stdint.h>          1. C and POSIX headers, <...>
    #include <string.h>
                                 (one blank line)
    #include <cjson/cJSON.h>     2. outside libraries, <...>: h2o, cJSON, SQLite, zlib, OpenSSL ...
    #include <sqlite3.h>
                                 (one blank line)
    #include "base/xalloc.h"     3. Floe's own headers, "...", the file's own header among them
    #include "store/bucket.h"

each block in byte order of the name as written. The unit this applies to is a run of #include and
blank lines: anything else (a comment, #if, #define, code, a Jinja tag) ends it, so no include is
ever moved across a preprocessor condition, a macro it depends on, or the comment that explains it;
an include right below a comment (other than the file's opening comment) stays under it, and the
run begins after it. A run is left exactly as written when
  - it includes anything but a header (a .c or .def file pasted in place: its order is the code's), or
  - the comment right above it says its order matters ("in this order"), or
  - (in a codegen template) it names a header the template fills in ("{{ ... }}"), whose place
    in the generated file the template cannot know; the lines around such an include form runs
    of their own.

Usage: tests/static/10-include-order.py [--fix] [PATH ...]
  (no PATH: runtime/, handlers/, tests/, bench/ and codegen/ of the source tree)
Exits 1 and names each run out of order (file:line, and the order it should have) unless --fix,
which rewrites them in place and prints the files it changed.
"""

import os
import re
import sys

SOURCE_DIR = os.environ.get("FLOE_SOURCE_DIR") or os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
TREES = ("runtime", "handlers", "tests", "bench", "codegen")
SKIP_DIRS = {"node_modules", "__pycache__", ".git"}
SUFFIXES = (".c", ".h", ".c.j2", ".h.j2")

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
KEEP_ORDER = re.compile(r"in this order", re.I)

# C and POSIX headers, and the compiler's: everything else in <...> is an outside library.
SYSTEM_PREFIXES = ("sys/", "arpa/", "netinet/", "net/", "linux/", "bits/")
SYSTEM_HEADERS = {
    "assert.h", "complex.h", "ctype.h", "errno.h", "fenv.h", "float.h", "inttypes.h", "iso646.h",
    "limits.h", "locale.h", "math.h", "setjmp.h", "signal.h", "stdalign.h", "stdarg.h", "stdatomic.h",
    "stdbool.h", "stddef.h", "stdint.h", "stdio.h", "stdlib.h", "stdnoreturn.h", "string.h", "tgmath.h",
    "threads.h", "time.h", "uchar.h", "wchar.h", "wctype.h",
    "dirent.h", "dlfcn.h", "fcntl.h", "fnmatch.h", "ftw.h", "getopt.h", "glob.h", "grp.h", "libgen.h",
    "netdb.h", "poll.h", "pthread.h", "pwd.h", "regex.h", "sched.h", "semaphore.h", "spawn.h",
    "strings.h", "syslog.h", "termios.h", "unistd.h", "utime.h",
}
SYSTEM, LIBRARY, FLOE = range(3)


def kind(line):
    bracket, name = INCLUDE.match(line).groups()
    if bracket == '"':
        return FLOE
    if name in SYSTEM_HEADERS or name.startswith(SYSTEM_PREFIXES) or name.endswith("intrin.h"):
        return SYSTEM
    return LIBRARY


def name_of(line):
    return INCLUDE.match(line).group(2)


def is_pinned(line):
    """An include the fixer never moves: a template fills its name in."""
    return "{{" in name_of(line)


def ordered(lines):
    """The include lines of one run, laid out as the design says: the blocks in order, each sorted,
    one blank line between, no header twice."""
    unique = []
    for line in lines:  # a header twice in one run: once is enough (it has an include guard)
        if INCLUDE.match(line).groups() not in [INCLUDE.match(u).groups() for u in unique]:
            unique.append(line)
    blocks = [sorted((l for l in unique if kind(l) == k), key=name_of) for k in (SYSTEM, LIBRARY, FLOE)]
    out = []
    for block in blocks:
        if block:
            if out:
                out.append("")
            out.extend(block)
    return out


def opening_comment_end(lines):
    """The index of the line that closes the comments a file opens with (a generated file's first
    line, then its purpose), or -1."""
    end = -1
    while end + 1 < len(lines) and lines[end + 1].lstrip().startswith("/*"):
        end = next((i for i in range(end + 1, len(lines)) if "*/" in lines[i]), len(lines) - 1)
    return end


def is_comment(line):
    return not INCLUDE.match(line) and (line.strip().endswith("*/") or line.lstrip().startswith("//"))


def runs(lines):
    """(start, end) of every run of include and blank lines, trimmed to begin and end with an
    include. A pinned include is a run's border, never part of one; so is an include right below
    a comment (other than the file's opening one), which the comment is about."""
    start = None
    opening = opening_comment_end(lines)
    for i, line in enumerate(lines + ["<end>"]):
        is_include = bool(INCLUDE.match(line)) and not is_pinned(line)
        if is_include and start is None and i > 0 and i - 1 != opening and is_comment(lines[i - 1]) \
                and not KEEP_ORDER.search(comment_above(lines, i)):
            continue  # under its own comment: stays there, and the run starts after it
        if is_include and start is None:
            start = i
        elif not is_include and not (line.strip() == "" and start is not None):
            if start is not None:
                end = i
                while lines[end - 1].strip() == "":
                    end -= 1
                yield start, end
            start = None


def comment_above(lines, start):
    """The text of the comment that ends right above line `start` ("" for none)."""
    i = start - 1
    if i < 0 or not is_comment(lines[i]):
        return ""
    if lines[i].lstrip().startswith("//"):
        while i > 0 and lines[i - 1].lstrip().startswith("//"):
            i -= 1
    else:
        while i > 0 and "/*" not in lines[i]:
            i -= 1
    return "\n".join(lines[i:start])


def is_kept_as_written(lines, start, end):
    includes = [l for l in lines[start:end] if l.strip()]
    if any(not name_of(l).endswith(".h") for l in includes):
        return True
    return bool(KEEP_ORDER.search(comment_above(lines, start)))


def wrong_runs(text):
    """[(line number, the run as it should read)] for every run of `text` out of order."""
    lines = text.split("\n")
    wrong = []
    for start, end in runs(lines):
        if is_kept_as_written(lines, start, end):
            continue
        want = ordered([l for l in lines[start:end] if l.strip()])
        if lines[start:end] != want:
            wrong.append((start, end, want))
    return wrong


def fix(text):
    lines = text.split("\n")
    for start, end, want in reversed(wrong_runs(text)):
        lines[start:end] = want
    return "\n".join(lines)


def source_files(paths):
    for path in paths:
        if os.path.isfile(path):
            yield path
            continue
        for d, dirs, names in os.walk(path):
            dirs[:] = sorted(x for x in dirs if x not in SKIP_DIRS)
            for name in sorted(names):
                if name.endswith(SUFFIXES):
                    yield os.path.join(d, name)


def main(argv):
    do_fix = "--fix" in argv
    paths = [a for a in argv if a != "--fix"] or [os.path.join(SOURCE_DIR, t) for t in TREES]
    problems = 0
    for path in source_files(paths):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        wrong = wrong_runs(text)
        if not wrong:
            continue
        shown = os.path.relpath(path, SOURCE_DIR)
        if do_fix:
            with open(path, "w", encoding="utf-8") as f:
                f.write(fix(text))
            print("fixed %s (%d run%s)" % (shown, len(wrong), "s" * (len(wrong) > 1)))
            continue
        for start, _, want in wrong:
            problems += 1
            print("%s:%d: includes out of order; should read:\n    %s" % (shown, start + 1, "\n    ".join(want)))
    if problems:
        print("\n%d run(s) of includes out of order (docs/design.md, \"The order of includes\"); "
              "tests/static/10-include-order.py --fix puts them in order" % problems)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

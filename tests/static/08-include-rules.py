#!/usr/bin/python3
"""The folders of runtime/ and handlers/ include each other as docs/design.md's include table says:
every `#include "..."` of a hand-written file reaches only its own folder or what the table lists
for that folder, the folders include each other without a cycle, the modules inside each folder (a
.c with its .h) include each other without a cycle, no two headers share a file name, and only a
folder whose row names `<sqlite3.h>` reaches SQLite. The table is the one place the rules are
written; this test reads it, so the design stays true as the code moves. Nothing is built or served."""

import collections
import os
import re
import sys
import unittest

E2E_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "e2e")
sys.path.insert(0, E2E_DIR)
from floe_server import SOURCE_DIR  # noqa: E402

DESIGN = os.path.join(SOURCE_DIR, "docs", "design.md")
SOURCE_TREES = ("runtime", "handlers")
INCLUDE_PATH = ("runtime", "generated")  # CMakeLists.txt: floe_core's include directories
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
SQLITE_HEADER = "<sqlite3.h>"
# What reaches SQLite in C code: its header, any of its functions or types (sqlite3_*), any of its
# constants (SQLITE_*).
SQLITE = re.compile(r"#\s*include\s*<sqlite3\.h>|\bsqlite3_\w*|\bSQLITE_\w+")
COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)


def folder_of(path):
    """runtime/x.c -> runtime/; runtime/catalog/x.c -> runtime/catalog/; generated/x.h -> generated/"""
    parts = path.split("/")
    return "/".join(parts[:-1]) + "/" if parts[0] in SOURCE_TREES else parts[0] + "/"


def read_table():
    """{folder: set of allowed folders and files}, in the table's order (top layer first), from the
    table under 'What each folder may include'."""
    with open(DESIGN) as f:
        text = f.read()
    start = text.index("What each folder may include")
    rules = {}
    for line in text[start:].splitlines()[1:]:
        if rules and not line.startswith("|"):
            break
        cells = line.split("|")
        if len(cells) < 4 or not cells[1].strip().startswith("`"):
            continue
        folder = re.match(r"\s*`([^`]+)`", cells[1]).group(1)
        allowed = {t for t in re.findall(r"`([^`]+)`", "|".join(cells[2:]))
                   if t.startswith(("runtime/", "handlers/", "generated/")) or t == SQLITE_HEADER}
        rules[folder] = allowed
    return rules


def source_files():
    for tree in SOURCE_TREES:
        for d, _, names in os.walk(os.path.join(SOURCE_DIR, tree)):
            for name in sorted(names):
                if name.endswith((".c", ".h")):
                    yield os.path.relpath(os.path.join(d, name), SOURCE_DIR)


def resolve(including, name):
    """The repository path an include names, as the compiler finds it: the including file's folder
    first, then the include path. None for a system header that happens to be quoted."""
    for base in (os.path.dirname(including),) + INCLUDE_PATH:
        path = os.path.normpath(os.path.join(base, name))
        if os.path.isfile(os.path.join(SOURCE_DIR, path)):
            return path
    return None


def includes():
    """[(including file, included path)] for every quoted include of runtime/ and handlers/."""
    found = []
    for path in source_files():
        with open(os.path.join(SOURCE_DIR, path)) as f:
            for name in INCLUDE.findall(f.read()):
                target = resolve(path, name)
                if target is not None:
                    found.append((path, target))
    return found


GUARD = re.compile(r"^#ifndef (\w+)\n#define (\w+)\n", re.M)


def expected_guard(path):
    """A header's include guard as docs/design.md names it: FLOE_, HANDLERS_ for a handler, the wing
    unless the file's name already begins with it, the file's name: runtime/catalog/rules.h ->
    FLOE_CATALOG_RULES_H, runtime/s3/s3.h -> FLOE_S3_H, runtime/cli.h -> FLOE_CLI_H,
    handlers/glue/glue_names.h -> FLOE_HANDLERS_GLUE_NAMES_H; a generated header's is its name's."""
    parts = path[:-len(".h")].split("/")
    if parts[0] == "generated":  # generated/floe_api.h -> FLOE_API_H, generated/cfn_api.h -> FLOE_CFN_API_H
        return "FLOE_%s_H" % re.sub(r"^floe_", "", parts[-1]).upper()
    words = ["FLOE"] + (["HANDLERS"] if parts[0] == "handlers" else [])
    parts = parts[1:]
    if len(parts) == 2 and (parts[1] == parts[0] or parts[1].startswith(parts[0] + "_")):
        parts = parts[1:]
    return "_".join(words + [w.upper() for w in parts] + ["H"])


def is_named_bare(path):
    """Whether a header is included by its file name alone: generated/, the runtime root, handlers/."""
    return path.startswith(("generated/", "handlers/")) or folder_of(path) == "runtime/"


def is_allowed(target, allowed):
    return target in allowed or folder_of(target) in allowed


class IncludeRules(unittest.TestCase):
    maxDiff = None  # name every file that breaks a rule

    @classmethod
    def setUpClass(cls):
        cls.rules = read_table()
        cls.includes = includes()

    def test_every_folder_has_a_row(self):
        folders = {folder_of(path) for path in source_files()}
        missing = sorted(folders - set(self.rules))
        self.assertEqual(missing, [], "every folder of runtime/ and handlers/ has a row in docs/design.md's "
                                      "include table (add one for a new wing or service)")

    def test_every_include_is_one_the_table_allows(self):
        wrong = ["%s includes %s" % (path, target) for path, target in self.includes
                 if folder_of(path) != folder_of(target)
                 and not is_allowed(target, self.rules.get(folder_of(path), set()))]
        self.assertEqual(wrong, [], "a file includes only its own folder and what docs/design.md's table "
                                    "lists for its folder")

    def test_folders_include_each_other_without_a_cycle(self):
        graph = collections.defaultdict(set)
        for path, target in self.includes:
            a, b = folder_of(path), folder_of(target)
            if a != b and b != "generated/":
                graph[a].add(b)
        cycle = find_cycle(graph)
        self.assertEqual(cycle, [], "the folders form layers: no folder includes one that includes it back")

    def test_modules_of_a_folder_include_each_other_without_a_cycle(self):
        """Inside a wing the files call each other one way too (docs/design.md). A module is a .c with
        its .h; an include of x.h from y.c or y.h is an edge y -> x. What two modules both need lives
        in a third, lower one, never in a cycle."""
        graph = collections.defaultdict(set)
        for path, target in self.includes:
            a, b = module_of(path), module_of(target)
            if folder_of(path) == folder_of(target) and a != b:
                graph[a].add(b)
        cycles = [" -> ".join(cycle) for cycle in find_cycles(graph)]
        self.assertEqual(cycles, [], "no two modules of a folder include each other, directly or around a circle")

    def test_the_table_lists_layers_top_down(self):
        order = list(self.rules)
        upward = ["%s may include %s" % (folder, item) for k, folder in enumerate(order)
                  for item in sorted(self.rules[folder])
                  if not item.startswith("generated/")
                  and (item if item.endswith("/") else folder_of(item)) in order[:k + 1]]
        self.assertEqual(upward, [], "each row of docs/design.md's include table allows only rows below it, "
                                     "so the table draws layers, one way")

    def test_no_include_name_means_two_headers(self):
        """A wing's header is named by its path ("catalog/table.h"); a header named bare (a generated
        one, the entry's, a handler's within its service) has a file name no other header has."""
        headers = [os.path.join(d, name) for tree in SOURCE_TREES + ("generated",)
                   for d, _, names in os.walk(os.path.join(SOURCE_DIR, tree))
                   for name in names if name.endswith((".h", ".def"))]
        by_name = collections.defaultdict(list)
        for path in headers:
            by_name[os.path.basename(path)].append(os.path.relpath(path, SOURCE_DIR))
        twice = {name: paths for name, paths in by_name.items() if len(paths) > 1
                 and any(is_named_bare(p) for p in paths)}
        self.assertEqual(twice, {}, "an include by a bare name means one header")

    def test_no_include_climbs_a_folder(self):
        """What two folders share lives below both, named by its path, never reached with ../."""
        wrong = []
        for path in source_files():
            with open(os.path.join(SOURCE_DIR, path)) as f:
                wrong += ["%s includes %s" % (path, name) for name in INCLUDE.findall(f.read()) if "../" in name]
        self.assertEqual(wrong, [], "no #include names a file with ../")

    def test_every_header_guard_names_its_path(self):
        """Two headers whose guards agree would silently hide one another."""
        wrong = []
        generated = [os.path.join("generated", name)
                     for name in sorted(os.listdir(os.path.join(SOURCE_DIR, "generated")))]
        for path in list(source_files()) + generated:
            if path.endswith(".h"):
                with open(os.path.join(SOURCE_DIR, path)) as f:
                    m = GUARD.search(f.read())
                found = "%s/%s" % (m.group(1), m.group(2)) if m else "no guard"
                if found != "%s/%s" % ((expected_guard(path),) * 2):
                    wrong.append("%s: %s, not %s" % (path, found, expected_guard(path)))
        self.assertEqual(wrong, [], "a header's #ifndef/#define guard names its path")

    def test_the_entry_includes_no_generated_header(self):
        wrong = ["%s includes %s" % (path, target) for path, target in self.includes
                 if folder_of(path) == "runtime/" and target.startswith("generated/")]
        self.assertEqual(wrong, [], "the runtime root reaches generated code only through the protocol wings")

    def test_only_the_folders_the_table_names_reach_sqlite(self):
        """SQLite is db/'s: every other wing steps rows, reads columns and learns of commits through
        db/'s functions, so none includes <sqlite3.h> or names a sqlite3_* function or type or a
        SQLITE_* constant (comments aside)."""
        wrong = []
        for path in source_files():
            if SQLITE_HEADER in self.rules.get(folder_of(path), set()):
                continue
            with open(os.path.join(SOURCE_DIR, path)) as f:
                found = sorted(set(SQLITE.findall(COMMENT.sub("", f.read()))))
            if found:
                wrong.append("%s: %s" % (path, ", ".join(found)))
        self.assertEqual(wrong, [], "only a folder whose row in docs/design.md's include table names %s "
                                    "reaches SQLite" % SQLITE_HEADER)


def module_of(path):
    """runtime/store/bucket.c and runtime/store/bucket.h -> runtime/store/bucket"""
    return os.path.splitext(path)[0]


def find_cycles(graph):
    """One cycle of each strongly connected part of `graph` that has one, each as a list of nodes
    (the first repeated at the end), in a stable order."""
    index, low, stack, on_stack, parts = {}, {}, [], set(), []

    def connect(node):  # Tarjan's algorithm
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                connect(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            part = set()
            while node not in part:
                part.add(stack.pop())
            on_stack.difference_update(part)
            parts.append(part)

    for node in sorted(graph):
        if node not in index:
            connect(node)
    return sorted(find_cycle({a: graph[a] & part for a in part}) for part in parts if len(part) > 1)


def find_cycle(graph):
    """One cycle of `graph` as a list of nodes, or []."""
    state = {}

    def visit(node, stack):
        state[node] = "open"
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == "open":
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt, stack)
                if found:
                    return found
        stack.pop()
        state[node] = "done"
        return []

    for node in sorted(graph):
        if node not in state:
            found = visit(node, [])
            if found:
                return found
    return []


if __name__ == "__main__":
    unittest.main()

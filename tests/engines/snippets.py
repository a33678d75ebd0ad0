"""The engine configuration users copy from docs/engines.md, filled in for a table, for the tests
that run it.

What this is for: docs/engines.md is the one source of each engine's configuration. Every fenced
block after a `<!-- snippet: NAME -->` line is a snippet (codegen/engine_snippets.py reads them,
for these tests and for the console's table page alike); its example values (EXAMPLE) are
replaced with a real endpoint, region, table bucket ARN, namespace and table. The tests run the
result exactly as a user would paste it. What it is not for: configuration the page does not show.

Also here, because every engine test needs them: re-running a test under the engines' virtual
environment (tests/engines/requirements.txt, installed by scripts/setup-deps) and a DuckDB
connection configured by the page's own blocks.
"""

import os
import sys

SOURCE_DIR = os.environ.get("FLOE_SOURCE_DIR",
                            os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))
DOC = os.path.join(SOURCE_DIR, "docs", "engines.md")

sys.path.insert(0, os.path.join(SOURCE_DIR, "codegen"))
_write_bytecode, sys.dont_write_bytecode = sys.dont_write_bytecode, True   # no __pycache__ in codegen/
import engine_snippets  # noqa: E402
sys.dont_write_bytecode = _write_bytecode

EXAMPLE = engine_snippets.EXAMPLE


def snippets(path=DOC):
    """{name: text} of every snippet block in docs/engines.md, as written there."""
    return {b["name"]: b["text"] for b in engine_snippets.blocks(path)}


def render(name, endpoint, arn, namespace=None, table=None, region="us-east-1", **extra):
    """The snippet NAME with the example values replaced. `extra` replaces other upper-case
    placeholders (SITE_PACKAGES)."""
    text = snippets()[name]
    hostport = endpoint.split("://", 1)[1]
    # Replaced through unique markers, so a new value never gets replaced again.
    values = {"arn": arn, "endpoint": endpoint, "hostport": hostport, "region": region,
              "namespace": namespace, "table": table}
    pairs = [(key, values[key]) for key in engine_snippets.REPLACE_ORDER]
    for key, value in pairs:
        if value is not None:
            text = text.replace(EXAMPLE[key], "\0%s\0" % key)
    for key, value in pairs:
        if value is not None:
            text = text.replace("\0%s\0" % key, value)
    for key, value in extra.items():
        text = text.replace(key, value)
    return text


def run_python(name, endpoint, arn, scope=None, **kw):
    """Executes a Python snippet, in `scope` (the globals an earlier snippet left, e.g. `catalog`)
    or fresh globals, and returns its globals."""
    scope = dict(scope or {}, __name__="snippet_" + name.replace("-", "_"))
    exec(compile(render(name, endpoint, arn, **kw), "docs/engines.md:" + name, "exec"), scope)
    return scope


def sql_statements(text):
    """The statements of a SQL snippet (no snippet puts a ';' inside a literal)."""
    return [s.strip() for s in text.split(";") if s.strip()]


# ---- the engines' virtual environment ----------------------------------------------------------

def venv_python(venv="engines-venv"):
    build = os.environ.get("FLOE_BUILD_DIR", os.path.join(SOURCE_DIR, "build-asan"))
    return os.path.join(build, venv, "bin", "python")


def reexec_in_venv(venv="engines-venv"):
    """Re-runs the calling test under the interpreter of the build's virtual environment `venv`
    (the engines' unless named) unless it already runs there. Without the environment the whole
    test skips (exit 77), which tests/e2e/run fails in CI."""
    python = venv_python(venv)
    if os.path.realpath(sys.prefix) == os.path.realpath(os.path.dirname(os.path.dirname(python))):
        return
    if not os.path.exists(python):
        print("SKIP: %s is missing: run scripts/setup-deps" % python)
        sys.exit(77)
    os.execv(python, [python] + sys.argv)


def site_packages():
    """The site-packages folder the duckdb-extension-* packages are installed in: each holds its
    extension as duckdb_extension_<name>/extensions/v<version>/<name>.duckdb_extension."""
    import duckdb_extension_iceberg
    return os.path.dirname(list(duckdb_extension_iceberg.__path__)[0])


def duckdb_connect(endpoint, arn, attach="duckdb-attach"):
    """A DuckDB connection set up by the page's blocks: extensions loaded from their packages (never
    downloaded) and the table bucket attached as `floe` by the block `attach` (the signed one, or
    the unsigned alias `duckdb-attach-unsigned`), in the ARN's region."""
    import duckdb
    con = duckdb.connect()
    region = arn.split(":")[3]
    text = render("duckdb-extensions", endpoint, arn, SITE_PACKAGES=site_packages())
    text += ";\n" + render(attach, endpoint, arn, region=region)
    for statement in sql_statements(text):
        con.execute(statement)
    return con


def main(argv):
    """`snippets.py NAME ENDPOINT ARN NAMESPACE TABLE` prints one snippet filled in for a table, as
    the console's table page shows it (the region is the ARN's)."""
    if len(argv) != 5:
        sys.stderr.write("usage: snippets.py NAME ENDPOINT ARN NAMESPACE TABLE\n")
        return 2
    name, endpoint, arn, namespace, table = argv
    sys.stdout.write(render(name, endpoint, arn, namespace=namespace, table=table, region=arn.split(":")[3]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""The engine configuration users copy from docs/engines.md, for the tests that run it and for any
other tool that shows it (the console's table page, say).

What this is for: docs/engines.md is the one source of each engine's configuration. Every fenced
block after a `<!-- snippet: NAME -->` line is a snippet; its example values (EXAMPLE below) are
replaced with a real endpoint, region, table bucket ARN, namespace and table. The tests run the
result exactly as a user would paste it. What it is not for: configuration the page does not show.

Also here, because every engine test needs them: re-running a test under the engines' virtual
environment (tests/engines/requirements.txt, installed by scripts/setup-deps) and a DuckDB
connection configured by the page's own blocks.
"""

import os
import re
import sys

SOURCE_DIR = os.environ.get("FLOE_SOURCE_DIR",
                            os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))
DOC = os.path.join(SOURCE_DIR, "docs", "engines.md")

# The example values in docs/engines.md, longest first so the endpoint with its scheme is
# replaced before the bare host:port inside it.
EXAMPLE = {
    "endpoint": "http://127.0.0.1:4566",
    "hostport": "127.0.0.1:4566",
    "arn": "arn:aws:s3tables:us-east-1:111122223333:bucket/my-table-bucket",
    "region": "us-east-1",
    "namespace": "my_namespace",
    "table": "my_table",
}

SNIPPET_RE = re.compile(r"^<!-- snippet: ([a-z0-9-]+) -->\n```[a-z]*\n(.*?)^```$", re.M | re.S)


def snippets(path=DOC):
    """{name: text} of every snippet block in docs/engines.md, as written there."""
    with open(path) as f:
        return dict(SNIPPET_RE.findall(f.read()))


def render(name, endpoint, arn, namespace=None, table=None, region="us-east-1", **extra):
    """The snippet NAME with the example values replaced. `extra` replaces other upper-case
    placeholders (EXTENSION_DIRECTORY)."""
    text = snippets()[name]
    hostport = endpoint.split("://", 1)[1]
    # Replaced through unique markers, so a new value never gets replaced again.
    pairs = [("arn", arn), ("endpoint", endpoint), ("hostport", hostport), ("region", region),
             ("namespace", namespace), ("table", table)]
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

def venv_python():
    build = os.environ.get("FLOE_BUILD_DIR", os.path.join(SOURCE_DIR, "build-asan"))
    return os.path.join(build, "engines-venv", "bin", "python")


def reexec_in_venv():
    """Re-runs the calling test under the engines' interpreter unless it already runs there.
    Without the environment the whole test skips (exit 77), which tests/e2e/run fails in CI."""
    python = venv_python()
    if os.path.realpath(sys.prefix) == os.path.realpath(os.path.dirname(os.path.dirname(python))):
        return
    if not os.path.exists(python):
        print("SKIP: %s is missing: run scripts/setup-deps" % python)
        sys.exit(77)
    os.execv(python, [python] + sys.argv)


def duckdb_extension_directory():
    """Where the duckdb-ext-* packages put their extensions (v<version>/<platform>/*.duckdb_extension)."""
    import duckdb_ext
    return os.path.join(list(duckdb_ext.__path__)[0], "extensions")


def duckdb_connect(endpoint, arn):
    """A DuckDB connection set up by the page's blocks: extensions loaded from their packages (never
    downloaded) and the table bucket attached as `floe`."""
    import duckdb
    con = duckdb.connect()
    text = render("duckdb-extensions", endpoint, arn, EXTENSION_DIRECTORY=duckdb_extension_directory())
    text += ";\n" + render("duckdb-attach", endpoint, arn)
    for statement in sql_statements(text):
        con.execute(statement)
    return con


def main(argv):
    """`snippets.py` prints {"example": EXAMPLE, "snippets": {name: text}} as JSON, for a build
    step that embeds them (the console's table page); `snippets.py NAME ENDPOINT ARN NAMESPACE
    TABLE` prints one snippet filled in for a table."""
    import json
    if len(argv) == 5:
        name, endpoint, arn, namespace, table = argv
        sys.stdout.write(render(name, endpoint, arn, namespace=namespace, table=table, region=arn.split(":")[3]))
        return 0
    if argv:
        sys.stderr.write("usage: snippets.py [NAME ENDPOINT ARN NAMESPACE TABLE]\n")
        return 2
    json.dump({"example": EXAMPLE, "snippets": snippets()}, sys.stdout, indent=2, sort_keys=True)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""PyIceberg, DuckDB and Spark beside Trino in bench/engines/trino: each writes a table on the
bench's table bucket before Trino's part, and each reads a table back after it.

Configured exactly as the engine tests configure them (and reusing their helpers, not copies):
PyIceberg and DuckDB from docs/engines.md's blocks (tests/engines/snippets.py), Spark with both of
AWS's documented catalogs (tests/e2e/spark_engine.py; this uses `floe`, the page's REST catalog).
Runs under the engines' virtual environment (<build>/engines-venv, Spark from
<build>/engines-spark; FLOE_BUILD_DIR names <build>).

  trino_peers.py check                          exit 3 and say what is missing, else exit 0
  trino_peers.py write ENDPOINT ARN ROWS OUT    the three tables peers.<engine>_items
  trino_peers.py read ENDPOINT ARN TABLE OUT    every engine's rows of peers.TABLE
OUT receives JSON: per engine, its rows ([id, name, amount], sorted) or table, and seconds.
"""

import json
import os
import sys
import time
import types

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "engines"))
sys.path.insert(0, os.path.join(ROOT, "tests", "e2e"))
import snippets  # noqa: E402
import spark_engine  # noqa: E402
from floe_server import client_env  # noqa: E402

NAMESPACE = "peers"
ENGINES = ("pyiceberg", "duckdb", "spark")


def missing():
    """What keeps the three engines from running here, or None."""
    python = snippets.venv_python()
    if not os.path.exists(python):
        return "PyIceberg and DuckDB: %s is missing (run scripts/setup-deps)" % python
    if os.path.realpath(sys.prefix) != os.path.realpath(os.path.dirname(os.path.dirname(python))):
        return "trino_peers.py runs under %s" % python
    try:
        import duckdb  # noqa: F401
        import pyiceberg  # noqa: F401
    except ImportError as e:
        return "PyIceberg or DuckDB: %s" % e
    spark = spark_engine.missing_reason()
    return "Spark: " + spark if spark else None


class Engines:
    """The three engines on one table bucket; Spark starts on first use (it takes tens of seconds)."""

    def __init__(self, endpoint, arn):
        self.server = types.SimpleNamespace(endpoint=endpoint)
        self.arn = arn
        os.environ.update(client_env(self.server))
        os.environ.pop("AWS_DATA_PATH", None)  # the venv's boto3 knows S3 Tables itself
        self.catalog = snippets.run_python("pyiceberg-rest", endpoint, arn)["catalog"]
        self.duck = snippets.duckdb_connect(endpoint, arn)
        self._spark = None

    def spark(self):
        if self._spark is None:
            self._spark = spark_engine.spark_session(self.server, self.arn, "floe-bench-trino")
        return self._spark

    def close(self):
        self.duck.close()
        if self._spark is not None:
            self._spark.stop()

    def write(self, engine, n):
        """ENGINE creates peers.<engine>_items (id, name, amount) with rows i, '<engine>-i', i * 0.5."""
        table = "%s_items" % engine
        if engine == "pyiceberg":
            import pyarrow as pa
            if (NAMESPACE,) not in self.catalog.list_namespaces():
                self.catalog.create_namespace(NAMESPACE)
            data = pa.table({"id": pa.array(range(n), pa.int64()),
                             "name": pa.array(["pyiceberg-%d" % i for i in range(n)], pa.string()),
                             "amount": pa.array([i * 0.5 for i in range(n)], pa.float64())})
            self.catalog.create_table("%s.%s" % (NAMESPACE, table), schema=data.schema).append(data)
        elif engine == "duckdb":
            self.duck.execute("CREATE TABLE floe.%s.%s (id BIGINT, name VARCHAR, amount DOUBLE)" % (NAMESPACE, table))
            self.duck.execute("INSERT INTO floe.%s.%s SELECT i, 'duckdb-' || i, i * 0.5 FROM range(0, %d) t(i)"
                              % (NAMESPACE, table, n))
        else:
            spark = self.spark()
            spark.sql("CREATE TABLE floe.%s.%s (id BIGINT, name STRING, amount DOUBLE) USING iceberg" % (NAMESPACE, table))
            spark.sql("INSERT INTO floe.%s.%s SELECT id, concat('spark-', id), id * 0.5 FROM range(%d)"
                      % (NAMESPACE, table, n))
        return table

    def read(self, engine, table):
        """Every row of peers.TABLE as ENGINE reads it, sorted."""
        name = "%s.%s" % (NAMESPACE, table)
        if engine == "pyiceberg":
            rows = [(r["id"], r["name"], r["amount"]) for r in self.catalog.load_table(name).scan().to_arrow().to_pylist()]
        elif engine == "duckdb":
            rows = self.duck.execute("SELECT id, name, amount FROM floe.%s" % name).fetchall()
        else:
            rows = [tuple(r) for r in self.spark().sql("SELECT id, name, amount FROM floe.%s" % name).collect()]
        return sorted([list(r) for r in rows])


def timed(fn, *args):
    t0 = time.monotonic()
    value = fn(*args)
    return value, time.monotonic() - t0


def main(argv):
    if argv[:1] == ["check"]:
        reason = missing()
        if reason:
            print(reason)
            return 3
        return 0
    command, endpoint, arn, arg, out = argv
    reason = missing()
    if reason:
        print(reason)
        return 3
    engines, start_s = timed(Engines, endpoint, arn)
    result = {"start_s": start_s}
    try:
        result["spark_start_s"] = timed(engines.spark)[1]
        for engine in ENGINES:
            if command == "write":
                table, secs = timed(engines.write, engine, int(arg))
                result[engine] = {"table": table, "seconds": secs}
            else:
                rows, secs = timed(engines.read, engine, arg)
                result[engine] = {"rows": rows, "seconds": secs}
    finally:
        engines.close()
    with open(out, "w") as f:
        json.dump(result, f)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

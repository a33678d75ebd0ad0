#!/usr/bin/python3
"""Spark, PyIceberg and DuckDB on the same Floe tables, row for row, before and after Floe's maintenance.

Each engine is configured as docs/engines.md shows (PyIceberg's and DuckDB's blocks run as the
page writes them; Spark through tests/e2e/spark_engine.py with both of AWS's documented
catalogs). The steps run in order:
  1. PyIceberg creates and writes a table (appends and deletes); Spark, through both catalogs, and
     DuckDB read the same rows.
  2. Spark creates a partitioned table and writes it with merge-on-read (position delete files) and
     copy-on-write; PyIceberg and DuckDB read the same rows.
  3. DuckDB creates a table and writes it (inserts, an update, a delete); Spark reads it, writes
     to it, and PyIceberg and DuckDB read Spark's rows.
  4. A table made with the S3 Tables API's CreateTable (a schema, no data) is written by PyIceberg
     and Spark; all three read it.
Then Floe's own compaction and snapshot expiration (`floe maintenance run`) rewrite every table,
and all three engines read exactly the same rows again, and still do after Spark writes on top.

Runs under the engines' virtual environment (PyIceberg, DuckDB), with PySpark from
<build>/engines-spark on the path.
"""

import contextlib
import datetime
import io
import os
import re
import sys
import unittest

E2E_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(E2E_DIR, "..", "engines"))
sys.path.insert(0, E2E_DIR)
import snippets  # noqa: E402

snippets.reexec_in_venv()

from floe_server import compact_and_expire  # noqa: E402
from spark_engine import CATALOGS, SparkBesidePythonEngines, rows  # noqa: E402

import pyarrow as pa  # noqa: E402
from pyiceberg.expressions import EqualTo, LessThan  # noqa: E402

# Snapshot expiration's age rule (AWS's default keeps snapshots 120 hours): run it as of a week
# later, so every snapshot but the current one is expired.
LATER = (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(days=7)).strftime("%Y-%m-%dT%H:%M:%SZ")

ORDERS = ("id", "category", "amount")
EVENTS = ("id", "day", "kind", "amount")
ITEMS = ("id", "name", "price")
API = ("id", "kind")


def orders(start, n):
    ids = list(range(start, start + n))
    return pa.table({"id": pa.array(ids, pa.int64()),
                     "category": pa.array(["abc"[i % 3] for i in ids], pa.string()),
                     "amount": pa.array([i * 0.5 for i in ids], pa.float64())})


def event(i):
    return (i, datetime.date(2026, 1, 1) + datetime.timedelta(days=i % 5), "k%d" % (i % 4), i * 0.25)


class EnginesShareTables(SparkBesidePythonEngines):
    """The steps run in order (test_1 ... test_5): each builds on the tables the previous ones wrote."""

    BUCKET, APP = "engines-with-spark", "floe-spark-pyiceberg-duckdb"

    # ---- what each engine reads ----

    def spark_rows(self, cat, name, columns):
        self.spark.sql("REFRESH TABLE %s.%s" % (cat, name))
        return rows(self.spark, "SELECT %s FROM %s.%s" % (", ".join(columns), cat, name))

    def pyiceberg_rows(self, name, columns):
        t = self.catalog.load_table(name).scan(selected_fields=columns).to_arrow()
        return sorted(tuple(r[c] for c in columns) for r in t.to_pylist())

    def duckdb_rows(self, name, columns):
        return sorted(self.duck.execute("SELECT %s FROM floe.%s" % (", ".join(columns), name)).fetchall())

    def assertEnginesAgree(self, name, columns, expected, when):
        """Spark (both catalogs), PyIceberg and DuckDB each read exactly `expected` from table `name`."""
        for cat in CATALOGS:
            self.assertEqual(self.spark_rows(cat, name, columns), expected,
                             "Spark (catalog %s) reads %s %s" % (cat, name, when))
        self.assertEqual(self.pyiceberg_rows(name, columns), expected, "PyIceberg reads %s %s" % (name, when))
        self.assertEqual(self.duckdb_rows(name, columns), expected, "DuckDB reads %s %s" % (name, when))

    def maintain(self, name):
        """Floe's compaction, then snapshot expiration, on one table, through `floe maintenance run`."""
        ns, table = name.split(".")
        arn = self.s3tables.get_table(tableBucketARN=self.arn, namespace=ns, name=table)["tableARN"]
        results = compact_and_expire(self, self.server.endpoint, arn, LATER)
        self.assertEqual(len(self.catalog.load_table(name).metadata.snapshots), 1,
                         "expiration left only the current snapshot of %s" % name)
        return results

    # ---- the steps ----

    def test_1_spark_and_duckdb_read_what_pyiceberg_wrote(self):
        self.catalog.create_namespace("pyi")
        t = self.catalog.create_table("pyi.orders", schema=orders(0, 1).schema)
        for start in (0, 1000, 2000):
            t.append(orders(start, 1000))
        t.delete(delete_filter=LessThan("id", 250))
        t.delete(delete_filter=EqualTo("category", "b"))
        type(self).orders = sorted(tuple(r.values()) for r in orders(0, 3000).to_pylist()
                                   if r["id"] >= 250 and r["category"] != "b")
        self.assertEnginesAgree("pyi.orders", ORDERS, self.orders, "after PyIceberg's appends and deletes")

    def test_2_pyiceberg_and_duckdb_read_what_spark_wrote(self):
        t = "rest.sprk.events"
        self.spark.sql("CREATE NAMESPACE rest.sprk")
        self.spark.sql("CREATE TABLE %s (id bigint, day date, kind string, amount double) USING iceberg "
                       "PARTITIONED BY (day, bucket(4, id)) TBLPROPERTIES ('write.delete.mode'='merge-on-read', "
                       "'write.update.mode'='merge-on-read', 'write.merge.mode'='merge-on-read')" % t)
        for start in (0, 400):
            self.spark.sql("INSERT INTO %s SELECT id, date_add(DATE'2026-01-01', CAST(id %% 5 AS INT)), "
                           "concat('k', CAST(id %% 4 AS STRING)), id * 0.25 FROM range(%d, %d)" % (t, start, start + 400))
        self.spark.sql("DELETE FROM %s WHERE id %% 7 = 0" % t)
        self.spark.sql("UPDATE %s SET kind = 'upd' WHERE id %% 10 = 3" % t)
        self.assertGreater(self.spark.sql("SELECT * FROM %s.delete_files" % t).count(), 0,
                           "merge-on-read wrote position delete files")
        expected = {}
        for i in range(800):
            if i % 7:
                r = event(i)
                expected[i] = r[:2] + ("upd",) + r[3:] if i % 10 == 3 else r
        # And copy-on-write, through AWS's catalog.
        self.spark.sql("ALTER TABLE s3t.sprk.events SET TBLPROPERTIES ('write.delete.mode'='copy-on-write')")
        self.spark.sql("DELETE FROM s3t.sprk.events WHERE id >= 750")
        type(self).events = sorted(r for i, r in expected.items() if i < 750)
        self.assertEnginesAgree("sprk.events", EVENTS, self.events, "after Spark's merge-on-read and copy-on-write")
        shown = io.StringIO()
        with contextlib.redirect_stdout(shown):
            snippets.run_python("spark-read", self.server.endpoint, self.arn, scope={"spark": self.spark},
                                namespace="sprk", table="events")
        self.assertEqual(len([line for line in shown.getvalue().splitlines() if re.match(r"^\|\s*\d+\|", line)]),
                         10, "docs/engines.md's Spark read block shows ten rows:\n" + shown.getvalue())

    def test_3_spark_reads_and_writes_what_duckdb_wrote(self):
        d = self.duck
        d.execute("CREATE SCHEMA floe.duck")
        d.execute("CREATE TABLE floe.duck.items (id BIGINT, name VARCHAR, price DOUBLE)")
        d.execute("INSERT INTO floe.duck.items SELECT i, 'item-' || i, i * 1.25 FROM range(0, 300) t(i)")
        d.execute("UPDATE floe.duck.items SET price = -1 WHERE id % 50 = 0")
        d.execute("DELETE FROM floe.duck.items WHERE id >= 280")
        expected = [(i, "item-%d" % i, -1.0 if i % 50 == 0 else i * 1.25) for i in range(280)]
        self.assertEnginesAgree("duck.items", ITEMS, sorted(expected), "after DuckDB's writes")

        self.spark.sql("INSERT INTO rest.duck.items SELECT id, concat('spark-', CAST(id AS STRING)), id * 2.0 "
                       "FROM range(1000, 1100)")
        self.spark.sql("DELETE FROM s3t.duck.items WHERE id < 10")
        expected = [r for r in expected if r[0] >= 10] + [(i, "spark-%d" % i, i * 2.0) for i in range(1000, 1100)]
        type(self).items = sorted(expected)
        self.assertEnginesAgree("duck.items", ITEMS, self.items, "after Spark wrote to DuckDB's table")

    def test_4_a_table_made_with_the_s3_tables_api(self):
        self.s3tables.create_namespace(tableBucketARN=self.arn, namespace=["api"])
        self.s3tables.create_table(
            tableBucketARN=self.arn, namespace="api", name="events", format="ICEBERG",
            metadata={"iceberg": {"schema": {"fields": [
                {"name": "id", "type": "long", "required": True}, {"name": "kind", "type": "string"}]}}})
        self.assertEnginesAgree("api.events", API, [], "as CreateTable made it")
        t = self.catalog.load_table("api.events")
        t.append(pa.table({"id": pa.array(range(100), pa.int64()), "kind": ["k%d" % (i % 4) for i in range(100)]},
                          schema=t.schema().as_arrow()))
        self.spark.sql("INSERT INTO s3t.api.events SELECT id, 'spark' FROM range(100, 150)")
        self.spark.sql("INSERT INTO rest.api.events VALUES (150, 'rest')")
        type(self).api = sorted([(i, "k%d" % (i % 4)) for i in range(100)] + [(i, "spark") for i in range(100, 150)]
                                + [(150, "rest")])
        self.assertEnginesAgree("api.events", API, self.api, "written by PyIceberg and Spark")

    def test_5_all_read_the_same_rows_after_floes_maintenance(self):
        for name, columns, expected in (("pyi.orders", ORDERS, self.orders), ("sprk.events", EVENTS, self.events),
                                        ("duck.items", ITEMS, self.items), ("api.events", API, self.api)):
            with self.subTest(table=name):
                results = self.maintain(name)
                self.assertGreater(results["icebergCompaction"]["filesRead"], 1,
                                   "compaction read the small files of %s" % name)
                self.assertEnginesAgree(name, columns, expected, "after Floe's compaction and expiration")

        self.spark.sql("INSERT INTO rest.sprk.events VALUES (5000, DATE'2026-02-01', 'late', 1.5)")
        self.spark.sql("DELETE FROM s3t.sprk.events WHERE id < 20")
        expected = sorted([r for r in self.events if r[0] >= 20] + [(5000, datetime.date(2026, 2, 1), "late", 1.5)])
        self.assertEnginesAgree("sprk.events", EVENTS, expected, "when Spark writes on top of Floe's maintenance")


if __name__ == "__main__":
    unittest.main(verbosity=2)

#!/usr/bin/python3
"""DuckDB, PyIceberg, the S3 Tables API (boto3) and icebird on the same table bucket, each
configured from docs/engines.md: DuckDB attaches the bucket and reads PyIceberg's tables, including
after PyIceberg's deletes; DuckDB creates a table and inserts, updates and deletes, and PyIceberg
reads back what it wrote; a table made with CreateTable is written by PyIceberg and DuckDB and
read by both. icebird reads PyIceberg's table too (not DuckDB's manifests, which its Avro reader
refuses). Between writes Floe's own maintenance runs (`floe maintenance run`: compaction,
then snapshot expiration), and every engine reads exactly the same rows before and after.
DuckDB attaches with the page's signed block (SigV4 at /iceberg), also against
`floe serve --strict-signatures`, and with its unsigned fallback (/_floe/iceberg), which strict
signatures refuse.

Runs under the engines' virtual environment (tests/engines/requirements.txt)."""

import contextlib
import datetime
import json
import os
import subprocess
import sys
import unittest

E2E_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(E2E_DIR, "..", "engines"))
sys.path.insert(0, E2E_DIR)
import snippets  # noqa: E402

snippets.reexec_in_venv()

from floe_server import FloeServer, compact_and_expire, engine_env, strict_engine_server  # noqa: E402

import pyarrow as pa  # noqa: E402
from pyiceberg.expressions import EqualTo, LessThan  # noqa: E402

NODE = "node"
# Snapshot expiration's age rule (AWS's default keeps snapshots 120 hours): run it as of a day
# after that, so every snapshot but the current one is expired.
LATER = (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(days=6)).strftime("%Y-%m-%dT%H:%M:%SZ")


def orders(start, n):
    ids = list(range(start, start + n))
    return pa.table({"id": pa.array(ids, pa.int64()),
                     "category": pa.array(["abc"[i % 3] for i in ids], pa.string()),
                     "amount": pa.array([i * 0.5 for i in ids], pa.float64())})


class EnginesOnOneBucket(unittest.TestCase):
    """The steps run in order: each builds on the tables the previous ones wrote."""

    @classmethod
    def setUpClass(cls):
        engine_env()
        cls.server = FloeServer("--quiet", "--maintenance-interval", "0").start()
        import boto3
        cls.s3tables = boto3.client("s3tables", endpoint_url=cls.server.endpoint, region_name="us-east-1")
        cls.arn = cls.s3tables.create_table_bucket(name="engines-shared")["arn"]
        cls.catalog = snippets.run_python("pyiceberg-rest", cls.server.endpoint, cls.arn)["catalog"]
        cls.duck = snippets.duckdb_connect(cls.server.endpoint, cls.arn)

    @classmethod
    def tearDownClass(cls):
        cls.duck.close()
        cls.server.cleanup()

    # ---- what each engine reads ----

    def pyiceberg_rows(self, name):
        t = self.catalog.load_table(name).scan().to_arrow()
        return sorted(tuple(r.values()) for r in t.to_pylist())

    def duckdb_rows(self, name, columns):
        return sorted(self.duck.execute("SELECT %s FROM floe.%s" % (columns, name)).fetchall())

    def icebird_rows(self, name, columns):
        if not os.path.exists(os.path.join(E2E_DIR, "node_modules", "icebird")):
            self.skipTest("icebird is not installed")
        location = self.catalog.load_table(name).metadata_location
        out = subprocess.run([NODE, os.path.join(E2E_DIR, "icebird_read.mjs"), self.server.endpoint, location],
                             capture_output=True, text=True, timeout=120, cwd=E2E_DIR)
        self.assertEqual(out.returncode, 0, "icebird reads %s: %s" % (name, out.stderr[-2000:]))
        rows = [json.loads(line) for line in out.stdout.splitlines()]
        return sorted(tuple(r[c] for c in columns) for r in rows)

    def assertEnginesAgree(self, name, columns, expected, when, icebird=True):
        """`icebird=False` where DuckDB wrote the manifests: icebird 0.3.1's Avro reader refuses a
        primitive written as a schema object ({"type": "int"}), which DuckDB writes (valid Avro)."""
        cols = ", ".join(columns)
        self.assertEqual(self.pyiceberg_rows(name), expected, "PyIceberg reads %s %s" % (name, when))
        self.assertEqual(self.duckdb_rows(name, cols), expected, "DuckDB reads %s %s" % (name, when))
        if icebird:
            self.assertEqual(self.icebird_rows(name, columns), expected, "icebird reads %s %s" % (name, when))

    def live_files(self, name):
        """The table's live data files, and its live position delete files, as PyIceberg lists them."""
        t = self.catalog.load_table(name)
        deletes = t.inspect.delete_files().to_pylist()
        self.assertTrue(all(d["content"] == 1 for d in deletes), "%s has position deletes only" % name)
        return len(t.inspect.data_files().to_pylist()), len(deletes)

    def maintain(self, name):
        """Floe's compaction, then snapshot expiration, on one table, through `floe maintenance run`."""
        ns, table = name.split(".")
        arn = self.s3tables.get_table(tableBucketARN=self.arn, namespace=ns, name=table)["tableARN"]
        return compact_and_expire(self, self.server.endpoint, arn, LATER)

    # ---- the steps ----

    def test_1_duckdb_reads_pyiceberg_tables_including_after_deletes(self):
        self.catalog.create_namespace("shop")
        t = self.catalog.create_table("shop.orders", schema=orders(0, 1).schema)
        for start in (0, 1000, 2000):
            t.append(orders(start, 1000))
        t.delete(delete_filter=LessThan("id", 250))
        t.delete(delete_filter=EqualTo("category", "b"))
        expected = sorted(tuple(r.values()) for r in orders(0, 3000).to_pylist() if r["id"] >= 250 and r["category"] != "b")
        self.assertEnginesAgree("shop.orders", ("id", "category", "amount"), expected, "after PyIceberg's deletes")
        read = snippets.render("duckdb-read", self.server.endpoint, self.arn, namespace="shop", table="orders")
        self.assertEqual(self.duck.execute(read).fetchall(), [(len(expected),)], "the page's read block counts the rows")

        results = self.maintain("shop.orders")
        self.assertGreater(results["icebergCompaction"]["filesRead"], 1, "compaction read the small files")
        self.assertGreater(results["icebergSnapshotManagement"]["snapshotsExpired"], 0, "old snapshots expired")
        self.assertEqual(len(self.catalog.load_table("shop.orders").metadata.snapshots), 1,
                         "only the current snapshot is left")
        self.assertEnginesAgree("shop.orders", ("id", "category", "amount"), expected, "after Floe's maintenance")

    def test_2_pyiceberg_reads_what_duckdb_wrote(self):
        d = self.duck
        d.execute("CREATE SCHEMA IF NOT EXISTS floe.duck")
        d.execute("CREATE TABLE floe.duck.items (id BIGINT, name VARCHAR, price DOUBLE)")
        d.execute("INSERT INTO floe.duck.items SELECT i, 'item-' || i, i * 1.25 FROM range(0, 500) t(i)")
        d.execute("INSERT INTO floe.duck.items SELECT i, 'item-' || i, i * 1.25 FROM range(500, 800) t(i)")
        self.assertIn(("duck",), self.catalog.list_namespaces(), "PyIceberg sees DuckDB's schema as a namespace")
        expected = sorted((i, "item-%d" % i, i * 1.25) for i in range(800))
        self.assertEnginesAgree("duck.items", ("id", "name", "price"), expected, "after DuckDB's inserts",
                                icebird=False)

        d.execute("UPDATE floe.duck.items SET price = -1 WHERE id % 100 = 0")
        d.execute("DELETE FROM floe.duck.items WHERE id >= 700")
        expected = sorted((i, "item-%d" % i, -1.0 if i % 100 == 0 else i * 1.25) for i in range(700))
        self.assertEnginesAgree("duck.items", ("id", "name", "price"), expected, "after DuckDB's update and delete",
                                icebird=False)

        data_files, delete_files = self.live_files("duck.items")
        self.assertGreater(delete_files, 0, "DuckDB's merge-on-read update and delete wrote position delete files")

        message = self.maintain("duck.items")["icebergCompaction"]["message"]
        self.assertIn("compacted %d data files into 1" % data_files, message,
                      "compaction rewrote every data file, applying the position deletes: %s" % message)
        self.assertIn("%d position delete files removed" % delete_files, message, message)
        self.assertEqual(self.live_files("duck.items"), (1, 0),
                         "one data file is left, and the position delete files left the table with the files they name")
        self.assertEnginesAgree("duck.items", ("id", "name", "price"), expected, "after Floe's maintenance",
                                icebird=False)

    def test_3_a_table_made_with_the_s3_tables_api(self):
        self.s3tables.create_namespace(tableBucketARN=self.arn, namespace=["api"])
        self.s3tables.create_table(
            tableBucketARN=self.arn, namespace="api", name="events", format="ICEBERG",
            metadata={"iceberg": {"schema": {"fields": [
                {"name": "id", "type": "long", "required": True}, {"name": "kind", "type": "string"}]}}})
        t = self.catalog.load_table("api.events")
        t.append(pa.table({"id": pa.array(range(100), pa.int64()), "kind": ["k%d" % (i % 4) for i in range(100)]},
                          schema=t.schema().as_arrow()))
        location = self.s3tables.get_table_metadata_location(tableBucketARN=self.arn, namespace="api", name="events")
        self.assertEqual(location["metadataLocation"], self.catalog.load_table("api.events").metadata_location,
                         "GetTableMetadataLocation names the metadata PyIceberg committed")
        d = self.duck
        d.execute("INSERT INTO floe.api.events VALUES (100, 'duck'), (101, 'duck')")
        expected = sorted([(i, "k%d" % (i % 4)) for i in range(100)] + [(100, "duck"), (101, "duck")])
        self.assertEnginesAgree("api.events", ("id", "kind"), expected, "written by PyIceberg and DuckDB",
                                icebird=False)
        self.maintain("api.events")
        self.assertEnginesAgree("api.events", ("id", "kind"), expected, "after Floe's maintenance", icebird=False)

    def test_4_duckdb_drops_a_table_with_its_data(self):
        d = self.duck
        d.execute("CREATE TABLE floe.duck.scratch (id BIGINT)")
        d.execute("INSERT INTO floe.duck.scratch VALUES (1)")
        d.execute("DROP TABLE floe.duck.scratch")
        self.assertNotIn(("duck", "scratch"), self.catalog.list_tables("duck"), "DuckDB's DROP TABLE purges the table")

    def test_5_the_unsigned_fallback_reads_and_writes_the_same_tables(self):
        with contextlib.closing(snippets.duckdb_connect(self.server.endpoint, self.arn,
                                                        attach="duckdb-attach-unsigned")) as duck:
            self.assertEqual(sorted(duck.execute("SELECT id, kind FROM floe.api.events").fetchall()),
                             self.duckdb_rows("api.events", "id, kind"),
                             "the alias reads what the signed catalog reads")
            duck.execute("INSERT INTO floe.api.events VALUES (102, 'alias')")
            self.assertIn((102, "alias"), self.pyiceberg_rows("api.events"), "PyIceberg reads the alias's insert")
            duck.execute("CREATE TABLE floe.api.scratch (id BIGINT)")
            duck.execute("DROP TABLE floe.api.scratch")
            self.assertNotIn(("api", "scratch"), self.catalog.list_tables("api"), "the alias's DROP TABLE purges")


class SignedAttachUnderStrictSignatures(unittest.TestCase):
    """The page's signed DuckDB block against `floe serve --strict-signatures`, whose credentials
    are the keys the block names (as `floe env --credentials` exports them): DuckDB creates,
    writes, deletes and drops through SigV4, PyIceberg's block reads DuckDB's rows, and the
    unsigned fallback is refused."""

    @classmethod
    def setUpClass(cls):
        cls.server, cls.arn = strict_engine_server("floe", "floe", "duckdb-strict")
        cls.catalog = snippets.run_python("pyiceberg-rest", cls.server.endpoint, cls.arn)["catalog"]

    @classmethod
    def tearDownClass(cls):
        cls.server.cleanup()

    def test_duckdb_writes_through_sigv4_and_pyiceberg_reads_its_rows(self):
        with contextlib.closing(snippets.duckdb_connect(self.server.endpoint, self.arn)) as d:
            d.execute("CREATE SCHEMA floe.strict")
            d.execute("CREATE TABLE floe.strict.items (id BIGINT, name VARCHAR)")
            d.execute("INSERT INTO floe.strict.items SELECT i, 'item-' || i FROM range(0, 100) t(i)")
            d.execute("DELETE FROM floe.strict.items WHERE id < 10")
            d.execute("UPDATE floe.strict.items SET name = 'updated' WHERE id = 50")
            expected = [(i, "updated" if i == 50 else "item-%d" % i) for i in range(10, 100)]
            self.assertIn("items", [r[2] for r in d.execute("SHOW ALL TABLES").fetchall()], "SHOW ALL TABLES lists it")
            self.assertEqual(sorted(d.execute("SELECT id, name FROM floe.strict.items").fetchall()), expected,
                             "DuckDB reads its own writes")
            rows = self.catalog.load_table("strict.items").scan().to_arrow().to_pylist()
            self.assertEqual(sorted((r["id"], r["name"]) for r in rows), expected, "PyIceberg reads DuckDB's rows")
            d.execute("DROP TABLE floe.strict.items")
            self.assertEqual(self.catalog.list_tables("strict"), [], "DuckDB's DROP TABLE purged the table")

    def test_the_unsigned_fallback_is_refused(self):
        import duckdb
        with self.assertRaisesRegex(duckdb.Error, "403"):
            snippets.duckdb_connect(self.server.endpoint, self.arn, attach="duckdb-attach-unsigned")


if __name__ == "__main__":
    unittest.main(verbosity=2)

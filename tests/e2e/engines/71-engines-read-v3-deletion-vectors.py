#!/usr/bin/python3
"""PyIceberg creates a format version 3 table through Floe's REST catalog (it cannot write one: its
manifest writer stops at v2). PyIceberg, DuckDB and icebird read a format version 3 table with a deletion vector (a Puffin
file of a deletion-vector-v1 blob, written by tests/e2e/iceberg_write_v3.mjs as merge-on-read
engines write it) before and after Floe compacts it: PyIceberg and DuckDB apply the vector before,
and all three read the same rows after the compaction applied it and the vector left the table
(icebird reads no Puffin file, so it reads only after), and pyarrow reads exact min/max statistics
of the row group compaction wrote again without the deleted row. Snapshot expiration then deletes
the Puffin file and the rows stay. A second table with a list column (tags) shows
compaction applying a vector to a file with a repeated column: PyIceberg and DuckDB read the same
ids and lists after.

Runs under the engines' virtual environment (tests/engines/requirements.txt)."""

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

from floe_server import FLOE_BIN, FloeServer, engine_env  # noqa: E402

NODE = "node"
LATER = (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(days=6)).strftime("%Y-%m-%dT%H:%M:%SZ")
KEPT = [0, 2, 6, 7, 8]  # ids 1, 3, 4 and 5 are deleted by the vector
TAGGED_KEPT = [0, 2, 3, 5, 6, 7, 8]  # sales.tagged: ids 1 and 4 are deleted


def tags_of(i):
    """The tags iceberg_write_v3.mjs gives id i."""
    return [None, [], ["a%d" % i, None], ["x", "y", "z%d" % i]][i % 4]


class EnginesReadV3DeletionVectors(unittest.TestCase):
    """The steps run in order on one table."""

    @classmethod
    def setUpClass(cls):
        engine_env()
        cls.server = FloeServer("--quiet", "--maintenance-interval", "0").start()
        if not os.path.exists(os.path.join(E2E_DIR, "node_modules", "icebird")):
            raise unittest.SkipTest("npm packages are missing: run npm ci in tests/e2e")
        out = subprocess.run([NODE, os.path.join(E2E_DIR, "iceberg_write_v3.mjs"), cls.server.endpoint, "engines-v3"],
                             capture_output=True, text=True, timeout=120, cwd=E2E_DIR)
        if out.returncode != 0:
            raise RuntimeError("iceberg_write_v3.mjs: %s" % out.stderr[-2000:])
        cls.table = json.loads(out.stdout.splitlines()[-1])
        cls.catalog = snippets.run_python("pyiceberg-rest", cls.server.endpoint, cls.table["bucketArn"])["catalog"]
        cls.duck = snippets.duckdb_connect(cls.server.endpoint, cls.table["bucketArn"])

    @classmethod
    def tearDownClass(cls):
        duck = getattr(cls, "duck", None)
        if duck is not None:
            duck.close()
        cls.server.cleanup()

    def pyiceberg_ids(self):
        return sorted(self.catalog.load_table("sales.events").scan().to_arrow().column("id").to_pylist())

    def duckdb_ids(self):
        return sorted(r[0] for r in self.duck.execute("SELECT id FROM floe.sales.events").fetchall())

    def icebird_ids(self):
        location = self.catalog.load_table("sales.events").metadata_location
        out = subprocess.run([NODE, os.path.join(E2E_DIR, "icebird_read.mjs"), self.server.endpoint, location],
                             capture_output=True, text=True, timeout=120, cwd=E2E_DIR)
        self.assertEqual(out.returncode, 0, "icebird reads the table: %s" % out.stderr[-2000:])
        return sorted(json.loads(line)["id"] for line in out.stdout.splitlines())

    def s3_get(self, location):
        import boto3
        s3 = boto3.client("s3", endpoint_url=self.server.endpoint, region_name="us-east-1")
        bucket, key = location[len("s3://"):].split("/", 1)
        return s3.get_object(Bucket=bucket, Key=key)["Body"].read()

    def delete_files(self):
        return [t for t in self.catalog.load_table("sales.events").inspect.files().to_pylist() if t["content"] != 0]

    def run_job(self, job, *extra):
        out = subprocess.run([FLOE_BIN, "maintenance", "run", "--endpoint", self.server.endpoint,
                              "--arn", self.table["tableArn"], "--type", job] + list(extra),
                             capture_output=True, text=True, timeout=120)
        self.assertEqual(out.returncode, 0, "floe maintenance run %s: %s%s" % (job, out.stdout, out.stderr))
        result = json.loads(out.stdout)
        self.assertEqual(result["status"], "Successful", "%s succeeds: %s" % (job, out.stdout))
        return result

    def test_0_pyiceberg_creates_a_v3_table(self):
        from pyiceberg.schema import Schema
        from pyiceberg.types import LongType, NestedField
        created = self.catalog.create_table("sales.created_by_pyiceberg", schema=Schema(
            NestedField(1, "id", LongType(), required=False)), properties={"format-version": "3"})
        loaded = self.catalog.load_table("sales.created_by_pyiceberg").metadata
        self.assertEqual((created.metadata.format_version, loaded.format_version), (3, 3),
                         "PyIceberg's create_table with format-version 3 makes a v3 table through Floe")
        self.assertEqual(loaded.next_row_id, 0, "a new v3 table starts at next-row-id 0")
        self.assertNotIn("format-version", loaded.properties, "format-version is not kept as a property")

    def test_1_pyiceberg_and_duckdb_apply_the_vector(self):
        self.assertEqual(self.catalog.load_table("sales.events").metadata.format_version, 3, "the table is v3")
        vectors = self.delete_files()
        self.assertEqual(len(vectors), 1, "one deletion vector is live")
        self.assertEqual(vectors[0]["file_format"], "PUFFIN", "in a Puffin file")
        type(self).puffin = vectors[0]["file_path"]
        self.assertEqual(self.pyiceberg_ids(), KEPT, "PyIceberg applies the deletion vector")
        self.assertEqual(self.duckdb_ids(), KEPT, "DuckDB applies the deletion vector")

    def test_2_after_compaction_every_engine_reads_the_same_rows(self):
        result = self.run_job("icebergCompaction")
        self.assertIn("applied 1 deletion vectors", result["message"], "compaction applied the vector")
        self.assertEqual(self.delete_files(), [], "no delete file is left")
        self.assertEqual(self.pyiceberg_ids(), KEPT, "PyIceberg reads the same rows after compaction")
        self.assertEqual(self.duckdb_ids(), KEPT, "DuckDB reads the same rows after compaction")
        self.assertEqual(self.icebird_ids(), KEPT, "icebird reads them too")

    def test_2b_the_row_group_written_again_keeps_statistics_engines_skip_by(self):
        import io
        import pyarrow.parquet as pq
        files = [f for f in self.catalog.load_table("sales.events").inspect.files().to_pylist() if f["content"] == 0]
        self.assertEqual(len(files), 1, "one data file is left")
        md = pq.ParquetFile(io.BytesIO(self.s3_get(files[0]["file_path"]))).metadata
        rewritten = [md.row_group(g) for g in range(md.num_row_groups) if md.row_group(g).num_rows == 2]
        self.assertEqual(len(rewritten), 1, "the first row group, less id 1, was written again")
        stats = [rewritten[0].column(c).statistics for c in range(3)]
        self.assertTrue(all(s is not None and s.has_min_max for s in stats), "pyarrow reads min/max statistics")
        self.assertEqual([(s.min, s.max) for s in stats[:2]], [(0, 2), ("r0", "r2")],
                         "the id and name bounds are the kept rows' (ids 0 and 2)")
        base = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)
        self.assertEqual((stats[2].min, stats[2].max), (base, base + datetime.timedelta(seconds=2)), "and ts's")
        metrics = files[0]["readable_metrics"]
        self.assertLessEqual(metrics["id"]["lower_bound"], min(KEPT), "the manifest's lower bound still holds")
        self.assertGreaterEqual(metrics["id"]["upper_bound"], max(KEPT), "and its upper bound")

    def tagged_rows_pyiceberg(self):
        rows = self.catalog.load_table("sales.tagged").scan().to_arrow().select(["id", "tags"]).to_pylist()
        return sorted((r["id"], r["tags"]) for r in rows)

    def tagged_rows_duckdb(self):
        return sorted((r[0], r[1]) for r in self.duck.execute("SELECT id, tags FROM floe.sales.tagged").fetchall())

    def test_4_a_vector_on_a_file_with_a_list_column_is_applied(self):
        want = [(i, tags_of(i)) for i in TAGGED_KEPT]
        self.assertEqual(self.tagged_rows_pyiceberg(), want, "PyIceberg applies the vector before compaction")
        out = subprocess.run([FLOE_BIN, "maintenance", "run", "--endpoint", self.server.endpoint,
                              "--arn", self.table["taggedArn"], "--type", "icebergCompaction"],
                             capture_output=True, text=True, timeout=120)
        self.assertEqual(out.returncode, 0, "compaction runs: %s%s" % (out.stdout, out.stderr))
        result = json.loads(out.stdout)
        self.assertEqual(result["status"], "Successful", out.stdout)
        self.assertIn("applied 1 deletion vectors", result["message"], "the vector is applied, not skipped")
        self.assertEqual([t for t in self.catalog.load_table("sales.tagged").inspect.files().to_pylist()
                          if t["content"] != 0], [], "no delete file is left")
        self.assertEqual(self.tagged_rows_pyiceberg(), want, "PyIceberg reads the kept rows and their lists")
        self.assertEqual(self.tagged_rows_duckdb(), want, "DuckDB reads them too")

    def test_3_snapshot_expiration_deletes_the_puffin_file_and_the_rows_stay(self):
        result = self.run_job("icebergSnapshotManagement", "--now", LATER)
        self.assertGreater(result["snapshotsExpired"], 0, "the older snapshots expired")
        self.assertGreater(result["filesDeleted"], 0, "their files were deleted")
        import boto3
        s3 = boto3.client("s3", endpoint_url=self.server.endpoint, region_name="us-east-1")
        bucket, key = self.puffin[len("s3://"):].split("/", 1)
        with self.assertRaises(s3.exceptions.NoSuchKey, msg="the Puffin file is deleted"):
            s3.get_object(Bucket=bucket, Key=key)
        self.assertEqual(self.pyiceberg_ids(), KEPT, "PyIceberg reads the same rows after expiration")
        self.assertEqual(self.duckdb_ids(), KEPT, "DuckDB too")


if __name__ == "__main__":
    unittest.main(verbosity=2)

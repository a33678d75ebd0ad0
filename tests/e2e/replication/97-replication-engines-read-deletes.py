#!/usr/bin/python3
"""PyIceberg and DuckDB read a replica (docs/replication.md) and apply the deletes its source has,
so they read the source's rows, the deleted ones absent: a format version 3 table's deletion
vector (a Puffin file, written by tests/e2e/iceberg_write_v3.mjs as merge-on-read engines write
it) and a v2 table's Parquet position delete file (written by DuckDB's DELETE). Both engines match
a delete file's contents against the manifest's data file paths (a Puffin blob's
referenced-data-file, the file_path column), so the replica's copies must name the replica's data
files: a copy of the source's bytes names the source's and deletes nothing there.

Runs under the engines' virtual environment (tests/engines/requirements.txt)."""

import json
import os
import subprocess
import sys
import time
import unittest

E2E_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(E2E_DIR, "..", "engines"))
sys.path.insert(0, E2E_DIR)
import snippets  # noqa: E402

snippets.reexec_in_venv()

from floe_server import FloeServer, engine_env  # noqa: E402

NODE = "node"
ROLE = "arn:aws:iam::000000000000:role/replication"
WAIT_S = 20
V3_KEPT = [0, 2, 6, 7, 8]  # iceberg_write_v3.mjs: its vector deletes ids 1, 3, 4 and 5
V2_KEPT = [i for i in range(100) if i % 7 != 0 and not 40 <= i < 50]


class ReplicaEnginesApplyDeletes(unittest.TestCase):
    """Each step writes a table with deletes into the source bucket, replicates it, and reads both."""

    @classmethod
    def setUpClass(cls):
        engine_env()
        cls.server = FloeServer("--quiet", "--maintenance-interval", "0").start()
        if not os.path.exists(os.path.join(E2E_DIR, "node_modules", "icebird")):
            raise unittest.SkipTest("npm packages are missing: run npm ci in tests/e2e")
        out = subprocess.run([NODE, os.path.join(E2E_DIR, "iceberg_write_v3.mjs"), cls.server.endpoint, "origin"],
                             capture_output=True, text=True, timeout=120, cwd=E2E_DIR)
        if out.returncode != 0:
            raise RuntimeError("iceberg_write_v3.mjs: %s" % out.stderr[-2000:])
        cls.v3 = json.loads(out.stdout.splitlines()[-1])
        import boto3
        cls.s3tables = boto3.client("s3tables", endpoint_url=cls.server.endpoint, region_name="us-east-1")
        cls.source_arn = cls.v3["bucketArn"]
        cls.replica_arn = cls.s3tables.create_table_bucket(name="copy")["arn"]
        cls.source = snippets.run_python("pyiceberg-rest", cls.server.endpoint, cls.source_arn)["catalog"]
        cls.replica = snippets.run_python("pyiceberg-rest", cls.server.endpoint, cls.replica_arn)["catalog"]

    @classmethod
    def tearDownClass(cls):
        cls.server.cleanup()

    def replicate(self, namespace, name):
        """Configures replication of the table to the replica bucket and waits until the replica
        holds the source's current metadata."""
        arn = self.s3tables.get_table(tableBucketARN=self.source_arn, namespace=namespace, name=name)["tableARN"]
        location = self.s3tables.get_table_metadata_location(
            tableBucketARN=self.source_arn, namespace=namespace, name=name)["metadataLocation"]
        self.s3tables.put_table_replication(tableArn=arn, configuration={
            "role": ROLE, "rules": [{"destinations": [{"destinationTableBucketARN": self.replica_arn}]}]})
        deadline, entry = time.monotonic() + WAIT_S, None
        while time.monotonic() < deadline:
            out = self.s3tables.get_table_replication_status(tableArn=arn)
            entry = out["destinations"][0]
            if entry["replicationStatus"] == "completed" and \
                    entry.get("lastSuccessfulReplicatedUpdate", {}).get("metadataLocation") == location:
                return
            time.sleep(0.02)
        self.fail("the replica did not catch up within %ds: %s" % (WAIT_S, entry))

    def pyiceberg_ids(self, catalog, name):
        return sorted(catalog.load_table(name).scan().to_arrow().column("id").to_pylist())

    def duckdb_ids(self, arn, name):
        duck = snippets.duckdb_connect(self.server.endpoint, arn)  # a new one: DuckDB caches what it attached
        try:
            return sorted(r[0] for r in duck.execute("SELECT id FROM floe.%s" % name).fetchall())
        finally:
            duck.close()

    def delete_files(self, catalog, name):
        return [f for f in catalog.load_table(name).inspect.files().to_pylist() if f["content"] == 1]

    def assertReplicaReadsTheSourcesRows(self, name, kept, file_format):
        source, replica = self.delete_files(self.source, name), self.delete_files(self.replica, name)
        self.assertEqual([f["file_format"] for f in source], [file_format],
                         "the source has one %s position delete file" % file_format)
        self.assertEqual(len(replica), 1, "so does the replica")
        location = self.replica.load_table(name).metadata.location
        self.assertTrue(replica[0]["file_path"].startswith(location + "/"),
                        "its delete file lies in its own warehouse: %s" % replica[0]["file_path"])
        self.assertEqual(self.pyiceberg_ids(self.source, name), kept, "PyIceberg applies the source's deletes")
        self.assertEqual(self.pyiceberg_ids(self.replica, name), kept, "and the replica's: the same rows")
        self.assertEqual(self.duckdb_ids(self.source_arn, name), kept, "DuckDB applies the source's deletes")
        self.assertEqual(self.duckdb_ids(self.replica_arn, name), kept, "and the replica's: the same rows")

    def test_1_a_v3_tables_deletion_vector_applies_in_the_replica(self):
        self.replicate("sales", "events")
        self.assertEqual(self.replica.load_table("sales.events").metadata.format_version, 3, "the replica is v3")
        self.assertReplicaReadsTheSourcesRows("sales.events", V3_KEPT, "PUFFIN")

    def test_2_a_v2_tables_parquet_position_deletes_apply_in_the_replica(self):
        duck = snippets.duckdb_connect(self.server.endpoint, self.source_arn)
        try:
            duck.execute("CREATE SCHEMA IF NOT EXISTS floe.shop")
            duck.execute("CREATE TABLE floe.shop.items (id BIGINT, name VARCHAR)")
            duck.execute("INSERT INTO floe.shop.items SELECT i, 'item-' || i FROM range(0, 100) t(i)")
            duck.execute("DELETE FROM floe.shop.items WHERE id % 7 = 0 OR (id >= 40 AND id < 50)")
        finally:
            duck.close()
        self.assertEqual(self.source.load_table("shop.items").metadata.format_version, 2, "DuckDB made a v2 table")
        self.replicate("shop", "items")
        self.assertReplicaReadsTheSourcesRows("shop.items", V2_KEPT, "PARQUET")


if __name__ == "__main__":
    unittest.main(verbosity=2)

#!/usr/bin/python3
"""Iceberg format version 3 written by Spark through Floe: row lineage and deletion vectors, read
back by Spark, PyIceberg, DuckDB and icebird, before and after Floe's maintenance.

Spark 3.5 with Iceberg 1.10 creates a table with 'format-version'='3' through the REST catalog and
writes it through both catalogs (REST and AWS's S3 Tables catalog): inserts, then merge-on-read
DELETE and UPDATE, which on v3 write deletion vectors (Puffin files, one `deletion-vector-v1` blob per
data file). Checked:
  - the metadata (read through the S3 Tables API and S3, as any client would): format version 3,
    each snapshot's `first-row-id` is the table's `next-row-id` before it, which then advances by
    the snapshot's `added-rows`;
  - Spark's row-lineage columns `_row_id` and `_last_updated_sequence_number` (Spark 3.5 exposes
    them with Iceberg 1.10): unique row ids below `next-row-id`, kept by an update, which moves the
    row's sequence number to the update's;
  - the delete files are deletion vectors (Puffin, with `referenced_data_file`, `content_offset`
    and `content_size_in_bytes`);
  - PyIceberg and DuckDB read exactly Spark's rows; icebird 0.3.1 reads the table as of its
    inserts (it reads every delete file as Parquet, so it cannot apply deletion vectors);
  - after Floe's compaction (which applies the deletion vectors: none is left, and icebird reads the
    current table) and snapshot expiration every engine reads the same rows, the rows keep their
    lineage, and Spark writes on.

Runs under the engines' virtual environment (PyIceberg, DuckDB), with PySpark from
<build>/engines-spark on the path.
"""

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

from floe_server import FLOE_BIN  # noqa: E402
from spark_engine import SparkBesidePythonEngines, rows  # noqa: E402

NODE = "node"
LATER = (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(days=7)).strftime("%Y-%m-%dT%H:%M:%SZ")
NS, NAME = "lineage", "events"
TABLE = "%s.%s" % (NS, NAME)


class SparkFormatVersion3(SparkBesidePythonEngines):
    """The steps run in order (test_1 ... test_4): each builds on the table the previous ones wrote."""

    BUCKET, APP = "spark-format-v3", "floe-spark-format-v3"

    # ---- what the engines and the API see ----

    def metadata(self):
        """(location, metadata JSON) of the table's current metadata, through the S3 Tables API and S3."""
        loc = self.s3tables.get_table_metadata_location(tableBucketARN=self.arn, namespace=NS, name=NAME)
        bucket, key = loc["metadataLocation"][len("s3://"):].split("/", 1)
        return loc["metadataLocation"], json.loads(self.s3.get_object(Bucket=bucket, Key=key)["Body"].read())

    def spark_rows(self, cat="rest"):
        self.spark.sql("REFRESH TABLE %s.%s" % (cat, TABLE))
        return rows(self.spark, "SELECT id, kind FROM %s.%s" % (cat, TABLE))

    def lineage(self):
        """{id: (_row_id, _last_updated_sequence_number)} as Spark reads them."""
        self.spark.sql("REFRESH TABLE rest.%s" % TABLE)
        got = self.spark.sql("SELECT id, _row_id, _last_updated_sequence_number FROM rest.%s" % TABLE).collect()
        return {r[0]: (r[1], r[2]) for r in got}

    def icebird_rows(self, metadata_location):
        if not os.path.exists(os.path.join(E2E_DIR, "node_modules", "icebird")):
            self.fail("icebird is not installed (npm ci in tests/e2e)")
        out = subprocess.run([NODE, os.path.join(E2E_DIR, "icebird_read.mjs"), self.server.endpoint, metadata_location],
                             capture_output=True, text=True, timeout=120, cwd=E2E_DIR)
        self.assertEqual(out.returncode, 0, "icebird reads %s: %s" % (metadata_location, out.stderr[-2000:]))
        return sorted((r["id"], r["kind"]) for r in map(json.loads, out.stdout.splitlines()))

    def assertEnginesAgree(self, expected, when):
        for cat in ("rest", "s3t"):
            self.assertEqual(self.spark_rows(cat), expected, "Spark (catalog %s) reads the rows %s" % (cat, when))
        arrow = self.catalog.load_table(TABLE).scan(selected_fields=("id", "kind")).to_arrow()
        self.assertEqual(sorted((r["id"], r["kind"]) for r in arrow.to_pylist()), expected,
                         "PyIceberg reads Spark's rows %s" % when)
        self.assertEqual(sorted(self.duck.execute("SELECT id, kind FROM floe.%s" % TABLE).fetchall()), expected,
                         "DuckDB reads Spark's rows %s" % when)

    def assertRowLineage(self, md):
        """The spec's row lineage: each snapshot's first-row-id is where the previous one's rows end,
        and next-row-id is where the last one's end."""
        self.assertEqual(md["format-version"], 3)
        by_id = {s["snapshot-id"]: s for s in md["snapshots"]}
        chain, sid = [], md["current-snapshot-id"]
        while sid in by_id:
            chain.insert(0, by_id[sid])
            sid = by_id[sid].get("parent-snapshot-id")
        for before, after in zip(chain, chain[1:]):
            self.assertEqual(after["first-row-id"], before["first-row-id"] + before["added-rows"],
                             "snapshot %d's first-row-id follows its parent's rows" % after["snapshot-id"])
        self.assertEqual(md["next-row-id"], chain[-1]["first-row-id"] + chain[-1]["added-rows"],
                         "next-row-id follows the current snapshot's rows")

    # ---- the steps ----

    def test_1_spark_creates_a_v3_table_and_floe_assigns_row_ids(self):
        t = "rest.%s" % TABLE
        self.spark.sql("CREATE NAMESPACE rest.%s" % NS)
        self.spark.sql("CREATE TABLE %s (id bigint, kind string) USING iceberg TBLPROPERTIES ('format-version'='3', "
                       "'write.delete.mode'='merge-on-read', 'write.update.mode'='merge-on-read')" % t)
        self.spark.sql("INSERT INTO %s SELECT id, 'a' FROM range(0, 100)" % t)
        self.spark.sql("INSERT INTO s3t.%s SELECT id, 'b' FROM range(100, 150)" % TABLE)
        location, md = self.metadata()
        self.assertRowLineage(md)
        self.assertEqual([(s["first-row-id"], s["added-rows"]) for s in md["snapshots"]], [(0, 100), (100, 50)],
                         "the two inserts got row ids 0-99 and 100-149")
        self.assertEqual(md["next-row-id"], 150)

        lineage = self.lineage()
        self.assertEqual(sorted(lineage), list(range(150)), "Spark reads every row with its lineage")
        self.assertEqual(sorted(r for r, _ in lineage.values()), list(range(150)),
                         "every row has its own _row_id, from the snapshots' first-row-ids")
        self.assertEqual({i: s for i, (_, s) in lineage.items()}, {i: 1 if i < 100 else 2 for i in range(150)},
                         "_last_updated_sequence_number is the sequence number of the insert that wrote the row")
        type(self).inserted = lineage
        type(self).after_inserts = location
        self.assertEqual(self.icebird_rows(location), [(i, "a" if i < 100 else "b") for i in range(150)],
                         "icebird reads Spark's v3 table")

    def test_2_merge_on_read_writes_deletion_vectors(self):
        t = "rest.%s" % TABLE
        self.spark.sql("DELETE FROM %s WHERE id %% 7 = 0" % t)
        self.spark.sql("REFRESH TABLE s3t.%s" % TABLE)  # its catalog cached the table before the delete
        self.spark.sql("UPDATE s3t.%s SET kind = 'updated' WHERE id IN (3, 120)" % TABLE)
        deletes = self.spark.sql("SELECT file_format, referenced_data_file, content_offset, content_size_in_bytes "
                                 "FROM %s.delete_files" % t).collect()
        self.assertGreater(len(deletes), 0, "merge-on-read wrote delete files")
        for d in deletes:
            self.assertEqual(d[0], "PUFFIN", "each is a deletion vector in a Puffin file")
            self.assertTrue(d[1] and d[2] is not None and d[3], "naming its data file and its blob's place: %s" % (d,))
        _, md = self.metadata()
        self.assertRowLineage(md)
        summary = [s for s in md["snapshots"] if s["snapshot-id"] == md["current-snapshot-id"]][0]
        self.assertGreater(int(summary["summary"].get("added-dvs", "0")), 0, "the update added deletion vectors")

        lineage = self.lineage()
        expected_ids = [i for i in range(150) if i % 7]
        self.assertEqual(sorted(lineage), expected_ids, "the deleted rows are gone")
        for i in expected_ids:
            if i in (3, 120):
                self.assertEqual(lineage[i], (self.inserted[i][0], summary["sequence-number"]),
                                 "an updated row keeps its _row_id and takes the update's sequence number")
            else:
                self.assertEqual(lineage[i], self.inserted[i], "a row the writes did not touch keeps its lineage")
        type(self).lineage_before = lineage
        type(self).expected = sorted((i, "updated" if i in (3, 120) else "a" if i < 100 else "b")
                                     for i in expected_ids)
        self.assertEnginesAgree(self.expected, "after Spark's deletion vectors")
        self.assertEqual(self.icebird_rows(self.after_inserts), [(i, "a" if i < 100 else "b") for i in range(150)],
                         "icebird still reads the table as of its inserts")

    def test_3_floes_maintenance_keeps_rows_and_lineage(self):
        arn = self.s3tables.get_table(tableBucketARN=self.arn, namespace=NS, name=NAME)["tableARN"]
        for job, extra in (("icebergCompaction", []), ("icebergSnapshotManagement", ["--now", LATER])):
            out = subprocess.run([FLOE_BIN, "maintenance", "run", "--endpoint", self.server.endpoint, "--arn", arn,
                                  "--type", job] + extra, capture_output=True, text=True, timeout=180)
            self.assertEqual(out.returncode, 0, "floe maintenance run %s: %s%s" % (job, out.stdout, out.stderr))
            result = json.loads(out.stdout)
            self.assertEqual(result["status"], "Successful", "%s succeeds: %s" % (job, out.stdout))
            if job == "icebergSnapshotManagement":
                self.assertGreater(result["snapshotsExpired"], 0, "old snapshots expired")
        location, md = self.metadata()
        self.assertEqual(len(md["snapshots"]), 1, "expiration left only the current snapshot")
        self.assertEqual(md["format-version"], 3, "the table stays v3")
        self.assertEnginesAgree(self.expected, "after Floe's compaction and expiration")
        self.assertEqual(self.lineage(), self.lineage_before, "every row keeps its _row_id and sequence number")
        self.assertEqual(self.spark.sql("SELECT count(*) FROM rest.%s.delete_files" % TABLE).collect()[0][0], 0,
                         "compaction applied Spark's deletion vectors: none is left")
        self.assertEqual(self.icebird_rows(location), self.expected,
                         "icebird, which applies no vector, reads the current table: the deleted rows left the data files")

    def test_4_spark_writes_on_after_maintenance(self):
        _, before = self.metadata()
        self.spark.sql("INSERT INTO rest.%s SELECT id, 'c' FROM range(1000, 1010)" % TABLE)
        _, md = self.metadata()
        self.assertEqual(md["next-row-id"], before["next-row-id"] + 10, "next-row-id advances by the rows added")
        lineage = self.lineage()
        self.assertEqual(sorted(lineage[i][0] for i in range(1000, 1010)),
                         list(range(before["next-row-id"], before["next-row-id"] + 10)),
                         "the new rows take the row ids after the old next-row-id")
        self.assertEnginesAgree(sorted(self.expected + [(i, "c") for i in range(1000, 1010)]),
                                "when Spark writes on top of Floe's maintenance")


if __name__ == "__main__":
    unittest.main(verbosity=2)

"""Spark and the S3 Tables API (boto3) on the same Floe tables, before and after Floe's maintenance.

A table the S3 Tables API created (CreateTable with a schema) is written and read by Spark through
both catalogs; what Spark commits is what the S3 Tables API reports (GetTableMetadataLocation, the
metadata file through S3 GetObject, row counts in the snapshot summary). Floe's own compaction and
snapshot expiration (`floe maintenance run`) then rewrite the table, and Spark reads the same rows
from the result and keeps writing to it.
"""

import json
import os
import sys
import warnings

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # tests/e2e: the shared helpers
from floe_server import FloeTestCase, compact_and_expire, main  # noqa: E402
from spark_engine import CATALOGS, require_spark, rows, scalar, spark_session  # noqa: E402

LATER = "2099-01-01T00:00:00Z"  # snapshot expiration's clock: every old snapshot is past its age


class SparkAcrossEnginesTest(FloeTestCase):
    server_args = ("--quiet", "--maintenance-interval", "0")

    @classmethod
    def setUpClass(cls):
        require_spark(cls)
        warnings.simplefilter("ignore", ResourceWarning)  # py4j's sockets
        super().setUpClass()
        cls.arn = cls.s3tables.create_table_bucket(name="spark-engines")["arn"]
        cls.s3 = cls.make_client("s3")
        cls.spark = spark_session(cls.server, cls.arn, "floe-spark-engines")

    @classmethod
    def tearDownClass(cls):
        if getattr(cls, "spark", None) is not None:
            cls.spark.stop()
        super().tearDownClass()

    def metadata_via_api(self, ns, name):
        """The table's current metadata as the S3 Tables API and S3 give it to any client."""
        loc = self.s3tables.get_table_metadata_location(tableBucketARN=self.arn, namespace=ns, name=name)
        bucket, key = loc["metadataLocation"][len("s3://"):].split("/", 1)
        body = self.s3.get_object(Bucket=bucket, Key=key)["Body"].read()
        return loc["metadataLocation"], json.loads(body)

    def total_records(self, md):
        current = [s for s in md["snapshots"] if s["snapshot-id"] == md["current-snapshot-id"]]
        return int(current[0]["summary"]["total-records"])

    def maintain(self, ns, name):
        """Floe's compaction, then snapshot expiration, on one table, through `floe maintenance run`."""
        arn = self.s3tables.get_table(tableBucketARN=self.arn, namespace=ns, name=name)["tableARN"]
        return compact_and_expire(self, self.server.endpoint, arn, LATER)

    def test_spark_and_the_s3_tables_api_share_tables_through_maintenance(self):
        for cat in CATALOGS:
            with self.subTest(catalog=cat):
                self.share_one_table(cat)

    def share_one_table(self, cat):
        ns, name = "api_%s" % cat, "events"
        t = "%s.%s.%s" % (cat, ns, name)
        self.s3tables.create_namespace(tableBucketARN=self.arn, namespace=[ns])
        self.s3tables.create_table(
            tableBucketARN=self.arn, namespace=ns, name=name, format="ICEBERG",
            metadata={"iceberg": {"schema": {"fields": [
                {"name": "id", "type": "long", "required": True}, {"name": "kind", "type": "string"}]}}})
        self.assertEqual(rows(self.spark, "SELECT * FROM %s" % t), [], "Spark reads the API's new table as empty")
        cols = [(f.name, f.dataType.simpleString(), f.nullable) for f in self.spark.table(t).schema.fields]
        self.assertEqual(cols, [("id", "bigint", False), ("kind", "string", True)],
                         "Spark sees the schema given to CreateTable")

        for start in (0, 100, 200):
            self.spark.sql("INSERT INTO %s SELECT id, concat('k', CAST(id %% 4 AS STRING)) FROM range(%d, %d)"
                           % (t, start, start + 100))
        self.spark.sql("ALTER TABLE %s SET TBLPROPERTIES ('write.delete.mode'='copy-on-write')" % t)
        self.spark.sql("DELETE FROM %s WHERE id %% 10 = 0" % t)
        expected = sorted((i, "k%d" % (i % 4)) for i in range(300) if i % 10 != 0)
        self.assertEqual(rows(self.spark, "SELECT * FROM %s" % t), expected, "Spark reads its writes")

        location, md = self.metadata_via_api(ns, name)
        latest = scalar(self.spark, "SELECT file FROM %s.metadata_log_entries ORDER BY timestamp DESC LIMIT 1" % t)
        self.assertEqual(location, latest, "GetTableMetadataLocation names Spark's last commit")
        self.assertEqual(self.total_records(md), len(expected), "the metadata the API points at counts Spark's rows")
        self.assertEqual(len(md["snapshots"]), 4, "four snapshots: three inserts and a delete")

        results = self.maintain(ns, name)
        self.assertGreater(results["icebergCompaction"]["filesRead"], 1, "compaction read Spark's small files")
        self.assertGreater(results["icebergSnapshotManagement"]["snapshotsExpired"], 0, "old snapshots expired")
        self.spark.sql("REFRESH TABLE %s" % t)
        self.assertEqual(rows(self.spark, "SELECT * FROM %s" % t), expected, "Spark reads Floe's compacted table")
        self.assertEqual(scalar(self.spark, "SELECT count(*) FROM %s.snapshots" % t), 1,
                         "Spark sees only the snapshot expiration kept")
        self.assertEqual(scalar(self.spark, "SELECT count(*) FROM %s.files" % t), 1,
                         "Spark sees the one file compaction wrote")

        self.spark.sql("INSERT INTO %s VALUES (1000, 'after')" % t)
        expected.append((1000, "after"))
        self.assertEqual(rows(self.spark, "SELECT * FROM %s" % t), sorted(expected),
                         "Spark writes on top of Floe's maintenance")
        self.assertEqual(self.total_records(self.metadata_via_api(ns, name)[1]), len(expected),
                         "the API's view of the table counts that row too")


if __name__ == "__main__":
    main()

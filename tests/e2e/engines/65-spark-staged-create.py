#!/usr/bin/python3
"""Spark's CTAS and RTAS through Iceberg's REST catalog on a Floe started with --iceberg-stage-create.

Iceberg's REST catalog creates a CTAS target with a staged create (`stage-create: true`), writes the
query's data files into the staged table's location, then commits the create. AWS's endpoint refuses
the staged create (engines/66-spark-sql.py checks Floe refuses it the same way by default);
`--iceberg-stage-create`, a difference from AWS, accepts it and reserves the staged table's storage,
so the CTAS's rows land in a table the S3 Tables API then lists, in the location the staged metadata
named. A CTAS that fails leaves no table.
"""

import os
import sys
import warnings

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # tests/e2e: the shared helpers
from floe_server import FloeTestCase, main  # noqa: E402
from spark_engine import require_spark, rows, scalar, spark_session  # noqa: E402


class SparkStagedCreateTest(FloeTestCase):
    server_args = ("--quiet", "--iceberg-stage-create")

    @classmethod
    def setUpClass(cls):
        require_spark(cls)
        warnings.simplefilter("ignore", ResourceWarning)  # py4j's sockets
        super().setUpClass()
        cls.arn = cls.s3tables.create_table_bucket(name="spark-staged")["arn"]
        cls.s3tables.create_namespace(tableBucketARN=cls.arn, namespace=["ctas"])
        cls.spark = spark_session(cls.server, cls.arn, "floe-spark-staged-create")

    @classmethod
    def tearDownClass(cls):
        if getattr(cls, "spark", None) is not None:
            cls.spark.stop()
        super().tearDownClass()

    def tables(self):
        return sorted(t["name"] for t in self.s3tables.list_tables(tableBucketARN=self.arn, namespace="ctas")["tables"])

    def test_ctas_and_rtas_through_the_rest_catalog(self):
        spark = self.spark
        spark.sql("CREATE TABLE rest.ctas.src (id bigint, kind string) USING iceberg")
        spark.sql("INSERT INTO rest.ctas.src SELECT id, concat('k', CAST(id % 3 AS STRING)) FROM range(0, 300)")

        spark.sql("CREATE TABLE rest.ctas.summary USING iceberg PARTITIONED BY (kind) "
                  "AS SELECT kind, count(*) AS n FROM rest.ctas.src GROUP BY kind")
        self.assertEqual(rows(spark, "SELECT * FROM rest.ctas.summary"), [("k0", 100), ("k1", 100), ("k2", 100)],
                         "CTAS wrote its rows, in files written before the create commit")
        self.assertEqual(self.tables(), ["src", "summary"], "the S3 Tables API lists the new table")
        table = self.s3tables.get_table(tableBucketARN=self.arn, namespace="ctas", name="summary")
        files = [r[0] for r in spark.sql("SELECT file_path FROM rest.ctas.summary.files").collect()]
        self.assertEqual(len(files), 3, "one data file per partition")
        for f in files:
            self.assertTrue(f.startswith(table["warehouseLocation"].rstrip("/") + "/"),
                            "%s lies in the table's warehouse, where the staged metadata placed it" % f)
        self.assertEqual(scalar(spark, "SELECT count(*) FROM s3t.ctas.summary"), 3, "AWS's catalog reads it too")

        spark.sql("REPLACE TABLE rest.ctas.summary USING iceberg AS SELECT max(id) AS top FROM rest.ctas.src")
        self.assertEqual(rows(spark, "SELECT * FROM rest.ctas.summary"), [(299,)], "RTAS replaced schema and rows")
        spark.sql("CREATE OR REPLACE TABLE rest.ctas.fresh USING iceberg AS SELECT id FROM rest.ctas.src WHERE id < 5")
        self.assertEqual(rows(spark, "SELECT * FROM rest.ctas.fresh"), [(i,) for i in range(5)],
                         "CREATE OR REPLACE ... AS SELECT of a new table stages it too")

        with self.assertRaises(Exception, msg="a CTAS whose query fails"):
            spark.sql("CREATE TABLE rest.ctas.broken USING iceberg AS "
                      "SELECT assert_true(id < 10) AS ok FROM rest.ctas.src").collect()
        self.assertEqual(self.tables(), ["fresh", "src", "summary"], "a CTAS that failed leaves no table")


if __name__ == "__main__":
    main()

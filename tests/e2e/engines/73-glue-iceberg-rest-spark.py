"""Spark SQL through the AWS Glue Iceberg REST endpoint, configured as AWS's guide shows it for S3
tables (`type rest`, `rest.signing-name glue`, warehouse `<account>:s3tablescatalog/<bucket>`,
S3FileIO, metrics reporting off), against a Floe with --strict-signatures: Iceberg's SigV4 signer
for `glue` verifies on every catalog call, S3FileIO's on every data file. Create a namespace and a
table, insert, read; the S3 Tables API (GetTableMetadataLocation) and the S3 Tables endpoint's
catalog see the same table, rows and version token, and a commit through either endpoint is read
through the other. ALTER TABLE ... RENAME is refused: Glue's endpoint does not advertise it.
"""

import os
import re
import sys
import warnings

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # tests/e2e: the shared helpers
from floe_server import FloeTestCase, create_glue_integration, main  # noqa: E402
from spark_engine import require_spark, rows, spark_session  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "..", "engines"))
import snippets  # noqa: E402

BUCKET = "glue-spark"
EXAMPLE_WAREHOUSE = "111122223333:s3tablescatalog/my-table-bucket"


def glue_catalog_conf(server, arn, warehouse):
    """The `spark-glue` block of docs/engines.md (AWS's guide's settings, only `uri` is Floe's),
    filled in for this test, as {key: value}."""
    text = snippets.render("spark-glue", server.endpoint, arn, **{EXAMPLE_WAREHOUSE: warehouse})
    conf = dict(re.findall(r'\.config\("([^"]+)", "([^"]+)"\)', text))
    assert conf.get("spark.sql.catalog.glue.rest.signing-name") == "glue", text
    return conf


class GlueEndpointThroughSpark(FloeTestCase):
    server_args = ("--quiet", "--strict-signatures", "--credentials", "floe-test:floe-test")

    @classmethod
    def setUpClass(cls):
        require_spark(cls)
        warnings.simplefilter("ignore", ResourceWarning)  # py4j's sockets
        super().setUpClass()
        cls.arn = cls.s3tables.create_table_bucket(name=BUCKET)["arn"]
        create_glue_integration(cls.make_client("glue"), cls.arn.split(":")[4])
        warehouse = "%s:s3tablescatalog/%s" % (cls.arn.split(":")[4], BUCKET)
        cls.spark = spark_session(cls.server, cls.arn, "floe-glue-spark",
                                  extra_conf=glue_catalog_conf(cls.server, cls.arn, warehouse))

    @classmethod
    def tearDownClass(cls):
        if getattr(cls, "spark", None) is not None:
            cls.spark.stop()
        super().tearDownClass()

    def metadata_location(self):
        got = self.s3tables.get_table_metadata_location(tableBucketARN=self.arn, namespace="sales", name="events")
        return got["versionToken"], got["metadataLocation"]

    def spark_location(self, catalog):
        return self.spark.sql("SELECT file FROM %s.sales.events.metadata_log_entries ORDER BY timestamp DESC LIMIT 1"
                              % catalog).collect()[0][0]

    def test_create_insert_read_across_both_endpoints(self):
        sql = self.spark.sql
        sql("CREATE NAMESPACE glue.sales")
        self.assertEqual([n["namespace"][0] for n in self.s3tables.list_namespaces(tableBucketARN=self.arn)["namespaces"]],
                         ["sales"], "the S3 Tables API lists the namespace Spark made through Glue's endpoint")
        sql("CREATE TABLE glue.sales.events (id BIGINT, name STRING) USING iceberg")
        sql("INSERT INTO glue.sales.events VALUES (1, 'a'), (2, 'b'), (3, 'c')")
        expected = [(1, "a"), (2, "b"), (3, "c")]
        self.assertEqual(rows(self.spark, "SELECT * FROM glue.sales.events"), expected, "reads back the insert")

        token, location = self.metadata_location()
        self.assertEqual(location, self.spark_location("glue"), "GetTableMetadataLocation names Spark's commit")
        sql("INSERT INTO glue.sales.events VALUES (4, 'd')")
        expected.append((4, "d"))
        token2, location2 = self.metadata_location()
        self.assertNotEqual(token2, token, "a commit through Glue's endpoint moves the version token")
        self.assertEqual(location2, self.spark_location("glue"), "to that commit")

        self.assertEqual(rows(self.spark, "SELECT * FROM rest.sales.events"), expected,
                         "the S3 Tables endpoint's catalog reads the same table")
        sql("INSERT INTO rest.sales.events VALUES (5, 'e')")
        expected.append((5, "e"))
        sql("REFRESH TABLE glue.sales.events")
        self.assertEqual(rows(self.spark, "SELECT * FROM glue.sales.events"), expected,
                         "Glue's endpoint reads a commit made through the S3 Tables endpoint")
        self.assertNotEqual(self.metadata_location()[0], token2, "which moved the same token")

    def test_rename_is_refused_for_s3_tables(self):
        sql = self.spark.sql
        sql("CREATE NAMESPACE IF NOT EXISTS glue.other")
        sql("CREATE TABLE glue.other.t (id BIGINT) USING iceberg")
        with self.assertRaisesRegex(Exception, "does not support endpoint: POST /v1/{prefix}/tables/rename",
                                    msg="Glue's endpoint advertises no rename, so Iceberg refuses it"):
            sql("ALTER TABLE glue.other.t RENAME TO other.t2")
        self.assertEqual([t["name"] for t in self.s3tables.list_tables(tableBucketARN=self.arn, namespace="other")["tables"]],
                         ["t"], "the table keeps its name")


if __name__ == "__main__":
    main()

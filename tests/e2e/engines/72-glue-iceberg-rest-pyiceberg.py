#!/usr/bin/python3
"""PyIceberg, unchanged, through the AWS Glue Iceberg REST endpoint as AWS's guide configures it
(the `pyiceberg-glue` block of docs/engines.md: `rest.signing-name glue`, warehouse
`<account>:s3tablescatalog/<bucket>`): GET /v1/config answers Glue's prefix; create a namespace and
a table, append, read. The S3 Tables API (GetTable, GetTableMetadataLocation) and the S3 Tables
Iceberg REST endpoint then see the same table, rows and version token, and a commit through either
endpoint moves the token the other reads. Where Glue's endpoint differs from the S3 Tables one,
Floe differs the same way: no views, and only the operations Glue's guide lists are advertised
(no RenameTable: PyIceberg refuses the rename itself). Bad catalog ids, a bucket that
does not exist, the default catalog and another account's catalog are refused in the Iceberg REST
error shape. The same block against --strict-signatures: signatures made for `glue` verify, a
wrong secret is refused.

Runs under the engines' virtual environment (tests/engines/requirements.txt): started with
/usr/bin/python3 like every e2e test, it re-executes itself there."""

import os
import sys
import unittest

E2E_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(E2E_DIR, "..", "engines"))
sys.path.insert(0, E2E_DIR)
import snippets  # noqa: E402

snippets.reexec_in_venv()

from floe_server import FloeServer, create_glue_integration, engine_env, strict_engine_server  # noqa: E402

import pyarrow as pa  # noqa: E402
from pyiceberg.exceptions import BadRequestError, ForbiddenError, NoSuchTableError, RESTError  # noqa: E402
from pyiceberg.schema import Schema  # noqa: E402
from pyiceberg.types import LongType, NestedField, StringType  # noqa: E402

EXAMPLE_WAREHOUSE = "111122223333:s3tablescatalog/my-table-bucket"
SCHEMA = Schema(NestedField(1, "id", LongType(), required=True), NestedField(2, "name", StringType(), required=False))
ARROW = pa.schema([pa.field("id", pa.int64(), nullable=False), pa.field("name", pa.string())])


def rows(start, n):
    return pa.table({"id": list(range(start, start + n)), "name": ["r%d" % i for i in range(start, start + n)]},
                    schema=ARROW)


def glue_catalog(server, arn, warehouse):
    """The page's Glue block, run as written, with this test's endpoint and warehouse."""
    return snippets.run_python("pyiceberg-glue", server.endpoint, arn, **{EXAMPLE_WAREHOUSE: warehouse})["catalog"]


def ids(table):
    return sorted(table.scan().to_arrow()["id"].to_pylist())


class GlueEndpointThroughPyIceberg(unittest.TestCase):
    """One table through Glue's endpoint and the S3 Tables API and endpoint; steps run in order."""

    @classmethod
    def setUpClass(cls):
        engine_env()
        cls.server = FloeServer("--quiet").start()
        import boto3
        cls.s3tables = boto3.client("s3tables", endpoint_url=cls.server.endpoint, region_name="us-east-1")
        cls.arn = cls.s3tables.create_table_bucket(name="glue-pyiceberg")["arn"]
        cls.account = cls.arn.split(":")[4]
        create_glue_integration(boto3.client("glue", endpoint_url=cls.server.endpoint, region_name="us-east-1"),
                                cls.account)
        cls.warehouse = "%s:s3tablescatalog/glue-pyiceberg" % cls.account
        cls.catalog = glue_catalog(cls.server, cls.arn, cls.warehouse)

    @classmethod
    def tearDownClass(cls):
        cls.server.cleanup()

    def s3tables_view(self):
        """(versionToken, metadataLocation) as the S3 Tables API reports them, checked to agree."""
        got = self.s3tables.get_table(tableBucketARN=self.arn, namespace="sales", name="orders")
        loc = self.s3tables.get_table_metadata_location(tableBucketARN=self.arn, namespace="sales", name="orders")
        self.assertEqual((got["versionToken"], got["metadataLocation"]),
                         (loc["versionToken"], loc["metadataLocation"]), "GetTable and GetTableMetadataLocation agree")
        return loc["versionToken"], loc["metadataLocation"]

    def test_01_config_answers_glues_prefix(self):
        self.assertEqual(self.catalog.properties.get("prefix"),
                         "catalogs/%s:s3tablescatalog:glue-pyiceberg" % self.account,
                         "GET /v1/config names the catalog as Glue's paths do, ':' for '/'")

    def test_02_namespace_table_append_read(self):
        self.catalog.create_namespace("sales")
        self.assertIn(("sales",), self.catalog.list_namespaces(), "lists the namespace it created")
        self.assertEqual([n["namespace"][0] for n in self.s3tables.list_namespaces(tableBucketARN=self.arn)["namespaces"]],
                         ["sales"], "the S3 Tables API lists the namespace Glue's endpoint created")
        t = self.catalog.create_table("sales.orders", schema=SCHEMA)
        t.append(rows(0, 50))
        t = self.catalog.load_table("sales.orders")
        self.assertEqual(ids(t), list(range(50)), "reads back the appended rows")
        self.assertIn(("sales", "orders"), self.catalog.list_tables("sales"), "lists the table")

    def test_03_s3tables_api_sees_the_same_table_and_token(self):
        t = self.catalog.load_table("sales.orders")
        token, location = self.s3tables_view()
        self.assertEqual(location, t.metadata_location, "GetTableMetadataLocation names Glue's last commit")
        t.append(rows(50, 10))
        token2, location2 = self.s3tables_view()
        self.assertNotEqual(token2, token, "a commit through Glue's endpoint moves the version token")
        self.assertEqual(location2, self.catalog.load_table("sales.orders").metadata_location,
                         "and the metadata location, to the commit's")

    def test_04_one_table_whichever_endpoint_commits(self):
        s3t = snippets.run_python("pyiceberg-rest", self.server.endpoint, self.arn)["catalog"]
        other = s3t.load_table("sales.orders")
        self.assertEqual(ids(other), list(range(60)), "the S3 Tables endpoint reads Glue's rows")
        token, _ = self.s3tables_view()
        other.append(rows(60, 5))
        token2, location = self.s3tables_view()
        self.assertNotEqual(token2, token, "a commit through the S3 Tables endpoint moves the token")
        t = self.catalog.load_table("sales.orders")
        self.assertEqual(t.metadata_location, location, "Glue's endpoint loads that commit")
        self.assertEqual(ids(t), list(range(65)), "and reads its rows")
        self.s3tables.create_namespace(tableBucketARN=self.arn, namespace=["api_made"])
        self.assertIn(("api_made",), self.catalog.list_namespaces(), "a namespace the S3 Tables API made is listed")

    def test_05_views_are_not_served(self):
        self.assertEqual(self.catalog.list_views("sales"), [], "lists no views")
        with self.assertRaises(NotImplementedError, msg="refuses a view lookup"):
            self.catalog.view_exists("sales.recent")

    def test_06_only_what_glue_lists_is_advertised(self):
        # Glue's guide lists no RenameTable, CommitTransaction, NamespaceExists or ReportMetrics:
        # /v1/config does not advertise them, so PyIceberg refuses a rename itself and checks a
        # namespace by loading it.
        with self.assertRaisesRegex(NotImplementedError, "rename",
                                    msg="Glue's endpoint renames no S3 table"):
            self.catalog.rename_table("sales.orders", "sales.renamed")
        self.assertTrue(self.catalog.namespace_exists("sales"), "a namespace exists, by loadNamespaceMetadata")
        self.assertFalse(self.catalog.namespace_exists("nothing_here"), "and a missing one does not")
        self.assertTrue(self.catalog.table_exists("sales.orders"), "TableExists is Glue's and is served")
        self.assertEqual(ids(self.catalog.load_table("sales.orders")), list(range(65)), "the table is untouched")
        with self.assertRaises(NoSuchTableError, msg="and no table of the new name exists"):
            self.catalog.load_table("sales.renamed")

    def test_07_catalogs_floe_does_not_serve_are_refused(self):
        cases = [
            ("not a catalog", BadRequestError, "Invalid catalog id 'not a catalog'"),
            ("%s:s3tablescatalog/Not_A_Bucket" % self.account, BadRequestError, "Invalid catalog id"),
            ("%s:s3tablescatalog/no-such-bucket" % self.account, RESTError, "does not exist"),
            (self.account, NotImplementedError, "serves the catalogs of S3 table buckets only"),
            ("111122223333:s3tablescatalog/glue-pyiceberg", ForbiddenError, "belongs to another account"),
        ]
        for warehouse, error, message in cases:
            with self.subTest(warehouse=warehouse):
                with self.assertRaisesRegex(error, message, msg="GET /v1/config?warehouse=%s is refused" % warehouse):
                    glue_catalog(self.server, self.arn, warehouse)


class GlueEndpointSignedStrictly(unittest.TestCase):
    """The Glue block against `floe serve --strict-signatures`: PyIceberg's SigV4 for `glue` and
    PyArrow's for S3 verify, and a wrong secret is refused with 403."""

    @classmethod
    def setUpClass(cls):
        cls.server, cls.arn = strict_engine_server("AKIDGLUE", "glue-secret", "glue-strict")
        import boto3
        create_glue_integration(boto3.client("glue", endpoint_url=cls.server.endpoint, region_name="us-east-1"),
                                cls.arn.split(":")[4])
        cls.warehouse = "%s:s3tablescatalog/glue-strict" % cls.arn.split(":")[4]

    @classmethod
    def tearDownClass(cls):
        engine_env()
        cls.server.cleanup()

    def test_signed_catalog_and_data_requests_verify(self):
        catalog = glue_catalog(self.server, self.arn, self.warehouse)
        catalog.create_namespace("signed")
        t = catalog.create_table("signed.t", schema=SCHEMA)
        t.append(rows(0, 20))
        self.assertEqual(ids(catalog.load_table("signed.t")), list(range(20)),
                         "a create, an append and a scan signed for glue verify")
        os.environ["AWS_SECRET_ACCESS_KEY"] = "not-the-secret"
        try:
            with self.assertRaises(ForbiddenError, msg="a wrong secret is refused with 403"):
                glue_catalog(self.server, self.arn, self.warehouse)
        finally:
            os.environ["AWS_SECRET_ACCESS_KEY"] = "glue-secret"


if __name__ == "__main__":
    unittest.main(verbosity=2)

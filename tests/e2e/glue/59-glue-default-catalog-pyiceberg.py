#!/usr/bin/python3
"""PyIceberg's own Glue catalog (`pyiceberg.catalog.glue.GlueCatalog`, the Iceberg catalog of
AWS's default Glue Data Catalog), unchanged, with only its endpoints set to Floe (`glue.endpoint`,
`s3.endpoint`): a namespace is a Glue database of the default catalog, a table a Glue table whose
Parameters carry `table_type` ICEBERG and `metadata_location`, and each commit an UpdateTable
carrying the VersionId PyIceberg read, which Floe checks and bumps. Appends, a schema change and a
reload read back; Glue's GetTable sees the current metadata file; a table made elsewhere
(awswrangler's Hive table, say) is listed but not loaded as Iceberg; dropping the table and the
namespace goes through DeleteTable and DeleteDatabase.

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

from floe_server import FloeServer, engine_env  # noqa: E402

import pyarrow as pa  # noqa: E402
from pyiceberg.exceptions import NoSuchTableError  # noqa: E402
from pyiceberg.schema import Schema  # noqa: E402
from pyiceberg.types import LongType, NestedField, StringType  # noqa: E402

SCHEMA = Schema(NestedField(1, "id", LongType(), required=True), NestedField(2, "name", StringType(), required=False))
ARROW = pa.schema([pa.field("id", pa.int64(), nullable=False), pa.field("name", pa.string())])


class PyIcebergGlueCatalogTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        engine_env()
        cls.server = FloeServer("--quiet").start()
        import boto3
        from pyiceberg.catalog.glue import GlueCatalog
        kw = {"endpoint_url": cls.server.endpoint, "region_name": "us-east-1"}
        boto3.client("s3", **kw).create_bucket(Bucket="lake")
        cls.glue = boto3.client("glue", **kw)
        cls.catalog = GlueCatalog("glue", **{
            "glue.endpoint": cls.server.endpoint, "glue.region": "us-east-1",
            "s3.endpoint": cls.server.endpoint, "s3.region": "us-east-1", "s3.force-virtual-addressing": "false"})

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()

    def test_iceberg_tables_commit_through_glue_update_table(self):
        self.catalog.create_namespace("analytics", {"location": "s3://lake/analytics"})
        self.assertIn(("analytics",), self.catalog.list_namespaces())
        table = self.catalog.create_table("analytics.events", schema=SCHEMA)
        glue_table = self.glue.get_table(DatabaseName="analytics", Name="events")["Table"]
        self.assertEqual(glue_table["Parameters"]["table_type"].upper(), "ICEBERG")
        self.assertEqual(glue_table["Parameters"]["metadata_location"], table.metadata_location)
        self.assertEqual(glue_table["VersionId"], "0")

        table.append(pa.table({"id": [1, 2], "name": ["a", "b"]}, schema=ARROW))
        table.append(pa.table({"id": [3], "name": ["c"]}, schema=ARROW))
        glue_table = self.glue.get_table(DatabaseName="analytics", Name="events")["Table"]
        self.assertEqual(glue_table["VersionId"], "2", "each commit is one UpdateTable")
        self.assertEqual(glue_table["Parameters"]["metadata_location"], table.metadata_location)
        with table.update_schema() as update:
            update.add_column("kind", StringType())
        again = self.catalog.load_table("analytics.events")
        self.assertEqual(sorted(again.scan().to_arrow()["id"].to_pylist()), [1, 2, 3])
        self.assertEqual([f.name for f in again.schema().fields], ["id", "name", "kind"])
        self.assertEqual(self.catalog.list_tables("analytics"), [("analytics", "events")])

        self.glue.create_table(DatabaseName="analytics", TableInput={
            "Name": "hive_side", "TableType": "EXTERNAL_TABLE", "Parameters": {"classification": "parquet"},
            "StorageDescriptor": {"Location": "s3://lake/analytics/hive_side/", "Columns": [{"Name": "id", "Type": "bigint"}]}})
        self.assertEqual(self.catalog.list_tables("analytics"), [("analytics", "events")],
                         "PyIceberg lists only the Glue tables whose table_type is ICEBERG")
        self.glue.delete_table(DatabaseName="analytics", Name="hive_side")

        self.catalog.drop_table("analytics.events")
        with self.assertRaises(NoSuchTableError):
            self.catalog.load_table("analytics.events")
        self.catalog.drop_namespace("analytics")
        self.assertNotIn("analytics", [d["Name"] for d in self.glue.get_databases()["DatabaseList"]])


if __name__ == "__main__":
    unittest.main()

#!/usr/bin/python3
"""awswrangler's Glue catalog calls against the account's default catalog, configured as its docs
show with only the endpoints changed (`wr.config.s3_endpoint_url`, `wr.config.glue_endpoint_url`):
`wr.s3.to_parquet(df, path, dataset=True, database=..., table=...)` writes the Parquet files to
Floe's S3 and registers the Hive table with Glue's CreateTable (columns typed from the DataFrame,
its location, Parquet input/output formats and SerDe); `wr.catalog.does_table_exist`,
`wr.catalog.table` and `wr.catalog.get_table_types` read it back with GetTable; an overwrite
replaces its schema; `wr.s3.read_parquet_table` reads the rows through the table's location;
`wr.catalog.delete_table_if_exists` deletes it. Runs in <build>/athena-clients-venv
(tests/athena/requirements-clients.txt, installed by scripts/setup-deps), re-executed there."""

import os
import sys
import unittest

E2E_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(E2E_DIR, "..", "engines"))
sys.path.insert(0, E2E_DIR)
import snippets  # noqa: E402

snippets.reexec_in_venv("athena-clients-venv")

from floe_server import FloeServer, engine_env  # noqa: E402

DATABASE = "wrangled"
PATH = "s3://lake-data/orders/"


class AwswranglerGlueTableTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        engine_env()
        cls.server = FloeServer("--quiet").start()
        import awswrangler as wr
        import boto3
        wr.config.s3_endpoint_url = cls.server.endpoint
        wr.config.glue_endpoint_url = cls.server.endpoint
        boto3.client("s3", endpoint_url=cls.server.endpoint, region_name="us-east-1").create_bucket(Bucket="lake-data")
        wr.catalog.create_database(DATABASE)

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()

    def test_to_parquet_registers_a_glue_table_awswrangler_reads_and_deletes(self):
        import awswrangler as wr
        import pandas as pd
        self.assertFalse(wr.catalog.does_table_exist(database=DATABASE, table="orders"))
        df = pd.DataFrame({"id": [1, 2, 3], "name": ["a", "b", "c"], "amount": [0.5, 1.5, None]})
        res = wr.s3.to_parquet(df, PATH, dataset=True, database=DATABASE, table="Orders", mode="overwrite",
                               glue_table_settings={"description": "daily orders", "parameters": {"source": "e2e"},
                                                    "columns_comments": {"id": "the order"}})
        self.assertEqual(len(res["paths"]), 1)
        self.assertTrue(wr.catalog.does_table_exist(database=DATABASE, table="orders"))
        self.assertEqual(wr.catalog.get_table_types(database=DATABASE, table="orders"),
                         {"id": "bigint", "name": "string", "amount": "double"})
        described = wr.catalog.table(database=DATABASE, table="orders")
        self.assertEqual(described["Column Name"].tolist(), ["id", "name", "amount"])
        self.assertEqual(described["Type"].tolist(), ["bigint", "string", "double"])
        self.assertEqual(described["Comment"].tolist()[0], "the order")
        self.assertEqual(wr.catalog.get_table_location(database=DATABASE, table="orders"), PATH)
        self.assertEqual(wr.catalog.get_table_description(database=DATABASE, table="orders"), "daily orders")
        self.assertEqual(wr.catalog.get_table_parameters(database=DATABASE, table="orders")["source"], "e2e")
        self.assertIn("orders", wr.catalog.tables(database=DATABASE)["Table"].tolist())

        back = wr.s3.read_parquet_table(database=DATABASE, table="orders").sort_values("id")
        self.assertEqual(back["id"].tolist(), [1, 2, 3])
        self.assertEqual(back["name"].tolist(), ["a", "b", "c"])

        wr.s3.to_parquet(pd.DataFrame({"id": [4], "kind": ["x"]}), PATH, dataset=True, database=DATABASE,
                         table="orders", mode="overwrite")
        self.assertEqual(wr.catalog.get_table_types(database=DATABASE, table="orders"),
                         {"id": "bigint", "kind": "string"}, "an overwrite replaces the table's schema")

        self.assertTrue(wr.catalog.delete_table_if_exists(database=DATABASE, table="orders"))
        self.assertFalse(wr.catalog.does_table_exist(database=DATABASE, table="orders"))
        self.assertFalse(wr.catalog.delete_table_if_exists(database=DATABASE, table="orders"))


if __name__ == "__main__":
    unittest.main()

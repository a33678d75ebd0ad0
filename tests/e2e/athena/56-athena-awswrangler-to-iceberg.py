#!/usr/bin/python3
"""awswrangler's `wr.athena.to_iceberg` into Glue's default catalog (AwsDataCatalog), configured as
its docs show with only the endpoints changed (`wr.config.athena_endpoint_url`, `s3_endpoint_url`,
`glue_endpoint_url`), against a Floe that starts its own Trino (scripts/setup-deps --athena).

to_iceberg stages the DataFrame as a Parquet table in Glue (wr.s3.to_parquet, a Hive
EXTERNAL_TABLE), creates the Iceberg table with Athena's CREATE TABLE ... LOCATION ... TBLPROPERTIES
('table_type'='ICEBERG') when it is missing, then runs Athena's INSERT INTO ... SELECT (or MERGE
INTO with merge_cols) from the staged table, and deletes that. So this drives Athena's default
catalog on Trino's Iceberg and Hive connectors over Floe's own Glue API, both kinds of Glue table,
and the Iceberg commits through Glue's UpdateTable. Each table is then read back with
wr.athena.read_sql_query, after a restart too; and a view and a rename, which Athena runs on
Glue's own tables (unlike a table bucket's), run there. Runs in <build>/athena-clients-venv
(tests/athena/requirements-clients.txt, installed by scripts/setup-deps), re-executed there."""

import datetime
import os
import sys
import unittest

E2E_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(E2E_DIR, "..", "engines"))
sys.path.insert(0, E2E_DIR)
import snippets  # noqa: E402

snippets.reexec_in_venv("athena-clients-venv")

from floe_server import FloeServer, engine_env  # noqa: E402

TRINO_HOME = os.path.join(os.environ.get("FLOE_TRINO_CACHE", os.path.expanduser("~/.cache/floe-trino")),
                          "trino-server-476")
DATABASE = "analytics"
OUTPUT = "s3://athena-results/wrangler/"
STAGING = "s3://lake-data/staging/"


class AwswranglerToIcebergTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not os.path.exists(os.path.join(TRINO_HOME, "bin", "launcher")):
            raise unittest.SkipTest("Trino is not installed: run scripts/setup-deps --athena")
        engine_env()
        cls.server = FloeServer("--quiet").start()
        import awswrangler as wr
        import boto3
        kw = {"endpoint_url": cls.server.endpoint, "region_name": "us-east-1"}
        s3 = boto3.client("s3", **kw)
        for bucket in ("athena-results", "lake-data"):
            s3.create_bucket(Bucket=bucket)
        cls.s3, cls.glue = s3, boto3.client("glue", **kw)
        wr.config.athena_endpoint_url = cls.server.endpoint
        wr.config.s3_endpoint_url = cls.server.endpoint
        wr.config.glue_endpoint_url = cls.server.endpoint
        wr.catalog.create_database(DATABASE)

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()

    def to_iceberg(self, df, table, **kw):
        import awswrangler as wr
        wr.athena.to_iceberg(df, database=DATABASE, table=table, table_location="s3://lake-data/%s/" % table,
                             temp_path=STAGING + table + "/", s3_output=OUTPUT, keep_files=False, **kw)

    def rows(self, sql):
        import awswrangler as wr
        import pandas as pd
        df = wr.athena.read_sql_query(sql, database=DATABASE, ctas_approach=False, s3_output=OUTPUT)
        return [tuple(None if pd.isna(v) else v for v in r) for r in df.itertuples(index=False)]

    def frame(self, rows, columns=("id", "name", "amount", "day")):
        import pandas as pd
        df = pd.DataFrame(rows, columns=list(columns))
        df["id"] = df["id"].astype("Int64")
        if "day" in df:
            df["day"] = pd.to_datetime(df["day"]).dt.date
        return df

    def test_01_creates_the_iceberg_table_in_glue_and_drops_the_staged_one(self):
        self.to_iceberg(self.frame([(1, "a", 1.5, "2024-01-01"), (2, "b", None, "2024-01-02")]), "events",
                        partition_cols=["day"])
        self.assertEqual(self.rows("SELECT id, name, amount, day FROM events ORDER BY id"),
                         [(1, "a", 1.5, datetime.date(2024, 1, 1)), (2, "b", None, datetime.date(2024, 1, 2))])
        table = self.glue.get_table(DatabaseName=DATABASE, Name="events")["Table"]
        self.assertEqual(table["Parameters"]["table_type"].upper(), "ICEBERG")
        self.assertTrue(table["Parameters"]["metadata_location"].startswith("s3://lake-data/events/metadata/"),
                        table["Parameters"])
        self.assertEqual(table["StorageDescriptor"]["Location"].rstrip("/"), "s3://lake-data/events")
        names = [t["Name"] for t in self.glue.get_tables(DatabaseName=DATABASE)["TableList"]]
        self.assertEqual(names, ["events"], "the staged temp_table_* is deleted from Glue")
        staged = self.s3.list_objects_v2(Bucket="lake-data", Prefix="staging/events/")
        self.assertEqual(staged.get("KeyCount"), 0, "keep_files=False deletes the staged Parquet")
        data = self.s3.list_objects_v2(Bucket="lake-data", Prefix="events/data/")
        self.assertGreater(data.get("KeyCount", 0), 0, "the Iceberg data files are at the table's location")

    def test_02_appends_then_merges_on_a_key(self):
        self.to_iceberg(self.frame([(1, "a", 1.0, "2024-02-01"), (2, "b", 2.0, "2024-02-01")]), "orders")
        self.to_iceberg(self.frame([(3, "c", 3.0, "2024-02-02")]), "orders")
        self.assertEqual([r[0] for r in self.rows("SELECT id FROM orders ORDER BY id")], [1, 2, 3], "appended")
        versions = self.glue.get_table(DatabaseName=DATABASE, Name="orders")["Table"]["VersionId"]
        self.to_iceberg(self.frame([(2, "b2", 20.0, "2024-02-01"), (4, "d", 4.0, "2024-02-03")]), "orders",
                        merge_cols=["id"])
        self.assertEqual(self.rows("SELECT id, name, amount FROM orders ORDER BY id"),
                         [(1, "a", 1.0), (2, "b2", 20.0), (3, "c", 3.0), (4, "d", 4.0)],
                         "MERGE INTO updated the matched key and inserted the new one")
        after = self.glue.get_table(DatabaseName=DATABASE, Name="orders")["Table"]["VersionId"]
        self.assertGreater(int(after), int(versions), "each commit is a Glue UpdateTable, a new VersionId")

    def test_03_overwrite_replaces_the_rows(self):
        self.to_iceberg(self.frame([(1, "a", 1.0, "2024-03-01"), (2, "b", 2.0, "2024-03-01")]), "daily")
        self.to_iceberg(self.frame([(9, "z", 9.0, "2024-03-09")]), "daily", mode="overwrite")
        self.assertEqual(self.rows("SELECT id, name FROM daily"), [(9, "z")])

    def test_04_schema_evolution_adds_a_column(self):
        self.to_iceberg(self.frame([(1, "a", 1.0, "2024-04-01")]), "people")
        grown = self.frame([(2, "b", 2.0, "2024-04-02", "pt")], ("id", "name", "amount", "day", "country"))
        with self.assertRaisesRegex(Exception, "Schema change detected"):
            self.to_iceberg(grown, "people")
        self.to_iceberg(grown, "people", schema_evolution=True)
        self.assertEqual(self.rows("SELECT id, country FROM people ORDER BY id"), [(1, None), (2, "pt")])
        columns = [c["Name"] for c in
                   self.glue.get_table(DatabaseName=DATABASE, Name="people")["Table"]["StorageDescriptor"]["Columns"]]
        self.assertIn("country", columns, "Glue's columns follow the Iceberg schema")

    def test_05_tables_are_read_after_a_restart(self):
        self.server.restart()
        self.assertEqual(self.rows("SELECT count(*) FROM awsdatacatalog.analytics.orders"), [(4,)],
                         "the default catalog named in the SQL, on a new Trino")
        self.assertEqual(self.rows("SELECT id FROM events ORDER BY id"), [(1,), (2,)])


    def test_06_views_and_renames_run_there_as_on_athena(self):
        import awswrangler as wr
        for sql in ("CREATE VIEW big_orders AS SELECT id, name FROM orders WHERE amount > 3",
                    "ALTER TABLE daily RENAME TO daily_archive"):
            wr.athena.start_query_execution(sql, database=DATABASE, s3_output=OUTPUT, wait=True)
        self.assertEqual(self.rows("SELECT id, name FROM big_orders ORDER BY id"), [(2, "b2"), (4, "d")])
        self.assertEqual(self.glue.get_table(DatabaseName=DATABASE, Name="big_orders")["Table"]["TableType"],
                         "VIRTUAL_VIEW")
        self.assertEqual(self.rows("SELECT id FROM daily_archive"), [(9,)])
        with self.assertRaises(self.glue.exceptions.EntityNotFoundException):
            self.glue.get_table(DatabaseName=DATABASE, Name="daily")
        with self.assertRaisesRegex(Exception, "Floe does not run OPTIMIZE in AwsDataCatalog"):
            wr.athena.start_query_execution("OPTIMIZE orders REWRITE DATA USING BIN_PACK", database=DATABASE,
                                            s3_output=OUTPUT, wait=True)

if __name__ == "__main__":
    unittest.main(verbosity=2)

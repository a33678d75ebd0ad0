#!/usr/bin/python3
"""dbt-athena (1.11.1, the dbt adapter for Athena) writing to a table bucket through its `s3_tables`
catalog, configured as dbt's "Amazon Web Services and Apache Iceberg" page shows: a profiles.yml
target of type athena, `flags: use_catalogs_v2: true`, a catalogs.yml entry of type s3_tables whose
catalog_database is `s3tablescatalog/<bucket>`, and models with `catalog_name`. One change: the
endpoint, boto3's own AWS_ENDPOINT_URL, which reaches every client dbt-athena makes (Athena, Glue,
STS, S3). The profile's database is the page's awsdatacatalog: before a run dbt-athena makes the
profile's schema there with `create schema if not exists`, a Glue database of the account's default
catalog (Glue's GetDatabase then sees it). The S3 Tables integration with Glue is enabled as that page says (Glue's CreateCatalog
of `s3tablescatalog`), the bucket and namespace are made with the S3 Tables API.
  - `dbt run` builds a table model (a CTAS with table_type='iceberg', is_external=false and no
    location), an incremental model with the merge strategy and one with append; the tables are
    in the bucket (the S3 Tables API lists them) with the models' rows (Athena reads them);
  - a second `dbt run` with the next batch merges into the first incremental table (one row
    updated, one added) and appends to the second; the table model is dropped and built again
    (dbt-athena drops an S3 table with Glue's DeleteTable), and the incremental models' staging
    tables are gone;
  - `dbt test` runs the models' unique and not_null tests.
Runs in <build>/dbt-athena-venv (tests/athena/requirements-dbt.txt, installed by
scripts/setup-deps), re-executed there."""

import os
import subprocess
import sys
import tempfile
import time
import unittest

E2E_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(E2E_DIR, "..", "engines"))
sys.path.insert(0, E2E_DIR)
import snippets  # noqa: E402

snippets.reexec_in_venv("dbt-athena-venv")

from floe_server import FloeServer, create_glue_integration, engine_env  # noqa: E402

TRINO_HOME = os.path.join(os.environ.get("FLOE_TRINO_CACHE", os.path.expanduser("~/.cache/floe-trino")),
                          "trino-server-476")
ACCOUNT = "000000000000"
BUCKET = "analytics"
CATALOG = "s3tablescatalog/" + BUCKET
NAMESPACE = "sales"
DBT_TIMEOUT_S = 1200  # the first run's first query waits for Trino to start on a loaded 2-core machine

PROJECT = {
    "dbt_project.yml": """
name: floe_sales
version: "1.0.0"
profile: floe_sales
flags:
  use_catalogs_v2: true
  send_anonymous_usage_stats: false
""",
    # dbt's page: a target of type athena whose database is awsdatacatalog, the schema the
    # namespace (dbt-athena makes a Glue database of that name in the default catalog first)
    "profiles.yml": """
floe_sales:
  target: dev
  outputs:
    dev:
      type: athena
      s3_staging_dir: s3://athena-results/dbt/
      region_name: us-east-1
      database: awsdatacatalog
      schema: %s
      threads: 1
""" % NAMESPACE,
    "catalogs.yml": """
catalogs:
  - name: s3_tables_catalog
    type: s3_tables
    table_format: iceberg
    config:
      athena:
        catalog_database: %s
        file_format: parquet
""" % CATALOG,
    "models/daily.sql": """
{{ config(materialized='table', catalog_name='s3_tables_catalog') }}
select id, name, amount
from (values (1, 'north', 10.5), (2, 'south', 20.25), (3, 'east', 7.0)) as t(id, name, amount)
""",
    # each run brings the batch `--vars` names: batch 1 the ids 1 and 2, batch 2 a new name for
    # id 2 and the id 3
    "models/customers.sql": """
{{ config(materialized='incremental', incremental_strategy='merge', unique_key='id',
          catalog_name='s3_tables_catalog') }}
select id, name from (values (1, 'ann', 1), (2, 'bob', 1), (2, 'bobby', 2), (3, 'cy', 2)) as t(id, name, batch)
where batch = {{ var('batch') }}
""",
    "models/events.sql": """
{{ config(materialized='incremental', incremental_strategy='append', catalog_name='s3_tables_catalog') }}
select {{ var('batch') }} as batch, d.name as region
from {{ ref('daily') }} as d
""",
    "models/schema.yml": """
version: 2
models:
  - name: customers
    columns:
      - name: id
        data_tests: [unique, not_null]
  - name: daily
    columns:
      - name: id
        data_tests: [unique, not_null]
""",
}


def values(result):
    return [[d.get("VarCharValue") for d in row["Data"]] for row in result["ResultSet"]["Rows"]]


class DbtAthenaS3TablesTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not os.path.exists(os.path.join(TRINO_HOME, "bin", "launcher")):
            raise unittest.SkipTest("Trino is not installed: run scripts/setup-deps --athena")
        engine_env()
        cls.server = FloeServer("--quiet").start()
        # boto3's endpoint setting, as a user points any boto3 tool at an emulator: dbt-athena's
        # profile has no endpoint of its own
        os.environ["AWS_ENDPOINT_URL"] = cls.server.endpoint
        os.environ["DBT_SEND_ANONYMOUS_USAGE_STATS"] = "false"
        import boto3
        cls.s3tables = boto3.client("s3tables")
        cls.athena = boto3.client("athena")
        create_glue_integration(boto3.client("glue"), ACCOUNT)
        cls.arn = cls.s3tables.create_table_bucket(name=BUCKET)["arn"]
        cls.s3tables.create_namespace(tableBucketARN=cls.arn, namespace=[NAMESPACE])
        boto3.client("s3").create_bucket(Bucket="athena-results")
        cls.tmp = tempfile.TemporaryDirectory(prefix="floe-dbt-")
        for name, text in PROJECT.items():
            path = os.path.join(cls.tmp.name, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(text.lstrip())
        cls.first = cls.dbt("run", "--vars", "{batch: 1}")

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()
        cls.tmp.cleanup()

    @classmethod
    def dbt(cls, *args):
        """dbt's command line in the project, as its docs run it; its output on failure."""
        out = subprocess.run([os.path.join(sys.prefix, "bin", "dbt")] + list(args) +
                             ["--project-dir", cls.tmp.name, "--profiles-dir", cls.tmp.name],
                             cwd=cls.tmp.name, capture_output=True, text=True, timeout=DBT_TIMEOUT_S)
        return out

    def assert_dbt_ok(self, out):
        self.assertEqual(out.returncode, 0, "dbt failed:\n%s%s" % (out.stdout[-6000:], out.stderr[-3000:]))

    def rows(self, sql):
        qid = self.athena.start_query_execution(
            QueryString=sql, QueryExecutionContext={"Catalog": CATALOG, "Database": NAMESPACE},
            ResultConfiguration={"OutputLocation": "s3://athena-results/check/"})["QueryExecutionId"]
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            status = self.athena.get_query_execution(QueryExecutionId=qid)["QueryExecution"]["Status"]
            if status["State"] not in ("QUEUED", "RUNNING"):
                break
            time.sleep(0.2)
        self.assertEqual(status["State"], "SUCCEEDED", "%s: %s" % (sql, status))
        return values(self.athena.get_query_results(QueryExecutionId=qid))[1:]

    def tables(self):
        return sorted(t["name"] for t in self.s3tables.list_tables(tableBucketARN=self.arn,
                                                                  namespace=NAMESPACE)["tables"])

    def test_01_first_run_builds_the_models_in_the_table_bucket(self):
        self.assert_dbt_ok(self.first)
        self.assertIn("Completed successfully", self.first.stdout)
        self.assertEqual(self.tables(), ["customers", "daily", "events"])
        self.assertEqual(self.rows("SELECT id, name, amount FROM daily ORDER BY id"),
                         [["1", "north", "10.50"], ["2", "south", "20.25"], ["3", "east", "7.00"]])
        self.assertEqual(self.rows("SELECT id, name FROM customers ORDER BY id"), [["1", "ann"], ["2", "bob"]])
        self.assertEqual(self.rows("SELECT batch, count(*) FROM events GROUP BY batch"), [["1", "3"]])
        table = self.s3tables.get_table(tableBucketARN=self.arn, namespace=NAMESPACE, name="daily")
        self.assertEqual(table["format"], "ICEBERG")
        import boto3
        self.assertEqual(boto3.client("glue").get_database(Name=NAMESPACE)["Database"]["Name"], NAMESPACE,
                         "dbt-athena made the profile's schema in awsdatacatalog, Glue's default catalog")

    def test_02_second_run_merges_appends_and_rebuilds(self):
        self.assert_dbt_ok(self.first)
        daily_before = self.s3tables.get_table(tableBucketARN=self.arn, namespace=NAMESPACE, name="daily")
        out = self.dbt("run", "--vars", "{batch: 2}")
        self.assert_dbt_ok(out)
        self.assertEqual(self.rows("SELECT id, name FROM customers ORDER BY id"),
                         [["1", "ann"], ["2", "bobby"], ["3", "cy"]])
        self.assertEqual(self.rows("SELECT batch, count(*) FROM events GROUP BY batch ORDER BY batch"),
                         [["1", "3"], ["2", "3"]])
        # the table model was dropped and made again: a new table, the same rows
        daily_after = self.s3tables.get_table(tableBucketARN=self.arn, namespace=NAMESPACE, name="daily")
        self.assertNotEqual(daily_before["tableARN"], daily_after["tableARN"])
        self.assertEqual(self.rows("SELECT count(*) FROM daily"), [["3"]])
        # the merge's and the append's staging tables (`<model>__dbt_tmp`) were dropped
        self.assertEqual(self.tables(), ["customers", "daily", "events"])

    def test_03_dbt_test(self):
        self.assert_dbt_ok(self.first)
        out = self.dbt("test")
        self.assert_dbt_ok(out)
        self.assertIn("PASS=4", out.stdout)


if __name__ == "__main__":
    unittest.main()

#!/usr/bin/python3
"""Athena's queries on Trino, through real clients configured as AWS's S3 Tables guide shows them
(QueryExecutionContext.Catalog `s3tablescatalog/<bucket>`, Database a namespace; the SQL naming
`namespace.table` or `"s3tablescatalog/bucket"."namespace"."table"`), against a Floe that starts
its own Trino (scripts/setup-deps --athena installs it) on the first query:
  - boto3 (awsJson1_1): CREATE TABLE, INSERT, SELECT, CTAS, UPDATE, DELETE, SHOW, DESCRIBE,
    EXECUTE ... USING a prepared statement; each query QUEUED -> RUNNING -> SUCCEEDED with its
    StatementType and Statistics; GetQueryResults (the header row, ColumnInfo as Athena types
    them, NULLs, pages); the result file <OutputLocation>/<id>.csv in Floe's S3 as Athena writes
    it; a missing table FAILED with Trino's error as Athena reports it and the catalog as the user
    named it; a missing output bucket FAILED;
  - the newest boto3 (REST-JSON) and the aws CLI read the same results;
  - StopQueryExecution cancels a running query; one running when Floe is killed (-9) is FAILED
    with a reason at the next start;
  - PyIceberg reads the rows Athena wrote (INSERT and MERGE), and Athena reads the rows PyIceberg
    appended, and travels back to the snapshot before them; the S3 Tables API sees Athena's tables.
Runs under the engines' virtual environment, re-executed there like the engine tests."""

import csv
import io
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

from floe_server import AWS_CLI, SOURCE_DIR, FloeServer, client_env, engine_env  # noqa: E402

TRINO_HOME = os.path.join(os.environ.get("FLOE_TRINO_CACHE", os.path.expanduser("~/.cache/floe-trino")),
                          "trino-server-476")
BUILD = os.environ.get("FLOE_BUILD_DIR", os.path.join(SOURCE_DIR, "build-asan"))
REST_PYTHON = os.path.join(BUILD, "athena-rest-venv", "bin", "python")
BUCKET = "analytics"
CONTEXT = {"Catalog": "s3tablescatalog/" + BUCKET, "Database": "sales"}
OUTPUT = "s3://athena-results/queries/"
QUERY_TIMEOUT_S = 900  # the first query waits for Trino to start: a cold JVM on a loaded 2-core machine

REST_SCRIPT = r"""
import json, sys, time
import boto3
c = boto3.client("athena", endpoint_url=sys.argv[1], region_name="us-east-1", aws_access_key_id="floe",
                 aws_secret_access_key="floe")
q = c.start_query_execution(QueryString="SELECT id, name FROM daily WHERE id = 1",
                            QueryExecutionContext=json.loads(sys.argv[2]),
                            ResultConfiguration={"OutputLocation": sys.argv[3]})["QueryExecutionId"]
while c.get_query_execution(QueryExecutionId=q)["QueryExecution"]["Status"]["State"] in ("QUEUED", "RUNNING"):
    time.sleep(0.2)
r = c.get_query_results(QueryExecutionId=q)
print(json.dumps({"protocol": c.meta.service_model.protocol, "rows": r["ResultSet"]["Rows"]}))
"""


def values(result):
    return [[d.get("VarCharValue") for d in row["Data"]] for row in result["ResultSet"]["Rows"]]


class AthenaOnTrinoTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not os.path.exists(os.path.join(TRINO_HOME, "bin", "launcher")):
            raise unittest.SkipTest("Trino is not installed: run scripts/setup-deps --athena")
        engine_env()
        cls.server = FloeServer("--quiet").start()
        import boto3
        kw = {"endpoint_url": cls.server.endpoint, "region_name": "us-east-1"}
        cls.athena = boto3.client("athena", **kw)
        cls.s3 = boto3.client("s3", **kw)
        cls.s3tables = boto3.client("s3tables", **kw)
        cls.arn = cls.s3tables.create_table_bucket(name=BUCKET)["arn"]
        cls.s3tables.create_namespace(tableBucketARN=cls.arn, namespace=["sales"])
        cls.s3.create_bucket(Bucket="athena-results")
        cls.started = time.monotonic()
        cls.first = cls.run_query("CREATE TABLE daily (id int, name varchar, amount double)")
        cls.first_seconds = time.monotonic() - cls.started

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()

    @classmethod
    def run_query(cls, sql, context=CONTEXT, output=OUTPUT, states=None, **kw):
        """Starts `sql` and waits for its end; returns its QueryExecution. `states` collects each state seen."""
        qid = cls.athena.start_query_execution(QueryString=sql, QueryExecutionContext=context,
                                               ResultConfiguration={"OutputLocation": output}, **kw)["QueryExecutionId"]
        deadline = time.monotonic() + QUERY_TIMEOUT_S
        while time.monotonic() < deadline:
            e = cls.athena.get_query_execution(QueryExecutionId=qid)["QueryExecution"]
            if states is not None and (not states or states[-1] != e["Status"]["State"]):
                states.append(e["Status"]["State"])
            if e["Status"]["State"] not in ("QUEUED", "RUNNING"):
                return e
            time.sleep(0.2)
        raise AssertionError("query did not end: %s" % sql)

    def succeed(self, sql, **kw):
        e = self.run_query(sql, **kw)
        self.assertEqual(e["Status"]["State"], "SUCCEEDED", "%s: %s" % (sql, e["Status"]))
        return e

    def results(self, e, **kw):
        return self.athena.get_query_results(QueryExecutionId=e["QueryExecutionId"], **kw)

    def test_01_first_query_starts_trino(self):
        self.assertEqual(self.first["Status"]["State"], "SUCCEEDED", self.first["Status"])
        self.assertEqual(self.first["StatementType"], "DDL")
        self.assertEqual(self.results(self.first)["ResultSet"]["Rows"], [])
        table = self.s3tables.get_table(tableBucketARN=self.arn, namespace="sales", name="daily")
        self.assertEqual(table["format"], "ICEBERG")
        print("first query, with Trino's start: %.1f s" % self.first_seconds, file=sys.stderr)

    def test_02_insert_select_and_results(self):
        states = []
        e = self.run_query("INSERT INTO daily VALUES (1, 'a', 0.5), (2, 'b \"quoted\", too', NULL), (3, 'c', 1e20)",
                           states=states)
        self.assertEqual(e["Status"]["State"], "SUCCEEDED", e["Status"])
        self.assertEqual(e["StatementType"], "DML")
        self.assertEqual(states[-1], "SUCCEEDED")
        e = self.succeed('SELECT * FROM "s3tablescatalog/analytics"."sales"."daily" ORDER BY id')
        self.assertEqual(e["StatementType"], "DML")
        self.assertGreater(e["Statistics"]["DataScannedInBytes"], 0)
        self.assertGreaterEqual(e["Statistics"]["TotalExecutionTimeInMillis"], e["Statistics"]["EngineExecutionTimeInMillis"])
        self.assertEqual(e["ResultConfiguration"]["OutputLocation"], OUTPUT + e["QueryExecutionId"] + ".csv")
        r = self.results(e)
        self.assertEqual(values(r), [["id", "name", "amount"], ["1", "a", "0.5"], ["2", 'b "quoted", too', None],
                                     ["3", "c", "1.0E20"]])
        info = r["ResultSet"]["ResultSetMetadata"]["ColumnInfo"]
        self.assertEqual([(c["Name"], c["Type"], c["Precision"]) for c in info],
                         [("id", "integer", 10), ("name", "varchar", 2147483647), ("amount", "double", 17)])
        self.assertEqual((info[0]["CatalogName"], info[0]["Nullable"], info[1]["CaseSensitive"]), ("hive", "UNKNOWN", True))
        # pages: the header and a row, then the rest
        page = self.results(e, MaxResults=2)
        self.assertEqual(len(page["ResultSet"]["Rows"]), 2)
        rest = self.results(e, MaxResults=2, NextToken=page["NextToken"])
        self.assertEqual(values(rest), [["2", 'b "quoted", too', None], ["3", "c", "1.0E20"]])
        self.assertNotIn("NextToken", rest)
        # the result file, as Athena writes it
        body = self.s3.get_object(Bucket="athena-results", Key="queries/%s.csv" % e["QueryExecutionId"])["Body"].read()
        self.assertEqual(body.decode().splitlines()[:2], ['"id","name","amount"', '"1","a","0.5"'])
        self.assertEqual(list(csv.reader(io.StringIO(body.decode())))[2], ["2", 'b "quoted", too', ""])
        self.s3.head_object(Bucket="athena-results", Key="queries/%s.csv.metadata" % e["QueryExecutionId"])

    def test_03_ctas_update_delete_show_describe(self):
        self.succeed("INSERT INTO daily VALUES (10, 'x', 2.5), (11, 'y', 3.5)")
        e = self.succeed("CREATE TABLE big AS SELECT id, amount FROM daily WHERE id >= 10")
        self.assertEqual(e["StatementType"], "DML")
        self.assertEqual(values(self.results(self.succeed("SELECT count(*) AS n FROM big"))), [["n"], ["2"]])
        self.succeed("UPDATE big SET amount = 9.0 WHERE id = 10")
        self.succeed("DELETE FROM big WHERE id = 11")
        self.assertEqual(values(self.results(self.succeed("SELECT id, amount FROM big"))), [["id", "amount"], ["10", "9.0"]])
        shown = values(self.results(self.succeed("SHOW TABLES")))
        self.assertIn(["big"], shown)
        self.assertIn(["daily"], shown)
        self.assertEqual(self.succeed("DESCRIBE big")["StatementType"], "DDL")
        self.s3tables.get_table(tableBucketARN=self.arn, namespace="sales", name="big")

    def test_04_prepared_statement(self):
        self.athena.create_prepared_statement(StatementName="by_id", WorkGroup="primary",
                                              QueryStatement="SELECT name FROM daily WHERE id = ?")
        e = self.succeed("EXECUTE by_id USING 1")
        self.assertEqual(values(self.results(e)), [["name"], ["a"]])
        e = self.run_query("EXECUTE nope USING 1")
        self.assertEqual(e["Status"]["State"], "FAILED")

    def test_05_failures(self):
        e = self.run_query("SELECT * FROM missing_table")
        self.assertEqual(e["Status"]["State"], "FAILED")
        reason = e["Status"]["StateChangeReason"]
        self.assertTrue(reason.startswith("TABLE_NOT_FOUND: "), reason)
        self.assertIn("s3tablescatalog/analytics.sales.missing_table", reason)
        self.assertNotIn("s3tb_", reason)
        self.assertEqual(e["Status"]["AthenaError"]["ErrorCategory"], 2)
        # what Athena refuses on S3 Tables, refused before Trino sees it
        for sql in ("OPTIMIZE daily REWRITE DATA USING BIN_PACK", "VACUUM daily", "CREATE VIEW v AS SELECT 1",
                    "ALTER TABLE daily RENAME TO renamed", "ALTER DATABASE sales SET DBPROPERTIES ('k' = 'v')"):
            e = self.run_query(sql)
            self.assertEqual(e["Status"]["State"], "FAILED", sql)
            self.assertTrue(e["Status"]["StateChangeReason"].startswith("NOT_SUPPORTED: "), e["Status"])
        self.s3tables.get_table(tableBucketARN=self.arn, namespace="sales", name="daily")  # not renamed
        e = self.run_query("SELECT 1", output="s3://no-such-results-bucket/")
        self.assertEqual(e["Status"]["State"], "FAILED")
        self.assertIn("no-such-results-bucket", e["Status"]["StateChangeReason"])

    def test_06_rest_binding_and_cli(self):
        if not os.path.exists(REST_PYTHON):
            self.skipTest("%s is missing: run scripts/setup-deps" % REST_PYTHON)
        self.succeed("INSERT INTO daily VALUES (1, 'a', 0.5)")
        out = subprocess.run([REST_PYTHON, "-c", REST_SCRIPT, self.server.endpoint, json.dumps(CONTEXT), OUTPUT],
                             capture_output=True, text=True, timeout=600)
        self.assertEqual(out.returncode, 0, out.stderr)
        got = json.loads(out.stdout)
        self.assertEqual(got["protocol"], "rest-json")
        self.assertEqual([[d.get("VarCharValue") for d in r["Data"]] for r in got["rows"]][:2], [["id", "name"], ["1", "a"]])
        env = client_env(self.server)
        run = lambda *a: json.loads(subprocess.run([AWS_CLI, "--endpoint-url", self.server.endpoint, "--output", "json",
                                                    "athena"] + list(a), capture_output=True, text=True, env=env,
                                                   check=True, timeout=120).stdout)
        qid = run("start-query-execution", "--query-string", "SELECT count(*) AS n FROM daily WHERE id = 1",
                  "--query-execution-context", "Catalog=s3tablescatalog/analytics,Database=sales",
                  "--result-configuration", "OutputLocation=" + OUTPUT)["QueryExecutionId"]
        for _ in range(QUERY_TIMEOUT_S * 5):
            if run("get-query-execution", "--query-execution-id", qid)["QueryExecution"]["Status"]["State"] not in (
                    "QUEUED", "RUNNING"):
                break
            time.sleep(0.2)
        rows = run("get-query-results", "--query-execution-id", qid)["ResultSet"]["Rows"]
        self.assertEqual(rows[0]["Data"], [{"VarCharValue": "n"}])
        self.assertGreaterEqual(int(rows[1]["Data"][0]["VarCharValue"]), 1)

    def test_07_pyiceberg_reads_athena_and_athena_reads_pyiceberg(self):
        import pyarrow as pa
        self.succeed("CREATE TABLE shared (id bigint, note varchar)")
        self.succeed("INSERT INTO shared VALUES (1, 'athena')")
        athenas = values(self.results(self.succeed(  # the snapshot of Athena's insert, exact (a bigint)
            'SELECT snapshot_id FROM "shared$snapshots" ORDER BY committed_at DESC LIMIT 1')))[1][0]
        catalog = snippets.run_python("pyiceberg-rest", self.server.endpoint, self.arn)["catalog"]
        table = catalog.load_table("sales.shared")
        self.assertEqual(table.scan().to_arrow().to_pylist(), [{"id": 1, "note": "athena"}])
        table.append(pa.table({"id": pa.array([2], pa.int64()), "note": pa.array(["pyiceberg"], pa.string())}))
        e = self.succeed("SELECT id, note FROM shared ORDER BY id")
        self.assertEqual(values(self.results(e)), [["id", "note"], ["1", "athena"], ["2", "pyiceberg"]])
        # time travel to Athena's own snapshot, before PyIceberg's append
        e = self.succeed("SELECT id, note FROM shared FOR VERSION AS OF %s" % athenas)
        self.assertEqual(values(self.results(e)), [["id", "note"], ["1", "athena"]])
        # MERGE, then PyIceberg reads what it left
        self.succeed("MERGE INTO shared t USING (VALUES (2, 'merged'), (3, 'new')) AS s(id, note) ON t.id = s.id "
                     "WHEN MATCHED THEN UPDATE SET note = s.note WHEN NOT MATCHED THEN INSERT (id, note) VALUES (s.id, s.note)")
        table = catalog.load_table("sales.shared")
        self.assertEqual(sorted(table.scan().to_arrow().to_pylist(), key=lambda r: r["id"]),
                         [{"id": 1, "note": "athena"}, {"id": 2, "note": "merged"}, {"id": 3, "note": "new"}])

    def start(self, sql):
        return self.athena.start_query_execution(QueryString=sql, QueryExecutionContext=CONTEXT,
                                                 ResultConfiguration={"OutputLocation": OUTPUT})["QueryExecutionId"]

    def wait_state(self, qid, wanted, timeout_s=300):
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            e = self.athena.get_query_execution(QueryExecutionId=qid)["QueryExecution"]
            if e["Status"]["State"] in wanted:
                return e
            time.sleep(0.2)
        raise AssertionError("query %s never reached %s: %s" % (qid, wanted, e["Status"]))

    def test_07b_long_results_page_through_in_order(self):
        # 3,000 rows of about 700 bytes, then one row longer than the bytes Floe reads for a page at first
        e = self.succeed("SELECT n, rpad('', 700, 'x') || CAST(n AS varchar) AS s FROM UNNEST(sequence(1, 3000)) AS t(n) "
                         "ORDER BY n")
        rows = []
        for page in self.athena.get_paginator("get_query_results").paginate(QueryExecutionId=e["QueryExecutionId"]):
            rows.extend(values(page))
        self.assertEqual(rows[0], ["n", "s"])
        self.assertEqual(rows[1:], [[str(n), "x" * 700 + str(n)] for n in range(1, 3001)])
        e = self.succeed("SELECT rpad('', 600000, 'y') AS wide, 'z' AS narrow")
        self.assertEqual(values(self.results(e)), [["wide", "narrow"], ["y" * 600000, "z"]])

    def test_08_stop_and_crash_while_a_query_runs(self):
        slow = ("SELECT count(*) FROM UNNEST(sequence(1, 10000)) a(x) CROSS JOIN UNNEST(sequence(1, 10000)) b(y) "
                "CROSS JOIN UNNEST(sequence(1, 10000)) c(z)")
        # StopQueryExecution while it runs: CANCELLED, and the engine takes the next query
        qid = self.start(slow)
        self.wait_state(qid, ("RUNNING",))
        self.athena.stop_query_execution(QueryExecutionId=qid)
        self.assertEqual(self.wait_state(qid, ("CANCELLED", "FAILED", "SUCCEEDED"))["Status"]["State"], "CANCELLED")
        self.assertEqual(values(self.results(self.succeed("SELECT 42 AS answer"))), [["answer"], ["42"]])
        # kill -9 while it runs: FAILED with a reason at the next start, never stuck
        qid = self.start(slow)
        self.wait_state(qid, ("RUNNING",))
        self.server.kill()
        self.server.start()
        e = self.wait_state(qid, ("FAILED", "SUCCEEDED", "CANCELLED"), timeout_s=60)
        self.assertEqual(e["Status"]["State"], "FAILED")
        self.assertIn("Floe stopped while the query was running", e["Status"]["StateChangeReason"])


if __name__ == "__main__":
    unittest.main(verbosity=2)

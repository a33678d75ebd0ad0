#!/usr/bin/python3
"""Athena runs several queries at once, as a workgroup on AWS does, on the one Trino Floe starts;
boto3 (Debian's, awsJson1_1) throughout, one Floe and one Trino start for the whole file:
  - three queries submitted together on a cold Floe all wait QUEUED with the reason that Trino is
    starting, Trino starts once, and all three SUCCEED, two of them creating tables in a table
    bucket no query had named before (its Trino catalog is made once);
  - a short query SUCCEEDS with its rows while two long ones are RUNNING; StopQueryExecution
    cancels the query it names and leaves the other RUNNING;
  - six short queries submitted together all SUCCEED with their own rows, two of them in a
    second, new table bucket;
  - at most four run at once (a fifth stays QUEUED), and Floe stopped while they run exits
    cleanly with its Trino gone."""

import os
import re
import socket
import sys
import time

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, HERE)
from floe_server import FloeTestCase, main  # noqa: E402

TRINO_HOME = os.path.join(os.environ.get("FLOE_TRINO_CACHE", os.path.expanduser("~/.cache/floe-trino")),
                          "trino-server-476")
CONTEXT = {"Catalog": "s3tablescatalog/analytics", "Database": "sales"}
SECOND = {"Catalog": "s3tablescatalog/second", "Database": "sales"}
OUTPUT = "s3://athena-results/"
QUERY_TIMEOUT_S = 900  # the first queries wait for Trino to start: a cold JVM on a loaded 2-core machine
STARTING = "Starting Trino"
RUNNING_AT_ONCE = 4    # the engine's workers (docs/athena.md)
SLOW = ("SELECT count(*) FROM UNNEST(sequence(1, 10000)) a(x) CROSS JOIN UNNEST(sequence(1, 10000)) b(y) "
        "CROSS JOIN UNNEST(sequence(1, 10000)) c(z)")  # 10^12 rows: runs until stopped
ROWS = [(1, "a"), (2, "b"), (3, "c"), (4, "d"), (5, "e"), (6, "f")]


def values(result):
    return [[d.get("VarCharValue") for d in row["Data"]] for row in result["ResultSet"]["Rows"]]


class AthenaConcurrentQueriesTests(FloeTestCase):
    server_args = ("--quiet",)

    @classmethod
    def setUpClass(cls):
        if not os.path.exists(os.path.join(TRINO_HOME, "bin", "launcher")):
            import unittest
            raise unittest.SkipTest("Trino is not installed: run scripts/setup-deps --athena")
        super().setUpClass()
        cls.athena = cls.make_client("athena")
        s3 = cls.make_client("s3")
        for bucket in ("analytics", "second"):
            arn = cls.s3tables.create_table_bucket(name=bucket)["arn"]
            cls.s3tables.create_namespace(tableBucketARN=arn, namespace=["sales"])
        cls.s3tables.create_table(tableBucketARN=arn, namespace="sales", name="empty", format="ICEBERG",
                                  metadata={"iceberg": {"schema": {"fields": [{"name": "id", "type": "int"}]}}})
        s3.create_bucket(Bucket="athena-results")

    def start(self, sql, context=CONTEXT):
        return self.athena.start_query_execution(QueryString=sql, QueryExecutionContext=context,
                                                 ResultConfiguration={"OutputLocation": OUTPUT})["QueryExecutionId"]

    def status(self, qid):
        return self.athena.get_query_execution(QueryExecutionId=qid)["QueryExecution"]["Status"]

    def wait_state(self, qid, wanted, timeout_s=QUERY_TIMEOUT_S):
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            status = self.status(qid)
            if status["State"] in wanted:
                return status
            time.sleep(0.2)
        self.fail("query %s never reached %s: %s" % (qid, wanted, status))

    def wait_all(self, qids):
        """The end of each query, once none is QUEUED or RUNNING."""
        return [self.wait_state(qid, ("SUCCEEDED", "FAILED", "CANCELLED")) for qid in qids]

    def stop_unfinished(self, qids):
        """A failed test's queries stopped, so the next test starts with the engine free."""
        for qid in qids:
            if self.status(qid)["State"] in ("QUEUED", "RUNNING"):
                self.athena.stop_query_execution(QueryExecutionId=qid)

    def floe_log(self):
        with open(self.server.log_path, "rb") as f:
            return f.read().decode("utf-8", "replace")

    def rows(self, qid):
        return values(self.athena.get_query_results(QueryExecutionId=qid))

    def test_01_queries_submitted_together_share_trino_and_a_new_catalog(self):
        qids = [self.start("CREATE TABLE daily (id int, name varchar)"), self.start("CREATE TABLE other (id int)"),
                self.start("SELECT 1 AS one")]
        # all three wait for the one Trino, each saying why
        deadline, waiting = time.monotonic() + 60, set()
        while time.monotonic() < deadline and len(waiting) < len(qids):
            for qid in qids:
                status = self.status(qid)
                self.assertEqual(status["State"], "QUEUED", "no query runs before Trino has started")
                if STARTING in status.get("StateChangeReason", ""):
                    waiting.add(qid)
            time.sleep(0.2)
        self.assertEqual(len(waiting), len(qids), "every query waiting for Trino says so")
        ends = self.wait_all(qids)
        self.assertEqual([e["State"] for e in ends], ["SUCCEEDED"] * 3, ends)
        self.assertEqual(self.rows(qids[2]), [["one"], ["1"]])
        names = [t["name"] for t in self.s3tables.list_tables(
            tableBucketARN=self.s3tables.list_table_buckets(prefix="analytics")["tableBuckets"][0]["arn"],
            namespace="sales")["tables"]]
        self.assertEqual(sorted(names), ["daily", "other"])
        starts = re.findall(r"athena: starting Trino", self.floe_log())
        self.assertEqual(len(starts), 1, "Trino is started once")

    def test_02_a_short_query_is_not_stuck_behind_long_ones(self):
        insert = self.start("INSERT INTO daily VALUES " + ", ".join("(%d, '%s')" % r for r in ROWS))
        self.assertEqual(self.wait_all([insert])[0]["State"], "SUCCEEDED")
        long_ones = [self.start(SLOW), self.start(SLOW)]
        self.addCleanup(self.stop_unfinished, long_ones)
        for qid in long_ones:
            self.wait_state(qid, ("RUNNING",), timeout_s=120)
        # StopQueryExecution cancels the query it names, and only that one
        self.athena.stop_query_execution(QueryExecutionId=long_ones[1])
        self.assertEqual(self.wait_state(long_ones[1], ("CANCELLED", "FAILED", "SUCCEEDED"), 120)["State"], "CANCELLED")
        self.assertEqual(self.status(long_ones[0])["State"], "RUNNING", "the other long query runs on")
        short = self.start("SELECT name FROM daily WHERE id = 2")
        end = self.wait_state(short, ("SUCCEEDED", "FAILED", "CANCELLED"), timeout_s=300)
        self.assertEqual(end["State"], "SUCCEEDED", end)
        self.assertEqual(self.rows(short), [["name"], ["b"]])
        self.assertEqual(self.status(long_ones[0])["State"], "RUNNING", "the short query ended while the long one ran")
        self.athena.stop_query_execution(QueryExecutionId=long_ones[0])
        self.assertEqual(self.wait_state(long_ones[0], ("CANCELLED", "FAILED", "SUCCEEDED"), 120)["State"], "CANCELLED")

    def test_03_six_short_queries_at_once(self):
        qids = [self.start("SELECT id, name FROM daily WHERE id = %d" % i) for i, _ in ROWS[:4]]
        qids += [self.start("SELECT count(*) AS n FROM empty", context=SECOND) for _ in range(2)]
        ends = self.wait_all(qids)
        self.assertEqual([e["State"] for e in ends], ["SUCCEEDED"] * 6, ends)
        for qid, (i, name) in zip(qids[:4], ROWS):
            self.assertEqual(self.rows(qid), [["id", "name"], [str(i), name]])
        for qid in qids[4:]:
            self.assertEqual(self.rows(qid), [["n"], ["0"]])

    def test_04_at_most_four_at_once_and_a_clean_stop(self):
        qids = [self.start(SLOW) for _ in range(RUNNING_AT_ONCE + 1)]
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            states = [self.status(qid)["State"] for qid in qids]
            if states.count("RUNNING") == RUNNING_AT_ONCE:
                break
            time.sleep(0.2)
        self.assertEqual(sorted(states), ["QUEUED"] + ["RUNNING"] * RUNNING_AT_ONCE, "four run, the fifth waits")
        time.sleep(2)
        self.assertEqual(self.status(qids[-1])["State"], "QUEUED", "the fifth still waits")
        port = int(re.search(r"athena: starting Trino \S+ at http://127\.0\.0\.1:(\d+)", self.floe_log()).group(1))
        # SIGTERM while four run: every worker ends its query, Trino stops, Floe exits 0 (stop() checks)
        self.server.stop(timeout_s=120)
        with socket.socket() as s:
            self.assertNotEqual(s.connect_ex(("127.0.0.1", port)), 0, "Floe's Trino stopped with it")


if __name__ == "__main__":
    main()

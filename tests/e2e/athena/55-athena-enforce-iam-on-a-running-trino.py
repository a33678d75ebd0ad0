#!/usr/bin/python3
"""Athena under `floe serve --strict-signatures --enforce-iam --athena-trino-url URL`: a Trino that
Floe did not start does not ask Floe before each access (only Floe's own is started with Trino's
access control pointed at Floe), so before a query of any caller but the account's root runs
there, Floe asks that Trino for its own plan of it (EXPLAIN IO) and decides each table it reads
and writes as Floe's own Trino would ask it. A user allowed s3tables:GetTableData on one table
(and glue:GetTable, which Athena needs) reads it; reading another table, alone or in a join, and an
INSERT into the one it reads fail with AWS's AccessDeniedException sentence, and the INSERT leaves
the table as it was. A user allowed everything writes with INSERT ... SELECT, but a statement
without such a plan (CREATE TABLE, CREATE TABLE AS, whose EXPLAIN would make the table, SHOW
TABLES, DROP TABLE) stays the root's, and nothing is made or dropped. The running Trino is another Floe's
own (started by a first query, as Floe starts it; its catalog management is dynamic, as
--athena-trino-url requires). boto3, Debian's, signed with each principal's keys."""

import os
import re
import sys
import time
import unittest

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "authz"))
from enforce_iam import allow, refusal  # noqa: E402
from floe_server import FloeServer, FloeTestCase, engine_env, main  # noqa: E402

OWNER, SECRET = "111122223333", "owner-secret"
TRINO_HOME = os.path.join(os.environ.get("FLOE_TRINO_CACHE", os.path.expanduser("~/.cache/floe-trino")),
                          "trino-server-476")
CONTEXT = {"Catalog": "s3tablescatalog/shared", "Database": "sales"}
OUTPUT = "s3://athena-results/"
QUERY_TIMEOUT_S = 900


def run_query(client, sql, context=CONTEXT):
    qid = client.start_query_execution(QueryString=sql, QueryExecutionContext=context,
                                       ResultConfiguration={"OutputLocation": OUTPUT})["QueryExecutionId"]
    deadline = time.monotonic() + QUERY_TIMEOUT_S
    while time.monotonic() < deadline:
        e = client.get_query_execution(QueryExecutionId=qid)["QueryExecution"]
        if e["Status"]["State"] not in ("QUEUED", "RUNNING"):
            return e
        time.sleep(0.2)
    raise AssertionError("query did not end: %s" % sql)


class EnforceIamOnARunningTrinoTests(FloeTestCase):
    @classmethod
    def setUpClass(cls):
        if not os.path.exists(os.path.join(TRINO_HOME, "bin", "launcher")):
            raise unittest.SkipTest("Trino is not installed: run scripts/setup-deps --athena")
        engine_env()
        import boto3
        cls.host = FloeServer("--quiet").start()
        host = boto3.client("athena", endpoint_url=cls.host.endpoint, region_name="us-east-1")
        boto3.client("s3", endpoint_url=cls.host.endpoint, region_name="us-east-1").create_bucket(
            Bucket="athena-results")
        e = run_query(host, "SELECT 1", context={})
        assert e["Status"]["State"] == "SUCCEEDED", e["Status"]
        trino_url = re.search(r"starting Trino \S+ at (http://\S+)", cls.host.log_text()).group(1)
        cls.server_args = ("--strict-signatures", "--enforce-iam", "--credentials", "%s:%s" % (OWNER, SECRET),
                           "--athena-trino-url", trino_url)
        super().setUpClass()
        cls.iam = cls.signed_client("iam", OWNER, SECRET)
        cls.root = cls.signed_client("athena", OWNER, SECRET)
        cls.s3tables = cls.signed_client("s3tables", OWNER, SECRET)
        cls.arn = cls.s3tables.create_table_bucket(name="shared")["arn"]
        cls.s3tables.create_namespace(tableBucketARN=cls.arn, namespace=["sales"])
        cls.signed_client("s3", OWNER, SECRET).create_bucket(Bucket="athena-results")
        for sql in ("CREATE TABLE orders (id int, item varchar)", "INSERT INTO orders VALUES (1, 'book')",
                    "CREATE TABLE other (id int)", "INSERT INTO other VALUES (7)"):
            e = run_query(cls.root, sql)
            assert e["Status"]["State"] == "SUCCEEDED", (sql, e["Status"])
        cls.orders_arn = cls.table_arn("orders")

    @classmethod
    def tearDownClass(cls):
        super().tearDownClass()
        cls.host.cleanup()

    @classmethod
    def table_arn(cls, name):
        return cls.s3tables.get_table(tableBucketARN=cls.arn, namespace="sales", name=name)["tableARN"]

    def new_user(self, name, statements):
        arn = self.iam.create_user(UserName=name)["User"]["Arn"]
        for i, (actions, resources) in enumerate(statements):
            self.iam.put_user_policy(UserName=name, PolicyName="p%d" % i, PolicyDocument=allow(actions, resources))
        key = self.iam.create_access_key(UserName=name)["AccessKey"]
        return arn, self.signed_client("athena", key["AccessKeyId"], key["SecretAccessKey"])

    def rows(self, client, e):
        self.assertEqual(e["Status"]["State"], "SUCCEEDED", e["Status"])
        rows = client.get_query_results(QueryExecutionId=e["QueryExecutionId"])["ResultSet"]["Rows"]
        return [[d.get("VarCharValue") for d in r["Data"]] for r in rows]

    def assertDenied(self, e, reason):
        self.assertEqual(e["Status"]["State"], "FAILED", e["Status"])
        self.assertEqual(e["Status"]["StateChangeReason"], "AccessDeniedException: " + reason)
        self.assertEqual(e["Status"]["AthenaError"]["ErrorCategory"], 2, "a user error")

    def assertRootOnly(self, e):
        self.assertEqual(e["Status"]["State"], "FAILED", e["Status"])
        reason = e["Status"]["StateChangeReason"]
        self.assertTrue(reason.startswith("AccessDeniedException: "), reason)
        for words in ("--athena-trino-url", "EXPLAIN IO", "CREATE TABLE, CREATE TABLE AS, ALTER, DROP, SHOW", "root"):
            self.assertIn(words, reason)
        self.assertEqual(e["Status"]["AthenaError"]["ErrorCategory"], 2, "a user error")

    def test_a_reader_of_one_table_reads_it_and_nothing_else(self):
        user, reader = self.new_user("reader", [(["athena:*", "glue:GetTable"], "*"),
                                                (["s3tables:GetTableData"], [self.orders_arn])])
        self.assertEqual(self.rows(reader, run_query(reader, "SELECT id, item FROM orders")),
                         [["id", "item"], ["1", "book"]])
        self.assertDenied(run_query(reader, "SELECT * FROM other"),
                          refusal(user, "s3tables:GetTableData", self.table_arn("other")))
        self.assertDenied(run_query(reader, "SELECT o.id FROM orders o JOIN other t ON o.id = t.id"),
                          refusal(user, "s3tables:GetTableData", self.table_arn("other")))
        self.assertDenied(run_query(reader, "INSERT INTO orders VALUES (2, 'pen')"),
                          refusal(user, "s3tables:PutTableData", self.orders_arn))
        self.assertEqual(self.rows(self.root, run_query(self.root, "SELECT id, item FROM orders")),
                         [["id", "item"], ["1", "book"]], "the refused INSERT wrote nothing")

    def test_a_statement_without_a_plan_of_tables_stays_the_roots(self):
        _, analyst = self.new_user("analyst", [(["athena:*", "s3tables:*", "glue:*"], "*")])
        e = run_query(analyst, "INSERT INTO other SELECT id + 1 FROM other")
        self.assertEqual(e["Status"]["State"], "SUCCEEDED", e["Status"])
        self.assertEqual(self.rows(analyst, run_query(analyst, "SELECT id FROM other ORDER BY id")),
                         [["id"], ["7"], ["8"]])
        for sql in ("CREATE TABLE made (id int)", "CREATE TABLE doubled AS SELECT id * 2 AS id FROM other",
                    "SHOW TABLES", "DROP TABLE other"):
            self.assertRootOnly(run_query(analyst, sql))
        names = [t["name"] for t in self.s3tables.list_tables(tableBucketARN=self.arn)["tables"]]
        self.assertEqual(sorted(names), ["orders", "other"], "nothing was made or dropped")
        e = run_query(self.root, "CREATE TABLE made (id int)")
        self.assertEqual(e["Status"]["State"], "SUCCEEDED", e["Status"])


if __name__ == "__main__":
    main()

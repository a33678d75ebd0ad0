#!/usr/bin/python3
"""Athena under `floe serve --strict-signatures --enforce-iam --athena-trino-url URL`: a Trino that
Floe did not start does not ask Floe before each access (only Floe's own is started with Trino's
access control pointed at Floe), so Floe cannot decide a query's table accesses there. An IAM user
allowed everything in Athena, S3 Tables and Glue has its query FAILED with an
AccessDeniedException that says why; the account's root, who may do everything in its account,
runs its queries there. The running Trino is another Floe's own (started by a first query, as
Floe starts it; its catalog management is dynamic, as --athena-trino-url requires). boto3,
Debian's, signed with each principal's keys."""

import os
import re
import sys
import time
import unittest

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "authz"))
from enforce_iam import allow  # noqa: E402
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
        s3tables = cls.signed_client("s3tables", OWNER, SECRET)
        arn = s3tables.create_table_bucket(name="shared")["arn"]
        s3tables.create_namespace(tableBucketARN=arn, namespace=["sales"])
        cls.signed_client("s3", OWNER, SECRET).create_bucket(Bucket="athena-results")

    @classmethod
    def tearDownClass(cls):
        super().tearDownClass()
        cls.host.cleanup()

    def test_a_user_is_refused_and_the_root_runs(self):
        e = run_query(self.root, "CREATE TABLE orders (id int, item varchar)")
        self.assertEqual(e["Status"]["State"], "SUCCEEDED", e["Status"])
        e = run_query(self.root, "INSERT INTO orders VALUES (1, 'book')")
        self.assertEqual(e["Status"]["State"], "SUCCEEDED", e["Status"])
        self.iam.create_user(UserName="analyst")
        self.iam.put_user_policy(UserName="analyst", PolicyName="p",
                                 PolicyDocument=allow(["athena:*", "s3tables:*", "glue:*"], "*"))
        key = self.iam.create_access_key(UserName="analyst")["AccessKey"]
        analyst = self.signed_client("athena", key["AccessKeyId"], key["SecretAccessKey"])
        e = run_query(analyst, "SELECT * FROM orders")
        self.assertEqual(e["Status"]["State"], "FAILED", e["Status"])
        self.assertTrue(e["Status"]["StateChangeReason"].startswith("AccessDeniedException: "), e["Status"])
        self.assertIn("--athena-trino-url", e["Status"]["StateChangeReason"])
        self.assertEqual(e["Status"]["AthenaError"]["ErrorCategory"], 2, "a user error")
        e = run_query(self.root, "SELECT id, item FROM orders")
        self.assertEqual(e["Status"]["State"], "SUCCEEDED", e["Status"])
        rows = self.root.get_query_results(QueryExecutionId=e["QueryExecutionId"])["ResultSet"]["Rows"]
        self.assertEqual([[d.get("VarCharValue") for d in r["Data"]] for r in rows], [["id", "item"], ["1", "book"]])


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""Spark under an assumed role that may read but not write, against
`floe serve --strict-signatures --enforce-iam`. The account's root makes a table with rows
(PyIceberg) and a role it may assume whose inline identity policy is AWS's read-only one for S3
Tables (AmazonS3TablesReadOnlyAccess: `s3tables:Get*`, `s3tables:List*`). The root assumes the
role with boto3's STS and starts Spark with the session's AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY
and AWS_SESSION_TOKEN exported, which the AWS SDK for Java reads; the catalogs are configured as
AWS's guide does (Iceberg's REST catalog signed for `s3tables`, docs/engines.md's block, and AWS's
S3 Tables Catalog for Apache Iceberg). Through each, Spark reads the rows; its INSERT is refused
(the data file, by S3 on the table's storage: `s3tables:PutTableData`), and so are a property
change (the REST endpoint's 403 ForbiddenException for `s3tables:UpdateTableMetadataLocation`;
AWS's catalog writes the new metadata file first, refused as PutTableData) and a CREATE TABLE
(`s3tables:CreateTable` on the bucket: the REST endpoint's ForbiddenException, the S3 Tables API's
AccessDeniedException), each in AWS's words naming the role's session. The table is unchanged afterwards.

Runs under the engines' virtual environment (PyIceberg for the root's rows); Spark as in
tests/e2e/spark_engine.py."""

import json
import os
import sys
import unittest
import warnings

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(HERE, "..", "engines"))
sys.path.insert(0, HERE)
import snippets  # noqa: E402

snippets.reexec_in_venv()

from floe_server import FloeServer, engine_env  # noqa: E402
from read_only_role import ACCOUNT, READ_ONLY, ROOT_SECRET, ROWS, SCHEMA, refusal, trust  # noqa: E402
from spark_engine import require_spark, rows, spark_session  # noqa: E402

EXPECTED = sorted(zip(ROWS["id"].to_pylist(), ROWS["item"].to_pylist()))


class SparkReadOnlyRole(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        require_spark(cls)
        warnings.simplefilter("ignore", ResourceWarning)  # py4j's sockets
        engine_env(ACCOUNT, ROOT_SECRET)
        cls.server = FloeServer("--quiet", "--strict-signatures", "--enforce-iam", "--maintenance-interval", "0",
                                "--credentials=%s:%s" % (ACCOUNT, ROOT_SECRET)).start()
        # Class cleanups run even when setUpClass fails half way, last added first.
        cls.addClassCleanup(cls.server.cleanup)
        cls.addClassCleanup(engine_env)
        cls.addClassCleanup(os.environ.pop, "AWS_SESSION_TOKEN", None)
        import boto3
        root = boto3.session.Session(aws_access_key_id=ACCOUNT, aws_secret_access_key=ROOT_SECRET,
                                     region_name="us-east-1")
        cls.s3tables = root.client("s3tables", endpoint_url=cls.server.endpoint)
        cls.arn = cls.s3tables.create_table_bucket(name="lake")["arn"]
        cls.s3tables.create_namespace(tableBucketARN=cls.arn, namespace=["sales"])
        catalog = snippets.run_python("pyiceberg-rest", cls.server.endpoint, cls.arn)["catalog"]
        catalog.create_table("sales.orders", schema=SCHEMA).append(ROWS)
        cls.before = cls.table_state()
        iam = root.client("iam", endpoint_url=cls.server.endpoint)
        role = iam.create_role(RoleName="spark-reader",
                               AssumeRolePolicyDocument=trust("arn:aws:iam::%s:root" % ACCOUNT))["Role"]
        iam.put_role_policy(RoleName="spark-reader", PolicyName="S3TablesReadOnly",
                            PolicyDocument=json.dumps(READ_ONLY))
        out = root.client("sts", endpoint_url=cls.server.endpoint).assume_role(
            RoleArn=role["Arn"], RoleSessionName="spark")
        creds, cls.session_arn = out["Credentials"], out["AssumedRoleUser"]["Arn"]
        cls.spark = spark_session(cls.server, cls.arn, "floe-spark-read-only-role", env={
            "AWS_ACCESS_KEY_ID": creds["AccessKeyId"], "AWS_SECRET_ACCESS_KEY": creds["SecretAccessKey"],
            "AWS_SESSION_TOKEN": creds["SessionToken"]})
        cls.addClassCleanup(cls.spark.stop)

    @classmethod
    def table_state(cls):
        got = cls.s3tables.get_table(tableBucketARN=cls.arn, namespace="sales", name="orders")
        cls.table_arn = got["tableARN"]
        where = cls.s3tables.get_table_metadata_location(tableBucketARN=cls.arn, namespace="sales", name="orders")
        return got["versionToken"], where["metadataLocation"]

    def refused(self, sql, action, resource=None):
        with self.assertRaises(Exception, msg="%s is refused" % sql) as caught:
            self.spark.sql(sql).collect()
        self.assertIn(refusal(self.session_arn, action, resource or self.table_arn), str(caught.exception))
        return str(caught.exception)

    def check_catalog(self, cat, property_action):
        table = "%s.sales.orders" % cat
        self.assertEqual(rows(self.spark, "SELECT id, item FROM %s" % table), EXPECTED,
                         "the role reads the rows the root wrote")
        self.assertIn("Service: S3, Status Code: 403", self.refused(
            "INSERT INTO %s VALUES (4, 'fig')" % table, "s3tables:PutTableData"),
            "the data file's PutObject is refused by the table's storage")
        self.refused("ALTER TABLE %s SET TBLPROPERTIES ('team'='analytics')" % table, property_action)
        self.refused("CREATE TABLE %s.sales.intruder (id BIGINT) USING iceberg" % cat, "s3tables:CreateTable", self.arn)
        self.assertEqual(self.table_state(), self.before, "the table's version and metadata are unchanged")
        self.assertEqual(rows(self.spark, "SELECT id, item FROM %s" % table), EXPECTED, "and so are its rows")
        self.assertEqual([t["name"] for t in self.s3tables.list_tables(tableBucketARN=self.arn)["tables"]],
                         ["orders"], "and there is no other table")

    def test_rest_catalog(self):
        self.check_catalog("rest", "s3tables:UpdateTableMetadataLocation")

    def test_s3_tables_catalog(self):
        self.check_catalog("s3t", "s3tables:PutTableData")


if __name__ == "__main__":
    unittest.main(verbosity=2)

#!/usr/bin/python3
"""PyIceberg under an assumed role that may read but not write, against
`floe serve --strict-signatures --enforce-iam`. The account's root makes a table with rows
(PyIceberg, docs/engines.md's `pyiceberg-rest` block), a user and a role the user may assume, whose
identity policy is AWS's read-only one for S3 Tables (the managed policy AmazonS3TablesReadOnlyAccess:
`s3tables:Get*` and `s3tables:List*`), created as a customer managed policy and attached to the
role. The user assumes the role with boto3's STS; PyIceberg, configured by the page's block with the
session's key, secret and token (from the environment as the page says, or as the catalog's
`client.*` properties), reads the rows, and its writes are refused: an append's data file by S3 on
the table's storage (`s3tables:PutTableData`), a commit without new files by the REST endpoint
(403 ForbiddenException, `s3tables:UpdateTableMetadataLocation`), each in AWS's words naming the
role's session. The table is unchanged afterwards. A role scoped to one namespace by the guide's
`s3tables:namespace` condition reads that namespace's table, and only it.

PyIceberg comes from the engines' virtual environment, which the test re-executes itself in."""

import ast
import json
import os
import sys
import unittest

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(HERE, "..", "engines"))
sys.path.insert(0, HERE)
import snippets  # noqa: E402

snippets.reexec_in_venv()

from floe_server import FloeServer, engine_env  # noqa: E402

import pyarrow as pa  # noqa: E402
from pyiceberg.catalog import load_catalog  # noqa: E402
from pyiceberg.exceptions import ForbiddenError  # noqa: E402
from read_only_role import ACCOUNT, READ_ONLY, ROOT_SECRET, ROWS, SCHEMA, refusal, trust  # noqa: E402


class PyIcebergReadOnlyRole(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        engine_env(ACCOUNT, ROOT_SECRET)
        cls.server = FloeServer("--quiet", "--strict-signatures", "--enforce-iam",
                                "--credentials=%s:%s" % (ACCOUNT, ROOT_SECRET)).start()
        try:
            cls.make_table_as_root()
            cls.creds, cls.session_arn = cls.assume_read_only_role()
        except BaseException:
            cls.tearDownClass()
            raise

    @classmethod
    def tearDownClass(cls):
        engine_env()
        os.environ.pop("AWS_SESSION_TOKEN", None)
        cls.server.cleanup()

    @classmethod
    def client(cls, service, key=ACCOUNT, secret=ROOT_SECRET, token=None):
        import boto3
        return boto3.session.Session(aws_access_key_id=key, aws_secret_access_key=secret, aws_session_token=token,
                                     region_name="us-east-1").client(service, endpoint_url=cls.server.endpoint)

    @classmethod
    def make_table_as_root(cls):
        cls.s3tables = cls.client("s3tables")
        cls.arn = cls.s3tables.create_table_bucket(name="lake")["arn"]
        cls.s3tables.create_namespace(tableBucketARN=cls.arn, namespace=["sales"])
        root = snippets.run_python("pyiceberg-rest", cls.server.endpoint, cls.arn)["catalog"]
        root.create_table("sales.orders", schema=SCHEMA).append(ROWS)
        got = cls.s3tables.get_table(tableBucketARN=cls.arn, namespace="sales", name="orders")
        cls.table_arn, cls.version = got["tableARN"], got["versionToken"]
        cls.metadata = cls.metadata_location()

    @classmethod
    def metadata_location(cls):
        return cls.s3tables.get_table_metadata_location(tableBucketARN=cls.arn, namespace="sales",
                                                        name="orders")["metadataLocation"]

    @classmethod
    def assume_read_only_role(cls):
        """A user `analyst` (no policy of its own) assumes the role `reader`, whose trust policy
        names the user and whose only permissions are AWS's read-only managed policy's."""
        iam = cls.client("iam")
        user = iam.create_user(UserName="analyst")["User"]
        key = iam.create_access_key(UserName="analyst")["AccessKey"]
        iam.create_role(RoleName="reader", AssumeRolePolicyDocument=trust(user["Arn"]))
        policy = iam.create_policy(PolicyName="S3TablesReadOnly", PolicyDocument=json.dumps(READ_ONLY))["Policy"]
        iam.attach_role_policy(RoleName="reader", PolicyArn=policy["Arn"])
        sts = cls.client("sts", key["AccessKeyId"], key["SecretAccessKey"])
        out = sts.assume_role(RoleArn="arn:aws:iam::%s:role/reader" % ACCOUNT, RoleSessionName="analyst")
        return out["Credentials"], out["AssumedRoleUser"]["Arn"]

    def tearDown(self):
        engine_env(ACCOUNT, ROOT_SECRET)
        os.environ.pop("AWS_SESSION_TOKEN", None)

    def catalog_from_environment(self):
        """The page's block, as a shell with the session's variables exported runs it."""
        engine_env(self.creds["AccessKeyId"], self.creds["SecretAccessKey"])
        os.environ["AWS_SESSION_TOKEN"] = self.creds["SessionToken"]
        return snippets.run_python("pyiceberg-rest", self.server.endpoint, self.arn)["catalog"]

    def catalog_from_properties(self):
        """The page's settings plus the session as PyIceberg's client.* properties, which both the
        REST catalog's SigV4 signer and the table's FileIO read; the environment holds another key."""
        engine_env("AKIAIOSFODNN7EXAMPLE", "not-a-secret-floe-knows")
        page = ast.parse(snippets.render("pyiceberg-rest", self.server.endpoint, self.arn))
        props = ast.literal_eval(next(n for n in ast.walk(page) if isinstance(n, ast.Dict)))
        props.update({"client.access-key-id": self.creds["AccessKeyId"],
                      "client.secret-access-key": self.creds["SecretAccessKey"],
                      "client.session-token": self.creds["SessionToken"]})
        return load_catalog("floe", **props)

    def assert_read_only(self, catalog):
        self.assertEqual(catalog.list_tables("sales"), [("sales", "orders")], "the role lists the tables")
        table = catalog.load_table("sales.orders")
        self.assertEqual(table.scan().to_arrow().sort_by("id"), ROWS, "and reads the rows the root wrote")

        with self.assertRaises(OSError, msg="an append is refused: its data file is written to the "
                                            "table's storage, which needs s3tables:PutTableData") as caught:
            table.append(pa.table({"id": pa.array([4], pa.int64()), "item": ["fig"]}, schema=SCHEMA.as_arrow()))
        self.assertIn("ACCESS_DENIED", str(caught.exception), "S3's AccessDenied")
        self.assertIn(refusal(self.session_arn, "s3tables:PutTableData", self.table_arn), str(caught.exception))

        with self.assertRaises(ForbiddenError, msg="a commit without new files is refused by the REST "
                                                   "endpoint: updateTable needs UpdateTableMetadataLocation") as caught:
            table.transaction().set_properties(owner="analyst").commit_transaction()
        self.assertIn(refusal(self.session_arn, "s3tables:UpdateTableMetadataLocation", self.table_arn),
                      str(caught.exception))

        with self.assertRaises(ForbiddenError, msg="and so is a new table") as caught:
            catalog.create_table("sales.intruder", schema=SCHEMA)
        self.assertIn(refusal(self.session_arn, "s3tables:CreateTable", self.arn), str(caught.exception))
        self.assert_unchanged()

    def assert_unchanged(self):
        got = self.s3tables.get_table(tableBucketARN=self.arn, namespace="sales", name="orders")
        self.assertEqual((got["versionToken"], self.metadata_location()), (self.version, self.metadata),
                         "the refused writes left the table's version and metadata as they were")
        self.assertEqual([t["name"] for t in self.s3tables.list_tables(tableBucketARN=self.arn,
                                                                       namespace="sales")["tables"]],
                         ["orders"], "and made no table")
        engine_env(ACCOUNT, ROOT_SECRET)
        os.environ.pop("AWS_SESSION_TOKEN", None)
        root = snippets.run_python("pyiceberg-rest", self.server.endpoint, self.arn)["catalog"]
        self.assertEqual(root.load_table("sales.orders").scan().to_arrow().sort_by("id"), ROWS,
                         "the root reads the same rows")

    def test_the_session_from_the_environment_reads_and_may_not_write(self):
        self.assert_read_only(self.catalog_from_environment())

    def test_the_session_as_catalog_properties_reads_and_may_not_write(self):
        self.assert_read_only(self.catalog_from_properties())

    def test_a_role_scoped_to_a_namespace_reads_that_namespace_only(self):
        """The guide's example 2 (read access to the tables of the `hr` namespace: GetTableData and
        GetTableMetadataLocation under `"StringLike": {"s3tables:namespace": "hr"}`) as a role's
        identity policy, with what the catalog needs on the bucket: PyIceberg reads hr's table,
        data files included (S3 on the table's storage carries the table's namespace), and may not
        load sales' table."""
        self.s3tables.create_namespace(tableBucketARN=self.arn, namespace=["hr"])
        snippets.run_python("pyiceberg-rest", self.server.endpoint, self.arn)["catalog"].create_table(
            "hr.staff", schema=SCHEMA).append(ROWS)
        policy = {"Version": "2012-10-17", "Statement": [
            {"Sid": "Catalog", "Effect": "Allow", "Resource": self.arn,
             "Action": ["s3tables:GetTableBucket", "s3tables:ListNamespaces", "s3tables:ListTables"]},
            {"Sid": "ReadHr", "Effect": "Allow", "Resource": self.arn + "/table/*",
             "Action": ["s3tables:GetTableData", "s3tables:GetTableMetadataLocation"],
             "Condition": {"StringLike": {"s3tables:namespace": "hr"}}}]}
        iam = self.client("iam")
        role = iam.create_role(RoleName="hr-reader",
                               AssumeRolePolicyDocument=trust("arn:aws:iam::%s:root" % ACCOUNT))["Role"]
        iam.put_role_policy(RoleName="hr-reader", PolicyName="ReadHr", PolicyDocument=json.dumps(policy))
        out = self.client("sts").assume_role(RoleArn=role["Arn"], RoleSessionName="hr-reader")
        creds = out["Credentials"]
        engine_env(creds["AccessKeyId"], creds["SecretAccessKey"])
        os.environ["AWS_SESSION_TOKEN"] = creds["SessionToken"]
        catalog = snippets.run_python("pyiceberg-rest", self.server.endpoint, self.arn)["catalog"]
        self.assertEqual(catalog.load_table("hr.staff").scan().to_arrow().sort_by("id"), ROWS,
                         "the role reads hr's rows")
        with self.assertRaises(ForbiddenError) as caught:
            catalog.load_table("sales.orders")
        self.assertIn(refusal(out["AssumedRoleUser"]["Arn"], "s3tables:GetTableMetadataLocation", self.table_arn),
                      str(caught.exception), "and may not load sales' table")

    def test_the_root_still_writes(self):
        """The same writes succeed for the account's root, so the refusals above are the role's."""
        engine_env(ACCOUNT, ROOT_SECRET)
        catalog = snippets.run_python("pyiceberg-rest", self.server.endpoint, self.arn)["catalog"]
        catalog.create_table("sales.scratch", schema=SCHEMA).append(ROWS)
        self.assertEqual(len(catalog.load_table("sales.scratch").scan().to_arrow()), 3)
        catalog.purge_table("sales.scratch")


if __name__ == "__main__":
    unittest.main(verbosity=2)

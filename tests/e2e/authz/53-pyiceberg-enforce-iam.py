#!/usr/bin/python3
"""--enforce-iam on the S3 Tables Iceberg REST endpoint, with PyIceberg configured by the page's
`pyiceberg-rest` block: each REST operation needs the IAM actions AWS's S3 Tables guide lists for
it. Another account's root is refused (403 ForbiddenException with AWS's message, which PyIceberg
raises as ForbiddenError) until the owner's table bucket policy grants it reading (GetTableBucket,
ListNamespaces, ListTables, GetTableMetadataLocation, GetTableData); then it loads the table but may
not create one (CreateTable). The owner's root does everything.

Runs under the engines' virtual environment (tests/engines/requirements.txt): started with
/usr/bin/python3 like every e2e test, it re-executes itself there."""

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

from pyiceberg.exceptions import ForbiddenError  # noqa: E402
from pyiceberg.schema import Schema  # noqa: E402
from pyiceberg.types import LongType, NestedField  # noqa: E402

OWNER, OTHER = "111122223333", "444455556666"
SECRETS = {OWNER: "owner-secret", OTHER: "other-secret"}
SCHEMA = Schema(NestedField(1, "id", LongType(), required=True))


def refusal(action, resource):
    return ("User: arn:aws:iam::%s:root is not authorized to perform: %s on resource: %s because no "
            "resource-based policy allows the %s action" % (OTHER, action, resource, action))


class EnforceIamRest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        engine_env(OWNER, SECRETS[OWNER])
        cls.server = FloeServer("--quiet", "--strict-signatures", "--enforce-iam",
                                *["--credentials=%s:%s" % kv for kv in SECRETS.items()]).start()
        import boto3
        cls.s3tables = boto3.client("s3tables", endpoint_url=cls.server.endpoint, region_name="us-east-1")
        cls.arn = cls.s3tables.create_table_bucket(name="lake")["arn"]
        cls.s3tables.create_namespace(tableBucketARN=cls.arn, namespace=["sales"])
        cls.table_arn = cls.s3tables.create_table(
            tableBucketARN=cls.arn, namespace="sales", name="orders", format="ICEBERG",
            metadata={"iceberg": {"schema": {"fields": [{"name": "id", "type": "long", "required": True}]}}})["tableARN"]

    @classmethod
    def tearDownClass(cls):
        engine_env()
        cls.server.cleanup()

    def tearDown(self):
        engine_env(OWNER, SECRETS[OWNER])

    def catalog_as(self, account):
        engine_env(account, SECRETS[account])
        return snippets.run_python("pyiceberg-rest", self.server.endpoint, self.arn)["catalog"]

    def test_another_account_reads_only_what_the_bucket_policy_grants(self):
        with self.assertRaises(ForbiddenError) as caught:
            self.catalog_as(OTHER)
        self.assertIn(refusal("s3tables:GetTableBucket", self.arn), str(caught.exception),
                      "GET /v1/config needs s3tables:GetTableBucket on the bucket")
        policy = {"Version": "2012-10-17", "Statement": [
            {"Sid": "Catalog", "Effect": "Allow", "Principal": {"AWS": "arn:aws:iam::%s:root" % OTHER},
             "Action": ["s3tables:GetTableBucket", "s3tables:ListNamespaces", "s3tables:ListTables"],
             "Resource": self.arn},
            {"Sid": "Read", "Effect": "Allow", "Principal": {"AWS": "arn:aws:iam::%s:root" % OTHER},
             "Action": ["s3tables:GetTableMetadataLocation", "s3tables:GetTableData"],
             "Resource": self.arn + "/table/*"}]}
        self.s3tables.put_table_bucket_policy(tableBucketARN=self.arn, resourcePolicy=json.dumps(policy))
        catalog = self.catalog_as(OTHER)
        self.assertIn(("sales",), catalog.list_namespaces(), "the granted account lists namespaces")
        self.assertIn(("sales", "orders"), catalog.list_tables("sales"), "and tables")
        self.assertEqual(catalog.load_table("sales.orders").schema().fields[0].name, "id", "and loads the table")
        with self.assertRaises(ForbiddenError) as caught:
            catalog.create_table("sales.intruder", schema=SCHEMA)
        self.assertIn(refusal("s3tables:CreateTable", self.arn), str(caught.exception),
                      "createTable needs s3tables:CreateTable, which the policy does not grant")
        self.s3tables.delete_table_bucket_policy(tableBucketARN=self.arn)

    def test_the_owners_root_does_everything(self):
        catalog = self.catalog_as(OWNER)
        catalog.create_table("sales.mine", schema=SCHEMA)
        self.assertIn(("sales", "mine"), catalog.list_tables("sales"), "the owner creates and lists tables")
        catalog.purge_table("sales.mine")


if __name__ == "__main__":
    unittest.main(verbosity=2)

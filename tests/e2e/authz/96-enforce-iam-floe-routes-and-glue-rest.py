#!/usr/bin/python3
"""--enforce-iam on what the S3 Tables API does not carry: `floe maintenance run` (the route
POST /_floe/maintenance/run) needs the S3 Tables action that configures the job, the console's
stack pages need CloudFormation's read actions, and PyIceberg on the AWS Glue Iceberg REST endpoint
(the `pyiceberg-glue` block of docs/engines.md) needs the Glue actions of each operation, and Glue's
own API decides a default catalog's table on the catalog, its database and the table. An IAM
user with no identity policy is refused each, in the route's own shape with AWS's sentence; the
same user is allowed once an inline policy grants the actions; the account's root is allowed
throughout.

Runs under the engines' virtual environment (tests/engines/requirements.txt): started with
/usr/bin/python3 like every e2e test, it re-executes itself there."""

import json
import os
import subprocess
import sys
import unittest

E2E_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(E2E_DIR, "..", "engines"))
sys.path.insert(0, E2E_DIR)
import snippets  # noqa: E402

snippets.reexec_in_venv()

from enforce_iam import allow, console_get, refusal  # noqa: E402
from floe_server import FLOE_BIN, FloeServer, create_glue_integration, engine_env  # noqa: E402

from pyiceberg.exceptions import ForbiddenError  # noqa: E402

OWNER, SECRET = "111122223333", "owner-secret"
REGION = "us-east-1"
ROOT = "arn:aws:iam::%s:root" % OWNER
EXAMPLE_WAREHOUSE = "111122223333:s3tablescatalog/my-table-bucket"


class EnforceIamFloeRoutesAndGlueRest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        engine_env(OWNER, SECRET)
        cls.server = FloeServer("--quiet", "--strict-signatures", "--enforce-iam",
                                "--credentials=%s:%s" % (OWNER, SECRET)).start()
        import boto3
        client = lambda service: boto3.client(service, endpoint_url=cls.server.endpoint, region_name=REGION)  # noqa
        cls.s3tables, cls.iam = client("s3tables"), client("iam")
        cls.arn = cls.s3tables.create_table_bucket(name="routes")["arn"]
        cls.s3tables.create_namespace(tableBucketARN=cls.arn, namespace=["sales"])
        cls.table_arn = cls.s3tables.create_table(
            tableBucketARN=cls.arn, namespace="sales", name="orders", format="ICEBERG",
            metadata={"iceberg": {"schema": {"fields": [{"name": "id", "type": "long", "required": True}]}}})["tableARN"]
        create_glue_integration(client("glue"), OWNER)
        cfn = client("cloudformation")
        template = json.dumps({"Resources": {"Lake": {"Type": "AWS::S3Tables::TableBucket",
                                                      "Properties": {"TableBucketName": "from-a-stack"}}}})
        cls.stack_id = cfn.create_stack(StackName="lake", TemplateBody=template)["StackId"]
        cfn.get_waiter("stack_create_complete").wait(StackName=cls.stack_id,
                                                      WaiterConfig={"Delay": 1, "MaxAttempts": 60})

    @classmethod
    def tearDownClass(cls):
        engine_env()
        cls.server.cleanup()

    def tearDown(self):
        engine_env(OWNER, SECRET)

    def new_user(self, name):
        """An IAM user with no policy: (its ARN, its access key id, its secret)."""
        arn = self.iam.create_user(UserName=name)["User"]["Arn"]
        key = self.iam.create_access_key(UserName=name)["AccessKey"]
        return arn, key["AccessKeyId"], key["SecretAccessKey"]

    def maintenance(self, key, secret):
        """`floe maintenance run` of snapshot management on the table, signed with the key: (exit code, output)."""
        out = subprocess.run([FLOE_BIN, "maintenance", "run", "--endpoint", self.server.endpoint, "--arn",
                              self.table_arn, "--type", "icebergSnapshotManagement", "--credentials",
                              "%s:%s" % (key, secret)], capture_output=True, text=True, timeout=120)
        return out.returncode, out.stdout + out.stderr

    def console_get(self, route, params, key, secret):
        return console_get(self.server.endpoint, route, params, key, secret)

    def glue_catalog(self, key, secret):
        engine_env(key, secret)
        return snippets.run_python("pyiceberg-glue", self.server.endpoint, self.arn,
                                   **{EXAMPLE_WAREHOUSE: "%s:s3tablescatalog/routes" % OWNER})["catalog"]

    def test_maintenance_route_needs_the_action_that_configures_the_job(self):
        user, key, secret = self.new_user("maintainer")
        code, out = self.maintenance(key, secret)
        self.assertNotEqual(code, 0, "a user with no policy may not run maintenance: %s" % out)
        self.assertIn(refusal(user, "s3tables:PutTableMaintenanceConfiguration", self.table_arn), out,
                      "the route says why in AWS's words")
        self.iam.put_user_policy(UserName="maintainer", PolicyName="maintain", PolicyDocument=allow(
            "s3tables:PutTableMaintenanceConfiguration", self.table_arn))
        code, out = self.maintenance(key, secret)
        self.assertEqual(code, 0, "granted, the user runs the job: %s" % out)
        self.assertEqual(json.loads(out)["status"], "Successful", out)
        code, out = self.maintenance(OWNER, SECRET)
        self.assertEqual(code, 0, "the root runs maintenance in its account: %s" % out)

    def test_console_stack_pages_need_cloudformations_read_actions(self):
        user, key, secret = self.new_user("viewer")
        status, body = self.console_get("stacks", {}, key, secret)
        self.assertEqual((status, body.get("message")), (403, refusal(user, "cloudformation:ListStacks", "*")),
                         "the stack list is ListStacks, which names no resource")
        status, body = self.console_get("stack", {"id": self.stack_id}, key, secret)
        self.assertEqual((status, body.get("message")),
                         (403, refusal(user, "cloudformation:DescribeStacks", self.stack_id)),
                         "a stack's page is DescribeStacks on the stack's ARN first")
        self.iam.put_user_policy(UserName="viewer", PolicyName="stacks", PolicyDocument=allow(
            "cloudformation:ListStacks", "*"))
        self.iam.put_user_policy(UserName="viewer", PolicyName="stack", PolicyDocument=allow(
            ["cloudformation:Describe*", "cloudformation:GetTemplate"],
            "arn:aws:cloudformation:%s:%s:stack/lake/*" % (REGION, OWNER)))
        status, body = self.console_get("stacks", {}, key, secret)
        self.assertEqual(status, 200, body)
        self.assertIn("lake", [s["stackName"] for s in body["items"]], "granted, the user sees the stack list")
        status, body = self.console_get("stack", {"id": self.stack_id}, key, secret)
        self.assertEqual((status, body.get("stackName")), (200, "lake"), "and the stack's page")
        for route, params in (("stacks", {}), ("stack", {"id": self.stack_id})):
            self.assertEqual(self.console_get(route, params, OWNER, SECRET)[0], 200, "the root sees %s" % route)

    def test_glue_api_decides_a_default_catalog_table_on_each_level(self):
        import boto3
        from botocore.exceptions import ClientError
        owner = boto3.client("glue", endpoint_url=self.server.endpoint, region_name=REGION)
        owner.create_database(DatabaseInput={"Name": "levels"})
        for name in ("open", "closed"):
            owner.create_table(DatabaseName="levels", TableInput={"Name": name})
        user, key, secret = self.new_user("table-reader")
        glue = boto3.client("glue", endpoint_url=self.server.endpoint, region_name=REGION, aws_access_key_id=key,
                            aws_secret_access_key=secret)
        arn = "arn:aws:glue:%s:%s:" % (REGION, OWNER)

        def refused(call, **kwargs):
            with self.assertRaises(ClientError) as caught:
                call(**kwargs)
            error = caught.exception.response
            self.assertEqual((error["Error"]["Code"], error["ResponseMetadata"]["HTTPStatusCode"]),
                             ("AccessDeniedException", 400))
            return error["Error"]["Message"]

        self.assertEqual(refused(glue.get_table, DatabaseName="levels", Name="open"),
                         refusal(user, "glue:GetTable", arn + "catalog"))
        self.iam.put_user_policy(UserName="table-reader", PolicyName="glue",
                                 PolicyDocument=allow(["glue:GetTable"], [arn + "catalog"]))
        self.assertEqual(refused(glue.get_table, DatabaseName="levels", Name="open"),
                         refusal(user, "glue:GetTable", arn + "database/levels"), "then the database")
        self.iam.put_user_policy(UserName="table-reader", PolicyName="glue", PolicyDocument=allow(
            ["glue:GetTable"], [arn + "catalog", arn + "database/levels", arn + "table/levels/open"]))
        self.assertEqual(glue.get_table(DatabaseName="Levels", Name="OPEN")["Table"]["Name"], "open",
                         "granted on the three levels (names in lower case, as Glue keeps them)")
        self.assertEqual(refused(glue.get_table, DatabaseName="levels", Name="closed"),
                         refusal(user, "glue:GetTable", arn + "table/levels/closed"), "then the table")
        self.assertEqual(refused(glue.create_table, DatabaseName="levels", TableInput={"Name": "open"}),
                         refusal(user, "glue:CreateTable", arn + "catalog"), "each action is its own")

    def test_glue_iceberg_rest_endpoint_needs_glue_actions(self):
        user, key, secret = self.new_user("glue-reader")
        with self.assertRaises(ForbiddenError) as caught:
            self.glue_catalog(key, secret)
        self.assertIn(refusal(user, "glue:GetCatalog", "arn:aws:glue:%s:%s:catalog" % (REGION, OWNER)),
                      str(caught.exception), "GET /v1/config needs glue:GetCatalog on the account's catalog")
        # the policy AWS's S3 Tables guide gives a client of Glue's Iceberg REST endpoint
        glue = "arn:aws:glue:%s:%s:" % (REGION, OWNER)
        self.iam.put_user_policy(UserName="glue-reader", PolicyName="glue", PolicyDocument=allow(
            ["glue:GetCatalog", "glue:GetDatabase", "glue:GetDatabases", "glue:GetTable", "glue:GetTables"],
            [glue + "catalog", glue + "catalog/s3tablescatalog", glue + "catalog/s3tablescatalog/routes",
             glue + "database/s3tablescatalog/routes/sales", glue + "table/s3tablescatalog/routes/sales/*"]))
        catalog = self.glue_catalog(key, secret)
        self.assertIn(("sales", "orders"), catalog.list_tables("sales"), "granted, the user lists the tables")
        self.assertEqual(catalog.load_table("sales.orders").schema().fields[0].name, "id", "and loads one")
        with self.assertRaises(ForbiddenError) as caught:
            catalog.drop_table("sales.orders")
        self.assertIn(refusal(user, "glue:DeleteTable", glue + "catalog"), str(caught.exception),
                      "dropTable needs glue:DeleteTable, which the policy does not grant")
        root = self.glue_catalog(OWNER, SECRET)
        self.assertEqual(root.load_table("sales.orders").schema().fields[0].name, "id", "the root loads the table")


if __name__ == "__main__":
    unittest.main(verbosity=2)

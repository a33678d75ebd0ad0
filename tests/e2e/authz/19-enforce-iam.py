#!/usr/bin/python3
"""--enforce-iam: every S3 Tables call is authorized as AWS evaluates policies, with two accounts'
root keys (12-digit access keys). Another account is refused until the owner's table bucket policy
grants it (the S3 Tables user guide's examples, as written but for the account ids), a namespace
condition scopes the grant, an explicit Deny in a table policy refuses even the owner's root, a
malformed policy is refused by PutTablePolicy, and the flag is refused without --strict-signatures.
Denials carry AWS's AccessDeniedException message, seen by boto3 and the aws CLI."""

import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from enforce_iam import console_get  # noqa: E402
from floe_server import AWS_CLI, FLOE_BIN, FloeTestCase, client_env, main  # noqa: E402

OWNER, OTHER = "111122223333", "444455556666"
REGION = "us-east-1"
SCHEMA = {"fields": [{"name": "id", "type": "long", "required": True}]}


def denied(principal, action, resource, why):
    reasons = {
        "no-identity": "because no identity-based policy allows the %s action" % action,
        "no-resource": "because no resource-based policy allows the %s action" % action,
        "resource-deny": "with an explicit deny in a resource-based policy",
    }
    return "User: %s is not authorized to perform: %s on resource: %s %s" % (principal, action, resource, reasons[why])


class EnforceIamTests(FloeTestCase):
    server_args = ("--strict-signatures", "--enforce-iam", "--credentials", "%s:owner-secret" % OWNER,
                   "--credentials", "%s:other-secret" % OTHER)

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        import boto3
        cls.owner = cls.client_of(boto3, OWNER, "owner-secret")
        cls.other = cls.client_of(boto3, OTHER, "other-secret")
        cls.other_s3 = cls.client_of(boto3, OTHER, "other-secret", "s3")
        cls.owner_glue = cls.client_of(boto3, OWNER, "owner-secret", "glue")
        cls.other_glue = cls.client_of(boto3, OTHER, "other-secret", "glue")

    @classmethod
    def client_of(cls, boto3, key, secret, service="s3tables"):
        import botocore.config
        session = boto3.session.Session(aws_access_key_id=key, aws_secret_access_key=secret)
        return session.client(service, endpoint_url=cls.server.endpoint, region_name=REGION,
                              config=cls.botocore_config.merge(botocore.config.Config(s3={"addressing_style": "path"})))

    def bucket_with_table(self, bucket, namespace, table):
        arn = self.owner.create_table_bucket(name=bucket)["arn"]
        self.owner.create_namespace(tableBucketARN=arn, namespace=[namespace])
        table_arn = self.owner.create_table(tableBucketARN=arn, namespace=namespace, name=table, format="ICEBERG",
                                            metadata={"iceberg": {"schema": SCHEMA}})["tableARN"]
        return arn, table_arn

    def assertDenied(self, message, fn, **kwargs):
        response = self.assertClientError("AccessDeniedException", fn, **kwargs)
        self.assertEqual(response["ResponseMetadata"]["HTTPStatusCode"], 403, "a denial is a 403")
        self.assertEqual(response["Error"]["Message"], message, "the denial says why in AWS's words")

    def other_cli(self, *args):
        env = dict(client_env(self.server), AWS_ACCESS_KEY_ID=OTHER, AWS_SECRET_ACCESS_KEY="other-secret")
        self.require_tool(AWS_CLI)
        return subprocess.run([AWS_CLI, "--endpoint-url", self.server.endpoint, "--region", REGION, "--output", "json"]
                              + list(args), capture_output=True, text=True, env=env, timeout=120)

    def test_cross_account_read_is_granted_by_a_bucket_policy(self):
        arn, table_arn = self.bucket_with_table("shared", "sales", "orders")
        self.assertDenied(denied("arn:aws:iam::%s:root" % OTHER, "s3tables:GetTable", table_arn, "no-resource"),
                          self.other.get_table, tableBucketARN=arn, namespace="sales", name="orders")
        cli = self.other_cli("s3tables", "get-table-metadata-location", "--table-bucket-arn", arn,
                             "--namespace", "sales", "--name", "orders")
        self.assertNotEqual(cli.returncode, 0, "the aws CLI is refused too")
        self.assertIn("AccessDeniedException", cli.stderr, "the aws CLI names the error")
        self.assertIn(denied("arn:aws:iam::%s:root" % OTHER, "s3tables:GetTableMetadataLocation", table_arn,
                             "no-resource"), cli.stderr, "the aws CLI shows AWS's message")
        # the resource-based policy example of the S3 Tables user guide, granting the other account
        policy = {"Version": "2012-10-17", "Statement": [{
            "Effect": "Allow", "Principal": {"AWS": "arn:aws:iam::%s:root" % OTHER},
            "Action": ["s3tables:GetTable", "s3tables:GetTableData", "s3tables:GetTableMetadataLocation"],
            "Resource": "arn:aws:s3tables:%s:%s:bucket/shared/table/*" % (REGION, OWNER)}]}
        self.owner.put_table_bucket_policy(tableBucketARN=arn, resourcePolicy=json.dumps(policy))
        got = self.other.get_table(tableBucketARN=arn, namespace="sales", name="orders")
        self.assertEqual(got["tableARN"], table_arn, "the granted account reads the table")
        cli = self.other_cli("s3tables", "get-table-metadata-location", "--table-bucket-arn", arn,
                             "--namespace", "sales", "--name", "orders")
        self.assertEqual(cli.returncode, 0, "the aws CLI reads the metadata location: %s" % cli.stderr)
        self.assertIn("metadataLocation", json.loads(cli.stdout), "the answer is the table's metadata location")
        self.assertDenied(denied("arn:aws:iam::%s:root" % OTHER, "s3tables:DeleteTable", table_arn, "no-resource"),
                          self.other.delete_table, tableBucketARN=arn, namespace="sales", name="orders")
        self.assertDenied(denied("arn:aws:iam::%s:root" % OTHER, "s3tables:GetTableBucket", arn, "no-resource"),
                          self.other.get_table_bucket, tableBucketARN=arn)
        self.owner.delete_table_bucket_policy(tableBucketARN=arn)
        self.assertDenied(denied("arn:aws:iam::%s:root" % OTHER, "s3tables:GetTable", table_arn, "no-resource"),
                          self.other.get_table, tableBucketARN=arn, namespace="sales", name="orders")

    def test_table_storage_is_authorized_through_the_table(self):
        import botocore.exceptions
        arn, table_arn = self.bucket_with_table("stored", "sales", "orders")
        location = self.owner.get_table_metadata_location(tableBucketARN=arn, namespace="sales", name="orders")
        bucket, key = location["metadataLocation"][len("s3://"):].split("/", 1)
        principal = "arn:aws:iam::%s:root" % OTHER

        def s3_error(fn, **kwargs):
            with self.assertRaises(botocore.exceptions.ClientError) as caught:
                fn(**kwargs)
            return caught.exception.response["Error"]

        error = s3_error(self.other_s3.get_object, Bucket=bucket, Key=key)
        self.assertEqual((error["Code"], error["Message"]),
                         ("AccessDenied", denied(principal, "s3tables:GetTableData", table_arn, "no-resource")),
                         "GetObject on another account's table storage needs s3tables:GetTableData")
        policy = {"Version": "2012-10-17", "Statement": [{
            "Effect": "Allow", "Principal": {"AWS": principal}, "Action": "s3tables:GetTableData",
            "Resource": table_arn}]}
        self.owner.put_table_policy(tableBucketARN=arn, namespace="sales", name="orders",
                                    resourcePolicy=json.dumps(policy))
        body = self.other_s3.get_object(Bucket=bucket, Key=key)["Body"].read()
        self.assertIn(b"format-version", body, "a table policy granting GetTableData lets the other account read")
        error = s3_error(self.other_s3.put_object, Bucket=bucket, Key="data/intruder.parquet", Body=b"x")
        self.assertEqual((error["Code"], error["Message"]),
                         ("AccessDenied", denied(principal, "s3tables:PutTableData", table_arn, "no-resource")),
                         "PutObject needs s3tables:PutTableData, which the policy does not grant")

    def test_namespace_condition_scopes_a_grant(self):
        arn, hr_table = self.bucket_with_table("scoped", "hr", "staff")
        self.owner.create_namespace(tableBucketARN=arn, namespace=["sales"])
        sales_table = self.owner.create_table(tableBucketARN=arn, namespace="sales", name="orders", format="ICEBERG",
                                              metadata={"iceberg": {"schema": SCHEMA}})["tableARN"]
        # the guide's example 2, "read (SELECT) access to tables stored in the hr namespace"
        policy = {"Version": "2012-10-17", "Statement": [{
            "Effect": "Allow", "Principal": {"AWS": "arn:aws:iam::%s:root" % OTHER},
            "Action": ["s3tables:GetTableData", "s3tables:GetTableMetadataLocation"],
            "Resource": "arn:aws:s3tables:%s:%s:bucket/scoped/table/*" % (REGION, OWNER),
            "Condition": {"StringLike": {"s3tables:namespace": "hr"}}}]}
        self.owner.put_table_bucket_policy(tableBucketARN=arn, resourcePolicy=json.dumps(policy))
        got = self.other.get_table_metadata_location(tableBucketARN=arn, namespace="hr", name="staff")
        self.assertTrue(got["metadataLocation"].endswith(".metadata.json"), "a table of hr is readable")
        self.assertDenied(denied("arn:aws:iam::%s:root" % OTHER, "s3tables:GetTableMetadataLocation", sales_table,
                                 "no-resource"),
                          self.other.get_table_metadata_location, tableBucketARN=arn, namespace="sales", name="orders")
        self.assertTrue(hr_table.startswith(arn), "the hr table is the bucket's")

    def test_explicit_deny_in_a_table_policy_refuses_the_owner(self):
        arn, table_arn = self.bucket_with_table("guarded", "sales", "ledger")
        policy = {"Version": "2012-10-17", "Statement": [{
            "Sid": "KeepLedger", "Effect": "Deny", "Principal": "*", "Action": "s3tables:DeleteTable",
            "Resource": table_arn}]}
        self.owner.put_table_policy(tableBucketARN=arn, namespace="sales", name="ledger",
                                    resourcePolicy=json.dumps(policy))
        self.assertDenied(denied("arn:aws:iam::%s:root" % OWNER, "s3tables:DeleteTable", table_arn, "resource-deny"),
                          self.owner.delete_table, tableBucketARN=arn, namespace="sales", name="ledger")
        self.assertEqual(self.owner.get_table(tableBucketARN=arn, namespace="sales", name="ledger")["tableARN"],
                         table_arn, "the owner still does everything else")
        self.assertIn("KeepLedger", self.server.log_text(), "the denial is logged with its deciding statement")
        self.owner.delete_table_policy(tableBucketARN=arn, namespace="sales", name="ledger")
        self.owner.delete_table(tableBucketARN=arn, namespace="sales", name="ledger")

    def test_malformed_policy_is_refused_by_put_table_policy(self):
        arn, _ = self.bucket_with_table("checked", "sales", "orders")
        policy = {"Version": "2012-10-17", "Statement": [{
            "Effect": "Allow", "Principal": {"AWS": "arn:aws:iam::%s:root" % OTHER}, "Action": "GetTable",
            "Resource": "*"}]}
        response = self.assertClientError("BadRequestException", self.owner.put_table_policy, tableBucketARN=arn,
                                          namespace="sales", name="orders", resourcePolicy=json.dumps(policy))
        self.assertEqual(response["Error"]["Message"],
                         "Actions/Conditions must be prefaced by a vendor, e.g., iam, sdb, ec2, etc.",
                         "the refusal says what IAM says")
        policy["Statement"][0]["Action"] = "s3tables:GetTable"
        policy["Statement"][0]["Principal"] = {"AWS": "Jane"}
        response = self.assertClientError("BadRequestException", self.owner.put_table_bucket_policy,
                                          tableBucketARN=arn, resourcePolicy=json.dumps(policy))
        self.assertEqual(response["Error"]["Message"], 'Invalid principal in policy: "AWS":"Jane"',
                         "an invalid principal is refused by PutTableBucketPolicy")

    def console_get(self, route, arn, key, secret):
        return console_get(self.server.endpoint, route, {"arn": arn}, key, secret, REGION)

    def test_console_routes_are_the_s3_tables_operations_they_show(self):
        arn, table_arn = self.bucket_with_table("viewed", "sales", "secret")
        policy = {"Version": "2012-10-17", "Statement": [{
            "Sid": "Hidden", "Effect": "Deny", "Principal": "*", "Action": "s3tables:GetTable", "Resource": table_arn}]}
        self.owner.put_table_policy(tableBucketARN=arn, namespace="sales", name="secret",
                                    resourcePolicy=json.dumps(policy))
        status, _ = self.console_get("bucket", arn, OWNER, "owner-secret")
        self.assertEqual(status, 200, "the console's bucket page is GetTableBucket, which the root may do")
        status, body = self.console_get("table", table_arn, OWNER, "owner-secret")
        self.assertEqual(status, 403, "the console's table page is GetTable, which the table policy denies")
        self.assertEqual(body["message"], denied("arn:aws:iam::%s:root" % OWNER, "s3tables:GetTable", table_arn,
                                                 "resource-deny"), "the console says why in AWS's words")

    def test_glue_needs_glue_actions_on_the_catalog(self):
        self.assertIsInstance(self.owner_glue.get_databases()["DatabaseList"], list, "the root reads its own catalog")
        response = self.assertClientError("AccessDeniedException", self.other_glue.get_databases, CatalogId=OWNER)
        self.assertEqual(response["ResponseMetadata"]["HTTPStatusCode"], 400, "Glue answers its AccessDeniedException 400")
        self.assertEqual(response["Error"]["Message"],
                         denied("arn:aws:iam::%s:root" % OTHER, "glue:GetDatabases",
                                "arn:aws:glue:%s:%s:catalog" % (REGION, OWNER), "no-resource"),
                         "another account's catalog is refused: Floe stores no Glue resource policy")

    def test_glue_tables_of_the_default_catalog_need_their_actions_on_it(self):
        self.owner_glue.create_database(DatabaseInput={"Name": "authz_tables"})
        self.owner_glue.create_table(DatabaseName="authz_tables", TableInput={"Name": "t"})
        for action, call, kwargs in [
                ("glue:CreateTable", self.other_glue.create_table,
                 {"DatabaseName": "authz_tables", "TableInput": {"Name": "u"}}),
                ("glue:GetTable", self.other_glue.get_table, {"DatabaseName": "authz_tables", "Name": "t"}),
                ("glue:UpdateTable", self.other_glue.update_table,
                 {"DatabaseName": "authz_tables", "TableInput": {"Name": "t"}}),
                ("glue:DeleteTable", self.other_glue.delete_table, {"DatabaseName": "authz_tables", "Name": "t"})]:
            response = self.assertClientError("AccessDeniedException", call, CatalogId=OWNER, **kwargs)
            self.assertEqual(response["Error"]["Message"],
                             denied("arn:aws:iam::%s:root" % OTHER, action,
                                    "arn:aws:glue:%s:%s:catalog" % (REGION, OWNER), "no-resource"), action)
        self.assertEqual(self.owner_glue.get_table(DatabaseName="authz_tables", Name="t")["Table"]["VersionId"], "0",
                         "the refused calls changed nothing")

    def test_own_account_root_is_allowed_everything(self):
        arn, _ = self.bucket_with_table("mine", "sales", "orders")
        names = [b["name"] for b in self.owner.list_table_buckets()["tableBuckets"]]
        self.assertIn("mine", names, "the root lists its buckets")
        self.assertNotIn("mine", [b["name"] for b in self.other.list_table_buckets()["tableBuckets"]],
                         "another account lists only its own")

    def test_flag_is_refused_without_strict_signatures(self):
        proc = subprocess.run([FLOE_BIN, "serve", "--in-memory", "--port", "0", "--enforce-iam"], capture_output=True,
                              text=True, timeout=30)
        self.assertNotEqual(proc.returncode, 0, "the server does not start")
        self.assertIn("--enforce-iam needs --strict-signatures", proc.stderr, "the refusal says what is missing")
        help_text = subprocess.run([FLOE_BIN, "serve", "--help"], capture_output=True, text=True, timeout=30)
        self.assertIn("--enforce-iam", help_text.stdout + help_text.stderr, "floe serve --help lists the flag")


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""Under --strict-signatures --enforce-iam, CloudFormation acts with the caller's permissions, as on
AWS without a service role. An IAM user (made through IAM, its key from CreateAccessKey) allowed
cloudformation:* but not s3tables:CreateTable deploys a stack with the aws CLI's `cloudformation
deploy`: the table's creation fails with CloudFormation's AccessDenied reason and the stack rolls
back to ROLLBACK_COMPLETE, taking its bucket and namespace with it. Once the user may do s3tables:*
the same deploy succeeds, and a Deny of s3tables:DeleteTable leaves its deletion DELETE_FAILED. An
AWS::IAM::Role needs the caller's iam:CreateRole likewise. A user without cloudformation:CreateStack
is refused the call itself with CloudFormation's AccessDenied, and ListStacks answers it as its
policy allows."""

import json
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from floe_server import AWS_CLI, FloeTestCase, client_env, main  # noqa: E402

ACCOUNT, ROOT_SECRET = "111122223333", "root-secret-of-the-test-account"
REGION = "us-east-1"
BUCKET_PREFIX = "arn:aws:s3tables:%s:%s:bucket/" % (REGION, ACCOUNT)
WAIT = {"Delay": 0.1, "MaxAttempts": 600}

TEMPLATE = """\
Resources:
  Bucket:
    Type: AWS::S3Tables::TableBucket
    Properties:
      TableBucketName: permitted-lake
  Sales:
    Type: AWS::S3Tables::Namespace
    Properties:
      TableBucketARN: !GetAtt Bucket.TableBucketARN
      Namespace: sales
  Orders:
    Type: AWS::S3Tables::Table
    DependsOn: Sales
    Properties:
      TableBucketARN: !GetAtt Bucket.TableBucketARN
      Namespace: sales
      TableName: orders
      OpenTableFormat: ICEBERG
      WithoutMetadata: "Yes"
"""


def policy(*statements):
    return json.dumps({"Version": "2012-10-17", "Statement": list(statements)})


def allow(actions, resource="*"):
    return {"Effect": "Allow", "Action": actions, "Resource": resource}


# Everything the stack needs, and its rollback, but s3tables:CreateTable.
ALL_BUT_CREATE_TABLE = policy(
    allow("cloudformation:*"),
    allow(["s3tables:CreateTableBucket", "s3tables:CreateNamespace", "s3tables:DeleteNamespace",
           "s3tables:DeleteTableBucket", "s3tables:DeleteTable", "s3tables:Get*", "s3tables:List*"]))
EVERYTHING = policy(allow("cloudformation:*"), allow("s3tables:*"))


class CallerPermissionsTests(FloeTestCase):
    server_args = ("--strict-signatures", "--enforce-iam", "--credentials", "%s:%s" % (ACCOUNT, ROOT_SECRET))

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.iam = cls.signed_client("iam", ACCOUNT, ROOT_SECRET)
        cls.root_cfn = cls.signed_client("cloudformation", ACCOUNT, ROOT_SECRET)
        cls.root_tables = cls.signed_client("s3tables", ACCOUNT, ROOT_SECRET)

    def user(self, name, document):
        """An IAM user with one inline policy, and its access key."""
        self.iam.create_user(UserName=name)
        self.iam.put_user_policy(UserName=name, PolicyName="stack-policy", PolicyDocument=document)
        key = self.iam.create_access_key(UserName=name)["AccessKey"]
        return key["AccessKeyId"], key["SecretAccessKey"]

    def deploy(self, key, stack, template_path):
        """`aws cloudformation deploy` signed with the user's key; (exit code, stderr)."""
        self.require_tool(AWS_CLI)
        env = dict(client_env(self.server), AWS_ACCESS_KEY_ID=key[0], AWS_SECRET_ACCESS_KEY=key[1])
        proc = subprocess.run([AWS_CLI, "--endpoint-url", self.server.endpoint, "--region", REGION,
                               "cloudformation", "deploy", "--template-file", template_path, "--stack-name", stack],
                              capture_output=True, text=True, env=env, timeout=300)
        return proc.returncode, proc.stdout + proc.stderr

    def settled(self, cfn, name):
        """The stack once no operation is in progress on it."""
        for _ in range(600):
            stack = cfn.describe_stacks(StackName=name)["Stacks"][0]
            if not stack["StackStatus"].endswith("_IN_PROGRESS"):
                return stack
            time.sleep(0.1)
        self.fail("stack %s did not settle" % name)

    def bucket_names(self):
        return [b["name"] for b in self.root_tables.list_table_buckets()["tableBuckets"]]

    def test_a_stack_acts_with_the_callers_permissions(self):
        key = self.user("deployer", ALL_BUT_CREATE_TABLE)
        user_arn = "arn:aws:iam::%s:user/deployer" % ACCOUNT
        cfn = self.signed_client("cloudformation", *key)
        with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False) as f:
            f.write(TEMPLATE)
        self.addCleanup(os.unlink, f.name)

        rc, out = self.deploy(key, "lake", f.name)
        self.assertNotEqual(rc, 0, "deploy fails when a step is denied: " + out)
        self.assertEqual(self.settled(cfn, "lake")["StackStatus"], "ROLLBACK_COMPLETE", "the stack rolls back")
        events = cfn.describe_stack_events(StackName="lake")["StackEvents"]
        failed = [e for e in events if e["LogicalResourceId"] == "Orders" and e["ResourceStatus"] == "CREATE_FAILED"]
        self.assertEqual(len(failed), 1, "the table's creation failed: %s" % events)
        expected = (r'Resource handler returned message: "User: %s is not authorized to perform: s3tables:CreateTable '
                    r'on resource: %s because no identity-based policy allows the s3tables:CreateTable action '
                    r'\(Service: S3Tables, Status Code: 403, Request ID: [0-9A-Za-z-]+\)" '
                    r'\(HandlerErrorCode: AccessDenied\)$') % (re.escape(user_arn), re.escape(BUCKET_PREFIX + "permitted-lake"))
        self.assertRegex(failed[0]["ResourceStatusReason"], expected, "AWS's reason for a denied resource handler")
        self.assertNotIn("permitted-lake", self.bucket_names(), "the rollback deleted the bucket the stack made")
        self.assertIn("access denied: %s may not s3tables:CreateTable" % user_arn, self.server.log_text(),
                      "the denial is logged")

        # With s3tables:* the same deploy succeeds (the rolled-back stack is deleted first, as on AWS).
        cfn.delete_stack(StackName="lake")
        cfn.get_waiter("stack_delete_complete").wait(StackName="lake", WaiterConfig=WAIT)
        self.iam.put_user_policy(UserName="deployer", PolicyName="stack-policy", PolicyDocument=EVERYTHING)
        rc, out = self.deploy(key, "lake", f.name)
        self.assertEqual(rc, 0, "deploy succeeds once the user may create tables: " + out)
        self.assertEqual(cfn.describe_stacks(StackName="lake")["Stacks"][0]["StackStatus"], "CREATE_COMPLETE")
        bucket_arn = self.root_tables.get_table_bucket(
            tableBucketARN=BUCKET_PREFIX + "permitted-lake")["arn"]
        self.assertEqual(self.root_tables.get_table(tableBucketARN=bucket_arn, namespace="sales",
                                                    name="orders")["name"], "orders", "the table is there")

        # Taking the permission back denies the deletion of the table: DELETE_FAILED, the table kept.
        self.iam.put_user_policy(UserName="deployer", PolicyName="stack-policy", PolicyDocument=policy(
            allow("cloudformation:*"), allow(["s3tables:Get*", "s3tables:List*"]),
            {"Effect": "Deny", "Action": "s3tables:DeleteTable", "Resource": "*"}))
        cfn.delete_stack(StackName="lake")
        stack = self.settled(cfn, "lake")
        self.assertEqual(stack["StackStatus"], "DELETE_FAILED", "a denied deletion fails the stack's deletion")
        reasons = [e.get("ResourceStatusReason", "") for e in cfn.describe_stack_events(StackName="lake")["StackEvents"]
                   if e["LogicalResourceId"] == "Orders" and e["ResourceStatus"] == "DELETE_FAILED"]
        self.assertTrue(reasons and "s3tables:DeleteTable" in reasons[0] and
                        "with an explicit deny in an identity-based policy" in reasons[0], reasons)

    def test_an_iam_resource_needs_the_callers_iam_permission(self):
        key = self.user("builder", policy(allow("cloudformation:*"), allow("s3tables:*")))
        cfn = self.signed_client("cloudformation", *key)
        trust = {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "sts:AssumeRole",
                                                         "Principal": {"AWS": "arn:aws:iam::%s:root" % ACCOUNT}}]}
        cfn.create_stack(StackName="roles", TemplateBody=json.dumps({"Resources": {"Reader": {
            "Type": "AWS::IAM::Role", "Properties": {"RoleName": "cfn-reader", "AssumeRolePolicyDocument": trust}}}}))
        self.assertEqual(self.settled(cfn, "roles")["StackStatus"], "ROLLBACK_COMPLETE")
        reason = [e for e in cfn.describe_stack_events(StackName="roles")["StackEvents"]
                  if e["LogicalResourceId"] == "Reader" and e["ResourceStatus"] == "CREATE_FAILED"][0]["ResourceStatusReason"]
        self.assertRegex(reason, r'^Resource handler returned message: "User: arn:aws:iam::%s:user/builder is not '
                         r'authorized to perform: iam:CreateRole on resource: arn:aws:iam::%s:role/cfn-reader because '
                         r'no identity-based policy allows the iam:CreateRole action \(Service: Iam, Status Code: 403, '
                         r'Request ID: [0-9A-Za-z-]+\)" \(HandlerErrorCode: AccessDenied\)$' % (ACCOUNT, ACCOUNT))
        self.assertClientError("NoSuchEntity", self.iam.get_role, RoleName="cfn-reader")

    def test_the_cloudformation_call_itself_needs_its_action(self):
        key = self.user("viewer", policy(allow(["cloudformation:DescribeStacks", "cloudformation:ListStacks"])))
        cfn = self.signed_client("cloudformation", *key)
        response = self.assertClientError("AccessDenied", cfn.create_stack, StackName="refused", TemplateBody=TEMPLATE)
        self.assertEqual(response["ResponseMetadata"]["HTTPStatusCode"], 403, "a denial is a 403")
        self.assertEqual(response["Error"]["Message"],
                         "User: arn:aws:iam::%s:user/viewer is not authorized to perform: cloudformation:CreateStack "
                         "on resource: arn:aws:cloudformation:%s:%s:stack/refused/* because no identity-based policy "
                         "allows the cloudformation:CreateStack action" % (ACCOUNT, REGION, ACCOUNT))
        self.assertClientError("ValidationError", self.root_cfn.describe_stacks, StackName="refused")
        self.assertNotIn("refused", [s["StackName"] for s in cfn.list_stacks()["StackSummaries"]],
                         "what the policy allows is answered")
        self.assertClientError("AccessDenied", cfn.delete_stack, StackName="refused")


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""CloudFormation stacks: Debian's aws CLI deploys CloudFormation templates of the five
AWS::S3Tables types against Floe as against AWS. `aws cloudformation deploy` (a CREATE change set,
then an UPDATE one) with parameters, a condition and outputs; describe-stacks outputs and exports;
the created bucket, namespace, table and policies seen through boto3's s3tables; the CLI's waiters;
a stack whose creation fails rolling back to nothing (also on an export name another stack holds,
in AWS's words); delete-stack keeping a DeletionPolicy Retain
bucket; change sets by hand; and ValidationError for a malformed template."""

import json
import os
import subprocess
import sys
import tempfile
import unittest

E2E_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, E2E_DIR)
from floe_server import AWS_CLI, FloeTestCase, client_env, main  # noqa: E402

ACCOUNT = "000000000000"

TEMPLATE = """\
AWSTemplateFormatVersion: "2010-09-09"
Description: Floe e2e stack of the five S3 Tables types
Parameters:
  BucketName:
    Type: String
    Description: the table bucket's name
  NamespaceName:
    Type: String
    Default: analytics
  Env:
    Type: String
    AllowedValues: [dev, prod]
    Default: dev
Conditions:
  IsProd: !Equals [!Ref Env, prod]
Resources:
  Bucket:
    Type: AWS::S3Tables::TableBucket
    Properties:
      TableBucketName: !Ref BucketName
  KeptBucket:
    Type: AWS::S3Tables::TableBucket
    DeletionPolicy: Retain
    Properties:
      TableBucketName: !Sub "${BucketName}-kept"
  ProdBucket:
    Type: AWS::S3Tables::TableBucket
    Condition: IsProd
    Properties:
      TableBucketName: !Sub "${BucketName}-prod"
  Ns:
    Type: AWS::S3Tables::Namespace
    Properties:
      TableBucketARN: !GetAtt Bucket.TableBucketARN
      Namespace: !Ref NamespaceName
  Tbl:
    Type: AWS::S3Tables::Table
    DependsOn: Ns
    Properties:
      TableBucketARN: !GetAtt Bucket.TableBucketARN
      Namespace: !Ref NamespaceName
      TableName: events
      OpenTableFormat: ICEBERG
      IcebergMetadata:
        IcebergSchema:
          SchemaFieldList:
            - {Name: id, Type: long, Required: true}
            - {Name: body, Type: string}
  BucketPolicy:
    Type: AWS::S3Tables::TableBucketPolicy
    Properties:
      TableBucketARN: !GetAtt Bucket.TableBucketARN
      ResourcePolicy:
        Version: "2012-10-17"
        Statement:
          - Effect: Allow
            Principal: {AWS: !Sub "arn:aws:iam::${AWS::AccountId}:root"}
            Action: ["s3tables:GetTable"]
            Resource: !Sub "${Bucket.TableBucketARN}/table/*"
  TblPolicy:
    Type: AWS::S3Tables::TablePolicy
    Properties:
      TableARN: !GetAtt Tbl.TableARN
      ResourcePolicy:
        Version: "2012-10-17"
        Statement:
          - Effect: Allow
            Principal: {AWS: !Sub "arn:aws:iam::${AWS::AccountId}:root"}
            Action: ["s3tables:GetTableData"]
            Resource: !GetAtt Tbl.TableARN
Outputs:
  BucketArn:
    Description: the table bucket
    Value: !GetAtt Bucket.TableBucketARN
    Export:
      Name: !Sub "${AWS::StackName}-bucket"
  TableArn:
    Value: !GetAtt Tbl.TableARN
  Warehouse:
    Value: !GetAtt Tbl.WarehouseLocation
  Mode:
    Value: !If [IsProd, production, development]
"""

# The bucket comes first (the table needs its ARN); the table then fails (its namespace does not
# exist), so the creation rolls back and deletes the bucket.
FAILING_TEMPLATE = """\
Resources:
  Bucket:
    Type: AWS::S3Tables::TableBucket
    Properties:
      TableBucketName: doomed-bucket
  Tbl:
    Type: AWS::S3Tables::Table
    Properties:
      TableBucketARN: !GetAtt Bucket.TableBucketARN
      Namespace: no_such_namespace
      TableName: t
      OpenTableFormat: ICEBERG
"""

SMALL_TEMPLATE = """\
Parameters:
  Name: {Type: String}
Resources:
  Bucket:
    Type: AWS::S3Tables::TableBucket
    Properties:
      TableBucketName: !Ref Name
Outputs:
  Arn: {Value: !Ref Bucket}
"""

# Exports one name, whatever the stack: a second stack of it conflicts with the first.
EXPORTING_TEMPLATE = SMALL_TEMPLATE.replace("Arn: {Value: !Ref Bucket}",
                                            "Arn: {Value: !Ref Bucket, Export: {Name: shared-lake-url}}")


class CloudFormationTests(FloeTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.s3tables = cls.make_client("s3tables")
        cls.cfn = cls.make_client("cloudformation")
        cls.tmp = tempfile.TemporaryDirectory()

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()
        super().tearDownClass()

    def write(self, name, text):
        path = os.path.join(self.tmp.name, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def cli(self, *args, expect_ok=True):
        """/usr/bin/aws cloudformation ...; (exit code, parsed JSON or text, stderr)."""
        self.require_tool(AWS_CLI)
        env = client_env(self.server)
        proc = subprocess.run([AWS_CLI, "--endpoint-url", self.server.endpoint, "--output", "json",
                               "cloudformation"] + list(args), capture_output=True, text=True, env=env, timeout=180)
        if expect_ok and proc.returncode != 0:
            self.fail("aws cloudformation %s failed (%d): %s %s" % (" ".join(args), proc.returncode, proc.stdout,
                                                                   proc.stderr))
        try:
            out = json.loads(proc.stdout) if proc.stdout.strip() else None
        except ValueError:
            out = proc.stdout
        return proc.returncode, out, proc.stderr

    def bucket_names(self):
        return {b["name"] for b in self.s3tables.list_table_buckets()["tableBuckets"]}

    def stack(self, name):
        return self.cli("describe-stacks", "--stack-name", name)[1]["Stacks"][0]

    def outputs(self, name):
        return {o["OutputKey"]: o["OutputValue"] for o in self.stack(name).get("Outputs", [])}

    # -- deploy, update, delete --------------------------------------------------------------------

    def test_deploy_update_and_delete_a_stack_of_every_s3tables_type(self):
        path = self.write("t.yaml", TEMPLATE)
        self.cli("deploy", "--template-file", path, "--stack-name", "lake",
                 "--parameter-overrides", "BucketName=lake-bucket", "NamespaceName=sales")
        self.cli("wait", "stack-create-complete", "--stack-name", "lake")
        stack = self.stack("lake")
        self.assertEqual(stack["StackStatus"], "CREATE_COMPLETE", "deploy creates the stack")
        self.assertTrue(stack["StackId"].startswith("arn:aws:cloudformation:us-east-1:%s:stack/lake/" % ACCOUNT),
                        "the stack id is a stack ARN: " + stack["StackId"])
        self.assertEqual(stack["Description"], "Floe e2e stack of the five S3 Tables types")
        params = {p["ParameterKey"]: p["ParameterValue"] for p in stack["Parameters"]}
        self.assertEqual(params, {"BucketName": "lake-bucket", "NamespaceName": "sales", "Env": "dev"},
                         "given parameters and defaults")

        out = self.outputs("lake")
        bucket_arn = "arn:aws:s3tables:us-east-1:%s:bucket/lake-bucket" % ACCOUNT
        self.assertEqual(out["BucketArn"], bucket_arn, "GetAtt TableBucketARN")
        self.assertEqual(out["Mode"], "development", "Fn::If on a false condition")
        self.assertTrue(out["TableArn"].startswith(bucket_arn + "/table/"), out["TableArn"])

        # What the stack made, seen through S3 Tables.
        self.assertIn("lake-bucket", self.bucket_names())
        self.assertIn("lake-bucket-kept", self.bucket_names())
        self.assertNotIn("lake-bucket-prod", self.bucket_names(), "a resource whose condition is false is not made")
        table = self.s3tables.get_table(tableBucketARN=bucket_arn, namespace="sales", name="events")
        self.assertEqual(table["tableARN"], out["TableArn"])
        self.assertEqual(table["warehouseLocation"], out["Warehouse"])
        policy = json.loads(self.s3tables.get_table_bucket_policy(tableBucketARN=bucket_arn)["resourcePolicy"])
        self.assertEqual(policy["Statement"][0]["Action"], ["s3tables:GetTable"], "the bucket policy is put")
        policy = json.loads(self.s3tables.get_table_policy(tableBucketARN=bucket_arn, namespace="sales",
                                                           name="events")["resourcePolicy"])
        self.assertEqual(policy["Statement"][0]["Resource"], out["TableArn"], "the table policy is put")

        # Resources, events, exports, the template.
        resources = self.cli("describe-stack-resources", "--stack-name", "lake")[1]["StackResources"]
        self.assertEqual({r["LogicalResourceId"]: r["ResourceStatus"] for r in resources},
                         {k: "CREATE_COMPLETE" for k in ("Bucket", "KeptBucket", "Ns", "Tbl", "BucketPolicy",
                                                         "TblPolicy")})
        one = self.cli("describe-stack-resource", "--stack-name", "lake", "--logical-resource-id", "Bucket")[1]
        self.assertEqual(one["StackResourceDetail"]["ResourceType"], "AWS::S3Tables::TableBucket")
        summaries = self.cli("list-stack-resources", "--stack-name", "lake")[1]["StackResourceSummaries"]
        self.assertEqual(len(summaries), 6)
        events = self.cli("describe-stack-events", "--stack-name", "lake")[1]["StackEvents"]
        self.assertEqual((events[0]["LogicalResourceId"], events[0]["ResourceStatus"]), ("lake", "CREATE_COMPLETE"),
                         "newest event first: the stack's completion")
        exports = self.cli("list-exports")[1]["Exports"]
        self.assertIn({"ExportingStackId": stack["StackId"], "Name": "lake-bucket", "Value": bucket_arn}, exports)
        body = self.cli("get-template", "--stack-name", "lake")[1]["TemplateBody"]
        self.assertIn("AWS::S3Tables::TablePolicy", json.dumps(body), "the template as given")
        listed = self.cli("list-stacks", "--stack-status-filter", "CREATE_COMPLETE")[1]["StackSummaries"]
        self.assertIn("lake", [s["StackName"] for s in listed])

        # An update through deploy: the condition now holds.
        self.cli("deploy", "--template-file", path, "--stack-name", "lake",
                 "--parameter-overrides", "Env=prod", "BucketName=lake-bucket", "NamespaceName=sales")
        self.assertEqual(self.stack("lake")["StackStatus"], "UPDATE_COMPLETE")
        self.assertEqual(self.outputs("lake")["Mode"], "production")
        self.assertIn("lake-bucket-prod", self.bucket_names(), "the conditional bucket is made by the update")

        # Delete: everything goes but the Retain bucket.
        self.cli("delete-stack", "--stack-name", "lake")
        self.cli("wait", "stack-delete-complete", "--stack-name", "lake")
        names = self.bucket_names()
        self.assertNotIn("lake-bucket", names, "the stack's bucket is deleted")
        self.assertNotIn("lake-bucket-prod", names)
        self.assertIn("lake-bucket-kept", names, "DeletionPolicy Retain keeps the bucket")
        rc, _, err = self.cli("describe-stacks", "--stack-name", "lake", expect_ok=False)
        self.assertNotEqual(rc, 0)
        self.assertIn("Stack with id lake does not exist", err, "a deleted stack is gone by name")
        deleted = self.cli("describe-stacks", "--stack-name", stack["StackId"])[1]["Stacks"][0]
        self.assertEqual(deleted["StackStatus"], "DELETE_COMPLETE", "and kept by its id")

    # -- a creation that fails ---------------------------------------------------------------------

    def test_a_failing_creation_rolls_back_to_nothing(self):
        path = self.write("fail.yaml", FAILING_TEMPLATE)
        self.cli("create-stack", "--stack-name", "doomed", "--template-body", "file://" + path)
        rc, _, err = self.cli("wait", "stack-create-complete", "--stack-name", "doomed", expect_ok=False)
        self.assertNotEqual(rc, 0, "the waiter sees the failure")
        stack = self.stack("doomed")
        self.assertEqual(stack["StackStatus"], "ROLLBACK_COMPLETE")
        self.assertNotIn("doomed-bucket", self.bucket_names(), "the bucket made before the failure is rolled back")
        events = self.cli("describe-stack-events", "--stack-name", "doomed")[1]["StackEvents"]
        failed = [e for e in events if e["ResourceStatus"] == "CREATE_FAILED"]
        self.assertEqual([e["LogicalResourceId"] for e in failed], ["Tbl"], "the table's creation failed")
        self.assertTrue(failed[0].get("ResourceStatusReason"), "with a reason")
        rc, _, err = self.cli("create-stack", "--stack-name", "doomed", "--template-body", "file://" + path,
                              expect_ok=False)
        self.assertIn("AlreadyExistsException", err, "a ROLLBACK_COMPLETE stack still holds its name")
        self.cli("delete-stack", "--stack-name", "doomed")
        self.cli("wait", "stack-delete-complete", "--stack-name", "doomed")

    def test_an_export_name_another_stack_holds_rolls_the_creation_back_in_awss_words(self):
        path = self.write("exporting.yaml", EXPORTING_TEMPLATE)
        self.cli("create-stack", "--stack-name", "lake-url", "--template-body", "file://" + path,
                 "--parameters", "ParameterKey=Name,ParameterValue=lake-url-bucket")
        self.cli("wait", "stack-create-complete", "--stack-name", "lake-url")
        self.cli("create-stack", "--stack-name", "lake-url-rival", "--template-body", "file://" + path,
                 "--parameters", "ParameterKey=Name,ParameterValue=lake-url-rival-bucket")
        rc, _, _ = self.cli("wait", "stack-create-complete", "--stack-name", "lake-url-rival", expect_ok=False)
        self.assertNotEqual(rc, 0, "the second stack's creation fails")
        # AWS's text: "Export with name X is already exported by stack Y", a sentence of its own
        # before the rollback's.
        reason = "Export with name shared-lake-url is already exported by stack lake-url. Rollback requested by user."
        events = self.cli("describe-stack-events", "--stack-name", "lake-url-rival")[1]["StackEvents"]
        rollback = [e for e in events if e["ResourceStatus"] == "ROLLBACK_IN_PROGRESS"]
        self.assertEqual([(e["LogicalResourceId"], e.get("ResourceStatusReason")) for e in rollback],
                         [("lake-url-rival", reason)], "the stack's rollback event gives AWS's reason")
        # The stack carried it as its StackStatusReason while rolling back; rolled back, it has none,
        # which is why the AWS CDK reports such a failure as a bare "ROLLBACK_COMPLETE".
        stack = self.stack("lake-url-rival")
        self.assertEqual((stack["StackStatus"], stack.get("StackStatusReason")), ("ROLLBACK_COMPLETE", None),
                         "the rolled-back stack gives no reason of its own")
        self.assertNotIn("lake-url-rival-bucket", self.bucket_names(), "its bucket is rolled back")
        self.assertEqual([e["ExportingStackId"] for e in self.cli("list-exports")[1]["Exports"]
                          if e["Name"] == "shared-lake-url"], [self.stack("lake-url")["StackId"]],
                         "the export stays the first stack's")
        for name in ("lake-url-rival", "lake-url"):
            self.cli("delete-stack", "--stack-name", name)
            self.cli("wait", "stack-delete-complete", "--stack-name", name)

    # -- change sets by hand -----------------------------------------------------------------------

    def test_change_sets_by_hand(self):
        path = self.write("small.yaml", SMALL_TEMPLATE)
        created = self.cli("create-change-set", "--stack-name", "cs", "--change-set-name", "first",
                           "--change-set-type", "CREATE", "--template-body", "file://" + path,
                           "--parameters", "ParameterKey=Name,ParameterValue=cs-bucket")[1]
        self.assertIn(":changeSet/first/", created["Id"])
        self.cli("wait", "change-set-create-complete", "--stack-name", "cs", "--change-set-name", "first")
        cs = self.cli("describe-change-set", "--stack-name", "cs", "--change-set-name", "first")[1]
        self.assertEqual((cs["Status"], cs["ExecutionStatus"]), ("CREATE_COMPLETE", "AVAILABLE"))
        self.assertEqual([(c["ResourceChange"]["Action"], c["ResourceChange"]["LogicalResourceId"])
                          for c in cs["Changes"]], [("Add", "Bucket")])
        self.assertEqual(self.stack("cs")["StackStatus"], "REVIEW_IN_PROGRESS")
        listed = self.cli("list-change-sets", "--stack-name", "cs")[1]["Summaries"]
        self.assertEqual([s["ChangeSetName"] for s in listed], ["first"])
        self.assertNotIn("cs-bucket", self.bucket_names(), "nothing is made before execution")

        self.cli("execute-change-set", "--change-set-name", created["Id"])
        self.cli("wait", "stack-create-complete", "--stack-name", "cs")
        self.assertIn("cs-bucket", self.bucket_names())

        # A change set deleted before execution is gone.
        self.cli("create-change-set", "--stack-name", "cs", "--change-set-name", "second",
                 "--use-previous-template", "--parameters", "ParameterKey=Name,ParameterValue=cs-bucket-2")
        self.cli("wait", "change-set-create-complete", "--stack-name", "cs", "--change-set-name", "second")
        cs = self.cli("describe-change-set", "--stack-name", "cs", "--change-set-name", "second")[1]
        self.assertEqual(cs["Changes"][0]["ResourceChange"]["Action"], "Modify")
        self.cli("delete-change-set", "--stack-name", "cs", "--change-set-name", "second")
        rc, _, err = self.cli("describe-change-set", "--stack-name", "cs", "--change-set-name", "second",
                              expect_ok=False)
        self.assertIn("ChangeSetNotFound", err)
        self.cli("delete-stack", "--stack-name", "cs")
        self.cli("wait", "stack-delete-complete", "--stack-name", "cs")
        self.assertNotIn("cs-bucket", self.bucket_names())

    # -- templates ---------------------------------------------------------------------------------

    def test_validate_template_and_summary(self):
        path = self.write("v.yaml", TEMPLATE)
        valid = self.cli("validate-template", "--template-body", "file://" + path)[1]
        self.assertEqual(valid["Description"], "Floe e2e stack of the five S3 Tables types")
        self.assertEqual({p["ParameterKey"]: p.get("DefaultValue") for p in valid["Parameters"]},
                         {"BucketName": None, "NamespaceName": "analytics", "Env": "dev"})
        summary = self.cli("get-template-summary", "--template-body", "file://" + path)[1]
        self.assertEqual(sorted(summary["ResourceTypes"]),
                         sorted(["AWS::S3Tables::TableBucket", "AWS::S3Tables::Namespace", "AWS::S3Tables::Table",
                                 "AWS::S3Tables::TableBucketPolicy", "AWS::S3Tables::TablePolicy"]))
        env = [p for p in summary["Parameters"] if p["ParameterKey"] == "Env"][0]
        self.assertEqual(env["ParameterConstraints"]["AllowedValues"], ["dev", "prod"])

    def test_malformed_yaml_is_a_validation_error(self):
        path = self.write("bad.yaml", "Resources:\n  Bucket:\n    Type: [unclosed\n")
        rc, _, err = self.cli("validate-template", "--template-body", "file://" + path, expect_ok=False)
        self.assertNotEqual(rc, 0)
        self.assertIn("(ValidationError)", err, "the CLI reports ValidationError: " + err)
        rc, _, err = self.cli("create-stack", "--stack-name", "bad", "--template-body", "file://" + path,
                              expect_ok=False)
        self.assertIn("(ValidationError)", err, "CreateStack refuses it too")
        rc, _, err = self.cli("describe-stacks", "--stack-name", "bad", expect_ok=False)
        self.assertIn("does not exist", err, "and makes no stack")


if __name__ == "__main__":
    main()

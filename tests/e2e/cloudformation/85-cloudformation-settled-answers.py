#!/usr/bin/python3
"""CreateStack, UpdateStack, DeleteStack, CreateChangeSet and ExecuteChangeSet answer once a quick
change has settled: a DescribeStacks (or DescribeChangeSet) sent right after the answer finds the
stack CREATE_COMPLETE, UPDATE_COMPLETE, ROLLBACK_COMPLETE or DELETE_COMPLETE (the change set
CREATE_COMPLETE), never *_IN_PROGRESS, while the answers and the event history stay AWS's. So the
aws CLI's `cloudformation deploy`, whose waiters poll once and then sleep 5 s (change set) and
30 s (stack), finds both done at its first poll: the checks count its polls in the server's log,
not its time."""

import os
import subprocess
import sys
import tempfile
import unittest

E2E_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, E2E_DIR)
from floe_server import AWS_CLI, FloeTestCase, client_env, main  # noqa: E402

FIVE_TYPES = """\
Parameters:
  Name: {Type: String}
Resources:
  Bucket:
    Type: AWS::S3Tables::TableBucket
    Properties:
      TableBucketName: !Ref Name
  Ns:
    Type: AWS::S3Tables::Namespace
    Properties:
      TableBucketARN: !GetAtt Bucket.TableBucketARN
      Namespace: sales
  Tbl:
    Type: AWS::S3Tables::Table
    DependsOn: Ns
    Properties:
      TableBucketARN: !GetAtt Bucket.TableBucketARN
      Namespace: sales
      TableName: events
      OpenTableFormat: ICEBERG
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
  BucketArn: {Value: !GetAtt Bucket.TableBucketARN}
"""

# The table's namespace does not exist: the bucket is made, the table fails, the creation rolls back.
FAILING = """\
Resources:
  Bucket:
    Type: AWS::S3Tables::TableBucket
    Properties:
      TableBucketName: settled-doomed
  Tbl:
    Type: AWS::S3Tables::Table
    Properties:
      TableBucketARN: !GetAtt Bucket.TableBucketARN
      Namespace: missing
      TableName: t
      OpenTableFormat: ICEBERG
"""


def params(name):
    return [{"ParameterKey": "Name", "ParameterValue": name}]


class SettledAnswerTests(FloeTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.cfn = cls.make_client("cloudformation")

    def status(self, stack):
        return self.cfn.describe_stacks(StackName=stack)["Stacks"][0]["StackStatus"]

    def events(self, stack):
        """(logical id, status) of every event, oldest first."""
        events = self.cfn.describe_stack_events(StackName=stack)["StackEvents"]
        return [(e["LogicalResourceId"], e["ResourceStatus"]) for e in reversed(events)]

    def test_create_update_and_delete_answer_with_the_stack_settled(self):
        stack_id = self.cfn.create_stack(StackName="quick", TemplateBody=FIVE_TYPES,
                                         Parameters=params("quick-bucket"))["StackId"]
        self.assertTrue(stack_id.startswith("arn:aws:cloudformation:us-east-1:"), "CreateStack answers the stack id")
        self.assertEqual(self.status("quick"), "CREATE_COMPLETE", "the stack is created when CreateStack answers")
        events = self.events("quick")
        self.assertEqual(events[0], ("quick", "CREATE_IN_PROGRESS"), "the history starts as AWS's does")
        self.assertEqual(events[-1], ("quick", "CREATE_COMPLETE"), "and ends with the stack's completion")
        for logical_id in ("Bucket", "Ns", "Tbl", "BucketPolicy", "TblPolicy"):
            self.assertEqual([s for (r, s) in events if r == logical_id], ["CREATE_IN_PROGRESS", "CREATE_COMPLETE"],
                             "each resource has its two events: " + logical_id)

        self.cfn.update_stack(StackName="quick", TemplateBody=FIVE_TYPES, Parameters=params("quick-renamed"))
        self.assertEqual(self.status("quick"), "UPDATE_COMPLETE", "the stack is updated when UpdateStack answers")
        self.assertEqual(self.events("quick")[-1], ("quick", "UPDATE_COMPLETE"))

        self.cfn.delete_stack(StackName="quick")
        self.assertEqual(self.status(stack_id), "DELETE_COMPLETE", "the stack is deleted when DeleteStack answers")
        self.assertEqual(self.events(stack_id)[-1], ("quick", "DELETE_COMPLETE"))

    def test_a_failed_creation_answers_rolled_back(self):
        self.cfn.create_stack(StackName="doomed", TemplateBody=FAILING)
        self.assertEqual(self.status("doomed"), "ROLLBACK_COMPLETE", "the rollback is over when CreateStack answers")
        statuses = [s for (r, s) in self.events("doomed") if r == "doomed"]
        self.assertEqual(statuses, ["CREATE_IN_PROGRESS", "ROLLBACK_IN_PROGRESS", "ROLLBACK_COMPLETE"],
                         "the stack's own events are AWS's")

    def test_change_sets_answer_computed_and_executed(self):
        cs = self.cfn.create_change_set(StackName="viacs", ChangeSetName="c1", ChangeSetType="CREATE",
                                        TemplateBody=FIVE_TYPES, Parameters=params("viacs-bucket"))
        described = self.cfn.describe_change_set(ChangeSetName=cs["Id"])
        self.assertEqual(described["Status"], "CREATE_COMPLETE", "the change set is computed when it is answered")
        self.assertEqual(described["ExecutionStatus"], "AVAILABLE")
        self.assertEqual(self.status("viacs"), "REVIEW_IN_PROGRESS", "a CREATE change set leaves the stack in review")
        self.cfn.execute_change_set(ChangeSetName=cs["Id"])
        self.assertEqual(self.status("viacs"), "CREATE_COMPLETE", "the stack is created when ExecuteChangeSet answers")

    def test_cli_deploy_finds_both_waits_done_at_the_first_poll(self):
        self.require_tool(AWS_CLI)
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "five.yaml")
            with open(path, "w") as f:
                f.write(FIVE_TYPES)
            before = os.path.getsize(self.server.log_path)
            proc = subprocess.run([AWS_CLI, "--endpoint-url", self.server.endpoint, "cloudformation", "deploy",
                                   "--template-file", path, "--stack-name", "deployed",
                                   "--parameter-overrides", "Name=deployed-bucket"],
                                  capture_output=True, text=True, env=client_env(self.server), timeout=300)
        self.assertEqual(proc.returncode, 0, "deploy succeeds: %s %s" % (proc.stdout, proc.stderr))
        with open(self.server.log_path, "rb") as f:
            f.seek(before)
            lines = f.read().decode("utf-8", "replace").splitlines()
        polls = [line for line in lines if "CloudFormation:DescribeStacks 200" in line]
        cs_polls = [line for line in lines if "CloudFormation:DescribeChangeSet 200" in line]
        self.assertEqual(len(cs_polls), 1, "the change set waiter's first poll finds it computed: %s" % lines)
        self.assertEqual(len(polls), 1, "the stack waiter's first poll finds it created: %s" % lines)
        self.assertEqual(self.status("deployed"), "CREATE_COMPLETE")


if __name__ == "__main__":
    main()

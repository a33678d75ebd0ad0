#!/usr/bin/python3
"""DescribeStackResource answers a resource's Metadata from the template, resolved as AWS resolves
it (Ref to parameters and resources, Fn::GetAtt, Fn::Sub with pseudo parameters), and its
Description; DescribeStackResources answers each resource's Description; all three describe the
resource's drift as NOT_CHECKED, as AWS does before a drift detection. Checked with boto3."""

import json
import os
import sys
import unittest

E2E_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, E2E_DIR)
from floe_server import FloeTestCase, main  # noqa: E402

TEMPLATE = """\
Parameters:
  Team: {Type: String, Default: lake-team}
Resources:
  Bucket:
    Type: AWS::S3Tables::TableBucket
    Description: the lake's table bucket
    Metadata:
      Owner: !Ref Team
      Checks: [1, true, "nightly"]
    Properties:
      TableBucketName: details-bucket
  Ns:
    Type: AWS::S3Tables::Namespace
    Description: the sales namespace
    Metadata:
      Bucket: !GetAtt Bucket.TableBucketARN
      BucketRef: !Ref Bucket
      Stack: !Sub "${AWS::StackName} in ${AWS::Region}"
      Nested: {Dropped: !Ref AWS::NoValue, Kept: yes}
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
"""


class ResourceDetailTests(FloeTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.cfn = cls.make_client("cloudformation")
        cls.cfn.create_stack(StackName="details", TemplateBody=TEMPLATE)
        cls.cfn.get_waiter("stack_create_complete").wait(StackName="details",
                                                          WaiterConfig={"Delay": 0.1, "MaxAttempts": 600})
        cls.bucket_arn = cls.s3tables.list_table_buckets()["tableBuckets"][0]["arn"]

    def detail(self, logical_id):
        return self.cfn.describe_stack_resource(StackName="details", LogicalResourceId=logical_id)["StackResourceDetail"]

    def test_describe_stack_resource_answers_resolved_metadata_and_description(self):
        ns = self.detail("Ns")
        self.assertEqual(json.loads(ns["Metadata"]), {
            "Bucket": self.bucket_arn, "BucketRef": self.bucket_arn, "Stack": "details in us-east-1",
            "Nested": {"Kept": "yes"}}, "Metadata is resolved against the stack's resources and pseudo parameters")
        self.assertEqual(ns["Description"], "the sales namespace")
        self.assertEqual(ns["DriftInformation"]["StackResourceDriftStatus"], "NOT_CHECKED")

        bucket = self.detail("Bucket")
        self.assertEqual(json.loads(bucket["Metadata"]), {"Owner": "lake-team", "Checks": [1, True, "nightly"]},
                         "a parameter's default and literal values keep their JSON types")
        self.assertEqual(bucket["Description"], "the lake's table bucket")

        tbl = self.detail("Tbl")
        self.assertNotIn("Metadata", tbl, "a resource without Metadata answers none")
        self.assertNotIn("Description", tbl, "nor a Description")

    def test_describe_stack_resources_answers_descriptions_and_drift(self):
        resources = {r["LogicalResourceId"]: r for r in
                     self.cfn.describe_stack_resources(StackName="details")["StackResources"]}
        self.assertEqual(resources["Bucket"]["Description"], "the lake's table bucket")
        self.assertEqual(resources["Ns"]["Description"], "the sales namespace")
        self.assertNotIn("Description", resources["Tbl"])
        for r in resources.values():
            self.assertEqual(r["DriftInformation"]["StackResourceDriftStatus"], "NOT_CHECKED", r["LogicalResourceId"])
        by_physical = self.cfn.describe_stack_resources(PhysicalResourceId=self.bucket_arn)["StackResources"]
        self.assertEqual({r["LogicalResourceId"] for r in by_physical}, {"Bucket", "Ns", "Tbl"})
        summaries = self.cfn.list_stack_resources(StackName="details")["StackResourceSummaries"]
        self.assertEqual({s["DriftInformation"]["StackResourceDriftStatus"] for s in summaries}, {"NOT_CHECKED"})

    def test_a_description_that_is_not_a_string_is_refused(self):
        body = "Resources:\n  B:\n    Type: AWS::S3Tables::TableBucket\n    Description: [a, b]\n" \
               "    Properties: {TableBucketName: never-made}\n"
        err = self.assertClientError("ValidationError", self.cfn.validate_template, TemplateBody=body)["Error"]
        self.assertEqual(err["Message"], "Template format error: Every Description member must be a string.")


if __name__ == "__main__":
    main()

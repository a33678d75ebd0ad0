#!/usr/bin/python3
"""CloudFormation, boto3's half: Debian's boto3 (which knows CloudFormation natively) drives Floe's
CloudFormation as it drives AWS's. The change-set flow (a CREATE change set for a new stack, its
Changes, execution and the waiters; an UPDATE change set whose changes replace, modify in place and
maybe replace; a change set with no changes ending FAILED with AWS's exact reason; a deleted change
set answering ChangeSetNotFound). Every ValidationError the issue lists, each with AWS's code and
message and nothing created or changed. NextToken paging of the seven paged lists (a change set's
Changes and ListExports among them), a table bucket's ReplicationConfiguration, and stack tags
reaching the resources that take tags."""

import json
import os
import sys
import threading
import time
import unittest

E2E_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, E2E_DIR)
from floe_server import FloeTestCase, main  # noqa: E402

ACCOUNT = "000000000000"
REGION = "us-east-1"
NO_CHANGES = ("The submitted information didn't contain changes. Submit different information to create a "
              "change set.")
# A poll as fine as the stack engine is quick: a five-resource stack completes in well under a second.
WAIT = {"Delay": 0.1, "MaxAttempts": 600}
# How many items AWS answers per page of DescribeStackEvents, ListStacks, ... (seen on AWS).
PAGE = 100


def bucket_arn(name):
    return "arn:aws:s3tables:%s:%s:bucket/%s" % (REGION, ACCOUNT, name)


def template(resources, outputs=None, parameters=None):
    t = {"Resources": resources}
    if parameters:
        t["Parameters"] = parameters
    if outputs:
        t["Outputs"] = outputs
    return json.dumps(t, separators=(",", ":"))


def bucket(name_ref, **props):
    return {"Type": "AWS::S3Tables::TableBucket", "Properties": dict(TableBucketName=name_ref, **props)}


def namespace(bucket_logical, name):
    return {"Type": "AWS::S3Tables::Namespace",
            "Properties": {"TableBucketARN": {"Fn::GetAtt": [bucket_logical, "TableBucketARN"]}, "Namespace": name}}


def table(bucket_logical, ns, name, depends_on=None, **props):
    r = {"Type": "AWS::S3Tables::Table",
         "Properties": dict({"TableBucketARN": {"Fn::GetAtt": [bucket_logical, "TableBucketARN"]}, "Namespace": ns,
                             "TableName": name, "OpenTableFormat": "ICEBERG"}, **props)}
    if depends_on:
        r["DependsOn"] = depends_on
    return r


# The stack of the change-set flow: a bucket named by a parameter, its namespace and table (both
# hold the bucket's ARN, which replaces them when it changes), and a second bucket with tags.
FLOW_PARAMETERS = {"Name": {"Type": "String"}, "Team": {"Type": "String", "Default": "data"}}
FLOW_RESOURCES = {
    "Bucket": bucket({"Ref": "Name"}),
    "Ns": namespace("Bucket", "sales"),
    "Tbl": table("Bucket", "sales", "orders", depends_on="Ns"),
    "Other": bucket({"Fn::Sub": "${AWS::StackName}-other"}, Tags=[{"Key": "team", "Value": {"Ref": "Team"}}]),
}
FLOW = template(FLOW_RESOURCES, outputs={"Arn": {"Value": {"Fn::GetAtt": ["Bucket", "TableBucketARN"]}}},
                parameters=FLOW_PARAMETERS)


class Boto3CloudFormationTests(FloeTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.cfn = cls.make_client("cloudformation")

    # -- helpers -----------------------------------------------------------------------------------

    def bucket_names(self):
        names, kwargs = set(), {}
        while True:
            page = self.s3tables.list_table_buckets(**kwargs)
            names |= {b["name"] for b in page["tableBuckets"]}
            if not page.get("continuationToken"):
                return names
            kwargs = {"continuationToken": page["continuationToken"]}

    def stack(self, name):
        return self.cfn.describe_stacks(StackName=name)["Stacks"][0]

    def stack_names(self):
        names = set()
        for page in self.cfn.get_paginator("list_stacks").paginate():
            names |= {s["StackName"] for s in page["StackSummaries"] if s["StackStatus"] != "DELETE_COMPLETE"}
        return names

    def wait(self, waiter, **kwargs):
        self.cfn.get_waiter(waiter).wait(WaiterConfig=WAIT, **kwargs)

    def create(self, name, body, **kwargs):
        self.cfn.create_stack(StackName=name, TemplateBody=body, **kwargs)
        self.wait("stack_create_complete", StackName=name)
        return self.stack(name)

    def delete(self, name):
        self.cfn.delete_stack(StackName=name)
        self.wait("stack_delete_complete", StackName=name)

    def changes(self, stack, change_set):
        cs = self.cfn.describe_change_set(StackName=stack, ChangeSetName=change_set)
        return {c["ResourceChange"]["LogicalResourceId"]: c["ResourceChange"] for c in cs["Changes"]}

    def assertRefused(self, code, message, fn, **kwargs):
        """The call fails with `code` and exactly `message` (or a message matching it, when a callable)."""
        response = self.assertClientError(code, fn, **kwargs)
        got = response["Error"]["Message"]
        if callable(message):
            self.assertTrue(message(got), "unexpected message: " + got)
        else:
            self.assertEqual(got, message)
        return response

    # -- (a) the change-set flow -------------------------------------------------------------------

    def test_a_create_change_set_reviews_then_executes_a_new_stack(self):
        created = self.cfn.create_change_set(StackName="flow", ChangeSetName="first", ChangeSetType="CREATE",
                                             TemplateBody=FLOW, Parameters=[{"ParameterKey": "Name",
                                                                             "ParameterValue": "flow-bucket"}],
                                             Description="the first deploy")
        self.assertRegex(created["Id"], r"^arn:aws:cloudformation:us-east-1:%s:changeSet/first/[0-9a-f-]{36}$"
                         % ACCOUNT, "a change set has its own ARN")
        self.assertRegex(created["StackId"], r"^arn:aws:cloudformation:us-east-1:%s:stack/flow/[0-9a-f-]{36}$"
                         % ACCOUNT)
        self.assertEqual(self.stack("flow")["StackStatus"], "REVIEW_IN_PROGRESS",
                         "a CREATE change set makes the stack, in review")
        self.wait("change_set_create_complete", StackName="flow", ChangeSetName="first")
        cs = self.cfn.describe_change_set(StackName="flow", ChangeSetName="first")
        self.assertEqual((cs["Status"], cs["ExecutionStatus"], cs["ChangeSetType"] if "ChangeSetType" in cs else
                          "CREATE"), ("CREATE_COMPLETE", "AVAILABLE", "CREATE"))
        self.assertEqual(cs["Description"], "the first deploy")
        self.assertEqual(cs["StackId"], created["StackId"])
        changes = [c["ResourceChange"] for c in cs["Changes"]]
        self.assertEqual([c["LogicalResourceId"] for c in changes], ["Bucket", "Ns", "Tbl", "Other"],
                         "one Add per resource, in template order")
        for c in changes:
            self.assertEqual(c["Action"], "Add")
            self.assertEqual((c["Scope"], c["Details"]), ([], []), "an Add has no scope or details, as on AWS")
            self.assertNotIn("PhysicalResourceId", c)
            self.assertNotIn("Replacement", c)
        self.assertEqual(changes[0]["ResourceType"], "AWS::S3Tables::TableBucket")
        self.assertNotIn("flow-bucket", self.bucket_names(), "nothing is made before execution")
        listed = self.cfn.list_change_sets(StackName="flow")["Summaries"]
        self.assertEqual([(s["ChangeSetName"], s["Status"], s["ExecutionStatus"]) for s in listed],
                         [("first", "CREATE_COMPLETE", "AVAILABLE")])

        self.cfn.execute_change_set(ChangeSetName=created["Id"])
        self.wait("stack_create_complete", StackName="flow")
        stack = self.stack("flow")
        self.assertEqual(stack["StackStatus"], "CREATE_COMPLETE")
        self.assertEqual(stack["Outputs"][0]["OutputValue"], bucket_arn("flow-bucket"))
        self.assertEqual(stack["ChangeSetId"], created["Id"], "the stack names the change set that made it")
        self.assertTrue({"flow-bucket", "flow-other"} <= self.bucket_names())
        cs = self.cfn.describe_change_set(ChangeSetName=created["Id"])
        self.assertEqual(cs["ExecutionStatus"], "EXECUTE_COMPLETE")
        self.delete("flow")
        self.assertFalse({"flow-bucket", "flow-other"} & self.bucket_names())

    def test_a_update_change_set_lists_replacement_true_false_and_conditional(self):
        self.create("upd", FLOW, Parameters=[{"ParameterKey": "Name", "ParameterValue": "upd-bucket"}])
        resources = {r["LogicalResourceId"]: r["PhysicalResourceId"]
                     for r in self.cfn.describe_stack_resources(StackName="upd")["StackResources"]}
        # A new bucket name replaces the bucket (True); the namespace and table hold its ARN, which is
        # known only once the new bucket exists (Conditional); the other bucket's tag is changed in
        # place (False).
        self.cfn.create_change_set(StackName="upd", ChangeSetName="rename", UsePreviousTemplate=True,
                                   Parameters=[{"ParameterKey": "Name", "ParameterValue": "upd-bucket2"},
                                               {"ParameterKey": "Team", "ParameterValue": "ops"}])
        self.wait("change_set_create_complete", StackName="upd", ChangeSetName="rename")
        changes = self.changes("upd", "rename")
        self.assertEqual(set(changes), {"Bucket", "Ns", "Tbl", "Other"})
        for logical, change in changes.items():
            self.assertEqual(change["Action"], "Modify", logical)
            self.assertEqual(change["PhysicalResourceId"], resources[logical], "a Modify names the resource")

        b = changes["Bucket"]
        self.assertEqual((b["Replacement"], b["Scope"]), ("True", ["Properties"]), "a new name replaces the bucket")
        self.assertEqual(b["Details"], [{"Target": {"Attribute": "Properties", "Name": "TableBucketName",
                                                    "RequiresRecreation": "Always"},
                                         "Evaluation": "Static", "ChangeSource": "ParameterReference",
                                         "CausingEntity": "Name"}], "the change comes from parameter Name")
        for logical in ("Ns", "Tbl"):
            c = changes[logical]
            self.assertEqual((c["Replacement"], c["Scope"]), ("Conditional", ["Properties"]),
                             "%s holds the replaced bucket's ARN: maybe replaced" % logical)
            detail = c["Details"][0]
            self.assertEqual((detail["Target"]["Name"], detail["Target"]["RequiresRecreation"], detail["Evaluation"]),
                             ("TableBucketARN", "Always", "Dynamic"))
            self.assertEqual((detail["ChangeSource"], detail.get("CausingEntity")),
                             ("ResourceAttribute", "Bucket.TableBucketARN"),
                             "the change comes from the bucket's attribute")
        o = changes["Other"]
        self.assertEqual((o["Replacement"], o["Scope"]), ("False", ["Tags"]), "a new tag is changed in place")
        self.assertEqual(o["Details"], [{"Target": {"Attribute": "Tags", "RequiresRecreation": "Never"},
                                         "Evaluation": "Static", "ChangeSource": "ParameterReference",
                                         "CausingEntity": "Team"}])

        self.cfn.execute_change_set(StackName="upd", ChangeSetName="rename")
        self.wait("stack_update_complete", StackName="upd")
        names = self.bucket_names()
        self.assertIn("upd-bucket2", names)
        self.assertNotIn("upd-bucket", names, "the replaced bucket is deleted in the cleanup")
        tags = self.s3tables.list_tags_for_resource(resourceArn=bucket_arn("upd-other"))["tags"]
        self.assertEqual(tags.get("team"), "ops")
        self.delete("upd")

    def test_a_change_set_without_changes_fails_with_aws_reason(self):
        params = [{"ParameterKey": "Name", "ParameterValue": "same-bucket"}]
        self.create("same", FLOW, Parameters=params)
        created = self.cfn.create_change_set(StackName="same", ChangeSetName="noop", TemplateBody=FLOW,
                                             Parameters=params)
        with self.assertRaises(Exception) as caught:
            self.wait("change_set_create_complete", StackName="same", ChangeSetName="noop")
        self.assertIn("FAILED", str(caught.exception), "the waiter sees the failure")
        cs = self.cfn.describe_change_set(ChangeSetName=created["Id"])
        self.assertEqual((cs["Status"], cs["ExecutionStatus"]), ("FAILED", "UNAVAILABLE"))
        self.assertEqual(cs["StatusReason"], NO_CHANGES, "AWS's exact reason, which `aws cloudformation deploy` reads")
        self.assertEqual(cs["Changes"], [])
        self.assertRefused("InvalidChangeSetStatus",
                           lambda m: "FAILED" in m and "noop" in m or created["Id"] in m,
                           self.cfn.execute_change_set, ChangeSetName=created["Id"])

        # DeleteChangeSet, then it is gone: ChangeSetNotFound (404), as the CDK CLI expects.
        self.cfn.delete_change_set(ChangeSetName=created["Id"])
        response = self.assertRefused("ChangeSetNotFound", "ChangeSet [%s] does not exist" % created["Id"],
                                      self.cfn.describe_change_set, ChangeSetName=created["Id"])
        self.assertEqual(response["ResponseMetadata"]["HTTPStatusCode"], 404)
        self.assertRefused("ChangeSetNotFound", "ChangeSet [noop] does not exist",
                           self.cfn.describe_change_set, StackName="same", ChangeSetName="noop")
        self.assertEqual(self.cfn.list_change_sets(StackName="same")["Summaries"], [])
        self.assertEqual(self.stack("same")["StackStatus"], "CREATE_COMPLETE", "the stack is untouched")
        self.delete("same")

    # -- (b) every ValidationError of the issue ----------------------------------------------------

    def assertCreateRefused(self, code, message, body, name="refused", **kwargs):
        """CreateStack, CreateChangeSet (CREATE) refuse the template alike, and leave nothing behind."""
        buckets = self.bucket_names()
        stacks = self.stack_names()
        self.assertRefused(code, message, self.cfn.create_stack, StackName=name, TemplateBody=body, **kwargs)
        self.assertRefused(code, message, self.cfn.create_change_set, StackName=name, ChangeSetName="cs",
                           ChangeSetType="CREATE", TemplateBody=body, **kwargs)
        self.assertEqual(self.stack_names(), stacks, "no stack is made")
        self.assertEqual(self.bucket_names(), buckets, "no resource is made")

    def test_b_malformed_json(self):
        self.assertCreateRefused("ValidationError", "Template format error: JSON not well-formed. (line 2, column 16)",
                                 '{"Resources": {\n  "B": {"Type" "AWS::S3Tables::TableBucket"}}}')

    def test_b_malformed_yaml(self):
        self.assertCreateRefused("ValidationError", "Template format error: YAML not well-formed. (line 4, column 1)",
                                 "Resources:\n  B:\n    Type: [unclosed\n")

    def test_b_unknown_section(self):
        self.assertCreateRefused("ValidationError",
                                 "Template format error: Invalid template property or properties [Bogus]",
                                 template({"B": bucket("b-bogus")})[:-1] + ', "Bogus": {}}')

    def test_b_missing_required_property(self):
        body = template({"B": bucket("b-missing"), "T": {"Type": "AWS::S3Tables::Table", "Properties": {
            "TableBucketARN": {"Fn::GetAtt": ["B", "TableBucketARN"]}, "Namespace": "n", "OpenTableFormat": "ICEBERG"}}})
        self.assertCreateRefused("ValidationError",
                                 "Properties validation failed for resource T with message: #: required key "
                                 "[TableName] not found", body)

    def test_b_wrong_property_type(self):
        body = template({"B": bucket("b-wrong", UnreferencedFileRemoval={"Status": "Enabled",
                                                                         "UnreferencedDays": {"a": 1}})})
        self.assertCreateRefused("ValidationError",
                                 "Properties validation failed for resource B with message: "
                                 "#/UnreferencedFileRemoval/UnreferencedDays: expected type: Integer, found: JSONObject",
                                 body)

    def test_b_unknown_getatt_attribute(self):
        body = template({"B": bucket("b-getatt")}, outputs={"X": {"Value": {"Fn::GetAtt": ["B", "Arn"]}}})
        self.assertCreateRefused("ValidationError",
                                 lambda m: m.startswith("Template error: resource B does not support attribute type "
                                                        "Arn in Fn::GetAtt"), body)

    def test_b_unresolved_ref(self):
        body = template({"B": bucket({"Ref": "Nowhere"})})
        self.assertCreateRefused("ValidationError",
                                 "Template format error: Unresolved resource dependencies [Nowhere] in the Resources "
                                 "block of the template", body)

    def test_b_unsupported_resource_type_is_named(self):
        body = template({"B": bucket("b-unsupported"), "Q": {"Type": "AWS::SQS::Queue"},
                         "S": {"Type": "AWS::S3::Bucket"}})
        self.assertCreateRefused("ValidationError",
                                 "Template format error: Unrecognized resource types: [AWS::SQS::Queue, AWS::S3::Bucket]",
                                 body)

    def test_b_template_over_51200_bytes(self):
        body = template({"B": bucket("b-big")}, outputs={"O": {"Value": "x" * 51200}})
        self.assertGreater(len(body), 51200)
        self.assertCreateRefused("ValidationError",
                                 lambda m: m.startswith("1 validation error detected: Value '") and m.endswith(
                                     "' at 'templateBody' failed to satisfy constraint: Member must have length less "
                                     "than or equal to 51200"), body)

    def test_b_cycle(self):
        body = template({
            "A": bucket({"Fn::Sub": "a-${B}"}),
            "B": bucket({"Fn::Sub": "b-${A}"}),
        })
        self.assertCreateRefused("ValidationError", "Circular dependency between resources: [A, B]", body)

    def test_b_bad_stack_name(self):
        body = template({"B": bucket("b-name")})
        for name in ("1stack", "under_score", "x" * 129):
            buckets = self.bucket_names()
            constraint = ("Member must have length less than or equal to 128" if len(name) > 128 else
                          "Member must satisfy regular expression pattern: [a-zA-Z][-a-zA-Z0-9]*")
            self.assertRefused("ValidationError",
                               "1 validation error detected: Value '%s' at 'stackName' failed to satisfy constraint: %s"
                               % (name, constraint), self.cfn.create_stack, StackName=name, TemplateBody=body)
            self.assertEqual(self.bucket_names(), buckets)

    def test_b_stack_name_that_exists(self):
        self.create("taken", template({"B": bucket("taken-bucket")}))
        before = self.stack("taken")
        self.assertRefused("AlreadyExistsException", "Stack [taken] already exists", self.cfn.create_stack,
                           StackName="taken", TemplateBody=template({"B": bucket("taken-other")}))
        # AWS's own wording: a CREATE change set for a live stack is a ValidationError.
        self.assertRefused("ValidationError",
                           "Stack [taken] already exists and cannot be created again with the changeSet [again].",
                           self.cfn.create_change_set,
                           StackName="taken", ChangeSetName="again", ChangeSetType="CREATE",
                           TemplateBody=template({"B": bucket("taken-other")}))
        self.assertNotIn("taken-other", self.bucket_names())
        self.assertEqual(self.stack("taken"), before, "the stack is untouched")
        self.delete("taken")

    def test_b_update_of_a_stack_not_in_a_stable_state(self):
        # A stack in review (made by a CREATE change set) has never been created.
        created = self.cfn.create_change_set(StackName="review", ChangeSetName="c", ChangeSetType="CREATE",
                                             TemplateBody=template({"B": bucket("review-bucket")}))
        self.wait("change_set_create_complete", StackName="review", ChangeSetName="c")
        self.assertRefused("ValidationError",
                           "Stack:%s is in REVIEW_IN_PROGRESS state and can not be updated." % created["StackId"],
                           self.cfn.update_stack, StackName="review",
                           TemplateBody=template({"B": bucket("review-bucket2")}))
        self.assertEqual(self.stack("review")["StackStatus"], "REVIEW_IN_PROGRESS")
        events = self.cfn.describe_stack_events(StackName="review")["StackEvents"]
        self.assertEqual([(e["LogicalResourceId"], e.get("ResourceStatus")) for e in events],
                         [("review", "REVIEW_IN_PROGRESS")], "a stack in review has the one event")
        self.cfn.delete_stack(StackName="review")

        # A stack still being created: 200 tables keep it CREATE_IN_PROGRESS for the update that follows.
        # CreateStack's answer waits (up to 2 s) for the stack to settle, so it is sent from another
        # thread, and the update follows as soon as DescribeStacks shows the stack.
        resources = {"B": bucket("busy-bucket"), "N": namespace("B", "ns")}
        resources.update({"T%d" % i: table("B", "ns", "t%d" % i, depends_on="N") for i in range(200)})
        body = template(resources)
        creator = self.make_client("cloudformation")
        creating = threading.Thread(target=creator.create_stack, kwargs={"StackName": "busy", "TemplateBody": body})
        creating.start()
        stack_id = None
        while stack_id is None:
            stacks = [s for s in self.cfn.describe_stacks()["Stacks"] if s["StackName"] == "busy"]
            stack_id = stacks[0]["StackId"] if stacks else None
        response = self.assertClientError("ValidationError", self.cfn.update_stack, StackName="busy",
                                          TemplateBody=template({"B": bucket("busy-bucket2")}))
        self.assertEqual(response["Error"]["Message"],
                         "Stack:%s is in CREATE_IN_PROGRESS state and can not be updated." % stack_id)
        creating.join()
        self.wait("stack_create_complete", StackName="busy")
        self.assertNotIn("busy-bucket2", self.bucket_names(), "the refused update changed nothing")
        self.delete("busy")

        # A stack that rolled back cannot be updated either, only deleted.
        self.cfn.create_stack(StackName="rolled", TemplateBody=template({
            "B": bucket("rolled-bucket"), "T": table("B", "no_such_namespace", "t")}))
        with self.assertRaises(Exception):
            self.wait("stack_create_complete", StackName="rolled")
        stack = self.stack("rolled")
        self.assertEqual(stack["StackStatus"], "ROLLBACK_COMPLETE")
        self.assertRefused("ValidationError",
                           "Stack:%s is in ROLLBACK_COMPLETE state and can not be updated." % stack["StackId"],
                           self.cfn.update_stack, StackName="rolled", TemplateBody=template({"B": bucket("rolled2")}))
        self.assertNotIn("rolled2", self.bucket_names())
        self.delete("rolled")

    def test_b_update_with_a_bad_template_changes_nothing(self):
        self.create("keep", template({"B": bucket("keep-bucket")}))
        before = self.stack("keep")
        self.assertRefused("ValidationError", "Template format error: Unrecognized resource types: [AWS::S3::Bucket]",
                           self.cfn.update_stack, StackName="keep",
                           TemplateBody=template({"B": bucket("keep-bucket"), "S": {"Type": "AWS::S3::Bucket"}}))
        self.assertRefused("ValidationError", "Circular dependency between resources: [A, B]",
                           self.cfn.create_change_set, StackName="keep", ChangeSetName="cyc",
                           TemplateBody=template({"A": bucket({"Fn::Sub": "a-${B}"}),
                                                  "B": bucket({"Fn::Sub": "b-${A}"})}))
        self.assertEqual(self.stack("keep"), before, "the stack is untouched")
        self.assertEqual(self.cfn.list_change_sets(StackName="keep")["Summaries"], [])
        self.delete("keep")

    # -- NextToken paging --------------------------------------------------------------------------

    def page_through(self, op, key, **kwargs):
        """Every item of a paged list, read page by page; asserts each page holds at most PAGE items."""
        items, token, pages = [], None, 0
        while True:
            page = op(**kwargs, **({"NextToken": token} if token else {}))
            self.assertLessEqual(len(page[key]), PAGE)
            items += page[key]
            pages += 1
            token = page.get("NextToken")
            if not token:
                return items, pages

    def test_paging_of_a_big_stack_and_many_stacks(self):
        n_tables = 110
        resources = {"B": bucket("paged-bucket"), "N": namespace("B", "ns")}
        resources.update({"T%03d" % i: table("B", "ns", "t%03d" % i, depends_on="N") for i in range(n_tables)})
        stack = self.create("paged", template(resources))
        self.assertEqual(stack["StackStatus"], "CREATE_COMPLETE")

        summaries, pages = self.page_through(self.cfn.list_stack_resources, "StackResourceSummaries",
                                             StackName="paged")
        self.assertEqual(pages, 2, "112 resources are two pages")
        self.assertEqual(sorted(s["LogicalResourceId"] for s in summaries), sorted(resources))
        events, pages = self.page_through(self.cfn.describe_stack_events, "StackEvents", StackName="paged")
        self.assertGreaterEqual(pages, 3, "two events per resource and the stack's own")
        self.assertEqual(len({e["EventId"] for e in events}), len(events), "no event is repeated across pages")
        self.assertEqual(len(events), 2 * (n_tables + 2) + 2)
        self.assertEqual((events[0]["LogicalResourceId"], events[0]["ResourceStatus"]), ("paged", "CREATE_COMPLETE"))
        self.assertEqual((events[-1]["LogicalResourceId"], events[-1]["ResourceStatus"]),
                         ("paged", "CREATE_IN_PROGRESS"), "newest first, across pages")
        # boto3's paginators read the same pages.
        via_paginator = [e for p in self.cfn.get_paginator("describe_stack_events").paginate(StackName="paged")
                         for e in p["StackEvents"]]
        self.assertEqual(via_paginator, events)

        # Many stacks: ListStacks and DescribeStacks page too.
        small = template({"M": {"Type": "AWS::CDK::Metadata", "Properties": {"Analytics": "v2"}}})
        for i in range(PAGE + 2):
            self.cfn.create_stack(StackName="many-%03d" % i, TemplateBody=small)
        for i in range(PAGE + 2):
            self.wait("stack_create_complete", StackName="many-%03d" % i)
        listed, pages = self.page_through(self.cfn.list_stacks, "StackSummaries")
        self.assertGreaterEqual(pages, 2)
        ids = [s["StackId"] for s in listed]
        self.assertEqual(len(set(ids)), len(ids), "no stack is listed twice")
        self.assertTrue({"many-%03d" % i for i in range(PAGE + 2)} <= {s["StackName"] for s in listed})
        described, pages = self.page_through(self.cfn.describe_stacks, "Stacks")
        self.assertGreaterEqual(pages, 2)
        self.assertEqual({s["StackName"] for s in described} & {"paged"}, {"paged"})
        self.assertEqual(len(described), len({s["StackId"] for s in described}))

        # Change sets of one stack page too.
        for i in range(PAGE + 1):
            self.cfn.create_change_set(StackName="many-000", ChangeSetName="cs%03d" % i, UsePreviousTemplate=True,
                                       Tags=[{"Key": "n", "Value": str(i)}])
        summaries, pages = self.page_through(self.cfn.list_change_sets, "Summaries", StackName="many-000")
        self.assertEqual(pages, 2)
        self.assertEqual([s["ChangeSetName"] for s in summaries], ["cs%03d" % i for i in range(PAGE + 1)])

        # A token Floe did not hand out, or one handed out for another list, is a ValidationError.
        token = self.cfn.list_stack_resources(StackName="paged")["NextToken"]
        for op, kwargs in ((self.cfn.list_stack_resources, {"StackName": "paged", "NextToken": "garbage"}),
                           (self.cfn.describe_stack_events, {"StackName": "paged", "NextToken": token}),
                           (self.cfn.list_stacks, {"NextToken": token}),
                           (self.cfn.describe_stacks, {"NextToken": "x" * 40}),
                           (self.cfn.list_change_sets, {"StackName": "many-000", "NextToken": token})):
            self.assertRefused("ValidationError", lambda m: "NextToken" in m or "token" in m, op, **kwargs)

        self.delete("paged")
        for i in range(PAGE + 2):
            self.cfn.delete_stack(StackName="many-%03d" % i)
        for i in range(PAGE + 2):
            self.wait("stack_delete_complete", StackName="many-%03d" % i)

    def test_paging_of_a_change_sets_changes_and_of_exports(self):
        # A CREATE change set of 112 resources lists 112 changes: two pages of DescribeChangeSet.
        resources = {"B": bucket("cs-paged-bucket"), "N": namespace("B", "ns")}
        resources.update({"T%03d" % i: table("B", "ns", "t%03d" % i, depends_on="N") for i in range(PAGE + 10)})
        self.cfn.create_change_set(StackName="cs-paged", ChangeSetName="big", ChangeSetType="CREATE",
                                   TemplateBody=template(resources))
        self.wait("change_set_create_complete", StackName="cs-paged", ChangeSetName="big")
        changes, pages = self.page_through(self.cfn.describe_change_set, "Changes", StackName="cs-paged",
                                           ChangeSetName="big")
        self.assertEqual(pages, 2, "112 changes are two pages")
        ids = [c["ResourceChange"]["LogicalResourceId"] for c in changes]
        self.assertEqual(sorted(ids), sorted(resources), "every change is listed once across the pages")
        self.assertTrue(all(c["ResourceChange"]["Action"] == "Add" for c in changes))
        # boto3's paginator reads the same changes, and keeps the change set's other members.
        result = self.cfn.get_paginator("describe_change_set").paginate(StackName="cs-paged",
                                                                        ChangeSetName="big").build_full_result()
        self.assertEqual(result["Changes"], changes)
        self.assertEqual((result["ChangeSetName"], result["Status"]), ("big", "CREATE_COMPLETE"))
        # The change set's ARN reads the same pages as its name with StackName.
        arn = result["ChangeSetId"]
        by_arn, _ = self.page_through(self.cfn.describe_change_set, "Changes", ChangeSetName=arn)
        self.assertEqual(by_arn, changes)

        # A stack exporting 105 outputs: two pages of ListExports, by name.
        n_exports = PAGE + 5
        outputs = {"O%03d" % i: {"Value": "value-%03d" % i, "Export": {"Name": "paged-export-%03d" % i}}
                   for i in range(n_exports)}
        stack = self.create("exporter", template({"M": {"Type": "AWS::CDK::Metadata",
                                                        "Properties": {"Analytics": "v2"}}}, outputs=outputs))
        self.assertEqual(stack["StackStatus"], "CREATE_COMPLETE")
        exports, pages = self.page_through(self.cfn.list_exports, "Exports")
        self.assertGreaterEqual(pages, 2, "105 exports are more than one page")
        names = [e["Name"] for e in exports]
        self.assertEqual(len(set(names)), len(names), "no export is listed twice")
        self.assertEqual(names, sorted(names), "exports are listed by name across the pages")
        self.assertEqual([(e["Name"], e["Value"]) for e in exports if e["ExportingStackId"] == stack["StackId"]],
                         [("paged-export-%03d" % i, "value-%03d" % i) for i in range(n_exports)])
        via_paginator = [e for p in self.cfn.get_paginator("list_exports").paginate() for e in p["Exports"]]
        self.assertEqual(via_paginator, exports)

        # A token Floe did not hand out, or one handed out for another list, is a ValidationError.
        changes_token = self.cfn.describe_change_set(ChangeSetName=arn)["NextToken"]
        exports_token = self.cfn.list_exports()["NextToken"]
        for op, kwargs in ((self.cfn.describe_change_set, {"ChangeSetName": arn, "NextToken": "garbage"}),
                           (self.cfn.describe_change_set, {"ChangeSetName": arn, "NextToken": exports_token}),
                           (self.cfn.list_exports, {"NextToken": "garbage"}),
                           (self.cfn.list_exports, {"NextToken": changes_token})):
            self.assertRefused("ValidationError", lambda m: m.startswith("Invalid NextToken: "), op, **kwargs)

        self.cfn.delete_change_set(ChangeSetName=arn)
        self.delete("cs-paged")
        self.delete("exporter")

    # -- ReplicationConfiguration on a table bucket ------------------------------------------------

    def test_replication_configuration_is_applied_on_create_and_update(self):
        role = "arn:aws:iam::%s:role/replicator" % ACCOUNT

        def repl(*destinations):
            return {"Role": role, "Rules": [{"Destinations": [{"DestinationTableBucketARN": d}
                                                              for d in destinations]}]}
        dest1, dest2 = bucket_arn("repl-dest1"), bucket_arn("repl-dest2")
        for name in ("repl-dest1", "repl-dest2"):
            self.s3tables.create_table_bucket(name=name)
        self.create("repl", template({"Src": bucket("repl-src", ReplicationConfiguration=repl(dest1))}))
        got = self.s3tables.get_table_bucket_replication(tableBucketARN=bucket_arn("repl-src"))
        self.assertEqual(got["configuration"]["role"], role)
        self.assertEqual(got["configuration"]["rules"], [{"destinations": [{"destinationTableBucketARN": dest1}]}],
                         "the stack puts the bucket's replication, as PutTableBucketReplication does")
        token = got["versionToken"]

        self.cfn.update_stack(StackName="repl", TemplateBody=template({
            "Src": bucket("repl-src", ReplicationConfiguration=repl(dest1, dest2))}))
        self.wait("stack_update_complete", StackName="repl")
        got = self.s3tables.get_table_bucket_replication(tableBucketARN=bucket_arn("repl-src"))
        self.assertEqual(got["configuration"]["rules"][0]["destinations"],
                         [{"destinationTableBucketARN": dest1}, {"destinationTableBucketARN": dest2}],
                         "an update changes it in place")
        self.assertNotEqual(got["versionToken"], token)

        self.cfn.update_stack(StackName="repl", TemplateBody=template({"Src": bucket("repl-src")}))
        self.wait("stack_update_complete", StackName="repl")
        self.assertClientError("NotFoundException", self.s3tables.get_table_bucket_replication,
                               tableBucketARN=bucket_arn("repl-src"))

        # A destination that does not exist fails the resource, with the S3 Tables error as reason.
        self.cfn.update_stack(StackName="repl", TemplateBody=template({
            "Src": bucket("repl-src", ReplicationConfiguration=repl(bucket_arn("repl-nowhere")))}))
        with self.assertRaises(Exception):
            self.wait("stack_update_complete", StackName="repl")
        self.assertEqual(self.stack("repl")["StackStatus"], "UPDATE_ROLLBACK_COMPLETE")
        events = self.cfn.describe_stack_events(StackName="repl")["StackEvents"]
        failed = [e for e in events if e["ResourceStatus"] == "UPDATE_FAILED"]
        self.assertIn("NotFoundException", failed[0]["ResourceStatusReason"])
        self.assertIn("repl-nowhere", failed[0]["ResourceStatusReason"])
        self.delete("repl")

    # -- stack tags --------------------------------------------------------------------------------

    def test_stack_tags_reach_the_resources_that_take_tags(self):
        body = template({
            "B": bucket("tagged-bucket", Tags=[{"Key": "own", "Value": "bucket"}, {"Key": "env", "Value": "mine"}]),
            "N": namespace("B", "ns"),
            "T": table("B", "ns", "t", depends_on="N"),
        })
        self.create("tagged", body, Tags=[{"Key": "env", "Value": "test"}, {"Key": "team", "Value": "lake"}])
        stack = self.stack("tagged")
        self.assertEqual(stack["Tags"], [{"Key": "env", "Value": "test"}, {"Key": "team", "Value": "lake"}])
        tags = self.s3tables.list_tags_for_resource(resourceArn=bucket_arn("tagged-bucket"))["tags"]
        self.assertEqual(tags, {"own": "bucket", "env": "mine", "team": "lake"},
                         "stack tags reach the bucket; its own tag wins over the stack's")
        table_arn = self.s3tables.get_table(tableBucketARN=bucket_arn("tagged-bucket"), namespace="ns",
                                            name="t")["tableARN"]
        tags = self.s3tables.list_tags_for_resource(resourceArn=table_arn)["tags"]
        self.assertEqual(tags, {"env": "test", "team": "lake"}, "and the table")
        ns = self.cfn.describe_stack_resource(StackName="tagged", LogicalResourceId="N")["StackResourceDetail"]
        self.assertEqual(ns["ResourceStatus"], "CREATE_COMPLETE", "a namespace, which takes no tags, is made as it is")

        # New stack tags: a change set shows them as in-place tag changes; the update applies them.
        self.cfn.create_change_set(StackName="tagged", ChangeSetName="retag", UsePreviousTemplate=True,
                                   Tags=[{"Key": "team", "Value": "ops"}])
        self.wait("change_set_create_complete", StackName="tagged", ChangeSetName="retag")
        changes = self.changes("tagged", "retag")
        self.assertEqual({k: (c["Replacement"], c["Scope"]) for k, c in changes.items()},
                         {"B": ("False", ["Tags"]), "T": ("False", ["Tags"])})
        self.assertEqual(changes["T"]["Details"], [{"Target": {"Attribute": "Tags", "RequiresRecreation": "Never"},
                                                    "Evaluation": "Static", "ChangeSource": "DirectModification"}])
        self.cfn.delete_change_set(StackName="tagged", ChangeSetName="retag")
        self.cfn.update_stack(StackName="tagged", UsePreviousTemplate=True, Tags=[{"Key": "team", "Value": "ops"}])
        self.wait("stack_update_complete", StackName="tagged")
        tags = self.s3tables.list_tags_for_resource(resourceArn=table_arn)["tags"]
        self.assertEqual(tags.get("team"), "ops")
        self.assertNotIn("env", tags, "a stack tag the update drops is removed")
        tags = self.s3tables.list_tags_for_resource(resourceArn=bucket_arn("tagged-bucket"))["tags"]
        self.assertEqual((tags.get("env"), tags.get("team")), ("mine", "ops"))
        events = self.cfn.describe_stack_events(StackName="tagged")["StackEvents"]
        self.assertTrue(all(e.get("ResourceStatus") for e in events), "every event has a ResourceStatus")
        self.assertIn("UPDATE_COMPLETE_CLEANUP_IN_PROGRESS", [e["ResourceStatus"] for e in events],
                      "the stack's cleanup status too, which the pinned model's enum lacks")
        self.delete("tagged")


if __name__ == "__main__":
    main()

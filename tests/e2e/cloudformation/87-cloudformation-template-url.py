#!/usr/bin/python3
"""CloudFormation reads TemplateURL from Floe's own S3, in every URL form the SDKs and the CLI
write: boto3's CreateStack, UpdateStack, CreateChangeSet, ValidateTemplate and GetTemplateSummary
with path-style URLs on Floe's endpoint and on s3.amazonaws.com, virtual-hosted URLs on
amazonaws.com and localhost, query strings and percent-encoded keys; a template over the 51,200
bytes an inline body may have; AWS's ValidationError for a missing object or bucket and for a URL
that is not S3's. And `aws cloudformation deploy --s3-bucket`, which the CLI requires for a template
over 51,200 bytes: it uploads the template, then creates the stack from its URL.

Debian's aws CLI 2.9 has no setting that points its S3 client at another endpoint (`--endpoint-url`
reaches only the cloudformation client in `deploy`; per-service endpoints came with botocore 1.31),
so the deploy test gives it, through AWS_DATA_PATH (botocore's documented data search path), an S3
endpoint rule set that resolves to the test's server. Everything else in the CLI is unchanged."""

import json
import os
import subprocess
import sys
import tempfile
import time
import unittest
from urllib.parse import quote

E2E_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, E2E_DIR)
from floe_server import AWS_CLI, FloeTestCase, client_env, main  # noqa: E402

BUCKET = "templates"
NOT_S3 = "TemplateURL must be an Amazon S3 URL."
NO_OBJECT = "TemplateURL must reference a valid S3 object to which you have access."
INLINE_MAX = 51200


def bucket_template(name, padding=0):
    """A YAML template of one table bucket, with `padding` bytes of comments."""
    body = ("Description: a template read from S3\n"
            "Resources:\n"
            "  Bucket:\n"
            "    Type: AWS::S3Tables::TableBucket\n"
            "    Properties:\n"
            "      TableBucketName: %s\n"
            "Outputs:\n"
            "  Arn: {Value: !GetAtt Bucket.TableBucketARN}\n" % name)
    line = "# " + "padding " * 9 + "\n"
    return body + line * (padding // len(line) + (1 if padding else 0))


def s3_endpoint_rule_set(endpoint):
    """An S3 endpoint rule set (botocore's endpoint-rule-set-1.json) whose every endpoint is
    `endpoint`, path-style."""
    def endpoint_rule(conditions, url):
        return {"conditions": conditions, "type": "endpoint",
                "endpoint": {"url": url, "properties": {}, "headers": {}}}
    return {
        "version": "1.0",
        "parameters": {"Region": {"builtIn": "AWS::Region", "required": False, "type": "String"},
                       "Bucket": {"required": False, "type": "String"}},
        "rules": [endpoint_rule([{"fn": "isSet", "argv": [{"ref": "Bucket"}]}], endpoint + "/{Bucket}"),
                  endpoint_rule([], endpoint)],
    }


class TemplateUrlTests(FloeTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.cfn = cls.make_client("cloudformation")
        cls.s3 = cls.make_client("s3")
        cls.s3.create_bucket(Bucket=BUCKET)
        cls.tmp = tempfile.TemporaryDirectory()

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()
        super().tearDownClass()

    def put(self, key, body):
        self.s3.put_object(Bucket=BUCKET, Key=key, Body=body.encode())

    def settle(self, name):
        """The stack once no operation is in progress."""
        deadline = time.monotonic() + 60
        while True:
            stack = self.cfn.describe_stacks(StackName=name)["Stacks"][0]
            if not stack["StackStatus"].endswith("_IN_PROGRESS") or time.monotonic() > deadline:
                return stack
            time.sleep(0.05)

    def refused(self, message, fn, **kwargs):
        err = self.assertClientError("ValidationError", fn, **kwargs)["Error"]
        self.assertEqual(err["Message"], message, "AWS's message")

    def test_create_stack_reads_every_url_form(self):
        port = self.server.port
        forms = {
            "path-style on the endpoint": "%s/%s/%s",
            "path-style with a query string": "%s/%s/%s?versionId=null",
            "s3.amazonaws.com": "https://s3.amazonaws.com/%s/%s",
            "s3.REGION.amazonaws.com": "https://s3.us-east-1.amazonaws.com/%s/%s",
            "virtual-hosted on s3.amazonaws.com": "https://{b}.s3.amazonaws.com/{k}",
            "virtual-hosted with a region": "https://{b}.s3.us-east-1.amazonaws.com/{k}",
            "virtual-hosted on localhost": "http://{b}.localhost:%d/{k}" % port,
        }
        for i, (what, form) in enumerate(forms.items()):
            with self.subTest(form=what):
                name = "url-form-%d" % i
                key = "dir/form %d.yaml" % i  # a space: percent-encoded in the URL
                self.put(key, bucket_template(name))
                if "{b}" in form:
                    url = form.format(b=BUCKET, k=quote(key))
                elif form.startswith("%s/"):
                    url = form % (self.server.endpoint, BUCKET, quote(key))
                else:
                    url = form % (BUCKET, quote(key))
                self.cfn.create_stack(StackName=name, TemplateURL=url)
                stack = self.settle(name)
                self.assertEqual(stack["StackStatus"], "CREATE_COMPLETE", "the stack is created from %s" % url)
                self.assertEqual(stack["Description"], "a template read from S3")
                body = self.cfn.get_template(StackName=name)["TemplateBody"]
                self.assertIn("TableBucketName: %s" % name, body, "GetTemplate answers the template read")
                self.s3tables.get_table_bucket(tableBucketARN=stack["Outputs"][0]["OutputValue"])

    def test_a_template_over_the_inline_limit_is_read_from_s3(self):
        body = bucket_template("big-from-url", padding=60000)
        self.assertGreater(len(body), INLINE_MAX)
        self.put("big.yaml", body)
        err = self.assertClientError("ValidationError", self.cfn.create_stack, StackName="big-inline", TemplateBody=body)
        self.assertIn("at 'templateBody' failed to satisfy constraint: Member must have length less than or equal "
                      "to 51200", err["Error"]["Message"], "an inline body keeps its limit")
        url = "%s/%s/big.yaml" % (self.server.endpoint, BUCKET)
        self.cfn.create_stack(StackName="big-url", TemplateURL=url)
        self.assertEqual(self.settle("big-url")["StackStatus"], "CREATE_COMPLETE", "a 60 KB template from S3")
        self.assertEqual(self.cfn.get_template(StackName="big-url")["TemplateBody"], body)
        self.assertEqual(self.cfn.validate_template(TemplateURL=url)["Description"], "a template read from S3")

    def test_update_change_set_and_summary_read_template_url(self):
        self.put("upd-1.yaml", bucket_template("upd-one"))
        self.put("upd-2.yaml", bucket_template("upd-two"))
        base = "https://s3.amazonaws.com/%s/" % BUCKET
        self.cfn.create_stack(StackName="upd", TemplateURL=base + "upd-1.yaml")
        self.assertEqual(self.settle("upd")["StackStatus"], "CREATE_COMPLETE")
        self.cfn.update_stack(StackName="upd", TemplateURL=base + "upd-2.yaml")
        self.assertEqual(self.settle("upd")["StackStatus"], "UPDATE_COMPLETE", "UpdateStack reads its TemplateURL")
        names = {b["name"] for b in self.s3tables.list_table_buckets()["tableBuckets"]}
        self.assertIn("upd-two", names, "the update replaced the bucket with the URL's")

        cs = self.cfn.create_change_set(StackName="upd-cs", ChangeSetName="c1", ChangeSetType="CREATE",
                                        TemplateURL="https://%s.s3.amazonaws.com/upd-1.yaml" % BUCKET)
        self.cfn.get_waiter("change_set_create_complete").wait(ChangeSetName=cs["Id"],
                                                               WaiterConfig={"Delay": 0.1, "MaxAttempts": 300})
        changes = self.cfn.describe_change_set(ChangeSetName=cs["Id"])["Changes"]
        self.assertEqual([c["ResourceChange"]["LogicalResourceId"] for c in changes], ["Bucket"])

        summary = self.cfn.get_template_summary(TemplateURL=base + "upd-1.yaml")
        self.assertEqual(summary["ResourceTypes"], ["AWS::S3Tables::TableBucket"])

    def test_urls_floe_cannot_read_answer_aws_errors(self):
        self.put("ok.yaml", bucket_template("never-made"))
        ep = self.server.endpoint
        self.refused(NO_OBJECT, self.cfn.create_stack, StackName="e1", TemplateURL="%s/%s/missing.yaml" % (ep, BUCKET))
        self.refused(NO_OBJECT, self.cfn.create_stack, StackName="e2",
                     TemplateURL="https://no-such-bucket.s3.amazonaws.com/ok.yaml")
        self.refused(NO_OBJECT, self.cfn.validate_template, TemplateURL="https://s3.amazonaws.com/%s/nope" % BUCKET)
        self.refused(NOT_S3, self.cfn.create_stack, StackName="e3", TemplateURL="https://example.com/%s/ok.yaml" % BUCKET)
        self.refused(NOT_S3, self.cfn.create_stack, StackName="e4", TemplateURL="s3://%s/ok.yaml" % BUCKET)
        self.refused(NOT_S3, self.cfn.validate_template, TemplateURL="https://raw.githubusercontent.com/o/r/ok.yaml")
        self.refused("You cannot specify both Template URL and Template Body", self.cfn.create_stack, StackName="e5",
                     TemplateURL="%s/%s/ok.yaml" % (ep, BUCKET), TemplateBody=bucket_template("never-made"))
        stacks = [s["StackName"] for s in self.cfn.list_stacks()["StackSummaries"]]
        for name in ("e1", "e2", "e3", "e4", "e5"):
            self.assertNotIn(name, stacks, "a refused CreateStack makes no stack")

    def test_cli_deploy_with_s3_bucket_uploads_and_creates_from_the_url(self):
        self.require_tool(AWS_CLI)
        data_path = os.path.join(self.tmp.name, "botocore")
        os.makedirs(os.path.join(data_path, "s3", "2006-03-01"))
        with open(os.path.join(data_path, "s3", "2006-03-01", "endpoint-rule-set-1.json"), "w") as f:
            json.dump(s3_endpoint_rule_set(self.server.endpoint), f)
        path = os.path.join(self.tmp.name, "deploy.yaml")
        body = bucket_template("deployed-from-s3", padding=55000)
        with open(path, "w") as f:
            f.write(body)
        self.assertGreater(os.path.getsize(path), INLINE_MAX)
        env = client_env(self.server)
        env["AWS_DATA_PATH"] = env["AWS_DATA_PATH"] + os.pathsep + data_path
        cmd = [AWS_CLI, "--endpoint-url", self.server.endpoint, "cloudformation", "deploy", "--template-file", path,
               "--stack-name", "deployed", "--s3-bucket", BUCKET, "--s3-prefix", "cli"]
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)
        self.assertEqual(proc.returncode, 0, "deploy --s3-bucket succeeds: %s %s" % (proc.stdout, proc.stderr))
        self.assertIn("Successfully created/updated stack - deployed", proc.stdout)
        stack = self.cfn.describe_stacks(StackName="deployed")["Stacks"][0]
        self.assertEqual(stack["StackStatus"], "CREATE_COMPLETE", "the stack is created from the uploaded template")
        self.assertEqual(self.cfn.get_template(StackName="deployed")["TemplateBody"], body)
        keys = [o["Key"] for o in self.s3.list_objects_v2(Bucket=BUCKET, Prefix="cli/")["Contents"]]
        self.assertEqual(len(keys), 1, "the CLI uploaded the template to the bucket: %s" % keys)


if __name__ == "__main__":
    main()

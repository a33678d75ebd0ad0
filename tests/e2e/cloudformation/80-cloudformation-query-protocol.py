#!/usr/bin/python3
"""CloudFormation and STS, the protocol half: requests signed for `sts` and `cloudformation` reach STS and
CloudFormation on the same port, in AWS's query protocol (form-encoded Action=...; XML answers and
XML errors), generated from their models. STS GetCallerIdentity answers the request's account;
every operation without a handler answers 501 NotImplemented in the XML error shape; members the
model lacks are ignored; bad forms and unknown actions get AWS's common errors. Driven with the
aws CLI, boto3, and hand-signed requests where the wire itself is the point."""

import os
import re
import subprocess
import sys
import unittest
import urllib.error
import urllib.parse
import urllib.request
import xml.etree.ElementTree as ET

E2E_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, E2E_DIR)
from floe_server import AWS_CLI, SOURCE_DIR, FloeTestCase, client_env, main  # noqa: E402

STS_NS = "{https://sts.amazonaws.com/doc/2011-06-15/}"
CFN_NS = "{http://cloudformation.amazonaws.com/doc/2010-05-15/}"
DEFAULT_ACCOUNT = "000000000000"


def doc_statuses(name):
    """{operation: status} from generated/docs/<name>.md."""
    with open(os.path.join(SOURCE_DIR, "generated", "docs", name + ".md")) as f:
        rows = re.findall(r"^\| \d+ \| (\w+) \| ([a-z ]+) \|", f.read(), re.M)
    return dict(rows)


class QueryProtocolTests(FloeTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.sts = cls.make_client("sts")
        cls.cfn = cls.make_client("cloudformation")

    # -- the wire, signed by hand ------------------------------------------------------------------

    def send(self, service, body=None, method="POST", query="", access_key="floe-test",
             content_type="application/x-www-form-urlencoded; charset=utf-8", extra_headers=None):
        """A SigV4-signed request; returns (status, headers, body bytes)."""
        from botocore.auth import SigV4Auth
        from botocore.awsrequest import AWSRequest
        from botocore.credentials import Credentials
        url = self.server.endpoint + "/" + ("?" + query if query else "")
        headers = {"Content-Type": content_type} if body is not None else {}
        headers.update(extra_headers or {})
        req = AWSRequest(method=method, url=url, data=body, headers=headers)
        SigV4Auth(Credentials(access_key, "secret"), service, "us-east-1").add_auth(req)
        prepared = urllib.request.Request(url, data=body.encode() if isinstance(body, str) else body,
                                          headers=dict(req.headers), method=method)
        try:
            with urllib.request.urlopen(prepared, timeout=10) as r:
                return r.status, r.headers, r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.headers, e.read()

    def error_of(self, body, ns):
        root = ET.fromstring(body)
        self.assertEqual(root.tag, ns + "ErrorResponse", "errors are <ErrorResponse> in the service's namespace")
        err = root.find(ns + "Error")
        return {child.tag[len(ns):]: child.text for child in err}, root.find(ns + "RequestId").text

    # -- STS ---------------------------------------------------------------------------------------

    def cli_caller_identity(self, access_key):
        self.require_tool(AWS_CLI)
        env = client_env(self.server)
        env["AWS_ACCESS_KEY_ID"] = access_key
        proc = subprocess.run([AWS_CLI, "--endpoint-url", self.server.endpoint, "--output", "json",
                               "sts", "get-caller-identity"], capture_output=True, text=True, env=env, timeout=120)
        self.assertEqual(proc.returncode, 0, "aws sts get-caller-identity succeeds: " + proc.stderr)
        import json
        return json.loads(proc.stdout)

    def test_cli_get_caller_identity_with_a_12_digit_key_is_that_account(self):
        out = self.cli_caller_identity("123456789012")
        self.assertEqual(out["Account"], "123456789012", "a 12-digit access key is the account")
        self.assertEqual(out["Arn"], "arn:aws:iam::123456789012:root", "the caller is the account's root")
        self.assertEqual(out["UserId"], "123456789012", "a root caller's UserId is the account id")

    def test_cli_get_caller_identity_with_another_key_is_the_default_account(self):
        out = self.cli_caller_identity("AKIAFLOETEST")
        self.assertEqual(out["Account"], DEFAULT_ACCOUNT, "any other access key acts in the default account")
        self.assertEqual(out["Arn"], "arn:aws:iam::%s:root" % DEFAULT_ACCOUNT, "as its root")

    def test_boto3_get_caller_identity(self):
        out = self.sts.get_caller_identity()
        self.assertEqual(out["Account"], DEFAULT_ACCOUNT, "boto3 reads the account from the XML answer")
        self.assertEqual(out["Arn"], "arn:aws:iam::%s:root" % DEFAULT_ACCOUNT, "and the ARN")
        self.assertEqual(out["ResponseMetadata"]["HTTPStatusCode"], 200, "with 200")
        self.assertTrue(out["ResponseMetadata"]["RequestId"], "and the request id from <ResponseMetadata>")

    def test_get_caller_identity_over_get_and_its_request_id(self):
        status, headers, body = self.send("sts", method="GET", query="Action=GetCallerIdentity&Version=2011-06-15")
        self.assertEqual(status, 200, "the query protocol works over GET, parameters in the query string")
        self.assertEqual(headers["Content-Type"], "text/xml", "answers are text/xml")
        root = ET.fromstring(body)
        self.assertEqual(root.tag, STS_NS + "GetCallerIdentityResponse", "the envelope is <ActionResponse>")
        self.assertEqual(root.find(STS_NS + "GetCallerIdentityResult/" + STS_NS + "Account").text, DEFAULT_ACCOUNT,
                         "the members are inside <ActionResult>")
        rid = root.find(STS_NS + "ResponseMetadata/" + STS_NS + "RequestId").text
        self.assertEqual(rid, headers["x-amzn-RequestId"], "the body's request id is the header's")

    def test_other_sts_operations_answer_501(self):
        resp = self.assertClientError("NotImplemented", self.sts.get_session_token)
        self.assertEqual(resp["ResponseMetadata"]["HTTPStatusCode"], 501, "an operation without a handler is 501")
        self.assertIn("generated/docs/sts.md", resp["Error"]["Message"], "the message points at the docs")
        self.assertClientError("NotImplemented", self.sts.get_federation_token, Name="session")

    def test_sts_constraints_are_validation_errors(self):
        unchecked = self.make_client("sts", parameter_validation=False)
        resp = self.assertClientError("ValidationError", unchecked.assume_role, RoleArn="short", RoleSessionName="s")
        self.assertEqual(resp["ResponseMetadata"]["HTTPStatusCode"], 400, "a constraint violation is 400")
        self.assertIn("Value 'short' at 'roleArn' failed to satisfy constraint: Member must have length greater than "
                      "or equal to 20", resp["Error"]["Message"], "in AWS's words, naming the member")

    # -- CloudFormation ----------------------------------------------------------------------------

    def test_cli_reports_not_implemented(self):
        self.assertEqual(doc_statuses("cloudformation").get("ListStackSets"), "not implemented",
                         "the docs say ListStackSets is not implemented (pick another operation if it is now)")
        rc, _, err = self.aws("cloudformation", "list-stack-sets", expect_ok=False)
        self.assertNotEqual(rc, 0, "the CLI fails")
        self.assertIn("An error occurred (NotImplemented) when calling the ListStackSets operation", err,
                      "the CLI reports the XML error's code")
        self.assertIn("does not implement CloudFormation ListStackSets", err, "and its message")

    def test_not_implemented_is_an_xml_error_document(self):
        status, headers, body = self.send("cloudformation", "Action=ListStackSets&Version=2010-05-15")
        self.assertEqual(status, 501, "501 without a handler")
        error, rid = self.error_of(body, CFN_NS)
        self.assertEqual(error["Code"], "NotImplemented", "the code is NotImplemented")
        self.assertEqual(error["Type"], "Receiver", "a 5xx is the server's side")
        self.assertEqual(rid, headers["x-amzn-RequestId"], "the error's request id is the header's")

    def test_unknown_members_are_ignored(self):
        status, _, body = self.send("cloudformation", "Action=DeleteStack&Version=2010-05-15&StackName=no-such-stack"
                                                      "&DeploymentConfig.Mode=REVERT_DRIFT&SomethingNew=1")
        self.assertEqual(status, 200, "the CDK CLI's DeploymentConfig.Mode, which the model lacks, is not refused: "
                                      "deleting a stack that does not exist succeeds, as on AWS (%s)" % body[:300])
        self.assertIn(b"DeleteStackResponse", body, "the answer is DeleteStack's")

    def test_cloudformation_constraints_are_validation_errors(self):
        status, _, body = self.send("cloudformation", "Action=CreateStack&Version=2010-05-15&TemplateBody=x")
        error, _ = self.error_of(body, CFN_NS)
        self.assertEqual((status, error["Code"], error["Type"]), (400, "ValidationError", "Sender"),
                         "a missing required member is 400 ValidationError from the Sender")
        self.assertIn("Value null at 'stackName' failed to satisfy constraint: Member must not be null", error["Message"],
                      "in AWS's words")
        status, _, body = self.send("cloudformation", "Action=CreateStack&StackName=s&TimeoutInMinutes=soon")
        self.assertEqual((status, self.error_of(body, CFN_NS)[0]["Code"]), (400, "ValidationError"),
                         "a value of the wrong type is a ValidationError too")

    # -- the protocol's own errors -----------------------------------------------------------------

    def test_unknown_action_is_invalid_action(self):
        status, _, body = self.send("sts", "Action=GetEverything&Version=2011-06-15")
        error, _ = self.error_of(body, STS_NS)
        self.assertEqual((status, error["Code"]), (400, "InvalidAction"), "an unknown Action is 400 InvalidAction")
        self.assertEqual(error["Message"], "Could not find operation GetEverything for version 2011-06-15",
                         "naming the action and version")
        self.assertEqual(error["Type"], "Sender", "from the Sender")

    def test_missing_action_is_missing_action(self):
        status, _, body = self.send("cloudformation", "Version=2010-05-15&StackName=x")
        self.assertEqual((status, self.error_of(body, CFN_NS)[0]["Code"]), (400, "MissingAction"),
                         "a form without Action is 400 MissingAction")
        status, _, body = self.send("sts", "Action=&Version=2011-06-15")
        self.assertEqual((status, self.error_of(body, STS_NS)[0]["Code"]), (400, "MissingAction"),
                         "so is an empty Action")

    def test_malformed_form_is_malformed_query_string(self):
        status, _, body = self.send("sts", "Action=GetCallerIdentity&Bad=%zz")
        self.assertEqual((status, self.error_of(body, STS_NS)[0]["Code"]), (404, "MalformedQueryString"),
                         "a body that is not valid percent-encoding is AWS's 404 MalformedQueryString")
        status, _, body = self.send("sts", method="GET", query="Action=GetCallerIdentity&x=%4")
        self.assertEqual(status, 404, "so is such a query string")
        status, _, body = self.send("cloudformation", b"Action=DescribeStacks&StackName=a\0b")
        self.assertEqual((status, self.error_of(body, CFN_NS)[0]["Code"]), (404, "MalformedQueryString"),
                         "so is a body holding a NUL byte, rather than a name cut short at it")

    def test_a_body_that_is_not_a_form_is_not_read(self):
        status, _, body = self.send("sts", '{"Action": "GetCallerIdentity"}', content_type="application/json")
        self.assertEqual((status, self.error_of(body, STS_NS)[0]["Code"]), (400, "MissingAction"),
                         "a JSON body is not taken for a form")

    def test_other_methods_are_refused(self):
        status, _, body = self.send("sts", method="DELETE", query="Action=GetCallerIdentity")
        self.assertEqual((status, self.error_of(body, STS_NS)[0]["Code"]), (405, "MethodNotAllowed"),
                         "only GET and POST carry query requests")

    def test_an_oversized_header_section_is_a_query_error(self):
        for service, action, ns in (("sts", "GetCallerIdentity", STS_NS), ("cloudformation", "ListStacks", CFN_NS)):
            with self.subTest(service=service):
                status, headers, body = self.send(service, "Action=%s" % action,
                                                  extra_headers={"x-pad": "v" * (9 * 1024)})
                self.assertIn("xml", headers.get("Content-Type", ""), "a 9 KiB header is refused in XML")
                error, request_id = self.error_of(body, ns)
                self.assertEqual((status, error["Type"], error["Code"]), (400, "Sender", "RequestHeaderSectionTooLarge"),
                                 "a header section over 8 KiB is a 400 Sender error in the query protocol's shape")
                self.assertTrue(error["Message"] and request_id, "with a message and a request id")

    def test_s3_and_s3tables_are_untouched(self):
        self.assertEqual(self.s3tables.list_table_buckets()["tableBuckets"], [], "S3 Tables still answers")
        s3 = self.make_client("s3")
        s3.create_bucket(Bucket="still-s3")
        self.assertIn("still-s3", [b["Name"] for b in s3.list_buckets()["Buckets"]], "and S3")

    def test_capability_docs_match_the_server(self):
        for name, client, ns in (("sts", "sts", STS_NS), ("cloudformation", "cloudformation", CFN_NS)):
            for op, status in doc_statuses(name).items():
                if status != "not implemented":
                    continue
                code, _, body = self.send(client, "Action=%s" % op)
                error, _ = self.error_of(body, ns)
                if code == 400 and error["Code"] == "ValidationError":
                    self.assertIn("Member must not be null", error["Message"],
                                  "%s %s is only refused for the members it requires" % (name, op))
                    continue
                self.assertEqual((code, error["Code"]), (501, "NotImplemented"),
                                 "%s %s, not implemented in the docs, answers 501" % (name, op))


class StrictSignatureQueryTests(FloeTestCase):
    """With --strict-signatures, query requests are verified like every other service's (the path
    canonicalized as for every service but S3) and refused in the query protocol's XML shape."""

    server_args = ("--strict-signatures", "--credentials", "AKIDQUERYTEST:query-secret")

    def client_with(self, key, secret, service):
        import boto3
        session = boto3.session.Session(aws_access_key_id=key, aws_secret_access_key=secret)
        return session.client(service, endpoint_url=self.server.endpoint, region_name="us-east-1",
                              config=self.botocore_config)

    def test_correctly_signed_query_requests_are_served(self):
        out = self.client_with("AKIDQUERYTEST", "query-secret", "sts").get_caller_identity()
        self.assertEqual(out["Account"], DEFAULT_ACCOUNT, "a POST form signed with a configured key is served")

    def test_bad_signatures_are_query_errors(self):
        resp = self.assertClientError("SignatureDoesNotMatch",
                                      self.client_with("AKIDQUERYTEST", "wrong", "sts").get_caller_identity)
        self.assertEqual(resp["ResponseMetadata"]["HTTPStatusCode"], 403, "a wrong secret is 403")
        self.assertClientError("InvalidClientTokenId", self.client_with("NOBODY", "x", "cloudformation").list_stacks)


if __name__ == "__main__":
    main()

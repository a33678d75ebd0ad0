#!/usr/bin/python3
"""A request signed for an AWS service Floe does not emulate gets a 501 that names the service and
the services Floe emulates, in that service's own protocol, so its client reads the message
(JSON for SSM, DynamoDB and Lambda; AWS's XML for the query protocol of SNS and the REST-XML of
Route 53). Requests signed for s3, and unsigned ones, stay S3's. Driven with boto3's own clients."""

import json
import os
import re
import sys
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from floe_server import SOURCE_DIR, FloeTestCase, main  # noqa: E402

EMULATED = "Floe emulates S3 Tables, S3, CloudFormation, STS, IAM, Glue and Athena"


class UnemulatedServiceTests(FloeTestCase):
    def check_refused(self, service, call):
        import botocore.exceptions
        try:
            call(self.make_client(service))
        except botocore.exceptions.ClientError as exc:
            err, meta = exc.response["Error"], exc.response["ResponseMetadata"]
            self.assertEqual(meta["HTTPStatusCode"], 501, "%s answers 501" % service)
            self.assertEqual(err.get("Code"), "NotImplementedException" if service not in ("sns", "route53")
                             else "NotImplemented", "%s's client reads the error code" % service)
            self.assertIn("'%s'" % service, err.get("Message", ""), "the message names the service")
            self.assertIn(EMULATED, err.get("Message", ""), "and says which services Floe emulates")
            return
        self.fail("a %s call succeeded on Floe" % service)

    def test_ssm_gets_a_json_501(self):
        self.check_refused("ssm", lambda c: c.get_parameter(Name="/cdk-bootstrap/hnb659fds/version"))

    def test_dynamodb_gets_a_json_501(self):
        self.check_refused("dynamodb", lambda c: c.list_tables())

    def test_lambda_gets_a_json_501(self):
        self.check_refused("lambda", lambda c: c.list_functions())

    def test_lambda_post_with_a_body_gets_a_json_501(self):
        self.check_refused("lambda", lambda c: c.invoke(FunctionName="f", Payload=b"{}"))

    def test_sns_gets_a_query_xml_501(self):
        self.check_refused("sns", lambda c: c.list_topics())

    def test_route53_gets_an_xml_501(self):
        self.check_refused("route53", lambda c: c.list_hosted_zones())

    def test_s3_signed_and_unsigned_requests_stay_s3(self):
        s3 = self.make_client("s3")
        s3.create_bucket(Bucket="still-s3")
        self.assertIn("still-s3", [b["Name"] for b in s3.list_buckets()["Buckets"]],
                      "a request signed for s3 is S3's")
        try:
            with urllib.request.urlopen(self.server.endpoint + "/still-s3", timeout=10) as r:
                status, body = r.status, r.read()
        except urllib.error.HTTPError as e:
            status, body = e.code, e.read()
        self.assertEqual(status, 200, "an unsigned request is S3's")
        self.assertIn(b"<ListBucketResult", body, "and answered in S3's XML")

    def test_the_signing_names_docs_s3_md_says_leave_s3_are_the_served_services(self):
        with open(os.path.join(SOURCE_DIR, "docs", "s3.md")) as f:
            text = " ".join(f.read().split())
        listed = re.search(r"A request signed for ((?:`[a-z0-9-]+`(?:, | or ))+`[a-z0-9-]+`) leaves S3", text)
        self.assertIsNotNone(listed, "docs/s3.md names the signing names that leave S3")
        names = set(re.findall(r"`([a-z0-9-]+)`", listed.group(1)))
        with urllib.request.urlopen(self.server.endpoint + "/_floe/health", timeout=10) as r:
            services = set(json.loads(r.read())["services"]) - {"s3"}
        self.assertEqual(names, services, "they are the services Floe serves beside S3")
        served = {"s3tables": lambda c: c.list_table_buckets()["tableBuckets"],
                  "glue": lambda c: c.get_databases()["DatabaseList"],
                  "athena": lambda c: c.list_work_groups()["WorkGroups"],
                  "cloudformation": lambda c: c.list_stacks()["StackSummaries"],
                  "sts": lambda c: c.get_caller_identity()["Account"],
                  "iam": lambda c: c.list_users()["Users"]}
        for name in sorted(names):
            with self.subTest(signing_name=name):
                self.assertIsNotNone(served[name](self.make_client(name)), "a %s client is served" % name)


if __name__ == "__main__":
    main()

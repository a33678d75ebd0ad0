#!/usr/bin/python3
"""The smoke tests AWS's models carry (`smithy.test#smokeTests`), which AWS runs against its own
service, replayed against Floe through boto3: codegen/smoke.py writes each model's cases to
generated/tests/smoke_<service>.json (S3 Tables, CloudFormation, STS, IAM, Glue), and this runner calls each
operation with the case's input in the case's region and checks the success or the error the model
expects (an expected failure without an error id is any error the service answers). A new or
updated model brings its own cases: regenerate and they run here."""

import glob
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from floe_server import SOURCE_DIR, FloeTestCase, main  # noqa: E402

SMOKE_FILES = sorted(glob.glob(os.path.join(SOURCE_DIR, "generated", "tests", "smoke_*.json")))
# The services whose models codegen reads (models/): each must have its smoke file.
SERVICES = {"s3tables", "cloudformation", "sts", "iam", "glue", "athena"}


def snake_case(operation):
    """boto3's method name for an operation: GetTableBucket -> get_table_bucket."""
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", operation).lower()


def load_cases():
    """[(service, case)] of every smoke file."""
    out = []
    for path in SMOKE_FILES:
        with open(path) as f:
            doc = json.load(f)
        out.extend((doc["service"], case) for case in doc["cases"])
    return out


class ModelSmokeTests(FloeTestCase):
    def client_for(self, service, region):
        return self.session.client(service, endpoint_url=self.server.endpoint, region_name=region,
                                   config=self.botocore_config)

    def test_every_model_has_its_smoke_file(self):
        services = set()
        for path in SMOKE_FILES:
            with open(path) as f:
                services.add(json.load(f)["service"])
        self.assertEqual(services, SERVICES, "codegen wrote one smoke file per model in models/")
        self.assertGreater(len(load_cases()), 0, "the pinned models carry smoke tests to replay")

    def test_each_smoke_test_gets_the_answer_its_model_expects(self):
        import botocore.exceptions
        for service, case in load_cases():
            with self.subTest(service=service, case=case["id"]):
                client = self.client_for(service, case["region"])
                call = getattr(client, snake_case(case["operation"]))
                expect = case["expect"]
                try:
                    call(**case["params"])
                except botocore.exceptions.ClientError as exc:
                    code = exc.response["Error"]["Code"]
                    self.assertNotIn("success", expect, "%s %s should succeed but answered %s: %s"
                                     % (service, case["operation"], code, exc.response["Error"].get("Message")))
                    if expect["failure"] is not None:
                        self.assertEqual(code, expect["failure"], "%s answers the error its model expects: %s"
                                         % (case["id"], exc.response["Error"].get("Message")))
                    self.assertLess(exc.response["ResponseMetadata"]["HTTPStatusCode"], 500,
                                    "%s fails as the caller's error, not the server's" % case["id"])
                else:
                    self.assertIn("success", expect, "%s should fail with %s but succeeded"
                                  % (case["id"], expect.get("failure")))
                finally:
                    client.close()


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""--strict-signatures refuses a request that carries no signature at all with what AWS sends an
unsigned caller of that protocol: the README's Security table names, for each surface, the code
and message a user sees, and this test reads the table and checks every row with that surface's
own client, unsigned: boto3 with botocore.UNSIGNED (S3 Tables, S3, Glue, CloudFormation, STS, IAM),
the aws CLI with --no-sign-request, PyIceberg without SigV4 (the Iceberg REST catalog at /iceberg
and /_floe/iceberg), `floe maintenance run` without keys, and the console's JSON routes as the
console's page fetches them before it has keys. Nothing unsigned is served.

Runs under the engines' virtual environment (tests/engines/requirements.txt), for PyIceberg and a
boto3 that knows S3 Tables: started with /usr/bin/python3 like every e2e test, it re-executes
itself there."""

import json
import os
import re
import subprocess
import sys
import unittest
import urllib.error
import urllib.request

E2E_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(E2E_DIR, "..", "engines"))
sys.path.insert(0, E2E_DIR)
import snippets  # noqa: E402

snippets.reexec_in_venv()

from floe_server import AWS_CLI, FLOE_BIN, SOURCE_DIR, FloeServer, engine_env  # noqa: E402

import boto3  # noqa: E402
import botocore  # noqa: E402
from botocore.config import Config  # noqa: E402
from botocore.exceptions import ClientError  # noqa: E402

KEY, SECRET = "AKIDUNSIGNED", "unsigned-secret"
TABLE_MARKER = "<!-- unsigned-answers:"
ROW = re.compile(r"^\| (.+?) \| (.+?) \| `(.+)` \|$")


def readme_table():
    """{surface: (what is answered, message)} from the README's table of unsigned answers."""
    with open(os.path.join(SOURCE_DIR, "README.md"), encoding="utf-8") as f:
        text = f.read()
    rows = {}
    for line in text[text.index(TABLE_MARKER):].splitlines()[3:]:
        m = ROW.match(line)
        if m is None:
            break
        rows[m.group(1)] = (m.group(2), m.group(3))
    return rows


def code_of(answer):
    """The first code the table's middle column names (`MissingAuthenticationToken`), or None."""
    m = re.match(r"`(\w+)`", answer)
    return m.group(1) if m else None


class UnsignedCallers(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        engine_env(KEY, SECRET)
        cls.server = FloeServer("--quiet", "--strict-signatures", "--credentials", "%s:%s" % (KEY, SECRET)).start()
        signed = boto3.session.Session(aws_access_key_id=KEY, aws_secret_access_key=SECRET)
        cls.arn = signed.client("s3tables", endpoint_url=cls.server.endpoint,
                                region_name="us-east-1").create_table_bucket(name="guarded")["arn"]
        signed.client("s3", endpoint_url=cls.server.endpoint, region_name="us-east-1").create_bucket(Bucket="plain")
        cls.table = readme_table()

    @classmethod
    def tearDownClass(cls):
        cls.server.cleanup()

    def unsigned(self, service):
        return boto3.session.Session().client(service, endpoint_url=self.server.endpoint, region_name="us-east-1",
                                              config=Config(signature_version=botocore.UNSIGNED,
                                                            retries={"max_attempts": 1}))

    def expected(self, surface):
        self.assertIn(surface, self.table, "the README's table has a row for %s" % surface)
        return self.table[surface]

    def assert_refused(self, surface, call):
        """A boto3 call, unsigned: 403 with the row's code and message."""
        answer, message = self.expected(surface)
        with self.assertRaises(ClientError, msg="an unsigned %s call is refused" % surface) as caught:
            call()
        response = caught.exception.response
        self.assertEqual((response["ResponseMetadata"]["HTTPStatusCode"], response["Error"]["Code"],
                          response["Error"]["Message"]), (403, code_of(answer), message),
                         "%s answers what the README says" % surface)

    def test_the_table_names_every_surface_this_test_checks(self):
        self.assertEqual(set(self.table), {
            "S3 Tables API", "S3", "Glue (awsJson 1.1)", "CloudFormation (query)", "STS (query)",
            "IAM (query)", "Iceberg REST at `/iceberg`", "Iceberg REST at `/_floe/iceberg`", "`POST /_floe/maintenance/run`",
            "the console's JSON routes (`/_floe/ui/api/`)"})

    def test_s3tables_api(self):
        s3tables = self.unsigned("s3tables")
        self.assert_refused("S3 Tables API", s3tables.list_table_buckets)
        self.assert_refused("S3 Tables API", lambda: s3tables.create_table_bucket(name="not-made"))
        self.assert_refused("S3 Tables API", lambda: s3tables.get_table_bucket(tableBucketARN=self.arn))
        self.assert_refused("S3 Tables API", lambda: s3tables.get_table(tableBucketARN=self.arn, namespace="n",
                                                                        name="t"))

    def test_s3(self):
        s3 = self.unsigned("s3")
        self.assert_refused("S3", s3.list_buckets)
        self.assert_refused("S3", lambda: s3.list_objects_v2(Bucket="plain"))
        self.assert_refused("S3", lambda: s3.put_object(Bucket="plain", Key="k", Body=b"x"))
        # A bucket named like an S3 Tables route is still S3's when an S3 client lists it.
        self.assert_refused("S3", lambda: s3.list_objects(Bucket="buckets"))

    def test_glue(self):
        self.assert_refused("Glue (awsJson 1.1)", self.unsigned("glue").get_databases)

    def test_cloudformation(self):
        self.assert_refused("CloudFormation (query)", self.unsigned("cloudformation").list_stacks)

    def test_sts(self):
        self.assert_refused("STS (query)", self.unsigned("sts").get_caller_identity)

    def test_iam(self):
        self.assert_refused("IAM (query)", self.unsigned("iam").list_users)

    def test_the_aws_cli_without_signing(self):
        if not os.path.exists(AWS_CLI):
            self.skipTest("no aws CLI at %s" % AWS_CLI)
        env = dict(os.environ, AWS_ENDPOINT_URL=self.server.endpoint)
        for surface, args in (("STS (query)", ["sts", "get-caller-identity"]),
                              ("IAM (query)", ["iam", "list-users"]),
                              ("CloudFormation (query)", ["cloudformation", "list-stacks"]),
                              ("S3", ["s3api", "list-buckets"]),
                              ("Glue (awsJson 1.1)", ["glue", "get-databases"])):
            with self.subTest(surface=surface):
                answer, message = self.expected(surface)
                run = subprocess.run([AWS_CLI, "--no-sign-request", "--endpoint-url", self.server.endpoint,
                                      "--region", "us-east-1"] + args, capture_output=True, text=True, env=env,
                                     timeout=60)
                self.assertNotEqual(run.returncode, 0, "the CLI's unsigned call fails")
                self.assertIn("(%s)" % code_of(answer), run.stderr, "the CLI prints the code")
                self.assertIn(message, run.stderr, "and the message")

    def pyiceberg(self, base):
        """The page's PyIceberg block with `base` as the catalog's path and no authentication at
        all: PyIceberg's "noop" auth manager in place of SigV4 (without one, PyIceberg sends
        `Authorization: Bearer None`)."""
        return snippets.run_python("pyiceberg-rest", self.server.endpoint, self.arn, **{
            self.server.endpoint + '/iceberg"': self.server.endpoint + base + '"',
            '"rest.sigv4-enabled": "true"': '"auth": {"type": "noop"}'})["catalog"]

    def test_iceberg_rest_catalog_at_iceberg(self):
        from pyiceberg.exceptions import ForbiddenError
        _, message = self.expected("Iceberg REST at `/iceberg`")
        with self.assertRaises(ForbiddenError) as caught:
            self.pyiceberg("/iceberg")
        self.assertIn('{"message":"%s"}' % message, str(caught.exception),
                      "PyIceberg shows AWS's answer, which is not in the Iceberg error shape")

    def test_iceberg_rest_catalog_at_floe_iceberg(self):
        from pyiceberg.exceptions import ForbiddenError
        answer, message = self.expected("Iceberg REST at `/_floe/iceberg`")
        with self.assertRaises(ForbiddenError) as caught:
            self.pyiceberg("/_floe/iceberg")
        self.assertIn("%s: %s" % (code_of(answer), message), str(caught.exception))

    def test_floe_maintenance_run(self):
        _, message = self.expected("`POST /_floe/maintenance/run`")
        env = {k: v for k, v in os.environ.items() if k not in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY")}
        run = subprocess.run([FLOE_BIN, "maintenance", "run", "--endpoint", self.server.endpoint, "--arn",
                              self.arn + "/table/none", "--type", "icebergSnapshotManagement"],
                             capture_output=True, text=True, env=env, timeout=60)
        self.assertNotEqual(run.returncode, 0, "floe maintenance run without keys is refused")
        self.assertIn(message, run.stdout + run.stderr, "and prints the server's reason")

    def test_the_consoles_json_routes(self):
        answer, message = self.expected("the console's JSON routes (`/_floe/ui/api/`)")
        # What the console's page sends before it has keys: a plain fetch.
        try:
            urllib.request.urlopen(self.server.endpoint + "/_floe/ui/api/session", timeout=10)
            self.fail("the console's API served an unsigned request")
        except urllib.error.HTTPError as e:
            with e:
                self.assertEqual((e.code, e.headers.get("x-amzn-ErrorType"), json.loads(e.read())["message"]),
                                 (403, code_of(answer), message))


if __name__ == "__main__":
    unittest.main(verbosity=2)

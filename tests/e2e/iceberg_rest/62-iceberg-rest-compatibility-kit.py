#!/usr/bin/python3
"""Apache Iceberg's REST Compatibility Kit against Floe: tests/iceberg-rck runs
org.apache.iceberg.catalog.CatalogTests (Iceberg 1.10.0's own catalog suite, from iceberg-core's
tests jar) through a RESTCatalog, with the capability switches set to what S3 Tables is, on a
fresh server and an empty table bucket per run:
  - the unsigned /_floe/iceberg route;
  - the signed /iceberg route under --strict-signatures, SigV4 for s3tables, S3FileIO signed too;
  - /_floe/iceberg with --iceberg-stage-create, where the staged-create tests really run.
Every test must pass, be skipped by a capability switch, or fail exactly as
tests/iceberg-rck/excluded-tests.tsv records (exception class and message, with the AWS rule that
makes it right); anything else fails this test, which prints each run's figures.

scripts/setup-deps fetches the pinned jars and builds the program into
$HOME/.cache/floe-sdk-tests/iceberg-rck; here it is rebuilt offline only when its sources changed.
Run: /usr/bin/python3 tests/e2e/iceberg_rest/62-iceberg-rest-compatibility-kit.py (after scripts/setup-deps)."""

import os
import shutil
import subprocess
import sys
import unittest

E2E_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, E2E_DIR)
from floe_server import SOURCE_DIR, FloeServer, build_maven_program, main, model_dir  # noqa: E402

PROJECT = os.path.join(SOURCE_DIR, "tests", "iceberg-rck")
EXCLUSIONS = os.path.join(PROJECT, "excluded-tests.tsv")
BUILD = os.path.join(os.environ.get("FLOE_SDK_CACHE", os.path.expanduser("~/.cache/floe-sdk-tests")), "iceberg-rck")
JAR = os.path.join(BUILD, "floe-iceberg-rck-1.jar")
MAIN = "floe.rck.Rck"
KEY, SECRET = "AKIDICEBERGRCK", "iceberg-rck-secret"
RUN_TIMEOUT_S = 300
BUILD_TIMEOUT_S = 600


class IcebergRestCompatibilityKitTests(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.java = shutil.which("java")
        cls.mvn = shutil.which("mvn")
        cls.build_error = None
        if cls.java is not None and cls.mvn is not None:
            cls.build_error = build_maven_program(cls.mvn, PROJECT, BUILD, JAR, BUILD_TIMEOUT_S)

    def run_kit(self, run, route, *server_args, signed=False):
        for tool, path in (("java", self.java), ("mvn", self.mvn)):
            if path is None:
                self.skipTest("%s is not installed (scripts/setup-deps installs it)" % tool)
        if self.build_error:
            self.fail(self.build_error)
        server = FloeServer("--quiet", *server_args).start()
        self.addCleanup(server.cleanup)
        env = dict(os.environ, AWS_ACCESS_KEY_ID=KEY, AWS_SECRET_ACCESS_KEY=SECRET, AWS_REGION="us-east-1",
                   AWS_DEFAULT_REGION="us-east-1", AWS_EC2_METADATA_DISABLED="true",
                   AWS_CONFIG_FILE="/dev/null", AWS_SHARED_CREDENTIALS_FILE="/dev/null")
        env.pop("AWS_DATA_PATH", None)
        os.environ["AWS_DATA_PATH"] = model_dir()  # Debian's boto3 learns S3 Tables from models/
        import boto3
        s3tables = boto3.client("s3tables", endpoint_url=server.endpoint, region_name="us-east-1",
                                aws_access_key_id=KEY, aws_secret_access_key=SECRET)
        warehouse = s3tables.create_table_bucket(name="rck")["arn"]
        classpath = JAR + os.pathsep + os.path.join(BUILD, "lib", "*")
        proc = subprocess.run([self.java, "-cp", classpath, MAIN, run, server.endpoint + route, warehouse,
                               "true" if signed else "false", server.endpoint, EXCLUSIONS],
                              capture_output=True, text=True, timeout=RUN_TIMEOUT_S, env=env)
        figures = [line for line in proc.stdout.splitlines() if line.startswith("RCK ")]
        print("%s on %s: %s" % (run, route, figures[-1] if figures else "no figures"), file=sys.stderr)
        self.assertEqual(proc.returncode, 0, "every CatalogTests test passes, is skipped by a capability switch "
                         "or fails exactly as excluded-tests.tsv records (%s on %s):\n%s%s"
                         % (run, route, proc.stdout[-12000:], proc.stderr[-4000:]))
        self.assertTrue(figures, "the kit printed its figures")

    def test_unsigned_route(self):
        self.run_kit("default", "/_floe/iceberg")

    def test_signed_route_under_strict_signatures(self):
        self.run_kit("default", "/iceberg", "--strict-signatures", "--credentials", "%s:%s" % (KEY, SECRET),
                     signed=True)

    def test_stage_create(self):
        self.run_kit("stage-create", "/_floe/iceberg", "--iceberg-stage-create")


if __name__ == "__main__":
    main()

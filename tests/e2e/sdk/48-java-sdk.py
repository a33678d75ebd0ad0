#!/usr/bin/python3
"""The AWS SDK for Java v2 against Floe: tests/sdk/java's program calls every operation of the S3
Tables model through S3TablesClient (configured as the SDK documents for a custom endpoint:
endpointOverride, static credentials, a region) with typed requests, and checks the typed answers
field by field; a difference prints the operation and the field. It runs twice: against floe as
is, and against floe with --strict-signatures, where every request must verify.

scripts/setup-deps fetches the pinned SDK into the local Maven repository and builds the program
into $HOME/.cache/floe-sdk-tests/java; here it is rebuilt offline only when its sources changed
(the stamp beside the build is the sha256 of the sources, as setup-deps writes it).
Run: /usr/bin/python3 tests/e2e/sdk/48-java-sdk.py (after scripts/setup-deps)."""

import json
import os
import shutil
import subprocess
import sys
import unittest

E2E_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, E2E_DIR)
from floe_server import SOURCE_DIR, FloeServer, build_maven_program, main  # noqa: E402

PROJECT = os.path.join(SOURCE_DIR, "tests", "sdk", "java")
BUILD = os.path.join(os.environ.get("FLOE_SDK_CACHE", os.path.expanduser("~/.cache/floe-sdk-tests")), "java")
JAR = os.path.join(BUILD, "floe-java-sdk-test-1.jar")
MAIN = "floe.sdktest.S3TablesConformance"
MODEL = os.path.join(SOURCE_DIR, "models", "s3tables", "s3tables-2018-05-10.smithy.json")
REGION = "us-east-1"
KEY, SECRET = "AKIDJAVASDKTEST", "java-sdk-secret"
RUN_TIMEOUT_S = 300
BUILD_TIMEOUT_S = 600


def model_operations():
    with open(MODEL) as f:
        shapes = json.load(f)["shapes"]
    return sorted(sid.split("#", 1)[1] for sid, s in shapes.items() if s["type"] == "operation")


class JavaSdkTests(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.java = shutil.which("java")
        cls.mvn = shutil.which("mvn")
        cls.build_error = None
        if cls.java is None or cls.mvn is None:
            return
        cls.build_error = build_maven_program(cls.mvn, PROJECT, BUILD, JAR, BUILD_TIMEOUT_S)

    def require_program(self):
        for tool, path in (("java", self.java), ("mvn", self.mvn)):
            if path is None:
                self.skipTest("%s is not installed (scripts/setup-deps installs it)" % tool)
        if self.build_error:
            self.fail(self.build_error)

    def run_program(self, *server_args, key="floe-test", secret="floe-test"):
        """Runs the program against a fresh server; returns (exit code, output, operations it called)."""
        server = FloeServer(*server_args).start()
        self.addCleanup(server.cleanup)
        classpath = JAR + os.pathsep + os.path.join(BUILD, "lib", "*")
        env = dict(os.environ, AWS_EC2_METADATA_DISABLED="true", AWS_CONFIG_FILE="/dev/null",
                   AWS_SHARED_CREDENTIALS_FILE="/dev/null")
        proc = subprocess.run([self.java, "-cp", classpath, MAIN, server.endpoint, REGION, key, secret],
                              capture_output=True, text=True, timeout=RUN_TIMEOUT_S, env=env)
        called = []
        for line in proc.stdout.splitlines():
            if line.startswith("OPERATIONS_CALLED "):
                called = sorted(line.split(" ", 1)[1].split(","))
        return proc.returncode, proc.stdout + proc.stderr, called

    def check_run(self, rc, output, called, what):
        failures = "\n".join(line for line in output.splitlines() if line.startswith("FAIL ")) or output[-4000:]
        self.assertEqual(rc, 0, "every operation answers the Java SDK as AWS documents (%s):\n%s" % (what, failures))
        self.assertEqual(called, model_operations(),
                         "the Java SDK program calls every operation of the S3 Tables model (%s)" % what)

    def test_every_operation_answers_the_java_sdk(self):
        self.require_program()
        rc, output, called = self.run_program()
        self.check_run(rc, output, called, "without --strict-signatures")

    def test_every_operation_verifies_under_strict_signatures(self):
        self.require_program()
        rc, output, called = self.run_program("--strict-signatures", "--credentials", "%s:%s" % (KEY, SECRET),
                                              key=KEY, secret=SECRET)
        self.check_run(rc, output, called, "with --strict-signatures")

    def test_a_wrong_secret_is_refused_under_strict_signatures(self):
        self.require_program()
        rc, output, _ = self.run_program("--strict-signatures", "--credentials", "%s:%s" % (KEY, SECRET),
                                         key=KEY, secret="not-the-secret")
        self.assertNotEqual(rc, 0, "a request signed with the wrong secret is refused")
        self.assertIn("HTTP 403, InvalidSignatureException", output,
                      "the Java SDK sees AWS's InvalidSignatureException with status 403")


if __name__ == "__main__":
    main()

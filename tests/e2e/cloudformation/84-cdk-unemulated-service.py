#!/usr/bin/python3
"""The AWS CDK with its default synthesizer: `cdk deploy` reads the bootstrap version from SSM,
which Floe does not emulate. The CLI must stop with Floe's 501 message naming ssm (read from the
JSON answer its SSM client expects), not with "Unexpected token '<' ... is not valid JSON" from an
S3 XML error. Driven with the pinned aws-cdk CLI on tests/e2e/cdk-app, its synthesizer switched to
DefaultStackSynthesizer in a copy. Nothing leaves the machine: every other host goes to a closed
local port through HTTPS_PROXY."""

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import unittest

E2E_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, E2E_DIR)
from floe_server import FloeServer, client_env, main  # noqa: E402

CDK_APP_DIR = os.path.join(E2E_DIR, "cdk-app")
CDK_BIN = os.path.join(E2E_DIR, "node_modules", ".bin", "cdk")
CDK_TIMEOUT_S = 150


def closed_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class CdkUnemulatedServiceTests(unittest.TestCase):
    def setUp(self):
        if not os.path.exists(CDK_BIN) or shutil.which("npx") is None:
            self.skipTest("the aws-cdk CLI is not installed (npm ci in tests/e2e)")
        self.tmp = tempfile.TemporaryDirectory(prefix="floe-cdk-default-")
        self.addCleanup(self.tmp.cleanup)
        self.server = FloeServer().start()
        self.addCleanup(self.server.cleanup)

    def app_with_default_synthesizer(self):
        app = os.path.join(self.tmp.name, "app")
        os.mkdir(app)
        with open(os.path.join(CDK_APP_DIR, "app.mjs"), encoding="utf-8") as f:
            source = f.read()
        self.assertIn("new LegacyStackSynthesizer()", source, "the app names its synthesizer")
        source = source.replace("LegacyStackSynthesizer", "DefaultStackSynthesizer")
        with open(os.path.join(app, "app.mjs"), "w", encoding="utf-8") as f:
            f.write(source)
        shutil.copy(os.path.join(CDK_APP_DIR, "cdk.json"), app)
        os.symlink(os.path.join(E2E_DIR, "node_modules"), os.path.join(app, "node_modules"))
        return app

    def test_cdk_deploy_shows_that_floe_does_not_emulate_ssm(self):
        app = self.app_with_default_synthesizer()
        proxy = "http://127.0.0.1:%d" % closed_port()
        env = client_env(self.server)
        env.update({"AWS_ENDPOINT_URL": self.server.endpoint, "AWS_REGION": "us-east-1",
                    "AWS_ACCESS_KEY_ID": "000000000000", "CDK_DISABLE_CLI_TELEMETRY": "true",
                    "CDK_DISABLE_VERSION_CHECK": "true", "CDK_HOME": os.path.join(self.tmp.name, "cdk-home"),
                    "HTTPS_PROXY": proxy, "HTTP_PROXY": proxy, "https_proxy": proxy, "http_proxy": proxy,
                    "NO_PROXY": "127.0.0.1,localhost", "no_proxy": "127.0.0.1,localhost"})
        proc = subprocess.Popen(["npx", "--no", "--", "cdk", "deploy", "--require-approval", "never", "--no-notices",
                                 "--output", os.path.join(self.tmp.name, "cdk.out")], cwd=app, env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
        try:
            output, _ = proc.communicate(timeout=CDK_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            output, _ = proc.communicate()
            self.fail("cdk deploy did not finish within %ds:\n%s" % (CDK_TIMEOUT_S, output))
        self.assertNotEqual(proc.returncode, 0, "the deploy cannot succeed without SSM")
        self.assertIn("Floe does not emulate the service 'ssm'", output,
                      "the CDK shows Floe's message naming SSM:\n" + output)
        self.assertIn("Floe emulates S3 Tables, S3, CloudFormation, STS, IAM, Glue and Athena", output,
                      "and what Floe emulates")
        self.assertNotIn("is not valid JSON", output, "not a JSON parse error on an XML answer")


if __name__ == "__main__":
    main()

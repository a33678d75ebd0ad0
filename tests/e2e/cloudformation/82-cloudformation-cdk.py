#!/usr/bin/python3
"""CloudFormation through the AWS CDK: the pinned `aws-cdk` CLI deploys tests/e2e/cdk-app (the five S3 Tables
L1 constructs, LegacyStackSynthesizer) against Floe through AWS_ENDPOINT_URL, as a CDK user would.
`cdk deploy --require-approval never` creates the stack through a change set; boto3's s3tables sees
the bucket, namespace, table and both policies; the same app deployed again changes nothing; a
`cdk deploy` with changed properties updates the stack in place through a new change set (the CLI
first deletes its previous change set, already gone or not, and relies on DescribeChangeSet then
answering ChangeSetNotFound); `cdk destroy --force` removes it all.

CI reaches only the npm and Debian registries, so everything the CLI would fetch or send is turned
off (notices, telemetry, the version check) and every other host goes to a tripwire proxy that
refuses the connection and fails the test naming the host. Each CLI run has a timeout, so a CLI
waiting on something never hangs the test."""

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import unittest

E2E_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, E2E_DIR)
from floe_server import FloeTestCase, client_env, main  # noqa: E402

ACCOUNT = "000000000000"
CDK_APP_DIR = os.path.join(E2E_DIR, "cdk-app")
CDK_BIN = os.path.join(E2E_DIR, "node_modules", ".bin", "cdk")
STACK = "FloeCdkStack"
BUCKET = "cdk-bucket"
BUCKET_ARN = "arn:aws:s3tables:us-east-1:%s:bucket/%s" % (ACCOUNT, BUCKET)
NAMESPACE = "cdk_ns"
TABLE = "events"
# One CLI run synthesizes the app (a few seconds of node) and deploys a stack Floe finishes in
# well under a second; anything near this limit is the CLI waiting on something it should not.
CDK_TIMEOUT_S = 150
TRIPWIRE_READ_TIMEOUT_S = 2


class NetworkTripwire:
    """An HTTP(S) proxy on a free local port that lets nothing through: it records the first line
    of each request (`CONNECT cli.cdk.dev-tools.aws.dev:443 HTTP/1.1`) and answers 403. The CLI is
    pointed at it through HTTPS_PROXY/HTTP_PROXY, with NO_PROXY exempting Floe's 127.0.0.1."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.port = self.sock.getsockname()[1]
        self.attempts = []
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    @property
    def url(self):
        return "http://127.0.0.1:%d" % self.port

    def serve(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return                       # closed by stop()
            with conn:
                conn.settimeout(TRIPWIRE_READ_TIMEOUT_S)
                try:
                    line = conn.makefile("rb").readline().decode("latin-1").strip()
                    conn.sendall(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                except OSError as exc:
                    line = "(unreadable request: %s)" % exc
            with self.lock:
                self.attempts.append(line or "(empty request)")

    def take(self):
        with self.lock:
            attempts, self.attempts = self.attempts, []
        return attempts

    def stop(self):
        self.sock.close()


class CdkTests(FloeTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.cfn = cls.make_client("cloudformation")
        cls.tmp = tempfile.TemporaryDirectory(prefix="floe-cdk-")
        cls.tripwire = NetworkTripwire()

    @classmethod
    def tearDownClass(cls):
        cls.tripwire.stop()
        cls.tmp.cleanup()
        super().tearDownClass()

    def cdk_env(self):
        env = client_env(self.server)
        env.update({
            "AWS_ENDPOINT_URL": self.server.endpoint,
            "AWS_REGION": "us-east-1",
            # No notices, no telemetry, no version check (cdk.json also sets notices and
            # cli-telemetry off), and the CLI's caches in a directory of this test's own.
            "CDK_DISABLE_CLI_TELEMETRY": "true",
            "CDK_DISABLE_VERSION_CHECK": "true",
            "CDK_HOME": os.path.join(self.tmp.name, "cdk-home"),
            # Anything else the CLI reaches for goes to the tripwire; Floe is reached directly.
            "HTTPS_PROXY": self.tripwire.url, "HTTP_PROXY": self.tripwire.url,
            "https_proxy": self.tripwire.url, "http_proxy": self.tripwire.url,
            "NO_PROXY": "127.0.0.1,localhost", "no_proxy": "127.0.0.1,localhost",
        })
        return env

    def cdk(self, *args):
        """Runs the pinned CDK CLI in cdk-app/ (npx --no: never installs anything); its output."""
        if not os.path.exists(CDK_BIN) or shutil.which("npx") is None:
            self.skipTest("the aws-cdk CLI is not installed (npm ci in tests/e2e)")
        argv = ["npx", "--no", "--", "cdk"] + list(args) + [
            "--no-notices", "--output", os.path.join(self.tmp.name, "cdk.out")]
        started = time.monotonic()
        # A session of its own, so a timeout kills npx, the CLI and the app it synthesizes together.
        proc = subprocess.Popen(argv, cwd=CDK_APP_DIR, env=self.cdk_env(), stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True, start_new_session=True)
        try:
            output, _ = proc.communicate(timeout=CDK_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            output, _ = proc.communicate()
            self.fail("`cdk %s` did not finish within %ds (is it waiting on the network?); tripwire saw %s\n%s" % (
                " ".join(args), CDK_TIMEOUT_S, self.tripwire.take(), output))
        reached = self.tripwire.take()
        self.assertEqual(reached, [], "`cdk %s` reaches for no host but Floe:\n%s" % (" ".join(args), output))
        if proc.returncode != 0:
            self.fail("`cdk %s` failed (%d) after %.1fs:\n%s\nserver log:\n%s" % (
                " ".join(args), proc.returncode, time.monotonic() - started, output, self.server.log_text()))
        return output

    def stack(self):
        return self.cfn.describe_stacks(StackName=STACK)["Stacks"][0]

    def compaction(self):
        config = self.s3tables.get_table_maintenance_configuration(tableBucketARN=BUCKET_ARN, namespace=NAMESPACE,
                                                                   name=TABLE)["configuration"]
        return config["icebergCompaction"]

    def bucket_policy_actions(self):
        policy = json.loads(self.s3tables.get_table_bucket_policy(tableBucketARN=BUCKET_ARN)["resourcePolicy"])
        return policy["Statement"][0]["Action"]

    def test_cdk_deploy_update_and_destroy(self):
        # -- cdk deploy: a new stack through a CREATE change set -----------------------------------
        self.cdk("deploy", "--require-approval", "never")
        stack = self.stack()
        self.assertEqual(stack["StackStatus"], "CREATE_COMPLETE", "cdk deploy creates the stack")
        stack_id = stack["StackId"]
        self.assertEqual(stack["Description"], "Floe e2e: the five AWS::S3Tables types from the AWS CDK")
        resources = {r["LogicalResourceId"]: (r["ResourceType"], r["ResourceStatus"])
                     for r in self.cfn.describe_stack_resources(StackName=STACK)["StackResources"]}
        self.assertEqual(resources, {
            "Bucket": ("AWS::S3Tables::TableBucket", "CREATE_COMPLETE"),
            "Namespace": ("AWS::S3Tables::Namespace", "CREATE_COMPLETE"),
            "Table": ("AWS::S3Tables::Table", "CREATE_COMPLETE"),
            "BucketPolicy": ("AWS::S3Tables::TableBucketPolicy", "CREATE_COMPLETE"),
            "TablePolicy": ("AWS::S3Tables::TablePolicy", "CREATE_COMPLETE"),
            "CDKMetadata": ("AWS::CDK::Metadata", "CREATE_COMPLETE"),
        }, "every construct is a resource, with the CDK's metadata resource (its condition holds in us-east-1)")

        # What the stack made, seen through S3 Tables.
        bucket = self.s3tables.get_table_bucket(tableBucketARN=BUCKET_ARN)
        self.assertEqual(bucket["name"], BUCKET, "the CfnTableBucket is a table bucket")
        removal = self.s3tables.get_table_bucket_maintenance_configuration(tableBucketARN=BUCKET_ARN)
        settings = removal["configuration"]["icebergUnreferencedFileRemoval"]["settings"]["icebergUnreferencedFileRemoval"]
        self.assertEqual((settings["unreferencedDays"], settings["nonCurrentDays"]), (4, 10),
                         "the bucket's UnreferencedFileRemoval is its maintenance configuration")
        self.assertEqual(self.s3tables.get_namespace(tableBucketARN=BUCKET_ARN, namespace=NAMESPACE)["namespace"],
                         [NAMESPACE], "the CfnNamespace is a namespace")
        table = self.s3tables.get_table(tableBucketARN=BUCKET_ARN, namespace=NAMESPACE, name=TABLE)
        self.assertEqual(table["format"], "ICEBERG", "the CfnTable is an Iceberg table")
        table_arn = table["tableARN"]
        self.assertEqual(self.compaction()["settings"]["icebergCompaction"]["targetFileSizeMB"], 256,
                         "the table's Compaction is its maintenance configuration")
        self.assertEqual(self.bucket_policy_actions(), ["s3tables:GetTable"], "the CfnTableBucketPolicy is put")
        policy = json.loads(self.s3tables.get_table_policy(tableBucketARN=BUCKET_ARN, namespace=NAMESPACE,
                                                           name=TABLE)["resourcePolicy"])
        self.assertEqual(policy["Statement"][0]["Resource"], table_arn, "the CfnTablePolicy is put, on the table")
        self.assertEqual(policy["Statement"][0]["Principal"], {"AWS": "arn:aws:iam::%s:root" % ACCOUNT},
                         "Ref AWS::AccountId is the request's account")

        # -- cdk deploy of the same app: nothing to do ----------------------------------------------
        output = self.cdk("deploy", "--require-approval", "never")
        self.assertIn("(no changes)", output, "an unchanged app deploys nothing")
        self.assertEqual(self.stack()["StackStatus"], "CREATE_COMPLETE", "and leaves the stack as it was")

        # -- cdk deploy again, with changed properties: an UPDATE change set -----------------------
        # The CLI first deletes its change set of the last deploy, which the unchanged deploy has
        # already deleted: that must succeed while the stack exists, as on AWS.
        self.cdk("deploy", "--require-approval", "never", "--context", "floe:revision=2")
        stack = self.stack()
        self.assertEqual((stack["StackId"], stack["StackStatus"]), (stack_id, "UPDATE_COMPLETE"),
                         "the second deploy updates the same stack")
        self.assertEqual(self.compaction()["settings"]["icebergCompaction"]["targetFileSizeMB"], 512,
                         "the changed compaction target is applied")
        self.assertEqual(self.bucket_policy_actions(), ["s3tables:GetTable", "s3tables:ListTables"],
                         "the changed bucket policy is put")
        table = self.s3tables.get_table(tableBucketARN=BUCKET_ARN, namespace=NAMESPACE, name=TABLE)
        self.assertEqual(table["tableARN"], table_arn, "the table is changed in place, not replaced")
        self.assertIn("CloudFormation:DescribeChangeSet 404", self.server.log_text(),
                      "the CLI deleted its previous change set, and Floe answered ChangeSetNotFound for it")
        events = self.cfn.describe_stack_events(StackName=STACK)["StackEvents"]
        updated = [e["LogicalResourceId"] for e in events
                   if e.get("ResourceStatus") == "UPDATE_COMPLETE" and e["LogicalResourceId"] != STACK]
        self.assertEqual(sorted(updated), ["BucketPolicy", "Table"], "only the changed resources are updated")
        stamps = [e["Timestamp"] for e in events]
        self.assertTrue(all(newer > older for newer, older in zip(stamps, stamps[1:])),
                        "each event is later than the one before it, so the CLI, which sorts events by "
                        "Timestamp, shows each resource's IN_PROGRESS before its COMPLETE: %s" % stamps)

        # -- cdk destroy: everything goes ----------------------------------------------------------
        self.cdk("destroy", "--force")
        self.assertClientError("ValidationError", self.cfn.describe_stacks, StackName=STACK)
        deleted = self.cfn.describe_stacks(StackName=stack_id)["Stacks"][0]
        self.assertEqual(deleted["StackStatus"], "DELETE_COMPLETE", "the destroyed stack is kept by its id")
        self.assertClientError("NotFoundException", self.s3tables.get_table_bucket, tableBucketARN=BUCKET_ARN)
        self.assertNotIn(BUCKET, [b["name"] for b in self.s3tables.list_table_buckets()["tableBuckets"]],
                         "cdk destroy deletes the table bucket, and with it the namespace, table and policies")


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""The maintenance CLI: `floe maintenance run --endpoint URL --arn ARN --type TYPE [--now TIME]` calls POST
/_floe/maintenance/run on a running server, prints its JSON answer and exits 0 on a 200 and
nonzero otherwise; `floe serve` takes --maintenance-interval (and FLOE_MAINTENANCE_INTERVAL) and
refuses a value that is not a number of seconds. Driven with the floe binary itself and boto3."""

import json
import os
import subprocess
import sys

E2E_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, E2E_DIR)
from floe_server import FLOE_BIN, FloeTestCase, main  # noqa: E402


def floe(*args, env=None):
    return subprocess.run([FLOE_BIN, *args], capture_output=True, text=True, timeout=60, env=env)


class MaintenanceCliTests(FloeTestCase):
    server_args = ("--maintenance-interval", "0")

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.bucket = cls.s3tables.create_table_bucket(name="cli-maint")["arn"]
        cls.s3tables.create_namespace(tableBucketARN=cls.bucket, namespace=["sales"])
        cls.arn = cls.s3tables.create_table(tableBucketARN=cls.bucket, namespace="sales", name="events",
                                            format="ICEBERG")["tableARN"]

    def run_job(self, *args):
        return floe("maintenance", "run", "--endpoint", self.server.endpoint, "--arn", self.arn, *args)

    def test_a_run_prints_the_job_status_and_exits_0(self):
        run = self.run_job("--type", "icebergSnapshotManagement", "--now", "2026-12-03T10:00:00Z")
        self.assertEqual(run.returncode, 0, "a job that runs exits 0 (%s)" % run.stderr)
        answer = json.loads(run.stdout)
        self.assertEqual(answer["status"], "Successful", "the answer printed is the job's status")
        self.assertEqual(answer["type"], "icebergSnapshotManagement", "for the job type asked")
        self.assertEqual(answer["now"], "2026-12-03T10:00:00.000Z", "run with the clock given by --now")
        status = self.s3tables.get_table_maintenance_job_status(tableBucketARN=self.bucket, namespace="sales",
                                                                name="events")
        self.assertEqual(status["status"]["icebergSnapshotManagement"]["status"], "Successful",
                         "boto3 sees the CLI's run in GetTableMaintenanceJobStatus")

    def test_a_refused_run_prints_the_message_and_exits_nonzero(self):
        bad = self.run_job("--type", "defrag")
        self.assertNotEqual(bad.returncode, 0, "an unknown type exits nonzero")
        self.assertIn("Unknown maintenance job type", bad.stdout, "and prints the server's message")
        disabled = self.run_job("--type", "recordExpiration")
        self.assertNotEqual(disabled.returncode, 0, "a disabled job exits nonzero")
        self.assertIn("disabled", disabled.stdout, "and says it is disabled")

    def test_missing_flags_and_an_unreachable_server_exit_nonzero(self):
        self.assertNotEqual(self.run_job().returncode, 0, "a missing --type exits nonzero")
        down = floe("maintenance", "run", "--endpoint", "http://127.0.0.1:1", "--arn", self.arn,
                    "--type", "recordExpiration")
        self.assertNotEqual(down.returncode, 0, "a server that cannot be reached exits nonzero")
        self.assertIn("cannot connect", down.stderr, "and says why")

    def test_serve_refuses_a_bad_interval(self):
        flag = floe("serve", "--maintenance-interval", "soon")
        self.assertNotEqual(flag.returncode, 0, "a --maintenance-interval that is not a number is refused")
        self.assertIn("--maintenance-interval", flag.stderr, "naming the flag")
        env = dict(os.environ, FLOE_MAINTENANCE_INTERVAL="-5")
        self.assertNotEqual(floe("serve", env=env).returncode, 0, "so is a negative FLOE_MAINTENANCE_INTERVAL")


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""Maintenance in the server's log: every job, run on request (`floe maintenance run`, POST
/_floe/maintenance/run) or by the schedule (--maintenance-interval), logs one line with its type,
its table, its outcome and how long it took; the request's own line counts the time the job took."""

import os
import re
import subprocess
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from floe_server import FLOE_BIN, FloeServer, client_env, main  # noqa: E402

JOB_LINE = re.compile(r"^\S+ JOB (\S+) Maintenance:(\w+) (Successful|Failed) (\d+)us (scheduled|requested)",
                      re.MULTILINE)
REQUEST_LINE = re.compile(r"^\S+ POST /_floe/maintenance/run Maintenance:Run (\d+) (\d+)us$", re.MULTILINE)
SCHEMA = {"fields": [{"name": "id", "type": "long", "required": True}]}
SCHEDULE_WAIT_S = 30


def make_table(server, bucket_name):
    import boto3
    os.environ.update(client_env(server))
    client = boto3.session.Session().client("s3tables", endpoint_url=server.endpoint, region_name="us-east-1")
    bucket = client.create_table_bucket(name=bucket_name)["arn"]
    client.create_namespace(tableBucketARN=bucket, namespace=["sales"])
    return client.create_table(tableBucketARN=bucket, namespace="sales", name="orders", format="ICEBERG",
                               metadata={"iceberg": {"schema": SCHEMA}})["tableARN"]


class MaintenanceLogTests(unittest.TestCase):
    def test_a_requested_job_logs_its_type_table_outcome_and_duration(self):
        server = FloeServer("--maintenance-interval", "0").start()
        try:
            arn = make_table(server, "log-requested")
            run = subprocess.run([FLOE_BIN, "maintenance", "run", "--endpoint", server.endpoint, "--arn", arn,
                                  "--type", "icebergSnapshotManagement"], capture_output=True, text=True, timeout=60,
                                 env=client_env(server))
            self.assertEqual(run.returncode, 0, "the job runs (%s %s)" % (run.stdout, run.stderr))
            log = server.log_text()
            jobs = JOB_LINE.findall(log)
            self.assertEqual([(t, ty, o, trig) for t, ty, o, _, trig in jobs],
                             [(arn, "icebergSnapshotManagement", "Successful", "requested")],
                             "one line names the job's table, type, outcome and that it was requested:\n" + log)
            requests = REQUEST_LINE.findall(log)
            self.assertEqual(len(requests), 1, "the request has its own line")
            self.assertEqual(requests[0][0], "200", "which says 200")
            self.assertGreaterEqual(int(requests[0][1]), int(jobs[0][3]),
                                    "the request's duration includes the job it waited for")
        finally:
            server.cleanup()

    def test_a_failed_requested_job_logs_failed_with_its_reason(self):
        server = FloeServer("--maintenance-interval", "0").start()
        try:
            arn = make_table(server, "log-failed")
            # The table's metadata file disappears behind Floe's back, so the job cannot read it.
            import boto3
            client = boto3.session.Session().client("s3tables", endpoint_url=server.endpoint, region_name="us-east-1")
            bucket = arn.split("/table/")[0]
            location = client.get_table_metadata_location(tableBucketARN=bucket, namespace="sales",
                                                          name="orders")["metadataLocation"]
            client.update_table_metadata_location(
                tableBucketARN=bucket, namespace="sales", name="orders",
                versionToken=client.get_table(tableBucketARN=bucket, namespace="sales", name="orders")["versionToken"],
                metadataLocation=location.rsplit("/", 1)[0] + "/00009-missing.metadata.json")
            subprocess.run([FLOE_BIN, "maintenance", "run", "--endpoint", server.endpoint, "--arn", arn,
                            "--type", "icebergSnapshotManagement"], capture_output=True, text=True, timeout=60,
                           env=client_env(server))
            line = [m for m in re.finditer(r"^.* JOB .*$", server.log_text(), re.MULTILINE)]
            self.assertEqual(len(line), 1, "the failed job has one line")
            self.assertRegex(line[0].group(0), r"Maintenance:icebergSnapshotManagement Failed \d+us requested: \S",
                             "saying it failed, and why")
        finally:
            server.cleanup()

    def test_scheduled_jobs_log_a_line_each(self):
        server = FloeServer("--maintenance-interval", "1").start()
        try:
            arn = make_table(server, "log-scheduled")
            deadline = time.monotonic() + SCHEDULE_WAIT_S
            seen = set()
            while time.monotonic() < deadline and len(seen) < 3:
                seen = {ty for t, ty, o, _, trig in JOB_LINE.findall(server.log_text())
                        if t == arn and trig == "scheduled" and o == "Successful"}
                time.sleep(0.2)
            self.assertEqual(seen, {"icebergCompaction", "icebergSnapshotManagement",
                                    "icebergUnreferencedFileRemoval"},
                             "each job the schedule runs on the table logs a line:\n" + server.log_text())
        finally:
            server.cleanup()


if __name__ == "__main__":
    main()

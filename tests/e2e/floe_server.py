"""Starts a real `floe serve` for an end-to-end test and gives the test real AWS clients.

What this is for: every tests/e2e/<folder>/NN-*.py file uses FloeServer to run its own server on a free
port with a fresh data directory (like Redis's start_server), and FloeTestCase for clients:
boto3 (Debian's python3-boto3, given the S3 Tables model through AWS_DATA_PATH) and the aws CLI
(/usr/bin/aws). What it is not for: hand-built HTTP, except where a test is about the wire itself.

Run with /usr/bin/python3: that is the interpreter a fresh Debian machine has, with boto3.
"""

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.request

SOURCE_DIR = os.environ.get("FLOE_SOURCE_DIR", os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))
FLOE_BIN = os.environ.get("FLOE_BIN", os.path.join(SOURCE_DIR, "build", "floe"))
AWS_CLI = "/usr/bin/aws"
START_TIMEOUT_S = 15
STOP_TIMEOUT_S = 15


def model_dir():
    """The botocore data directory holding s3tables/2018-05-10/service-2.json (pinned in models/)."""
    return os.path.join(SOURCE_DIR, "models", "botocore")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class FloeServer:
    """One `floe serve` process on a free port over its own data directory."""

    def __init__(self, *extra_args, data_dir=None):
        self.extra_args = list(extra_args)
        self.own_dir = data_dir is None
        self.data_dir = data_dir or tempfile.mkdtemp(prefix="floe-e2e-")
        self.port = free_port()
        self.proc = None
        self.log_path = os.path.join(tempfile.gettempdir(), "floe-e2e-%d.log" % self.port)
        self.log_started = False  # a port is reused across test runs: the first start truncates its log

    @property
    def endpoint(self):
        return "http://127.0.0.1:%d" % self.port

    def start(self):
        self.log = open(self.log_path, "ab" if self.log_started else "wb")
        self.log_started = True
        self.proc = subprocess.Popen(
            [FLOE_BIN, "serve", "--host", "127.0.0.1", "--port", str(self.port), "--data-dir", self.data_dir]
            + self.extra_args, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("floe exited with %s during start-up:\n%s" % (self.proc.returncode, self.log_text()))
            try:
                with urllib.request.urlopen(self.endpoint + "/_floe/health", timeout=1) as r:
                    if r.status == 200:
                        return self
            except OSError:
                time.sleep(0.02)
        raise RuntimeError("floe did not answer /_floe/health within %ds:\n%s" % (START_TIMEOUT_S, self.log_text()))

    def stop(self, timeout_s=STOP_TIMEOUT_S):
        """SIGTERM and wait; a non-zero exit (a sanitizer report, say) is an error."""
        if self.proc is None:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            rc = self.proc.wait(timeout_s)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise RuntimeError("floe did not stop within %ds of SIGTERM:\n%s" % (timeout_s, self.log_text()))
        finally:
            self.proc = None
            self.log.close()
        if rc != 0:
            raise RuntimeError("floe exited with status %d:\n%s" % (rc, self.log_text()))

    def kill(self):
        """SIGKILL, as a crash would."""
        self.proc.kill()
        self.proc.wait()
        self.proc = None
        self.log.close()

    def restart(self):
        self.stop()
        return self.start()

    def cleanup(self):
        if self.proc is not None:
            self.stop()
        if self.own_dir:
            shutil.rmtree(self.data_dir, ignore_errors=True)

    def log_text(self):
        try:
            with open(self.log_path, "rb") as f:
                return f.read().decode("utf-8", "replace")[-20000:]
        except OSError:
            return ""


def client_env(server):
    env = dict(os.environ)
    env.update({
        "AWS_ACCESS_KEY_ID": "floe-test", "AWS_SECRET_ACCESS_KEY": "floe-test",
        "AWS_DEFAULT_REGION": "us-east-1", "AWS_DATA_PATH": model_dir(),
        "AWS_EC2_METADATA_DISABLED": "true", "AWS_CONFIG_FILE": "/dev/null",
        "AWS_SHARED_CREDENTIALS_FILE": "/dev/null", "AWS_PAGER": "",
    })
    return env


def engine_env(key="floe", secret="floe"):
    """Sets this process's environment as an engine user's shell has it (PyIceberg, DuckDB, Spark,
    boto3 in the engines' venv): keys and region, no instance metadata or config files, and no
    AWS_DATA_PATH, since those clients carry their own S3 Tables models."""
    os.environ.update({
        "AWS_ACCESS_KEY_ID": key, "AWS_SECRET_ACCESS_KEY": secret, "AWS_REGION": "us-east-1",
        "AWS_DEFAULT_REGION": "us-east-1", "AWS_EC2_METADATA_DISABLED": "true",
        "AWS_CONFIG_FILE": "/dev/null", "AWS_SHARED_CREDENTIALS_FILE": "/dev/null",
    })
    os.environ.pop("AWS_DATA_PATH", None)


def strict_engine_server(key, secret, bucket):
    """An engine user's environment with the key pair KEY:SECRET (engine_env), a
    `floe serve --strict-signatures` that accepts only that pair, and a table bucket BUCKET made
    with boto3: (server, the bucket's ARN)."""
    engine_env(key, secret)
    server = FloeServer("--quiet", "--strict-signatures", "--credentials", "%s:%s" % (key, secret)).start()
    import boto3
    s3tables = boto3.client("s3tables", endpoint_url=server.endpoint, region_name="us-east-1")
    return server, s3tables.create_table_bucket(name=bucket)["arn"]


def create_glue_integration(glue, account, region="us-east-1"):
    """Integrates S3 Tables with AWS analytics services as AWS's guide does: the federated Glue
    catalog `s3tablescatalog`, which Glue's Iceberg REST endpoint needs before it serves a bucket."""
    glue.create_catalog(Name="s3tablescatalog", CatalogInput={
        "FederatedCatalog": {"Identifier": "arn:aws:s3tables:%s:%s:bucket/*" % (region, account),
                             "ConnectionName": "aws:s3tables"},
        "CreateDatabaseDefaultPermissions": [], "CreateTableDefaultPermissions": [],
        "AllowFullTableExternalDataAccess": "True"})


def compact_and_expire(testcase, endpoint, table_arn, later):
    """Floe's compaction, then snapshot expiration as of `later`, on one table through
    `floe maintenance run`; asserts both succeed and returns each job's answer by type."""
    results = {}
    for job, extra in (("icebergCompaction", []), ("icebergSnapshotManagement", ["--now", later])):
        out = subprocess.run([FLOE_BIN, "maintenance", "run", "--endpoint", endpoint, "--arn", table_arn,
                              "--type", job] + extra, capture_output=True, text=True, timeout=180)
        testcase.assertEqual(out.returncode, 0, "floe maintenance run %s: %s%s" % (job, out.stdout, out.stderr))
        results[job] = json.loads(out.stdout)
        testcase.assertEqual(results[job]["status"], "Successful",
                             "%s on %s succeeds: %s" % (job, table_arn, out.stdout))
    return results


def maven_program_stamp(project):
    """The stamp scripts/setup-deps writes beside a Maven test program's build: the sha256 of
    `sha256sum` over the program's sources."""
    import hashlib
    lines = []
    for d, _, files in os.walk(project):
        for name in files:
            path = os.path.join(d, name)
            with open(path, "rb") as f:
                lines.append((b"./" + os.path.relpath(path, project).encode(), hashlib.sha256(f.read()).hexdigest()))
    listing = "".join("%s  %s\n" % (digest, rel.decode()) for rel, digest in sorted(lines))
    return hashlib.sha256(listing.encode()).hexdigest()


def build_maven_program(mvn, project, build, jar, timeout):
    """Rebuilds a Maven test program (tests/sdk/java, tests/iceberg-rck) offline into BUILD when its
    sources changed since the stamp beside the build; returns None, or why it did not build."""
    stamp_path = os.path.join(build, "sources.sha256")
    stamp = maven_program_stamp(project)
    try:
        with open(stamp_path) as f:
            if os.path.exists(jar) and f.read().strip() == stamp:
                return None
    except OSError:
        pass
    proc = subprocess.run([mvn, "-B", "-q", "-o", "-f", os.path.join(project, "pom.xml"), "package",
                           "-Dfloe.build.dir=" + build], capture_output=True, text=True, timeout=timeout)
    if proc.returncode != 0:
        return ("%s did not build offline (has scripts/setup-deps run?):\n" % project
                + proc.stdout[-4000:] + proc.stderr[-4000:])
    with open(stamp_path, "w") as f:
        f.write(stamp + "\n")
    return None


class FloeTestCase(unittest.TestCase):
    """A test class with one server for all its tests (setUpClass) and clients for it."""

    server_args = ()

    @classmethod
    def setUpClass(cls):
        cls.server = FloeServer(*cls.server_args).start()
        os.environ.update(client_env(cls.server))
        import boto3          # imported after AWS_DATA_PATH is set: botocore reads it at session start
        import botocore.config
        cls.session = boto3.session.Session()
        cls.botocore_config = botocore.config.Config(retries={"max_attempts": 1})
        cls.s3tables = cls.make_client("s3tables")
        # botocore checks required members, types and minimums before sending; this client sends
        # whatever it is given, so tests can prove the server enforces the model too.
        cls.s3tables_unchecked = cls.make_client("s3tables", parameter_validation=False)

    @classmethod
    def tearDownClass(cls):
        cls.server.cleanup()

    @classmethod
    def make_client(cls, service, **config):
        import botocore.config
        return cls.session.client(service, endpoint_url=cls.server.endpoint, region_name="us-east-1",
                                  config=cls.botocore_config.merge(botocore.config.Config(**config)))

    @classmethod
    def signed_client(cls, service, key, secret, token=None):
        """A boto3 client of `service` signed with a key pair (and an STS session's token)."""
        import boto3
        session = boto3.session.Session(aws_access_key_id=key, aws_secret_access_key=secret, aws_session_token=token)
        return session.client(service, endpoint_url=cls.server.endpoint, region_name="us-east-1",
                              config=cls.botocore_config)

    def aws(self, *args, expect_ok=True):
        """Runs /usr/bin/aws against the server; returns (exit code, parsed JSON or text, stderr)."""
        self.require_tool(AWS_CLI)
        proc = subprocess.run([AWS_CLI, "--endpoint-url", self.server.endpoint, "--output", "json"] + list(args),
                              capture_output=True, text=True, env=client_env(self.server), timeout=120)
        if expect_ok and proc.returncode != 0:
            self.fail("aws %s failed (%d): %s" % (" ".join(args), proc.returncode, proc.stderr))
        try:
            out = json.loads(proc.stdout) if proc.stdout.strip() else None
        except ValueError:
            out = proc.stdout
        return proc.returncode, out, proc.stderr

    def require_tool(self, path):
        if not os.path.exists(path):
            self.skipTest("%s is not installed" % path)

    def assertClientError(self, code, fn, *args, **kwargs):
        """Calls fn and asserts it raised botocore's ClientError with the given error code."""
        import botocore.exceptions
        try:
            fn(*args, **kwargs)
        except botocore.exceptions.ClientError as exc:
            got = exc.response["Error"]["Code"]
            self.assertEqual(got, code, "expected %s, got %s: %s" % (code, got, exc.response["Error"].get("Message")))
            return exc.response
        self.fail("expected %s, but the call succeeded" % code)


def main():
    unittest.main(verbosity=2)

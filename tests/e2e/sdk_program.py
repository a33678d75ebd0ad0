"""Runs a test program written with an AWS SDK (tests/sdk/<language>/) against Floe.

What this is for: tests/e2e/sdk/84-go-sdk.py and sdk/85-rust-sdk.py build their program offline from the
pinned modules or crates that scripts/setup-deps fetched, then run it twice, each time against a
server of its own: one as is, and one with --strict-signatures and a configured key pair (where the
same program with a wrong secret must be refused). The program checks every answer itself and
prints "FAIL <Operation>.<field>: ..." for each difference from AWS; this driver shows that output.
What it is not for: checking answers itself, or fetching anything from a registry.

Builds are cached outside the clone, under ~/.cache/floe-sdk-tests/ (the Go build cache, Cargo's
target directory), so a repeat run on the same machine rebuilds nothing while a fresh machine
builds from scratch.
"""

import os
import shutil
import subprocess
import time
import unittest

from floe_server import SOURCE_DIR, FloeServer

CACHE_DIR = os.path.join(os.path.expanduser("~"), ".cache", "floe-sdk-tests")
SDK_DIR = os.path.join(SOURCE_DIR, "tests", "sdk")
# Key pairs: neither is a 12-digit account number, so both act in Floe's default account.
STRICT_KEY, STRICT_SECRET = "AKIDFLOESDKSTRICT", "floe-sdk-strict-secret"
ANY_KEY, ANY_SECRET = "AKIDFLOESDK", "floe-sdk-any-secret"
# One run makes a few hundred calls and waits on a stack and a replica: seconds, not minutes.
RUN_TIMEOUT_S = 300
OUTPUT_TAIL_CHARS = 20000


def find_tool(name, *fallbacks):
    """The tool on PATH, else the first fallback path that exists, else None."""
    found = shutil.which(name)
    if found:
        return found
    return next((path for path in fallbacks if os.path.exists(path)), None)


def tool_missing(reason):
    """Skips the test class; tests/e2e/run fails a skip in CI."""
    raise unittest.SkipTest(reason)


def run_logged(args, cwd, env, timeout_s, what):
    """Runs a build step; on failure raises with its output. Returns the seconds it took."""
    started = time.monotonic()
    proc = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout_s)
    if proc.returncode != 0:
        raise RuntimeError("%s failed (%d):\n%s\n%s" % (what, proc.returncode, proc.stdout[-OUTPUT_TAIL_CHARS:],
                                                         proc.stderr[-OUTPUT_TAIL_CHARS:]))
    return time.monotonic() - started


class SdkProgramTestCase(unittest.TestCase):
    """Subclasses set `language` and implement build(), which returns the program's path."""

    language = None

    @classmethod
    def build(cls):
        raise NotImplementedError

    @classmethod
    def setUpClass(cls):
        os.makedirs(CACHE_DIR, exist_ok=True)
        started = time.monotonic()
        cls.program = cls.build()
        print("built the %s SDK program in %.1f s" % (cls.language, time.monotonic() - started), flush=True)

    def run_program(self, server, key, secret, label):
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": os.path.expanduser("~"),
            "AWS_ENDPOINT_URL": server.endpoint, "AWS_ACCESS_KEY_ID": key, "AWS_SECRET_ACCESS_KEY": secret,
            "AWS_REGION": "us-east-1", "AWS_CONFIG_FILE": "/dev/null", "AWS_SHARED_CREDENTIALS_FILE": "/dev/null",
            "AWS_EC2_METADATA_DISABLED": "true", "FLOE_SDK_RUN": label,
        }
        return subprocess.run([self.program], env=env, capture_output=True, text=True, timeout=RUN_TIMEOUT_S)

    def start_server(self, *args):
        server = FloeServer(*args).start()
        self.addCleanup(server.cleanup)
        return server

    def assertProgramPassed(self, proc, server, what):
        if proc.returncode != 0:
            self.fail("%s (exit %d):\n%s\n--- stderr\n%s\n--- server log\n%s" % (
                what, proc.returncode, proc.stdout[-OUTPUT_TAIL_CHARS:], proc.stderr[-OUTPUT_TAIL_CHARS:],
                server.log_text()[-OUTPUT_TAIL_CHARS:]))
        print(proc.stdout.strip().splitlines()[-1], flush=True)

    def test_every_operation_answers_as_aws_does(self):
        server = self.start_server()
        proc = self.run_program(server, ANY_KEY, ANY_SECRET, "%s SDK, default server" % self.language)
        self.assertProgramPassed(proc, server, "the %s SDK sees every operation answer as AWS does" % self.language)

    def test_every_operation_answers_as_aws_does_with_strict_signatures(self):
        server = self.start_server("--strict-signatures", "--credentials", "%s:%s" % (STRICT_KEY, STRICT_SECRET))
        proc = self.run_program(server, STRICT_KEY, STRICT_SECRET, "%s SDK, --strict-signatures" % self.language)
        self.assertProgramPassed(proc, server, "every request the %s SDK signs verifies in strict mode" % self.language)
        refused = self.run_program(server, STRICT_KEY, "not-the-secret", "%s SDK, wrong secret" % self.language)
        self.assertNotEqual(refused.returncode, 0, "a strict server refuses the %s SDK's calls signed with a wrong "
                                                   "secret" % self.language)
        self.assertIn("InvalidSignatureException", refused.stdout,
                      "the %s SDK's first call is refused as AWS refuses a bad signature" % self.language)

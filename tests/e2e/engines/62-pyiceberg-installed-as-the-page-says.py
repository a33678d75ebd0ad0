#!/usr/bin/python3
"""docs/engines.md followed as a new user follows it: in a shell with no AWS settings, its opening
block (`eval "$(floe env)"`, then the aws CLI creates the table bucket), then its PyIceberg blocks
in a virtual environment holding only what the page's `pip install` line installs
(<build>/pyiceberg-page-venv, made by scripts/setup-deps through tests/engines/install_from_page.py):
PyIceberg's SigV4 catalog needs boto3, which only the line's extras bring. The page's other
`pip install` lines name the versions the engine tests pin.

Runs with /usr/bin/python3; the page's Python runs in the page's environment."""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

E2E_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(E2E_DIR, "..", "engines"))
sys.path.insert(0, E2E_DIR)
import install_from_page  # noqa: E402
import snippets  # noqa: E402
from floe_server import FLOE_BIN, FloeServer, model_dir  # noqa: E402

BUILD = os.environ.get("FLOE_BUILD_DIR", os.path.join(snippets.SOURCE_DIR, "build-asan"))
VENV = os.path.join(BUILD, "pyiceberg-page-venv")
LOCK = os.path.join(snippets.SOURCE_DIR, "tests", "engines", "requirements.txt")
# What `floe env` exports by default: keys that are no 12-digit account act in the default account.
ARN = "arn:aws:s3tables:us-east-1:000000000000:bucket/my-table-bucket"

# The user's own code between the page's catalog block and its read block: a table to read.
WRITE = """
import pyarrow as pa
catalog.create_namespace("first_steps")
table = catalog.create_table("first_steps.orders", schema=pa.schema([pa.field("id", pa.int64())]))
table.append(pa.table({"id": pa.array([11, 22, 33], pa.int64())}))
"""


def new_users_shell(home):
    """This process's environment without any AWS setting, as a shell on a new machine has it, but
    for AWS_DATA_PATH: Debian 12's aws CLI (v1) carries no S3 Tables model, so it is given Floe's.
    FLOE_PORT is the server's port, read by `floe env` as by `floe serve`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
    env.update({"HOME": home, "AWS_DATA_PATH": model_dir(),
                "PATH": os.path.dirname(os.path.abspath(FLOE_BIN)) + os.pathsep + env.get("PATH", "/usr/bin:/bin")})
    return env


class PageAsANewUserFollowsIt(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        if not os.path.exists(os.path.join(VENV, "bin", "python")):
            raise unittest.SkipTest("%s is missing: run scripts/setup-deps" % VENV)
        cls.server = FloeServer("--quiet").start()
        cls.home = tempfile.mkdtemp(prefix="floe-new-user-")

    @classmethod
    def tearDownClass(cls):
        cls.server.cleanup()
        shutil.rmtree(cls.home, ignore_errors=True)

    def test_the_page_environment_is_what_its_line_installs_now(self):
        with open(os.path.join(VENV, "page-install.sha256"), encoding="utf-8") as f:
            self.assertEqual(f.read().strip(), install_from_page.stamp("pyiceberg-install", LOCK),
                             "%s was made from the page's current line and lock: run scripts/setup-deps" % VENV)

    def test_the_pages_install_lines_name_the_pinned_versions(self):
        pins = install_from_page.lock_pins(LOCK)
        for block in ("pyiceberg-install", "duckdb-install"):
            install_from_page.check_pinned(install_from_page.requirements(block), pins)

    def test_opening_block_then_pyiceberg_blocks_in_a_shell_without_aws_settings(self):
        env = new_users_shell(self.home)
        env["FLOE_PORT"] = str(self.server.port)
        endpoint = self.server.endpoint
        user_py = os.path.join(self.home, "first_steps.py")
        with open(user_py, "w", encoding="utf-8") as f:
            f.write(snippets.render("pyiceberg-rest", endpoint, ARN) + WRITE
                    + snippets.render("pyiceberg-read", endpoint, ARN, namespace="first_steps", table="orders"))
        script = "set -e\n%s\n%s %s\n" % (snippets.render("setup", endpoint, ARN),
                                         os.path.join(VENV, "bin", "python"), user_py)
        out = subprocess.run(["/bin/bash", "-c", script], env=env, cwd=self.home,
                             capture_output=True, text=True, timeout=180)
        self.assertEqual(out.returncode, 0,
                         "the page's blocks, pasted in order:\n%s%s" % (out.stdout, out.stderr[-3000:]))
        self.assertEqual(json.loads(out.stdout[:out.stdout.index("}") + 1]), {"arn": ARN},
                         "the opening block created the table bucket: %s" % out.stdout)
        self.assertIn("id:[[11,22,33]]", out.stdout.replace(" ", "").replace("\n", ""),
                      "the page's read block printed the rows:\n%s" % out.stdout)


if __name__ == "__main__":
    unittest.main(verbosity=2)

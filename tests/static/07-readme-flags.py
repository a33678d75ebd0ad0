#!/usr/bin/python3
"""The README's account of the command line matches the binary: its `floe serve` flag table lists
exactly the options `floe serve --help` lists, with the same argument names, environment
variables and defaults, so the two cannot drift; and what it says of `floe env` and `floe
maintenance run` (flags, AWS_ENDPOINT_URL, the AWS keys) is what they do."""

import os
import re
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "e2e"))
from floe_server import FLOE_BIN, SOURCE_DIR, main  # noqa: E402

README = os.path.join(SOURCE_DIR, "README.md")
TABLE_ROW = re.compile(r"^\| `(--[a-z0-9-]+)(?: ([^`]+))?` \| `(FLOE_[A-Z0-9_]+)[^`]*` \| ([^|]*) \|")
HELP_OPTION = re.compile(r"^  (--[a-z0-9-]+)(?: ([A-Z][A-Z0-9:]*))?(?=\s)")
HELP_ENV = re.compile(r"\[(FLOE_[A-Z0-9_]+)")
HELP_DEFAULT = re.compile(r"\(default ([^\s;:)]+)[;)]")


def floe(*args, env=None):
    return subprocess.run([FLOE_BIN, *args], capture_output=True, text=True, timeout=30, env=env)


def readme_serve_table():
    """{flag: (argument, env var, default column)} from the table under "## `floe serve`"."""
    with open(README, encoding="utf-8") as f:
        text = f.read()
    section = text[text.index("## `floe serve`"):]
    section = section[:section.index("\n\n", section.index("| flag"))]
    rows = {}
    for line in section.splitlines():
        m = TABLE_ROW.match(line)
        if m:
            rows[m.group(1)] = (m.group(2), m.group(3), m.group(4))
    return rows


def help_serve_options():
    """{flag: (argument, env var, default or None)} from `floe serve --help`'s serve options."""
    out = floe("serve", "--help").stdout
    options, current = {}, None
    for line in out[out.index("\nserve options") + 1:].splitlines()[1:]:
        m = HELP_OPTION.match(line)
        if m:
            current = m.group(1)
            options[current] = [m.group(2), None, None, line]
        elif current is not None and line.startswith("    "):
            options[current][3] += " " + line.strip()
    for flag, entry in options.items():
        env, default = HELP_ENV.search(entry[3]), HELP_DEFAULT.search(entry[3])
        options[flag] = (entry[0], env.group(1) if env else None, default.group(1) if default else None)
    return options


class ReadmeFlagTests(unittest.TestCase):
    def test_readme_flag_table_lists_every_serve_option_and_no_other(self):
        table, options = readme_serve_table(), help_serve_options()
        self.assertGreater(len(options), 10, "floe serve --help lists its options")
        self.assertEqual(sorted(table), sorted(options),
                         "the README's flag table and `floe serve --help` list the same flags")

    def test_readme_flag_table_agrees_with_help_on_arguments_variables_and_defaults(self):
        table, options = readme_serve_table(), help_serve_options()
        for flag in sorted(set(table) & set(options)):
            with self.subTest(flag=flag):
                argument, env, default_column = table[flag]
                help_argument, help_env, help_default = options[flag]
                self.assertEqual(argument, help_argument, "%s takes the same argument in both" % flag)
                self.assertEqual(env, help_env, "%s has the same environment variable in both" % flag)
                if help_default is not None:
                    self.assertIn("`%s`" % help_default, default_column, "%s has the same default in both" % flag)

    def test_every_flag_in_the_table_is_accepted_by_floe_serve(self):
        samples = {"H": "127.0.0.1", "P": "4566", "D": "/tmp", "N": "1", "R": "us-east-1", "A": "000000000000",
                   "AK:SK": "ak:sk", "M": "table", "S": "0", "URL": "http://127.0.0.1:8080"}
        for flag, (argument, _, _) in readme_serve_table().items():
            with self.subTest(flag=flag):
                args = [flag] + ([samples[argument]] if argument else [])
                run = floe("serve", *args, "--help")  # options are read in order: --help comes last
                self.assertEqual(run.returncode, 0, "floe serve accepts %s: %s" % (" ".join(args), run.stderr))

    def test_floe_env_takes_the_port_and_credentials_the_readme_names(self):
        with open(README, encoding="utf-8") as f:
            text = f.read()
        self.assertIn("floe env --port 4570 --credentials AK:SK", text, "the README shows floe env's flags")
        env = {k: v for k, v in os.environ.items() if not k.startswith("FLOE_")}
        out = floe("env", "--port", "4570", "--credentials", "AK:SK", "--region", "eu-west-1", env=env).stdout
        self.assertIn("export AWS_ENDPOINT_URL=http://127.0.0.1:4570", out, "--port sets the endpoint's port")
        self.assertIn("export AWS_ACCESS_KEY_ID=AK", out, "--credentials sets the access key")
        self.assertIn("export AWS_SECRET_ACCESS_KEY=SK", out, "and the secret")
        self.assertIn("export AWS_REGION=eu-west-1", out, "--region sets the region")
        usage = floe("--help").stdout
        for words in ("--port", "--credentials", "AWS_ENDPOINT_URL", "AWS_ACCESS_KEY_ID"):
            self.assertIn(words, usage[:usage.index("\nserve options")], "floe --help's commands mention %s" % words)

    def test_floe_maintenance_run_finds_the_server_in_aws_endpoint_url(self):
        with open(README, encoding="utf-8") as f:
            self.assertIn("AWS_ENDPOINT_URL", f.read().split("## `floe serve`")[1].split("**Accounts")[0],
                          "the README says floe maintenance run reads AWS_ENDPOINT_URL")
        env = dict(os.environ, AWS_ENDPOINT_URL="http://127.0.0.1:1")
        run = floe("maintenance", "run", "--arn", "arn:aws:s3tables:us-east-1:000000000000:bucket/b/table/t",
                   "--type", "recordExpiration", env=env)
        self.assertNotEqual(run.returncode, 0, "with nothing listening there it fails")
        self.assertIn("cannot connect to 127.0.0.1:1", run.stderr, "after trying the endpoint AWS_ENDPOINT_URL names")


if __name__ == "__main__":
    main()

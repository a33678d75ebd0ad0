#!/usr/bin/python3
"""The front door: health, service routing by SigV4 scope, the error shapes of requests that reach
no operation, the command line (floe env, flags and FLOE_* variables, --quiet, --in-memory) and
the per-request log."""

import json
import os
import re
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from floe_server import FLOE_BIN, FloeServer, FloeTestCase, main  # noqa: E402


class FrontDoorTests(FloeTestCase):
    def signed(self, method, path, body=b"", service="s3tables", headers=None):
        """Sends a request signed by botocore's own SigV4 signer; returns (status, headers, body)."""
        from botocore.auth import SigV4Auth
        from botocore.awsrequest import AWSRequest
        creds = self.session.get_credentials()
        req = AWSRequest(method=method, url=self.server.endpoint + path, data=body, headers=headers or {})
        SigV4Auth(creds, service, "us-east-1").add_auth(req)
        prepared = req.prepare()
        return self.raw(method, path, body, dict(prepared.headers))

    def raw(self, method, path, body=b"", headers=None):
        req = urllib.request.Request(self.server.endpoint + path, data=body or None, method=method,
                                     headers=headers or {})
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                return r.status, r.headers, r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.headers, e.read()

    def test_health_answers_200_with_status_version_and_services(self):
        status, headers, body = self.raw("GET", "/_floe/health")
        doc = json.loads(body)
        self.assertEqual(status, 200, "the health route answers 200")
        self.assertEqual(doc["status"], "ok", "health says ok")
        self.assertRegex(doc["version"], r"^\d+\.\d+\.\d+$", "health reports a version")
        self.assertIn("s3tables", doc["services"], "health lists the S3 Tables service")
        self.assertIn("s3", doc["services"], "health lists the S3 service")
        self.assertEqual(doc["services"].get("cloudformation"), "available",
                         "health lists CloudFormation as available")
        self.assertEqual(doc["services"].get("sts"), "available", "health lists STS as available")
        self.assertEqual(doc["services"].get("glue"), "available", "health lists Glue as available")

    def test_health_refuses_a_header_section_over_8_kib_as_every_route_does(self):
        status, _, _ = self.raw("GET", "/_floe/health", headers={"x-pad": "v" * (100 * 1024)})
        self.assertEqual(status, 400, "a 100 KB header to /_floe/health is refused with 400")
        status, _, _ = self.raw("GET", "/_floe/health", headers={"x-pad": "v" * 1024})
        self.assertEqual(status, 200, "a 1 KB header is answered 200")
    def test_unsigned_request_reaches_s3_and_signed_one_reaches_s3tables(self):
        status, headers, body = self.raw("GET", "/buckets")
        self.assertIn("xml", headers.get("Content-Type", ""), "an unsigned GET /buckets is answered by S3, in XML")
        self.assertTrue(body.startswith(b"<?xml"), "the S3 answer is an XML document")
        self.s3tables.create_table_bucket(name="routing-check")
        status, headers, body = self.signed("GET", "/buckets")
        self.assertEqual(status, 200, "GET /buckets signed for s3tables is ListTableBuckets")
        self.assertIn("routing-check", [b["name"] for b in json.loads(body)["tableBuckets"]],
                      "the signed request lists table buckets as JSON")

    def test_request_signed_for_s3_goes_to_s3(self):
        status, headers, body = self.signed("GET", "/buckets", service="s3")
        self.assertTrue(body.startswith(b"<?xml"), "a request signed for s3 is S3's, even on an S3 Tables path")

    def test_presigned_url_is_routed_by_its_credential_scope(self):
        self.s3tables.create_table_bucket(name="presigned-check")
        url = self.s3tables.generate_presigned_url("list_table_buckets", Params={"prefix": "presigned-"})
        with urllib.request.urlopen(url, timeout=10) as r:
            names = [b["name"] for b in json.loads(r.read())["tableBuckets"]]
        self.assertEqual(names, ["presigned-check"], "a presigned s3tables URL reaches ListTableBuckets")

    def test_unknown_path_is_404_unknown_operation_in_aws_shape(self):
        status, headers, body = self.signed("GET", "/no-such-route")
        self.assertEqual(status, 404, "an unknown path is 404")
        self.assertEqual(headers.get("x-amzn-ErrorType"), "UnknownOperationException", "the error type is named")
        self.assertIn("message", json.loads(body), "the body is {\"message\": ...}")

    def test_wrong_method_is_405(self):
        status, headers, body = self.signed("PATCH", "/buckets")
        self.assertEqual(status, 405, "a known path with the wrong method is 405")
        self.assertEqual(headers.get("x-amzn-ErrorType"), "MethodNotAllowedException", "the error type is named")

    def test_malformed_json_body_is_bad_request(self):
        for body in (b"{\"name\": ", b"[1,2]", b"{\"name\": 42}", b"\xff\xfe", b"{\"name\": \"a\\u0000b\"}"):
            with self.subTest(body=body):
                status, headers, payload = self.signed("PUT", "/buckets", body=body,
                                                       headers={"Content-Type": "application/json"})
                self.assertEqual(status, 400, "a bad body is 400")
                self.assertEqual(headers.get("x-amzn-ErrorType"), "BadRequestException", "as BadRequestException")

    def test_missing_required_member_is_bad_request_naming_it(self):
        status, headers, body = self.signed("PUT", "/buckets", body=b"{}")
        self.assertEqual(status, 400, "a missing required member is 400")
        self.assertIn("'name'", json.loads(body)["message"], "the message names the missing member")

    def test_bad_percent_encoding_in_a_label_is_bad_request(self):
        status, headers, body = self.signed("GET", "/buckets/arn%3")
        self.assertEqual(status, 400, "a malformed escape in a label is 400")
        self.assertEqual(headers.get("x-amzn-ErrorType"), "BadRequestException", "as BadRequestException")

    def test_every_response_carries_a_request_id(self):
        resp = self.s3tables.list_table_buckets()
        self.assertTrue(resp["ResponseMetadata"].get("RequestId"), "boto3 sees a request id")

    def test_each_request_is_logged_once(self):
        self.s3tables.list_table_buckets(prefix="logged-")
        lines = [l for l in self.server.log_text().splitlines() if "ListTableBuckets" in l and "logged-" in l]
        self.assertEqual(len(lines), 1, "one log line per request")
        self.assertRegex(lines[0], r"^\S+Z GET /buckets\?prefix=logged- ListTableBuckets 200 \d+us$",
                         "the line has time, method, path, operation, status and microseconds")


class CommandLineTests(FloeTestCase):
    server_args = ("--quiet",)

    def run_floe(self, *args, env=None, timeout=10):
        return subprocess.run([FLOE_BIN] + list(args), capture_output=True, text=True, timeout=timeout,
                              env=dict(os.environ, **(env or {})))

    def test_quiet_silences_request_lines(self):
        self.s3tables.list_table_buckets()
        self.assertNotIn("ListTableBuckets", self.server.log_text(), "--quiet logs no request lines")

    def test_env_prints_exports_a_shell_can_eval(self):
        out = self.run_floe("env", "--port", "4999", "--region", "eu-west-1").stdout
        self.assertIn("export AWS_ENDPOINT_URL=http://127.0.0.1:4999", out, "floe env points at the server")
        script = "eval \"$(%s env --port 4999)\"; echo $AWS_ENDPOINT_URL $AWS_DEFAULT_REGION $AWS_ACCESS_KEY_ID" % FLOE_BIN
        result = subprocess.run(["/bin/sh", "-c", script], capture_output=True, text=True).stdout.split()
        self.assertEqual(result[:2], ["http://127.0.0.1:4999", "us-east-1"], "eval sets endpoint and region")
        self.assertTrue(result[2], "eval sets an access key")
        self.assertIn("eu-west-1", out, "--region is reflected in the exports")

    def test_bad_flags_fail_with_a_message(self):
        for args, needle in ((("serve", "--port", "http"), "--port"), (("serve", "--threads", "0"), "--threads"),
                             (("serve", "--account-id", "12"), "account-id"), (("bogus",), "unknown command")):
            with self.subTest(args=args):
                proc = self.run_floe(*args)
                self.assertNotEqual(proc.returncode, 0, "floe %s fails" % " ".join(args))
                self.assertIn(needle, proc.stderr, "and says what is wrong")

    def test_environment_variables_mirror_the_flags(self):
        data_dir = tempfile.mkdtemp(prefix="floe-env-")
        server = FloeServer(data_dir=data_dir)
        server.extra_args = []
        proc = None
        try:
            env = {"FLOE_DATA_DIR": data_dir, "FLOE_ACCOUNT_ID": "123456789012", "FLOE_REGION": "eu-west-1",
                   "FLOE_QUIET": "1", "FLOE_PORT": str(server.port)}
            proc = subprocess.Popen([FLOE_BIN, "serve"], env=dict(os.environ, **env), stderr=subprocess.PIPE)
            server.proc = proc
            for _ in range(500):
                try:
                    urllib.request.urlopen(server.endpoint + "/_floe/health", timeout=1)
                    break
                except OSError:
                    import time
                    time.sleep(0.02)
            client = self.session.client("s3tables", endpoint_url=server.endpoint, region_name="eu-west-1")
            arn = client.create_table_bucket(name="env-configured")["arn"]
            self.assertEqual(arn, "arn:aws:s3tables:eu-west-1:123456789012:bucket/env-configured",
                             "FLOE_REGION and FLOE_ACCOUNT_ID shape the ARN; FLOE_PORT is the port")
            self.assertTrue(os.path.exists(os.path.join(data_dir, "floe.db")), "FLOE_DATA_DIR holds the state")
        finally:
            if proc:
                proc.terminate()
                self.assertEqual(proc.wait(10), 0, "the server exits 0 on SIGTERM")

    def test_default_data_dir_follows_xdg_data_home(self):
        xdg = tempfile.mkdtemp(prefix="floe-xdg-")
        port = FloeServer().port
        proc = subprocess.Popen([FLOE_BIN, "serve", "--port", str(port), "--quiet"],
                                env=dict(os.environ, XDG_DATA_HOME=xdg), stderr=subprocess.DEVNULL)
        try:
            for _ in range(500):
                if os.path.exists(os.path.join(xdg, "floe", "floe.db")):
                    break
                import time
                time.sleep(0.02)
            self.assertTrue(os.path.exists(os.path.join(xdg, "floe", "floe.db")),
                            "without --data-dir, state lives in $XDG_DATA_HOME/floe")
        finally:
            proc.terminate()
            proc.wait(10)

    def test_in_memory_state_is_gone_after_a_restart(self):
        server = FloeServer("--in-memory", "--quiet")
        server.start()
        state_dir = re.search(r"in memory at (\S+)\)", server.log_text()).group(1)
        self.assertTrue(os.path.isdir(state_dir), "--in-memory keeps state in a temporary directory")
        try:
            client = self.session.client("s3tables", endpoint_url=server.endpoint, region_name="us-east-1")
            client.create_table_bucket(name="ephemeral")
            server.restart()
            client = self.session.client("s3tables", endpoint_url=server.endpoint, region_name="us-east-1")
            self.assertEqual(client.list_table_buckets()["tableBuckets"], [], "--in-memory keeps nothing across runs")
        finally:
            server.cleanup()
        self.assertFalse(os.path.exists(state_dir), "the temporary state directory is removed at exit")


if __name__ == "__main__":
    main()

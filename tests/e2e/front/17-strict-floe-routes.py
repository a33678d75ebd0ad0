#!/usr/bin/python3
"""--strict-signatures guards Floe's own routes under /_floe/ as it guards the AWS APIs: every one
but /_floe/health (and the console's page files, which a browser fetches before it has keys)
answers 403 to an unsigned request and serves a request signed with a configured key, and a
signed caller acts only in its own account. `floe maintenance run` signs with the keys it is
given (--credentials, or the AWS environment variables). Requests are signed by botocore's SigV4
signer, as the console signs them (for s3tables)."""

import json
import os
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from floe_server import FLOE_BIN, FloeTestCase, client_env, main  # noqa: E402

KEY, SECRET = "AKIDFLOEROUTES", "floe-routes-secret"
OTHER_KEY, OTHER_SECRET = "111111111111", "other-account-secret"  # a 12-digit key is its own account
ACCOUNT = "000000000000"
CONSOLE_ROOMS = ("session", "scopes", "buckets", "bucket", "namespaces", "tables", "table", "object", "stacks",
                 "stack")


class StrictFloeRouteTests(FloeTestCase):
    server_args = ("--strict-signatures", "--credentials", "%s:%s" % (KEY, SECRET),
                   "--credentials", "%s:%s" % (OTHER_KEY, OTHER_SECRET), "--maintenance-interval", "0")

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        import boto3
        session = boto3.session.Session(aws_access_key_id=KEY, aws_secret_access_key=SECRET)
        cls.client = session.client("s3tables", endpoint_url=cls.server.endpoint, region_name="us-east-1",
                                    config=cls.botocore_config)
        cls.bucket = cls.client.create_table_bucket(name="guarded")["arn"]
        cls.client.create_namespace(tableBucketARN=cls.bucket, namespace=["sales"])
        cls.table = cls.client.create_table(tableBucketARN=cls.bucket, namespace="sales", name="orders",
                                            format="ICEBERG", metadata={"iceberg": {"schema": {"fields": [
                                                {"name": "id", "type": "long", "required": True}]}}})["tableARN"]
        cls.untouched = cls.client.create_table(tableBucketARN=cls.bucket, namespace="sales", name="untouched",
                                                format="ICEBERG", metadata={"iceberg": {"schema": {"fields": [
                                                    {"name": "id", "type": "long"}]}}})["tableARN"]
        cls.location = cls.client.get_table_metadata_location(tableBucketARN=cls.bucket, namespace="sales",
                                                               name="orders")["metadataLocation"]

    # -- helpers -------------------------------------------------------------------------------

    def send(self, method, path, body=b"", key=None, secret=None, service="s3tables", headers=None):
        """(status, body) of a request, signed by botocore's SigV4Auth when key is given."""
        headers = dict(headers or {})
        if key is not None:
            from botocore.auth import SigV4Auth
            from botocore.awsrequest import AWSRequest
            from botocore.credentials import Credentials
            req = AWSRequest(method=method, url=self.server.endpoint + path, data=body, headers=headers)
            SigV4Auth(Credentials(key, secret), service, "us-east-1").add_auth(req)
            headers = dict(req.prepare().headers)
        req = urllib.request.Request(self.server.endpoint + path, data=body or None, method=method, headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                return r.status, r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.read()

    def signed(self, method, path, body=b"", **kw):
        return self.send(method, path, body, key=KEY, secret=SECRET, **kw)

    def maintenance_body(self, arn=None, now="2030-01-01T00:00:00Z"):
        return json.dumps({"arn": arn or self.table, "type": "icebergSnapshotManagement", "now": now}).encode()

    def snapshot_job_status(self, name):
        return self.client.get_table_maintenance_job_status(tableBucketARN=self.bucket, namespace="sales",
                                                            name=name)["status"]["icebergSnapshotManagement"]

    def floe_maintenance(self, *args, env=None):
        return subprocess.run([FLOE_BIN, "maintenance", "run", "--endpoint", self.server.endpoint, "--arn", self.table,
                               "--type", "icebergSnapshotManagement"] + list(args),
                              capture_output=True, text=True, timeout=60, env=env)

    def console_path(self, room):
        query = {"bucket": {"arn": self.bucket}, "namespaces": {"arn": self.bucket},
                 "tables": {"arn": self.bucket}, "table": {"arn": self.table},
                 "object": {"arn": self.table, "location": self.location},
                 "stack": {"id": "none"}}.get(room, {})
        return "/_floe/ui/api/%s%s" % (room, "?" + urllib.parse.urlencode(query, quote_via=urllib.parse.quote)
                                        if query else "")

    # -- /_floe/health and the console's files ----------------------------------------------------

    def test_health_answers_everyone(self):
        self.assertEqual(self.send("GET", "/_floe/health")[0], 200, "/_floe/health answers an unsigned request")

    def test_console_page_files_load_unsigned_so_a_browser_can_ask_for_keys(self):
        status, body = self.send("GET", "/_floe/ui/")
        self.assertEqual(status, 200, "the console's page loads unsigned (a browser cannot sign a navigation)")
        self.assertIn(b"<html", body.lower(), "and it is the page, which holds no state")

    # -- the maintenance route ----------------------------------------------------------------

    def test_unsigned_maintenance_run_is_refused_and_runs_nothing(self):
        status, body = self.send("POST", "/_floe/maintenance/run", self.maintenance_body(self.untouched))
        self.assertEqual(status, 403, "an unsigned POST /_floe/maintenance/run is refused")
        self.assertIn("signed", json.loads(body)["message"], "with a message that says it must be signed")
        self.assertEqual(self.snapshot_job_status("untouched")["status"], "Not_Yet_Run", "and the job did not run")

    def test_badly_signed_maintenance_run_is_refused(self):
        status, _ = self.send("POST", "/_floe/maintenance/run", self.maintenance_body(), key=KEY, secret="wrong")
        self.assertEqual(status, 403, "a maintenance request signed with a wrong secret is refused")

    def test_signed_maintenance_run_in_own_account_runs(self):
        status, body = self.signed("POST", "/_floe/maintenance/run", self.maintenance_body())
        self.assertEqual(status, 200, "a signed maintenance request on the signer's own table runs: %s" % body)
        self.assertEqual(json.loads(body)["status"], "Successful", "and answers the job's status")

    def test_signed_maintenance_run_in_another_account_is_refused(self):
        status, body = self.send("POST", "/_floe/maintenance/run", self.maintenance_body(), key=OTHER_KEY,
                                 secret=OTHER_SECRET)
        self.assertEqual(status, 403, "account 111111111111 cannot run maintenance on account %s's table" % ACCOUNT)
        self.assertIn("account", json.loads(body)["message"], "and the message says why")

    def test_floe_maintenance_run_signs_with_its_credentials_flag(self):
        env = {k: v for k, v in client_env(self.server).items()
               if k not in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY")}
        unsigned = self.floe_maintenance(env=env)
        self.assertNotEqual(unsigned.returncode, 0, "floe maintenance run without keys is refused in strict mode")
        self.assertIn("signed", unsigned.stdout, "and prints the server's reason")
        signed = self.floe_maintenance("--credentials", "%s:%s" % (KEY, SECRET), env=env)
        self.assertEqual(signed.returncode, 0, "with --credentials it signs and runs (%s %s)" %
                         (signed.stdout, signed.stderr))
        wrong = self.floe_maintenance("--credentials", "%s:wrong" % KEY, env=env)
        self.assertNotEqual(wrong.returncode, 0, "a wrong secret is refused")

    def test_floe_maintenance_run_signs_with_the_aws_environment(self):
        env = dict(client_env(self.server), AWS_ACCESS_KEY_ID=KEY, AWS_SECRET_ACCESS_KEY=SECRET,
                   AWS_ENDPOINT_URL=self.server.endpoint)
        run = subprocess.run([FLOE_BIN, "maintenance", "run", "--arn", self.table, "--type",
                              "icebergSnapshotManagement"], capture_output=True, text=True, timeout=60, env=env)
        self.assertEqual(run.returncode, 0, "keys and endpoint from the AWS environment work (%s %s)" %
                         (run.stdout, run.stderr))
        self.assertEqual(json.loads(run.stdout)["status"], "Successful", "and the job ran")

    # -- the console's JSON routes --------------------------------------------------------------

    def test_every_console_route_refuses_unsigned_and_serves_signed(self):
        for room in CONSOLE_ROOMS:
            with self.subTest(room=room):
                path = self.console_path(room)
                self.assertEqual(self.send("GET", path)[0], 403, "unsigned GET %s is refused" % path)
                status, body = self.signed("GET", path)
                self.assertEqual(status, 404 if room == "stack" else 200,
                                 "signed GET %s is served: %s" % (path, body[:200]))

    def test_console_routes_show_only_the_signers_account(self):
        for room in ("bucket", "table", "object"):
            with self.subTest(room=room):
                status, _ = self.send("GET", self.console_path(room), key=OTHER_KEY, secret=OTHER_SECRET)
                self.assertIn(status, (403, 404), "another account cannot read %s's %s" % (ACCOUNT, room))
        status, body = self.send("GET", "/_floe/ui/api/buckets?account=%s&region=us-east-1" % ACCOUNT,
                                 key=OTHER_KEY, secret=OTHER_SECRET)
        self.assertNotIn(b"guarded", body, "another account's bucket list does not show this account's bucket")

    # -- the unsigned Iceberg REST catalog path -------------------------------------------------

    def test_iceberg_under_floe_refuses_unsigned_and_serves_signed_in_own_account(self):
        path = "/_floe/iceberg/v1/config?warehouse=" + urllib.parse.quote(self.bucket, safe="")
        status, _ = self.send("GET", path)
        self.assertEqual(status, 403, "unsigned /_floe/iceberg is refused in strict mode")
        status, body = self.signed("GET", path)
        self.assertEqual(status, 200, "signed /_floe/iceberg is served: %s" % body[:200])
        prefix = urllib.parse.quote(self.bucket, safe="")
        status, _ = self.signed("GET", "/_floe/iceberg/v1/%s/namespaces" % prefix)
        self.assertEqual(status, 200, "the signer lists its own warehouse's namespaces")
        status, _ = self.send("GET", "/_floe/iceberg/v1/%s/namespaces" % prefix, key=OTHER_KEY, secret=OTHER_SECRET)
        self.assertNotEqual(status, 200, "another account cannot list this account's warehouse")

    # -- anything else under /_floe/ --------------------------------------------------------------

    def test_other_floe_paths_refuse_unsigned(self):
        for path in ("/_floe/", "/_floe/nothing", "/_floe/maintenance"):
            with self.subTest(path=path):
                self.assertEqual(self.send("GET", path)[0], 403, "unsigned GET %s is refused" % path)


if __name__ == "__main__":
    main()

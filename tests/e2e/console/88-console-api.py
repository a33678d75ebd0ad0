#!/usr/bin/python3
"""The console's JSON routes under /_floe/ui/api/ (what the page reads): the page and its
files are served by floe itself; lists paginate on the server, and a 1,000-table bucket's first page
comes back in under 200 ms; bad routes, bad ARNs and bad parameters answer 4xx with a message; and
with --strict-signatures a request must be signed, and sees only its own account."""

import concurrent.futures
import json
import os
import sys
import time
import unittest
import urllib.error
import urllib.parse
import urllib.request

E2E_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, E2E_DIR)
from floe_server import FloeTestCase, main  # noqa: E402

N_TABLES = 1000
LIST_BUDGET_MS = 200
ACCOUNT = "000000000000"


def http(endpoint, path, params=None, method="GET", headers=None):
    """(status, parsed JSON or raw bytes, headers) of one request."""
    url = endpoint + path + ("?" + urllib.parse.urlencode(params, quote_via=urllib.parse.quote) if params else "")
    req = urllib.request.Request(url, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            status, body, hdrs = r.status, r.read(), r.headers
    except urllib.error.HTTPError as e:
        status, body, hdrs = e.code, e.read(), e.headers
    if (hdrs.get("Content-Type") or "").startswith("application/json"):
        body = json.loads(body)
    return status, body, hdrs


class ConsoleApi(FloeTestCase):

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        c = cls.s3tables
        cls.bucket = c.create_table_bucket(name="big")["arn"]
        for ns in ("alpha", "beta"):
            c.create_namespace(tableBucketARN=cls.bucket, namespace=[ns])

        def make(i):
            c.create_table(tableBucketARN=cls.bucket, namespace="alpha" if i % 2 else "beta", name="t%04d" % i,
                           format="ICEBERG")
        with concurrent.futures.ThreadPoolExecutor(4) as pool:
            list(pool.map(make, range(N_TABLES)))
        for i in range(5):
            c.create_table_bucket(name="small-%d" % i)

    def api(self, room, params=None, **kw):
        return http(self.server.endpoint, "/_floe/ui/api/" + room, params, **kw)

    def assertRefused(self, status, room, params=None, **kw):
        got, body, _ = self.api(room, params, **kw)
        self.assertEqual(got, status, "answers %d for %s %s: %s" % (status, room, params, body))
        self.assertIsInstance(body, dict, "the refusal is JSON")
        self.assertTrue(body.get("message"), "the refusal says why")
        return body["message"]

    # ---- the page ----

    def test_console_page_and_files_are_served_by_floe(self):
        status, body, hdrs = http(self.server.endpoint, "/_floe/ui/")
        self.assertEqual(status, 200, "the console's page is served at /_floe/ui/")
        self.assertIn(b"Floe console", body)
        self.assertIn("default-src 'self'", hdrs.get("Content-Security-Policy"), "the page may reach only this server")
        status, body, _ = http(self.server.endpoint, "/_floe/ui/vendor/uplot/LICENSE.txt")
        self.assertEqual(status, 200, "vendored libraries ship with their licence")
        self.assertEqual(http(self.server.endpoint, "/_floe/ui/no-such-file.js")[0], 404, "an unknown file is 404")
        status, body, _ = http(self.server.endpoint, "/_floe/ui/server.json")
        self.assertEqual((status, body), (200, {"strictSignatures": False}), "the page learns that requests need no signature")
        req = urllib.request.Request(self.server.endpoint + "/_floe/ui")
        opener = urllib.request.build_opener(type("NoRedirect", (urllib.request.HTTPRedirectHandler,),
                                                  {"redirect_request": lambda *a: None}))
        try:
            opener.open(req, timeout=10)
            self.fail("/_floe/ui redirects")
        except urllib.error.HTTPError as e:
            self.assertEqual((e.code, e.headers["Location"]), (301, "/_floe/ui/"), "/_floe/ui redirects to /_floe/ui/")

    # ---- listings ----

    def test_scopes_offer_the_account_and_region_that_hold_state(self):
        status, body, _ = self.api("scopes")
        self.assertEqual(status, 200)
        scopes = {(x["account"], x["region"]): x for x in body["scopes"]}
        self.assertTrue(scopes[(ACCOUNT, "us-east-1")]["hasTableBuckets"], "the default scope holds the buckets")

    def test_buckets_paginate(self):
        names, token, pages = [], None, 0
        while True:
            status, body, _ = self.api("buckets", {"limit": 2, **({"token": token} if token else {})})
            self.assertEqual(status, 200)
            self.assertLessEqual(len(body["items"]), 2, "a page holds at most limit buckets")
            names += [b["name"] for b in body["items"]]
            pages += 1
            token = body["nextToken"]
            if not token:
                break
        self.assertEqual(names, sorted(["big"] + ["small-%d" % i for i in range(5)]), "every bucket once, by name")
        self.assertEqual(pages, 3)
        status, body, _ = self.api("buckets", {"prefix": "small-", "limit": 10})
        self.assertEqual(len(body["items"]), 5, "a prefix filters the list")

    def test_tables_paginate_across_namespaces_without_gaps(self):
        seen, token = [], None
        while True:
            status, body, _ = self.api("tables", {"arn": self.bucket, "limit": 97, **({"token": token} if token else {})})
            self.assertEqual(status, 200, body)
            seen += [(t["namespace"], t["name"]) for t in body["items"]]
            token = body["nextToken"]
            if not token:
                break
        self.assertEqual(len(seen), N_TABLES, "every table is listed")
        self.assertEqual(seen, sorted(seen), "in (namespace, name) order")
        self.assertEqual(len(set(seen)), N_TABLES, "each once")

    def test_search_over_table_names_is_a_prefix(self):
        status, body, _ = self.api("tables", {"arn": self.bucket, "prefix": "t012", "limit": 1000})
        self.assertEqual(status, 200)
        self.assertEqual(sorted(t["name"] for t in body["items"]), ["t%04d" % i for i in range(120, 130)],
                         "the search finds the tables whose names start with the text")
        status, body, _ = self.api("tables", {"arn": self.bucket, "namespace": "alpha", "prefix": "t012"})
        self.assertTrue(all(t["namespace"] == "alpha" for t in body["items"]) and len(body["items"]) == 5,
                        "and can keep to one namespace")

    def test_a_thousand_table_bucket_lists_in_under_200_ms(self):
        self.api("tables", {"arn": self.bucket})  # warm the statement cache
        best_page, best_all = float("inf"), float("inf")
        for _ in range(3):
            start = time.monotonic()
            status, body, _ = self.api("tables", {"arn": self.bucket})
            best_page = min(best_page, (time.monotonic() - start) * 1000)
            self.assertEqual((status, len(body["items"])), (200, 100), "the first page holds 100 tables")
            start = time.monotonic()
            status, body, _ = self.api("tables", {"arn": self.bucket, "limit": 1000})
            best_all = min(best_all, (time.monotonic() - start) * 1000)
            self.assertEqual(len(body["items"]), N_TABLES)
        print("\n  first page of 100: %.1f ms; all 1,000 in one page: %.1f ms" % (best_page, best_all))
        self.assertLess(best_page, LIST_BUDGET_MS, "the first page of a 1,000-table bucket comes back in under 200 ms")
        self.assertLess(best_all, LIST_BUDGET_MS, "and so do all 1,000 tables in one page")

    def test_table_page_has_row_metadata_and_maintenance(self):
        arn = self.s3tables.get_table(tableBucketARN=self.bucket, namespace="alpha", name="t0001")["tableARN"]
        status, body, _ = self.api("table", {"arn": arn})
        self.assertEqual(status, 200, body)
        self.assertEqual((body["table"]["name"], body["table"]["namespace"]), ("t0001", "alpha"))
        self.assertTrue(body["table"]["versionToken"], "the version token is shown")
        self.assertEqual(body["maintenance"]["icebergCompaction"]["jobStatus"], "Not_Yet_Run")
        self.assertEqual(body["tags"], {})

    def test_a_format_version_3_table_shows_its_row_lineage_state(self):
        # in a bucket of its own, so the other tests' table counts stay
        bucket = next(b["arn"] for b in self.s3tables.list_table_buckets()["tableBuckets"] if b["name"] == "small-0")
        self.s3tables.create_namespace(tableBucketARN=bucket, namespace=["tracked"])
        self.s3tables.create_table(tableBucketARN=bucket, namespace="tracked", name="lineage", format="ICEBERG",
                                   metadata={"iceberg": {"schema": {"fields": [{"name": "id", "type": "long"}]},
                                                         "properties": {"format-version": "3"}}})
        arn = self.s3tables.get_table(tableBucketARN=bucket, namespace="tracked", name="lineage")["tableARN"]
        status, body, _ = self.api("table", {"arn": arn})
        self.assertEqual(status, 200, body)
        self.assertEqual(body["metadata"]["format-version"], 3, "the page gets the format version")
        self.assertEqual(body["metadata"]["next-row-id"], 0, "and next-row-id, which the page shows for v3 tables")
        _, page, _ = http(self.server.endpoint, "/_floe/ui/table.js")
        self.assertIn(b"next-row-id", page, "the table page reads next-row-id")
        self.assertIn(b"first-row-id", page, "and each snapshot's first-row-id")
        _, vectors, _ = http(self.server.endpoint, "/_floe/ui/deletion_vector.js")
        self.assertIn(b"export function deletedPositions", vectors, "the deletion vector decoder is served")

    def test_cloudformation_stacks_with_resources_and_events(self):
        cfn = self.make_client("cloudformation")
        template = json.dumps({"Resources": {"Lake": {"Type": "AWS::S3Tables::TableBucket",
                                                      "Properties": {"TableBucketName": "from-a-stack"}}}})
        stack_id = cfn.create_stack(StackName="console-stack", TemplateBody=template)["StackId"]
        cfn.get_waiter("stack_create_complete").wait(StackName=stack_id, WaiterConfig={"Delay": 1, "MaxAttempts": 60})
        status, body, _ = self.api("stacks")
        self.assertEqual(status, 200)
        self.assertIn(("console-stack", "CREATE_COMPLETE"), [(x["stackName"], x["status"]) for x in body["items"]],
                      "the stack is listed with its status")
        status, body, _ = self.api("stack", {"id": stack_id})
        self.assertEqual(status, 200, body)
        self.assertEqual([(r["logicalId"], r["type"], r["status"]) for r in body["resources"]],
                         [("Lake", "AWS::S3Tables::TableBucket", "CREATE_COMPLETE")], "its resources")
        self.assertTrue(any(e["logicalId"] == "console-stack" and e["status"] == "CREATE_COMPLETE" for e in body["events"]),
                        "and its events")
        status, body, _ = self.api("scopes")
        self.assertTrue(any(x["hasStacks"] for x in body["scopes"]), "the picker knows the scope holds stacks")

    def test_replication_destinations_and_their_status(self):
        c = self.s3tables
        source = c.create_table_bucket(name="repl-source")["arn"]
        target = c.create_table_bucket(name="repl-target")["arn"]
        c.create_namespace(tableBucketARN=source, namespace=["ns"])
        arn = c.create_table(tableBucketARN=source, namespace="ns", name="orders", format="ICEBERG")["tableARN"]
        c.put_table_bucket_replication(tableBucketARN=source, configuration={
            "role": "arn:aws:iam::%s:role/replication" % ACCOUNT, "rules": [{"destinations": [{"destinationTableBucketARN": target}]}]})
        status, body, _ = self.api("bucket", {"arn": source})
        self.assertEqual(status, 200, body)
        self.assertEqual([d["destinationTableBucketArn"] for d in body["replication"]["destinations"]], [target],
                         "the bucket page shows the replication destination")
        status, body, _ = self.api("table", {"arn": arn})
        self.assertEqual(status, 200, body)
        self.assertEqual(len(body["replicationStatus"]), 1, "the table replicates to its bucket's destination")
        got = body["replicationStatus"][0]
        self.assertEqual(got["destinationTableBucketArn"], target)
        expected = c.get_table_replication_status(tableArn=arn)["destinations"][0]["replicationStatus"]
        self.assertEqual(got["replicationStatus"], expected, "with the status GetTableReplicationStatus reports")

    # ---- bad input ----

    def test_bad_routes_and_parameters_answer_4xx_with_a_message(self):
        self.assertRefused(404, "no-such-route")
        self.assertRefused(400, "tables", {"arn": "not-an-arn"})
        self.assertRefused(400, "tables")
        self.assertRefused(404, "tables", {"arn": "arn:aws:s3tables:us-east-1:%s:bucket/nope" % ACCOUNT})
        self.assertRefused(404, "table", {"arn": self.bucket + "/table/00000000-0000-0000-0000-000000000000"})
        self.assertRefused(404, "tables", {"arn": self.bucket, "namespace": "gamma"})
        self.assertRefused(400, "buckets", {"limit": "0"})
        self.assertRefused(400, "buckets", {"limit": "1001"})
        self.assertRefused(400, "buckets", {"limit": "ten"})
        self.assertRefused(400, "buckets", {"account": "12345"})
        self.assertRefused(400, "buckets", {"region": "US EAST"})
        self.assertRefused(400, "buckets", {"token": "garbage"})
        status, body, _ = self.api("tables", {"arn": self.bucket, "limit": 1})
        self.assertIn("not one of this listing", self.assertRefused(400, "tables", {"arn": self.bucket, "prefix": "t1",
                                                                                 "token": body["nextToken"]}))
        self.assertRefused(405, "buckets", method="POST")
        self.assertEqual(http(self.server.endpoint, "/_floe/ui/api/buckets?limit=%zz")[0], 400,
                         "a malformed percent-escape is 400")
        arn = self.s3tables.get_table(tableBucketARN=self.bucket, namespace="alpha", name="t0001")["tableARN"]
        self.assertRefused(400, "object", {"arn": arn, "location": "s3://someone-elses-bucket/secret"})
        self.assertRefused(400, "object", {"arn": arn, "location": "http://x/y"})
        self.assertRefused(400, "object", {"arn": arn})
        self.assertRefused(404, "stack", {"id": "no-such-stack"})
        status, body, _ = http(self.server.endpoint, "/_floe/health")
        self.assertEqual(status, 200, "the server is still up")


AK1, SK1 = "111111111111", "secret-one"
AK2, SK2 = "222222222222", "secret-two"


class ConsoleStrictSignatures(FloeTestCase):
    server_args = ("--strict-signatures", "--credentials", "%s:%s" % (AK1, SK1), "--credentials", "%s:%s" % (AK2, SK2))

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.arns = {}
        for key, secret, name in ((AK1, SK1, "one"), (AK2, SK2, "two")):
            client = cls.session.client("s3tables", endpoint_url=cls.server.endpoint, region_name="us-east-1",
                                        aws_access_key_id=key, aws_secret_access_key=secret)
            cls.arns[name] = client.create_table_bucket(name="bucket-" + name)["arn"]

    def signed(self, room, params=None, key=AK1, secret=SK1):
        from botocore.auth import SigV4Auth
        from botocore.awsrequest import AWSRequest
        from botocore.credentials import Credentials
        url = self.server.endpoint + "/_floe/ui/api/" + room
        if params:
            url += "?" + urllib.parse.urlencode(params, quote_via=urllib.parse.quote)
        req = AWSRequest(method="GET", url=url)
        SigV4Auth(Credentials(key, secret), "s3tables", "us-east-1").add_auth(req)
        path = url[len(self.server.endpoint):]
        return http(self.server.endpoint, path, method="GET", headers=dict(req.headers))

    def test_unsigned_console_requests_are_refused(self):
        status, body, _ = http(self.server.endpoint, "/_floe/ui/api/buckets")
        self.assertEqual(status, 403, "an unsigned request cannot read state")
        self.assertIn("strict signatures", body["message"])
        self.assertEqual(http(self.server.endpoint, "/_floe/ui/")[0], 200, "the page itself (no state) still loads")
        status, body, _ = http(self.server.endpoint, "/_floe/ui/server.json")
        self.assertEqual((status, body), (200, {"strictSignatures": True}),
                         "and so does server.json, which tells the page to ask for keys before any request")
        self.assertEqual(http(self.server.endpoint, "/_floe/ui/server.json", method="POST")[0], 405, "it is read-only")

    def test_a_wrong_secret_is_refused(self):
        self.assertEqual(self.signed("buckets", key=AK1, secret="wrong")[0], 403)

    def test_the_picker_offers_only_the_signers_account(self):
        status, body, _ = self.signed("scopes")
        self.assertEqual(status, 200, body)
        self.assertEqual([s["account"] for s in body["scopes"]], [AK1], "only the signer's account is offered")
        status, body, _ = self.signed("session")
        self.assertEqual((body["strictSignatures"], body["account"]), (True, AK1))

    def test_another_accounts_state_is_refused(self):
        status, body, _ = self.signed("buckets")
        self.assertEqual([b["name"] for b in body["items"]], ["bucket-one"], "the signer's buckets by default")
        self.assertEqual(self.signed("buckets", {"account": AK2})[0], 403, "another account's list is refused")
        self.assertEqual(self.signed("bucket", {"arn": self.arns["two"]})[0], 403, "another account's bucket is refused")
        self.assertEqual(self.signed("tables", {"arn": self.arns["two"]})[0], 403, "and its tables")
        self.assertEqual(self.signed("stacks", {"account": AK2})[0], 403, "and its stacks")
        status, body, _ = self.signed("bucket", {"arn": self.arns["two"]}, key=AK2, secret=SK2)
        self.assertEqual((status, body["bucket"]["name"]), (200, "bucket-two"), "its own signer sees it")

    def test_a_replicas_source_in_another_account_is_named_but_not_looked_into(self):
        one = self.session.client("s3tables", endpoint_url=self.server.endpoint, region_name="us-east-1",
                                  aws_access_key_id=AK1, aws_secret_access_key=SK1)
        one.create_namespace(tableBucketARN=self.arns["one"], namespace=["sales"])
        source = one.create_table(tableBucketARN=self.arns["one"], namespace="sales", name="orders", format="ICEBERG",
                                  metadata={"iceberg": {"schema": {"fields": [{"name": "id", "type": "long"}]}}})["tableARN"]
        one.put_table_replication(tableArn=source, configuration={
            "role": "arn:aws:iam::%s:role/replication" % AK1,
            "rules": [{"destinations": [{"destinationTableBucketARN": self.arns["two"]}]}]})
        deadline = time.monotonic() + 10
        entry = {}
        while time.monotonic() < deadline and entry.get("replicationStatus") != "completed":
            entry = one.get_table_replication_status(tableArn=source)["destinations"][0]
            time.sleep(0.02)
        self.assertEqual(entry["replicationStatus"], "completed", "the replica is made")
        status, body, _ = self.signed("table", {"arn": entry["destinationTableArn"]}, key=AK2, secret=SK2)
        self.assertEqual(status, 200, body)
        self.assertEqual(body["replicaOf"], {"sourceTableArn": source, "source": "hidden"},
                         "the replica's owner sees its source named (as GetTable names it), not the source's state")
        status, body, _ = self.signed("table", {"arn": source}, key=AK1, secret=SK1)
        self.assertEqual((status, body["replicaOf"]), (200, None), "the source is no replica")
        self.assertEqual(body["replicationStatus"][0]["replicationStatus"], "completed", "its owner sees the status")


if __name__ == "__main__":
    main()

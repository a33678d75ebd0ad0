#!/usr/bin/python3
"""The Iceberg REST catalog on the wire: the spec's error shape for every failure, 501 for every
operation the route table does not serve, routing of every served one, /v1/config, pagination,
namespace properties, stage-create (refused as AWS does; with --iceberg-stage-create, the commit
that creates), location rules, renames,
multi-table transactions, concurrent commits that lose no update, the signed route (/iceberg,
SigV4 for s3tables, signed with botocore) beside the unsigned alias (/_floe/iceberg), and strict
signatures. iceberg_rest/60-iceberg-rest.mjs drives the same catalog with iceberg-js, avsc, hyparquet-writer and
icebird."""

import concurrent.futures
import json
import os
import re
import sys
import urllib.error
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from floe_server import SOURCE_DIR, FloeTestCase, main  # noqa: E402

ROUTES_DEF = os.path.join(SOURCE_DIR, "generated", "iceberg_routes.def")
UNSIGNED = "/_floe/iceberg"
SIGNED = "/iceberg"
SCHEMA = {"type": "struct", "fields": [{"id": 1, "name": "id", "type": "long", "required": True},
                                        {"id": 2, "name": "data", "type": "string", "required": False}]}
KEY, SECRET = "AKIDICEBERGTEST", "iceberg-secret"
SAMPLE_PARAMS = {"namespace": "sales", "table": "orders", "view": "v", "plan-id": "p1"}


def route_rows(kind):
    """(operationId, method, path) of the generated table's rows of one kind: served or unserved."""
    with open(ROUTES_DEF) as f:
        text = f.read()
    pattern = {"served": r'^FLOE_ICEBERG_ROUTE\((\w+), (\w+), "([^"]+)"',
               "unserved": r'^FLOE_ICEBERG_UNSERVED\((\w+), (\w+), "([^"]+)"'}[kind]
    return re.findall(pattern, text, re.M)


def advertised_endpoints():
    with open(ROUTES_DEF) as f:
        return re.findall(r'^FLOE_ICEBERG_ENDPOINT\("([^"]+)"\)', f.read(), re.M)


class RestClient:
    """Raw HTTP to the catalog, unsigned or signed with botocore's SigV4 for s3tables."""

    def __init__(self, endpoint, credentials=None):
        self.endpoint = endpoint
        self.credentials = credentials

    def call(self, method, path, body=None, query=None, base=UNSIGNED, signed=False):
        url = self.endpoint + base + path
        if query:
            url += "?" + urllib.parse.urlencode(query)
        data = json.dumps(body).encode() if isinstance(body, (dict, list)) else body
        headers = {"content-type": "application/json"} if data is not None else {}
        if signed:
            headers = self.sign(method, url, data, headers)
        req = urllib.request.Request(url, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                return r.status, r.headers, self.decode(r.read())
        except urllib.error.HTTPError as e:
            with e:
                return e.code, e.headers, self.decode(e.read())

    def sign(self, method, url, data, headers):
        import botocore.auth
        import botocore.awsrequest
        import botocore.credentials
        creds = botocore.credentials.Credentials(*(self.credentials or ("floe-test", "floe-test")))
        request = botocore.awsrequest.AWSRequest(method=method, url=url, data=data, headers=headers)
        botocore.auth.SigV4Auth(creds, "s3tables", "us-east-1").add_auth(request)
        return dict(request.headers.items())

    @staticmethod
    def decode(raw):
        if not raw:
            return None
        try:
            return json.loads(raw)
        except ValueError:
            return raw


class IcebergRestTestCase(FloeTestCase):
    bucket_name = "rest-wire"

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.arn = cls.s3tables.create_table_bucket(name=cls.bucket_name)["arn"]
        cls.prefix = urllib.parse.quote(cls.arn, safe="")
        cls.rest = RestClient(cls.server.endpoint)

    def call(self, method, path, body=None, **kw):
        return self.rest.call(method, "/v1/" + self.prefix + path, body, **kw)

    def assertError(self, response, status, error_type, what):
        code, headers, body = response
        self.assertEqual(code, status, "%s: HTTP %d (got %d: %s)" % (what, status, code, body))
        self.assertIsInstance(body, dict, "%s: the body is JSON" % what)
        self.assertEqual(set(body), {"error"}, "%s: the body is {\"error\": ...} only" % what)
        self.assertEqual(set(body["error"]), {"message", "type", "code"}, "%s: error has message, type and code" % what)
        self.assertEqual((body["error"]["type"], body["error"]["code"]), (error_type, status),
                         "%s: type %s with code %d" % (what, error_type, status))
        self.assertTrue(body["error"]["message"], "%s: with a message" % what)
        self.assertIn("application/json", headers.get("content-type", ""), "%s: as application/json" % what)

    def ok(self, response, status=200, what="the call"):
        self.assertEqual(response[0], status, "%s answers %d: %s" % (what, status, response[2]))
        return response[2]

    def create_namespace(self, name, properties=None):
        body = {"namespace": [name]}
        if properties is not None:
            body["properties"] = properties
        return self.ok(self.call("POST", "/namespaces", body), what="createNamespace")

    def create_table(self, ns, name, **extra):
        body = {"name": name, "schema": SCHEMA}
        body.update(extra)
        return self.ok(self.call("POST", "/namespaces/%s/tables" % ns, body), what="createTable")

    def load(self, ns, name):
        return self.ok(self.call("GET", "/namespaces/%s/tables/%s" % (ns, name)), what="loadTable")

    def commit(self, ns, name, updates, requirements=()):
        return self.call("POST", "/namespaces/%s/tables/%s" % (ns, name),
                         {"requirements": list(requirements), "updates": updates})


class CatalogWireTests(IcebergRestTestCase):
    server_args = ("--threads", "2")

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.rest.call("POST", "/v1/%s/namespaces" % cls.prefix, {"namespace": ["sales"]})

    # -- the route table -------------------------------------------------------------------------

    def test_every_unserved_operation_answers_501_in_the_spec_shape(self):
        rows = route_rows("unserved")
        self.assertGreater(len(rows), 0, "the route table has unserved operations")
        for op, method, path in rows:
            with self.subTest(operation=op):
                url = path
                url = url.replace("{prefix}", self.prefix)
                for name, value in SAMPLE_PARAMS.items():
                    url = url.replace("{%s}" % name, value)
                status, _, body = self.rest.call(method, url, {} if method in ("POST", "PUT") else None)
                self.assertEqual(status, 501, "%s %s answers 501" % (method, path))
                if method != "HEAD":
                    self.assertEqual((body["error"]["type"], body["error"]["code"]), ("UnsupportedOperationException", 501),
                                     "%s answers UnsupportedOperationException in the spec's error shape" % op)

    def test_every_served_operation_is_routed_to_a_handler(self):
        for op, method, path in route_rows("served"):
            with self.subTest(operation=op):
                url = path
                url = url.replace("{prefix}", urllib.parse.quote(self.arn + "-none", safe=""))
                for name, value in SAMPLE_PARAMS.items():
                    url = url.replace("{%s}" % name, value)
                status, _, body = self.rest.call(method, url, {} if method == "POST" else None)
                self.assertNotIn(status, (405, 501), "%s %s reaches its handler" % (method, path))
                if method != "HEAD" and status >= 400:
                    self.assertNotEqual(body["error"]["type"], "NotFoundException", "%s is a known route" % op)

    def test_unknown_routes_and_methods(self):
        self.assertError(self.rest.call("GET", "/v2/anything"), 404, "NotFoundException", "an unknown path")
        self.assertError(self.call("PUT", "/namespaces"), 405, "MethodNotAllowedException", "a method the path lacks")
        self.assertError(self.rest.call("GET", "/v1/%ZZ/namespaces"), 400, "BadRequestException", "bad percent-encoding")

    # -- /v1/config ------------------------------------------------------------------------------

    def test_config_answers_the_encoded_prefix_and_the_served_endpoints(self):
        for warehouse in (self.arn, self.prefix):
            body = self.ok(self.rest.call("GET", "/v1/config", query={"warehouse": warehouse}), what="getConfig")
            self.assertEqual(body["overrides"]["prefix"], self.prefix, "the prefix override is the URL-encoded ARN")
        self.assertEqual(sorted(body["endpoints"]), sorted(advertised_endpoints()),
                         "endpoints lists the served routes of the generated table")
        self.assertIn("GET /v1/{prefix}/namespaces/{namespace}/tables/{table}", body["endpoints"], "loadTable is listed")
        self.assertEqual(body["defaults"]["s3.endpoint"], self.server.endpoint, "S3 settings point at Floe")

    def test_config_needs_a_known_warehouse(self):
        self.assertError(self.rest.call("GET", "/v1/config"), 400, "BadRequestException", "config without a warehouse")
        self.assertError(self.rest.call("GET", "/v1/config", query={"warehouse": self.arn + "-none"}), 404,
                         "NoSuchWarehouseException", "config for a bucket that does not exist")

    # -- errors ----------------------------------------------------------------------------------

    def test_missing_things_have_their_own_404(self):
        self.assertError(self.call("GET", "/namespaces/nope"), 404, "NoSuchNamespaceException", "a missing namespace")
        self.assertError(self.call("GET", "/namespaces/sales/tables/nope"), 404, "NoSuchTableException", "a missing table")
        # The spec's only 404 on a table route is NoSuchTableException, whatever is missing.
        self.assertError(self.call("GET", "/namespaces/nope/tables/t"), 404, "NoSuchTableException",
                         "a table in a missing namespace")
        self.assertError(self.call("DELETE", "/namespaces/nope/tables/t", query={"purgeRequested": "true"}), 404,
                         "NoSuchTableException", "a drop in a missing namespace")
        self.assertError(self.commit("nope", "t", []), 404, "NoSuchTableException", "a commit in a missing namespace")
        self.assertError(self.call("POST", "/namespaces/nope/tables", {"name": "t", "schema": SCHEMA}), 404,
                         "NoSuchNamespaceException", "a create in a missing namespace")
        other = urllib.parse.quote(self.arn.replace(self.bucket_name, "not-there"), safe="")
        self.assertError(self.rest.call("GET", "/v1/%s/namespaces" % other), 404, "NoSuchWarehouseException",
                         "a prefix naming no table bucket")

    def test_malformed_requests_are_bad_requests(self):
        cases = {
            "invalid JSON": b"{not json",
            "no namespace": {"properties": {}},
            "a namespace that is not an array": {"namespace": "sales"},
            "an empty namespace": {"namespace": []},
            "a property that is not a string": {"namespace": ["x1"], "properties": {"a": 1}},
            "a name S3 Tables refuses": {"namespace": ["Bad-Name"]},
        }
        for label, body in cases.items():
            with self.subTest(case=label):
                self.assertError(self.call("POST", "/namespaces", body), 400, "BadRequestException", label)

    def test_multi_level_namespaces_are_refused(self):
        self.assertError(self.call("POST", "/namespaces", {"namespace": ["a", "b"]}), 400, "BadRequestException",
                         "a two-level namespace in a body")
        self.assertError(self.call("POST", "/namespaces/a%1Fb/tables", {"name": "t", "schema": {"type": "struct",
                         "fields": []}}), 400, "BadRequestException", "a table created in a two-level namespace")
        self.assertError(self.call("GET", "/namespaces", query={"parent": "a\x1fb"}), 400, "BadRequestException",
                         "a two-level parent")

    def test_reads_in_a_multi_level_namespace_find_nothing(self):
        # Iceberg's Java client loads `sales.orders.snapshots` first as table `snapshots` in
        # namespace `sales.orders`, and reads the metadata table only after NoSuchTableException.
        self.create_table("sales", "orders_meta")
        self.assertError(self.call("GET", "/namespaces/sales%1Forders_meta/tables/snapshots"), 404,
                         "NoSuchTableException", "a table in a two-level namespace does not exist")
        self.assertEqual(self.call("HEAD", "/namespaces/sales%1Forders_meta/tables/snapshots")[0], 404,
                         "tableExists in a two-level namespace is 404")
        self.assertError(self.call("GET", "/namespaces/a%1Fb"), 404, "NoSuchNamespaceException",
                         "a two-level namespace does not exist")

    def test_head_answers_without_a_body(self):
        status, _, body = self.call("HEAD", "/namespaces/sales")
        self.assertEqual((status, body), (204, None), "namespaceExists is 204 without a body")
        status, _, body = self.call("HEAD", "/namespaces/nope")
        self.assertEqual((status, body), (404, None), "a missing namespace is 404 without a body")
        self.create_table("sales", "headed")
        self.assertEqual(self.call("HEAD", "/namespaces/sales/tables/headed")[0], 204, "tableExists is 204")
        self.assertEqual(self.call("HEAD", "/namespaces/sales/tables/nope")[0], 404, "a missing table is 404")

    def test_each_request_is_logged_once(self):
        self.call("GET", "/namespaces/sales")
        lines = [l for l in self.server.log_text().splitlines() if "Iceberg:loadNamespaceMetadata" in l]
        self.assertTrue(lines, "the request log names the operation as Iceberg:<operationId>")
        self.assertRegex(lines[-1], r" 200 \d+us$", "with its status and time")

    # -- namespaces ------------------------------------------------------------------------------

    def test_namespace_properties_update_remove_and_report_missing(self):
        self.create_namespace("props", {"owner": "a", "team": "x"})
        body = self.ok(self.call("POST", "/namespaces/props/properties",
                                 {"removals": ["team", "absent"], "updates": {"owner": "b", "new": "1"}}))
        self.assertEqual((sorted(body["updated"]), body["removed"], body["missing"]), (["new", "owner"], ["team"], ["absent"]),
                         "updated, removed and missing keys are reported")
        got = self.ok(self.call("GET", "/namespaces/props"))
        self.assertEqual(got, {"namespace": ["props"], "properties": {"new": "1", "owner": "b"}},
                         "loadNamespaceMetadata shows the new properties")
        self.assertError(self.call("POST", "/namespaces/props/properties", {"removals": ["k"], "updates": {"k": "v"}}),
                         422, "UnprocessableEntityException", "a key both updated and removed")

    def test_properties_go_with_their_namespace(self):
        self.create_namespace("fleeting", {"k": "v"})
        self.s3tables.delete_namespace(tableBucketARN=self.arn, namespace="fleeting")
        body = self.create_namespace("fleeting")
        self.assertEqual(body["properties"], {}, "a namespace deleted through the S3 Tables API took its properties")

    # -- tables ----------------------------------------------------------------------------------

    def test_a_table_created_by_the_s3_tables_api_loads_over_rest(self):
        self.s3tables.create_table(tableBucketARN=self.arn, namespace="sales", name="from_api", format="ICEBERG",
                                   metadata={"iceberg": {"schema": {"fields": [{"name": "id", "type": "long"}]}}})
        loc = self.s3tables.get_table_metadata_location(tableBucketARN=self.arn, namespace="sales", name="from_api")
        body = self.load("sales", "from_api")
        self.assertEqual(body["metadata-location"], loc["metadataLocation"], "REST loads the file the API wrote")
        self.assertEqual(body["metadata"]["location"], loc["warehouseLocation"], "in the table's warehouse")
        self.assertEqual(body["config"]["s3.endpoint"], self.server.endpoint, "with S3 settings for Floe")

    def test_load_table_etag_answers_304_until_the_next_commit(self):
        self.create_table("sales", "tagged")
        status, headers, _ = self.call("GET", "/namespaces/sales/tables/tagged")
        etag = headers.get("ETag")
        self.assertTrue(status == 200 and etag, "loadTable answers an ETag")
        req = urllib.request.Request(self.server.endpoint + UNSIGNED + "/v1/%s/namespaces/sales/tables/tagged" % self.prefix,
                                     headers={"If-None-Match": etag})
        try:
            urllib.request.urlopen(req, timeout=10)
            self.fail("a load with the current ETag is not a 200")
        except urllib.error.HTTPError as e:
            with e:
                self.assertEqual((e.code, e.read()), (304, b""), "the current ETag gets 304 without a body")
        self.ok(self.commit("sales", "tagged", [{"action": "set-properties", "updates": {"a": "1"}}]))
        status, headers, _ = self.call("GET", "/namespaces/sales/tables/tagged")
        self.assertNotEqual(headers.get("ETag"), etag, "a commit changes the ETag")

    def test_create_table_refuses_a_location(self):
        self.assertError(self.call("POST", "/namespaces/sales/tables",
                                   {"name": "placed", "schema": SCHEMA, "location": "s3://somewhere/else"}),
                         400, "BadRequestException", "a client-chosen location")

    def test_stage_create_is_refused_as_aws_refuses_it(self):
        self.assertError(self.call("POST", "/namespaces/sales/tables",
                                   {"name": "staged", "schema": SCHEMA, "stage-create": True}),
                         400, "stage_create", "stage-create (CTAS) without --iceberg-stage-create")
        self.assertEqual(self.call("HEAD", "/namespaces/sales/tables/staged")[0], 404, "the refusal stores nothing")

    def test_commits_keep_locations_inside_the_warehouse(self):
        self.create_table("sales", "located")
        self.assertError(self.commit("sales", "located", [{"action": "set-location", "location": "s3://elsewhere/t"}]),
                         400, "BadRequestException", "set-location outside the warehouse")
        self.assertError(self.commit("sales", "located", [{"action": "no-such-update"}]), 400, "BadRequestException",
                         "an unknown update")
        self.assertError(self.commit("sales", "nope", []), 404, "NoSuchTableException", "a commit to a missing table")

    def test_rename_within_and_across_namespaces(self):
        self.create_namespace("archive")
        self.create_table("sales", "to_move")
        self.create_table("sales", "occupied")
        rename = lambda src, dst: self.call("POST", "/tables/rename", {
            "source": {"namespace": [src[0]], "name": src[1]}, "destination": {"namespace": [dst[0]], "name": dst[1]}})
        self.ok(rename(("sales", "to_move"), ("archive", "moved")), 204, "renameTable")
        self.assertEqual(self.call("HEAD", "/namespaces/archive/tables/moved")[0], 204, "the table is at its new name")
        self.assertEqual(self.call("HEAD", "/namespaces/sales/tables/to_move")[0], 404, "and not at the old one")
        self.assertError(rename(("archive", "moved"), ("sales", "occupied")), 409, "AlreadyExistsException",
                         "a rename onto an existing table")
        self.assertError(rename(("sales", "gone"), ("sales", "x")), 404, "NoSuchTableException", "a missing source")
        self.assertError(rename(("nowhere", "gone"), ("sales", "x")), 404, "NoSuchTableException",
                         "a source in a missing namespace")
        self.assertError(rename(("archive", "moved"), ("nowhere", "x")), 404, "NoSuchNamespaceException",
                         "a missing destination namespace")

    def test_report_metrics_is_accepted(self):
        self.create_table("sales", "measured")
        self.ok(self.call("POST", "/namespaces/sales/tables/measured/metrics",
                          {"report-type": "scan-report", "table-name": "sales.measured"}), 204, "reportMetrics")

    # -- pagination ------------------------------------------------------------------------------

    def page_through(self, path, key, size):
        names, token, pages = [], "", 0
        while token is not None:
            body = self.ok(self.call("GET", path, query={"pageToken": token, "pageSize": size}))
            names += [n[0] if key == "namespaces" else n["name"] for n in body[key]]
            self.assertIn("next-page-token", body, "a paginated answer carries next-page-token")
            token = body["next-page-token"]
            pages += 1
            self.assertLess(pages, 50, "pagination ends")
        return names, pages

    def test_namespace_and_table_pagination(self):
        arn = self.s3tables.create_table_bucket(name="rest-pages")["arn"]
        prefix = urllib.parse.quote(arn, safe="")
        for i in range(5):
            self.ok(self.rest.call("POST", "/v1/%s/namespaces" % prefix, {"namespace": ["ns%d" % i]}))
        for i in range(5):
            self.ok(self.rest.call("POST", "/v1/%s/namespaces/ns0/tables" % prefix, {"name": "t%d" % i, "schema": SCHEMA}))
        old_prefix, self.prefix = self.prefix, prefix
        try:
            body = self.ok(self.call("GET", "/namespaces", query={"pageSize": 2}))
            self.assertEqual(len(body["namespaces"]), 5, "without pageToken every namespace comes at once")
            self.assertNotIn("next-page-token", body, "and no next-page-token")
            names, pages = self.page_through("/namespaces", "namespaces", 2)
            self.assertEqual((names, pages), (["ns0", "ns1", "ns2", "ns3", "ns4"], 3), "pages of 2, 2 and 1, in order")
            names, pages = self.page_through("/namespaces/ns0/tables", "identifiers", 3)
            self.assertEqual((names, pages), (["t0", "t1", "t2", "t3", "t4"], 2), "tables page the same way")
            self.assertError(self.call("GET", "/namespaces", query={"pageToken": "bogus"}), 400, "BadRequestException",
                             "a token that is not ours")
            self.assertError(self.call("GET", "/namespaces", query={"pageToken": "", "pageSize": 0}), 400,
                             "BadRequestException", "pageSize 0")
            self.assertEqual(self.ok(self.call("GET", "/namespaces", query={"parent": "ns1"}))["namespaces"], [],
                             "S3 Tables namespaces have no children")
            self.assertError(self.call("GET", "/namespaces", query={"parent": "nope"}), 404, "NoSuchNamespaceException",
                             "a missing parent")
        finally:
            self.prefix = old_prefix

    # -- commits ---------------------------------------------------------------------------------

    def test_transactions_are_all_or_nothing(self):
        for name in ("tx1", "tx2"):
            self.create_table("sales", name)
        change = lambda name, value, reqs=(): {"identifier": {"namespace": ["sales"], "name": name},
                                               "requirements": list(reqs),
                                               "updates": [{"action": "set-properties", "updates": {"v": value}}]}
        tx = lambda *changes: self.call("POST", "/transactions/commit", {"table-changes": list(changes)})
        self.ok(tx(change("tx1", "1"), change("tx2", "1")), 204, "a two-table transaction")
        before = {n: self.load("sales", n)["metadata-location"] for n in ("tx1", "tx2")}
        self.assertError(tx(change("tx1", "2"), change("tx2", "2", [{"type": "assert-table-uuid", "uuid": "x"}])),
                         409, "CommitFailedException", "one failed requirement")
        self.assertError(tx(change("tx1", "2"), change("missing", "2")), 404, "NoSuchTableException", "one missing table")
        self.assertError(tx(change("tx1", "2"), change("tx1", "3")), 400, "BadRequestException", "a table twice")
        self.assertError(self.call("POST", "/transactions/commit", {"table-changes": [
            {"requirements": [], "updates": []}]}), 400, "BadRequestException", "a change without an identifier")
        after = {n: self.load("sales", n)["metadata-location"] for n in ("tx1", "tx2")}
        self.assertEqual(after, before, "no failed transaction moved any pointer")

    def test_concurrent_commits_lose_no_update(self):
        self.create_table("sales", "contended")
        n = 24

        def one(i):
            return i, self.commit("sales", "contended", [{"action": "set-properties", "updates": {"k%d" % i: "v"}}])[0]

        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            results = list(pool.map(one, range(n)))
        won = {i for i, status in results if status == 200}
        sys.stderr.write("[%d of %d concurrent commits won] " % (len(won), n))
        self.assertEqual({status for _, status in results} - {200, 409}, set(), "each commit wins (200) or loses (409)")
        md = self.load("sales", "contended")["metadata"]
        self.assertEqual({k for k in md["properties"] if re.fullmatch(r"k\d+", k)}, {"k%d" % i for i in won},
                         "every winning commit's update is in the table: no update was lost")
        self.assertEqual(len(md["metadata-log"]), len(won), "one metadata file per winning commit")

    def test_state_survives_a_restart(self):
        self.create_namespace("durable", {"keep": "me"})
        self.create_table("durable", "t")
        self.server.restart()
        self.assertEqual(self.ok(self.call("GET", "/namespaces/durable"))["properties"], {"keep": "me"},
                         "namespace properties survive a restart")
        self.assertEqual(self.load("durable", "t")["metadata"]["format-version"], 2, "tables too")

    # -- signed and unsigned ---------------------------------------------------------------------

    def test_signed_route_and_unsigned_alias_serve_the_same_catalog(self):
        path = "/v1/%s/namespaces/sales" % self.prefix
        signed = self.rest.call("GET", path, base=SIGNED, signed=True)
        unsigned = self.rest.call("GET", path, base=UNSIGNED)
        self.assertEqual(signed[0], 200, "a request signed for s3tables is served on /iceberg")
        self.assertEqual(signed[2], unsigned[2], "the signed route and the unsigned alias give the same answer")
        self.assertEqual(self.rest.call("GET", path, base=UNSIGNED, signed=True)[2], unsigned[2],
                         "the alias accepts signed requests too")
        status, headers, body = self.rest.call("GET", path, base=SIGNED)
        self.assertNotIn("application/json", headers.get("content-type", ""),
                         "an unsigned request on /iceberg is not the catalog's: it is S3's (bucket 'iceberg')")


class StageCreateFlagTests(IcebergRestTestCase):
    """--iceberg-stage-create: Floe's difference from AWS that lets CTAS-style clients stage a table."""
    server_args = ("--iceberg-stage-create",)
    bucket_name = "rest-staged"

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.rest.call("POST", "/v1/%s/namespaces" % cls.prefix, {"namespace": ["sales"]})

    def test_stage_create_then_the_create_transaction(self):
        staged = self.ok(self.call("POST", "/namespaces/sales/tables",
                                   {"name": "staged", "schema": SCHEMA, "stage-create": True,
                                    "properties": {"p": "1"}}), what="stage-create")
        self.assertNotIn("metadata-location", staged, "a staged table has no metadata location")
        self.assertEqual(self.call("HEAD", "/namespaces/sales/tables/staged")[0], 404,
                         "stage-create makes no table")
        md = staged["metadata"]
        # A CTAS writes its data files into the staged location before the create commit.
        s3 = self.make_client("s3")
        warehouse = md["location"][len("s3://"):].rstrip("/")
        s3.put_object(Bucket=warehouse, Key="data/00000-0-ctas.parquet", Body=b"PAR1 rows PAR1")
        updates = [
            {"action": "assign-uuid", "uuid": md["table-uuid"]},
            {"action": "upgrade-format-version", "format-version": 2},
            {"action": "add-schema", "schema": md["schemas"][0], "last-column-id": md["last-column-id"]},
            {"action": "set-current-schema", "schema-id": -1},
            {"action": "add-spec", "spec": md["partition-specs"][0]},
            {"action": "set-default-spec", "spec-id": -1},
            {"action": "add-sort-order", "sort-order": md["sort-orders"][0]},
            {"action": "set-default-sort-order", "sort-order-id": -1},
            {"action": "set-location", "location": md["location"]},
            {"action": "set-properties", "updates": md["properties"]},
        ]
        body = self.ok(self.commit("sales", "staged", updates, [{"type": "assert-create"}]), what="the create commit")
        self.assertRegex(body["metadata-location"], r"/metadata/00000-[0-9a-f-]{36}\.metadata\.json$",
                         "the create commit writes the first metadata file")
        self.assertEqual(body["metadata"]["table-uuid"], md["table-uuid"], "the table keeps the staged uuid")
        table = self.s3tables.get_table(tableBucketARN=self.arn, namespace="sales", name="staged")
        self.assertEqual(table["warehouseLocation"], md["location"], "the table lives where the staged metadata said")
        self.assertEqual(s3.get_object(Bucket=warehouse, Key="data/00000-0-ctas.parquet")["Body"].read(),
                         b"PAR1 rows PAR1", "with the data file written before the create commit")
        self.assertTrue(table["tableARN"].endswith("/table/" + md["table-uuid"]), "its ARN carries the Iceberg uuid")
        self.assertError(self.commit("sales", "staged", updates, [{"type": "assert-create"}]), 409,
                         "CommitFailedException", "a second create of the same table")

    def test_the_second_of_two_staged_creates_is_a_conflict(self):
        stage = lambda: self.ok(self.call("POST", "/namespaces/sales/tables",
                                          {"name": "twice", "schema": SCHEMA, "stage-create": True}),
                                what="stage-create")["metadata"]
        creates = [stage(), stage()]
        self.assertNotEqual(creates[0]["location"], creates[1]["location"], "each staged create reserves a warehouse")
        commit = lambda md: self.commit("sales", "twice", [
            {"action": "assign-uuid", "uuid": md["table-uuid"]},
            {"action": "add-schema", "schema": md["schemas"][0]}, {"action": "set-current-schema", "schema-id": -1},
            {"action": "set-location", "location": md["location"]}], [{"type": "assert-create"}])
        self.ok(commit(creates[0]), what="the first create commit")
        # assert-create is checked before the second warehouse is found outside the table's
        self.assertError(commit(creates[1]), 409, "CommitFailedException", "the second create commit")


class FormatVersion3Tests(IcebergRestTestCase):
    """Iceberg format v3 on the wire: creation through both APIs, upgrade, and row lineage."""
    bucket_name = "rest-v3"

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.rest.call("POST", "/v1/%s/namespaces" % cls.prefix, {"namespace": ["sales"]})

    def snapshot(self, snapshot_id, seq, parent=None, **lineage):
        snap = {"snapshot-id": snapshot_id, "sequence-number": seq, "timestamp-ms": 1700000000000 + seq,
                "manifest-list": "s3://nowhere/snap-%d.avro" % snapshot_id, "summary": {"operation": "append"}}
        if parent is not None:
            snap["parent-snapshot-id"] = parent
        snap.update(lineage)
        return [{"action": "add-snapshot", "snapshot": snap},
                {"action": "set-snapshot-ref", "ref-name": "main", "type": "branch", "snapshot-id": snapshot_id}]

    def test_create_with_format_version_3_then_row_lineage(self):
        schema = {"type": "struct", "fields": [{"id": 1, "name": "id", "type": "long", "required": True},
                                               {"id": 2, "name": "doc", "type": "variant", "required": False},
                                               {"id": 3, "name": "at", "type": "timestamptz_ns", "required": False}]}
        md = self.create_table("sales", "lineage", schema=schema, properties={"format-version": "3"})["metadata"]
        self.assertEqual((md["format-version"], md["next-row-id"]), (3, 0), "a v3 table starts at next-row-id 0")
        self.assertNotIn("format-version", md["properties"], "format-version is not kept as a property")
        body = self.ok(self.commit("sales", "lineage", self.snapshot(1, 1, **{"added-rows": 30})), what="append")
        self.assertEqual(body["metadata"]["snapshots"][0]["first-row-id"], 0, "the first snapshot's rows start at 0")
        self.assertEqual(body["metadata"]["next-row-id"], 30, "next-row-id grows by added-rows")
        body = self.ok(self.commit("sales", "lineage", self.snapshot(2, 2, 1, **{"first-row-id": 30, "added-rows": 12})),
                       what="a second append that brings its first-row-id")
        self.assertEqual(self.load("sales", "lineage")["metadata"]["next-row-id"], 42, "and it is stored")
        self.assertError(self.commit("sales", "lineage", self.snapshot(3, 3, 2, **{"first-row-id": 41, "added-rows": 1})),
                         400, "BadRequestException", "a first-row-id behind next-row-id")
        self.assertError(self.commit("sales", "lineage", self.snapshot(3, 3, 2)), 400, "BadRequestException",
                         "a v3 snapshot without added-rows")
        self.assertError(self.commit("sales", "lineage", [{"action": "upgrade-format-version", "format-version": 2}]),
                         400, "BadRequestException", "a downgrade")

    def test_upgrade_v2_to_v3_and_the_v3_types(self):
        self.create_table("sales", "upgraded")
        variant_schema = {"type": "struct", "fields": SCHEMA["fields"] + [
            {"id": 3, "name": "doc", "type": "variant", "required": False}]}
        self.assertError(self.commit("sales", "upgraded", [{"action": "add-schema", "schema": variant_schema}]),
                         400, "BadRequestException", "variant in a v2 table")
        body = self.ok(self.commit("sales", "upgraded", [{"action": "upgrade-format-version", "format-version": 3}]),
                       what="the upgrade")
        self.assertEqual((body["metadata"]["format-version"], body["metadata"]["next-row-id"]), (3, 0),
                         "the upgraded table is v3 with next-row-id 0")
        self.ok(self.commit("sales", "upgraded", [{"action": "add-schema", "schema": variant_schema},
                                                  {"action": "set-current-schema", "schema-id": -1}]),
                what="variant after the upgrade")
        self.assertError(self.commit("sales", "upgraded", [{"action": "upgrade-format-version", "format-version": 4}]),
                         400, "BadRequestException", "an unsupported version")

    def test_s3_tables_create_table_with_format_version_3(self):
        self.s3tables.create_table(tableBucketARN=self.arn, namespace="sales", name="from_api", format="ICEBERG",
                                   metadata={"iceberg": {"schema": {"fields": [{"name": "id", "type": "long"},
                                                                               {"name": "t", "type": "timestamp_ns"}]},
                                                         "properties": {"format-version": "3"}}})
        md = self.load("sales", "from_api")["metadata"]
        self.assertEqual((md["format-version"], md["next-row-id"]), (3, 0), "CreateTable made a v3 table")
        with self.assertRaises(self.s3tables.exceptions.BadRequestException, msg="timestamp_ns needs v3"):
            self.s3tables.create_table(tableBucketARN=self.arn, namespace="sales", name="v2_ns", format="ICEBERG",
                                       metadata={"iceberg": {"schema": {"fields": [{"name": "t",
                                                                                    "type": "timestamp_ns"}]}}})


class StrictSignatureTests(IcebergRestTestCase):
    server_args = ("--strict-signatures", "--credentials", "%s:%s" % (KEY, SECRET))
    bucket_name = "rest-strict"

    @classmethod
    def setUpClass(cls):
        import boto3
        super(IcebergRestTestCase, cls).setUpClass()   # not IcebergRestTestCase's: it creates unsigned
        session = boto3.session.Session(aws_access_key_id=KEY, aws_secret_access_key=SECRET)
        client = session.client("s3tables", endpoint_url=cls.server.endpoint, region_name="us-east-1",
                                config=cls.botocore_config)
        cls.arn = client.create_table_bucket(name=cls.bucket_name)["arn"]
        cls.prefix = urllib.parse.quote(cls.arn, safe="")
        cls.rest = RestClient(cls.server.endpoint, (KEY, SECRET))

    def test_signed_requests_are_served(self):
        body = self.ok(self.call("POST", "/namespaces", {"namespace": ["strict_ns"]}, base=SIGNED, signed=True),
                       what="a correctly signed createNamespace")
        self.assertEqual(body["namespace"], ["strict_ns"], "the namespace is created")
        self.ok(self.call("GET", "/namespaces/strict_ns", base=UNSIGNED, signed=True), what="a signed request on the alias")

    def test_unsigned_and_badly_signed_requests_are_refused_in_the_spec_shape(self):
        self.assertError(self.call("GET", "/namespaces"), 403, "NotAuthorizedException",
                         "an unsigned request to the alias in strict mode")
        wrong = RestClient(self.server.endpoint, (KEY, "wrong-secret"))
        self.assertError(wrong.call("GET", "/v1/%s/namespaces" % self.prefix, base=SIGNED, signed=True), 403,
                         "NotAuthorizedException", "a request signed with the wrong secret")


if __name__ == "__main__":
    main()

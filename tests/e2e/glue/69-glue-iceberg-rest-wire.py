#!/usr/bin/python3
"""The AWS Glue Iceberg REST endpoint on the wire (/iceberg signed for glue with botocore's SigV4):
/v1/config's prefix and the endpoints it advertises (Glue's guide's list), the catalog id in the
path in both spellings, the routes Glue's guide does not list answered 501, paths outside
/v1/catalogs/{catalog} answered 404, every refused catalog in the Iceberg REST error shape, the
region taken from the signature (a catalog id names none), and
strict signatures refused in that shape too. engines/72-glue-iceberg-rest-pyiceberg.py and
engines/73-glue-iceberg-rest-spark.py drive the same endpoint with PyIceberg and Spark."""

import json
import os
import sys
import urllib.error
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from floe_server import FloeServer, FloeTestCase, create_glue_integration, main  # noqa: E402

BUCKET = "glue-wire"
SCHEMA = {"type": "struct", "fields": [{"id": 1, "name": "id", "type": "long", "required": True}]}
GLUE_UNLISTED = ["POST /v1/{prefix}/tables/rename", "POST /v1/{prefix}/transactions/commit",
                 "HEAD /v1/{prefix}/namespaces/{namespace}",
                 "POST /v1/{prefix}/namespaces/{namespace}/tables/{table}/metrics"]


def call(endpoint, method, path, body=None, query=None, credentials=("floe-test", "floe-test"), service="glue",
         region="us-east-1"):
    """One request to /iceberg<path>, signed with botocore's SigV4 for `service`."""
    import botocore.auth
    import botocore.awsrequest
    import botocore.credentials
    url = endpoint + "/iceberg" + path + ("?" + urllib.parse.urlencode(query) if query else "")
    data = json.dumps(body).encode() if body is not None else None
    request = botocore.awsrequest.AWSRequest(method=method, url=url, data=data,
                                             headers={"content-type": "application/json"} if data else {})
    botocore.auth.SigV4Auth(botocore.credentials.Credentials(*credentials), service, region).add_auth(request)
    req = urllib.request.Request(url, data=data, method=method, headers=dict(request.headers.items()))
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            raw = r.read()
            return r.status, json.loads(raw) if raw else None
    except urllib.error.HTTPError as e:
        with e:
            raw = e.read()
            return e.code, json.loads(raw) if raw else None


class GlueEndpointOnTheWire(FloeTestCase):
    server_args = ("--quiet",)

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.arn = cls.s3tables.create_table_bucket(name=BUCKET)["arn"]
        cls.account = cls.arn.split(":")[4]
        cls.catalog = "%s:s3tablescatalog:%s" % (cls.account, BUCKET)
        cls.glue_api = cls.make_client("glue")
        create_glue_integration(cls.glue_api, cls.account)
        cls.s3tables.create_namespace(tableBucketARN=cls.arn, namespace=["sales"])
        cls.s3tables.create_table(tableBucketARN=cls.arn, namespace="sales", name="orders", format="ICEBERG",
                                  metadata={"iceberg": {"schema": {"fields": [
                                      {"name": "id", "type": "long", "required": True}]}}})

    def glue(self, method, path, body=None, **kw):
        return call(self.server.endpoint, method, path, body, **kw)

    def assertError(self, response, status, error_type, what, message=None):
        code, body = response
        self.assertEqual(code, status, "%s: HTTP %d (got %d: %s)" % (what, status, code, body))
        if body is None:  # HEAD: no body
            return
        self.assertEqual(set(body), {"error"}, "%s: the Iceberg REST error shape" % what)
        self.assertEqual((body["error"]["type"], body["error"]["code"]), (error_type, status), what)
        if message:
            self.assertIn(message, body["error"]["message"], what)

    def test_config_answers_glues_prefix_and_lists_glues_operations(self):
        code, body = self.glue("GET", "/v1/config", query={"warehouse": "%s:s3tablescatalog/%s" % (self.account, BUCKET)})
        self.assertEqual(code, 200, body)
        self.assertEqual(body["overrides"]["prefix"], "catalogs/" + self.catalog, "Glue's prefix style")
        for endpoint in GLUE_UNLISTED:
            self.assertNotIn(endpoint, body["endpoints"], "Glue's guide does not list " + endpoint)
        for endpoint in ["GET /v1/{prefix}/namespaces", "POST /v1/{prefix}/namespaces/{namespace}/tables/{table}",
                         "HEAD /v1/{prefix}/namespaces/{namespace}/tables/{table}"]:
            self.assertIn(endpoint, body["endpoints"], "Glue's guide lists " + endpoint)
        code, s3t = call(self.server.endpoint, "GET", "/v1/config", query={"warehouse": self.arn}, service="s3tables")
        self.assertEqual(code, 200, s3t)
        self.assertIn("POST /v1/{prefix}/tables/rename", s3t["endpoints"], "the S3 Tables endpoint still lists rename")
        self.assertError(self.glue("GET", "/v1/config"), 400, "BadRequestException", "a config without a warehouse",
                         "<account>:s3tablescatalog/<bucket>")

    def test_catalog_in_the_path_in_both_spellings(self):
        for catalog in [self.catalog, urllib.parse.quote("%s:s3tablescatalog/%s" % (self.account, BUCKET), safe=":"),
                        "s3tablescatalog:" + BUCKET]:
            code, body = self.glue("GET", "/v1/catalogs/%s/namespaces/sales/tables" % catalog)
            self.assertEqual(code, 200, "%s: %s" % (catalog, body))
            self.assertEqual(body["identifiers"], [{"namespace": ["sales"], "name": "orders"}],
                             "%s lists the S3 Tables API's table" % catalog)
        code, body = self.glue("GET", "/v1/catalogs/%s/namespaces/sales/tables/orders" % self.catalog)
        self.assertEqual(code, 200, body)
        got = self.s3tables.get_table_metadata_location(tableBucketARN=self.arn, namespace="sales", name="orders")
        self.assertEqual(body["metadata-location"], got["metadataLocation"], "the same table as the S3 Tables API's")

    def test_a_table_in_a_missing_namespace_is_no_such_table(self):
        # the spec's only 404 on a table route, as on the S3 Tables endpoint (iceberg_rest/61-iceberg-rest.py)
        self.assertError(self.glue("GET", "/v1/catalogs/%s/namespaces/nowhere/tables/orders" % self.catalog), 404,
                         "NoSuchTableException", "a load in a missing namespace")
        self.assertError(self.glue("GET", "/v1/catalogs/%s/namespaces/nowhere/tables" % self.catalog), 404,
                         "NoSuchNamespaceException", "a listing of a missing namespace")

    def test_routes_glue_does_not_list_answer_501(self):
        base = "/v1/catalogs/" + self.catalog
        cases = [
            ("POST", base + "/tables/rename", {"source": {"namespace": ["sales"], "name": "orders"},
                                               "destination": {"namespace": ["sales"], "name": "renamed"}}),
            ("POST", base + "/transactions/commit", {"table-changes": [{
                "identifier": {"namespace": ["sales"], "name": "orders"}, "requirements": [], "updates": []}]}),
            ("HEAD", base + "/namespaces/sales", None),
            ("POST", base + "/namespaces/sales/tables/orders/metrics", {"report-type": "scan-report"}),
        ]
        for method, path, body in cases:
            with self.subTest(path=path):
                self.assertError(self.glue(method, path, body), 501, "UnsupportedOperationException",
                                 "%s %s on Glue's endpoint" % (method, path), "does not support")
        names = [t["name"] for t in self.s3tables.list_tables(tableBucketARN=self.arn, namespace="sales")["tables"]]
        self.assertEqual(names, ["orders"], "the refused rename renamed nothing")
        self.assertError(self.glue("GET", base + "/namespaces/sales/views"), 501, "UnsupportedOperationException",
                         "views")

    def test_paths_outside_catalogs_are_not_glues(self):
        prefix = urllib.parse.quote(self.arn, safe="")
        self.assertError(self.glue("GET", "/v1/%s/namespaces" % prefix), 404, "NotFoundException",
                         "the S3 Tables endpoint's prefix is no Glue path")

    def test_without_the_integration_no_bucket_is_served(self):
        path = "/v1/catalogs/%s/namespaces" % self.catalog
        self.glue_api.delete_catalog(CatalogId=self.account + ":s3tablescatalog")
        try:
            self.assertError(self.glue("GET", path), 404, "NoSuchWarehouseException",
                             "without the s3tablescatalog integration", "s3tablescatalog")
            self.assertError(self.glue("GET", "/v1/config?warehouse=" + urllib.parse.quote(self.catalog)), 404,
                             "NoSuchWarehouseException", "config without the integration", "s3tablescatalog")
        finally:
            create_glue_integration(self.glue_api, self.account)
        self.assertEqual(self.glue("GET", path)[0], 200, "served again once integrated")

    def test_refused_catalogs(self):
        cases = [
            ("not-a-catalog!", 400, "BadRequestException", "Invalid catalog id"),
            ("%s:s3tablescatalog:Bad_Bucket" % self.account, 400, "BadRequestException", "Invalid catalog id"),
            (":", 501, "UnsupportedOperationException", "is not emulated"),
            (self.account, 501, "UnsupportedOperationException", "is not emulated"),
            ("%s:s3tablescatalog" % self.account, 501, "UnsupportedOperationException", "is not emulated"),
            ("111122223333:s3tablescatalog:" + BUCKET, 403, "NotAuthorizedException", "another account"),
            ("%s:s3tablescatalog:no-such-bucket" % self.account, 404, "NoSuchWarehouseException", None),
        ]
        path = "/v1/catalogs/%s/namespaces" % self.catalog
        self.assertError(self.glue("GET", path, region="eu-west-1"), 404, "NoSuchWarehouseException",
                         "a catalog id names no region: a request signed for another region finds no bucket there")
        self.assertEqual(self.glue("GET", path)[0], 200, "while the bucket's own region serves it")
        for catalog, status, error_type, message in cases:
            with self.subTest(catalog=catalog):
                path = "/v1/catalogs/%s/namespaces" % urllib.parse.quote(catalog, safe=":")
                self.assertError(self.glue("GET", path), status, error_type, "catalog %s" % catalog, message)


class GlueEndpointStrictOnTheWire(FloeTestCase):
    server_args = ("--quiet", "--strict-signatures", "--credentials", "floe-test:floe-test")

    def test_glue_signatures_verify_and_bad_ones_are_refused_in_the_iceberg_shape(self):
        arn = self.s3tables.create_table_bucket(name=BUCKET)["arn"]
        create_glue_integration(self.make_client("glue"), arn.split(":")[4])
        catalog = "%s:s3tablescatalog:%s" % (arn.split(":")[4], BUCKET)
        code, body = call(self.server.endpoint, "POST", "/v1/catalogs/%s/namespaces" % catalog, {"namespace": ["n1"]})
        self.assertEqual(code, 200, "a request signed for glue verifies: %s" % body)
        code, body = call(self.server.endpoint, "GET", "/v1/catalogs/%s/namespaces" % catalog,
                          credentials=("floe-test", "wrong"))
        self.assertEqual(code, 403, body)
        self.assertEqual(body["error"]["type"], "NotAuthorizedException", "refused in the Iceberg REST shape")


if __name__ == "__main__":
    main()

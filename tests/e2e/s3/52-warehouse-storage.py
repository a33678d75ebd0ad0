#!/usr/bin/python3
"""A table's warehouse bucket over S3, as AWS serves table storage: the eight object operations
of "Supported Amazon S3 object-level API operations for S3 Tables" work; everything else (listings,
deletes, copies into or out of it, bucket operations) answers 405 MethodNotAllowed in S3's XML,
with S3's own message and its Method and ResourceType elements; the server's log names the operation
and the way to lift the refusal. `floe serve --warehouse-s3 full` (FLOE_WAREHOUSE_S3=full) lifts that for
debugging, and a bad value stops start-up. Once DeleteTable (or an Iceberg REST drop) has
answered, the warehouse answers NoSuchBucket at once, to every operation (those a live warehouse
refuses with 405 included), while the janitor removes its bytes later."""

import http.client
import json
import os
import subprocess
import sys
import time
import urllib.parse
import urllib.request
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from floe_server import FLOE_BIN, FloeServer, FloeTestCase, free_port, main  # noqa: E402

SCHEMA = {"fields": [{"name": "id", "type": "long", "required": True}]}
S3_NS = "{http://s3.amazonaws.com/doc/2006-03-01/}"
JANITOR_DEADLINE_S = 10
MIB = 1024 * 1024
PART = b"p" * (5 * MIB)
METHOD_NOT_ALLOWED = "The specified method is not allowed against this resource."


class WarehouseTestCase(FloeTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.s3 = cls.make_client("s3", s3={"addressing_style": "path"})
        cls.arn = cls.s3tables.create_table_bucket(name="warehouse-home")["arn"]
        cls.s3tables.create_namespace(tableBucketARN=cls.arn, namespace=["ns"])
        cls.s3.create_bucket(Bucket="general-purpose")
        cls.s3.put_object(Bucket="general-purpose", Key="source", Body=b"from a general purpose bucket")
        cls.n_tables = 0

    @classmethod
    def tearDownClass(cls):
        cls.s3.close()
        super().tearDownClass()

    def new_warehouse(self):
        """Creates a table with metadata; returns (table name, warehouse bucket, metadata key)."""
        type(self).n_tables += 1
        name = "t%d" % self.n_tables
        self.s3tables.create_table(tableBucketARN=self.arn, namespace="ns", name=name, format="ICEBERG",
                                   metadata={"iceberg": {"schema": SCHEMA}})
        table = self.s3tables.get_table(tableBucketARN=self.arn, namespace="ns", name=name)
        bucket = table["warehouseLocation"][len("s3://"):]
        key = table["metadataLocation"][len(table["warehouseLocation"]) + 1:]
        return name, bucket, key

    def raw(self, method, path, headers=None, body=None):
        conn = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=30)
        conn.request(method, path, body=body, headers=headers or {})
        resp = conn.getresponse()
        data = resp.read()
        conn.close()
        return resp.status, data

    def object_files(self):
        root = os.path.join(self.server.data_dir, "objects")
        return {os.path.join(d, f) for d, _, files in os.walk(root) for f in files}


class SupportedOperationTests(WarehouseTestCase):
    def test_the_eight_supported_object_operations_work_on_a_warehouse(self):
        _, bucket, metadata_key = self.new_warehouse()
        self.assertIn(b'"format-version"', self.s3.get_object(Bucket=bucket, Key=metadata_key)["Body"].read(),
                      "GetObject reads the table's metadata file")
        put = self.s3.put_object(Bucket=bucket, Key="data/a.parquet", Body=b"PAR1 rows PAR1")
        self.assertEqual(put["ResponseMetadata"]["HTTPStatusCode"], 200, "PutObject writes a data file")
        head = self.s3.head_object(Bucket=bucket, Key="data/a.parquet")
        self.assertEqual(head["ContentLength"], len(b"PAR1 rows PAR1"), "HeadObject reports its length")
        self.assertEqual(self.s3.get_object(Bucket=bucket, Key="data/a.parquet", Range="bytes=0-3")["Body"].read(),
                         b"PAR1", "GetObject with a Range reads part of it")

        upload = self.s3.create_multipart_upload(Bucket=bucket, Key="data/big.parquet")["UploadId"]
        etag1 = self.s3.upload_part(Bucket=bucket, Key="data/big.parquet", UploadId=upload, PartNumber=1,
                                    Body=PART)["ETag"]
        etag2 = self.s3.upload_part(Bucket=bucket, Key="data/big.parquet", UploadId=upload, PartNumber=2,
                                    Body=b"tail")["ETag"]
        parts = self.s3.list_parts(Bucket=bucket, Key="data/big.parquet", UploadId=upload)["Parts"]
        self.assertEqual([p["PartNumber"] for p in parts], [1, 2], "ListParts shows the uploaded parts")
        self.s3.complete_multipart_upload(Bucket=bucket, Key="data/big.parquet", UploadId=upload, MultipartUpload={
            "Parts": [{"PartNumber": 1, "ETag": etag1}, {"PartNumber": 2, "ETag": etag2}]})
        self.assertEqual(self.s3.head_object(Bucket=bucket, Key="data/big.parquet")["ContentLength"], len(PART) + 4,
                         "CompleteMultipartUpload joins the parts")

        aborted = self.s3.create_multipart_upload(Bucket=bucket, Key="data/gone.parquet")["UploadId"]
        self.s3.upload_part(Bucket=bucket, Key="data/gone.parquet", UploadId=aborted, PartNumber=1, Body=b"x")
        resp = self.s3.abort_multipart_upload(Bucket=bucket, Key="data/gone.parquet", UploadId=aborted)
        self.assertEqual(resp["ResponseMetadata"]["HTTPStatusCode"], 204, "AbortMultipartUpload answers 204")
        self.assertClientError("NoSuchUpload", self.s3.list_parts, Bucket=bucket, Key="data/gone.parquet",
                               UploadId=aborted)

    def test_a_missing_key_in_a_warehouse_is_no_such_key(self):
        _, bucket, _ = self.new_warehouse()
        self.assertClientError("NoSuchKey", self.s3.get_object, Bucket=bucket, Key="data/never-written")


class RefusedOperationTests(WarehouseTestCase):
    def assertRefused(self, operation, fn, **kwargs):
        resp = self.assertClientError("MethodNotAllowed", fn, **kwargs)
        self.assertEqual(resp["ResponseMetadata"]["HTTPStatusCode"], 405, "%s is refused with 405" % operation)
        self.assertEqual(resp["Error"]["Message"], METHOD_NOT_ALLOWED, "%s is refused in S3's words" % operation)

    def test_listing_deleting_and_bucket_operations_are_refused_with_405(self):
        _, bucket, metadata_key = self.new_warehouse()
        self.s3.put_object(Bucket=bucket, Key="data/kept", Body=b"kept")
        refused = [
            ("ListObjects", self.s3.list_objects, {}),
            ("ListObjectsV2", self.s3.list_objects_v2, {}),
            ("ListObjectVersions", self.s3.list_object_versions, {}),
            ("DeleteObject", self.s3.delete_object, {"Key": "data/kept"}),
            ("DeleteObjects", self.s3.delete_objects, {"Delete": {"Objects": [{"Key": "data/kept"}]}}),
            ("CopyObject", self.s3.copy_object, {"Key": "data/copy", "CopySource": "general-purpose/source"}),
            ("ListMultipartUploads", self.s3.list_multipart_uploads, {}),
            ("GetBucketLocation", self.s3.get_bucket_location, {}),
            ("DeleteBucket", self.s3.delete_bucket, {}),
            ("GetBucketTagging", self.s3.get_bucket_tagging, {}),
            ("PutBucketVersioning", self.s3.put_bucket_versioning,
             {"VersioningConfiguration": {"Status": "Enabled"}}),
            ("GetObjectTagging", self.s3.get_object_tagging, {"Key": "data/kept"}),
        ]
        for operation, fn, kwargs in refused:
            with self.subTest(operation=operation):
                self.assertRefused(operation, fn, Bucket=bucket, **kwargs)
        self.assertEqual(self.s3.get_object(Bucket=bucket, Key="data/kept")["Body"].read(), b"kept",
                         "a refused DeleteObject or DeleteObjects left the object in place")
        self.assertClientError("404", self.s3.head_object, Bucket=bucket, Key="data/copy")

    def test_head_bucket_is_refused_without_a_body(self):
        _, bucket, _ = self.new_warehouse()
        resp = self.assertClientError("405", self.s3.head_bucket, Bucket=bucket)
        self.assertEqual(resp["ResponseMetadata"]["HTTPStatusCode"], 405, "HeadBucket on a warehouse answers 405")

    def test_a_copy_out_of_a_warehouse_is_refused(self):
        _, bucket, metadata_key = self.new_warehouse()
        self.assertRefused("CopyObject", self.s3.copy_object, Bucket="general-purpose", Key="stolen-metadata",
                           CopySource={"Bucket": bucket, "Key": metadata_key})
        self.assertRefused("CopyObject", self.s3.copy_object, Bucket="general-purpose", Key="stolen-metadata",
                           CopySource="/%s/%s" % (bucket, urllib.parse.quote(metadata_key)))
        self.assertClientError("404", self.s3.head_object, Bucket="general-purpose", Key="stolen-metadata")

    def test_the_refusal_is_s3s_xml_error_naming_the_operation(self):
        _, bucket, _ = self.new_warehouse()
        status, body = self.raw("GET", "/%s?list-type=2" % bucket)
        self.assertEqual(status, 405, "ListObjectsV2 over the wire answers 405")
        root = ET.fromstring(body)
        self.assertEqual(root.tag, "Error", "the body is S3's <Error> document")
        fields = {child.tag: child.text for child in root}
        self.assertEqual(fields["Code"], "MethodNotAllowed", "with Code MethodNotAllowed")
        self.assertEqual(fields["Message"], METHOD_NOT_ALLOWED, "S3's own message, which clients match")
        self.assertEqual((fields["Method"], fields["ResourceType"]), ("GET", "BUCKET"),
                         "and the Method and ResourceType AWS adds to a 405")
        self.assertTrue(fields.get("RequestId"), "and a RequestId")
        status, body = self.raw("DELETE", "/%s/data/x" % bucket)
        fields = {child.tag: child.text for child in ET.fromstring(body)}
        self.assertEqual((status, fields["Code"], fields["ResourceType"]), (405, "MethodNotAllowed", "OBJECT"),
                         "an object operation is refused with ResourceType OBJECT")
        self.assertEqual(fields["Message"], METHOD_NOT_ALLOWED, "in S3's own words")
        self.assertEqual(fields["Method"], "DELETE", "naming the method")

    def test_the_server_log_names_the_refused_operation_and_how_to_lift_it(self):
        _, bucket, _ = self.new_warehouse()
        self.assertRefused("ListObjectsV2", self.s3.list_objects_v2, Bucket=bucket)
        log = self.server.log_text()
        self.assertRegex(log, r"ListObjectsV2 on table storage %s refused with 405" % bucket,
                         "the log line names the refused operation and the warehouse")
        self.assertIn("--warehouse-s3 full", log, "and says how to lift the refusal for debugging")

    def test_creating_a_bucket_with_a_warehouse_name_is_an_invalid_name(self):
        _, bucket, _ = self.new_warehouse()
        self.assertClientError("InvalidBucketName", self.s3.create_bucket, Bucket=bucket)


class DeletedTableTests(WarehouseTestCase):
    def wait_until_gone(self, files, what):
        deadline = time.monotonic() + JANITOR_DEADLINE_S
        while time.monotonic() < deadline:
            if not files & self.object_files():
                return
            time.sleep(0.05)
        self.fail("the janitor did not remove the bytes of %s within %ds" % (what, JANITOR_DEADLINE_S))

    def test_a_deleted_tables_warehouse_is_gone_at_once_and_its_bytes_later(self):
        before = self.object_files()
        name, bucket, metadata_key = self.new_warehouse()
        self.s3.put_object(Bucket=bucket, Key="data/a.parquet", Body=b"rows")
        files = self.object_files() - before
        self.assertGreaterEqual(len(files), 2, "the table's metadata and data file are files under objects/")
        upload = self.s3.create_multipart_upload(Bucket=bucket, Key="data/pending")["UploadId"]
        self.s3.upload_part(Bucket=bucket, Key="data/pending", UploadId=upload, PartNumber=1, Body=b"part")

        self.s3tables.delete_table(tableBucketARN=self.arn, namespace="ns", name=name)
        self.assertClientError("NoSuchBucket", self.s3.get_object, Bucket=bucket, Key=metadata_key)
        self.assertClientError("NoSuchBucket", self.s3.get_object, Bucket=bucket, Key="data/a.parquet")
        self.assertClientError("404", self.s3.head_object, Bucket=bucket, Key="data/a.parquet")
        self.assertClientError("NoSuchBucket", self.s3.put_object, Bucket=bucket, Key="data/late", Body=b"late")
        self.assertClientError("NoSuchBucket", self.s3.upload_part, Bucket=bucket, Key="data/pending",
                               UploadId=upload, PartNumber=2, Body=b"late")
        self.assertClientError("NoSuchBucket", self.s3.create_multipart_upload, Bucket=bucket, Key="data/new")
        self.wait_until_gone(files, "a deleted table")

    def test_operations_a_live_warehouse_refuses_answer_no_such_bucket_once_its_table_is_deleted(self):
        name, bucket, metadata_key = self.new_warehouse()
        self.s3tables.delete_table(tableBucketARN=self.arn, namespace="ns", name=name)
        resp = self.assertClientError("404", self.s3.head_bucket, Bucket=bucket)
        self.assertEqual(resp["ResponseMetadata"]["HTTPStatusCode"], 404, "HeadBucket on a deleted warehouse is 404")
        status, body = self.raw("HEAD", "/%s" % bucket)
        self.assertEqual((status, body), (404, b""), "HeadBucket's 404 has no body, as S3's")
        gone = [
            ("ListObjects", self.s3.list_objects, {}),
            ("ListObjectsV2", self.s3.list_objects_v2, {}),
            ("ListObjectVersions", self.s3.list_object_versions, {}),
            ("DeleteObject", self.s3.delete_object, {"Key": metadata_key}),
            ("DeleteObjects", self.s3.delete_objects, {"Delete": {"Objects": [{"Key": metadata_key}]}}),
            ("CopyObject", self.s3.copy_object, {"Key": "data/copy", "CopySource": "general-purpose/source"}),
            ("ListMultipartUploads", self.s3.list_multipart_uploads, {}),
            ("GetBucketLocation", self.s3.get_bucket_location, {}),
            ("DeleteBucket", self.s3.delete_bucket, {}),
            ("GetBucketTagging", self.s3.get_bucket_tagging, {}),
            ("GetObjectTagging", self.s3.get_object_tagging, {"Key": metadata_key}),
        ]
        for operation, fn, kwargs in gone:
            with self.subTest(operation=operation):
                resp = self.assertClientError("NoSuchBucket", fn, Bucket=bucket, **kwargs)
                self.assertEqual(resp["ResponseMetadata"]["HTTPStatusCode"], 404,
                                 "%s on a deleted table's warehouse is 404" % operation)
        self.assertClientError("NoSuchBucket", self.s3.copy_object, Bucket="general-purpose", Key="late-copy",
                               CopySource={"Bucket": bucket, "Key": metadata_key})
        status, body = self.raw("PATCH", "/%s/data/x" % bucket)
        self.assertEqual(status, 404, "even a method S3 has no operation for finds no bucket")

    def test_an_iceberg_rest_drop_makes_the_warehouse_gone_at_once(self):
        prefix = urllib.parse.quote(self.arn, safe="")
        base = self.server.endpoint + "/_floe/iceberg/v1/" + prefix

        def call(method, path, body=None):
            data = json.dumps(body).encode() if body is not None else None
            req = urllib.request.Request(base + path, data=data, method=method,
                                         headers={"content-type": "application/json"})
            with urllib.request.urlopen(req, timeout=30) as r:
                raw = r.read()
                return json.loads(raw) if raw else None

        before = self.object_files()
        created = call("POST", "/namespaces/ns/tables", {"name": "dropped", "schema": {"type": "struct", "fields": [
            {"id": 1, "name": "id", "type": "long", "required": True}]}})
        location = created["metadata"]["location"]
        bucket = urllib.parse.urlparse(location).netloc
        key = created["metadata-location"][len("s3://%s/" % bucket):]
        self.assertTrue(self.s3.get_object(Bucket=bucket, Key=key)["Body"].read(), "the metadata file is readable")
        files = self.object_files() - before
        call("DELETE", "/namespaces/ns/tables/dropped?purgeRequested=true")
        self.assertClientError("NoSuchBucket", self.s3.get_object, Bucket=bucket, Key=key)
        self.wait_until_gone(files, "a dropped table")


class FullWarehouseTests(WarehouseTestCase):
    server_args = ("--warehouse-s3", "full")

    def test_every_operation_is_served_with_warehouse_s3_full(self):
        """Except DeleteBucket: a warehouse goes away with its table, never on its own."""
        name, bucket, metadata_key = self.new_warehouse()
        keys = [o["Key"] for o in self.s3.list_objects_v2(Bucket=bucket)["Contents"]]
        self.assertEqual(keys, [metadata_key], "ListObjectsV2 lists the table's files")
        self.assertEqual([o["Key"] for o in self.s3.list_objects(Bucket=bucket)["Contents"]], keys,
                         "and so does ListObjects")
        self.s3.copy_object(Bucket=bucket, Key="copied", CopySource="general-purpose/source")
        self.s3.copy_object(Bucket="general-purpose", Key="copied-out", CopySource={"Bucket": bucket,
                                                                                      "Key": metadata_key})
        self.assertEqual(self.s3.head_bucket(Bucket=bucket)["ResponseMetadata"]["HTTPStatusCode"], 200,
                         "HeadBucket answers 200")
        self.s3.get_bucket_location(Bucket=bucket)
        self.s3.list_multipart_uploads(Bucket=bucket)
        self.s3.delete_object(Bucket=bucket, Key="copied")
        self.s3.delete_objects(Bucket=bucket, Delete={"Objects": [{"Key": "absent"}]})
        self.assertEqual([o["Key"] for o in self.s3.list_objects_v2(Bucket=bucket)["Contents"]], keys,
                         "what DeleteObject removed is gone")
        self.assertClientError("AccessDenied", self.s3.delete_bucket, Bucket=bucket)
        self.s3tables.delete_table(tableBucketARN=self.arn, namespace="ns", name=name)
        self.assertClientError("NoSuchBucket", self.s3.list_objects_v2, Bucket=bucket)


class EnvironmentTests(FloeTestCase):
    """FLOE_WAREHOUSE_S3 as the environment variable, and values start-up refuses."""

    @classmethod
    def setUpClass(cls):
        os.environ["FLOE_WAREHOUSE_S3"] = "full"
        try:
            super().setUpClass()
        finally:
            del os.environ["FLOE_WAREHOUSE_S3"]

    def test_floe_warehouse_s3_full_lifts_the_restriction(self):
        s3 = self.make_client("s3", s3={"addressing_style": "path"})
        self.addCleanup(s3.close)
        arn = self.s3tables.create_table_bucket(name="env-full")["arn"]
        self.s3tables.create_namespace(tableBucketARN=arn, namespace=["ns"])
        self.s3tables.create_table(tableBucketARN=arn, namespace="ns", name="t", format="ICEBERG")
        bucket = self.s3tables.get_table(tableBucketARN=arn, namespace="ns", name="t")["warehouseLocation"][5:]
        s3.put_object(Bucket=bucket, Key="k", Body=b"v")
        self.assertEqual([o["Key"] for o in s3.list_objects_v2(Bucket=bucket)["Contents"]], ["k"],
                         "with FLOE_WAREHOUSE_S3=full ListObjectsV2 lists a warehouse")

    def test_a_bad_value_stops_start_up_with_a_clear_message(self):
        cases = [(["--warehouse-s3", "everything"], {}, "--warehouse-s3 must be 'table' or 'full'"),
                 ([], {"FLOE_WAREHOUSE_S3": "yes"}, "FLOE_WAREHOUSE_S3 must be 'table' or 'full'")]
        for args, env, message in cases:
            with self.subTest(args=args, env=env):
                data_dir = FloeServer().data_dir
                self.addCleanup(lambda d=data_dir: __import__("shutil").rmtree(d, ignore_errors=True))
                proc = subprocess.run([FLOE_BIN, "serve", "--host", "127.0.0.1", "--port", str(free_port()),
                                       "--data-dir", data_dir] + args, env=dict(os.environ, **env),
                                      capture_output=True, text=True, timeout=30)
                self.assertNotEqual(proc.returncode, 0, "floe serve refuses to start")
                self.assertIn(message, proc.stderr, "and says which setting is wrong and what it accepts")

    def test_table_can_be_named_and_help_documents_the_flag(self):
        server = FloeServer("--warehouse-s3", "table").start()
        self.addCleanup(server.cleanup)
        self.assertIsNotNone(server.proc, "floe serve --warehouse-s3 table starts")
        proc = subprocess.run([FLOE_BIN, "serve", "--help"], capture_output=True, text=True, timeout=30)
        self.assertIn("--warehouse-s3", proc.stdout, "floe serve --help documents --warehouse-s3")

if __name__ == "__main__":
    main()

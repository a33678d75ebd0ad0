#!/usr/bin/python3
"""Tables end to end with the aws CLI and boto3: the S3 Tables quick start, Iceberg metadata
written into the warehouse and read back over S3, GetTable on both bindings, listing, renames,
the version-token compare-and-swap (and a race), deletes with their asynchronous cleanup, and
state that survives a restart."""

import concurrent.futures
import json
import os
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from floe_server import FloeTestCase, main  # noqa: E402

ACCOUNT = "000000000000"
SCHEMA = {"fields": [{"name": "id", "type": "long", "required": True},
                     {"name": "amount", "type": "decimal(10,2)"},
                     {"name": "day", "type": "date", "required": False}]}
REQUIRED_V2_FIELDS = ("format-version", "table-uuid", "location", "last-sequence-number", "last-updated-ms",
                      "last-column-id", "schemas", "current-schema-id", "partition-specs", "default-spec-id",
                      "last-partition-id", "sort-orders", "default-sort-order-id")


class TableTests(FloeTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.s3 = cls.make_client("s3")
        cls.arn = cls.s3tables.create_table_bucket(name="tables-home")["arn"]
        cls.s3tables.create_namespace(tableBucketARN=cls.arn, namespace=["sales"])

    def create(self, name, namespace="sales", metadata=None, **extra):
        kwargs = {"tableBucketARN": self.arn, "namespace": namespace, "name": name, "format": "ICEBERG"}
        if metadata is not None:
            kwargs["metadata"] = {"iceberg": metadata}
        kwargs.update(extra)
        return self.s3tables.create_table(**kwargs)

    def get(self, name, namespace="sales"):
        return self.s3tables.get_table(tableBucketARN=self.arn, namespace=namespace, name=name)

    def read_metadata(self, location):
        bucket, key = location[len("s3://"):].split("/", 1)
        return json.loads(self.s3.get_object(Bucket=bucket, Key=key)["Body"].read())

    # -- creation and the metadata file --------------------------------------------------------

    def test_quick_start_with_the_aws_cli(self):
        _, out, _ = self.aws("s3tables", "create-table-bucket", "--name", "analytics", "--query", "arn",
                             "--output", "text")
        arn = out.strip() if isinstance(out, str) else out
        self.aws("s3tables", "create-namespace", "--table-bucket-arn", arn, "--namespace", "sales")
        self.aws("s3tables", "create-table", "--table-bucket-arn", arn, "--namespace", "sales", "--name", "orders",
                 "--format", "ICEBERG", "--metadata",
                 '{"iceberg":{"schema":{"fields":[{"name":"id","type":"long","required":true}]}}}')
        _, loc, _ = self.aws("s3tables", "get-table-metadata-location", "--table-bucket-arn", arn, "--namespace",
                             "sales", "--name", "orders")
        self.assertRegex(loc["metadataLocation"], r"^s3://[0-9a-z-]+--table-s3/metadata/00000-[0-9a-f-]{36}\.metadata\.json$",
                         "the metadata file is metadata/00000-<uuid>.metadata.json in the warehouse")
        with tempfile.TemporaryDirectory() as tmp:
            dest = os.path.join(tmp, "m.json")
            self.aws("s3", "cp", loc["metadataLocation"], dest)
            with open(dest) as f:
                doc = json.load(f)
        self.assertEqual(doc["format-version"], 2, "the file is Iceberg format version 2")
        self.assertEqual(doc["schemas"][0]["fields"][0]["name"], "id", "it holds the schema the user gave")
        self.assertEqual(doc["location"], loc["warehouseLocation"], "its location is the warehouse")

    def test_metadata_file_is_complete_iceberg_v2(self):
        resp = self.create("complete", metadata={"schema": SCHEMA})
        table = self.get("complete")
        doc = self.read_metadata(table["metadataLocation"])
        for field in REQUIRED_V2_FIELDS:
            self.assertIn(field, doc, "metadata.json has the required field %s" % field)
        self.assertEqual(doc["snapshots"], [], "a new table has no snapshots")
        self.assertEqual(doc["refs"], {}, "a new table has no refs")
        self.assertEqual([f["id"] for f in doc["schemas"][0]["fields"]], [1, 2, 3], "field ids are assigned 1..n")
        self.assertEqual(doc["last-column-id"], 3, "last-column-id is the highest field id")
        self.assertEqual(doc["schemas"][0]["fields"][1]["type"], "decimal(10, 2)", "types are kept")
        self.assertEqual(table["versionToken"], resp["versionToken"], "GetTable shows CreateTable's version token")

    def test_partition_spec_and_write_order_are_written(self):
        self.create("partitioned", metadata={
            "schema": SCHEMA,
            "partitionSpec": {"fields": [{"sourceId": 3, "transform": "day", "name": "day_part"},
                                         {"sourceId": 1, "transform": "bucket[16]", "name": "id_bucket"}]},
            "writeOrder": {"orderId": 1, "fields": [{"sourceId": 1, "transform": "identity", "direction": "asc",
                                                      "nullOrder": "nulls-first"}]}})
        doc = self.read_metadata(self.get("partitioned")["metadataLocation"])
        spec = doc["partition-specs"][0]
        self.assertEqual([f["field-id"] for f in spec["fields"]], [1000, 1001], "partition field ids start at 1000")
        self.assertEqual(doc["last-partition-id"], 1001, "last-partition-id follows")
        order = [o for o in doc["sort-orders"] if o["order-id"] == doc["default-sort-order-id"]][0]
        self.assertEqual(order["fields"][0]["source-id"], 1, "the write order becomes the default sort order")

    def test_nested_schema_v2_gets_ids_for_every_field(self):
        self.create("nested", metadata={"schemaV2": {"type": "struct", "fields": [
            {"id": 1, "name": "id", "type": "long", "required": True},
            {"id": 2, "name": "point", "required": False, "type": {"type": "struct", "fields": [
                {"id": 3, "name": "x", "type": "double", "required": True},
                {"id": 4, "name": "y", "type": "double", "required": True}]}},
            {"id": 5, "name": "tags", "required": False,
             "type": {"type": "list", "element-id": 6, "element": "string", "element-required": False}}]}})
        doc = self.read_metadata(self.get("nested")["metadataLocation"])
        self.assertEqual(doc["last-column-id"], 6, "nested struct fields and list elements get ids too")

    def test_bad_metadata_is_bad_request(self):
        cases = {
            "bad type": {"schema": {"fields": [{"name": "a", "type": "varchar"}]}},
            "bad decimal": {"schema": {"fields": [{"name": "a", "type": "decimal(40,2)"}]}},
            "bad transform": {"schema": SCHEMA, "partitionSpec": {"fields": [
                {"sourceId": 1, "transform": "bucket[x]", "name": "b"}]}},
            "unknown source": {"schema": SCHEMA, "partitionSpec": {"fields": [
                {"sourceId": 99, "transform": "identity", "name": "b"}]}},
        }
        for label, metadata in cases.items():
            with self.subTest(case=label):
                self.assertClientError("BadRequestException", self.s3tables.create_table, tableBucketARN=self.arn,
                                       namespace="sales", name="bad_%s" % label.replace(" ", "_"), format="ICEBERG",
                                       metadata={"iceberg": metadata})
                self.assertClientError("NotFoundException", self.get, "bad_%s" % label.replace(" ", "_"))

    def test_nested_type_in_schema_points_to_schema_v2(self):
        for nested in ("struct<x:double>", '{"type":"struct","fields":[]}', "list<string>", "map<string,int>"):
            with self.subTest(type=nested):
                code, _, err = self.aws("s3tables", "create-table", "--table-bucket-arn", self.arn, "--namespace",
                                        "sales", "--name", "nested_in_schema", "--format", "ICEBERG", "--metadata",
                                        json.dumps({"iceberg": {"schema": {"fields": [
                                            {"name": "point", "type": nested}]}}}), expect_ok=False)
                self.assertNotEqual(code, 0, "a nested type in schema is refused")
                self.assertIn("BadRequestException", err, "as a bad request")
                self.assertIn("schemaV2", err, "the message says nested types go in schemaV2")
                self.assertNotIn("or a struct, list or map.", err,
                                 "the message does not offer a struct form that schema does not accept")
        self.assertClientError("NotFoundException", self.get, "nested_in_schema")

    def test_table_without_metadata_has_no_metadata_location(self):
        self.create("bare")
        table = self.get("bare")
        self.assertNotIn("metadataLocation", table, "without metadata no file is written and no location returned")
        self.assertRegex(table["warehouseLocation"], r"^s3://[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-z]{34}--table-s3$",
                         "the warehouse bucket is named like AWS's: <uuid prefix>-<random>--table-s3")
        self.assertLessEqual(len(table["warehouseLocation"]) - len("s3://"), 63, "a bucket name has at most 63 chars")

    def test_get_table_fields(self):
        resp = self.create("fields")
        table = self.get("fields")
        self.assertEqual(table["tableARN"], resp["tableARN"], "GetTable returns the ARN CreateTable gave")
        self.assertRegex(table["tableARN"], r"^arn:aws:s3tables:us-east-1:%s:bucket/tables-home/table/[0-9a-f-]{36}$"
                         % ACCOUNT, "a table ARN is the bucket ARN + /table/<uuid>")
        self.assertEqual((table["name"], table["namespace"], table["type"], table["format"]),
                         ("fields", ["sales"], "customer", "ICEBERG"), "name, namespace, type and format")
        self.assertEqual((table["createdBy"], table["ownerAccountId"]), (ACCOUNT,) * 2,
                         "created by and owned by the account")
        self.assertNotIn("modifiedBy", table, "a table never modified has no modifiedBy, as on AWS")
        self.assertEqual(table["modifiedAt"], table["createdAt"], "and was last modified when it was created")
        listed = self.s3tables.list_tables(tableBucketARN=self.arn, namespace="sales", prefix="fields")["tables"]
        self.assertNotIn("modifiedBy", listed[0], "ListTables has no modifiedBy either")
        time.sleep(0.01)  # a modification in a later millisecond than the creation
        self.s3tables.update_table_metadata_location(
            tableBucketARN=self.arn, namespace="sales", name="fields", versionToken=table["versionToken"],
            metadataLocation=table["warehouseLocation"] + "/metadata/00001-next.metadata.json")
        modified = self.get("fields")
        self.assertEqual(modified["modifiedBy"], ACCOUNT, "once modified, modifiedBy names the account")
        self.assertGreater(modified["modifiedAt"], modified["createdAt"], "and modifiedAt moves on")
        bucket = self.s3tables.get_table_bucket(tableBucketARN=self.arn)
        self.assertEqual(table["tableBucketId"], bucket["tableBucketId"], "tableBucketId is the bucket's")

    def test_get_table_by_arn_and_on_the_old_path(self):
        arn = self.create("by_arn")["tableARN"]
        self.assertEqual(self.s3tables.get_table(tableArn=arn)["name"], "by_arn", "GetTable takes a tableArn")
        from botocore.auth import SigV4Auth
        from botocore.awsrequest import AWSRequest
        path = "/tables/%s/sales/by_arn" % urllib.parse.quote(self.arn, safe="")
        req = AWSRequest(method="GET", url=self.server.endpoint + path)
        SigV4Auth(self.session.get_credentials(), "s3tables", "us-east-1").add_auth(req)
        with urllib.request.urlopen(urllib.request.Request(self.server.endpoint + path,
                                                           headers=dict(req.prepare().headers))) as r:
            self.assertEqual(json.loads(r.read())["tableARN"], arn, "the pre-2025-06 GET /tables/{arn}/{ns}/{name} works")
        self.assertClientError("BadRequestException", self.s3tables.get_table, tableArn=arn, tableBucketARN=self.arn,
                               namespace="sales", name="by_arn")
        self.assertClientError("BadRequestException", self.s3tables.get_table, tableBucketARN=self.arn)

    def test_names_and_conflicts(self):
        self.create("dupe")
        self.assertClientError("ConflictException", self.create, "dupe")
        for name in ("_leading", "trailing_", "Upper", "has-hyphen", "x" * 256):
            with self.subTest(name=name):
                self.assertClientError("BadRequestException", self.s3tables_unchecked.create_table,
                                       tableBucketARN=self.arn, namespace="sales", name=name, format="ICEBERG")
        self.assertClientError("BadRequestException", self.s3tables_unchecked.create_table, tableBucketARN=self.arn,
                               namespace="sales", name="fmt", format="PARQUET")
        self.assertClientError("NotFoundException", self.create, "orphan", namespace="nope")

    def test_namespace_with_tables_cannot_be_deleted(self):
        self.s3tables.create_namespace(tableBucketARN=self.arn, namespace=["busy"])
        self.create("keeps_it_busy", namespace="busy")
        self.assertClientError("ConflictException", self.s3tables.delete_namespace, tableBucketARN=self.arn,
                               namespace="busy")

    # -- listing --------------------------------------------------------------------------------

    def test_list_filters_and_pages(self):
        arn = self.s3tables.create_table_bucket(name="tables-list")["arn"]
        for ns in ("a", "b"):
            self.s3tables.create_namespace(tableBucketARN=arn, namespace=[ns])
            for i in range(3):
                self.s3tables.create_table(tableBucketARN=arn, namespace=ns, name="t%d" % i, format="ICEBERG")
        seen, token = [], None
        while True:
            kwargs = {"tableBucketARN": arn, "maxTables": 4}
            if token:
                kwargs["continuationToken"] = token
            resp = self.s3tables.list_tables(**kwargs)
            seen += [(t["namespace"][0], t["name"]) for t in resp["tables"]]
            token = resp.get("continuationToken")
            if not token:
                break
        self.assertEqual(seen, [(ns, "t%d" % i) for ns in ("a", "b") for i in range(3)],
                         "every table once, ordered by namespace then name, across pages")
        only_b = self.s3tables.list_tables(tableBucketARN=arn, namespace="b", prefix="t1")["tables"]
        self.assertEqual([(t["namespace"], t["name"]) for t in only_b], [(["b"], "t1")], "namespace and prefix filter")
        self.assertClientError("NotFoundException", self.s3tables.list_tables, tableBucketARN=arn, namespace="zz")
        summary = self.s3tables.list_tables(tableBucketARN=arn, maxTables=1)["tables"][0]
        for field in ("namespace", "name", "type", "tableARN", "createdAt", "modifiedAt", "namespaceId", "tableBucketId"):
            self.assertIn(field, summary, "a table summary has %s" % field)

    # -- renames --------------------------------------------------------------------------------

    def test_rename_keeps_arn_and_version_token(self):
        created = self.create("before", metadata={"schema": SCHEMA})
        self.s3tables.create_namespace(tableBucketARN=self.arn, namespace=["archive"])
        self.s3tables.rename_table(tableBucketARN=self.arn, namespace="sales", name="before", newName="after",
                                   newNamespaceName="archive")
        moved = self.get("after", "archive")
        self.assertEqual(moved["tableARN"], created["tableARN"], "the ARN survives a rename")
        self.assertEqual(moved["versionToken"], created["versionToken"], "the version token survives a rename")
        self.assertClientError("NotFoundException", self.get, "before")

    def test_rename_rules(self):
        token = self.create("ren")["versionToken"]
        self.create("taken")
        self.assertClientError("BadRequestException", self.s3tables.rename_table, tableBucketARN=self.arn,
                               namespace="sales", name="ren")
        self.assertClientError("ConflictException", self.s3tables.rename_table, tableBucketARN=self.arn,
                               namespace="sales", name="ren", newName="taken")
        self.assertClientError("ConflictException", self.s3tables.rename_table, tableBucketARN=self.arn,
                               namespace="sales", name="ren", newName="ren2", versionToken="stale")
        self.assertClientError("NotFoundException", self.s3tables.rename_table, tableBucketARN=self.arn,
                               namespace="sales", name="ren", newNamespaceName="nowhere")
        self.s3tables.rename_table(tableBucketARN=self.arn, namespace="sales", name="ren", newName="ren2",
                                   versionToken=token)
        self.assertEqual(self.get("ren2")["name"], "ren2", "a rename with the current token succeeds")

    # -- the compare-and-swap -------------------------------------------------------------------

    def test_update_metadata_location_is_a_compare_and_swap(self):
        self.create("cas", metadata={"schema": SCHEMA})
        table = self.get("cas")
        warehouse = table["warehouseLocation"]
        new = warehouse + "/metadata/00001-aaaa.metadata.json"
        resp = self.s3tables.update_table_metadata_location(tableBucketARN=self.arn, namespace="sales", name="cas",
                                                            versionToken=table["versionToken"], metadataLocation=new)
        self.assertNotEqual(resp["versionToken"], table["versionToken"], "a successful swap returns a new token")
        self.assertEqual((resp["name"], resp["namespace"], resp["metadataLocation"]), ("cas", ["sales"], new),
                         "the response names the table and its new location")
        self.assertEqual(self.s3tables.get_table_metadata_location(tableBucketARN=self.arn, namespace="sales",
                                                                   name="cas")["metadataLocation"], new,
                         "GetTableMetadataLocation shows the new location")
        self.assertClientError("ConflictException", self.s3tables.update_table_metadata_location,
                               tableBucketARN=self.arn, namespace="sales", name="cas",
                               versionToken=table["versionToken"], metadataLocation=new)
        for outside in ("s3://some-other-bucket/metadata/x.json", warehouse + "-evil/metadata/x.json", warehouse):
            with self.subTest(location=outside):
                self.assertClientError("BadRequestException", self.s3tables.update_table_metadata_location,
                                       tableBucketARN=self.arn, namespace="sales", name="cas",
                                       versionToken=resp["versionToken"], metadataLocation=outside)

    def test_racing_writers_on_one_token_exactly_one_wins(self):
        self.create("race")
        table = self.get("race")
        racers = 16
        clients = [self.make_client("s3tables") for _ in range(racers)]

        def attempt(i):
            try:
                clients[i].update_table_metadata_location(
                    tableBucketARN=self.arn, namespace="sales", name="race", versionToken=table["versionToken"],
                    metadataLocation="%s/metadata/%05d-x.metadata.json" % (table["warehouseLocation"], i))
                return "won"
            except Exception as exc:  # noqa: BLE001 - the error code is the result
                return exc.response["Error"]["Code"]

        with concurrent.futures.ThreadPoolExecutor(racers) as pool:
            results = list(pool.map(attempt, range(racers)))
        self.assertEqual(results.count("won"), 1, "exactly one of %d racers wins" % racers)
        self.assertEqual(results.count("ConflictException"), racers - 1, "every other racer gets ConflictException")

    # -- deletes --------------------------------------------------------------------------------

    def test_delete_removes_the_table_then_its_warehouse(self):
        self.create("doomed", metadata={"schema": SCHEMA})
        table = self.get("doomed")
        bucket = table["warehouseLocation"][len("s3://"):]
        self.s3.put_object(Bucket=bucket, Key="data/part-0.parquet", Body=b"x" * 1000)
        self.assertClientError("ConflictException", self.s3tables.delete_table, tableBucketARN=self.arn,
                               namespace="sales", name="doomed", versionToken="stale")
        resp = self.s3tables.delete_table(tableBucketARN=self.arn, namespace="sales", name="doomed",
                                          versionToken=table["versionToken"])
        self.assertEqual(resp["ResponseMetadata"]["HTTPStatusCode"], 204, "DeleteTable answers 204")
        self.assertClientError("NotFoundException", self.get, "doomed")
        self.assertTrue(self.wait_for_bucket_gone(bucket), "the warehouse bucket is removed in the background")

    def wait_for_bucket_gone(self, bucket, timeout_s=10):
        import botocore.exceptions
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            try:  # HeadBucket is not served on table storage; GetObject tells the bucket's absence apart
                self.s3.get_object(Bucket=bucket, Key="never-written")
            except botocore.exceptions.ClientError as exc:
                if exc.response["Error"]["Code"] == "NoSuchBucket":
                    return True
            time.sleep(0.1)
        return False

    def test_warehouse_is_reachable_over_s3_but_not_listed(self):
        self.create("reachable")
        bucket = self.get("reachable")["warehouseLocation"][len("s3://"):]
        self.s3.put_object(Bucket=bucket, Key="hello.txt", Body=b"hi")
        self.assertEqual(self.s3.get_object(Bucket=bucket, Key="hello.txt")["Body"].read(), b"hi",
                         "the warehouse bucket reads and writes over S3")
        self.assertNotIn(bucket, [b["Name"] for b in self.s3.list_buckets()["Buckets"]],
                         "ListBuckets does not list warehouse buckets, as on AWS")

    def test_tables_survive_a_restart(self):
        created = self.create("durable", metadata={"schema": SCHEMA})
        self.server.restart()
        table = self.get("durable")
        self.assertEqual((table["tableARN"], table["versionToken"]), (created["tableARN"], created["versionToken"]),
                         "ARN and version token are the same after a restart")
        self.assertEqual(self.read_metadata(table["metadataLocation"])["format-version"], 2,
                         "the metadata file is still readable after a restart")

    def test_pending_warehouse_deletion_resumes_after_a_crash(self):
        self.create("crashy")
        bucket = self.get("crashy")["warehouseLocation"][len("s3://"):]
        for i in range(50):
            self.s3.put_object(Bucket=bucket, Key="data/%03d" % i, Body=b"y")
        self.s3tables.delete_table(tableBucketARN=self.arn, namespace="sales", name="crashy")
        self.server.kill()
        self.server.start()
        self.assertTrue(self.wait_for_bucket_gone(bucket), "after a crash the queued warehouse is still removed")

    def test_orphaned_warehouse_is_removed_at_start_up(self):
        import contextlib
        import sqlite3
        self.create("keeps_its_warehouse")
        kept = self.get("keeps_its_warehouse")["warehouseLocation"][len("s3://"):]
        orphan = "0123abcd-0000-0000-orphanedwarehouse000000000000--table-s3"
        self.server.stop()  # the server holds its database exclusively while it runs
        with contextlib.closing(sqlite3.connect(os.path.join(self.server.data_dir, "floe.db"))) as db:
            db.execute("INSERT INTO s3_bucket (name, is_warehouse, created_at) VALUES (?, 1, 0)", (orphan,))
            db.commit()
        self.server.start()
        self.assertTrue(self.wait_for_bucket_gone(orphan),
                        "a warehouse no table references (a crash inside CreateTable) is removed at start-up")
        self.assertFalse(self.wait_for_bucket_gone(kept, timeout_s=0.5), "the table's own warehouse stays")

    def test_tags_on_tables(self):
        arn = self.create("tagged", tags={"team": "data"})["tableARN"]
        self.assertEqual(self.s3tables.list_tags_for_resource(resourceArn=arn)["tags"], {"team": "data"},
                         "tags given at creation are on the table")
        self.s3tables.tag_resource(resourceArn=arn, tags={"env": "test"})
        self.s3tables.untag_resource(resourceArn=arn, tagKeys=["team"])
        self.assertEqual(self.s3tables.list_tags_for_resource(resourceArn=arn)["tags"], {"env": "test"},
                         "TagResource and UntagResource work on table ARNs")


if __name__ == "__main__":
    main()

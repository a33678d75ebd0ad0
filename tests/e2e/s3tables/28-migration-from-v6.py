#!/usr/bin/python3
"""A data directory written by Floe before accounts and regions (schema version 6) opens in this
version and keeps its state under the server's default account and region: table buckets list
and answer there with ARNs in that scope, tables, their metadata, tags, configuration and
namespace properties read back, S3 objects read back and their bucket is the default account's,
and no other account or region sees any of it. Starting again is idempotent, also with other
defaults. The directory is rebuilt from fixtures/v6-data-dir/ (made by make-v6-data-dir.py with
the old binary): a SQL dump of its database and its object files."""

import datetime
import json
import os
import shutil
import sqlite3
import sys
import tempfile
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from floe_server import FloeServer, FloeTestCase, client_env, main  # noqa: E402

FIXTURE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fixtures", "v6-data-dir")
REGION, ACCOUNT = "eu-central-1", "123456789012"
SCOPE_ARGS = ("--region", REGION, "--account-id", ACCOUNT)
OLD_PREFIX = "arn:aws:s3tables:us-east-1:000000000000:bucket/"
NEW_PREFIX = "arn:aws:s3tables:%s:%s:bucket/" % (REGION, ACCOUNT)
OTHER_ACCOUNT = "111111111111"


def rebuild_data_dir():
    """A fresh data directory holding the fixture's database and object files."""
    data_dir = tempfile.mkdtemp(prefix="floe-e2e-v6-")
    db = sqlite3.connect(os.path.join(data_dir, "floe.db"))
    with open(os.path.join(FIXTURE, "floe.sql")) as f:
        db.executescript(f.read())
    db.close()
    shutil.copytree(os.path.join(FIXTURE, "objects"), os.path.join(data_dir, "objects"))
    return data_dir


def schema_version(data_dir):
    db = sqlite3.connect(os.path.join(data_dir, "floe.db"))
    try:
        return db.execute("SELECT version FROM schema_version").fetchone()[0]
    finally:
        db.close()


class MigrationFromV6Tests(FloeTestCase):
    @classmethod
    def setUpClass(cls):
        with open(os.path.join(FIXTURE, "expected.json")) as f:
            cls.old = json.load(f)
        cls.data_dir = rebuild_data_dir()
        cls.server = FloeServer(*SCOPE_ARGS, data_dir=cls.data_dir).start()
        os.environ.update(client_env(cls.server))
        import boto3
        import botocore.config
        cls.session = boto3.session.Session()
        cls.botocore_config = botocore.config.Config(retries={"max_attempts": 1})
        cls.clients = []

    @classmethod
    def tearDownClass(cls):
        for client in cls.clients:
            client.close()
        cls.server.cleanup()
        shutil.rmtree(cls.data_dir, ignore_errors=True)

    def client(self, service="s3tables", key="floe-test", region=REGION):
        import botocore.config
        config = self.botocore_config
        if service == "s3":
            config = config.merge(botocore.config.Config(s3={"addressing_style": "path"}))
        client = self.session.client(service, endpoint_url=self.server.endpoint, region_name=region,
                                     aws_access_key_id=key, aws_secret_access_key="secret", config=config)
        self.clients.append(client)
        return client

    def new_arn(self, old_arn):
        self.assertTrue(old_arn.startswith(OLD_PREFIX), "the fixture's ARNs are in the old default scope")
        return NEW_PREFIX + old_arn[len(OLD_PREFIX):]

    def check_state(self, s3tables, s3):
        """Everything the old server made, read back in the default scope (every test and restart)."""
        old_bucket = self.old["tableBucket"]
        listed = s3tables.list_table_buckets()["tableBuckets"]
        self.assertEqual([b["name"] for b in listed], ["legacy-bucket", "legacy-second"],
                         "the old table buckets list under the default account and region")
        arn = self.new_arn(old_bucket["arn"])
        self.assertEqual(listed[0]["arn"], arn, "the bucket's ARN carries the default region and account")
        bucket = s3tables.get_table_bucket(tableBucketARN=arn)
        self.assertEqual((bucket["tableBucketId"], bucket["ownerAccountId"]), (old_bucket["tableBucketId"], ACCOUNT),
                         "the bucket keeps its id and is owned by the default account")
        self.assertEqual(bucket["createdAt"].isoformat(sep=" "), old_bucket["createdAt"], "and keeps its createdAt")

        for name, old in self.old["tables"].items():
            table = s3tables.get_table(tableBucketARN=arn, namespace="sales", name=name)
            self.assertEqual(table["tableARN"], self.new_arn(old["tableARN"]),
                             "table %s keeps its id, under the default scope's ARN" % name)
            for field in ("versionToken", "metadataLocation", "warehouseLocation", "namespaceId", "tableBucketId"):
                self.assertEqual(table[field], old[field], "table %s keeps its %s" % (name, field))
            self.assertEqual(table["ownerAccountId"], ACCOUNT, "table %s is owned by the default account" % name)
            self.assertEqual(s3tables.get_table(tableArn=table["tableARN"])["name"], name,
                             "table %s is found by its new ARN" % name)
            location = urllib.parse.urlparse(table["metadataLocation"])
            doc = json.loads(s3.get_object(Bucket=location.netloc, Key=location.path[1:])["Body"].read())
            self.assertEqual(doc["location"], table["warehouseLocation"], "table %s's metadata file reads back" % name)
        self.assertNotIn("modifiedBy", s3tables.get_table(tableBucketARN=arn, namespace="sales", name="orders"),
                         "a table the old server never modified has no modifiedBy")
        self.assertEqual(s3tables.get_table(tableBucketARN=arn, namespace="sales", name="events")["modifiedBy"],
                         self.old["tables"]["events"]["modifiedBy"], "a table it modified keeps its modifiedBy")

        self.assertEqual(sorted(n["namespace"][0] for n in s3tables.list_namespaces(tableBucketARN=arn)
                                ["namespaces"]), self.old["namespaces"], "the namespaces are all there")
        self.assertEqual(s3tables.list_tags_for_resource(resourceArn=arn)["tags"], {"env": "legacy"},
                         "the bucket keeps its tags")
        orders_arn = self.new_arn(self.old["tables"]["orders"]["tableARN"])
        self.assertEqual(s3tables.list_tags_for_resource(resourceArn=orders_arn)["tags"], {"tier": "gold"},
                         "a table keeps its tags")
        self.assertEqual(s3tables.get_table_bucket_encryption(tableBucketARN=arn)["encryptionConfiguration"]
                         ["sseAlgorithm"], "aws:kms", "the bucket keeps its encryption configuration")

        data = self.old["dataFile"]
        self.assertEqual(s3.get_object(Bucket=data["bucket"], Key=data["key"])["Body"].read().decode(), data["body"],
                         "a data file written into a warehouse reads back")
        obj = self.old["object"]
        got = s3.get_object(Bucket=obj["bucket"], Key=obj["key"])
        self.assertEqual((got["Body"].read().decode(), got["Metadata"]), (obj["body"], obj["metadata"]),
                         "an S3 object reads back with its metadata")
        self.assertIn(obj["bucket"], [b["Name"] for b in s3.list_buckets()["Buckets"]],
                      "the old S3 bucket lists for the default account")

    def test_the_old_state_answers_in_the_default_scope(self):
        self.check_state(self.client(), self.client("s3"))
        self.check_state(self.client(key=ACCOUNT), self.client("s3", key=ACCOUNT))

    def test_the_iceberg_catalog_serves_the_old_tables_under_the_new_arn(self):
        prefix = urllib.parse.quote(self.new_arn(self.old["tableBucket"]["arn"]), safe="")
        base = "%s/_floe/iceberg/v1/%s" % (self.server.endpoint, prefix)
        with urllib.request.urlopen(base + "/namespaces/props", timeout=30) as r:
            self.assertEqual(json.loads(r.read())["properties"], {"owner": "ana"},
                             "a namespace keeps its Iceberg properties")
        with urllib.request.urlopen(base + "/namespaces/sales/tables/orders", timeout=30) as r:
            loaded = json.loads(r.read())
        self.assertEqual(loaded["metadata-location"], self.old["tables"]["orders"]["metadataLocation"],
                         "loadTable answers the old metadata location")

    def test_no_other_account_or_region_sees_the_old_state(self):
        arn = self.new_arn(self.old["tableBucket"]["arn"])
        for key, region in ((OTHER_ACCOUNT, REGION), ("floe-test", "us-east-1"), ("000000000000", "us-east-1")):
            with self.subTest(key=key, region=region):
                s3tables = self.client(key=key, region=region)
                self.assertEqual(s3tables.list_table_buckets()["tableBuckets"], [],
                                 "another scope (the old default us-east-1 and 000000000000 included) lists nothing")
                # Your own account's missing bucket is not found; another account's is access denied.
                caller = key if key.isdigit() else ACCOUNT
                for other in (arn, self.old["tableBucket"]["arn"]):
                    expected = "NotFoundException" if other.split(":")[4] == caller else "AccessDeniedException"
                    self.assertClientError(expected, s3tables.get_table_bucket, tableBucketARN=other)
        other_s3 = self.client("s3", key=OTHER_ACCOUNT)
        self.assertNotIn("legacy-objects", [b["Name"] for b in other_s3.list_buckets()["Buckets"]],
                         "another account's ListBuckets does not show the old S3 bucket")
        self.assertClientError("BucketAlreadyExists", other_s3.create_bucket, Bucket="legacy-objects",
                               CreateBucketConfiguration={"LocationConstraint": REGION})
        self.assertClientError("BucketAlreadyOwnedByYou", self.client("s3").create_bucket, Bucket="legacy-objects",
                               CreateBucketConfiguration={"LocationConstraint": REGION})

    def test_starting_again_is_idempotent_even_with_other_defaults(self):
        self.server.restart()
        self.check_state(self.client(), self.client("s3"))
        self.server.stop()
        migrated = schema_version(self.data_dir)
        self.assertGreaterEqual(migrated, 7, "the database migrated past schema 6, to accounts and regions (7)")
        moved = FloeServer("--region", "us-west-2", "--account-id", "999999999999", data_dir=self.data_dir)
        moved.port = self.server.port
        moved.start()
        try:
            self.assertEqual(self.client(region="us-west-2").list_table_buckets()["tableBuckets"], [],
                             "buckets adopted once stay where they went: the new defaults get none of them")
            self.check_state(self.client(key=ACCOUNT), self.client("s3", key=ACCOUNT))
        finally:
            moved.stop()
        self.assertEqual(schema_version(self.data_dir), migrated, "the schema version stays where it was")
        self.server.start()
        self.check_state(self.client(), self.client("s3"))


if __name__ == "__main__":
    main()

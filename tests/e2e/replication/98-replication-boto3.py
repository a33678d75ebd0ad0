#!/usr/bin/python3
"""Replication that copies, with boto3 in two accounts and two regions: the source
table bucket is in us-east-1 under one 12-digit key, the destination in eu-west-1 under another.
A table's configuration creates a read-only replica with the same namespace and name in the
destination, its own warehouse, metadata location and version token, and every later commit
follows within 200 ms. A destination that does not exist is failed with a message, and the source
is unaffected. Deleting the configuration stops replication and deleting the source leaves the
replica. With --threads 2, a commit made on either serving thread reaches the replica within 200 ms. replication/99-replication-engines.mjs writes rows with real Iceberg writers, reads the replica
with icebird and kills the server in the middle of replicating."""

import json
import os
import sys
import time
import urllib.error
import urllib.request
import uuid

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from floe_server import FloeTestCase, main  # noqa: E402

SOURCE = ("111111111111", "us-east-1")
DESTINATION = ("222222222222", "eu-west-1")
ROLE = "arn:aws:iam::111111111111:role/replication"
SCHEMA = {"fields": [{"name": "id", "type": "long", "required": True}]}
WAIT_S = 10
LAG_LIMIT_S = 0.2


def bucket_arn(scope, name):
    return "arn:aws:s3tables:%s:%s:bucket/%s" % (scope[1], scope[0], name)


def split_s3(url):
    bucket, _, key = url[len("s3://"):].partition("/")
    return bucket, key


class ReplicationHelpers(FloeTestCase):
    """Clients per account and region, tables, commits and status polls; no tests of its own."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.clients = {}

    @classmethod
    def tearDownClass(cls):
        for client in cls.clients.values():
            client.close()
        super().tearDownClass()

    def client(self, scope, service="s3tables"):
        """A boto3 client whose access key is the scope's account and whose region is its region."""
        import botocore.config
        key = (scope, service)
        if key not in self.clients:
            config = self.botocore_config
            if service == "s3":
                config = config.merge(botocore.config.Config(s3={"addressing_style": "path"}))
            self.clients[key] = self.session.client(
                service, endpoint_url=self.server.endpoint, region_name=scope[1], aws_access_key_id=scope[0],
                aws_secret_access_key="secret", config=config)
        return self.clients[key]

    def make_buckets(self):
        suffix = uuid.uuid4().hex[:8]
        src = self.client(SOURCE).create_table_bucket(name="source-" + suffix)["arn"]
        dst = self.client(DESTINATION).create_table_bucket(name="replica-" + suffix)["arn"]
        return src, dst

    def make_table(self, bucket, namespace="sales", name="orders"):
        s3tables = self.client(SOURCE)
        try:
            s3tables.create_namespace(tableBucketARN=bucket, namespace=[namespace])
        except s3tables.exceptions.ConflictException:
            pass
        s3tables.create_table(tableBucketARN=bucket, namespace=namespace, name=name, format="ICEBERG",
                              metadata={"iceberg": {"schema": SCHEMA}})
        return s3tables.get_table(tableBucketARN=bucket, namespace=namespace, name=name)

    def replicate(self, table_arn, *destinations):
        return self.client(SOURCE).put_table_replication(tableArn=table_arn, configuration={
            "role": ROLE, "rules": [{"destinations": [{"destinationTableBucketARN": d} for d in destinations]}]})

    def wait_status(self, table_arn, destination, status, location=None):
        """Polls GetTableReplicationStatus until the destination has `status` (and has replicated
        `location`, when given); returns the destination's entry and the seconds it took."""
        start = time.monotonic()
        entry = None
        while time.monotonic() - start < WAIT_S:
            out = self.client(SOURCE).get_table_replication_status(tableArn=table_arn)
            entry = next(d for d in out["destinations"] if d["destinationTableBucketArn"] == destination)
            last = entry.get("lastSuccessfulReplicatedUpdate", {}).get("metadataLocation")
            if entry["replicationStatus"] == status and (location is None or last == location):
                return entry, time.monotonic() - start
            time.sleep(0.005)
        self.fail("the destination did not become %s within %ds: %s" % (status, WAIT_S, entry))

    def commit(self, scope, bucket, table, change):
        """Writes the table's next metadata.json (the current one with `change` applied) into its
        warehouse over S3 and moves the pointer with UpdateTableMetadataLocation."""
        s3tables, s3 = self.client(scope), self.client(scope, "s3")
        current = s3tables.get_table_metadata_location(tableBucketARN=bucket, namespace="sales", name=table)
        wh, key = split_s3(current["metadataLocation"])
        md = json.loads(s3.get_object(Bucket=wh, Key=key)["Body"].read())
        change(md)
        new_key = "metadata/%05d-%s.metadata.json" % (int(key.split("/")[-1][:5]) + 1, uuid.uuid4())
        s3.put_object(Bucket=wh, Key=new_key, Body=json.dumps(md).encode())
        location = "s3://%s/%s" % (wh, new_key)
        s3tables.update_table_metadata_location(tableBucketARN=bucket, namespace="sales", name=table,
                                                versionToken=current["versionToken"], metadataLocation=location)
        return location

    def drop_connections(self):
        """Closes every client, so the next request opens a new connection (which --threads N
        spreads over the serving threads)."""
        for client in self.clients.values():
            client.close()
        self.clients.clear()


class ReplicationTests(ReplicationHelpers):
    def test_a_replica_appears_in_another_account_and_region_and_follows_commits(self):
        src, dst = self.make_buckets()
        table = self.make_table(src)
        self.assertEqual(self.replicate(table["tableARN"], dst)["status"], "pending")
        entry, _ = self.wait_status(table["tableARN"], dst, "completed", table["metadataLocation"])
        self.assertIn(":222222222222:", entry["destinationTableArn"], "the replica lives in the destination account")

        replica_client = self.client(DESTINATION)
        replica = replica_client.get_table(tableBucketARN=dst, namespace="sales", name="orders")
        self.assertEqual(replica["tableARN"], entry["destinationTableArn"], "the status names the replica")
        self.assertNotEqual(replica["warehouseLocation"], table["warehouseLocation"], "the replica has its own warehouse")
        self.assertTrue(replica["metadataLocation"].startswith(replica["warehouseLocation"] + "/"),
                        "the replica's metadata lies in its own warehouse")
        self.assertNotEqual(replica["versionToken"], table["versionToken"], "the replica has its own version token")
        self.assertEqual(replica["managedTableInformation"]["replicationInformation"]["sourceTableARN"],
                         table["tableARN"], "GetTable names the replica's source")
        wh, key = split_s3(replica["metadataLocation"])
        md = json.loads(self.client(DESTINATION, "s3").get_object(Bucket=wh, Key=key)["Body"].read())
        self.assertEqual(md["location"], replica["warehouseLocation"], "the replica's metadata.json names its warehouse")

        location = self.commit(SOURCE, src, "orders", lambda md: md.setdefault("properties", {}).update(k="v1"))
        _, lag = self.wait_status(table["tableARN"], dst, "completed", location)
        self.assertLess(lag, LAG_LIMIT_S, "a small commit reaches the replica within 200 ms")
        replica = replica_client.get_table(tableBucketARN=dst, namespace="sales", name="orders")
        wh, key = split_s3(replica["metadataLocation"])
        md = json.loads(self.client(DESTINATION, "s3").get_object(Bucket=wh, Key=key)["Body"].read())
        self.assertEqual(md["properties"].get("k"), "v1", "the second commit reached the replica")

    def test_a_replica_refuses_writes(self):
        src, dst = self.make_buckets()
        table = self.make_table(src)
        self.replicate(table["tableARN"], dst)
        self.wait_status(table["tableARN"], dst, "completed", table["metadataLocation"])
        replica_client = self.client(DESTINATION)
        replica = replica_client.get_table(tableBucketARN=dst, namespace="sales", name="orders")
        self.assertClientError("ForbiddenException", replica_client.update_table_metadata_location,
                               tableBucketARN=dst, namespace="sales", name="orders",
                               versionToken=replica["versionToken"], metadataLocation=replica["metadataLocation"])
        self.assertClientError("ForbiddenException", replica_client.rename_table, tableBucketARN=dst,
                               namespace="sales", name="orders", newName="renamed")
        self.assertEqual(replica_client.get_table(tableBucketARN=dst, namespace="sales", name="orders")["versionToken"],
                         replica["versionToken"], "a refused write changes nothing")
        request = urllib.request.Request(self.server.endpoint + "/_floe/maintenance/run", method="POST",
                                         data=json.dumps({"arn": replica["tableARN"],
                                                          "type": "icebergSnapshotManagement"}).encode())
        with self.assertRaises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=30)
        self.assertEqual(refused.exception.code, 400, "maintenance does not run on a replica, as on AWS")
        self.assertIn("replica", json.loads(refused.exception.read())["message"])

    def test_a_missing_destination_is_failed_and_the_source_is_unaffected(self):
        src, dst = self.make_buckets()
        table = self.make_table(src, name="returns")
        missing = bucket_arn(("333333333333", "eu-west-1"), "nobody-has-this")
        self.replicate(table["tableARN"], dst, missing)
        entry, _ = self.wait_status(table["tableARN"], missing, "failed")
        self.assertIn("does not exist", entry["failureMessage"], "the failure says why")
        self.wait_status(table["tableARN"], dst, "completed", table["metadataLocation"])
        location = self.commit(SOURCE, src, "returns", lambda md: md.setdefault("properties", {}).update(k="v2"))
        self.assertEqual(self.client(SOURCE).get_table(tableBucketARN=src, namespace="sales",
                                                       name="returns")["metadataLocation"], location,
                         "the source commits as before")

    def test_bucket_replication_covers_its_tables(self):
        src, dst = self.make_buckets()
        table = self.make_table(src, name="events")
        self.client(SOURCE).put_table_bucket_replication(tableBucketARN=src, configuration={
            "role": ROLE, "rules": [{"destinations": [{"destinationTableBucketARN": dst}]}]})
        self.wait_status(table["tableARN"], dst, "completed", table["metadataLocation"])
        later = self.make_table(src, name="later")
        self.wait_status(later["tableARN"], dst, "completed", later["metadataLocation"])

    def test_deleting_the_configuration_or_the_source_keeps_the_replica(self):
        src, dst = self.make_buckets()
        table = self.make_table(src, name="kept")
        self.replicate(table["tableARN"], dst)
        self.wait_status(table["tableARN"], dst, "completed", table["metadataLocation"])
        s3tables, replica_client = self.client(SOURCE), self.client(DESTINATION)
        token = s3tables.get_table_replication(tableArn=table["tableARN"])["versionToken"]
        s3tables.delete_table_replication(tableArn=table["tableARN"], versionToken=token)
        before = replica_client.get_table(tableBucketARN=dst, namespace="sales", name="kept")["metadataLocation"]
        self.commit(SOURCE, src, "kept", lambda md: md.setdefault("properties", {}).update(k="after"))
        time.sleep(0.3)
        self.assertEqual(replica_client.get_table(tableBucketARN=dst, namespace="sales", name="kept")["metadataLocation"],
                         before, "no commit is replicated once the configuration is deleted")
        s3tables.delete_table(tableBucketARN=src, namespace="sales", name="kept")
        wh, key = split_s3(before)
        self.assertEqual(json.loads(self.client(DESTINATION, "s3").get_object(Bucket=wh, Key=key)["Body"].read())
                         ["location"], "s3://" + wh, "the replica outlives its source")


class ReplicationWithThreadsTests(ReplicationHelpers):
    """With --threads 2 a commit may be made on either serving thread's SQLite connection, while
    the worker reads the queue through the first thread's: the worker is woken only once the
    commit is committed, so it never looks too early and waits for its next idle look."""

    server_args = ("--threads", "2")
    COMMITS = 12

    def test_every_commit_reaches_the_replica_within_200_ms_whichever_thread_commits_it(self):
        src, dst = self.make_buckets()
        table = self.make_table(src, name="threaded")
        self.replicate(table["tableARN"], dst)
        self.wait_status(table["tableARN"], dst, "completed", table["metadataLocation"])
        lags = []
        for i in range(self.COMMITS):
            self.drop_connections()
            location = self.commit(SOURCE, src, "threaded",
                                   lambda md, i=i: md.setdefault("properties", {}).update(k="v%d" % i))
            lags.append(self.wait_status(table["tableARN"], dst, "completed", location)[1])
        self.assertLess(max(lags), LAG_LIMIT_S,
                        "every small commit reaches the replica within 200 ms with --threads 2 (lags: %s)"
                        % ", ".join("%.0f ms" % (lag * 1000) for lag in lags))


if __name__ == "__main__":
    main()

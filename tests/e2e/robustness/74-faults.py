#!/usr/bin/python3
"""Fault injection: a disk that refuses a write, or cannot read a page back, costs the request a
500 in its service's shape and nothing else: nothing half-written becomes visible, the server
keeps serving, the same request succeeds once the disk is back, and the data directory opens
after a stop or a kill -9.

The server runs with tests/fault/fault_shim.c preloaded (after libasan in an ASan build). The
shim reads its rules from a control file the test rewrites while the server runs, e.g.

  db EIO                     every write and sync of floe.db and its WAL fails with EIO
  wal EIO after=K [times=1]  the first K writes/syncs of floe.db-wal pass, then every one fails
                             (or one only: a passing fault)
  objects ENOSPC             every write, copy and sync into an object file (tmp/obj-*) fails:
                             PutObject and UploadPart bytes, CompleteMultipartUpload's and
                             CopyObject's copies, and the metadata.json files CreateTable and an
                             Iceberg commit write into a warehouse
  db EIO reads after=K       the first K page reads of floe.db and its WAL pass, then all fail

Each check: the request answers 500 (S3 Tables: InternalServerErrorException with
x-amzn-ErrorType, in JSON; Iceberg REST: {"error": {"code": 500, ...}}; S3: InternalError XML),
the shim reports that it failed at least one call, /_floe/health answers 200, a read shows the
state before the request (the thing created does not exist, the table's metadata location and
token are unchanged, the object holds its old bytes, tmp/ is empty, no new object file), and the
same request then succeeds. The "at every write" and "at each page read" tests move the fault one
call further each time (after=0, 1, ...) until the request no longer meets it, so a fault lands
between every two writes (or reads) a request makes; read faults need SQLite's page cache cold,
so the server is killed and started before each. The restart test stops the server (SIGTERM,
and kill -9) after faults and with a fault still on, and checks that it opens the data
directory again with everything acknowledged intact.

FLOE_FAULT_SHIM names the shim (CTest sets it); without it the test skips (tests/e2e/run fails the
skip in CI). FLOE_FAULT_SWEEP=all gives every S3 Tables Get and List operation a read fault at each
of its page reads (the suite sweeps the table operations).
"""

import contextlib
import hashlib
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.error
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from floe_server import FLOE_BIN, FloeServer, FloeTestCase, client_env, main  # noqa: E402

SHIM = os.environ.get("FLOE_FAULT_SHIM", os.path.join(os.environ.get("FLOE_BUILD_DIR", ""), "tests",
                                                      "libfloe_fault_shim.so"))
SHIM_MARK = b"floe-fault-shim:"
ICEBERG = "/_floe/iceberg"
MAX_WRITES = 60          # "at every write" gives up after this many fault positions
SCHEMA_S3TABLES = {"fields": [{"name": "id", "type": "long", "required": True}]}
SCHEMA_REST = {"type": "struct", "fields": [{"id": 1, "name": "id", "type": "long", "required": True}]}
MIB = 1024 * 1024
LOG_WAIT_S = 5           # how long a request's log line may lag its answer
# Table operations whose every page read gets a fault of its own (each position costs a restart);
# FLOE_FAULT_SWEEP=all sweeps every Get and List operation instead.
SWEPT_TABLE_READS = ("GetTable", "GetTableMetadataLocation", "GetTablePolicy", "GetTableMaintenanceConfiguration",
                     "GetTableEncryption", "GetTableStorageClass", "GetTableMaintenanceJobStatus", "ListTables")


def md5_hex(data):
    return hashlib.md5(data).hexdigest()


def asan_runtime():
    """The libasan floe links, which must come first in LD_PRELOAD, or None (a release build)."""
    out = subprocess.run(["ldd", FLOE_BIN], capture_output=True, text=True).stdout
    m = re.search(r"^\s*libasan\S*\s+=>\s+(\S+)", out, re.M)
    return m.group(1) if m else None


class FaultyServer(FloeServer):
    """A FloeServer with the shim preloaded and its own control file (initially: no faults)."""

    def __init__(self, *extra_args, **kw):
        super().__init__(*extra_args, **kw)
        self.control_dir = tempfile.mkdtemp(prefix="floe-fault-")
        self.control = os.path.join(self.control_dir, "control")
        self.control_mtime_ns = time.time_ns()
        self.set_rules()

    def set_rules(self, *rules):
        """Replaces the shim's rules. The shim notices a change by the file's size, inode and
        mtime; the mtime is set by hand, always later, so two writes inside one tick of the file
        system's clock are told apart."""
        tmp = self.control + ".tmp"
        with open(tmp, "w") as f:
            f.write("".join(r + "\n" for r in rules))
        self.control_mtime_ns = max(self.control_mtime_ns + 1000, time.time_ns())
        os.utime(tmp, ns=(self.control_mtime_ns, self.control_mtime_ns))
        os.replace(tmp, self.control)

    def start(self):
        preload = [p for p in (asan_runtime(), SHIM) if p]
        saved = {k: os.environ.get(k) for k in ("LD_PRELOAD", "FLOE_FAULT_CONTROL")}
        os.environ.update(LD_PRELOAD=" ".join(preload), FLOE_FAULT_CONTROL=self.control)
        try:
            return super().start()
        finally:  # only the server is preloaded, never the test's own clients
            for k, v in saved.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v

    def log_size(self):
        return os.path.getsize(self.log_path)

    def log_since(self, offset):
        with open(self.log_path, "rb") as f:
            f.seek(offset)
            return f.read().decode("utf-8", "replace")

    def wait_for_log(self, offset, pattern):
        """(the log since offset, the first match of pattern in it, or None after LOG_WAIT_S): a
        request's log line may follow its answer by a moment."""
        deadline = time.monotonic() + LOG_WAIT_S
        while True:
            log = self.log_since(offset)
            match = re.search(pattern, log, re.M)
            if match is not None or time.monotonic() > deadline:
                return log, match
            time.sleep(0.01)

    def n_injected(self):
        """How many calls the shim has failed in this server's log (all its runs)."""
        try:
            with open(self.log_path, "rb") as f:
                return f.read().count(SHIM_MARK)
        except OSError:
            return 0

    def cleanup(self):
        super().cleanup()
        shutil.rmtree(self.control_dir, ignore_errors=True)


class FaultTestCase(FloeTestCase):
    """One preloaded server per class, clients that never retry, and the fault checks."""

    # The checks list every object of a table's warehouse to prove nothing half-written is left,
    # which AWS (and Floe by default) refuses on table storage: the debugging escape allows it.
    server_args = ("--warehouse-s3", "full")

    @classmethod
    def setUpClass(cls):
        # FloeTestCase.setUpClass, with a FaultyServer and no client retries: a retried 500 would
        # hide which request answered what.
        if not os.path.exists(SHIM):
            raise unittest.SkipTest("the fault shim is not built (%s)" % SHIM)
        cls.server = FaultyServer(*cls.server_args).start()
        os.environ.update(client_env(cls.server))
        import boto3
        import botocore.config
        cls.session = boto3.session.Session()
        cls.botocore_config = botocore.config.Config(retries={"mode": "standard", "total_max_attempts": 1})
        cls.s3tables = cls.make_client("s3tables")
        cls.s3 = cls.make_client("s3", s3={"addressing_style": "path"})

    @classmethod
    def tearDownClass(cls):
        cls.s3tables.close()
        cls.s3.close()
        super().tearDownClass()

    # -- faults ---------------------------------------------------------------------------------

    @contextlib.contextmanager
    def fault(self, *rules):
        """Rules on inside the block; off after it, and the shim must have failed some call."""
        before = self.server.n_injected()
        self.server.set_rules(*rules)
        try:
            yield
        finally:
            self.server.set_rules()
        self.assertGreater(self.server.n_injected(), before, "the fault (%s) really failed a call" % "; ".join(rules))

    def at_every_write(self, rule, request, unchanged, what, once=False):
        """Runs request(k) with the k-th write (from 0) to the rule's files failing, for k = 0, 1, ...
        With once only that write fails (a passing fault), and the sweep ends when a request
        makes no k-th write; otherwise it and every later write fail, and the sweep ends when a
        request succeeds. request(k) returns (True, result), or (False, None) after checking its
        500; after each failure unchanged(k) checks that none of it is visible. Positions count
        every writer's writes: the janitor, in the background, may take one, so a request can
        succeed with the shim's fault spent elsewhere ("survived"). Returns the number of
        positions that failed the request."""
        n_failed = n_survived = 0
        for k in range(MAX_WRITES):
            before = self.server.n_injected()
            self.server.set_rules("%s after=%d%s" % (rule, k, " times=1" if once else ""))
            try:
                is_ok, _ = request(k)
            finally:
                self.server.set_rules()
            is_fired = self.server.n_injected() > before
            if is_ok and (not is_fired or not once):
                break
            if is_ok:
                n_survived += 1
                continue
            self.assertTrue(is_fired, "%s fails only where the fault fired" % what)
            n_failed += 1
            self.assertServing("%s with write %d failing" % (what, k))
            unchanged(k)
        else:
            self.fail("%s still fails with its first %d writes let through" % (what, MAX_WRITES))
        self.assertGreater(n_failed, 0, "%s writes to the faulted files at all" % what)
        print("figures: faults: %s: a %s fault at each of %d calls (%s) failed it, %d survived" % (
            what, "one-off" if once else "lasting", n_failed, rule, n_survived), file=sys.stderr)
        return n_failed

    # -- shapes ---------------------------------------------------------------------------------

    def attempt(self, check, what, fn, *args, **kwargs):
        """(True, fn's result), or (False, None) once check(what, response) has checked the error."""
        import botocore.exceptions
        try:
            return True, fn(*args, **kwargs)
        except botocore.exceptions.ClientError as exc:
            check(what, exc.response)
            return False, None

    def assertS3TablesInternal(self, what, fn, *args, **kwargs):
        return self.checkS3TablesInternal(what, self.assertClientError("InternalServerErrorException", fn, *args,
                                                                       **kwargs))

    def checkS3TablesInternal(self, what, response):
        self.assertEqual(response["Error"]["Code"], "InternalServerErrorException",
                         "%s answers InternalServerErrorException" % what)
        meta = response["ResponseMetadata"]
        self.assertEqual(meta["HTTPStatusCode"], 500, "%s answers 500" % what)
        self.assertTrue(meta["HTTPHeaders"].get("x-amzn-errortype", "").startswith("InternalServerErrorException"),
                        "%s names InternalServerErrorException in x-amzn-ErrorType" % what)
        self.assertIn("json", meta["HTTPHeaders"].get("content-type", ""), "%s answers in JSON" % what)
        self.assertTrue(response["Error"].get("Message"), "%s says something in its message" % what)
        return response

    def assertS3Internal(self, what, fn, *args, **kwargs):
        return self.checkS3Internal(what, self.assertClientError("InternalError", fn, *args, **kwargs))

    def checkS3Internal(self, what, response):
        self.assertEqual(response["Error"]["Code"], "InternalError", "%s answers InternalError" % what)
        meta = response["ResponseMetadata"]
        self.assertEqual(meta["HTTPStatusCode"], 500, "%s answers 500" % what)
        self.assertIn("xml", meta["HTTPHeaders"].get("content-type", ""), "%s answers S3's XML <Error>" % what)
        return response

    def assertRestInternal(self, what, response):
        status, headers, body = response
        self.assertEqual(status, 500, "%s answers 500 (got %d: %s)" % (what, status, body))
        self.assertIn("application/json", headers.get("content-type", ""), "%s answers in JSON" % what)
        self.assertIsInstance(body, dict, "%s answers the REST error model" % what)
        self.assertEqual(set(body), {"error"}, "%s answers {\"error\": ...}" % what)
        self.assertEqual(body["error"].get("code"), 500, "%s's error has code 500" % what)
        self.assertTrue(body["error"].get("type") and body["error"].get("message"),
                        "%s's error has a type and a message" % what)

    def assertServing(self, what):
        with urllib.request.urlopen(self.server.endpoint + "/_floe/health", timeout=10) as r:
            self.assertEqual(r.status, 200, "after %s the server answers /_floe/health" % what)

    def assertNoTempFiles(self, what):
        self.assertEqual(os.listdir(os.path.join(self.server.data_dir, "tmp")), [],
                         "%s leaves no partial object file in tmp/" % what)

    def object_files(self):
        return {n for _, _, names in os.walk(os.path.join(self.server.data_dir, "objects")) for n in names}

    def n_unqueued_warehouses(self):
        """Warehouse buckets no table names and the janitor has not queued (server stopped: it
        holds the database exclusively)."""
        with contextlib.closing(sqlite3.connect(os.path.join(self.server.data_dir, "floe.db"))) as db:
            return db.execute("SELECT count(*) FROM s3_bucket WHERE is_warehouse = 1"
                              " AND name NOT IN (SELECT warehouse_bucket FROM s3table)"
                              " AND name NOT IN (SELECT bucket FROM warehouse_deletion)").fetchone()[0]

    def unqueued_warehouses_now(self):
        """n_unqueued_warehouses of the running server: it stops for the count (no start-up in
        between, which would queue them) and starts again."""
        self.server.stop()
        try:
            return self.n_unqueued_warehouses()
        finally:
            self.server.start()

    def check_stopped(self, what):
        """With the server stopped after a start: SQLite intact, and every warehouse bucket belongs
        to a table or is queued for the janitor (a CreateTable refused after its warehouse was made
        must not leak it past the next start)."""
        with contextlib.closing(sqlite3.connect(os.path.join(self.server.data_dir, "floe.db"))) as db:
            self.assertEqual(db.execute("PRAGMA integrity_check").fetchall(), [("ok",)],
                             "%s: SQLite's integrity check passes" % what)
        self.assertEqual(self.n_unqueued_warehouses(), 0,
                         "%s: no warehouse bucket is left without a table or a queue entry" % what)

    # -- Iceberg REST ---------------------------------------------------------------------------

    @classmethod
    def rest(cls, method, path, body=None):
        url = cls.server.endpoint + ICEBERG + path
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(url, data=data, method=method,
                                     headers={"content-type": "application/json"} if data else {})
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                status, headers, raw = r.status, r.headers, r.read()
        except urllib.error.HTTPError as e:
            with e:
                status, headers, raw = e.code, e.headers, e.read()
        try:
            return status, headers, json.loads(raw) if raw else None
        except ValueError:
            return status, headers, raw


class S3TablesFaultTests(FaultTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.arn = cls.s3tables.create_table_bucket(name="faults")["arn"]
        cls.s3tables.create_namespace(tableBucketARN=cls.arn, namespace=["ns"])

    def bucket_names(self):
        return {b["name"] for b in self.s3tables.list_table_buckets()["tableBuckets"]}

    def table_names(self, namespace="ns"):
        return {t["name"] for t in self.s3tables.list_tables(tableBucketARN=self.arn, namespace=namespace)["tables"]}

    def create_table(self, name, **kw):
        return self.s3tables.create_table(tableBucketARN=self.arn, namespace="ns", name=name, format="ICEBERG",
                                          metadata={"iceberg": {"schema": SCHEMA_S3TABLES}}, **kw)

    def get_table(self, name):
        return self.s3tables.get_table(tableBucketARN=self.arn, namespace="ns", name=name)

    def assertTableAbsent(self, name, what):
        self.assertNotIn(name, self.table_names(), "%s leaves no table in the listing" % what)
        self.assertClientError("NotFoundException", self.get_table, name)

    def test_create_table_bucket_on_a_failing_database(self):
        for error in ("EIO", "ENOSPC"):
            with self.subTest(error=error):
                name = "made-on-%s" % error.lower()
                with self.fault("db " + error):
                    self.assertS3TablesInternal("CreateTableBucket", self.s3tables.create_table_bucket, name=name)
                self.assertServing("a failed CreateTableBucket")
                self.assertNotIn(name, self.bucket_names(), "a failed CreateTableBucket leaves no bucket")
                arn = self.s3tables.create_table_bucket(name=name)["arn"]
                self.assertEqual(self.s3tables.get_table_bucket(tableBucketARN=arn)["name"], name,
                                 "CreateTableBucket succeeds once the disk is back")

    def test_create_namespace_on_a_failing_database(self):
        with self.fault("db EIO"):
            self.assertS3TablesInternal("CreateNamespace", self.s3tables.create_namespace,
                                        tableBucketARN=self.arn, namespace=["late"])
        self.assertServing("a failed CreateNamespace")
        self.assertClientError("NotFoundException", self.s3tables.get_namespace, tableBucketARN=self.arn,
                               namespace="late")
        self.s3tables.create_namespace(tableBucketARN=self.arn, namespace=["late"])
        self.assertEqual(self.s3tables.get_namespace(tableBucketARN=self.arn, namespace="late")["namespace"], ["late"],
                         "CreateNamespace succeeds once the disk is back")

    def test_create_table_on_a_failing_database(self):
        with self.fault("db EIO"):
            self.assertS3TablesInternal("CreateTable", self.create_table, "on_failing_db")
        self.assertServing("a failed CreateTable")
        self.assertTableAbsent("on_failing_db", "a CreateTable the database refused")
        self.create_table("on_failing_db")
        self.assertTrue(self.get_table("on_failing_db")["metadataLocation"],
                        "CreateTable succeeds once the disk is back")

    def test_create_table_whose_metadata_file_cannot_be_written(self):
        for error in ("ENOSPC", "EIO"):
            with self.subTest(error=error):
                name = "no_room_%s" % error.lower()
                with self.fault("objects " + error):
                    self.assertS3TablesInternal("CreateTable", self.create_table, name)
                self.assertServing("a CreateTable whose metadata file failed")
                self.assertTableAbsent(name, "a CreateTable whose metadata file failed")
                self.assertNoTempFiles("a CreateTable whose metadata file failed")
                location = self.create_table(name) and self.get_table(name)["metadataLocation"]
                bucket, key = location[len("s3://"):].split("/", 1)
                doc = json.loads(self.s3.get_object(Bucket=bucket, Key=key)["Body"].read())
                self.assertEqual(doc["format-version"], 2, "the retried CreateTable's metadata file reads back whole")

    def test_create_table_with_a_fault_at_every_database_write(self):
        def unchanged(k):
            self.assertTableAbsent("every_write", "a CreateTable failed at database write %d" % k)
            self.assertNoTempFiles("a CreateTable failed at database write %d" % k)
        self.at_every_write("wal EIO", lambda k: self.attempt(self.checkS3TablesInternal, "CreateTable",
                                                              self.create_table, "every_write"),
                            unchanged, "CreateTable")
        self.assertTrue(self.get_table("every_write")["metadataLocation"], "the table exists after the last try")
        # A CreateTable refused after its warehouse committed cannot queue that warehouse for the
        # janitor while the database refuses writes; the next start does (fix 9 of reliability.md).
        self.server.stop()
        try:
            print("figures: faults: %d warehouse buckets of refused CreateTables wait for the next start" %
                  self.n_unqueued_warehouses(), file=sys.stderr)
            self.server.restart()
            self.server.stop()
            self.check_stopped("a restart after CreateTable failed at every database write")
        finally:
            self.server.start()
        self.assertTrue(self.get_table("every_write")["metadataLocation"], "the table is still there after restarts")

    def test_create_table_with_a_one_off_fault_at_each_database_write(self):
        """A passing fault (one write fails, the next ones succeed) lets the refused CreateTable
        hand its warehouse to the janitor at once, as note 2 of handlers/s3tables/table.c draws it."""
        def request(k):
            return self.attempt(self.checkS3TablesInternal, "CreateTable", self.create_table, "once_%d" % k)

        def unchanged(k):
            self.assertTableAbsent("once_%d" % k, "a CreateTable refused by a one-off fault at database write %d" % k)
            self.assertNoTempFiles("a CreateTable refused by a one-off fault at database write %d" % k)

        before = self.unqueued_warehouses_now()
        self.at_every_write("wal EIO", request, unchanged, "CreateTable", once=True)
        self.assertEqual(self.unqueued_warehouses_now() - before, 0,
                         "a CreateTable refused by a passing database fault queues its warehouse for the janitor, "
                         "without waiting for a restart")

    def test_update_table_metadata_location_on_a_failing_database(self):
        self.create_table("swapped")
        before = self.get_table("swapped")
        new = before["warehouseLocation"] + "/metadata/00001-after-fault.metadata.json"
        swap = dict(tableBucketARN=self.arn, namespace="ns", name="swapped", versionToken=before["versionToken"],
                    metadataLocation=new)
        with self.fault("db EIO"):
            self.assertS3TablesInternal("UpdateTableMetadataLocation", self.s3tables.update_table_metadata_location,
                                        **swap)
        self.assertServing("a failed UpdateTableMetadataLocation")
        after = self.get_table("swapped")
        self.assertEqual((after["metadataLocation"], after["versionToken"]),
                         (before["metadataLocation"], before["versionToken"]),
                         "a failed swap leaves the table's metadata location and version token unchanged")
        result = self.s3tables.update_table_metadata_location(**swap)
        self.assertEqual(self.get_table("swapped")["metadataLocation"], new,
                         "the same swap, with the same token, succeeds once the disk is back")
        self.assertNotEqual(result["versionToken"], before["versionToken"], "and returns a new token")

    def test_delete_table_on_a_failing_database(self):
        self.create_table("kept")
        before = self.get_table("kept")
        with self.fault("db EIO"):
            self.assertS3TablesInternal("DeleteTable", self.s3tables.delete_table, tableBucketARN=self.arn,
                                        namespace="ns", name="kept", versionToken=before["versionToken"])
        self.assertServing("a failed DeleteTable")
        self.assertEqual(self.get_table("kept")["versionToken"], before["versionToken"],
                         "a failed DeleteTable leaves the table as it was")
        self.s3tables.delete_table(tableBucketARN=self.arn, namespace="ns", name="kept",
                                   versionToken=before["versionToken"])
        self.assertTableAbsent("kept", "a DeleteTable retried once the disk is back")


class IcebergRestFaultTests(FaultTestCase):
    server_args = ("--threads", "2", "--warehouse-s3", "full")

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.arn = cls.s3tables.create_table_bucket(name="rest-faults")["arn"]
        cls.prefix = "/v1/" + urllib.parse.quote(cls.arn, safe="")
        status, _, body = cls.rest("POST", cls.prefix + "/namespaces", {"namespace": ["ns"]})
        assert status == 200, body

    def ok(self, response, what):
        self.assertEqual(response[0], 200, "%s answers 200: %s" % (what, response[2]))
        return response[2]

    def create_table(self, name):
        return self.rest("POST", self.prefix + "/namespaces/ns/tables", {"name": name, "schema": SCHEMA_REST})

    def load(self, name):
        return self.rest("GET", self.prefix + "/namespaces/ns/tables/" + name)

    def commit(self, name, properties):
        return self.rest("POST", self.prefix + "/namespaces/ns/tables/" + name,
                         {"requirements": [], "updates": [{"action": "set-properties", "updates": properties}]})

    def warehouse_keys(self, location):
        bucket = location[len("s3://"):].split("/", 1)[0]
        return {o["Key"] for o in self.s3.list_objects_v2(Bucket=bucket).get("Contents", [])}

    def test_create_namespace_on_a_failing_database(self):
        with self.fault("db EIO"):
            self.assertRestInternal("createNamespace", self.rest("POST", self.prefix + "/namespaces",
                                                                 {"namespace": ["late"]}))
        self.assertServing("a failed createNamespace")
        self.assertEqual(self.rest("GET", self.prefix + "/namespaces/late")[0], 404,
                         "a failed createNamespace leaves no namespace")
        self.ok(self.rest("POST", self.prefix + "/namespaces", {"namespace": ["late"]}), "createNamespace retried")
        self.ok(self.rest("GET", self.prefix + "/namespaces/late"), "the namespace")

    def test_create_table_on_failing_writes(self):
        for rule in ("db EIO", "objects ENOSPC"):
            with self.subTest(rule=rule):
                name = "made_" + rule.split()[0]
                with self.fault(rule):
                    self.assertRestInternal("createTable", self.create_table(name))
                self.assertServing("a failed createTable")
                self.assertEqual(self.load(name)[0], 404, "a failed createTable leaves no table")
                self.assertNoTempFiles("a failed createTable")
                self.ok(self.create_table(name), "createTable retried")

    def test_commit_on_failing_writes(self):
        location = self.ok(self.create_table("committed"), "createTable")["metadata-location"]
        for n, rule in enumerate(("db EIO", "objects ENOSPC", "objects EIO")):
            with self.subTest(rule=rule):
                keys = self.warehouse_keys(location)
                key = "try%d" % n
                with self.fault(rule):
                    self.assertRestInternal("a commit", self.commit("committed", {key: "yes"}))
                self.assertServing("a failed commit")
                loaded = self.ok(self.load("committed"), "loadTable")
                self.assertEqual(loaded["metadata-location"], location,
                                 "a failed commit leaves the table's metadata location unchanged")
                self.assertNotIn(key, loaded["metadata"].get("properties", {}), "and its metadata unchanged")
                self.assertEqual(self.warehouse_keys(location), keys,
                                 "a failed commit leaves no new file in the warehouse")
                self.assertNoTempFiles("a failed commit")
                location = self.ok(self.commit("committed", {key: "yes"}), "the commit retried")["metadata-location"]
                self.assertEqual(self.ok(self.load("committed"), "loadTable")["metadata"]["properties"].get(key), "yes",
                                 "the retried commit is what loadTable reads")

    def test_commit_with_a_fault_at_every_database_write(self):
        location = self.ok(self.create_table("every_write"), "createTable")["metadata-location"]

        def request(k):
            response = self.commit("every_write", {"k": "v"})
            if response[0] != 200:
                self.assertRestInternal("a commit with a failing write", response)
            return response[0] == 200, response[2]

        def unchanged(k):
            loaded = self.ok(self.load("every_write"), "loadTable")
            self.assertEqual(loaded["metadata-location"], location,
                             "a commit failed at database write %d leaves the metadata location unchanged" % k)
            self.assertNoTempFiles("a commit failed at database write %d" % k)

        self.at_every_write("wal EIO", request, unchanged, "a commit")
        loaded = self.ok(self.load("every_write"), "loadTable")
        self.assertNotEqual(loaded["metadata-location"], location, "the last commit moved the table on")
        self.assertEqual(loaded["metadata"]["properties"].get("k"), "v", "to the committed metadata")


class S3FaultTests(FaultTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.s3.create_bucket(Bucket="fault-objects")

    def put(self, key, body, bucket="fault-objects"):
        return self.s3.put_object(Bucket=bucket, Key=key, Body=body)

    def read(self, key):
        return self.s3.get_object(Bucket="fault-objects", Key=key)["Body"].read()

    def assertObjectAbsent(self, key, what):
        self.assertClientError("NoSuchKey", self.s3.get_object, Bucket="fault-objects", Key=key)
        listed = [o["Key"] for o in self.s3.list_objects_v2(Bucket="fault-objects", Prefix=key).get("Contents", [])]
        self.assertNotIn(key, listed, "%s leaves no object in the listing" % what)

    def test_create_bucket_on_a_failing_database(self):
        with self.fault("db EIO"):
            self.assertS3Internal("CreateBucket", self.s3.create_bucket, Bucket="late-bucket")
        self.assertServing("a failed CreateBucket")
        self.assertNotIn("late-bucket", [b["Name"] for b in self.s3.list_buckets()["Buckets"]],
                         "a failed CreateBucket leaves no bucket")
        self.s3.create_bucket(Bucket="late-bucket")
        self.s3.head_bucket(Bucket="late-bucket")

    def test_put_object_whose_bytes_cannot_be_written(self):
        body = os.urandom(300 * 1024)
        for error in ("ENOSPC", "EIO"):
            with self.subTest(error=error):
                key = "no-room/%s" % error
                files = self.object_files()
                with self.fault("objects " + error):
                    self.assertS3Internal("PutObject", self.put, key, body)
                self.assertServing("a failed PutObject")
                self.assertObjectAbsent(key, "a PutObject whose bytes failed")
                self.assertNoTempFiles("a PutObject whose bytes failed")
                self.assertEqual(self.object_files(), files, "a failed PutObject publishes no object file")
                self.put(key, body)
                self.assertEqual(md5_hex(self.read(key)), md5_hex(body), "PutObject succeeds once the disk is back")

    def test_put_object_on_a_failing_database(self):
        files = self.object_files()
        with self.fault("db EIO"):
            self.assertS3Internal("PutObject", self.put, "db/failing", b"bytes that never get a row")
        self.assertServing("a PutObject whose row failed")
        self.assertObjectAbsent("db/failing", "a PutObject whose row failed")
        self.assertEqual(self.object_files(), files, "a PutObject whose row failed leaves no object file behind")
        self.put("db/failing", b"bytes that get a row")
        self.assertEqual(self.read("db/failing"), b"bytes that get a row", "PutObject succeeds once the disk is back")

    def test_overwrite_with_a_fault_at_every_object_write(self):
        old, new = os.urandom(64 * 1024), os.urandom(3 * MIB)
        self.put("overwritten", old)

        def unchanged(k):
            self.assertEqual(md5_hex(self.read("overwritten")), md5_hex(old),
                             "an overwrite failed at object write %d leaves the old bytes" % k)
            self.assertNoTempFiles("an overwrite failed at object write %d" % k)

        self.at_every_write("objects EIO", lambda k: self.attempt(self.checkS3Internal, "an overwrite",
                                                                  self.put, "overwritten", new),
                            unchanged, "an overwrite")
        self.assertEqual(md5_hex(self.read("overwritten")), md5_hex(new), "the overwrite lands once the disk is back")

    def test_multipart_upload_on_failing_writes(self):
        key = "multipart"
        parts = [os.urandom(5 * MIB), os.urandom(100 * 1024)]
        up = self.s3.create_multipart_upload(Bucket="fault-objects", Key=key)["UploadId"]

        def list_parts():
            return [(p["PartNumber"], p["ETag"]) for p in
                    self.s3.list_parts(Bucket="fault-objects", Key=key, UploadId=up).get("Parts", [])]

        def upload(n):
            return self.s3.upload_part(Bucket="fault-objects", Key=key, UploadId=up, PartNumber=n,
                                       Body=parts[n - 1])["ETag"]

        etags = [upload(1)]
        with self.fault("objects ENOSPC"):
            self.assertS3Internal("UploadPart", upload, 2)
        self.assertServing("a failed UploadPart")
        self.assertEqual([n for n, _ in list_parts()], [1], "a failed UploadPart leaves no part")
        self.assertNoTempFiles("a failed UploadPart")
        with self.fault("db EIO"):
            self.assertS3Internal("UploadPart", upload, 2)
        self.assertEqual([n for n, _ in list_parts()], [1], "an UploadPart whose row failed leaves no part")
        etags.append(upload(2))
        listed = list_parts()

        def complete():
            return self.s3.complete_multipart_upload(Bucket="fault-objects", Key=key, UploadId=up, MultipartUpload={
                "Parts": [{"PartNumber": n + 1, "ETag": e} for n, e in enumerate(etags)]})

        files = self.object_files()
        for rule in ("objects EIO", "objects ENOSPC", "db EIO"):
            with self.subTest(rule=rule):
                with self.fault(rule):
                    self.assertS3Internal("CompleteMultipartUpload", complete)
                self.assertServing("a failed CompleteMultipartUpload")
                self.assertObjectAbsent(key, "a failed CompleteMultipartUpload")
                self.assertEqual(list_parts(), listed,
                                 "a failed CompleteMultipartUpload keeps the upload and its parts")
                self.assertNoTempFiles("a failed CompleteMultipartUpload")
                self.assertEqual(self.object_files(), files, "and publishes no object file")
        complete()
        self.assertEqual(md5_hex(self.read(key)), md5_hex(b"".join(parts)),
                         "CompleteMultipartUpload succeeds once the disk is back")

    def test_one_part_upload_completes_without_writing_an_object_file(self):
        """A one-part upload's object is its part: CompleteMultipartUpload makes the part's file,
        durable since UploadPart, the object's, and writes, copies or syncs no object file, so it
        succeeds while every object-file call would fail. The object reads back whole with the
        multipart ETag, and its file goes with it."""
        key = "multipart/one-part"
        body = os.urandom(300 * 1024)
        up = self.s3.create_multipart_upload(Bucket="fault-objects", Key=key)["UploadId"]
        etag = self.s3.upload_part(Bucket="fault-objects", Key=key, UploadId=up, PartNumber=1, Body=body)["ETag"]
        files = self.object_files()
        before = self.server.n_injected()
        self.server.set_rules("objects EIO")
        try:
            done = self.s3.complete_multipart_upload(Bucket="fault-objects", Key=key, UploadId=up, MultipartUpload={
                "Parts": [{"PartNumber": 1, "ETag": etag}]})
        finally:
            self.server.set_rules()
        self.assertEqual(self.server.n_injected(), before, "a one-part Complete makes no object-file call")
        self.assertEqual(done["ETag"], '"%s-1"' % md5_hex(hashlib.md5(body).digest()))
        self.assertEqual(md5_hex(self.read(key)), md5_hex(body), "the object holds the part's bytes")
        self.assertEqual(self.object_files(), files, "the part's file is the object's: none added, none removed")
        self.assertClientError("NoSuchUpload", self.s3.list_parts, Bucket="fault-objects", Key=key, UploadId=up)
        self.s3.delete_object(Bucket="fault-objects", Key=key)
        self.assertEqual(len(files - self.object_files()), 1, "deleting the object removes its file")
        self.assertNoTempFiles("a one-part upload")

    def test_copy_object_on_failing_writes(self):
        self.put("copy/source", os.urandom(200 * 1024))
        for rule in ("objects EIO", "objects ENOSPC", "db EIO"):
            with self.subTest(rule=rule):
                key = "copy/" + rule.replace(" ", "-")
                with self.fault(rule):
                    self.assertS3Internal("CopyObject", self.s3.copy_object, Bucket="fault-objects", Key=key,
                                          CopySource={"Bucket": "fault-objects", "Key": "copy/source"})
                self.assertServing("a failed CopyObject")
                self.assertObjectAbsent(key, "a failed CopyObject")
                self.assertNoTempFiles("a failed CopyObject")
                self.s3.copy_object(Bucket="fault-objects", Key=key,
                                    CopySource={"Bucket": "fault-objects", "Key": "copy/source"})
                self.assertEqual(self.read(key), self.read("copy/source"), "CopyObject succeeds once the disk is back")

    def test_delete_object_on_a_failing_database(self):
        self.put("kept", b"still here")
        with self.fault("db EIO"):
            self.assertS3Internal("DeleteObject", self.s3.delete_object, Bucket="fault-objects", Key="kept")
        self.assertServing("a failed DeleteObject")
        self.assertEqual(self.read("kept"), b"still here", "a failed DeleteObject leaves the object")
        self.s3.delete_object(Bucket="fault-objects", Key="kept")
        self.assertObjectAbsent("kept", "a DeleteObject retried once the disk is back")


class ReadFaultTests(FaultTestCase):
    """A database that cannot read back a page: each case restarts the server (so SQLite's page
    cache is cold), makes every read of floe.db and its WAL fail, and sends one request. A read
    error is a 500, never "not found" or "name is free"; the same request succeeds after."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.arn = cls.s3tables.create_table_bucket(name="reads")["arn"]
        cls.s3tables.create_namespace(tableBucketARN=cls.arn, namespace=["ns"])
        cls.s3tables.create_table(tableBucketARN=cls.arn, namespace="ns", name="t", format="ICEBERG",
                                  metadata={"iceberg": {"schema": SCHEMA_S3TABLES}})
        cls.s3.create_bucket(Bucket="reads")
        cls.s3.put_object(Bucket="reads", Key="k", Body=b"read me")
        cls.prefix = "/v1/" + urllib.parse.quote(cls.arn, safe="")

    def cold_start(self):
        """A server with SQLite's page cache empty. kill -9 rather than a stop: an ASan build
        spends 0.3 s in its leak check at each exit, and the class's last, clean stop reports any
        leak of all the refused requests together."""
        self.server.kill()
        self.server.start()

    def cold_reads_fail(self):
        """A cold start, then every read of the database fails (the rules take effect after the
        start, which reads the schema)."""
        self.cold_start()
        return self.fault("db EIO reads")

    def check_s3tables(self, what, fn, **kwargs):
        with self.cold_reads_fail():
            self.assertS3TablesInternal(what + " that cannot read the database", fn, **kwargs)
        self.assertServing("%s that could not read the database" % what)
        return fn(**kwargs)

    @staticmethod
    def answer(fn, with_response=False, **kwargs):
        """What a call answers, as (HTTP status, error code or None); with_response: and the
        parsed response."""
        import botocore.exceptions
        try:
            response = fn(**kwargs)
            got = response["ResponseMetadata"]["HTTPStatusCode"], None
        except botocore.exceptions.ClientError as exc:
            response = exc.response
            got = response["ResponseMetadata"]["HTTPStatusCode"], response["Error"]["Code"]
        return (got, response) if with_response else got

    def read_operations(self):
        return [op for op in self.s3tables.meta.service_model.operation_names if op.startswith(("Get", "List"))]

    def read_kwargs(self, op, name):
        """The members op requires, for table `name` of namespace ns (or its bucket)."""
        table_arn = self.s3tables.get_table(tableBucketARN=self.arn, namespace="ns", name=name)["tableARN"]
        values = {"tableBucketARN": self.arn, "namespace": "ns", "name": name, "tableArn": table_arn,
                  "resourceArn": table_arn}
        if op == "GetTable":  # all members optional: a table by bucket, namespace and name
            return {m: values[m] for m in ("tableBucketARN", "namespace", "name")}
        shape = self.s3tables.meta.service_model.operation_model(op).input_shape
        return {m: values[m] for m in (shape.required_members if shape is not None else [])}

    def test_every_s3tables_read(self):
        """Every Get and List operation of the model, with the members it requires."""
        from botocore import xform_name
        n_cases = 0
        for op in self.read_operations():
            kwargs = self.read_kwargs(op, "t")
            fn = getattr(self.s3tables, xform_name(op))
            with self.subTest(operation=op):
                before = self.answer(fn, **kwargs)
                with self.cold_reads_fail():
                    self.assertS3TablesInternal(op + " that cannot read the database", fn, **kwargs)
                self.assertServing("%s that could not read the database" % op)
                self.assertEqual(self.answer(fn, **kwargs), before,
                                 "%s answers as before once the database reads again" % op)
                n_cases += 1
        print("figures: faults: %d S3 Tables reads with the database unreadable" % n_cases, file=sys.stderr)

    def sweep_reads(self, what, log_name, call, check_refused, is_usual, unchanged):
        """A request with a read fault at each of its page reads (reads k, k+1, ... of the database
        fail), on a cold cache each time: call() sends it and returns what check_refused(what,
        answer) and is_usual(answer) judge; after each refusal unchanged() checks the state. The
        janitor reads too (a timer on the same loop, every 200 ms), so which reader met the fault
        is read off the server's log: the shim's lines before the request's own log line (the
        one naming log_name) are the faults the request met. Returns the number of positions."""
        for k in range(MAX_WRITES):
            self.cold_start()
            mark = self.server.log_size()
            self.server.set_rules("db EIO reads after=%d" % k)
            try:
                answer = call()
            finally:
                self.server.set_rules()
            log, own = self.server.wait_for_log(mark, r"^.* %s \d{3} .*$" % re.escape(log_name))
            self.assertIsNotNone(own, "%s is in the server's log" % what)
            if log[:own.start()].count(SHIM_MARK.decode()) == 0:
                self.assertTrue(is_usual(answer), "%s answers as usual when none of its reads fails (%r)" % (
                    what, answer))
                break
            check_refused("%s with page read %d failing" % (what, k), answer)
            self.assertServing("%s with page read %d failing" % (what, k))
            unchanged()
        else:
            self.fail("%s still fails with its first %d reads let through" % (what, MAX_WRITES))
        self.assertGreater(k, 0, "%s reads the database" % what)
        self.n_positions += k
        return k

    def sweep_s3tables_reads(self, op, kwargs, unchanged):
        """sweep_reads for an S3 Tables operation. unchanged None: op is a read, which answers as
        it did before; otherwise op is a write, which succeeds once nothing fails."""
        from botocore import xform_name
        fn = getattr(self.s3tables, xform_name(op))
        if unchanged is None:
            before = self.answer(fn, **kwargs)
            unchanged = lambda: self.assertEqual(  # noqa: E731
                self.answer(fn, **kwargs), before, "%s answers as before once the database reads again" % op)
            is_usual = lambda answer: answer[0] == before  # noqa: E731
        else:
            is_usual = lambda answer: answer[0][1] is None  # noqa: E731
        with self.subTest(operation=op, **{k: v for k, v in kwargs.items() if k == "name"}):
            self.sweep_reads(op, op, lambda: self.answer(fn, with_response=True, **kwargs),
                             lambda what, answer: self.checkS3TablesInternal(what, answer[1]), is_usual, unchanged)

    def test_a_read_fault_at_each_page_read_of_table_operations(self):
        """The fault moves one page read further each time, with a cold cache each time, so the
        reads after a request's first lookup fail too: a table's row, then its policy, its
        configuration; a name found free, then a row written."""
        ns = dict(tableBucketARN=self.arn, namespace="ns")
        for name in ("swept", "swept_policy", "swept_swap", "swept_move", "swept_drop"):
            self.s3tables.create_table(**ns, name=name, format="ICEBERG")
        self.s3tables.put_table_policy(**ns, name="swept_policy", resourcePolicy=json.dumps({
            "Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": ["s3tables:GetTable"],
                                                    "Principal": {"AWS": "arn:aws:iam::000000000000:root"},
                                                    "Resource": self.arn + "/*"}]}))
        # "swept" has no configuration of its own, so a lost read could pass for "none set".
        reads = self.read_operations() if os.environ.get("FLOE_FAULT_SWEEP") == "all" else SWEPT_TABLE_READS
        cases = [(op, "swept") for op in reads] + [("GetTablePolicy", "swept_policy")]
        self.n_positions = 0
        for op, name in cases:
            self.sweep_s3tables_reads(op, self.read_kwargs(op, name), None)

        def table_is(name, expected):
            got = self.s3tables.get_table(**ns, name=name)
            self.assertEqual((got["metadataLocation"] if "metadataLocation" in got else None, got["versionToken"]),
                             expected, "a refused %s leaves the table as it was" % name)

        swap = self.s3tables.get_table(**ns, name="swept_swap")
        self.sweep_s3tables_reads("UpdateTableMetadataLocation", dict(
            ns, name="swept_swap", versionToken=swap["versionToken"],
            metadataLocation=swap["warehouseLocation"] + "/metadata/00001.metadata.json"),
            lambda: table_is("swept_swap", (swap.get("metadataLocation"), swap["versionToken"])))
        self.sweep_s3tables_reads("RenameTable", dict(ns, name="swept_move", newName="swept_moved"),
                                  lambda: self.assertClientError("NotFoundException", self.s3tables.get_table,
                                                                 **ns, name="swept_moved"))
        self.sweep_s3tables_reads("DeleteTable", dict(ns, name="swept_drop"),
                                  lambda: self.s3tables.get_table(**ns, name="swept_drop"))
        self.sweep_s3tables_reads("CreateTable", dict(ns, name="swept_new", format="ICEBERG"),
                                  lambda: self.assertClientError("NotFoundException", self.s3tables.get_table,
                                                                 **ns, name="swept_new"))
        self.sweep_s3tables_reads("CreateNamespace", dict(tableBucketARN=self.arn, namespace=["swept_ns"]),
                                  lambda: self.assertClientError("NotFoundException", self.s3tables.get_namespace,
                                                                 tableBucketARN=self.arn, namespace="swept_ns"))
        print("figures: faults: %d operations refused at each of their page reads, %d positions in all" % (
            len(cases) + 5, self.n_positions), file=sys.stderr)

    def test_a_read_fault_at_each_page_read_of_iceberg_rest_and_s3(self):
        self.n_positions = 0
        ok_rest = lambda answer: answer[0] == 200  # noqa: E731
        self.assertEqual(self.rest("POST", self.prefix + "/namespaces/ns/tables",
                                   {"name": "rest_swept", "schema": SCHEMA_REST})[0], 200)
        table = self.prefix + "/namespaces/ns/tables/rest_swept"
        location = self.rest("GET", table)[2]["metadata-location"]
        for what, log_name, method, path, body, unchanged in (
                ("loadTable", "Iceberg:loadTable", "GET", table, None, lambda: None),
                ("a commit", "Iceberg:updateTable", "POST", table,
                 {"requirements": [], "updates": [{"action": "set-properties", "updates": {"swept": "yes"}}]},
                 lambda: self.assertEqual(self.rest("GET", table)[2]["metadata-location"], location,
                                          "a refused commit leaves the metadata location unchanged")),
                ("createTable", "Iceberg:createTable", "POST", self.prefix + "/namespaces/ns/tables",
                 {"name": "rest_new", "schema": SCHEMA_REST},
                 lambda: self.assertEqual(self.rest("GET", self.prefix + "/namespaces/ns/tables/rest_new")[0], 404,
                                          "a refused createTable leaves no table"))):
            with self.subTest(operation=what):
                self.sweep_reads(what, log_name, lambda: self.rest(method, path, body), self.assertRestInternal,
                                 ok_rest, unchanged)
        self.s3.put_object(Bucket="reads", Key="swept", Body=b"old")
        for op, fn, kwargs, unchanged in (
                ("GetObject", self.s3.get_object, dict(Bucket="reads", Key="swept"), lambda: None),
                ("PutObject", self.s3.put_object, dict(Bucket="reads", Key="swept", Body=b"new"),
                 lambda: self.assertEqual(self.s3.get_object(Bucket="reads", Key="swept")["Body"].read(), b"old",
                                          "a refused overwrite leaves the old bytes")),
                ("ListObjectsV2", self.s3.list_objects_v2, dict(Bucket="reads"), lambda: None)):
            with self.subTest(operation=op):
                self.sweep_reads(op, op, lambda: self.answer(fn, with_response=True, **kwargs),
                                 lambda what, answer: self.checkS3Internal(what, answer[1]),
                                 lambda answer: answer[0][1] is None, unchanged)
        self.s3.put_object(Bucket="reads", Key="swept", Body=b"old")
        with self.subTest(operation="DeleteObject"):
            self.sweep_reads("DeleteObject", "DeleteObject",
                             lambda: self.answer(self.s3.delete_object, with_response=True, Bucket="reads",
                                                 Key="swept"),
                             lambda what, answer: self.checkS3Internal(what, answer[1]),
                             lambda answer: answer[0][1] is None,
                             lambda: self.assertEqual(self.s3.get_object(Bucket="reads", Key="swept")["Body"].read(),
                                                      b"old", "a refused DeleteObject leaves the object"))
        print("figures: faults: Iceberg REST and S3: %d page-read positions" % self.n_positions, file=sys.stderr)

    def test_s3tables_writes_that_look_up_first(self):
        ns = dict(tableBucketARN=self.arn, namespace="ns")
        for name in ("doomed", "moved", "swapped"):
            self.s3tables.create_table(**ns, name=name, format="ICEBERG")
        swapped = self.s3tables.get_table(**ns, name="swapped")
        table_arn = self.s3tables.get_table(**ns, name="t")["tableARN"]
        self.check_s3tables("CreateTable", self.s3tables.create_table, **dict(ns, name="fresh", format="ICEBERG"))
        self.check_s3tables("CreateNamespace", self.s3tables.create_namespace, tableBucketARN=self.arn,
                            namespace=["fresh"])
        self.check_s3tables("CreateTableBucket", self.s3tables.create_table_bucket, name="fresh")
        self.check_s3tables("DeleteTable", self.s3tables.delete_table, **dict(ns, name="doomed"))
        self.check_s3tables("RenameTable", self.s3tables.rename_table, **dict(ns, name="moved", newName="moved_to"))
        self.check_s3tables("UpdateTableMetadataLocation", self.s3tables.update_table_metadata_location,
                            **dict(ns, name="swapped", versionToken=swapped["versionToken"],
                                   metadataLocation=swapped["warehouseLocation"] + "/metadata/00001.metadata.json"))
        self.check_s3tables("TagResource", self.s3tables.tag_resource, resourceArn=table_arn, tags={"k": "v"})
        self.check_s3tables("PutTablePolicy", self.s3tables.put_table_policy,
                            **dict(ns, name="t", resourcePolicy=json.dumps({"Version": "2012-10-17", "Statement": [{
                                "Effect": "Allow", "Principal": {"AWS": "arn:aws:iam::000000000000:root"},
                                "Action": ["s3tables:GetTable"], "Resource": table_arn}]})))

    def test_iceberg_rest_reads(self):
        for what, path in (("loadTable", "/namespaces/ns/tables/t"), ("loadNamespaceMetadata", "/namespaces/ns"),
                           ("listTables", "/namespaces/ns/tables")):
            with self.subTest(operation=what):
                with self.cold_reads_fail():
                    self.assertRestInternal(what + " that cannot read the database",
                                            self.rest("GET", self.prefix + path))
                self.assertServing("%s that could not read the database" % what)
                self.assertEqual(self.rest("GET", self.prefix + path)[0], 200, "%s succeeds after" % what)

    def test_s3_reads(self):
        for what, fn, kwargs in (("GetObject", self.s3.get_object, dict(Bucket="reads", Key="k")),
                                 ("HeadObject", self.s3.head_object, dict(Bucket="reads", Key="k")),
                                 ("ListObjectsV2", self.s3.list_objects_v2, dict(Bucket="reads")),
                                 ("PutObject", self.s3.put_object, dict(Bucket="reads", Key="new", Body=b"x"))):
            with self.subTest(operation=what):
                with self.cold_reads_fail():
                    if fn == self.s3.head_object:  # a HEAD answer has no body: the status is all there is
                        response = self.assertClientError("500", fn, **kwargs)
                        self.assertEqual(response["ResponseMetadata"]["HTTPStatusCode"], 500, "HeadObject answers 500")
                    else:
                        self.assertS3Internal(what + " that cannot read the database", fn, **kwargs)
                self.assertServing("%s that could not read the database" % what)
                fn(**kwargs)


class RestartAfterFaultTests(FaultTestCase):
    """Stops and kills the server after faults, and with a fault still on, on one data directory."""

    def test_the_data_directory_opens_after_faults(self):
        arn = self.s3tables.create_table_bucket(name="restarts")["arn"]
        self.s3tables.create_namespace(tableBucketARN=arn, namespace=["ns"])
        self.s3.create_bucket(Bucket="restarts")
        acked = {}   # key -> md5 of what the server acknowledged
        tables = []  # tables the server acknowledged

        def write_round(n, rule):
            """One acknowledged table and object, then the same writes refused by the fault."""
            body = os.urandom(100 * 1024)
            self.s3.put_object(Bucket="restarts", Key="k%d" % n, Body=body)
            acked["k%d" % n] = md5_hex(body)
            self.s3tables.create_table(tableBucketARN=arn, namespace="ns", name="t%d" % n, format="ICEBERG",
                                       metadata={"iceberg": {"schema": SCHEMA_S3TABLES}})
            tables.append("t%d" % n)
            self.server.set_rules(rule)
            self.assertS3Internal("PutObject", self.s3.put_object, Bucket="restarts", Key="lost%d" % n, Body=body)
            self.assertS3TablesInternal("CreateTable", self.s3tables.create_table, tableBucketARN=arn, namespace="ns",
                                        name="lost%d" % n, format="ICEBERG",
                                        metadata={"iceberg": {"schema": SCHEMA_S3TABLES}})

        def check(what):
            self.assertServing(what)
            for key, md5 in acked.items():
                got = self.s3.get_object(Bucket="restarts", Key=key)["Body"].read()
                self.assertEqual(md5_hex(got), md5, "%s: acknowledged object %s reads back whole" % (what, key))
            listed = {t["name"] for t in self.s3tables.list_tables(tableBucketARN=arn, namespace="ns")["tables"]}
            self.assertEqual(listed, set(tables), "%s: exactly the acknowledged tables exist" % what)
            keys = {o["Key"] for o in self.s3.list_objects_v2(Bucket="restarts").get("Contents", [])}
            self.assertEqual(keys, set(acked), "%s: exactly the acknowledged objects exist" % what)
            self.assertNoTempFiles(what)

        # 1. Faults, cleared, then a clean stop and a start.
        write_round(1, "db EIO")
        self.server.set_rules()
        write_round(2, "objects ENOSPC")
        self.server.set_rules()
        self.server.stop()
        self.check_stopped("a clean stop after faults")
        self.server.start()
        check("a restart after faults and a clean stop")

        # 2. kill -9 with the database fault still on; the disk is back for the start.
        write_round(3, "db EIO")
        self.server.kill()
        self.server.set_rules()
        self.server.start()
        check("a restart after kill -9 during a database fault")

        # 3. kill -9 with the object fault still on.
        write_round(4, "objects EIO")
        self.server.kill()
        self.server.set_rules()
        self.server.start()
        check("a restart after kill -9 during an object fault")

        # 4. SIGTERM with the database fault still on: the last checkpoint at close fails, so the
        #    WAL stays behind; the server must still stop, and floe must open what it left.
        write_round(5, "db EIO")
        proc = self.server.proc
        try:
            self.server.stop()
        except RuntimeError as exc:
            self.fail("SIGTERM during a database fault stops the server with status 0: %s" % str(exc)[-2000:])
        finally:
            self.server.set_rules()
        print("figures: faults: after SIGTERM during a database fault floe exited %s, WAL %s" % (
            proc.returncode, "kept" if os.path.exists(os.path.join(self.server.data_dir, "floe.db-wal")) else "gone"),
            file=sys.stderr)
        self.server.start()
        check("a restart after a stop during a database fault")

        # 5. A last clean stop: SQLite's own check and the warehouse queue, then serve again.
        self.server.stop()
        self.check_stopped("the end")
        self.server.start()
        check("the last start")
        print("figures: faults: %d calls failed by the shim" % self.server.n_injected(), file=sys.stderr)


if __name__ == "__main__":
    main()

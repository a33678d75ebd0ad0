#!/usr/bin/python3
"""Crash safety: concurrent clients write while the server is killed with SIGKILL at a random
moment, round after round on one data directory. Each round:

  1. start `floe serve` (odd rounds with --threads 2) and release the writers: one thread per
     table chaining UpdateTableMetadataLocation with the token each swap returns, one thread of
     CreateTable with Iceberg metadata, two threads of single PutObject (new keys, and overwrites
     of one hot key each), one thread of multipart uploads (a 5 MiB part and a small one, or the
     small one alone, whose file Complete adopts; then CompleteMultipartUpload). Every writer records what it is about to send and, once answered,
     what was acknowledged;
  2. kill -9 the server after a random delay;
  3. with the server stopped, check SQLite's PRAGMA integrity_check is "ok" and note which files
     the object and part rows name (the server holds the database exclusively while it runs);
  4. restart, and check that nothing is left in tmp/, that the files under objects/ are exactly
     those the rows name, that every table points at its last acknowledged location or the one in
     flight when the server died (and carries the token that swap returned), that every
     acknowledged CreateTable left a table whose metadata file reads back and no other table
     exists, that every acknowledged object reads back whole with its MD5 (the last acknowledged
     version, or the one in flight, for an overwritten key), and that every listed object was
     written by a client and reads back with the size the listing shows and the bytes the client
     sent;
  5. stop the server and check that every warehouse bucket belongs to a table or is queued for
     the janitor: a CreateTable cut short must not leak its warehouse.

Objects and tables accumulate, so each round also re-checks everything earlier rounds wrote.
FLOE_CRASH_ROUNDS sets the rounds (default 5), FLOE_CRASH_SEED the random seed (printed).
"""

import contextlib
import hashlib
import json
import os
import random
import sqlite3
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from floe_server import FloeTestCase, main  # noqa: E402

ROUNDS = int(os.environ.get("FLOE_CRASH_ROUNDS", "5"))
SEED = int(os.environ.get("FLOE_CRASH_SEED", str(random.SystemRandom().randrange(1 << 30))))
N_TABLES = 4
N_PUT_THREADS = 2
KILL_AFTER_S = (0.5, 2.5)        # the random moment, after the writers are released
WRITER_JOIN_TIMEOUT_S = 60       # writers end at their first failed request after the kill
MIB = 1024 * 1024
PART_SIZE = 5 * MIB              # S3's smallest part but the last
MAX_PUT_SIZE = 256 * 1024
BUCKET = "crash"
HOT_KEY = "hot/overwritten-by-%d"  # one per PUT thread: a key's writes never overlap
SCHEMA = {"fields": [{"name": "id", "type": "long", "required": True}]}


def md5_hex(data):
    return hashlib.md5(data).hexdigest()


class Ledger:
    """What the clients sent and what the server acknowledged, shared by the writer threads."""

    def __init__(self):
        self.lock = threading.Lock()
        self.tables = {}      # name -> {"acked": (location, token), "pending": location or None}
        self.created = {}     # CreateTable name -> True once acknowledged, False while in flight
        self.objects = {}     # key -> {"acked": md5 or None, "pending": md5 or None, "sizes": {md5: size}}
        self.n_commits = 0
        self.n_puts = 0
        self.n_multipart = 0
        self.n_creates = 0

    def object_sending(self, key, body):
        with self.lock:
            entry = self.objects.setdefault(key, {"acked": None, "pending": None, "sizes": {}})
            entry["pending"] = md5_hex(body)
            entry["sizes"][entry["pending"]] = len(body)

    def object_acked(self, key, multipart=False):
        with self.lock:
            entry = self.objects[key]
            entry["acked"], entry["pending"] = entry["pending"], None
            if multipart:
                self.n_multipart += 1
            else:
                self.n_puts += 1


class CrashSafetyTests(FloeTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.rng = random.Random(SEED)
        print("crash safety: seed %d (FLOE_CRASH_SEED), %d rounds" % (SEED, ROUNDS), file=sys.stderr)
        cls.arn = cls.s3tables.create_table_bucket(name="crash-tables")["arn"]
        cls.s3tables.create_namespace(tableBucketARN=cls.arn, namespace=["ns"])
        cls.s3tables.create_namespace(tableBucketARN=cls.arn, namespace=["made"])
        cls.ledger = Ledger()
        for i in range(N_TABLES):
            name = "chain_%d" % i
            cls.s3tables.create_table(tableBucketARN=cls.arn, namespace="ns", name=name, format="ICEBERG",
                                      metadata={"iceberg": {"schema": SCHEMA}})
            table = cls.s3tables.get_table(tableBucketARN=cls.arn, namespace="ns", name=name)
            cls.ledger.tables[name] = {"acked": (table["metadataLocation"], table["versionToken"]), "pending": None,
                                       "warehouse": table["warehouseLocation"]}
        s3 = cls.make_client("s3")
        s3.create_bucket(Bucket=BUCKET)
        s3.close()
        cls.swept = 0

    # -- the writers ----------------------------------------------------------------------------

    def client(self, service):
        return self.make_client(service, **({"s3": {"addressing_style": "path"}} if service == "s3" else {}),
                                connect_timeout=2, read_timeout=60)

    def chain_commits(self, name, rnd, stop):
        client, ledger, seq = self.client("s3tables"), self.ledger, 0
        try:
            while not stop.is_set():
                with ledger.lock:
                    table = ledger.tables[name]
                    location, token = table["acked"]
                    seq += 1
                    table["pending"] = "%s/metadata/r%02d-%05d.metadata.json" % (table["warehouse"], rnd, seq)
                    new = table["pending"]
                resp = client.update_table_metadata_location(tableBucketARN=self.arn, namespace="ns", name=name,
                                                             versionToken=token, metadataLocation=new)
                with ledger.lock:
                    table["acked"], table["pending"] = (new, resp["versionToken"]), None
                    ledger.n_commits += 1
        except Exception as exc:  # noqa: BLE001 - the kill ends every writer with a connection error
            self.note_end(exc)
        finally:
            client.close()

    def create_tables(self, rnd, stop):
        client, ledger, i = self.client("s3tables"), self.ledger, 0
        try:
            while not stop.is_set():
                i += 1
                name = "made_r%02d_%04d" % (rnd, i)
                with ledger.lock:
                    ledger.created[name] = False
                client.create_table(tableBucketARN=self.arn, namespace="made", name=name, format="ICEBERG",
                                    metadata={"iceberg": {"schema": SCHEMA}})
                with ledger.lock:
                    ledger.created[name] = True
                    ledger.n_creates += 1
        except Exception as exc:  # noqa: BLE001
            self.note_end(exc)
        finally:
            client.close()

    def put_objects(self, n, rnd, stop):
        client, rng, i = self.client("s3"), random.Random(SEED * 1000 + rnd * 10 + n), 0
        try:
            while not stop.is_set():
                i += 1
                key = HOT_KEY % n if rng.random() < 0.25 else "put/r%02d/w%d/%05d" % (rnd, n, i)
                body = rng.randbytes(rng.randrange(MAX_PUT_SIZE))
                self.ledger.object_sending(key, body)
                client.put_object(Bucket=BUCKET, Key=key, Body=body)
                self.ledger.object_acked(key)
        except Exception as exc:  # noqa: BLE001
            self.note_end(exc)
        finally:
            client.close()

    def multipart_uploads(self, rnd, stop):
        client, rng, i = self.client("s3"), random.Random(SEED * 1000 + rnd * 10 + 9), 0
        try:
            while not stop.is_set():
                i += 1
                key = "multipart/r%02d/%03d" % (rnd, i)
                parts = [rng.randbytes(PART_SIZE), rng.randbytes(rng.randrange(1, 64 * 1024))]
                if i % 2 == 0:  # a one-part upload: Complete adopts the part's file as the object's
                    parts = parts[1:]
                up = client.create_multipart_upload(Bucket=BUCKET, Key=key)["UploadId"]
                self.ledger.object_sending(key, b"".join(parts))
                etags = [client.upload_part(Bucket=BUCKET, Key=key, UploadId=up, PartNumber=n + 1, Body=p)["ETag"]
                         for n, p in enumerate(parts)]
                client.complete_multipart_upload(Bucket=BUCKET, Key=key, UploadId=up, MultipartUpload={
                    "Parts": [{"PartNumber": n + 1, "ETag": e} for n, e in enumerate(etags)]})
                self.ledger.object_acked(key, multipart=True)
        except Exception as exc:  # noqa: BLE001
            self.note_end(exc)
        finally:
            client.close()

    def note_end(self, exc):
        """A writer's request failed. After the kill that is expected; before it, it is a bug."""
        if not self.killed.is_set():
            self.unexpected.append(repr(exc))

    # -- a round --------------------------------------------------------------------------------

    def run_round(self, rnd):
        self.server.extra_args = ["--threads", "2"] if rnd % 2 else []
        self.server.start()
        self.killed, self.unexpected, stop = threading.Event(), [], threading.Event()
        writers = [threading.Thread(target=self.chain_commits, args=(name, rnd, stop)) for name in self.ledger.tables]
        writers.append(threading.Thread(target=self.create_tables, args=(rnd, stop)))
        writers += [threading.Thread(target=self.put_objects, args=(n, rnd, stop)) for n in range(N_PUT_THREADS)]
        writers.append(threading.Thread(target=self.multipart_uploads, args=(rnd, stop)))
        for w in writers:
            w.start()
        time.sleep(self.rng.uniform(*KILL_AFTER_S))  # the random moment of the crash (not a timing assertion)
        self.killed.set()
        self.server.kill()
        stop.set()
        for w in writers:
            w.join(WRITER_JOIN_TIMEOUT_S)
            self.assertFalse(w.is_alive(), "every client notices the dead server")
        self.assertEqual(self.unexpected, [], "no request failed before the kill")

    def object_files(self):
        return {n for _, _, names in os.walk(os.path.join(self.server.data_dir, "objects")) for n in names}

    def check_database(self):
        """Integrity and the files the rows name, read while the server is stopped; also counts
        what the crash left for the start-up sweep."""
        with contextlib.closing(sqlite3.connect(os.path.join(self.server.data_dir, "floe.db"))) as db:
            self.assertEqual(db.execute("PRAGMA integrity_check").fetchall(), [("ok",)],
                             "SQLite's integrity check passes after kill -9")
            named = {r[0] for r in db.execute("SELECT file_id FROM s3_object UNION SELECT file_id FROM s3_part")}
        self.swept += len(os.listdir(os.path.join(self.server.data_dir, "tmp"))) + len(self.object_files() - named)
        return named

    def check_files(self, named):
        self.assertEqual(os.listdir(os.path.join(self.server.data_dir, "tmp")), [],
                         "no temp file survives the next start")
        self.assertEqual(self.object_files(), named,
                         "after the start-up sweep, the object files are exactly those the rows name")

    def check_tables(self):
        for name, table in self.ledger.tables.items():
            got = self.s3tables.get_table(tableBucketARN=self.arn, namespace="ns", name=name)
            acked_location, acked_token = table["acked"]
            self.assertIn(got["metadataLocation"], (acked_location, table["pending"]),
                          "%s points at its last acknowledged location or the one in flight" % name)
            if got["metadataLocation"] == acked_location:
                self.assertEqual(got["versionToken"], acked_token, "with the token the acknowledged swap returned")
            else:  # the swap in flight committed: adopt it, its token is the one to chain on
                table["acked"] = (got["metadataLocation"], got["versionToken"])
            table["pending"] = None

    def check_created_tables(self, s3):
        listed = [t["name"] for page in self.s3tables.get_paginator("list_tables").paginate(
            tableBucketARN=self.arn, namespace="made") for t in page["tables"]]
        for name in listed:
            self.assertIn(name, self.ledger.created, "every table was created by a client: %s" % name)
            location = self.s3tables.get_table(tableBucketARN=self.arn, namespace="made", name=name)["metadataLocation"]
            bucket, key = location[len("s3://"):].split("/", 1)
            doc = json.loads(s3.get_object(Bucket=bucket, Key=key)["Body"].read())
            self.assertEqual(doc["format-version"], 2, "%s's metadata file reads back whole" % name)
            self.ledger.created[name] = True
        for name, acked in list(self.ledger.created.items()):
            if acked:
                self.assertIn(name, listed, "acknowledged CreateTable %s left its table" % name)
            else:
                del self.ledger.created[name]  # in flight and lost: it never existed

    def check_no_orphan_warehouses(self):
        """With the server stopped after a restart: every warehouse belongs to a table or is queued."""
        with contextlib.closing(sqlite3.connect(os.path.join(self.server.data_dir, "floe.db"))) as db:
            orphans = db.execute("SELECT name FROM s3_bucket WHERE is_warehouse = 1"
                                 " AND name NOT IN (SELECT warehouse_bucket FROM s3table)"
                                 " AND name NOT IN (SELECT bucket FROM warehouse_deletion)").fetchall()
        self.assertEqual(orphans, [], "no warehouse bucket is left without a table and without a queue entry")

    def check_objects(self, s3):
        listed = {o["Key"]: o["Size"] for page in s3.get_paginator("list_objects_v2").paginate(Bucket=BUCKET)
                  for o in page.get("Contents", [])}
        for key, size in listed.items():
            self.assertIn(key, self.ledger.objects, "every listed object was written by a client: %s" % key)
            body = s3.get_object(Bucket=BUCKET, Key=key)["Body"].read()
            entry = self.ledger.objects[key]
            self.assertEqual(len(body), size, "%s reads back with the size the listing shows" % key)
            self.assertIn(md5_hex(body), (entry["acked"], entry["pending"]),
                          "%s holds the last acknowledged version or the one in flight, whole" % key)
            entry["acked"], entry["pending"] = md5_hex(body), None
        for key, entry in self.ledger.objects.items():
            if entry["acked"] is not None:
                self.assertIn(key, listed, "acknowledged object %s is still there" % key)
            elif key in listed:
                self.fail("%s is listed though its only write was not acknowledged and did not commit" % key)
            entry["pending"] = None

    def test_kill_minus_nine_loses_nothing_acknowledged(self):
        s3 = self.make_client("s3", s3={"addressing_style": "path"})
        self.server.stop()
        for rnd in range(ROUNDS):
            print("crash safety: round %d" % rnd, file=sys.stderr)
            self.run_round(rnd)
            named = self.check_database()
            self.server.extra_args = []
            self.server.start()
            self.check_files(named)
            self.check_tables()
            self.check_created_tables(s3)
            self.check_objects(s3)
            self.server.stop()
            self.check_no_orphan_warehouses()
        self.server.start()
        ledger = self.ledger
        print("figures: crash safety: %d rounds, %d acknowledged commits, %d acknowledged CreateTable, %d single "
              "PUTs and %d multipart uploads acknowledged, %d keys, %d unfinished or orphaned files swept at start-up"
              % (ROUNDS, ledger.n_commits, ledger.n_creates, ledger.n_puts, ledger.n_multipart, len(ledger.objects),
                 self.swept), file=sys.stderr)


if __name__ == "__main__":
    main()

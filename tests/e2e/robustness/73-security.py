#!/usr/bin/python3
"""Security: object bytes never land outside the data directory, whatever the key, and the
README's account of what a listener exposes is accurate.

Containment: the data directory sits two levels inside a fresh sandbox directory and the server
runs with its working directory in the sandbox too, so a key that escaped (through "..", an
absolute path, encoded dots or slashes, backslashes, fullwidth dots, 1,024-byte keys and
components) would create something there, or in /, /tmp, /etc or the home directory. Every key
carries a random marker. After PutObject, multipart uploads, CopyObject and a 33 MiB PUT (which
h2o spills to a temporary file), the test walks the sandbox and those directories: nothing new
outside the data directory, no name holding the marker anywhere, and inside it only Floe's own
layout (floe.db*, floe.lock, objects/<2 hex>/<32 hex>, an empty tmp/). Every object reads back
under its exact key, and reads of the same paths never return a host file.

Listener: with no --host the socket listens on 127.0.0.1 only (read from /proc/net/tcp); with
--host 0.0.0.0 and --strict-signatures, an unsigned request to either API is refused and only
/_floe/health answers, as the README says.
"""

import http.client
import os
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from floe_server import (FLOE_BIN, START_TIMEOUT_S, STOP_TIMEOUT_S, FloeServer, FloeTestCase, free_port,  # noqa: E402
                         main)

MIB = 1024 * 1024
BUCKET = "containment"
MARKER = "floe-escape-" + secrets.token_hex(6)
WATCHED_DIRS = ("/", "/tmp", "/etc", "/var/tmp", os.path.expanduser("~"))
ALLOWED_TOP = {"floe.db", "floe.db-wal", "floe.db-shm", "floe.db-journal", "floe.lock", "objects", "tmp"}
SPILL_SIZE = 33 * MIB   # above h2o's 32 MiB threshold: the body goes through a file in <data>/tmp


def keys():
    """Keys that would leave the data directory if any part of Floe used them as a path."""
    m = MARKER
    return [
        "../../%s-up2" % m,
        "../" * 12 + "tmp/%s-up12" % m,
        "/tmp/%s-absolute" % m,
        "//etc/%s-double-slash" % m,
        "/etc/%s-etc" % m,
        "..\\..\\%s-backslash" % m,
        "\uff0e\uff0e/\uff0e\uff0e/%s-fullwidth" % m,
        "./" * 300 + "%s-dots" % m,
        ("../" * 340 + m)[:1024],
        ("a/" * 600)[:1023] + "b",
        (m + "-" + "x" * 1024)[:1024],
        "~/%s-home" % m,
        "$HOME/%s-env" % m,
        "%s/../../../../.." % m,
        "..",
        ".",
        "%s/" % m,
    ]


# (raw path after /containment/, the key it decodes to): encodings a client library would not make
RAW_KEYS = [
    ("%2e%2e/%2e%2e/" + MARKER + "-enc-dots", "../../" + MARKER + "-enc-dots"),
    ("..%2F..%2F" + MARKER + "-enc-slash", "../../" + MARKER + "-enc-slash"),
    ("%2E%2E%2F%2E%2E%2F" + MARKER + "-enc-all", "../../" + MARKER + "-enc-all"),
    ("%252e%252e/" + MARKER + "-double-enc", "%2e%2e/" + MARKER + "-double-enc"),
    ("%2Ftmp%2F" + MARKER + "-enc-abs", "/tmp/" + MARKER + "-enc-abs"),
]


def snapshot(root, skip):
    """Every path under root (names, kinds, sizes), not descending into skip."""
    seen = {}
    for dirpath, dirnames, filenames in os.walk(root):
        if os.path.abspath(dirpath) == skip:
            dirnames[:] = []
            continue
        for name in dirnames + filenames:
            path = os.path.join(dirpath, name)
            if os.path.abspath(path) == skip:
                continue
            st = os.lstat(path)
            seen[path] = (st.st_mode, st.st_size if not os.path.isdir(path) else 0)
    return seen


def listen_addresses(port):
    """The local addresses of sockets listening on port, from /proc/net/tcp and tcp6."""
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table) as f:
                rows = f.read().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            fields = row.split()
            address, port_hex = fields[1].split(":")
            if int(port_hex, 16) == port and fields[3] == "0A":  # 0A: LISTEN
                found.add(address)
    return found


class ContainmentTests(FloeTestCase):
    @classmethod
    def setUpClass(cls):
        cls.sandbox = tempfile.mkdtemp(prefix="floe-sandbox-")
        cls.data_dir = os.path.join(cls.sandbox, "outer", "data")
        cls.cwd = os.path.join(cls.sandbox, "outer", "cwd")
        os.makedirs(cls.data_dir)
        os.makedirs(cls.cwd)
        cls.before = snapshot(cls.sandbox, cls.data_dir)
        cls.watched_before = {d: set(os.listdir(d)) for d in WATCHED_DIRS if os.path.isdir(d)}
        here = os.getcwd()
        os.chdir(cls.cwd)  # the server inherits it: a relative path would land in the sandbox
        try:
            super().setUpClass()
            cls.server.cleanup()
            cls.server = FloeServer(data_dir=cls.data_dir).start()
        finally:
            os.chdir(here)
        cls.s3 = cls.make_client("s3", s3={"addressing_style": "path"})
        cls.s3.create_bucket(Bucket=BUCKET)

    @classmethod
    def tearDownClass(cls):
        super().tearDownClass()
        shutil.rmtree(cls.sandbox, ignore_errors=True)

    def raw(self, method, path, body=None, headers=None):
        conn = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=60)
        conn.request(method, path, body=body, headers=headers or {})
        resp = conn.getresponse()
        data = resp.read()
        conn.close()
        return resp.status, data

    def write_everything(self):
        """Writes through every path that takes a key; returns {key: bytes} as stored."""
        stored = {}
        for key in keys():
            body = ("put %s" % key).encode()
            self.s3.put_object(Bucket=BUCKET, Key=key, Body=body)
            stored[key] = body
        for raw_path, key in RAW_KEYS:
            body = ("raw %s" % raw_path).encode()
            status, answer = self.raw("PUT", "/%s/%s" % (BUCKET, raw_path), body=body)
            self.assertEqual(status, 200, "a PUT to /%s/%s is stored (%r)" % (BUCKET, raw_path, answer[:200]))
            stored[key] = body
        key = "../../../%s-multipart" % MARKER
        up = self.s3.create_multipart_upload(Bucket=BUCKET, Key=key)["UploadId"]
        parts = [b"p" * (5 * MIB), b"q" * 1000]
        etags = [self.s3.upload_part(Bucket=BUCKET, Key=key, UploadId=up, PartNumber=i + 1, Body=p)["ETag"]
                 for i, p in enumerate(parts)]
        self.s3.complete_multipart_upload(Bucket=BUCKET, Key=key, UploadId=up, MultipartUpload={
            "Parts": [{"PartNumber": i + 1, "ETag": e} for i, e in enumerate(etags)]})
        stored[key] = b"".join(parts)
        copy_key = "/etc/%s-copy" % MARKER
        self.s3.copy_object(Bucket=BUCKET, Key=copy_key, CopySource={"Bucket": BUCKET, "Key": keys()[0]})
        stored[copy_key] = stored[keys()[0]]
        big_key = "../../%s-spilled" % MARKER
        big = os.urandom(SPILL_SIZE)
        self.s3.put_object(Bucket=BUCKET, Key=big_key, Body=big)
        stored[big_key] = big
        return stored

    def test_no_key_writes_outside_the_data_directory(self):
        stored = self.write_everything()
        for key, body in stored.items():
            self.assertEqual(self.s3.get_object(Bucket=BUCKET, Key=key)["Body"].read(), body,
                             "the object reads back under its exact key %r" % key[:60])
        after = snapshot(self.sandbox, self.data_dir)
        self.assertEqual(sorted(set(after) - set(self.before)), [], "nothing new appears beside the data directory")
        for d, names in self.watched_before.items():
            self.assertEqual(sorted(n for n in set(os.listdir(d)) - names if MARKER in n), [],
                             "nothing named after a key appears in %s" % d)
        for dirpath, dirnames, filenames in os.walk(self.sandbox):
            for name in dirnames + filenames:
                self.assertNotIn(MARKER, name, "no file or directory anywhere is named after a key")
        self.assertLayoutIsFloesOwn(len(stored))

    def assertLayoutIsFloesOwn(self, n_objects):
        top = set(os.listdir(self.data_dir))
        self.assertLessEqual(top, ALLOWED_TOP, "the data directory holds only Floe's own files: %s" % sorted(top))
        n_files = 0
        for dirpath, dirnames, filenames in os.walk(os.path.join(self.data_dir, "objects")):
            rel = os.path.relpath(dirpath, os.path.join(self.data_dir, "objects"))
            if rel != ".":
                self.assertRegex(rel, r"^[0-9a-f]{2}$", "objects/ holds only two-hex fan-out directories")
            for name in filenames:
                self.assertRegex(name, r"^[0-9a-f]{32}$", "object files are named by generated ids")
                self.assertEqual(name[:2], rel, "each file sits in the fan-out directory of its id")
                n_files += 1
        self.assertEqual(n_files, n_objects, "one file per object, and nothing else")
        self.assertEqual(os.listdir(os.path.join(self.data_dir, "tmp")), [], "no temporary file is left behind")

    def test_reads_of_host_paths_find_no_host_file(self):
        for path in ("/%s/../../../../../../etc/passwd" % BUCKET, "/%s/%%2e%%2e/%%2e%%2e/etc/passwd" % BUCKET,
                     "/%s//etc/passwd" % BUCKET, "/%s/..%%2F..%%2F..%%2Fetc%%2Fpasswd" % BUCKET, "/etc/passwd",
                     "/../../etc/passwd", "/%s/%s" % (BUCKET, urllib.parse.quote(self.data_dir + "/floe.db"))):
            with self.subTest(path=path):
                status, body = self.raw("GET", path)
                self.assertIn(status, (400, 404), "GET %s is refused or not found (%d)" % (path, status))
                self.assertNotIn(b"root:", body, "and never returns the host's /etc/passwd")
                self.assertNotIn(b"SQLite format", body, "or Floe's own database")
        status, body = self.raw("PUT", "/%s/copied-passwd" % BUCKET, headers={"x-amz-copy-source": "/etc/passwd"})
        self.assertEqual(status, 404, "a copy source naming a host path is a missing bucket")
        self.assertNotIn(b"root:", body, "and copies nothing from the host")


class ListenerTests(unittest.TestCase):
    """What a listener exposes (README, "Security")."""

    def test_default_listens_on_loopback_only(self):
        data_dir, port = tempfile.mkdtemp(prefix="floe-e2e-"), free_port()
        proc = subprocess.Popen([FLOE_BIN, "serve", "--port", str(port), "--data-dir", data_dir, "--quiet"])
        try:
            deadline = time.monotonic() + START_TIMEOUT_S
            while not listen_addresses(port) and proc.poll() is None and time.monotonic() < deadline:
                time.sleep(0.05)
            self.assertEqual(listen_addresses(port), {"0100007F"},
                             "without --host, Floe listens on 127.0.0.1 and nothing else")
        finally:
            proc.terminate()
            self.assertEqual(proc.wait(STOP_TIMEOUT_S), 0, "and exits 0 on SIGTERM")
            shutil.rmtree(data_dir, ignore_errors=True)

    def test_strict_signatures_on_all_interfaces_refuse_the_unsigned(self):
        # FloeServer passes --host 127.0.0.1 before these; the last --host wins.
        server = FloeServer("--strict-signatures", "--credentials", "AKIDSECURE:secret-key", "--host", "0.0.0.0")
        server.start()
        try:
            self.assertEqual(listen_addresses(server.port), {"00000000"}, "--host 0.0.0.0 listens on every interface")
            conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
            for method, path, headers, expect in [
                ("GET", "/", {}, b"<Code>AccessDenied</Code>"),
                ("PUT", "/bucket", {}, b"<Code>AccessDenied</Code>"),
                ("GET", "/buckets", {"Authorization": "AWS4-HMAC-SHA256 Credential=AKIDSECURE/20240101/us-east-1/"
                                     "s3tables/aws4_request, SignedHeaders=host, Signature=" + "0" * 64},
                 b'"message"'),
            ]:
                conn.request(method, path, headers=headers)
                resp = conn.getresponse()
                body = resp.read()
                self.assertEqual(resp.status, 403, "%s %s without a valid signature is 403" % (method, path))
                self.assertIn(expect, body, "in the service's error shape")
            conn.request("GET", "/_floe/health")
            resp = conn.getresponse()
            body = resp.read()
            self.assertEqual(resp.status, 200, "the health route answers without a signature")
            self.assertEqual(set(re.findall(rb'"(\w+)":', body)),
                             {b"status", b"version", b"services", b"s3tables", b"s3", b"cloudformation", b"sts", b"glue",
                              b"iam", b"athena"},
                             "and tells only its status, version and services")
            conn.close()
        finally:
            server.cleanup()

if __name__ == "__main__":
    main()

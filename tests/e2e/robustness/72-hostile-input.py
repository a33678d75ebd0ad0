#!/usr/bin/python3
"""Hostile input, table-driven, over raw sockets where a client library would refuse to send it:
malformed JSON, wrong JSON types, a 10 MB JSON body, a 100 KB header, NUL and invalid UTF-8 in
names and keys, percent-encoding tricks, 1,025-byte keys, negative and huge Content-Length, a
Range beyond the object, a truncated multipart upload, truncated bodies, and slowloris-style slow
headers.

Every case must get a 4xx in the service's error shape (S3 Tables: JSON with x-amzn-ErrorType;
S3: XML <Error>), or, for abuse of HTTP itself, a 4xx from the HTTP layer or a closed connection.
After every case nothing has been written (table buckets, namespaces, tables, S3 buckets,
objects and multipart uploads are listed and compared with the state before), and the server
answers the next normal request. At the end the server is alive and exits 0 on SIGTERM.
"""

import json
import os
import socket
import sys
import threading
import time
import urllib.parse
import xml.etree.ElementTree

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from floe_server import FloeTestCase, main  # noqa: E402

SOCKET_TIMEOUT_S = 30
SLOWLORIS_S = 4                # how long the slow connection dribbles
SLOWLORIS_STEP_S = 0.25        # one header byte this often
PROMPT_S = 5                   # "promptly": a generous bound, the machine is shared
BUCKET = "hostile"
KEY = "existing.txt"
BODY = b"0123456789"           # the one object that exists, 10 bytes
# Any credentials work in the default mode; the scope's service routes the request to S3 Tables.
S3TABLES_AUTH = ("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20240101/us-east-1/s3tables/aws4_request, "
                 "SignedHeaders=host, Signature=" + "0" * 64)

# Shapes of the expected answer.
S3TABLES = "s3tables"   # 4xx, x-amzn-ErrorType, JSON body with a message
S3 = "s3"               # 4xx, XML <Error><Code>
TRANSPORT = "transport"  # a 4xx from the HTTP layer, or the connection closed


def request(method, target, headers=(), body=b"", content_length=True):
    """The bytes of one HTTP/1.1 request. headers: (name, value) pairs, values str or bytes."""
    lines = [b"%s %s HTTP/1.1" % (method.encode(), target if isinstance(target, bytes) else target.encode()),
             b"Host: 127.0.0.1", b"Connection: close"]
    for name, value in headers:
        lines.append(name.encode() + b": " + (value if isinstance(value, bytes) else value.encode()))
    if content_length and body:
        lines.append(b"Content-Length: %d" % len(body))
    return b"\r\n".join(lines) + b"\r\n\r\n" + body


def s3tables(method, path, body=None, raw_body=None):
    """A request routed to S3 Tables; body is JSON-encoded, raw_body sent as is."""
    payload = raw_body if raw_body is not None else (json.dumps(body).encode() if body is not None else b"")
    return request(method, path, [("Authorization", S3TABLES_AUTH), ("Content-Type", "application/x-amz-json-1.1")],
                   payload)


def quote(arn):
    return urllib.parse.quote(arn, safe="")


class Answer:
    def __init__(self, status=None, headers=None, body=b"", closed=False):
        self.status, self.headers, self.body, self.closed = status, headers or {}, body, closed

    def __repr__(self):
        return "closed" if self.status is None else "%d %r %r" % (self.status, self.headers, self.body[:300])


def read_answer(sock):
    """Reads one response (or notices the connection closed without one)."""
    data = b""
    try:
        while b"\r\n\r\n" not in data:
            chunk = sock.recv(65536)
            if not chunk:
                return Answer(closed=True)
            data += chunk
    except ConnectionResetError:
        return Answer(closed=True)
    head, _, rest = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ", 2)[1])
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    length = int(headers.get("content-length", "0"))
    try:
        while len(rest) < length:
            chunk = sock.recv(65536)
            if not chunk:
                break
            rest += chunk
    except ConnectionResetError:
        pass
    return Answer(status, headers, rest[:length])


class HostileInputTests(FloeTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.s3 = cls.make_client("s3", s3={"addressing_style": "path"})
        cls.arn = cls.s3tables.create_table_bucket(name="hostile-home")["arn"]
        cls.s3tables.create_namespace(tableBucketARN=cls.arn, namespace=["ns"])
        cls.s3tables.create_table(tableBucketARN=cls.arn, namespace="ns", name="t", format="ICEBERG")
        cls.s3.create_bucket(Bucket=BUCKET)
        cls.s3.put_object(Bucket=BUCKET, Key=KEY, Body=BODY)
        cls.upload_id = cls.s3.create_multipart_upload(Bucket=BUCKET, Key="upload")["UploadId"]
        cls.n_cases = 0

    @classmethod
    def tearDownClass(cls):
        print("figures: hostile input: %d cases" % cls.n_cases, file=sys.stderr)
        super().tearDownClass()

    # -- plumbing -------------------------------------------------------------------------------

    def connect(self):
        return socket.create_connection(("127.0.0.1", self.server.port), timeout=SOCKET_TIMEOUT_S)

    def send(self, data, shut_write=False):
        """Sends raw bytes on a new connection and reads the answer."""
        with self.connect() as sock:
            try:
                sock.sendall(data)
                if shut_write:
                    sock.shutdown(socket.SHUT_WR)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the server may refuse before it has read everything
            return read_answer(sock)

    def state(self):
        """Everything a request could have written, as clients see it."""
        buckets = self.s3tables.list_table_buckets()["tableBuckets"]
        namespaces = self.s3tables.list_namespaces(tableBucketARN=self.arn)["namespaces"]
        tables = self.s3tables.list_tables(tableBucketARN=self.arn)["tables"]
        return {
            "table buckets": sorted(b["name"] for b in buckets),
            "namespaces": sorted(n["namespace"][0] for n in namespaces),
            "tables": sorted((t["namespace"][0], t["name"]) for t in tables),
            "s3 buckets": sorted(b["Name"] for b in self.s3.list_buckets()["Buckets"]),
            "objects": sorted((o["Key"], o["Size"], o["ETag"]) for o in
                              self.s3.list_objects_v2(Bucket=BUCKET).get("Contents", [])),
            "uploads": sorted((u["Key"], u["UploadId"]) for u in
                              self.s3.list_multipart_uploads(Bucket=BUCKET).get("Uploads", [])),
            "parts": [(p["PartNumber"], p["Size"]) for p in
                      self.s3.list_parts(Bucket=BUCKET, Key="upload", UploadId=self.upload_id).get("Parts", [])],
        }

    def assertShape(self, answer, shape, what):
        if shape == TRANSPORT:
            self.assertTrue(answer.closed or 400 <= answer.status < 500,
                            "%s: the HTTP layer refuses it or closes the connection (%r)" % (what, answer))
            return
        self.assertFalse(answer.closed, "%s: answered, not dropped" % what)
        self.assertTrue(400 <= answer.status < 500, "%s: answered with a 4xx (%r)" % (what, answer))
        if shape == S3TABLES:
            self.assertIn("x-amzn-errortype", answer.headers, "%s: S3 Tables names the error type (%r)" % (what, answer))
            self.assertIn("message", json.loads(answer.body), "%s: and says why in JSON" % what)
        else:
            if answer.headers.get("content-length", "0") != "0":
                self.assertRegex(answer.body, rb"^<\?xml[^>]*>\s*<Error><Code>\w+</Code>",
                                 "%s: S3 answers its XML <Error> (%r)" % (what, answer))
                try:
                    xml.etree.ElementTree.fromstring(answer.body)
                except xml.etree.ElementTree.ParseError as exc:
                    self.fail("%s: the error document is well-formed XML (%s: %r)" % (what, exc, answer.body))

    def assertServing(self, what):
        status, _, _ = self.get_health()
        self.assertEqual(status, 200, "after %s the server answers the next request" % what)

    def get_health(self):
        answer = self.send(request("GET", "/_floe/health"))
        return answer.status, answer.headers, answer.body

    def run_cases(self, cases):
        before = self.state()
        for what, data, shape, kwargs in cases:
            with self.subTest(case=what):
                type(self).n_cases += 1
                answer = self.send(data, **kwargs)
                self.assertShape(answer, shape, what)
                self.assertServing(what)
                self.assertEqual(self.state(), before, "%s: nothing was written" % what)

    # -- S3 Tables ------------------------------------------------------------------------------

    def test_s3tables_bodies(self):
        ns_path = "/namespaces/" + quote(self.arn)
        tables_path = "/tables/%s/ns" % quote(self.arn)
        ten_mb_name = {"name": "x" * (10 * 1024 * 1024)}
        ten_mb_padding = b'{"name":"padded-bucket","padding":[' + b",".join([b"0"] * (5 * 1024 * 1024)) + b"]}"
        cases = [
            ("malformed JSON", s3tables("PUT", "/buckets", raw_body=b'{"name":'), S3TABLES, {}),
            ("not JSON at all", s3tables("PUT", "/buckets", raw_body=b"\x00\x01garbage"), S3TABLES, {}),
            ("JSON with trailing garbage", s3tables("PUT", "/buckets", raw_body=b'{"name":"abc"} x'), S3TABLES, {}),
            ("a JSON array for an object", s3tables("PUT", "/buckets", raw_body=b'["abc"]'), S3TABLES, {}),
            ("null for the body", s3tables("PUT", "/buckets", raw_body=b"null"), S3TABLES, {}),
            ("a number for a name", s3tables("PUT", "/buckets", {"name": 5}), S3TABLES, {}),
            ("null for a required name", s3tables("PUT", "/buckets", {"name": None}), S3TABLES, {}),
            ("an object for a name", s3tables("PUT", "/buckets", {"name": {"a": 1}}), S3TABLES, {}),
            ("a string for a namespace list", s3tables("PUT", ns_path, {"namespace": "ns2"}), S3TABLES, {}),
            ("a number in the namespace list", s3tables("PUT", ns_path, {"namespace": [7]}), S3TABLES, {}),
            ("a string for tags", s3tables("PUT", "/buckets", {"name": "tagged", "tags": "k=v"}), S3TABLES, {}),
            ("an enum value that is not one", s3tables("PUT", tables_path, {"name": "t2", "format": "PARQUET"}),
             S3TABLES, {}),
            ("a boolean for a format", s3tables("PUT", tables_path, {"name": "t2", "format": True}), S3TABLES, {}),
            ("a 10 MB name", s3tables("PUT", "/buckets", ten_mb_name), S3TABLES, {}),
            ("a 10 MB body of padding", s3tables("PUT", "/buckets", raw_body=ten_mb_padding), S3TABLES, {}),
            ("a name with an escaped NUL", s3tables("PUT", "/buckets", raw_body=b'{"name":"abc\\u0000def"}'),
             S3TABLES, {}),
            ("a name with a raw NUL", s3tables("PUT", "/buckets", raw_body=b'{"name":"abc\x00def"}'), S3TABLES, {}),
            ("a name that is not UTF-8", s3tables("PUT", "/buckets", raw_body=b'{"name":"abc\xff\xfedef"}'),
             S3TABLES, {}),
            ("a lone surrogate escape", s3tables("PUT", "/buckets", raw_body=b'{"name":"abc\\ud800"}'), S3TABLES, {}),
            ("a table name with NUL", s3tables("PUT", tables_path, raw_body=b'{"name":"t\\u0000x","format":"ICEBERG"}'),
             S3TABLES, {}),
            ("a 1,025-byte table name", s3tables("PUT", tables_path, {"name": "t" * 1025, "format": "ICEBERG"}),
             S3TABLES, {}),
            ("metadata of the wrong type", s3tables("PUT", tables_path, {"name": "t3", "format": "ICEBERG",
                                                                        "metadata": {"iceberg": []}}), S3TABLES, {}),
            ("deeply nested JSON", s3tables("PUT", "/buckets", raw_body=b"[" * 100000 + b"]" * 100000), S3TABLES, {}),
            ("a version token of the wrong type",
             s3tables("PUT", "/tables/%s/ns/t/metadata-location" % quote(self.arn),
                      {"versionToken": 12, "metadataLocation": "s3://x/y"}), S3TABLES, {}),
        ]
        self.run_cases(cases)

    def test_s3tables_paths(self):
        arn = quote(self.arn)
        cases = [
            ("%2e%2e in a label", s3tables("GET", "/buckets/%2e%2e"), S3TABLES, {}),
            ("a traversal in the namespace", s3tables("GET", "/tables/%s/%%2e%%2e/t" % arn), S3TABLES, {}),
            ("a double-encoded slash in an ARN", s3tables("GET", "/buckets/" + arn.replace("%2F", "%252F")),
             S3TABLES, {}),
            ("%00 in a label", s3tables("GET", "/buckets/arn%00x"), S3TABLES, {}),
            ("%00 in a namespace", s3tables("DELETE", "/namespaces/%s/ns%%00" % arn), S3TABLES, {}),
            ("invalid UTF-8 in a label", s3tables("GET", "/tables/%s/ns/%%ff%%fe" % arn), S3TABLES, {}),
            ("a truncated escape", s3tables("GET", "/buckets/arn%3"), S3TABLES, {}),
            ("a bad escape in the query", s3tables("GET", "/buckets?prefix=%zz"), S3TABLES, {}),
            ("%00 in the query", s3tables("GET", "/buckets?prefix=a%00b"), S3TABLES, {}),
            ("an unknown path", s3tables("GET", "/../../etc/passwd"), S3TABLES, {}),
            ("a wrong method", s3tables("PATCH", "/buckets"), S3TABLES, {}),
            ("a 1,025-byte namespace in the path", s3tables("GET", "/namespaces/%s/%s" % (arn, "n" * 1025)),
             S3TABLES, {}),
        ]
        self.run_cases(cases)

    # -- S3 -------------------------------------------------------------------------------------

    def test_s3_keys_and_paths(self):
        long_key = "k" * 1025
        cases = [
            ("%2e%2e/ traversal", request("GET", "/%s/%%2e%%2e/%%2e%%2e/etc/passwd" % BUCKET), S3, {}),
            ("a plain ../ traversal", request("GET", "/%s/../../etc/passwd" % BUCKET), S3, {}),
            ("a double-encoded slash", request("GET", "/%s/a%%252Fb" % BUCKET), S3, {}),
            ("an encoded slash to a sibling bucket", request("GET", "/%s%%2F..%%2Fother/k" % BUCKET), S3, {}),
            ("%00 in a key (PUT)", request("PUT", "/%s/a%%00b" % BUCKET, body=b"x"), S3, {}),
            ("%00 in a bucket", request("PUT", "/host%%00ile/k", body=b"x"), S3, {}),
            ("invalid UTF-8 in a key (PUT)", request("PUT", "/%s/bad%%ff%%fe" % BUCKET, body=b"x"), S3, {}),
            ("raw invalid UTF-8 in a key (PUT)", request("PUT", b"/" + BUCKET.encode() + b"/raw\xff\xfe", body=b"x"),
             S3, {}),
            ("an overlong UTF-8 slash in a key", request("PUT", "/%s/a%%c0%%afb" % BUCKET, body=b"x"), S3, {}),
            ("a truncated escape in a key", request("PUT", "/%s/bad%%4" % BUCKET, body=b"x"), S3, {}),
            ("a 1,025-byte key (PUT)", request("PUT", "/%s/%s" % (BUCKET, long_key), body=b"x"), S3, {}),
            ("a 1,025-byte key (GET)", request("GET", "/%s/%s" % (BUCKET, long_key)), S3, {}),
            ("a bucket name with NUL", request("PUT", "/a%00b"), S3, {}),
            ("a bucket name that is not UTF-8", request("PUT", "/bucket%ff"), S3, {}),
            ("a Range beyond the object", request("GET", "/%s/%s" % (BUCKET, KEY), [("Range", "bytes=100-200")]),
             S3, {}),
            ("a Range starting at the size", request("GET", "/%s/%s" % (BUCKET, KEY), [("Range", "bytes=10-")]),
             S3, {}),
            ("XML with an external entity", request("POST", "/%s?delete" % BUCKET, body=(
                b'<?xml version="1.0"?><!DOCTYPE d [<!ENTITY e SYSTEM "file:///etc/passwd">]>'
                b"<Delete><Object><Key>&e;</Key></Object></Delete>")), S3, {}),
            ("XML billion laughs", request("POST", "/%s?delete" % BUCKET, body=(
                b'<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;">'
                b"]><Delete><Object><Key>&b;</Key></Object></Delete>")), S3, {}),
        ]
        self.run_cases(cases)

    def test_delete_objects_with_a_long_key_reports_it_and_deletes_nothing(self):
        answer = self.send(request("POST", "/%s?delete" % BUCKET, body=b"<Delete><Object><Key>" + b"k" * 1025 +
                                   b"</Key></Object></Delete>"))
        self.assertEqual(answer.status, 200, "DeleteObjects answers per key")
        self.assertIn(b"<Code>KeyTooLongError</Code>", answer.body, "and refuses the 1,025-byte key by name")

    # -- bodies and HTTP framing ----------------------------------------------------------------

    def test_truncated_and_mis_sized_bodies(self):
        put = "/%s/truncated" % BUCKET
        cases = [
            ("a body shorter than Content-Length, then EOF",
             request("PUT", put, [("Content-Length", "1000")], b"only this", content_length=False), TRANSPORT,
             {"shut_write": True}),
            ("headers cut off, then EOF", b"PUT " + put.encode() + b" HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Le",
             TRANSPORT, {"shut_write": True}),
            ("a negative Content-Length", request("PUT", put, [("Content-Length", "-5")], b"hello",
                                                  content_length=False), TRANSPORT, {}),
            ("a huge Content-Length", request("PUT", put, [("Content-Length", "99999999999999999999")], b"hello",
                                              content_length=False), TRANSPORT, {"shut_write": True}),
            ("a Content-Length over the largest PUT", request("PUT", put, [("Content-Length", str(6 << 30))], b"x",
                                                              content_length=False), TRANSPORT, {"shut_write": True}),
            ("a non-numeric Content-Length", request("PUT", put, [("Content-Length", "five")], b"hello",
                                                     content_length=False), TRANSPORT, {}),
            ("a truncated aws-chunked body", request("PUT", put, [("Content-Encoding", "aws-chunked"),
                                                                  ("x-amz-decoded-content-length", "100")],
                                                     b"64\r\n" + b"x" * 10), S3, {}),
            ("aws-chunked shorter than declared", request("PUT", put, [("Content-Encoding", "aws-chunked"),
                                                                       ("x-amz-decoded-content-length", "100")],
                                                          b"a\r\n0123456789\r\n0\r\n\r\n"), S3, {}),
            ("a 100 KB header", request("GET", "/%s/%s" % (BUCKET, KEY), [("x-amz-meta-big", "v" * (100 * 1024))]),
             S3, {}),
            ("a 100 KB header on a PUT", request("PUT", put, [("x-amz-meta-big", "v" * (100 * 1024))], b"x"), S3, {}),
            ("a 100 KB header to S3 Tables", request("GET", "/buckets", [("Authorization", S3TABLES_AUTH),
                                                                         ("x-pad", "v" * (100 * 1024))]),
             S3TABLES, {}),
            ("a 100 KB request line", request("GET", "/%s/%s" % (BUCKET, "k" * (100 * 1024))), TRANSPORT, {}),
            ("a NUL in a header value", request("GET", "/%s/%s" % (BUCKET, KEY), [("x-amz-meta-a", b"a\x00b")]),
             TRANSPORT, {}),
            ("a NUL in the request line", b"GET /" + BUCKET.encode() + b"/a\x00b HTTP/1.1\r\nHost: x\r\n\r\n",
             TRANSPORT, {}),
            ("not HTTP at all", b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + os.urandom(64) + b"\r\n\r\n",
             TRANSPORT, {}),
            ("a bad Transfer-Encoding chunk", request("PUT", put, [("Transfer-Encoding", "chunked")],
                                                      b"zz\r\nhello\r\n0\r\n\r\n", content_length=False),
             TRANSPORT, {}),
            ("a chunked body cut short", request("PUT", put, [("Transfer-Encoding", "chunked")], b"100\r\nhello",
                                                 content_length=False), TRANSPORT, {"shut_write": True}),
        ]
        self.run_cases(cases)

    def test_truncated_multipart_upload(self):
        path = "/%s/upload?uploadId=%s" % (BUCKET, self.upload_id)
        cases = [
            ("an UploadPart cut short, then EOF",
             request("PUT", "/%s/upload?partNumber=1&uploadId=%s" % (BUCKET, self.upload_id),
                     [("Content-Length", str(5 << 20))], b"x" * 1000, content_length=False), TRANSPORT,
             {"shut_write": True}),
            ("Complete with a part never uploaded", request("POST", path, body=(
                b"<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>\"00000000000000000000000000000000\""
                b"</ETag></Part></CompleteMultipartUpload>")), S3, {}),
            ("Complete with a truncated part list", request("POST", path, body=(
                b"<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>\"0000")), S3, {}),
            ("Complete with an empty part list", request("POST", path, body=b"<CompleteMultipartUpload/>"), S3, {}),
            ("Complete with 10,001 parts", request("POST", path, body=b"<CompleteMultipartUpload>" + b"".join(
                b"<Part><PartNumber>%d</PartNumber><ETag>x</ETag></Part>" % (i + 1) for i in range(10001)) +
                b"</CompleteMultipartUpload>"), S3, {}),
            ("Complete with part number 0", request("POST", path, body=(
                b"<CompleteMultipartUpload><Part><PartNumber>0</PartNumber><ETag>x</ETag></Part>"
                b"</CompleteMultipartUpload>")), S3, {}),
            ("Complete with a huge part number", request("POST", path, body=(
                b"<CompleteMultipartUpload><Part><PartNumber>99999999999999999999</PartNumber><ETag>x</ETag>"
                b"</Part></CompleteMultipartUpload>")), S3, {}),
            ("Complete of an unknown upload", request("POST", "/%s/upload?uploadId=nope" % BUCKET, body=(
                b"<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>x</ETag></Part>"
                b"</CompleteMultipartUpload>")), S3, {}),
        ]
        self.run_cases(cases)

    # -- slow clients ---------------------------------------------------------------------------

    def test_slow_headers_do_not_stall_other_clients(self):
        stop = threading.Event()
        dribbled = []

        def dribble():
            with self.connect() as sock:
                sock.sendall(b"GET /_floe/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
                while not stop.is_set():
                    try:
                        sock.sendall(b"a")
                    except OSError:
                        return
                    dribbled.append(1)
                    stop.wait(SLOWLORIS_STEP_S)

        slow = threading.Thread(target=dribble)
        slow.start()
        deadline = time.monotonic() + SLOWLORIS_S
        answered = 0
        try:
            while time.monotonic() < deadline:
                started = time.monotonic()
                self.assertEqual(self.get_health()[0], 200, "a normal request is answered while one dribbles")
                self.assertEqual(self.s3.get_object(Bucket=BUCKET, Key=KEY)["Body"].read(), BODY,
                                 "and so is an S3 read")
                self.assertLess(time.monotonic() - started, PROMPT_S, "promptly")
                answered += 1
        finally:
            stop.set()
            slow.join()
        self.assertGreater(len(dribbled), 1, "the slow connection was still open and dribbling")
        self.assertGreater(answered, 0, "other clients were served meanwhile")
        print("figures: hostile input: %d request pairs answered while a connection dribbled its headers" % answered,
              file=sys.stderr)


if __name__ == "__main__":
    main()

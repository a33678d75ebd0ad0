#!/usr/bin/python3
"""The S3 data plane end to end with boto3 and the aws CLI: bucket rules, object CRUD, metadata,
ranges, conditional requests, copies, batch deletes, listings (v1 and v2, delimiters, paging over
2,500 keys), multipart uploads, checksums, awkward keys, addressing styles, errors in S3's XML
shape, and a store that survives restarts and sweeps what a crash leaves behind."""

import base64
import datetime
import hashlib
import http.client
import os
import contextlib
import sqlite3
import struct
import sys
import tempfile
import urllib.request
import zlib

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from floe_server import FloeTestCase, main  # noqa: E402

MIB = 1024 * 1024


def md5_hex(data):
    return hashlib.md5(data).hexdigest()


def b64(raw):
    return base64.b64encode(raw).decode()


def crc32_b64(data):
    return b64(struct.pack(">I", zlib.crc32(data) & 0xFFFFFFFF))


def reflected_crc_b64(data, poly, bits):
    """A reflected CRC with all-ones init and xorout (CRC32C, CRC-64/NVME), bit by bit, in big-endian base64."""
    mask = (1 << bits) - 1
    crc = mask
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ poly if crc & 1 else crc >> 1
    return b64((crc ^ mask).to_bytes(bits // 8, "big"))


def crc32c_b64(data):
    return reflected_crc_b64(data, 0x82F63B78, 32)


def crc64nvme_b64(data):
    return reflected_crc_b64(data, 0x9A6C9329AC4BC9B5, 64)


def file_md5(path):
    h = hashlib.md5()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(MIB), b""):
            h.update(block)
    return h.hexdigest()


class S3TestCase(FloeTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.s3 = cls.make_client("s3", s3={"addressing_style": "path"})
        cls.s3_unchecked = cls.make_client("s3", s3={"addressing_style": "path"}, parameter_validation=False)

    def bucket(self, name):
        self.s3.create_bucket(Bucket=name)
        return name

    def raw(self, method, path, body=None, headers=None):
        """One hand-built request, for tests about the wire itself (Host headers, framing, XML)."""
        conn = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=30)
        conn.request(method, path, body=body, headers=headers or {})
        resp = conn.getresponse()
        data = resp.read()
        conn.close()
        return resp.status, dict((k.lower(), v) for k, v in resp.getheaders()), data


class BucketTests(S3TestCase):
    def test_valid_names_are_created_and_listed(self):
        names = ["abc", "a" * 63, "my.dotted.bucket", "0-digits-1", "with-hyphen"]
        for name in names:
            self.s3.create_bucket(Bucket=name)
        listed = [b["Name"] for b in self.s3.list_buckets()["Buckets"]]
        for name in names:
            self.assertIn(name, listed, "ListBuckets shows the bucket %r" % name)
        self.assertEqual(listed, sorted(listed), "ListBuckets lists buckets by name")

    def test_invalid_names_are_refused(self):
        for name in ("ab", "a" * 64, "Upper", "under_score", "-start", "end-", "dot.", "192.168.5.4", "a..b",
                     "xn--punycode", "sthree-bucket", "amzn-s3-demo-bucket", "name-s3alias", "name--ol-s3",
                     "name--x-s3", "x--table-s3", "warehouse--table-s3"):
            with self.subTest(name=name):
                resp = self.assertClientError("InvalidBucketName", self.s3_unchecked.create_bucket, Bucket=name)
                self.assertEqual(resp["ResponseMetadata"]["HTTPStatusCode"], 400, "InvalidBucketName is HTTP 400")

    def test_creating_an_existing_bucket_is_already_owned(self):
        self.bucket("owned-twice")
        resp = self.assertClientError("BucketAlreadyOwnedByYou", self.s3.create_bucket, Bucket="owned-twice")
        self.assertEqual(resp["ResponseMetadata"]["HTTPStatusCode"], 409, "BucketAlreadyOwnedByYou is HTTP 409")

    def test_head_bucket(self):
        self.bucket("head-me")
        resp = self.s3.head_bucket(Bucket="head-me")
        self.assertEqual(resp["ResponseMetadata"]["HTTPHeaders"]["x-amz-bucket-region"], "us-east-1",
                         "HeadBucket names the bucket's region")
        self.assertClientError("404", self.s3.head_bucket, Bucket="no-such-bucket-here")

    def test_location_constraint_round_trips(self):
        self.bucket("default-region")
        self.assertIsNone(self.s3.get_bucket_location(Bucket="default-region")["LocationConstraint"],
                          "a bucket created without a configuration is in us-east-1 (no constraint)")
        self.s3.create_bucket(Bucket="in-eu-west-1", CreateBucketConfiguration={"LocationConstraint": "eu-west-1"})
        self.assertEqual(self.s3.get_bucket_location(Bucket="in-eu-west-1")["LocationConstraint"], "eu-west-1",
                         "GetBucketLocation returns the LocationConstraint it was created with")

    def test_delete_bucket(self):
        self.bucket("full-bucket")
        self.s3.put_object(Bucket="full-bucket", Key="k", Body=b"x")
        self.assertClientError("BucketNotEmpty", self.s3.delete_bucket, Bucket="full-bucket")
        self.s3.delete_object(Bucket="full-bucket", Key="k")
        resp = self.s3.delete_bucket(Bucket="full-bucket")
        self.assertEqual(resp["ResponseMetadata"]["HTTPStatusCode"], 204, "DeleteBucket answers 204")
        self.assertClientError("NoSuchBucket", self.s3.delete_bucket, Bucket="full-bucket")
        self.assertNotIn("full-bucket", [b["Name"] for b in self.s3.list_buckets()["Buckets"]],
                         "a deleted bucket is no longer listed")

    def test_unsupported_operations_answer_not_implemented(self):
        self.bucket("no-versioning")
        resp = self.assertClientError("NotImplemented", self.s3.get_bucket_versioning, Bucket="no-versioning")
        self.assertEqual(resp["ResponseMetadata"]["HTTPStatusCode"], 501, "NotImplemented is HTTP 501")
        self.assertIn("GetBucketVersioning", resp["Error"]["Message"], "the message names the operation")
        self.assertClientError("NotImplemented", self.s3.put_bucket_acl, Bucket="no-versioning", ACL="private")
        self.assertClientError("NotImplemented", self.s3.list_object_versions, Bucket="no-versioning")


class ObjectTests(S3TestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.s3.create_bucket(Bucket="objects")

    def test_put_get_head_delete(self):
        body = b"hello, floe\n" * 100
        put = self.s3.put_object(Bucket="objects", Key="crud.txt", Body=body)
        self.assertEqual(put["ETag"], '"%s"' % md5_hex(body), "the ETag is the quoted MD5 of the body")
        got = self.s3.get_object(Bucket="objects", Key="crud.txt")
        self.assertEqual(got["Body"].read(), body, "GetObject returns the bytes that were put")
        self.assertEqual(got["ContentLength"], len(body), "GetObject sends Content-Length")
        self.assertEqual(got["ETag"], put["ETag"], "GetObject returns the same ETag")
        head = self.s3.head_object(Bucket="objects", Key="crud.txt")
        self.assertEqual(head["ContentLength"], len(body), "HeadObject reports the size")
        self.assertEqual(head["ContentType"], "binary/octet-stream", "an object put without a type gets S3's default")
        self.assertIsNotNone(head["LastModified"].tzinfo, "LastModified is a date")
        resp = self.s3.delete_object(Bucket="objects", Key="crud.txt")
        self.assertEqual(resp["ResponseMetadata"]["HTTPStatusCode"], 204, "DeleteObject answers 204")
        self.assertClientError("NoSuchKey", self.s3.get_object, Bucket="objects", Key="crud.txt")
        resp = self.s3.delete_object(Bucket="objects", Key="crud.txt")
        self.assertEqual(resp["ResponseMetadata"]["HTTPStatusCode"], 204, "deleting a missing key is still 204")

    def test_overwrite_replaces_the_object(self):
        self.s3.put_object(Bucket="objects", Key="over", Body=b"first version")
        self.s3.put_object(Bucket="objects", Key="over", Body=b"second")
        self.assertEqual(self.s3.get_object(Bucket="objects", Key="over")["Body"].read(), b"second",
                         "the last write wins")

    def test_empty_object(self):
        put = self.s3.put_object(Bucket="objects", Key="empty", Body=b"")
        self.assertEqual(put["ETag"], '"d41d8cd98f00b204e9800998ecf8427e"', "an empty object has the MD5 of nothing")
        self.assertEqual(self.s3.get_object(Bucket="objects", Key="empty")["Body"].read(), b"",
                         "an empty object reads back empty")

    def test_errors_name_the_key_and_bucket(self):
        resp = self.assertClientError("NoSuchKey", self.s3.get_object, Bucket="objects", Key="missing/key")
        self.assertEqual(resp["Error"]["Message"], "The specified key does not exist.", "S3's NoSuchKey message")
        self.assertEqual(resp["Error"]["Key"], "missing/key", "the error names the key")
        self.assertEqual(resp["ResponseMetadata"]["HTTPStatusCode"], 404, "NoSuchKey is HTTP 404")
        resp = self.assertClientError("NoSuchBucket", self.s3.get_object, Bucket="no-such-bucket-x", Key="k")
        self.assertEqual(resp["Error"]["Message"], "The specified bucket does not exist", "S3's NoSuchBucket message")
        self.assertEqual(resp["Error"]["BucketName"], "no-such-bucket-x", "the error names the bucket")
        self.assertClientError("404", self.s3.head_object, Bucket="objects", Key="missing/key")

    def test_error_body_is_s3_xml(self):
        status, headers, body = self.raw("GET", "/objects/missing")
        self.assertEqual(status, 404, "a missing key is 404")
        self.assertEqual(headers["content-type"], "application/xml", "errors are XML")
        self.assertTrue(body.startswith(b'<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>NoSuchKey</Code>'),
                        "the error document is S3's <Error> shape: %r" % body[:120])
        self.assertIn(("<RequestId>%s</RequestId>" % headers["x-amz-request-id"]).encode(), body,
                      "the body's RequestId is the x-amz-request-id header")
        status, headers, body = self.raw("HEAD", "/objects/missing")
        self.assertEqual((status, body), (404, b""), "a HEAD error has a status and no body")

    def test_metadata_round_trips(self):
        self.s3.put_object(Bucket="objects", Key="meta", Body=b"{}", ContentType="application/json",
                           ContentDisposition='attachment; filename="x.json"', CacheControl="max-age=60",
                           ContentEncoding="identity", ContentLanguage="en",
                           Metadata={"color": "blue", "Mixed-Case": "Value With Spaces"})
        head = self.s3.head_object(Bucket="objects", Key="meta")
        self.assertEqual(head["ContentType"], "application/json", "Content-Type round-trips")
        self.assertEqual(head["ContentDisposition"], 'attachment; filename="x.json"', "Content-Disposition round-trips")
        self.assertEqual(head["CacheControl"], "max-age=60", "Cache-Control round-trips")
        self.assertEqual(head["ContentEncoding"], "identity", "Content-Encoding round-trips")
        self.assertEqual(head["ContentLanguage"], "en", "Content-Language round-trips")
        self.assertEqual(head["Metadata"], {"color": "blue", "mixed-case": "Value With Spaces"},
                         "x-amz-meta-* round-trips, names lower-cased as S3 does")
        got = self.s3.get_object(Bucket="objects", Key="meta", ResponseContentType="text/plain",
                                 ResponseCacheControl="no-cache")
        self.assertEqual(got["ContentType"], "text/plain", "response-content-type overrides the stored type")
        self.assertEqual(got["CacheControl"], "no-cache", "response-cache-control overrides the stored value")

    def test_content_md5_is_verified(self):
        body = b"checked body"
        self.s3.put_object(Bucket="objects", Key="md5-ok", Body=body, ContentMD5=b64(hashlib.md5(body).digest()))
        self.assertClientError("BadDigest", self.s3.put_object, Bucket="objects", Key="md5-bad", Body=body,
                               ContentMD5=b64(hashlib.md5(b"other").digest()))
        self.assertClientError("InvalidDigest", self.s3.put_object, Bucket="objects", Key="md5-bad", Body=body,
                               ContentMD5="not-base64!")
        self.assertClientError("404", self.s3.head_object, Bucket="objects", Key="md5-bad")

    def test_additional_checksums_are_verified_and_returned(self):
        body = b"checksummed " * 1000
        put = self.s3.put_object(Bucket="objects", Key="crc32", Body=body, ChecksumAlgorithm="CRC32")
        self.assertEqual(put["ChecksumCRC32"], crc32_b64(body), "PutObject echoes the CRC32 it verified")
        got = self.s3.get_object(Bucket="objects", Key="crc32", ChecksumMode="ENABLED")
        self.assertEqual(got["ChecksumCRC32"], crc32_b64(body), "GetObject returns the stored CRC32 when asked")
        self.assertEqual(got["Body"].read(), body, "the body is intact")
        put = self.s3.put_object(Bucket="objects", Key="crc32c", Body=body, ChecksumCRC32C=crc32c_b64(body))
        self.assertEqual(put["ChecksumCRC32C"], crc32c_b64(body), "a correct CRC32C is accepted and echoed")
        put = self.s3.put_object(Bucket="objects", Key="sha256", Body=body,
                                 ChecksumSHA256=b64(hashlib.sha256(body).digest()))
        self.assertEqual(put["ChecksumSHA256"], b64(hashlib.sha256(body).digest()), "a correct SHA256 is echoed")
        resp = self.assertClientError("BadDigest", self.s3.put_object, Bucket="objects", Key="crc-bad", Body=body,
                                      ChecksumCRC32=crc32_b64(b"something else"))
        self.assertIn("CRC32", resp["Error"]["Message"], "the message names the checksum that failed")
        self.assertClientError("BadDigest", self.s3.put_object, Bucket="objects", Key="crc-bad", Body=body,
                               ChecksumCRC32C=crc32c_b64(b"something else"))
        self.assertClientError("InvalidRequest", self.s3.put_object, Bucket="objects", Key="crc-bad", Body=body,
                               ChecksumCRC32="AAAA")
        self.assertClientError("404", self.s3.head_object, Bucket="objects", Key="crc-bad")

    def test_upload_without_a_checksum_gets_the_default_crc64nvme(self):
        # Debian's boto3 sends no checksum and predates CRC64NVME: its user reads the headers
        body = b"no checksum named " * 300
        self.assertEqual(crc64nvme_b64(b"123456789"), b64(bytes.fromhex("ae8b14860a799888")), "the check value")
        put = self.s3.put_object(Bucket="objects", Key="default-crc", Body=body)
        self.assertEqual(put["ResponseMetadata"]["HTTPHeaders"].get("x-amz-checksum-crc64nvme"), crc64nvme_b64(body),
                         "S3 adds a CRC64NVME to an upload without a checksum and answers it")
        self.assertEqual(put["ResponseMetadata"]["HTTPHeaders"].get("x-amz-checksum-type"), "FULL_OBJECT")
        head = self.s3.head_object(Bucket="objects", Key="default-crc", ChecksumMode="ENABLED")
        self.assertEqual(head["ResponseMetadata"]["HTTPHeaders"].get("x-amz-checksum-crc64nvme"),
                         crc64nvme_b64(body), "HeadObject reports it when asked")
        listed = self.s3.list_objects_v2(Bucket="objects", Prefix="default-crc")["Contents"][0]
        self.assertEqual(listed["ChecksumAlgorithm"], ["CRC64NVME"], "ListObjectsV2 names the algorithm")

    def test_wrong_payload_sha256_is_refused(self):
        status, _, body = self.raw("PUT", "/objects/sha-mismatch", body=b"payload",
                                   headers={"x-amz-content-sha256": hashlib.sha256(b"other").hexdigest()})
        self.assertEqual(status, 400, "a body that does not match x-amz-content-sha256 is refused")
        self.assertIn(b"<Code>XAmzContentSHA256Mismatch</Code>", body, "with S3's error code")

    def test_ranges(self):
        body = bytes(range(256)) * 4
        self.s3.put_object(Bucket="objects", Key="ranged", Body=body)
        cases = {"bytes=0-9": (0, 9), "bytes=1000-": (1000, 1023), "bytes=-24": (1000, 1023),
                 "bytes=1020-5000": (1020, 1023), "bytes=-5000": (0, 1023)}
        for header, (first, last) in cases.items():
            with self.subTest(range=header):
                got = self.s3.get_object(Bucket="objects", Key="ranged", Range=header)
                self.assertEqual(got["ResponseMetadata"]["HTTPStatusCode"], 206, "a range answers 206")
                self.assertEqual(got["ContentRange"], "bytes %d-%d/1024" % (first, last), "Content-Range is exact")
                self.assertEqual(got["Body"].read(), body[first:last + 1], "the bytes are the range asked for")
        resp = self.assertClientError("InvalidRange", self.s3.get_object, Bucket="objects", Key="ranged",
                                      Range="bytes=1024-")
        self.assertEqual(resp["ResponseMetadata"]["HTTPStatusCode"], 416, "an unsatisfiable range is 416")
        got = self.s3.get_object(Bucket="objects", Key="ranged", Range="bytes=5-2")
        self.assertEqual(got["ResponseMetadata"]["HTTPStatusCode"], 200, "a malformed range is ignored, as S3 does")

    def test_conditional_requests(self):
        put = self.s3.put_object(Bucket="objects", Key="cond", Body=b"conditional")
        etag = put["ETag"]
        past = datetime.datetime(2000, 1, 1, tzinfo=datetime.timezone.utc)
        future = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(days=1)
        self.assertEqual(self.s3.get_object(Bucket="objects", Key="cond", IfMatch=etag)["Body"].read(),
                         b"conditional", "If-Match with the current ETag serves the object")
        resp = self.assertClientError("PreconditionFailed", self.s3.get_object, Bucket="objects", Key="cond",
                                      IfMatch='"0000"')
        self.assertEqual(resp["ResponseMetadata"]["HTTPStatusCode"], 412, "a failed If-Match is 412")
        self.assertClientError("304", self.s3.get_object, Bucket="objects", Key="cond", IfNoneMatch=etag)
        self.assertClientError("304", self.s3.get_object, Bucket="objects", Key="cond", IfModifiedSince=future)
        self.assertClientError("PreconditionFailed", self.s3.get_object, Bucket="objects", Key="cond",
                               IfUnmodifiedSince=past)
        got = self.s3.get_object(Bucket="objects", Key="cond", IfModifiedSince=past)
        self.assertEqual(got["ResponseMetadata"]["HTTPStatusCode"], 200, "modified since 2000: served")
        got = self.s3.get_object(Bucket="objects", Key="cond", IfMatch=etag, IfUnmodifiedSince=past)
        self.assertEqual(got["ResponseMetadata"]["HTTPStatusCode"], 200,
                         "If-Match true wins over If-Unmodified-Since false, as S3 documents")
        self.assertClientError("304", self.s3.head_object, Bucket="objects", Key="cond", IfNoneMatch=etag)

    def test_conditional_writes(self):
        # boto3 1.26 predates conditional writes (2024), so these go on the wire directly.
        status, _, _ = self.raw("PUT", "/objects/only-once", body=b"1", headers={"If-None-Match": "*"})
        self.assertEqual(status, 200, "If-None-Match: * writes a key that does not exist")
        status, _, body = self.raw("PUT", "/objects/only-once", body=b"2", headers={"If-None-Match": "*"})
        self.assertEqual(status, 412, "If-None-Match: * refuses to overwrite an existing key")
        self.assertEqual(self.s3.get_object(Bucket="objects", Key="only-once")["Body"].read(), b"1",
                         "the refused write changed nothing")

    def test_copy_object(self):
        self.s3.create_bucket(Bucket="copy-target")
        self.s3.put_object(Bucket="objects", Key="copy-src", Body=b"copied bytes", ContentType="text/plain",
                           Metadata={"origin": "source"})
        resp = self.s3.copy_object(Bucket="copy-target", Key="copy-dst", CopySource="objects/copy-src")
        self.assertEqual(resp["CopyObjectResult"]["ETag"], '"%s"' % md5_hex(b"copied bytes"),
                         "the copy has the source's ETag")
        head = self.s3.head_object(Bucket="copy-target", Key="copy-dst")
        self.assertEqual((head["ContentType"], head["Metadata"]), ("text/plain", {"origin": "source"}),
                         "the COPY directive keeps the source's metadata")
        self.s3.copy_object(Bucket="objects", Key="copy-src", CopySource={"Bucket": "objects", "Key": "copy-src"},
                            MetadataDirective="REPLACE", ContentType="application/octet-stream",
                            Metadata={"origin": "replaced"})
        head = self.s3.head_object(Bucket="objects", Key="copy-src")
        self.assertEqual((head["ContentType"], head["Metadata"]), ("application/octet-stream", {"origin": "replaced"}),
                         "REPLACE takes the request's metadata, also when copying onto itself")
        self.assertEqual(self.s3.get_object(Bucket="objects", Key="copy-src")["Body"].read(), b"copied bytes",
                         "copying onto itself keeps the bytes")
        self.assertClientError("InvalidRequest", self.s3.copy_object, Bucket="objects", Key="copy-src",
                               CopySource="objects/copy-src")
        self.assertClientError("NoSuchKey", self.s3.copy_object, Bucket="objects", Key="x",
                               CopySource="objects/no-such-source")
        self.assertClientError("PreconditionFailed", self.s3.copy_object, Bucket="objects", Key="x",
                               CopySource="objects/copy-src", CopySourceIfMatch='"nope"')

    def test_delete_objects(self):
        for key in ("batch/1", "batch/2", "batch/3"):
            self.s3.put_object(Bucket="objects", Key=key, Body=b"x")
        resp = self.s3.delete_objects(Bucket="objects", Delete={"Objects": [
            {"Key": "batch/1"}, {"Key": "batch/2"}, {"Key": "batch/never-existed"}]})
        self.assertEqual(sorted(d["Key"] for d in resp["Deleted"]), ["batch/1", "batch/2", "batch/never-existed"],
                         "every named key is reported deleted, missing ones too")
        self.assertNotIn("Errors", resp, "no errors")
        resp = self.s3.delete_objects(Bucket="objects", Delete={"Objects": [{"Key": "batch/3"}], "Quiet": True})
        self.assertNotIn("Deleted", resp, "quiet mode reports no successes")
        left = self.s3.list_objects_v2(Bucket="objects", Prefix="batch/").get("Contents", [])
        self.assertEqual(left, [], "the batch is gone")
        status, _, body = self.raw("POST", "/objects?delete", body=b"<Delete><Object><Key>a</Key></Object>")
        self.assertEqual(status, 400, "a malformed DeleteObjects body is refused")
        self.assertIn(b"<Code>MalformedXML</Code>", body, "as MalformedXML")

    def test_xml_entities_are_not_expanded(self):
        self.s3.put_object(Bucket="objects", Key="xxe", Body=b"kept")
        evil = (b'<?xml version="1.0"?><!DOCTYPE d [<!ENTITY e SYSTEM "file:///etc/passwd">]>'
                b"<Delete><Object><Key>&e;</Key></Object></Delete>")
        status, _, body = self.raw("POST", "/objects?delete", body=evil)
        self.assertEqual(status, 400, "a body with a DTD is refused")
        self.assertNotIn(b"root:", body, "no file content leaks into the answer")


class ListingTests(S3TestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.s3.create_bucket(Bucket="listing")
        for key in ("a.txt", "photos/2024/jan.jpg", "photos/2024/feb.jpg", "photos/2025/mar.jpg", "photos/cover.jpg",
                    "videos/clip.mp4", "z.txt"):
            cls.s3.put_object(Bucket="listing", Key=key, Body=key.encode())

    def test_v2_with_delimiter_rolls_up_common_prefixes(self):
        resp = self.s3.list_objects_v2(Bucket="listing", Delimiter="/")
        self.assertEqual([o["Key"] for o in resp["Contents"]], ["a.txt", "z.txt"], "top-level keys are listed")
        self.assertEqual([p["Prefix"] for p in resp["CommonPrefixes"]], ["photos/", "videos/"],
                         "keys below a '/' roll up into common prefixes")
        self.assertEqual(resp["KeyCount"], 4, "KeyCount counts keys and common prefixes")
        resp = self.s3.list_objects_v2(Bucket="listing", Prefix="photos/", Delimiter="/")
        self.assertEqual([o["Key"] for o in resp["Contents"]], ["photos/cover.jpg"], "the prefix's own keys")
        self.assertEqual([p["Prefix"] for p in resp["CommonPrefixes"]], ["photos/2024/", "photos/2025/"],
                         "the next level rolls up")

    def test_v2_without_delimiter_lists_every_key_in_order(self):
        resp = self.s3.list_objects_v2(Bucket="listing", Prefix="photos/")
        keys = [o["Key"] for o in resp["Contents"]]
        self.assertEqual(keys, ["photos/2024/feb.jpg", "photos/2024/jan.jpg", "photos/2025/mar.jpg",
                                "photos/cover.jpg"], "keys under the prefix come in byte order")
        first = resp["Contents"][0]
        self.assertEqual(first["Size"], len(b"photos/2024/feb.jpg"), "Size is the object size")
        self.assertEqual(first["ETag"], '"%s"' % md5_hex(b"photos/2024/feb.jpg"), "ETag is listed quoted")
        self.assertEqual(first["StorageClass"], "STANDARD", "StorageClass is STANDARD")
        self.assertNotIn("Owner", first, "v2 names no owner unless asked")
        self.assertIn("Owner", self.s3.list_objects_v2(Bucket="listing", FetchOwner=True)["Contents"][0],
                      "fetch-owner=true adds the owner")

    def test_v2_start_after_and_max_keys(self):
        resp = self.s3.list_objects_v2(Bucket="listing", StartAfter="photos/2025/mar.jpg", MaxKeys=2)
        self.assertEqual([o["Key"] for o in resp["Contents"]], ["photos/cover.jpg", "videos/clip.mp4"],
                         "start-after starts strictly after the key")
        self.assertTrue(resp["IsTruncated"], "more keys remain")
        nxt = self.s3.list_objects_v2(Bucket="listing", ContinuationToken=resp["NextContinuationToken"])
        self.assertEqual([o["Key"] for o in nxt["Contents"]], ["z.txt"], "the token resumes after the page")
        self.assertFalse(nxt["IsTruncated"], "the last page is not truncated")
        self.assertClientError("InvalidArgument", self.s3.list_objects_v2, Bucket="listing",
                               ContinuationToken="not a token")

    def test_delimiter_pages_never_repeat_a_common_prefix(self):
        seen = []
        for page in self.s3.get_paginator("list_objects_v2").paginate(Bucket="listing", Delimiter="/",
                                                                      PaginationConfig={"PageSize": 1}):
            seen += [o["Key"] for o in page.get("Contents", [])] + [p["Prefix"] for p in page.get("CommonPrefixes", [])]
        self.assertEqual(seen, ["a.txt", "photos/", "videos/", "z.txt"], "one item a page, each exactly once")

    def test_v1_marker_and_next_marker(self):
        resp = self.s3.list_objects(Bucket="listing", MaxKeys=3)
        self.assertEqual([o["Key"] for o in resp["Contents"]], ["a.txt", "photos/2024/feb.jpg", "photos/2024/jan.jpg"],
                         "ListObjects v1 lists in order")
        self.assertTrue(resp["IsTruncated"], "v1 says when it is truncated")
        self.assertIn("Owner", resp["Contents"][0], "v1 always names the owner")
        resp = self.s3.list_objects(Bucket="listing", Marker="photos/2024/jan.jpg", Delimiter="/", MaxKeys=1)
        self.assertEqual([p["Prefix"] for p in resp["CommonPrefixes"]], ["photos/"], "v1 rolls up after the marker")
        self.assertEqual(resp["NextMarker"], "photos/", "NextMarker is the last item, sent with a delimiter")
        resp = self.s3.list_objects(Bucket="listing", Marker=resp["NextMarker"], Delimiter="/")
        self.assertEqual([o["Key"] for o in resp["Contents"]] + [p["Prefix"] for p in resp["CommonPrefixes"]],
                         ["z.txt", "videos/"],
                         "the next page resumes after the common prefix")

    def test_url_encoding_type(self):
        self.bucket("encoded-listing")
        self.s3.put_object(Bucket="encoded-listing", Key="enc/a b+c&d", Body=b"")
        resp = self.s3.list_objects_v2(Bucket="encoded-listing", Prefix="enc/")
        self.assertEqual([o["Key"] for o in resp["Contents"]], ["enc/a b+c&d"],
                         "boto3 asks for encoding-type=url itself and decodes the key back to the original")
        resp = self.s3.list_objects_v2(Bucket="encoded-listing", Prefix="enc/", EncodingType="url")
        self.assertEqual([o["Key"] for o in resp["Contents"]], ["enc/a%20b%2Bc%26d"],
                         "asked for explicitly, the key comes percent-encoded")
        self.assertEqual(resp["EncodingType"], "url", "the answer says it is url-encoded")

    def test_list_of_a_missing_bucket(self):
        self.assertClientError("NoSuchBucket", self.s3.list_objects_v2, Bucket="never-created-bucket")


class PagingTests(S3TestCase):
    N_KEYS = 2500

    def test_list_objects_v2_pages_over_2500_keys(self):
        self.bucket("many-keys")
        for i in range(self.N_KEYS):
            self.s3.put_object(Bucket="many-keys", Key="k/%05d" % i, Body=b"")
        pages = list(self.s3.get_paginator("list_objects_v2").paginate(Bucket="many-keys"))
        self.assertEqual(len(pages), 3, "2,500 keys at 1,000 a page take 3 pages")
        self.assertEqual([p["KeyCount"] for p in pages], [1000, 1000, 500], "each page is full but the last")
        keys = [o["Key"] for p in pages for o in p["Contents"]]
        self.assertEqual(keys, ["k/%05d" % i for i in range(self.N_KEYS)], "every key once, in order")
        v1 = [o["Key"] for p in self.s3.get_paginator("list_objects").paginate(Bucket="many-keys")
              for o in p["Contents"]]
        self.assertEqual(v1, keys, "ListObjects v1 pages through the same keys with markers")
        rc, out, _ = self.aws("s3", "ls", "s3://many-keys/k/")
        self.assertEqual(len(out.strip().splitlines()), self.N_KEYS, "aws s3 ls lists all 2,500 keys")


class MultipartTests(S3TestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.s3.create_bucket(Bucket="multipart")

    def upload(self, key, parts):
        up = self.s3.create_multipart_upload(Bucket="multipart", Key=key, ContentType="application/x-test",
                                             Metadata={"kind": "multi"})
        etags = []
        for i, data in enumerate(parts, 1):
            r = self.s3.upload_part(Bucket="multipart", Key=key, UploadId=up["UploadId"], PartNumber=i, Body=data)
            self.assertEqual(r["ETag"], '"%s"' % md5_hex(data), "UploadPart answers the part's MD5")
            etags.append(r["ETag"])
        return up["UploadId"], etags

    def test_complete_upload(self):
        parts = [os.urandom(5 * MIB), os.urandom(5 * MIB), b"tail"]
        upload_id, etags = self.upload("big", parts)
        listed = self.s3.list_parts(Bucket="multipart", Key="big", UploadId=upload_id)
        self.assertEqual([(p["PartNumber"], p["Size"]) for p in listed["Parts"]],
                         [(1, 5 * MIB), (2, 5 * MIB), (3, 4)], "ListParts shows each part and its size")
        uploads = self.s3.list_multipart_uploads(Bucket="multipart")["Uploads"]
        self.assertIn(upload_id, [u["UploadId"] for u in uploads], "ListMultipartUploads shows the open upload")
        done = self.s3.complete_multipart_upload(Bucket="multipart", Key="big", UploadId=upload_id, MultipartUpload={
            "Parts": [{"PartNumber": i, "ETag": e} for i, e in enumerate(etags, 1)]})
        expected = hashlib.md5(b"".join(hashlib.md5(p).digest() for p in parts)).hexdigest() + "-3"
        self.assertEqual(done["ETag"], '"%s"' % expected, "the ETag is the MD5 of the part MD5s, then -3")
        got = self.s3.get_object(Bucket="multipart", Key="big")
        self.assertEqual(hashlib.md5(got["Body"].read()).hexdigest(), md5_hex(b"".join(parts)),
                         "the object is the parts in order")
        self.assertEqual((got["ContentType"], got["Metadata"]), ("application/x-test", {"kind": "multi"}),
                         "metadata given at CreateMultipartUpload is the object's")
        self.assertNotIn(upload_id, [u["UploadId"] for u in
                                     self.s3.list_multipart_uploads(Bucket="multipart").get("Uploads", [])],
                         "a completed upload is no longer listed")
        self.assertClientError("NoSuchUpload", self.s3.list_parts, Bucket="multipart", Key="big", UploadId=upload_id)

    def test_complete_refuses_bad_part_lists(self):
        upload_id, etags = self.upload("bad-lists", [os.urandom(5 * MIB), b"second"])
        self.assertClientError("InvalidPart", self.s3.complete_multipart_upload, Bucket="multipart", Key="bad-lists",
                               UploadId=upload_id, MultipartUpload={"Parts": [
                                   {"PartNumber": 1, "ETag": etags[0]}, {"PartNumber": 2, "ETag": '"00000000"'}]})
        self.assertClientError("InvalidPart", self.s3.complete_multipart_upload, Bucket="multipart", Key="bad-lists",
                               UploadId=upload_id, MultipartUpload={"Parts": [{"PartNumber": 7, "ETag": etags[0]}]})
        self.assertClientError("InvalidPartOrder", self.s3.complete_multipart_upload, Bucket="multipart",
                               Key="bad-lists", UploadId=upload_id, MultipartUpload={"Parts": [
                                   {"PartNumber": 2, "ETag": etags[1]}, {"PartNumber": 1, "ETag": etags[0]}]})
        self.assertClientError("404", self.s3.head_object, Bucket="multipart", Key="bad-lists")
        self.s3.complete_multipart_upload(Bucket="multipart", Key="bad-lists", UploadId=upload_id, MultipartUpload={
            "Parts": [{"PartNumber": 1, "ETag": etags[0]}, {"PartNumber": 2, "ETag": etags[1]}]})
        self.assertEqual(self.s3.head_object(Bucket="multipart", Key="bad-lists")["ContentLength"], 5 * MIB + 6,
                         "after the refusals the upload still completes")

    def test_small_parts_are_entity_too_small(self):
        upload_id, etags = self.upload("small", [b"a" * 1024, b"b" * 1024])
        self.assertClientError("EntityTooSmall", self.s3.complete_multipart_upload, Bucket="multipart", Key="small",
                               UploadId=upload_id, MultipartUpload={"Parts": [
                                   {"PartNumber": i, "ETag": e} for i, e in enumerate(etags, 1)]})

    def test_abort(self):
        upload_id, _ = self.upload("aborted", [b"data"])
        resp = self.s3.abort_multipart_upload(Bucket="multipart", Key="aborted", UploadId=upload_id)
        self.assertEqual(resp["ResponseMetadata"]["HTTPStatusCode"], 204, "AbortMultipartUpload answers 204")
        self.assertClientError("NoSuchUpload", self.s3.upload_part, Bucket="multipart", Key="aborted",
                               UploadId=upload_id, PartNumber=2, Body=b"late")
        self.assertClientError("NoSuchUpload", self.s3.abort_multipart_upload, Bucket="multipart", Key="aborted",
                               UploadId=upload_id)
        self.assertClientError("NoSuchUpload", self.s3.complete_multipart_upload, Bucket="multipart", Key="aborted",
                               UploadId="bogus", MultipartUpload={"Parts": [{"PartNumber": 1, "ETag": '"x"'}]})
        self.assertClientError("InvalidArgument", self.s3.upload_part, Bucket="multipart", Key="aborted",
                               UploadId=upload_id, PartNumber=10001, Body=b"x")

    def test_checksummed_upload_gets_a_composite_checksum(self):
        up = self.s3.create_multipart_upload(Bucket="multipart", Key="crc", ChecksumAlgorithm="CRC32")
        parts = [os.urandom(5 * MIB), b"end"]
        done_parts = []
        for i, data in enumerate(parts, 1):
            r = self.s3.upload_part(Bucket="multipart", Key="crc", UploadId=up["UploadId"], PartNumber=i, Body=data,
                                    ChecksumAlgorithm="CRC32")
            self.assertEqual(r["ChecksumCRC32"], crc32_b64(data), "each part's CRC32 is verified and echoed")
            done_parts.append({"PartNumber": i, "ETag": r["ETag"], "ChecksumCRC32": r["ChecksumCRC32"]})
        done = self.s3.complete_multipart_upload(Bucket="multipart", Key="crc", UploadId=up["UploadId"],
                                                 MultipartUpload={"Parts": done_parts})
        raw = b"".join(base64.b64decode(p["ChecksumCRC32"]) for p in done_parts)
        self.assertEqual(done["ChecksumCRC32"], crc32_b64(raw) + "-2", "the checksum is composite: CRC32 of CRC32s -N")

    def test_boto3_transfer_uses_multipart(self):
        from boto3.s3.transfer import TransferConfig
        data = os.urandom(12 * MIB)
        with tempfile.NamedTemporaryFile() as f:
            f.write(data)
            f.flush()
            self.s3.upload_file(f.name, "multipart", "transfer", Config=TransferConfig(multipart_threshold=5 * MIB,
                                                                                      multipart_chunksize=5 * MIB))
        head = self.s3.head_object(Bucket="multipart", Key="transfer")
        self.assertTrue(head["ETag"].endswith('-3"'), "boto3 uploaded 12 MiB as 3 parts")
        with tempfile.NamedTemporaryFile() as f:
            self.s3.download_file("multipart", "transfer", f.name,
                                  Config=TransferConfig(multipart_threshold=5 * MIB, multipart_chunksize=5 * MIB))
            self.assertEqual(file_md5(f.name), md5_hex(data), "boto3's ranged download reassembles the object")


class CliTests(S3TestCase):
    def test_aws_s3_cp_of_50_mib_both_ways(self):
        self.bucket("cli-bucket")
        with tempfile.TemporaryDirectory() as d:
            src, dst = os.path.join(d, "src.bin"), os.path.join(d, "dst.bin")
            with open(src, "wb") as f:
                for _ in range(50):
                    f.write(os.urandom(MIB))
            self.aws("s3", "cp", src, "s3://cli-bucket/big/file.bin")
            head = self.s3.head_object(Bucket="cli-bucket", Key="big/file.bin")
            self.assertEqual(head["ContentLength"], 50 * MIB, "the object has all 50 MiB")
            self.assertIn("-", head["ETag"], "aws s3 cp uploaded 50 MiB as a multipart upload")
            self.aws("s3", "cp", "s3://cli-bucket/big/file.bin", dst)
            self.assertEqual(file_md5(dst), file_md5(src), "the file downloaded is the file uploaded")
            rc, out, _ = self.aws("s3", "ls", "s3://cli-bucket/big/")
            self.assertIn("file.bin", out, "aws s3 ls shows it")
            self.aws("s3", "rm", "s3://cli-bucket/big/file.bin")
            self.assertClientError("404", self.s3.head_object, Bucket="cli-bucket", Key="big/file.bin")

    def test_aws_s3_mb_ls_rb(self):
        self.aws("s3", "mb", "s3://cli-made")
        rc, out, _ = self.aws("s3", "ls")
        self.assertIn("cli-made", out, "aws s3 ls lists buckets")
        self.aws("s3", "rb", "s3://cli-made")
        rc, out, err = self.aws("s3", "mb", "s3://x--table-s3", expect_ok=False)
        self.assertNotEqual(rc, 0, "aws s3 mb refuses a --table-s3 name")
        self.assertIn("InvalidBucketName", err, "with InvalidBucketName")


class KeyTests(S3TestCase):
    KEYS = ["../escape", "a/../../b", "./dot", "with space", "unicode-ü-日本語", "plus+sign", "percent%20literal",
            "trailing/", "//double", "question?mark", "hash#frag", "semi;colon", "amp&lt;", "tab\tkey", "ctrl\x01key",
            "x" * 1024]

    def test_awkward_keys_round_trip(self):
        self.bucket("awkward")
        for key in self.KEYS:
            with self.subTest(key=key[:40]):
                self.s3.put_object(Bucket="awkward", Key=key, Body=key.encode())
                self.assertEqual(self.s3.get_object(Bucket="awkward", Key=key)["Body"].read(), key.encode(),
                                 "the object reads back under its exact key")
        listed = [o["Key"] for o in self.s3.list_objects_v2(Bucket="awkward")["Contents"]]
        self.assertEqual(sorted(listed), sorted(self.KEYS), "every key is listed exactly as written")
        status, _, body = self.raw("GET", "/awkward?list-type=2&prefix=amp")
        self.assertIn(b"<Key>amp&amp;lt;</Key>", body, "keys are XML-escaped in listings without encoding-type")

    def test_keys_never_name_files(self):
        self.bucket("escape-test")
        self.s3.put_object(Bucket="escape-test", Key="../../../escaped-by-key", Body=b"x")
        data_dir = self.server.data_dir
        for root in (data_dir, os.path.dirname(data_dir)):
            self.assertFalse(os.path.exists(os.path.join(root, "escaped-by-key")), "no file is named after a key")
        for dirpath, _, files in os.walk(os.path.join(data_dir, "objects")):
            for name in files:
                self.assertRegex(name, r"^[0-9a-f]{32}$", "object files are named by generated ids")

    def test_too_long_key_is_refused(self):
        self.bucket("long-keys")
        self.assertClientError("KeyTooLongError", self.s3.put_object, Bucket="long-keys", Key="y" * 1025, Body=b"")


class AddressingTests(S3TestCase):
    def test_virtual_hosted_requests(self):
        self.bucket("vhost")
        port = self.server.port
        for host in ("vhost.localhost:%d" % port, "vhost.s3.localhost:%d" % port, "vhost.127.0.0.1.nip.io:%d" % port):
            with self.subTest(host=host):
                status, _, _ = self.raw("PUT", "/dir/key.txt", body=host.encode(), headers={"Host": host})
                self.assertEqual(status, 200, "PutObject through Host %s" % host)
                status, _, body = self.raw("GET", "/dir/key.txt", headers={"Host": host})
                self.assertEqual((status, body), (200, host.encode()), "GetObject through Host %s" % host)
        self.assertEqual(self.s3.get_object(Bucket="vhost", Key="dir/key.txt")["Body"].read(),
                         ("vhost.127.0.0.1.nip.io:%d" % port).encode(), "virtual-hosted and path-style agree")
        status, _, body = self.raw("GET", "/?list-type=2", headers={"Host": "vhost.localhost:%d" % port})
        self.assertIn(b"<Key>dir/key.txt</Key>", body, "a virtual-hosted GET / lists the bucket")
        status, _, body = self.raw("GET", "/", headers={"Host": "s3.localhost:%d" % port})
        self.assertIn(b"<ListAllMyBucketsResult", body, "s3.localhost itself is the service endpoint")

    def test_presigned_urls_work(self):
        self.bucket("presigned")
        self.s3.put_object(Bucket="presigned", Key="shared.txt", Body=b"shared")
        url = self.s3.generate_presigned_url("get_object", Params={"Bucket": "presigned", "Key": "shared.txt"})
        with urllib.request.urlopen(url) as r:
            self.assertEqual(r.read(), b"shared", "a presigned GET URL serves the object")

    def test_unsigned_buckets_path_is_s3_and_signed_one_is_s3tables(self):
        status, headers, body = self.raw("GET", "/buckets")
        self.assertEqual(status, 404, "unsigned GET /buckets is S3's view of a bucket named 'buckets'")
        self.assertIn(b"<Code>NoSuchBucket</Code>", body, "answered in S3's XML")
        self.assertEqual(headers["content-type"], "application/xml", "as XML")
        resp = self.s3tables.list_table_buckets()
        self.assertIn("tableBuckets", resp, "the same path signed for s3tables is ListTableBuckets")


class WarehouseTests(S3TestCase):
    """Warehouse buckets come from S3 Tables: CreateTable makes one for each table."""

    def test_warehouse_buckets_are_reachable_unlisted_and_undeletable(self):
        arn = self.s3tables.create_table_bucket(name="wh-home")["arn"]
        self.s3tables.create_namespace(tableBucketARN=arn, namespace=["ns"])
        self.s3tables.create_table(tableBucketARN=arn, namespace="ns", name="t", format="ICEBERG")
        location = self.s3tables.get_table(tableBucketARN=arn, namespace="ns", name="t")["warehouseLocation"]
        name = location[len("s3://"):]
        self.s3.put_object(Bucket=name, Key="metadata/00000-x.metadata.json", Body=b"{}")
        self.assertEqual(self.s3.get_object(Bucket=name, Key="metadata/00000-x.metadata.json")["Body"].read(), b"{}",
                         "a warehouse bucket is read and written over S3 by name")
        self.assertNotIn(name, [b["Name"] for b in self.s3.list_buckets()["Buckets"]], "ListBuckets never lists it")
        for op, kwargs in ((self.s3.delete_object, {"Key": "metadata/00000-x.metadata.json"}),
                           (self.s3.delete_bucket, {}), (self.s3.list_objects_v2, {})):
            self.assertClientError("MethodNotAllowed", op, Bucket=name, **kwargs)
        self.assertEqual(self.s3.get_object(Bucket=name, Key="metadata/00000-x.metadata.json")["Body"].read(), b"{}",
                         "what a refused operation named is still there")


class DurabilityTests(S3TestCase):
    def test_objects_survive_a_restart_and_orphans_are_swept(self):
        self.bucket("durable")
        self.s3.put_object(Bucket="durable", Key="kept", Body=b"still here")
        self.server.stop()
        tmp = os.path.join(self.server.data_dir, "tmp", "obj-crashed-write")
        orphan_dir = os.path.join(self.server.data_dir, "objects", "ff")
        os.makedirs(orphan_dir, exist_ok=True)
        orphan = os.path.join(orphan_dir, "ff" + "0" * 30)
        for path in (tmp, orphan):
            with open(path, "wb") as f:
                f.write(b"partial")
        self.server.start()
        self.assertEqual(self.s3.get_object(Bucket="durable", Key="kept")["Body"].read(), b"still here",
                         "an object survives a restart")
        self.assertFalse(os.path.exists(tmp), "start-up removes an unfinished temp file")
        self.assertFalse(os.path.exists(orphan), "start-up removes an object file no row names")

    def test_objects_survive_a_kill(self):
        self.bucket("killed")
        self.s3.put_object(Bucket="killed", Key="committed", Body=b"durable")
        self.server.kill()
        self.server.start()
        self.assertEqual(self.s3.get_object(Bucket="killed", Key="committed")["Body"].read(), b"durable",
                         "a committed object survives kill -9")

    def test_overwrites_leave_no_garbage(self):
        self.bucket("no-garbage")
        for i in range(5):
            self.s3.put_object(Bucket="no-garbage", Key="same", Body=b"v%d" % i)
        self.s3.put_object(Bucket="no-garbage", Key="gone", Body=b"x")
        self.s3.delete_object(Bucket="no-garbage", Key="gone")
        self.server.stop()  # the server holds the database exclusively while it runs
        with contextlib.closing(sqlite3.connect(os.path.join(self.server.data_dir, "floe.db"))) as db:
            rows = {r[0] for r in db.execute("SELECT file_id FROM s3_object UNION SELECT file_id FROM s3_part")}
        self.server.start()
        files = {name for _, _, names in os.walk(os.path.join(self.server.data_dir, "objects")) for name in names}
        self.assertEqual(files, rows, "every object file is named by a row and every row has its file")


class ConcurrencyTests(S3TestCase):
    """Two event-loop threads, each with its own SQLite connection, under parallel clients."""

    server_args = ("--threads", "2")
    N_CLIENTS = 8
    N_ROUNDS = 20

    def test_parallel_writers_and_readers_agree(self):
        from concurrent.futures import ThreadPoolExecutor
        self.bucket("parallel")
        clients = [self.make_client("s3", s3={"addressing_style": "path"}) for _ in range(self.N_CLIENTS)]

        def work(n):
            seen = []
            for i in range(self.N_ROUNDS):
                body = b"client-%d-round-%d" % (n, i)
                clients[n].put_object(Bucket="parallel", Key="shared", Body=body)
                clients[n].put_object(Bucket="parallel", Key="own/%d/%d" % (n, i), Body=body)
                seen.append(clients[n].get_object(Bucket="parallel", Key="shared")["Body"].read())
            return seen

        with ThreadPoolExecutor(self.N_CLIENTS) as pool:
            results = [body for seen in pool.map(work, range(self.N_CLIENTS)) for body in seen]
        for body in results:
            self.assertRegex(body, rb"^client-\d+-round-\d+$", "every read of a contended key sees one whole write")
        keys = [o["Key"] for p in self.s3.get_paginator("list_objects_v2").paginate(Bucket="parallel", Prefix="own/")
                for o in p.get("Contents", [])]
        self.assertEqual(len(keys), self.N_CLIENTS * self.N_ROUNDS, "every parallel write is listed once")
        with sqlite3.connect(os.path.join(self.server.data_dir, "floe.db")) as db:
            rows = {r[0] for r in db.execute("SELECT file_id FROM s3_object")}
        files = {name for _, _, names in os.walk(os.path.join(self.server.data_dir, "objects")) for name in names}
        self.assertEqual(files, rows, "racing overwrites leave exactly one file per object")


class BadInputTests(S3TestCase):
    """Bad requests get a clear 4xx in S3's XML shape, never a crash, a hang or a partial object."""

    CASES = [
        ("GET", "/bad-input/%ZZ", None, {}, 400, b"InvalidURI"),
        ("GET", "/bad-input/nul%00key", None, {}, 400, b"InvalidURI"),
        ("GET", "/bad-input/not-utf8-%FF", None, {}, 400, b"InvalidURI"),
        ("GET", "/bad-input?prefix=%G1", None, {}, 400, b"InvalidURI"),
        ("GET", "/bad-input?list-type=2&max-keys=-1", None, {}, 400, b"InvalidArgument"),
        ("GET", "/bad-input?list-type=2&max-keys=lots", None, {}, 400, b"InvalidArgument"),
        ("GET", "/bad-input?list-type=3", None, {}, 400, b"InvalidArgument"),
        ("GET", "/bad-input?list-type=2&encoding-type=base64", None, {}, 400, b"InvalidArgument"),
        ("GET", "/bad-input/k?versionId=123", None, {}, 400, b"InvalidArgument"),
        ("PATCH", "/bad-input/k", b"x", {}, 405, b"MethodNotAllowed"),
        ("PUT", "/bad-input/k", b"not framed", {"Content-Encoding": "aws-chunked"}, 400, b"IncompleteBody"),
        ("PUT", "/bad-input/k", b"ffffffffffffffffffff\r\nx", {"Content-Encoding": "aws-chunked"}, 400,
         b"IncompleteBody"),
        ("PUT", "/bad-input/k", b"x", {"x-amz-checksum-crc32": "AAAAAA==", "x-amz-checksum-sha256": "AA=="}, 400,
         b"InvalidRequest"),
        ("PUT", "/bad-input/k", b"x", {"x-amz-sdk-checksum-algorithm": "MD4"}, 400, b"InvalidRequest"),
        ("PUT", "/bad-input/k", b"x", {"x-amz-trailer": "x-amz-checksum-nope"}, 400, b"InvalidRequest"),
        ("PUT", "/bad-input/k", b"x", {"x-amz-meta-big": "v" * 3000}, 400, b"MetadataTooLarge"),
        ("PUT", "/bad-input/k?partNumber=1&uploadId=nope", b"x", {}, 404, b"NoSuchUpload"),
        ("PUT", "/bad-input/k?partNumber=0&uploadId=nope", b"x", {}, 400, b"InvalidArgument"),
        ("POST", "/bad-input/k?uploadId=nope", b"<CompleteMultipartUpload/>", {}, 404, b"NoSuchUpload"),
        ("POST", "/bad-input?delete", b"not xml at all", {}, 400, b"MalformedXML"),
        ("POST", "/bad-input?delete", b"<Delete></Delete>", {}, 400, b"MalformedXML"),
        ("POST", "/bad-input?delete", b"<Delete><Object><Key>k</Key></Object></Delete>",
         {"Content-MD5": "AAAAAAAAAAAAAAAAAAAAAA=="}, 400, b"BadDigest"),
        ("PUT", "/bad-input/copy", None, {"x-amz-copy-source": "no-slash"}, 400, b"InvalidArgument"),
        ("PUT", "/bad-input/copy", None, {"x-amz-copy-source": "/bad-input/src", "x-amz-metadata-directive": "MOVE"},
         400, b"InvalidArgument"),
        ("PUT", "/new-bucket-bad-config", b"<CreateBucketConfiguration><LocationConstraint>us-east-1"
                                          b"</LocationConstraint></CreateBucketConfiguration>", {}, 400,
         b"InvalidLocationConstraint"),
        ("PUT", "/new-bucket-bad-xml", b"<oops", {}, 400, b"MalformedXML"),
    ]

    def test_bad_requests_get_clear_errors(self):
        self.bucket("bad-input")
        self.s3.put_object(Bucket="bad-input", Key="src", Body=b"source")
        for method, path, body, headers, status, code in self.CASES:
            with self.subTest(method=method, path=path[:60], headers=str(headers)[:60]):
                got_status, got_headers, got_body = self.raw(method, path, body=body, headers=headers)
                self.assertEqual(got_status, status, "%s %s answers %d: %r" % (method, path, status, got_body[:200]))
                self.assertIn(b"<Code>" + code + b"</Code>", got_body, "with the error code %s" % code.decode())
        self.assertClientError("404", self.s3.head_object, Bucket="bad-input", Key="k")
        self.assertEqual(self.s3.get_object(Bucket="bad-input", Key="src")["Body"].read(), b"source",
                         "the server keeps serving after every refusal")


class ChunkedFramingTests(S3TestCase):
    """aws-chunked as the SDKs frame it (the JS SDK test drives the real client; aws CLI 2.9 and
    boto3 1.26 do not stream this way over http)."""

    def test_signed_streaming_framing_is_decoded(self):
        self.bucket("chunked")
        chunks = [os.urandom(64 * 1024), os.urandom(1000)]
        sig = ";chunk-signature=" + "0" * 64
        body = b"".join(b"%x%s\r\n%s\r\n" % (len(c), sig.encode(), c) for c in chunks) + b"0" + sig.encode() + b"\r\n\r\n"
        status, headers, _ = self.raw("PUT", "/chunked/signed", body=body, headers={
            "Content-Encoding": "aws-chunked", "x-amz-content-sha256": "STREAMING-AWS4-HMAC-SHA256-PAYLOAD",
            "x-amz-decoded-content-length": str(sum(map(len, chunks)))})
        self.assertEqual(status, 200, "a signed aws-chunked body is accepted")
        self.assertEqual(headers["etag"], '"%s"' % md5_hex(b"".join(chunks)), "the ETag is of the decoded payload")
        self.assertEqual(self.s3.get_object(Bucket="chunked", Key="signed")["Body"].read(), b"".join(chunks),
                         "the stored object is the payload without framing")
        self.assertNotIn("ContentEncoding", self.s3.head_object(Bucket="chunked", Key="signed"),
                         "aws-chunked is not kept as the object's Content-Encoding")

    def test_trailer_checksum_is_verified(self):
        self.bucket("trailer")
        data = b"trailed payload"

        def framed(checksum):
            return b"%x\r\n%s\r\n0\r\nx-amz-checksum-crc32:%s\r\n\r\n" % (len(data), data, checksum.encode())

        headers = {"Content-Encoding": "aws-chunked", "x-amz-content-sha256": "STREAMING-UNSIGNED-PAYLOAD-TRAILER",
                   "x-amz-trailer": "x-amz-checksum-crc32", "x-amz-decoded-content-length": str(len(data))}
        status, resp_headers, _ = self.raw("PUT", "/trailer/good", body=framed(crc32_b64(data)), headers=headers)
        self.assertEqual(status, 200, "a correct trailing CRC32 is accepted")
        self.assertEqual(resp_headers["x-amz-checksum-crc32"], crc32_b64(data), "and echoed")
        status, _, body = self.raw("PUT", "/trailer/bad", body=framed(crc32_b64(b"other")), headers=headers)
        self.assertEqual(status, 400, "a wrong trailing CRC32 is refused")
        self.assertIn(b"<Code>BadDigest</Code>", body, "as BadDigest")
        status, _, body = self.raw("PUT", "/trailer/cut", body=b"ff\r\nshort", headers=headers)
        self.assertEqual(status, 400, "a body cut short inside a chunk is refused")
        status, _, body = self.raw("PUT", "/trailer/missing", body=b"%x\r\n%s\r\n0\r\n\r\n" % (len(data), data),
                                   headers=headers)
        self.assertEqual(status, 400, "a body without the trailer x-amz-trailer declared is refused")
        self.assertIn(b"<Code>InvalidRequest</Code>", body, "as InvalidRequest")
        self.assertClientError("404", self.s3.head_object, Bucket="trailer", Key="missing")
        self.assertClientError("404", self.s3.head_object, Bucket="trailer", Key="cut")


if __name__ == "__main__":
    main()

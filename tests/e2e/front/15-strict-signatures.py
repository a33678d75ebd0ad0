#!/usr/bin/python3
"""--strict-signatures: SigV4 signatures (Authorization header and presigned URLs) are verified
against the configured credentials; anything else is refused with 403 in the service's error shape.
Without the flag any credentials work. What a request with no signature at all gets, surface by
surface, is front/14-strict-unsigned-callers.py's."""

import os
import sys
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from floe_server import FloeTestCase, main  # noqa: E402

KEY, SECRET = "AKIDSTRICTTEST", "strict-secret-key"


class StrictSignatureTests(FloeTestCase):
    server_args = ("--strict-signatures", "--credentials", "%s:%s" % (KEY, SECRET), "--credentials", "AK2:SK2")

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        import boto3
        cls.good = boto3.session.Session(aws_access_key_id=KEY, aws_secret_access_key=SECRET)
        cls.good_s3tables = cls.good.client("s3tables", endpoint_url=cls.server.endpoint, region_name="us-east-1",
                                            config=cls.botocore_config)

    def client_with(self, key, secret, service="s3tables"):
        import boto3
        session = boto3.session.Session(aws_access_key_id=key, aws_secret_access_key=secret)
        return session.client(service, endpoint_url=self.server.endpoint, region_name="us-east-1",
                              config=self.botocore_config)

    def fetch(self, url):
        try:
            with urllib.request.urlopen(url, timeout=10) as r:
                return r.status, r.headers, r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.headers, e.read()

    def test_correctly_signed_requests_are_served(self):
        arn = self.good_s3tables.create_table_bucket(name="strict-ok")["arn"]
        self.assertEqual(self.good_s3tables.get_table_bucket(tableBucketARN=arn)["name"], "strict-ok",
                         "a request signed with a configured key pair is served")
        second = self.client_with("AK2", "SK2")
        self.assertIn("strict-ok", [b["name"] for b in second.list_table_buckets()["tableBuckets"]],
                      "every configured key pair is accepted")

    def test_query_strings_with_reserved_characters_verify(self):
        resp = self.good_s3tables.list_table_buckets(prefix="a b+c/d")
        self.assertEqual(resp["tableBuckets"], [], "a query with spaces, '+' and '/' is canonicalized as AWS does")

    def test_wrong_secret_is_invalid_signature(self):
        resp = self.assertClientError("InvalidSignatureException", self.client_with(KEY, "wrong").list_table_buckets)
        self.assertEqual(resp["ResponseMetadata"]["HTTPStatusCode"], 403, "a bad signature is 403")

    def test_unknown_access_key_is_unrecognized_client(self):
        self.assertClientError("UnrecognizedClientException", self.client_with("NOBODY", SECRET).list_table_buckets)

    def test_presigned_url_verifies_and_expires(self):
        url = self.good_s3tables.generate_presigned_url("list_table_buckets", ExpiresIn=2)
        status, _, _ = self.fetch(url)
        self.assertEqual(status, 200, "a fresh presigned URL is served")
        tampered = url.replace("X-Amz-Signature=", "X-Amz-Signature=0")[:len(url)]
        status, headers, _ = self.fetch(tampered)
        self.assertEqual((status, headers.get("x-amzn-ErrorType")), (403, "InvalidSignatureException"),
                         "a presigned URL with a changed signature is refused")
        time.sleep(3.1)
        status, headers, _ = self.fetch(url)
        self.assertEqual(status, 403, "a presigned URL past X-Amz-Expires is refused")

    def signed_at(self, offset_s, service, path, presign_expires=None):
        """Signs GET path with the good key as if the clock read now + offset_s; returns
        (status, headers, body)."""
        import datetime
        from unittest import mock
        import botocore.auth
        from botocore.awsrequest import AWSRequest

        real = datetime.datetime

        class Shifted(real):
            @classmethod
            def utcnow(cls):
                return real.utcnow() + datetime.timedelta(seconds=offset_s)

        request = AWSRequest(method="GET", url=self.server.endpoint + path)
        credentials = self.good.get_credentials()
        with mock.patch.object(botocore.auth.datetime, "datetime", Shifted):
            if presign_expires is None:
                botocore.auth.SigV4Auth(credentials, service, "us-east-1").add_auth(request)
            else:
                botocore.auth.SigV4QueryAuth(credentials, service, "us-east-1", presign_expires).add_auth(request)
        prepared = request.prepare()
        req = urllib.request.Request(prepared.url, headers=dict(prepared.headers))
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                return r.status, r.headers, r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.headers, e.read()

    def test_a_signed_request_is_valid_for_fifteen_minutes_around_its_date(self):
        # Found while checking the README's account of --host 0.0.0.0: a header-signed request was
        # accepted whatever its X-Amz-Date, so one captured on the wire could be replayed for ever.
        status, _, _ = self.signed_at(-10 * 60, "s3tables", "/buckets")
        self.assertEqual(status, 200, "a request signed ten minutes ago is still served")
        status, headers, _ = self.signed_at(-20 * 60, "s3tables", "/buckets")
        self.assertEqual((status, headers.get("x-amzn-ErrorType")), (403, "InvalidSignatureException"),
                         "one signed twenty minutes ago is refused, as AWS refuses it")
        status, headers, _ = self.signed_at(20 * 60, "s3tables", "/buckets")
        self.assertEqual(status, 403, "so is one dated twenty minutes ahead")
        status, _, body = self.signed_at(-20 * 60, "s3", "/")
        self.assertEqual(status, 403, "S3 refuses an old signature too")
        self.assertIn(b"<Code>RequestTimeTooSkewed</Code>", body, "with S3's RequestTimeTooSkewed")
        status, _, _ = self.signed_at(-20 * 60, "s3tables", "/buckets", presign_expires=3600)
        self.assertEqual(status, 200, "a presigned URL lives until X-Amz-Expires, however old its date")
        status, _, _ = self.signed_at(20 * 60, "s3tables", "/buckets", presign_expires=3600)
        self.assertEqual(status, 403, "a presigned URL dated in the future is not valid yet")

    def test_s3_requests_are_checked_too(self):
        from botocore.exceptions import ClientError
        try:
            self.client_with(KEY, "wrong", "s3").list_buckets()
            self.fail("a badly signed S3 request succeeded")
        except ClientError as exc:
            self.assertEqual(exc.response["Error"]["Code"], "SignatureDoesNotMatch",
                             "S3 answers SignatureDoesNotMatch in its own shape")
        try:
            self.client_with(KEY, SECRET, "s3").list_buckets()
        except ClientError as exc:
            self.assertNotEqual(exc.response["ResponseMetadata"]["HTTPStatusCode"], 403,
                                "a correctly signed S3 request passes the signature check")

    def fetch_request(self, url, method="GET", data=None, headers=None):
        req = urllib.request.Request(url, data=data, method=method, headers=headers or {})
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                return r.status, r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.read()

    def test_sigv2_presigned_urls_from_boto3_verify(self):
        # boto3 1.26 (and the aws CLI v1) presign S3 URLs with SigV2 by default: AWSAccessKeyId,
        # Signature, Expires. S3 still verifies them, so strict mode must too.
        s3 = self.client_with(KEY, SECRET, "s3")
        s3.create_bucket(Bucket="sigv2-bucket")
        s3.put_object(Bucket="sigv2-bucket", Key="dir one/a+b.txt", Body=b"presigned v2")
        url = s3.generate_presigned_url("get_object", Params={"Bucket": "sigv2-bucket", "Key": "dir one/a+b.txt"},
                                        ExpiresIn=60)
        self.assertIn("AWSAccessKeyId=", url, "boto3 made a SigV2 presigned URL")
        self.assertEqual(self.fetch_request(url), (200, b"presigned v2"),
                         "a SigV2 presigned GET of a key with a space and '+' is served")
        url = s3.generate_presigned_url("get_object", Params={"Bucket": "sigv2-bucket", "Key": "dir one/a+b.txt",
                                                              "ResponseContentType": "text/x-floe"}, ExpiresIn=60)
        self.assertEqual(self.fetch_request(url)[0], 200, "a signed response-content-type override verifies")
        url = s3.generate_presigned_url("list_objects", Params={"Bucket": "sigv2-bucket"}, ExpiresIn=60)
        status, body = self.fetch_request(url)
        self.assertEqual(status, 200, "a SigV2 presigned bucket listing is served")
        self.assertIn(b"a%2Bb.txt", body, "and lists the object (URL-encoded, as boto3 asked)")
        url = s3.generate_presigned_url("put_object", Params={"Bucket": "sigv2-bucket", "Key": "uploaded",
                                                              "ContentType": "text/plain"}, ExpiresIn=60)
        status, _ = self.fetch_request(url, "PUT", b"sent with a v2 URL", {"Content-Type": "text/plain"})
        self.assertEqual(status, 200, "a SigV2 presigned PUT with its signed Content-Type is served")
        self.assertEqual(s3.get_object(Bucket="sigv2-bucket", Key="uploaded")["Body"].read(), b"sent with a v2 URL",
                         "and stores the object")
        status, body = self.fetch_request(url, "PUT", b"other", {"Content-Type": "application/json"})
        self.assertEqual(status, 403, "the same URL with another Content-Type is refused")
        self.assertIn(b"<Code>SignatureDoesNotMatch</Code>", body, "as SignatureDoesNotMatch")

    def test_bad_sigv2_presigned_urls_are_refused(self):
        s3 = self.client_with(KEY, SECRET, "s3")
        s3.create_bucket(Bucket="sigv2-refused")
        s3.put_object(Bucket="sigv2-refused", Key="k", Body=b"x")
        params = {"Bucket": "sigv2-refused", "Key": "k"}
        wrong = self.client_with(KEY, "wrong", "s3").generate_presigned_url("get_object", Params=params, ExpiresIn=60)
        status, body = self.fetch_request(wrong)
        self.assertEqual(status, 403, "a SigV2 URL signed with a wrong secret is refused")
        self.assertIn(b"<Code>SignatureDoesNotMatch</Code>", body, "as SignatureDoesNotMatch")
        other = s3.generate_presigned_url("get_object", Params=dict(params, Key="other"), ExpiresIn=60)
        status, _ = self.fetch_request(other.replace("/other?", "/k?"))
        self.assertEqual(status, 403, "a SigV2 URL moved to another key is refused")
        unknown = self.client_with("NOBODY", SECRET, "s3").generate_presigned_url("get_object", Params=params,
                                                                                 ExpiresIn=60)
        status, body = self.fetch_request(unknown)
        self.assertIn(b"<Code>InvalidAccessKeyId</Code>", body, "an unknown access key is InvalidAccessKeyId")
        expiring = s3.generate_presigned_url("get_object", Params=params, ExpiresIn=1)
        time.sleep(2.1)
        status, body = self.fetch_request(expiring)
        self.assertEqual(status, 403, "a SigV2 URL past its Expires is refused")
        self.assertIn(b"expired", body, "saying it has expired")

    def test_aws_cli_with_the_right_keys_works(self):
        import subprocess
        from floe_server import AWS_CLI, client_env
        env = dict(client_env(self.server), AWS_ACCESS_KEY_ID=KEY, AWS_SECRET_ACCESS_KEY=SECRET)
        proc = subprocess.run([AWS_CLI, "--endpoint-url", self.server.endpoint, "s3tables", "list-table-buckets"],
                              capture_output=True, text=True, env=env)
        self.assertEqual(proc.returncode, 0, "the aws CLI's signatures verify: " + proc.stderr)
        env["AWS_SECRET_ACCESS_KEY"] = "nope"
        proc = subprocess.run([AWS_CLI, "--endpoint-url", self.server.endpoint, "s3tables", "list-table-buckets"],
                              capture_output=True, text=True, env=env)
        self.assertIn("InvalidSignatureException", proc.stderr, "and a wrong secret is refused")


class DefaultModeTests(FloeTestCase):
    def test_any_credentials_work_by_default(self):
        other = self.session.client("s3tables", endpoint_url=self.server.endpoint, region_name="us-east-1",
                                    aws_access_key_id="anything", aws_secret_access_key="at-all")
        self.assertEqual(other.list_table_buckets()["tableBuckets"], [], "any key pair is accepted by default")


if __name__ == "__main__":
    main()

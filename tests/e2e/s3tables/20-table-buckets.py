#!/usr/bin/python3
"""Table buckets end to end with boto3 and the aws CLI: create, get, list, delete, AWS's naming
rules, conflicts, pagination, and state that survives a restart."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from floe_server import FloeTestCase, main  # noqa: E402

ACCOUNT = "000000000000"
ARN_PREFIX = "arn:aws:s3tables:us-east-1:%s:bucket/" % ACCOUNT


class TableBucketTests(FloeTestCase):
    def create(self, name):
        return self.s3tables.create_table_bucket(name=name)["arn"]

    def test_create_returns_the_aws_shaped_arn(self):
        arn = self.create("create-arn")
        self.assertEqual(arn, ARN_PREFIX + "create-arn", "the ARN is arn:aws:s3tables:{region}:{account}:bucket/{name}")

    def test_get_reads_back_what_was_created(self):
        arn = self.create("get-back")
        got = self.s3tables.get_table_bucket(tableBucketARN=arn)
        self.assertEqual(got["name"], "get-back", "GetTableBucket returns the name")
        self.assertEqual(got["arn"], arn, "GetTableBucket returns the ARN")
        self.assertEqual(got["ownerAccountId"], ACCOUNT, "the owner is the configured account")
        self.assertEqual(got["type"], "customer", "a created bucket is a customer bucket")
        self.assertRegex(got["tableBucketId"], r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$",
                         "tableBucketId is a UUID")
        self.assertIsNotNone(got["createdAt"].tzinfo, "createdAt is a timezone-aware timestamp")

    def test_valid_names_are_accepted(self):
        for name in ("abc", "a" * 63, "my-bucket-1", "0start-with-digit", "ends-with-digit-9"):
            with self.subTest(name=name):
                self.assertEqual(self.create(name), ARN_PREFIX + name, "accepts the valid name %r" % name)

    def test_invalid_names_are_refused_with_bad_request(self):
        for name in ("ab", "a" * 64, "Upper-Case", "under_score", "dots.in.name", "-starts-with-hyphen",
                     "ends-with-hyphen-", "xn--prefix", "sthree-prefix", "amzn-s3-demo-bucket", "awsbucket",
                     "aws-bucket", "name-s3alias", "name--ol-s3", "name--x-s3", "name--table-s3"):
            with self.subTest(name=name):
                self.assertClientError("BadRequestException", self.s3tables_unchecked.create_table_bucket, name=name)

    def test_duplicate_name_is_a_conflict(self):
        self.create("twice")
        resp = self.assertClientError("ConflictException", self.s3tables.create_table_bucket, name="twice")
        self.assertEqual(resp["ResponseMetadata"]["HTTPStatusCode"], 409, "a conflict is HTTP 409")

    def test_missing_bucket_is_not_found(self):
        resp = self.assertClientError("NotFoundException", self.s3tables.get_table_bucket,
                                      tableBucketARN=ARN_PREFIX + "no-such-bucket")
        self.assertEqual(resp["ResponseMetadata"]["HTTPStatusCode"], 404, "not found is HTTP 404")
        self.assertClientError("NotFoundException", self.s3tables.delete_table_bucket,
                               tableBucketARN=ARN_PREFIX + "no-such-bucket")

    def test_arn_of_another_account_is_access_denied_and_of_another_region_not_found(self):
        self.create("other-account")
        resp = self.assertClientError("AccessDeniedException", self.s3tables.get_table_bucket,
                                      tableBucketARN="arn:aws:s3tables:us-east-1:111122223333:bucket/other-account")
        self.assertEqual(resp["ResponseMetadata"]["HTTPStatusCode"], 403, "another account's ARN is a 403")
        self.assertClientError("NotFoundException", self.s3tables.get_table_bucket,
                               tableBucketARN="arn:aws:s3tables:eu-west-1:%s:bucket/other-account" % ACCOUNT)

    def test_malformed_arn_is_bad_request(self):
        self.assertClientError("BadRequestException", self.s3tables.get_table_bucket, tableBucketARN="not-an-arn")

    def test_delete_removes_the_bucket(self):
        arn = self.create("delete-me")
        resp = self.s3tables.delete_table_bucket(tableBucketARN=arn)
        self.assertEqual(resp["ResponseMetadata"]["HTTPStatusCode"], 204, "DeleteTableBucket answers 204")
        self.assertClientError("NotFoundException", self.s3tables.get_table_bucket, tableBucketARN=arn)

    def test_bucket_with_a_namespace_cannot_be_deleted(self):
        arn = self.create("has-namespace")
        self.s3tables.create_namespace(tableBucketARN=arn, namespace=["ns1"])
        self.assertClientError("ConflictException", self.s3tables.delete_table_bucket, tableBucketARN=arn)
        self.s3tables.delete_namespace(tableBucketARN=arn, namespace="ns1")
        self.s3tables.delete_table_bucket(tableBucketARN=arn)

    def test_list_filters_by_prefix(self):
        for name in ("pfx-one", "pfx-two", "other-pfx"):
            self.create(name)
        names = [b["name"] for b in self.s3tables.list_table_buckets(prefix="pfx-")["tableBuckets"]]
        self.assertEqual(names, ["pfx-one", "pfx-two"], "prefix keeps only matching names, sorted")

    def test_list_filters_by_type(self):
        self.create("typed-customer")
        customer = self.s3tables.list_table_buckets(type="customer")["tableBuckets"]
        self.assertIn("typed-customer", [b["name"] for b in customer], "type=customer lists created buckets")
        self.assertEqual(self.s3tables.list_table_buckets(type="aws")["tableBuckets"], [],
                         "there are no AWS-managed buckets")
        self.assertClientError("BadRequestException", self.s3tables.list_table_buckets, type="other")

    def test_list_pages_with_tokens_that_survive_inserts(self):
        for i in range(7):
            self.create("page-%02d" % i)
        seen, token, pages = [], None, 0
        while True:
            kwargs = {"prefix": "page-", "maxBuckets": 3}
            if token:
                kwargs["continuationToken"] = token
            resp = self.s3tables.list_table_buckets(**kwargs)
            seen += [b["name"] for b in resp["tableBuckets"]]
            pages += 1
            if pages == 1:
                self.create("page-00a")   # sorts before the next page: must not shift it
                self.create("page-99")    # sorts after: must appear
            token = resp.get("continuationToken")
            if not token:
                break
        self.assertEqual(seen, ["page-%02d" % i for i in range(7)] + ["page-99"],
                         "pages are contiguous and sorted; a later insert after the cursor shows up")
        self.assertEqual(pages, 3, "8 buckets at 3 a page take 3 pages")

    def test_page_size_limits_are_enforced(self):
        for bad in (0, 1001):
            with self.subTest(maxBuckets=bad):
                self.assertClientError("BadRequestException", self.s3tables_unchecked.list_table_buckets, maxBuckets=bad)

    def test_garbage_continuation_token_is_bad_request(self):
        self.assertClientError("BadRequestException", self.s3tables.list_table_buckets, continuationToken="garbage!")

    def test_paginator_walks_every_page(self):
        for i in range(5):
            self.create("walk-%d" % i)
        paginator = self.s3tables.get_paginator("list_table_buckets")
        names = [b["name"] for page in paginator.paginate(prefix="walk-", PaginationConfig={"PageSize": 2})
                 for b in page["tableBuckets"]]
        self.assertEqual(names, ["walk-%d" % i for i in range(5)], "boto3's paginator sees every bucket once")

    def test_state_survives_a_restart(self):
        arn = self.create("survivor")
        before = self.s3tables.get_table_bucket(tableBucketARN=arn)
        self.server.restart()
        after = self.s3tables.get_table_bucket(tableBucketARN=arn)
        self.assertEqual(before["tableBucketId"], after["tableBucketId"], "the bucket id is the same after a restart")
        self.assertEqual(before["createdAt"], after["createdAt"], "createdAt is the same after a restart")

    def test_cli_quick_start(self):
        rc, out, _ = self.aws("s3tables", "create-table-bucket", "--name", "cli-bucket")
        self.assertEqual(out["arn"], ARN_PREFIX + "cli-bucket", "the aws CLI prints the new ARN")
        rc, out, _ = self.aws("s3tables", "get-table-bucket", "--table-bucket-arn", ARN_PREFIX + "cli-bucket")
        self.assertEqual(out["name"], "cli-bucket", "the aws CLI reads the bucket back")
        rc, out, _ = self.aws("s3tables", "list-table-buckets", "--prefix", "cli-")
        self.assertEqual([b["name"] for b in out["tableBuckets"]], ["cli-bucket"], "the aws CLI lists it")
        rc, out, err = self.aws("s3tables", "create-table-bucket", "--name", "cli-bucket", expect_ok=False)
        self.assertNotEqual(rc, 0, "creating it again fails")
        self.assertIn("ConflictException", err, "the aws CLI reports ConflictException")
        rc, out, _ = self.aws("s3tables", "delete-table-bucket", "--table-bucket-arn", ARN_PREFIX + "cli-bucket")
        self.assertEqual(rc, 0, "the aws CLI deletes it")


if __name__ == "__main__":
    main()

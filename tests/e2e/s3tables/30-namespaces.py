#!/usr/bin/python3
"""Namespaces end to end with boto3 and the aws CLI: create, get, list, delete, AWS's naming rules,
conflicts, pagination, and state that survives a restart."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from floe_server import FloeTestCase, main  # noqa: E402

ACCOUNT = "000000000000"
ARN_PREFIX = "arn:aws:s3tables:us-east-1:%s:bucket/" % ACCOUNT


class NamespaceTests(FloeTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.arn = cls.s3tables.create_table_bucket(name="ns-home")["arn"]

    def create(self, name, arn=None):
        return self.s3tables.create_namespace(tableBucketARN=arn or self.arn, namespace=[name])

    def test_create_echoes_bucket_and_namespace(self):
        resp = self.create("created")
        self.assertEqual(resp["tableBucketARN"], self.arn, "CreateNamespace returns the bucket ARN")
        self.assertEqual(resp["namespace"], ["created"], "CreateNamespace returns the namespace as a list")

    def test_get_reads_back_what_was_created(self):
        self.create("readback")
        got = self.s3tables.get_namespace(tableBucketARN=self.arn, namespace="readback")
        bucket = self.s3tables.get_table_bucket(tableBucketARN=self.arn)
        self.assertEqual(got["namespace"], ["readback"], "GetNamespace returns the name as a one-element list")
        self.assertEqual(got["createdBy"], ACCOUNT, "createdBy is the account")
        self.assertEqual(got["ownerAccountId"], ACCOUNT, "ownerAccountId is the account")
        self.assertEqual(got["tableBucketId"], bucket["tableBucketId"], "tableBucketId is the bucket's id")
        self.assertRegex(got["namespaceId"], r"^[0-9a-f-]{36}$", "namespaceId is a UUID")
        self.assertIsNotNone(got["createdAt"].tzinfo, "createdAt is a timestamp")

    def test_valid_names_are_accepted(self):
        for name in ("a", "x" * 255, "sales_2024", "0abc", "with_under_score9"):
            with self.subTest(name=name):
                self.assertEqual(self.create(name)["namespace"], [name], "accepts the valid name %r" % name)

    def test_invalid_names_are_refused_with_bad_request(self):
        for name in ("", "x" * 256, "Upper", "has-hyphen", "dot.ted", "_leading", "trailing_", "aws", "awsdata",
                     "spa ce"):
            with self.subTest(name=name):
                self.assertClientError("BadRequestException", self.s3tables_unchecked.create_namespace,
                                       tableBucketARN=self.arn, namespace=[name])

    def test_exactly_one_namespace_level_is_accepted(self):
        self.assertClientError("BadRequestException", self.s3tables_unchecked.create_namespace,
                               tableBucketARN=self.arn, namespace=["a", "b"])
        self.assertClientError("BadRequestException", self.s3tables_unchecked.create_namespace,
                               tableBucketARN=self.arn, namespace=[])

    def test_duplicate_is_a_conflict(self):
        self.create("dupe")
        self.assertClientError("ConflictException", self.s3tables.create_namespace, tableBucketARN=self.arn,
                               namespace=["dupe"])

    def test_same_name_in_another_bucket_is_fine(self):
        other = self.s3tables.create_table_bucket(name="ns-other")["arn"]
        self.create("shared")
        self.assertEqual(self.create("shared", other)["namespace"], ["shared"],
                         "namespace names are unique per bucket, not globally")

    def test_missing_bucket_or_namespace_is_not_found(self):
        missing = ARN_PREFIX + "no-such-bucket"
        self.assertClientError("NotFoundException", self.s3tables.create_namespace, tableBucketARN=missing,
                               namespace=["x"])
        self.assertClientError("NotFoundException", self.s3tables.get_namespace, tableBucketARN=missing, namespace="x")
        self.assertClientError("NotFoundException", self.s3tables.list_namespaces, tableBucketARN=missing)
        self.assertClientError("NotFoundException", self.s3tables.get_namespace, tableBucketARN=self.arn,
                               namespace="nope")
        self.assertClientError("NotFoundException", self.s3tables.delete_namespace, tableBucketARN=self.arn,
                               namespace="nope")

    def test_delete_removes_the_namespace(self):
        self.create("gone")
        resp = self.s3tables.delete_namespace(tableBucketARN=self.arn, namespace="gone")
        self.assertEqual(resp["ResponseMetadata"]["HTTPStatusCode"], 204, "DeleteNamespace answers 204")
        self.assertClientError("NotFoundException", self.s3tables.get_namespace, tableBucketARN=self.arn,
                               namespace="gone")
        self.assertEqual(self.create("gone")["namespace"], ["gone"], "the name can be reused after a delete")

    def test_list_sorts_filters_and_pages(self):
        arn = self.s3tables.create_table_bucket(name="ns-paging")["arn"]
        for i in range(5):
            self.create("p_%d" % i, arn)
        self.create("q_0", arn)
        seen, token = [], None
        while True:
            kwargs = {"tableBucketARN": arn, "prefix": "p_", "maxNamespaces": 2}
            if token:
                kwargs["continuationToken"] = token
            resp = self.s3tables.list_namespaces(**kwargs)
            self.assertLessEqual(len(resp["namespaces"]), 2, "a page never exceeds maxNamespaces")
            seen += [n["namespace"][0] for n in resp["namespaces"]]
            token = resp.get("continuationToken")
            if not token:
                break
        self.assertEqual(seen, ["p_%d" % i for i in range(5)], "every namespace with the prefix, once, in order")
        page = self.s3tables.list_namespaces(tableBucketARN=arn)["namespaces"][0]
        self.assertEqual(set(page), {"namespace", "createdAt", "createdBy", "ownerAccountId", "namespaceId",
                                     "tableBucketId"}, "a summary has the fields AWS returns")

    def test_page_size_limits_are_enforced(self):
        for bad in (0, 1001):
            with self.subTest(maxNamespaces=bad):
                self.assertClientError("BadRequestException", self.s3tables_unchecked.list_namespaces,
                                       tableBucketARN=self.arn, maxNamespaces=bad)

    def test_state_survives_a_restart(self):
        self.create("durable")
        before = self.s3tables.get_namespace(tableBucketARN=self.arn, namespace="durable")
        self.server.restart()
        after = self.s3tables.get_namespace(tableBucketARN=self.arn, namespace="durable")
        self.assertEqual(before["namespaceId"], after["namespaceId"], "the namespace is the same after a restart")

    def test_cli_namespace_round_trip(self):
        self.aws("s3tables", "create-namespace", "--table-bucket-arn", self.arn, "--namespace", "cli_ns")
        _, out, _ = self.aws("s3tables", "get-namespace", "--table-bucket-arn", self.arn, "--namespace", "cli_ns")
        self.assertEqual(out["namespace"], ["cli_ns"], "the aws CLI reads the namespace back")
        _, out, _ = self.aws("s3tables", "list-namespaces", "--table-bucket-arn", self.arn, "--prefix", "cli_")
        self.assertEqual([n["namespace"] for n in out["namespaces"]], [["cli_ns"]], "the aws CLI lists it")
        rc, _, err = self.aws("s3tables", "get-namespace", "--table-bucket-arn", self.arn, "--namespace", "nope",
                              expect_ok=False)
        self.assertIn("NotFoundException", err, "the aws CLI reports NotFoundException")
        self.aws("s3tables", "delete-namespace", "--table-bucket-arn", self.arn, "--namespace", "cli_ns")


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""The fields AWS leaves out, read from the raw JSON the server sends (botocore drops members it
does not know, so its parsed output cannot show an extra field): GetTable omits modifiedBy until
something modifies the table (Terraform's acceptance tests against AWS expect it absent), then
names the account that did, even in the millisecond of the creation; modifiedAt is always there;
namespaces carry exactly the members of the model's shapes, and no modified fields."""

import json
import os
import sys
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from floe_server import FloeTestCase, main, model_dir  # noqa: E402

ACCOUNT = "444444444444"
SCHEMA = {"fields": [{"name": "id", "type": "long", "required": True}]}


def model_members(shape):
    with open(os.path.join(model_dir(), "s3tables", "2018-05-10", "service-2.json")) as f:
        shapes = json.load(f)["shapes"]
    return set(shapes[shape]["members"]), set(shapes[shape].get("required", []))


class TableFieldTests(FloeTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.client = cls.session.client("s3tables", endpoint_url=cls.server.endpoint, region_name="us-east-1",
                                        aws_access_key_id=ACCOUNT, aws_secret_access_key="secret",
                                        config=cls.botocore_config)
        cls.raw = {}
        cls.client.meta.events.register("after-call.s3tables", cls.keep_raw)
        cls.arn = cls.client.create_table_bucket(name="fields")["arn"]
        cls.client.create_namespace(tableBucketARN=cls.arn, namespace=["sales"])

    @classmethod
    def tearDownClass(cls):
        cls.client.close()
        super().tearDownClass()

    @classmethod
    def keep_raw(cls, http_response, model, **_):
        cls.raw[model.name] = json.loads(http_response.content) if http_response.content else None

    def call(self, operation, **kwargs):
        """Calls the operation; returns the JSON document the server sent."""
        getattr(self.client, operation)(**kwargs)
        name = "".join(part.capitalize() for part in operation.split("_"))
        return self.raw[name]

    def create(self, name, **extra):
        return self.client.create_table(tableBucketARN=self.arn, namespace="sales", name=name, format="ICEBERG",
                                        **extra)

    def get(self, name):
        return self.call("get_table", tableBucketARN=self.arn, namespace="sales", name=name)

    def test_a_table_never_modified_has_no_modified_by(self):
        for name, extra in (("bare", {}), ("with_metadata", {"metadata": {"iceberg": {"schema": SCHEMA}}})):
            with self.subTest(table=name):
                self.create(name, **extra)
                table = self.get(name)
                self.assertNotIn("modifiedBy", table, "GetTable leaves modifiedBy out of a table never modified")
                self.assertEqual(table["modifiedAt"], table["createdAt"], "modifiedAt is there, equal to createdAt")
                self.assertEqual((table["createdBy"], table["ownerAccountId"]), (ACCOUNT, ACCOUNT),
                                 "createdBy and ownerAccountId name the account")
                members, required = model_members("GetTableResponse")
                self.assertLessEqual(set(table), members, "every field GetTable sends is a member of its shape")
                self.assertLessEqual(required - {"modifiedBy"}, set(table), "and every other required one is sent")
        listed = self.call("list_tables", tableBucketARN=self.arn, namespace="sales")["tables"]
        for summary in listed:
            self.assertIn("modifiedAt", summary, "ListTables sends modifiedAt")
            self.assertNotIn("modifiedBy", summary, "ListTables has no modifiedBy")
            self.assertLessEqual(set(summary), model_members("TableSummary")[0],
                                 "a summary has only its shape's members")

    def test_an_update_at_once_after_creation_sets_modified_by(self):
        self.create("updated", metadata={"iceberg": {"schema": SCHEMA}})
        table = self.get("updated")
        self.client.update_table_metadata_location(
            tableBucketARN=self.arn, namespace="sales", name="updated", versionToken=table["versionToken"],
            metadataLocation=table["warehouseLocation"] + "/metadata/00001-next.metadata.json")
        modified = self.get("updated")
        self.assertEqual(modified["modifiedBy"], ACCOUNT,
                         "UpdateTableMetadataLocation right after CreateTable makes modifiedBy the account")
        self.assertGreaterEqual(modified["modifiedAt"], modified["createdAt"], "modifiedAt is not before createdAt")

    def test_a_rename_at_once_after_creation_sets_modified_by(self):
        for i in range(5):  # several tries: some land in the millisecond of the creation
            with self.subTest(attempt=i):
                self.create("before_%d" % i)
                self.client.rename_table(tableBucketARN=self.arn, namespace="sales", name="before_%d" % i,
                                         newName="after_%d" % i)
                self.assertEqual(self.get("after_%d" % i).get("modifiedBy"), ACCOUNT,
                                 "a renamed table names the account in modifiedBy")

    def test_an_iceberg_rest_commit_sets_modified_by(self):
        self.create("committed", metadata={"iceberg": {"schema": SCHEMA}})
        url = "%s/_floe/iceberg/v1/%s/namespaces/sales/tables/committed" % (
            self.server.endpoint, urllib.parse.quote(self.arn, safe=""))
        body = json.dumps({"requirements": [], "updates": [{"action": "set-properties", "updates": {"k": "v"}}]})
        req = urllib.request.Request(url, data=body.encode(), method="POST",
                                     headers={"content-type": "application/json"})
        with urllib.request.urlopen(req, timeout=30) as r:
            self.assertEqual(r.status, 200, "the REST commit succeeds")
        self.assertEqual(self.get("committed").get("modifiedBy"), ACCOUNT,
                         "a commit through the Iceberg REST catalog counts as a modification")

    def test_namespaces_carry_exactly_their_shapes_members(self):
        self.client.create_namespace(tableBucketARN=self.arn, namespace=["shape"])
        got = self.call("get_namespace", tableBucketARN=self.arn, namespace="shape")
        members, required = model_members("GetNamespaceResponse")
        self.assertEqual(set(got), members, "GetNamespace sends every member of GetNamespaceResponse, no more")
        self.assertFalse({"modifiedAt", "modifiedBy"} & set(got), "a namespace has no modified fields")
        self.assertEqual((got["createdBy"], got["ownerAccountId"]), (ACCOUNT, ACCOUNT),
                         "created and owned by the account")
        listed = self.call("list_namespaces", tableBucketARN=self.arn, prefix="shape")["namespaces"]
        self.assertEqual(len(listed), 1, "the prefix finds the namespace")
        self.assertEqual(set(listed[0]), model_members("NamespaceSummary")[0],
                         "ListNamespaces sends every member of NamespaceSummary, no more")
        self.assertLessEqual(required, set(got), "every required member is there")


if __name__ == "__main__":
    main()

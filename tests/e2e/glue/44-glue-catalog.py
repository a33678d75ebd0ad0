#!/usr/bin/python3
"""The Glue Data Catalog's S3 Tables integration through real clients (/usr/bin/aws glue and
Debian's boto3, given the current Glue model through AWS_DATA_PATH): `create-catalog` makes the
federated catalog s3tablescatalog as AWS's guide shows; each table bucket is then a child catalog,
each namespace a database and each table a table, read from the rows the S3 Tables API writes, so
a table made there appears at once, and one Glue's DeleteTable deletes is gone; unknown catalogs,
databases and tables answer EntityNotFoundException; lists page; the integration survives a restart
and kill -9; every operation without a handler answers 501 in Glue's shape; strict signatures apply
to Glue too."""

import json
import os
import sys
import unittest

E2E_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, E2E_DIR)
from floe_server import FloeTestCase, main  # noqa: E402

ACCOUNT = "000000000000"   # floe's default --account-id
OTHER_ACCOUNT = "111111111111"
REGION = "us-east-1"
ROOT = "s3tablescatalog"
SCHEMA = {"fields": [{"name": "id", "type": "long", "required": True},
                     {"name": "amount", "type": "decimal(10,2)"}, {"name": "at", "type": "timestamptz"}]}
KEY, SECRET = "AKIDGLUESTRICT", "glue-strict-secret"


def catalog_input(account=ACCOUNT, region=REGION):
    """The CatalogInput of AWS's guide ("Integrating Amazon S3 Tables with AWS analytics services")."""
    return {
        "FederatedCatalog": {"Identifier": "arn:aws:s3tables:%s:%s:bucket/*" % (region, account),
                             "ConnectionName": "aws:s3tables"},
        "CreateDatabaseDefaultPermissions": [],
        "CreateTableDefaultPermissions": [],
        "AllowFullTableExternalDataAccess": "True",
    }


def child(bucket, account=ACCOUNT):
    return "%s:%s/%s" % (account, ROOT, bucket)


class GlueCatalogTests(FloeTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.glue = cls.make_client("glue")
        cls.glue_unchecked = cls.make_client("glue", parameter_validation=False)

    def integrate(self, glue=None):
        import botocore.exceptions
        try:
            (glue or self.glue).create_catalog(Name=ROOT, CatalogInput=catalog_input())
        except botocore.exceptions.ClientError as exc:
            if exc.response["Error"]["Code"] != "AlreadyExistsException":
                raise

    def make_bucket(self, name, namespaces=(), s3tables=None):
        s3tables = s3tables or self.s3tables
        arn = s3tables.create_table_bucket(name=name)["arn"]
        for ns in namespaces:
            s3tables.create_namespace(tableBucketARN=arn, namespace=[ns])
        return arn

    def test_01_the_integration_is_created_as_the_guide_shows_with_the_cli(self):
        _, before, _ = self.aws("glue", "get-catalogs")
        self.assertEqual(before["CatalogList"], [], "an account without the integration has no catalogs")
        self.aws("glue", "create-catalog", "--name", ROOT, "--catalog-input", json.dumps(catalog_input()))
        _, out, _ = self.aws("glue", "get-catalogs")
        self.assertEqual([c["Name"] for c in out["CatalogList"]], [ROOT], "get-catalogs lists s3tablescatalog")
        _, out, _ = self.aws("glue", "get-catalog", "--catalog-id", ROOT)
        catalog = out["Catalog"]
        self.assertEqual(catalog["FederatedCatalog"],
                         {"Identifier": "arn:aws:s3tables:%s:%s:bucket/*" % (REGION, ACCOUNT),
                          "ConnectionName": "aws:s3tables"}, "it is federated to every table bucket")
        self.assertEqual(catalog["CatalogId"], "%s:%s" % (ACCOUNT, ROOT))
        self.assertEqual(catalog["AllowFullTableExternalDataAccess"], "True", "what it was created with is kept")
        rc, _, err = self.aws("glue", "create-catalog", "--name", ROOT, "--catalog-input",
                              json.dumps(catalog_input()), expect_ok=False)
        self.assertNotEqual(rc, 0)
        self.assertIn("AlreadyExistsException", err, "a second integration is refused")

    def test_02_other_catalogs_and_identifiers_are_refused(self):
        self.integrate()
        bad = catalog_input()
        bad["FederatedCatalog"]["ConnectionName"] = "aws:redshift"
        self.assertClientError("InvalidInputException", self.glue.create_catalog, Name=ROOT, CatalogInput=bad)
        other = catalog_input(account=OTHER_ACCOUNT)
        self.assertClientError("InvalidInputException", self.glue.create_catalog, Name=ROOT, CatalogInput=other)
        self.assertClientError("InvalidInputException", self.glue.create_catalog, Name="mycatalog",
                               CatalogInput=catalog_input())

    def test_03_a_table_created_through_s3tables_appears_in_glue_at_once(self):
        self.integrate()
        arn = self.make_bucket("glue-sees", ["sales"])
        created = self.s3tables.create_table(tableBucketARN=arn, namespace="sales", name="orders", format="ICEBERG",
                                             metadata={"iceberg": {"schema": SCHEMA}})
        children = self.glue.get_catalogs(ParentCatalogId=ROOT)["CatalogList"]
        mine = [c for c in children if c["Name"] == "glue-sees"]
        self.assertEqual(len(mine), 1, "the table bucket is a child catalog of s3tablescatalog")
        self.assertEqual(mine[0]["CatalogId"], child("glue-sees"))
        self.assertEqual(mine[0]["FederatedCatalog"]["Identifier"], arn, "federated to the bucket's ARN")
        self.assertEqual(self.glue.get_catalog(CatalogId=child("glue-sees"))["Catalog"]["Name"], "glue-sees")
        dbs = self.glue.get_databases(CatalogId=child("glue-sees"))["DatabaseList"]
        self.assertEqual([d["Name"] for d in dbs], ["sales"], "its namespaces are databases")
        self.assertEqual(self.glue.get_database(CatalogId=child("glue-sees"), Name="sales")["Database"]["CatalogId"],
                         child("glue-sees"))
        table = self.glue.get_table(CatalogId=child("glue-sees"), DatabaseName="sales", Name="orders")["Table"]
        where = self.s3tables.get_table_metadata_location(tableBucketARN=arn, namespace="sales", name="orders")
        self.assertEqual(table["Parameters"]["table_type"], "ICEBERG", "Glue reports an Iceberg table")
        self.assertEqual(table["Parameters"]["metadata_location"], where["metadataLocation"],
                         "with the metadata pointer S3 Tables holds")
        self.assertEqual(table["StorageDescriptor"]["Location"], where["warehouseLocation"],
                         "and the table's warehouse as its location")
        self.assertEqual((table["DatabaseName"], table["CatalogId"]), ("sales", child("glue-sees")))
        columns = table["StorageDescriptor"]["Columns"]
        self.assertEqual([(c["Name"], c["Type"]) for c in columns],
                         [("id", "bigint"), ("amount", "decimal(10,2)"), ("at", "timestamp")],
                         "the columns are the Iceberg schema's, typed as Glue names Iceberg types")
        self.assertEqual(columns[0]["Parameters"], {"iceberg.field.id": "1", "iceberg.field.optional": "false",
                                                    "iceberg.field.current": "true"},
                         "with the field parameters Iceberg's Glue catalog writes")
        self.assertEqual(columns[1]["Parameters"]["iceberg.field.optional"], "true")
        self.assertTrue(created["versionToken"])
        self.assertEqual(table["VersionId"], "0", "GetTable names the table's first version 0")
        # a commit through the S3 Tables API moves what Glue shows
        new_location = where["metadataLocation"].replace("00000-", "00001-")
        self.s3tables.update_table_metadata_location(tableBucketARN=arn, namespace="sales", name="orders",
                                                     versionToken=created["versionToken"],
                                                     metadataLocation=new_location)
        table = self.glue.get_table(CatalogId=child("glue-sees"), DatabaseName="sales", Name="orders")["Table"]
        self.assertEqual(table["Parameters"]["metadata_location"], new_location, "Glue reads the current pointer")
        self.assertEqual(table["VersionId"], "1", "and numbers the table's versions from 0, one per commit")

    def test_04_the_cli_lists_databases_and_tables(self):
        self.integrate()
        arn = self.make_bucket("glue-cli", ["web"])
        self.s3tables.create_table(tableBucketARN=arn, namespace="web", name="clicks", format="ICEBERG")
        _, out, _ = self.aws("glue", "get-databases", "--catalog-id", child("glue-cli"))
        self.assertEqual([d["Name"] for d in out["DatabaseList"]], ["web"])
        _, out, _ = self.aws("glue", "get-tables", "--catalog-id", child("glue-cli"), "--database-name", "web")
        self.assertEqual([t["Name"] for t in out["TableList"]], ["clicks"])

    def test_05_unknown_catalogs_databases_and_tables_are_entity_not_found(self):
        self.integrate()
        self.make_bucket("glue-known", ["known"])
        resp = self.assertClientError("EntityNotFoundException", self.glue.get_catalog, CatalogId=child("nope"))
        self.assertIn(child("nope"), resp["Error"]["Message"], "the message names the catalog")
        self.assertClientError("EntityNotFoundException", self.glue.get_databases, CatalogId=child("nope"))
        self.assertClientError("EntityNotFoundException", self.glue.get_catalog, CatalogId="%s:other" % ACCOUNT)
        resp = self.assertClientError("EntityNotFoundException", self.glue.get_database,
                                      CatalogId=child("glue-known"), Name="missing")
        self.assertEqual(resp["Error"]["Message"], "Database missing not found.")
        resp = self.assertClientError("EntityNotFoundException", self.glue.get_table, CatalogId=child("glue-known"),
                                      DatabaseName="known", Name="missing")
        self.assertEqual(resp["Error"]["Message"], "Table missing not found.")
        self.assertClientError("EntityNotFoundException", self.glue.get_tables, CatalogId=child("glue-known"),
                               DatabaseName="missing")
        self.assertEqual(resp["ResponseMetadata"]["HTTPStatusCode"], 400, "a client error is a 400")

    def test_06_databases_and_tables_page(self):
        self.integrate()
        arn = self.make_bucket("glue-pages", ["ns%d" % i for i in range(5)])
        for i in range(5):
            self.s3tables.create_table(tableBucketARN=arn, namespace="ns0", name="t%d" % i, format="ICEBERG")
        first = self.glue.get_databases(CatalogId=child("glue-pages"), MaxResults=2)
        self.assertEqual([d["Name"] for d in first["DatabaseList"]], ["ns0", "ns1"], "a page of MaxResults")
        self.assertIn("NextToken", first, "and a token for the next")
        pages = self.glue.get_paginator("get_databases").paginate(CatalogId=child("glue-pages"),
                                                                  PaginationConfig={"PageSize": 2})
        names = [d["Name"] for p in pages for d in p["DatabaseList"]]
        self.assertEqual(names, ["ns%d" % i for i in range(5)], "boto3's paginator walks every page once")
        pages = list(self.glue.get_paginator("get_tables").paginate(CatalogId=child("glue-pages"), DatabaseName="ns0",
                                                                    PaginationConfig={"PageSize": 2}))
        self.assertEqual(len(pages), 3, "five tables in pages of two")
        self.assertEqual([t["Name"] for p in pages for t in p["TableList"]], ["t%d" % i for i in range(5)])
        def matching(expression):
            tables = self.glue.get_tables(CatalogId=child("glue-pages"), DatabaseName="ns0", Expression=expression)
            return [t["Name"] for t in tables["TableList"]]
        self.assertEqual(matching("t[34].*"), ["t3", "t4"], "Expression is a regular expression, as Glue documents")
        self.assertEqual(matching("t[34]*"), ["t3", "t4"], "a lone `*` means any run of characters, as in Hive")
        self.assertEqual(matching("*3"), ["t3"], "`*` matches any run of characters")
        self.assertEqual(matching("t0|T2"), ["t0", "t2"], "`|` separates alternatives; case is ignored")
        self.assertEqual(matching("t"), [], "the whole name must match")
        self.assertClientError("InvalidInputException", self.glue.get_tables, CatalogId=child("glue-pages"),
                               DatabaseName="ns0", Expression="t(")
        self.assertClientError("InvalidInputException", self.glue.get_databases, CatalogId=child("glue-pages"),
                               NextToken="not-a-token")
        children = self.glue.get_catalogs(ParentCatalogId=ROOT, MaxResults=1)
        self.assertEqual(len(children["CatalogList"]), 1)
        self.assertIn("NextToken", children, "child catalogs page too")

    def test_07_create_and_delete_database_change_the_namespace(self):
        self.integrate()
        arn = self.make_bucket("glue-dbs")
        self.glue.create_database(CatalogId=child("glue-dbs"), DatabaseInput={"Name": "made_by_glue"})
        namespaces = self.s3tables.list_namespaces(tableBucketARN=arn)["namespaces"]
        self.assertEqual([n["namespace"] for n in namespaces], [["made_by_glue"]],
                         "CreateDatabase on a child catalog creates the namespace")
        self.assertClientError("AlreadyExistsException", self.glue.create_database, CatalogId=child("glue-dbs"),
                               DatabaseInput={"Name": "made_by_glue"})
        self.assertClientError("InvalidInputException", self.glue.create_database, CatalogId=child("glue-dbs"),
                               DatabaseInput={"Name": "Not-Valid"})
        self.s3tables.create_table(tableBucketARN=arn, namespace="made_by_glue", name="t", format="ICEBERG")
        self.assertClientError("InvalidInputException", self.glue.delete_database, CatalogId=child("glue-dbs"),
                               Name="made_by_glue")
        self.s3tables.delete_table(tableBucketARN=arn, namespace="made_by_glue", name="t")
        self.glue.delete_database(CatalogId=child("glue-dbs"), Name="made_by_glue")
        self.assertEqual(self.s3tables.list_namespaces(tableBucketARN=arn)["namespaces"], [],
                         "DeleteDatabase deletes the namespace")

    def test_07b_create_table_makes_an_s3_table_as_the_guide_shows(self):
        self.integrate()
        arn = self.make_bucket("glue-create", ["made"])
        self.aws("glue", "create-table", "--catalog-id", child("glue-create"), "--database-name", "made",
                 "--table-input", json.dumps({"Name": "from_cli", "TableType": "EXTERNAL_TABLE", "StorageDescriptor": {
                     "Columns": [{"Name": "id", "Type": "bigint"}, {"Name": "price", "Type": "decimal(10,2)"},
                                 {"Name": "tags", "Type": "array<string>"},
                                 {"Name": "attrs", "Type": "map<string,struct<a:int,b:string>>"}]}}),
                 "--open-table-format-input", json.dumps({"IcebergInput": {"MetadataOperation": "CREATE",
                                                                           "Version": "2"}}))
        got = self.s3tables.get_table(tableBucketARN=arn, namespace="made", name="from_cli")
        self.assertEqual(got["format"], "ICEBERG", "Glue's CreateTable made an S3 table")
        table = self.glue.get_table(CatalogId=child("glue-create"), DatabaseName="made", Name="from_cli")["Table"]
        self.assertEqual([(c["Name"], c["Type"]) for c in table["StorageDescriptor"]["Columns"]],
                         [("id", "bigint"), ("price", "decimal(10,2)"), ("tags", "array<string>"),
                          ("attrs", "map<string,struct<a:int,b:string>>")],
                         "with the columns it was given, nested types too")
        self.assertEqual(table["Parameters"]["metadata_location"], got["metadataLocation"])
        self.glue.create_table(CatalogId=child("glue-create"), DatabaseName="made", Name="from_schema",
                               TableInput={"Name": "from_schema"},
                               OpenTableFormatInput={"IcebergInput": {"MetadataOperation": "CREATE",
                                                                      "CreateIcebergTableInput": {
                                   "Location": "s3://ignored", "Schema": {"Fields": [
                                       {"Id": 1, "Name": "tags", "Type": {"type": "list", "element-id": 2,
                                                                          "element": "string",
                                                                          "element-required": False},
                                        "Required": False}]}}}})
        table = self.glue.get_table(CatalogId=child("glue-create"), DatabaseName="made", Name="from_schema")["Table"]
        self.assertEqual(table["StorageDescriptor"]["Columns"][0]["Type"], "array<string>",
                         "an Iceberg schema with nested types is kept")
        self.assertClientError("AlreadyExistsException", self.glue.create_table, CatalogId=child("glue-create"),
                               DatabaseName="made", TableInput={"Name": "from_cli"},
                               OpenTableFormatInput={"IcebergInput": {"MetadataOperation": "CREATE"}})
        self.assertClientError("InvalidInputException", self.glue.create_table, CatalogId=child("glue-create"),
                               DatabaseName="made", TableInput={"Name": "hive_table"})
        self.assertClientError("EntityNotFoundException", self.glue.create_table, CatalogId=child("glue-create"),
                               DatabaseName="missing", TableInput={"Name": "t"},
                               OpenTableFormatInput={"IcebergInput": {"MetadataOperation": "CREATE"}})

    def test_07c_create_table_keeps_the_partition_spec_and_write_order(self):
        self.integrate()
        arn = self.make_bucket("glue-spec", ["made"])
        self.glue.create_table(CatalogId=child("glue-spec"), DatabaseName="made", Name="events",
                               TableInput={"Name": "events"},
                               OpenTableFormatInput={"IcebergInput": {"MetadataOperation": "CREATE", "Version": "2",
                                                                      "CreateIcebergTableInput": {
                                   "Location": "s3://ignored",
                                   "Schema": {"Fields": [{"Id": 1, "Name": "id", "Type": "long", "Required": True},
                                                         {"Id": 2, "Name": "at", "Type": "timestamp",
                                                          "Required": False}]},
                                   "PartitionSpec": {"Fields": [{"SourceId": 2, "Transform": "day", "Name": "at_day"},
                                                                {"SourceId": 1, "Transform": "bucket[8]",
                                                                 "Name": "id_bucket"}]},
                                   "WriteOrder": {"OrderId": 1, "Fields": [{"SourceId": 1, "Transform": "identity",
                                                                            "Direction": "desc",
                                                                            "NullOrder": "nulls-last"}]}}}})
        location = self.s3tables.get_table(tableBucketARN=arn, namespace="made", name="events")["metadataLocation"]
        bucket, key = location[len("s3://"):].split("/", 1)
        s3 = self.make_client("s3", s3={"addressing_style": "path"})
        doc = json.loads(s3.get_object(Bucket=bucket, Key=key)["Body"].read())
        spec = [p for p in doc["partition-specs"] if p["spec-id"] == doc["default-spec-id"]][0]
        self.assertEqual([(f["source-id"], f["transform"], f["name"], f["field-id"]) for f in spec["fields"]],
                         [(2, "day", "at_day", 1000), (1, "bucket[8]", "id_bucket", 1001)],
                         "the table is partitioned as CreateIcebergTableInput.PartitionSpec says")
        order = [o for o in doc["sort-orders"] if o["order-id"] == doc["default-sort-order-id"]][0]
        self.assertEqual([(f["source-id"], f["direction"], f["null-order"]) for f in order["fields"]],
                         [(1, "desc", "nulls-last")], "and sorted as its WriteOrder says")

    def test_07d_delete_table_deletes_the_s3_table(self):
        """dbt-athena drops a model's table in s3tablescatalog with Glue's DeleteTable."""
        self.integrate()
        arn = self.make_bucket("glue-drop", ["made"])
        for name in ("by_boto3", "by_cli"):
            self.s3tables.create_table(tableBucketARN=arn, namespace="made", name=name, format="ICEBERG")
        self.glue.delete_table(CatalogId=child("glue-drop"), DatabaseName="made", Name="by_boto3")
        self.aws("glue", "delete-table", "--catalog-id", child("glue-drop"), "--database-name", "made",
                 "--name", "by_cli")
        self.assertEqual(self.s3tables.list_tables(tableBucketARN=arn, namespace="made")["tables"], [],
                         "both S3 tables are gone")
        resp = self.assertClientError("EntityNotFoundException", self.glue.delete_table, CatalogId=child("glue-drop"),
                                      DatabaseName="made", Name="by_boto3")
        self.assertEqual(resp["Error"]["Message"], "Table by_boto3 not found.")
        self.assertClientError("EntityNotFoundException", self.glue.delete_table, CatalogId=child("glue-drop"),
                               DatabaseName="missing", Name="t")
        self.assertClientError("EntityNotFoundException", self.glue.delete_table, DatabaseName="made", Name="t")
        self.glue.delete_database(CatalogId=child("glue-drop"), Name="made")

    def test_08_model_constraints_answer_validation_exception(self):
        resp = self.assertClientError("ValidationException", self.glue_unchecked.get_database,
                                      CatalogId=child("x"), Name="")
        self.assertEqual(resp["Error"]["Message"],
                         "1 validation error detected: Value '' at 'name' failed to satisfy constraint: "
                         "Member must have length greater than or equal to 1")
        resp = self.assertClientError("ValidationException", self.glue_unchecked.get_tables,
                                      CatalogId=child("x"))
        self.assertIn("at 'databaseName' failed to satisfy constraint: Member must not be null",
                      resp["Error"]["Message"])
        self.assertClientError("SerializationException", self.glue_unchecked.get_database,
                               CatalogId=child("x"), Name=12)

    def test_09_operations_without_a_handler_answer_501(self):
        resp = self.assertClientError("NotImplementedException", self.glue.get_crawlers)
        self.assertEqual(resp["ResponseMetadata"]["HTTPStatusCode"], 501)
        self.assertIn("generated/docs/glue.md", resp["Error"]["Message"], "the message points at the docs")
        self.assertTrue(resp["ResponseMetadata"]["RequestId"], "with a request id")

    def test_10_each_account_has_its_own_integration(self):
        import boto3
        session = boto3.session.Session(aws_access_key_id=OTHER_ACCOUNT, aws_secret_access_key="x")
        other = session.client("glue", endpoint_url=self.server.endpoint, region_name=REGION,
                               config=self.botocore_config)
        self.integrate()
        self.assertEqual(other.get_catalogs()["CatalogList"], [], "another account does not see this integration")
        self.assertClientError("EntityNotFoundException", other.get_catalog, CatalogId=ROOT)

    def test_11_the_integration_survives_restart_and_kill(self):
        self.integrate()
        self.make_bucket("glue-durable", ["kept"])
        self.server.restart()
        self.assertEqual(self.glue.get_catalog(CatalogId=ROOT)["Catalog"]["Name"], ROOT, "after a restart")
        self.server.kill()
        self.server.start()
        dbs = self.glue.get_databases(CatalogId=child("glue-durable"))["DatabaseList"]
        self.assertEqual([d["Name"] for d in dbs], ["kept"], "and after kill -9")

    def test_12_delete_catalog_ends_the_integration_and_keeps_the_buckets(self):
        import boto3
        session = boto3.session.Session(aws_access_key_id="222222222222", aws_secret_access_key="x")
        glue = session.client("glue", endpoint_url=self.server.endpoint, region_name=REGION,
                              config=self.botocore_config)
        s3tables = session.client("s3tables", endpoint_url=self.server.endpoint, region_name=REGION,
                                  config=self.botocore_config)
        glue.create_catalog(Name=ROOT, CatalogInput=catalog_input(account="222222222222"))
        self.make_bucket("glue-delete", ["stays"], s3tables=s3tables)
        glue.delete_catalog(CatalogId=ROOT)
        self.assertClientError("EntityNotFoundException", glue.get_catalog, CatalogId=ROOT)
        self.assertClientError("EntityNotFoundException", glue.get_databases,
                               CatalogId=child("glue-delete", "222222222222"))
        self.assertEqual([b["name"] for b in s3tables.list_table_buckets()["tableBuckets"]], ["glue-delete"],
                         "the table buckets stay")
        self.assertClientError("EntityNotFoundException", glue.delete_catalog, CatalogId=ROOT)


class GlueStrictSignatureTests(FloeTestCase):
    server_args = ("--strict-signatures", "--credentials", "%s:%s" % (KEY, SECRET))

    def client_with(self, key, secret):
        import boto3
        session = boto3.session.Session(aws_access_key_id=key, aws_secret_access_key=secret)
        return session.client("glue", endpoint_url=self.server.endpoint, region_name=REGION,
                              config=self.botocore_config)

    def test_glue_requests_must_be_signed_with_known_keys(self):
        good = self.client_with(KEY, SECRET)
        self.assertEqual(good.get_catalogs()["CatalogList"], [], "a correctly signed request is served")
        self.assertClientError("UnrecognizedClientException", self.client_with("AKIDUNKNOWN", SECRET).get_catalogs)
        resp = self.assertClientError("InvalidSignatureException", self.client_with(KEY, "wrong").get_catalogs)
        self.assertEqual(resp["ResponseMetadata"]["HTTPStatusCode"], 403)


if __name__ == "__main__":
    main()

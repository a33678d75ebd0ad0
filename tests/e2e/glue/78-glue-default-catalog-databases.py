#!/usr/bin/python3
"""Glue databases of the account's default catalog (no CatalogId, or the account's id), as AWS's
Glue keeps them and dbt-athena's `database: awsdatacatalog` needs them, through Debian's boto3:
CreateDatabase keeps the name (in lower case), Description, LocationUri and Parameters; GetDatabase
and GetDatabases (paged) return them; a new one holds no tables (GetTables is empty); a second CreateDatabase answers AlreadyExistsException and an
unknown name EntityNotFoundException, in AWS's words; DeleteDatabase removes one; each account and
region has its own; they survive a restart and kill -9; a table bucket's catalog still lists only
its namespaces."""

import os
import sys
import unittest

E2E_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, E2E_DIR)
from floe_server import FloeTestCase, main  # noqa: E402

ACCOUNT = "000000000000"   # floe's default --account-id
ROOT = "s3tablescatalog"


class GlueDefaultCatalogDatabaseTests(FloeTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.glue = cls.make_client("glue")

    def error_of(self, call, **kwargs):
        import botocore.exceptions
        with self.assertRaises(botocore.exceptions.ClientError) as ctx:
            call(**kwargs)
        return ctx.exception.response["Error"]

    def test_01_create_get_and_delete_a_database_as_glue_does(self):
        self.glue.create_database(DatabaseInput={
            "Name": "Sales", "Description": "dbt's schema", "LocationUri": "s3://lake/sales/",
            "Parameters": {"owner": "analytics", "tier": "gold"}})
        db = self.glue.get_database(Name="sales")["Database"]
        self.assertEqual(db["Name"], "sales", "Glue keeps a database's name in lower case")
        self.assertEqual(db["Description"], "dbt's schema")
        self.assertEqual(db["LocationUri"], "s3://lake/sales/")
        self.assertEqual(db["Parameters"], {"owner": "analytics", "tier": "gold"})
        self.assertEqual(db["CatalogId"], ACCOUNT)
        self.assertIn("CreateTime", db)
        self.assertEqual(self.glue.get_database(CatalogId=ACCOUNT, Name="SALES")["Database"]["Name"], "sales",
                         "the account's id names the same catalog, and names are not case-sensitive")
        self.assertIn("sales", [d["Name"] for d in self.glue.get_databases()["DatabaseList"]])
        self.assertEqual(self.glue.get_tables(DatabaseName="sales")["TableList"], [], "a new database holds no tables")
        err = self.error_of(self.glue.get_table, DatabaseName="sales", Name="orders")
        self.assertEqual((err["Code"], err["Message"]), ("EntityNotFoundException", "Table orders not found."))
        err = self.error_of(self.glue.get_tables, DatabaseName="nope")
        self.assertEqual((err["Code"], err["Message"]), ("EntityNotFoundException", "Database nope not found."))

        err = self.error_of(self.glue.create_database, DatabaseInput={"Name": "sales"})
        self.assertEqual((err["Code"], err["Message"]), ("AlreadyExistsException", "Database already exists."))

        self.glue.delete_database(Name="sales")
        err = self.error_of(self.glue.get_database, Name="sales")
        self.assertEqual((err["Code"], err["Message"]), ("EntityNotFoundException", "Database sales not found."))
        err = self.error_of(self.glue.delete_database, Name="sales")
        self.assertEqual((err["Code"], err["Message"]), ("EntityNotFoundException", "Database sales not found."))

    def test_02_get_databases_pages(self):
        names = ["page_%02d" % i for i in range(5)]
        for name in names:
            self.glue.create_database(DatabaseInput={"Name": name})
        got, token = [], None
        while True:
            kwargs = {"MaxResults": 2}
            if token:
                kwargs["NextToken"] = token
            page = self.glue.get_databases(**kwargs)
            self.assertLessEqual(len(page["DatabaseList"]), 2)
            got += [d["Name"] for d in page["DatabaseList"]]
            token = page.get("NextToken")
            if not token:
                break
        self.assertEqual([n for n in got if n.startswith("page_")], names)
        paginated = [d["Name"] for p in self.glue.get_paginator("get_databases").paginate(PaginationConfig={"PageSize": 3})
                     for d in p["DatabaseList"]]
        self.assertEqual([n for n in paginated if n.startswith("page_")], names)
        for name in names:
            self.glue.delete_database(Name=name)

    def test_03_each_region_has_its_own_and_a_bucket_catalog_lists_its_namespaces(self):
        self.glue.create_database(DatabaseInput={"Name": "east_only"})
        west = self.session.client("glue", endpoint_url=self.server.endpoint, region_name="us-west-2",
                                   config=self.botocore_config)
        self.assertNotIn("east_only", [d["Name"] for d in west.get_databases()["DatabaseList"]])
        err = self.error_of(west.get_database, Name="east_only")
        self.assertEqual(err["Code"], "EntityNotFoundException")

        self.glue.create_catalog(Name=ROOT, CatalogInput={
            "FederatedCatalog": {"Identifier": "arn:aws:s3tables:us-east-1:%s:bucket/*" % ACCOUNT,
                                 "ConnectionName": "aws:s3tables"},
            "CreateDatabaseDefaultPermissions": [], "CreateTableDefaultPermissions": []})
        arn = self.s3tables.create_table_bucket(name="default-catalog-peer")["arn"]
        self.s3tables.create_namespace(tableBucketARN=arn, namespace=["ns_only"])
        child = "%s:%s/default-catalog-peer" % (ACCOUNT, ROOT)
        self.assertEqual([d["Name"] for d in self.glue.get_databases(CatalogId=child)["DatabaseList"]], ["ns_only"])
        self.assertNotIn("ns_only", [d["Name"] for d in self.glue.get_databases()["DatabaseList"]])
        self.glue.delete_database(Name="east_only")

    def test_04_databases_survive_restart_and_kill(self):
        self.glue.create_database(DatabaseInput={"Name": "kept", "Description": "stays"})
        self.server.restart()
        self.assertEqual(self.glue.get_database(Name="kept")["Database"]["Description"], "stays", "after a restart")
        self.server.kill()
        self.server.start()
        self.assertIn("kept", [d["Name"] for d in self.glue.get_databases()["DatabaseList"]], "and after kill -9")


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""Another account's warehouse through the S3 Tables Iceberg REST endpoint answers as the S3
Tables API answers that account's ARN: 403, here in the Iceberg REST error shape (the spec's
ForbiddenResponse, type NotAuthorizedException), which PyIceberg raises as ForbiddenError, the
same answer Glue's endpoint gives another account's catalog. PyIceberg, configured by the page's
`pyiceberg-rest` block, signs as account 111111111111 for a table bucket of account 000000000000:
GET /v1/config refuses it on the signed /iceberg and on the /_floe/iceberg alias alike, and so does
every route under the warehouse's prefix (listing, creating and dropping namespaces and tables,
loading, HEAD), which leave the owner's catalog as it was. Unsigned, the alias acts in the
warehouse ARN's own account, so it serves it.

Runs under the engines' virtual environment (tests/engines/requirements.txt): started with
/usr/bin/python3 like every e2e test, it re-executes itself there."""

import os
import sys
import unittest

E2E_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(E2E_DIR, "..", "engines"))
sys.path.insert(0, E2E_DIR)
import snippets  # noqa: E402

snippets.reexec_in_venv()

from floe_server import FloeServer, engine_env  # noqa: E402

from pyiceberg.exceptions import ForbiddenError  # noqa: E402
from pyiceberg.schema import Schema  # noqa: E402
from pyiceberg.types import LongType, NestedField  # noqa: E402

OTHER_ACCOUNT = "111111111111"  # a 12-digit access key is its own account
SCHEMA = Schema(NestedField(1, "id", LongType(), required=True))


def refusal(arn):
    return ("NotAuthorizedException: The warehouse '%s' belongs to another account than the request's (%s)"
            % (arn, OTHER_ACCOUNT))


class AnotherAccountsWarehouse(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        engine_env()
        cls.server = FloeServer("--quiet").start()
        import boto3
        cls.s3tables = boto3.client("s3tables", endpoint_url=cls.server.endpoint, region_name="us-east-1")
        cls.arn = cls.s3tables.create_table_bucket(name="owned")["arn"]
        cls.s3tables.create_namespace(tableBucketARN=cls.arn, namespace=["sales"])
        cls.s3tables.create_table(tableBucketARN=cls.arn, namespace="sales", name="orders", format="ICEBERG")

    @classmethod
    def tearDownClass(cls):
        engine_env()
        cls.server.cleanup()

    def tearDown(self):
        engine_env()

    def catalog(self, base="/iceberg", **replace):
        """The page's block, run as written with this server, the owner's ARN and `base` as its path."""
        uri = {self.server.endpoint + '/iceberg"': self.server.endpoint + base + '"'}
        return snippets.run_python("pyiceberg-rest", self.server.endpoint, self.arn, **uri, **replace)["catalog"]

    def owners_view(self):
        namespaces = [n["namespace"] for n in self.s3tables.list_namespaces(tableBucketARN=self.arn)["namespaces"]]
        tables = [t["name"] for t in self.s3tables.list_tables(tableBucketARN=self.arn)["tables"]]
        return namespaces, tables

    def test_the_s3tables_api_refuses_the_other_account_the_same_arn(self):
        import boto3
        from botocore.exceptions import ClientError
        other = boto3.session.Session(aws_access_key_id=OTHER_ACCOUNT, aws_secret_access_key="s").client(
            "s3tables", endpoint_url=self.server.endpoint, region_name="us-east-1")
        with self.assertRaises(ClientError) as caught:
            other.get_table_bucket(tableBucketARN=self.arn)
        self.assertEqual((caught.exception.response["ResponseMetadata"]["HTTPStatusCode"],
                          caught.exception.response["Error"]["Code"]), (403, "AccessDeniedException"))

    def test_config_refuses_the_other_account_on_both_routes(self):
        engine_env(OTHER_ACCOUNT, "secret")
        for base in ("/iceberg", "/_floe/iceberg"):
            with self.subTest(base=base):
                with self.assertRaises(ForbiddenError) as caught:
                    self.catalog(base)
                self.assertIn(refusal(self.arn), str(caught.exception), "GET /v1/config answers 403")

    def test_every_route_under_the_warehouse_refuses_the_other_account(self):
        for base in ("/iceberg", "/_floe/iceberg"):
            with self.subTest(base=base):
                catalog = self.catalog(base)  # the owner's config, and with it the warehouse's prefix
                before = self.owners_view()
                # The same catalog signing as the other account: PyIceberg's own SigV4 adapter,
                # made again with that account's keys.
                catalog.properties.update({"client.access-key-id": OTHER_ACCOUNT, "client.secret-access-key": "s"})
                catalog._init_sigv4(catalog._session)
                calls = {
                    "listNamespaces": catalog.list_namespaces,
                    "createNamespace": lambda: catalog.create_namespace("intruder"),
                    "loadNamespaceMetadata": lambda: catalog.load_namespace_properties("sales"),
                    "dropNamespace": lambda: catalog.drop_namespace("sales"),
                    "listTables": lambda: catalog.list_tables("sales"),
                    "createTable": lambda: catalog.create_table("sales.intruder", schema=SCHEMA),
                    "loadTable": lambda: catalog.load_table("sales.orders"),
                    "tableExists (HEAD)": lambda: catalog.table_exists("sales.orders"),
                    "dropTable": lambda: catalog.purge_table("sales.orders"),
                }
                for operation, call in calls.items():
                    with self.subTest(operation=operation):
                        with self.assertRaises(ForbiddenError, msg="%s answers 403" % operation) as caught:
                            call()
                        if operation != "tableExists (HEAD)":  # a HEAD answer has no body
                            self.assertIn(refusal(self.arn), str(caught.exception))
                self.assertEqual(self.owners_view(), before, "the owner's catalog is as it was")

    def test_unsigned_the_alias_acts_in_the_warehouses_own_account(self):
        engine_env(OTHER_ACCOUNT, "secret")
        catalog = self.catalog("/_floe/iceberg", **{'"rest.sigv4-enabled": "true"': '"rest.sigv4-enabled": "false"'})
        self.assertIn(("sales",), catalog.list_namespaces(), "an unsigned request names no other account")


if __name__ == "__main__":
    unittest.main(verbosity=2)

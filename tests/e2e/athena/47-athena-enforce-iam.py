#!/usr/bin/python3
"""Athena under `floe serve --strict-signatures --enforce-iam`: a query runs only if its caller may
run it in its workgroup and do what it does to each table, as the S3 Tables actions AWS requires
(s3tables:GetTableData to read, s3tables:PutTableData to write, s3tables:CreateTable to create)
and the Glue Data Catalog actions Athena needs on S3 Tables' federated catalog (glue:GetTable on
the account's catalog, s3tablescatalog, the bucket's catalog, the database and the table), decided
from Trino's own analysis of the query (its access control asks Floe before each access), never
from parsing the SQL. An IAM user (made through IAM, keys from CreateAccessKey) allowed athena:*
alone has its SELECT FAILED with Athena's AccessDeniedException and AWS's sentence naming
s3tables:GetTableData and the table's ARN; allowed athena:* and s3tables:* but no Glue action,
naming glue:GetTable and the account's Glue catalog; granted both it reads, and its INSERT is
refused for PutTableData until that is granted too. Athena's own actions are decided on the
workgroup (`primary` when the request names none; for a call naming a query by id, the query's):
a user allowed athena:* on workgroup/other alone is refused StartQueryExecution in primary with
AccessDeniedException (400) and runs its query in `other`. A database's CREATE and DROP in
AwsDataCatalog need glue:CreateDatabase / glue:DeleteDatabase on the default catalog and the
database, and a query of a Glue table there (an Iceberg table Athena made with a LOCATION) needs
Glue's actions on the catalog, database/<db> and table/<db>/<table> alone. The account's root runs
everything.
boto3, Debian's (awsJson1_1), signed with each principal's keys."""

import os
import sys
import time

from botocore.exceptions import ClientError

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "authz"))
from enforce_iam import allow, refusal  # noqa: E402
from floe_server import FloeTestCase, main  # noqa: E402

OWNER, SECRET = "111122223333", "owner-secret"
TRINO_HOME = os.path.join(os.environ.get("FLOE_TRINO_CACHE", os.path.expanduser("~/.cache/floe-trino")),
                          "trino-server-476")
CONTEXT = {"Catalog": "s3tablescatalog/shared", "Database": "sales"}
OUTPUT = "s3://athena-results/"
QUERY_TIMEOUT_S = 900


class AthenaEnforceIamTests(FloeTestCase):
    server_args = ("--strict-signatures", "--enforce-iam", "--credentials", "%s:%s" % (OWNER, SECRET))

    @classmethod
    def setUpClass(cls):
        if not os.path.exists(os.path.join(TRINO_HOME, "bin", "launcher")):
            import unittest
            raise unittest.SkipTest("Trino is not installed: run scripts/setup-deps --athena")
        super().setUpClass()
        cls.iam = cls.signed_client("iam", OWNER, SECRET)
        cls.root = cls.signed_client("athena", OWNER, SECRET)
        s3tables = cls.signed_client("s3tables", OWNER, SECRET)
        cls.arn = s3tables.create_table_bucket(name="shared")["arn"]
        s3tables.create_namespace(tableBucketARN=cls.arn, namespace=["sales"])
        cls.signed_client("s3", OWNER, SECRET).create_bucket(Bucket="athena-results")
        e = cls.run_query(cls.root, "CREATE TABLE orders (id int, item varchar)")
        assert e["Status"]["State"] == "SUCCEEDED", e["Status"]
        e = cls.run_query(cls.root, "INSERT INTO orders VALUES (1, 'book')")
        assert e["Status"]["State"] == "SUCCEEDED", e["Status"]
        cls.table_arn = s3tables.get_table(tableBucketARN=cls.arn, namespace="sales", name="orders")["tableARN"]

    @classmethod
    def run_query(cls, client, sql, context=CONTEXT):
        qid = client.start_query_execution(QueryString=sql, QueryExecutionContext=context,
                                           ResultConfiguration={"OutputLocation": OUTPUT})["QueryExecutionId"]
        deadline = time.monotonic() + QUERY_TIMEOUT_S
        while time.monotonic() < deadline:
            e = client.get_query_execution(QueryExecutionId=qid)["QueryExecution"]
            if e["Status"]["State"] not in ("QUEUED", "RUNNING"):
                return e
            time.sleep(0.2)
        raise AssertionError("query did not end: %s" % sql)

    def new_user(self, name, actions, resources="*"):
        arn = self.iam.create_user(UserName=name)["User"]["Arn"]
        self.iam.put_user_policy(UserName=name, PolicyName="p", PolicyDocument=allow(actions, resources))
        key = self.iam.create_access_key(UserName=name)["AccessKey"]
        return arn, self.signed_client("athena", key["AccessKeyId"], key["SecretAccessKey"])

    def assertDenied(self, e, user, action, resource):
        self.assertEqual(e["Status"]["State"], "FAILED", e["Status"])
        self.assertEqual(e["Status"]["StateChangeReason"],
                         "AccessDeniedException: " + refusal(user, action, resource))
        self.assertEqual(e["Status"]["AthenaError"]["ErrorCategory"], 2, "a user error")

    def test_reading_needs_get_table_data(self):
        user, athena = self.new_user("reader", ["athena:*"])
        self.assertDenied(self.run_query(athena, "SELECT * FROM orders"), user, "s3tables:GetTableData",
                          self.table_arn)
        self.iam.put_user_policy(UserName="reader", PolicyName="p",
                                 PolicyDocument=allow(["athena:*", "s3tables:GetTableData", "glue:GetTable"], "*"))
        e = self.run_query(athena, "SELECT id, item FROM orders")
        self.assertEqual(e["Status"]["State"], "SUCCEEDED", e["Status"])
        rows = athena.get_query_results(QueryExecutionId=e["QueryExecutionId"])["ResultSet"]["Rows"]
        self.assertEqual([[d.get("VarCharValue") for d in r["Data"]] for r in rows], [["id", "item"], ["1", "book"]])

    def test_writing_needs_put_table_data_and_creating_create_table(self):
        user, athena = self.new_user("writer", ["athena:*", "s3tables:GetTableData"])
        self.assertDenied(self.run_query(athena, "INSERT INTO orders VALUES (2, 'pen')"), user, "s3tables:PutTableData",
                          self.table_arn)
        self.assertDenied(self.run_query(athena, "CREATE TABLE made (id int)"), user, "s3tables:CreateTable", self.arn)
        self.iam.put_user_policy(UserName="writer", PolicyName="p", PolicyDocument=allow(
            ["athena:*", "s3tables:GetTableData", "s3tables:PutTableData", "glue:*"], "*"))
        e = self.run_query(athena, "INSERT INTO orders VALUES (2, 'pen')")
        self.assertEqual(e["Status"]["State"], "SUCCEEDED", e["Status"])
        e = self.run_query(self.root, "SELECT count(*) FROM orders WHERE id = 2")
        rows = self.root.get_query_results(QueryExecutionId=e["QueryExecutionId"])["ResultSet"]["Rows"]
        self.assertEqual(rows[1]["Data"][0]["VarCharValue"], "1", "the granted insert is there")

    def test_reading_needs_glue_get_table_on_every_level_of_the_catalog(self):
        user, athena = self.new_user("noglue", ["athena:*", "s3tables:*"])
        glue = "arn:aws:glue:us-east-1:%s:" % OWNER
        self.assertDenied(self.run_query(athena, "SELECT * FROM orders"), user, "glue:GetTable", glue + "catalog")
        levels = [glue + "catalog", glue + "catalog/s3tablescatalog", glue + "catalog/s3tablescatalog/shared",
                  glue + "database/s3tablescatalog/shared/sales"]
        self.iam.put_user_policy(UserName="noglue", PolicyName="glue", PolicyDocument=allow(["glue:GetTable"], levels))
        self.assertDenied(self.run_query(athena, "SELECT * FROM orders"), user, "glue:GetTable",
                          glue + "table/s3tablescatalog/shared/sales/orders")
        self.iam.put_user_policy(UserName="noglue", PolicyName="glue", PolicyDocument=allow(
            ["glue:GetTable"], levels + [glue + "table/s3tablescatalog/shared/sales/*"]))
        e = self.run_query(athena, "SELECT id FROM orders WHERE id = 1")
        self.assertEqual(e["Status"]["State"], "SUCCEEDED", e["Status"])
        self.assertDenied(self.run_query(athena, "INSERT INTO orders VALUES (3, 'ink')"), user, "glue:UpdateTable",
                          glue + "catalog")

    def test_athena_actions_are_decided_on_the_workgroup(self):
        self.root.create_work_group(Name="other", Configuration={"ResultConfiguration": {"OutputLocation": OUTPUT}})
        workgroup = "arn:aws:athena:us-east-1:%s:workgroup/" % OWNER
        user, athena = self.new_user("scoped", ["athena:*"], workgroup + "other")
        self.iam.put_user_policy(UserName="scoped", PolicyName="data",
                                 PolicyDocument=allow(["s3tables:*", "glue:*"], "*"))
        with self.assertRaises(ClientError) as refused:
            athena.start_query_execution(QueryString="SELECT 1", QueryExecutionContext=CONTEXT,
                                         ResultConfiguration={"OutputLocation": OUTPUT})
        error = refused.exception.response
        self.assertEqual(error["Error"]["Code"], "AccessDeniedException")
        self.assertEqual(error["ResponseMetadata"]["HTTPStatusCode"], 400, "Athena answers a refusal 400")
        self.assertEqual(error["Error"]["Message"],
                         refusal(user, "athena:StartQueryExecution", workgroup + "primary"))
        qid = athena.start_query_execution(QueryString="SELECT id FROM orders", QueryExecutionContext=CONTEXT,
                                           WorkGroup="other")["QueryExecutionId"]
        deadline = time.monotonic() + QUERY_TIMEOUT_S
        while athena.get_query_execution(QueryExecutionId=qid)["QueryExecution"]["Status"]["State"] in ("QUEUED",
                                                                                                         "RUNNING"):
            self.assertLess(time.monotonic(), deadline, "the query ends")
            time.sleep(0.2)
        e = athena.get_query_execution(QueryExecutionId=qid)["QueryExecution"]
        self.assertEqual((e["WorkGroup"], e["Status"]["State"]), ("other", "SUCCEEDED"), e["Status"])
        primary = self.run_query(self.root, "SELECT 1")["QueryExecutionId"]
        with self.assertRaises(ClientError) as refused:
            athena.get_query_execution(QueryExecutionId=primary)
        self.assertEqual(refused.exception.response["Error"]["Message"],
                         refusal(user, "athena:GetQueryExecution", workgroup + "primary"),
                         "a call naming a query by id is decided on the query's workgroup")

    def test_a_database_of_awsdatacatalog_needs_glue_create_and_delete_database(self):
        user, athena = self.new_user("dbmaker", ["athena:*"])
        glue_arn = "arn:aws:glue:us-east-1:%s:" % OWNER
        glue = self.signed_client("glue", OWNER, SECRET)
        default = {"Catalog": "AwsDataCatalog"}
        self.assertDenied(self.run_query(athena, "CREATE SCHEMA staging", default), user, "glue:CreateDatabase",
                          glue_arn + "catalog")
        with self.assertRaises(ClientError):
            glue.get_database(Name="staging")
        self.iam.put_user_policy(UserName="dbmaker", PolicyName="glue", PolicyDocument=allow(
            ["glue:CreateDatabase"], [glue_arn + "catalog"]))
        self.assertDenied(self.run_query(athena, "CREATE SCHEMA staging", default), user, "glue:CreateDatabase",
                          glue_arn + "database/staging")
        self.iam.put_user_policy(UserName="dbmaker", PolicyName="glue", PolicyDocument=allow(
            ["glue:CreateDatabase"], [glue_arn + "catalog", glue_arn + "database/staging"]))
        e = self.run_query(athena, "CREATE SCHEMA staging", default)
        self.assertEqual(e["Status"]["State"], "SUCCEEDED", e["Status"])
        self.assertEqual(glue.get_database(Name="staging")["Database"]["Name"], "staging")
        self.assertDenied(self.run_query(athena, "DROP SCHEMA staging", default), user, "glue:DeleteDatabase",
                          glue_arn + "catalog")
        e = self.run_query(self.root, "DROP SCHEMA staging", default)
        self.assertEqual(e["Status"]["State"], "SUCCEEDED", e["Status"])

    def test_a_table_of_awsdatacatalog_needs_glue_actions_on_its_levels(self):
        glue_arn = "arn:aws:glue:us-east-1:%s:" % OWNER
        self.signed_client("glue", OWNER, SECRET).create_database(DatabaseInput={"Name": "lakehouse"})
        self.signed_client("s3", OWNER, SECRET).create_bucket(Bucket="lake-data")
        default = {"Catalog": "AwsDataCatalog", "Database": "lakehouse"}
        for sql in ("CREATE TABLE events (id int) LOCATION 's3://lake-data/events/' "
                    "TBLPROPERTIES ('table_type'='ICEBERG')", "INSERT INTO events VALUES (1)"):
            e = self.run_query(self.root, sql, default)
            self.assertEqual(e["Status"]["State"], "SUCCEEDED", e["Status"])
        user, athena = self.new_user("lakereader", ["athena:*"])
        self.assertDenied(self.run_query(athena, "SELECT * FROM events", default), user, "glue:GetTable",
                          glue_arn + "catalog")
        levels = [glue_arn + "catalog", glue_arn + "database/lakehouse"]
        self.iam.put_user_policy(UserName="lakereader", PolicyName="glue",
                                 PolicyDocument=allow(["glue:GetTable"], levels))
        self.assertDenied(self.run_query(athena, "SELECT * FROM events", default), user, "glue:GetTable",
                          glue_arn + "table/lakehouse/events")
        self.iam.put_user_policy(UserName="lakereader", PolicyName="glue", PolicyDocument=allow(
            ["glue:GetTable"], levels + [glue_arn + "table/lakehouse/*"]))
        e = self.run_query(athena, "SELECT id FROM events", default)
        self.assertEqual(e["Status"]["State"], "SUCCEEDED", e["Status"])
        rows = athena.get_query_results(QueryExecutionId=e["QueryExecutionId"])["ResultSet"]["Rows"]
        self.assertEqual([[d.get("VarCharValue") for d in r["Data"]] for r in rows], [["id"], ["1"]])
        self.assertDenied(self.run_query(athena, "INSERT INTO events VALUES (2)", default), user, "glue:UpdateTable",
                          glue_arn + "catalog")

    def test_another_accounts_hidden_catalog_name_is_refused(self):
        e = self.run_query(self.root, "SELECT * FROM s3tb_999999999999__us_east_1__shared.sales.orders")
        self.assertEqual(e["Status"]["State"], "FAILED")
        self.assertIn("CATALOG_NOT_FOUND", e["Status"]["StateChangeReason"])


if __name__ == "__main__":
    main()

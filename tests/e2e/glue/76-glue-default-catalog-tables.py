#!/usr/bin/python3
"""Glue tables in the account's default catalog (no CatalogId, or the account's id), as AWS Glue
keeps them and Trino's Hive and Iceberg Glue metastores and awswrangler use them, through Debian's
boto3: CreateTable keeps TableInput whole (its Name in lower case) and GetTable answers it with
DatabaseName, CatalogId, CreateTime, UpdateTime, VersionId "0" and IsRegisteredWithLakeFormation;
a second CreateTable is AlreadyExistsException and a missing database or table
EntityNotFoundException, in AWS's words; GetTables lists, filters (Expression) and pages them;
UpdateTable replaces the TableInput and bumps VersionId, refusing a stale VersionId with
ConcurrentModificationException as Iceberg's Glue catalog commits expect; GetPartitions of a table
is an empty list; column statistics (what Trino's Hive Glue metastore plans with) are kept per
column, a column without any reported in Errors; DeleteTable and BatchDeleteTable remove tables
and DeleteDatabase its tables;
tables survive a restart and kill -9; Athena's ListTableMetadata and GetTableMetadata of
AwsDataCatalog show them, and its `DROP SCHEMA` refuses a database that holds tables unless
CASCADE, as Hive does."""

import os
import sys
import time
import unittest

E2E_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, E2E_DIR)
from floe_server import FloeTestCase, main  # noqa: E402

ACCOUNT = "000000000000"   # floe's default --account-id


def hive_parquet_input(name, location, columns=(("id", "bigint"), ("name", "string")), parameters=None):
    """A Hive Parquet EXTERNAL_TABLE's TableInput as awswrangler's to_parquet writes it."""
    return {
        "Name": name, "Description": "orders of the day", "Owner": "analytics", "TableType": "EXTERNAL_TABLE",
        "Parameters": parameters or {"classification": "parquet", "compressionType": "snappy",
                                     "projection.enabled": "false", "typeOfData": "file"},
        "PartitionKeys": [{"Name": "day", "Type": "string"}],
        "StorageDescriptor": {
            "Columns": [{"Name": n, "Type": t} for n, t in columns],
            "Location": location,
            "InputFormat": "org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat",
            "OutputFormat": "org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat",
            "Compressed": False, "NumberOfBuckets": -1, "StoredAsSubDirectories": False,
            "SerdeInfo": {"SerializationLibrary": "org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe",
                          "Parameters": {"serialization.format": "1"}},
            "BucketColumns": [], "SortColumns": [],
            "Parameters": {"CrawlerSchemaDeserializerVersion": "1.0"},
        },
    }


class GlueDefaultCatalogTableTests(FloeTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.glue = cls.make_client("glue")
        cls.athena = cls.make_client("athena")

    def error_of(self, call, **kwargs):
        import botocore.exceptions
        with self.assertRaises(botocore.exceptions.ClientError) as ctx:
            call(**kwargs)
        return ctx.exception.response["Error"]

    def test_01_create_and_get_a_hive_table_as_glue_keeps_it(self):
        self.glue.create_database(DatabaseInput={"Name": "lake"})
        given = hive_parquet_input("Orders", "s3://data/lake/orders/")
        self.glue.create_table(DatabaseName="Lake", TableInput=given)
        t = self.glue.get_table(DatabaseName="lake", Name="ORDERS")["Table"]
        self.assertEqual(t["Name"], "orders", "Glue keeps a table's name in lower case")
        self.assertEqual((t["DatabaseName"], t["CatalogId"], t["VersionId"]), ("lake", ACCOUNT, "0"))
        self.assertIs(t["IsRegisteredWithLakeFormation"], False)
        self.assertIn("CreateTime", t)
        self.assertIn("UpdateTime", t)
        for key in ("Description", "Owner", "TableType", "Parameters", "PartitionKeys"):
            self.assertEqual(t[key], given[key], key)
        self.assertEqual(t["StorageDescriptor"], given["StorageDescriptor"], "the StorageDescriptor whole")
        self.assertEqual(self.glue.get_table(CatalogId=ACCOUNT, DatabaseName="lake", Name="orders")["Table"]["Name"],
                         "orders", "the account's id names the same catalog")

        err = self.error_of(self.glue.create_table, DatabaseName="lake", TableInput=given)
        self.assertEqual((err["Code"], err["Message"]), ("AlreadyExistsException", "Table already exists."))
        err = self.error_of(self.glue.create_table, DatabaseName="nope", TableInput=given)
        self.assertEqual((err["Code"], err["Message"]), ("EntityNotFoundException", "Database nope not found."))
        err = self.error_of(self.glue.get_table, DatabaseName="lake", Name="missing")
        self.assertEqual((err["Code"], err["Message"]), ("EntityNotFoundException", "Table missing not found."))
        err = self.error_of(self.glue.get_table, DatabaseName="nope", Name="orders")
        self.assertEqual((err["Code"], err["Message"]), ("EntityNotFoundException", "Database nope not found."))
        self.assertEqual(self.glue.get_partitions(DatabaseName="lake", TableName="orders")["Partitions"], [],
                         "Floe keeps no Glue partitions")
        err = self.error_of(self.glue.get_partitions, DatabaseName="lake", TableName="missing")
        self.assertEqual((err["Code"], err["Message"]), ("EntityNotFoundException", "Table missing not found."))

    def test_02_get_tables_lists_filters_and_pages(self):
        self.glue.create_database(DatabaseInput={"Name": "listing"})
        names = ["t_%02d" % i for i in range(5)] + ["other"]
        for name in names:
            self.glue.create_table(DatabaseName="listing", TableInput=hive_parquet_input(name, "s3://data/" + name))
        tables = self.glue.get_tables(DatabaseName="listing")["TableList"]
        self.assertEqual([t["Name"] for t in tables], sorted(names))
        self.assertEqual(tables[0]["StorageDescriptor"]["Location"], "s3://data/other")
        self.assertEqual([t["Name"] for t in self.glue.get_tables(DatabaseName="listing", Expression="t_0[13]|oth*")
                          ["TableList"]], ["other", "t_01", "t_03"], "Hive's table pattern")
        got, token = [], None
        while True:
            kwargs = {"DatabaseName": "listing", "Expression": "t_*", "MaxResults": 2}
            if token:
                kwargs["NextToken"] = token
            page = self.glue.get_tables(**kwargs)
            self.assertLessEqual(len(page["TableList"]), 2)
            got += [t["Name"] for t in page["TableList"]]
            token = page.get("NextToken")
            if not token:
                break
        self.assertEqual(got, names[:5])
        err = self.error_of(self.glue.get_tables, DatabaseName="nope")
        self.assertEqual((err["Code"], err["Message"]), ("EntityNotFoundException", "Database nope not found."))

        self.glue.delete_table(DatabaseName="listing", Name="OTHER")
        err = self.error_of(self.glue.delete_table, DatabaseName="listing", Name="other")
        self.assertEqual((err["Code"], err["Message"]), ("EntityNotFoundException", "Table other not found."))
        res = self.glue.batch_delete_table(DatabaseName="listing", TablesToDelete=["t_00", "t_01", "gone"])
        self.assertEqual(res["Errors"], [{"TableName": "gone", "ErrorDetail": {
            "ErrorCode": "EntityNotFoundException", "ErrorMessage": "Table gone not found."}}])
        self.assertEqual([t["Name"] for t in self.glue.get_tables(DatabaseName="listing")["TableList"]],
                         ["t_02", "t_03", "t_04"])
        self.glue.delete_database(Name="listing")
        self.glue.create_database(DatabaseInput={"Name": "listing"})
        self.assertEqual(self.glue.get_tables(DatabaseName="listing")["TableList"], [],
                         "DeleteDatabase deleted its tables, as Glue does")

    def test_03_update_table_checks_and_bumps_the_version(self):
        """Iceberg's Glue catalog (Trino's, PyIceberg's) commits a new metadata_location with
        UpdateTable and the VersionId it read; a commit that lost the race must fail."""
        self.glue.create_database(DatabaseInput={"Name": "ice"})
        params = {"table_type": "ICEBERG", "metadata_location": "s3://w/ice/m/00000-a.metadata.json"}
        self.glue.create_table(DatabaseName="ice", TableInput={
            "Name": "events", "TableType": "EXTERNAL_TABLE", "Parameters": params,
            "StorageDescriptor": {"Location": "s3://w/ice", "Columns": [{"Name": "id", "Type": "bigint"}]}})
        before = self.glue.get_table(DatabaseName="ice", Name="events")["Table"]
        self.assertEqual(before["VersionId"], "0")
        moved = dict(params, metadata_location="s3://w/ice/m/00001-b.metadata.json",
                     previous_metadata_location=params["metadata_location"])
        self.glue.update_table(DatabaseName="ice", VersionId="0", SkipArchive=True, TableInput={
            "Name": "events", "TableType": "EXTERNAL_TABLE", "Parameters": moved,
            "StorageDescriptor": {"Location": "s3://w/ice", "Columns": [{"Name": "id", "Type": "bigint"},
                                                                        {"Name": "kind", "Type": "string"}]}})
        after = self.glue.get_table(DatabaseName="ice", Name="events")["Table"]
        self.assertEqual(after["VersionId"], "1")
        self.assertEqual(after["Parameters"], moved)
        self.assertEqual([c["Name"] for c in after["StorageDescriptor"]["Columns"]], ["id", "kind"])
        self.assertEqual(after["CreateTime"], before["CreateTime"])

        err = self.error_of(self.glue.update_table, DatabaseName="ice", VersionId="0",
                            TableInput={"Name": "events", "Parameters": params})
        self.assertEqual((err["Code"], err["Message"]),
                         ("ConcurrentModificationException", "Update table failed due to concurrent modifications."))
        self.assertEqual(self.glue.get_table(DatabaseName="ice", Name="events")["Table"]["Parameters"], moved,
                         "the stale commit changed nothing")
        self.glue.update_table(DatabaseName="ice", TableInput={"Name": "events", "Parameters": params})
        self.assertEqual(self.glue.get_table(DatabaseName="ice", Name="events")["Table"]["VersionId"], "2",
                         "an update without VersionId is not checked")
        err = self.error_of(self.glue.update_table, DatabaseName="ice", TableInput={"Name": "missing"})
        self.assertEqual((err["Code"], err["Message"]), ("EntityNotFoundException", "Table missing not found."))

    def test_03b_column_statistics_are_kept_per_column_and_go_with_the_table(self):
        import datetime
        self.glue.create_database(DatabaseInput={"Name": "stats"})
        self.glue.create_table(DatabaseName="stats", TableInput=hive_parquet_input("t", "s3://data/t/"))
        stats = {"ColumnName": "id", "ColumnType": "bigint",
                 "AnalyzedTime": datetime.datetime(2026, 1, 2, 3, 4, 5, tzinfo=datetime.timezone.utc),
                 "StatisticsData": {"Type": "LONG", "LongColumnStatisticsData": {
                     "MinimumValue": 1, "MaximumValue": 10, "NumberOfNulls": 0, "NumberOfDistinctValues": 10}}}
        self.assertEqual(self.glue.update_column_statistics_for_table(
            DatabaseName="stats", TableName="t", ColumnStatisticsList=[stats])["Errors"], [])
        got = self.glue.get_column_statistics_for_table(DatabaseName="stats", TableName="T", ColumnNames=["id", "name"])
        self.assertEqual(got["ColumnStatisticsList"], [stats])
        self.assertEqual([(e["ColumnName"], e["Error"]["ErrorCode"]) for e in got["Errors"]],
                         [("name", "EntityNotFoundException")], "a column without statistics is an error entry")
        self.glue.delete_column_statistics_for_table(DatabaseName="stats", TableName="t", ColumnName="id")
        self.glue.delete_column_statistics_for_table(DatabaseName="stats", TableName="t", ColumnName="id")
        self.assertEqual(self.glue.get_column_statistics_for_table(
            DatabaseName="stats", TableName="t", ColumnNames=["id"])["ColumnStatisticsList"], [])
        err = self.error_of(self.glue.get_column_statistics_for_table, DatabaseName="stats", TableName="missing",
                            ColumnNames=["id"])
        self.assertEqual((err["Code"], err["Message"]), ("EntityNotFoundException", "Table missing not found."))

        self.glue.update_column_statistics_for_table(DatabaseName="stats", TableName="t", ColumnStatisticsList=[stats])
        self.glue.delete_table(DatabaseName="stats", Name="t")
        self.glue.create_table(DatabaseName="stats", TableInput=hive_parquet_input("t", "s3://data/t/"))
        self.assertEqual(self.glue.get_column_statistics_for_table(
            DatabaseName="stats", TableName="t", ColumnNames=["id"])["ColumnStatisticsList"], [],
            "a table's statistics went with it")

    def test_04_athena_lists_the_tables_of_aws_data_catalog(self):
        self.glue.create_database(DatabaseInput={"Name": "seen"})
        self.glue.create_table(DatabaseName="seen", TableInput=hive_parquet_input("sales", "s3://data/sales/"))
        listed = self.athena.list_table_metadata(CatalogName="AwsDataCatalog", DatabaseName="seen")["TableMetadataList"]
        self.assertEqual([m["Name"] for m in listed], ["sales"])
        m = self.athena.get_table_metadata(CatalogName="AwsDataCatalog", DatabaseName="seen",
                                           TableName="sales")["TableMetadata"]
        self.assertEqual(m["TableType"], "EXTERNAL_TABLE")
        self.assertEqual([(c["Name"], c["Type"]) for c in m["Columns"]], [("id", "bigint"), ("name", "string")])
        self.assertEqual([(c["Name"], c["Type"]) for c in m["PartitionKeys"]], [("day", "string")])
        self.assertEqual(m["Parameters"]["classification"], "parquet")
        self.assertEqual(m["Parameters"]["location"], "s3://data/sales/")
        self.assertEqual(m["Parameters"]["inputformat"], "org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat")
        self.assertIn("CreateTime", m)
        err = self.error_of(self.athena.get_table_metadata, CatalogName="AwsDataCatalog", DatabaseName="seen",
                            TableName="missing")
        self.assertEqual(err["Code"], "MetadataException")

        self.make_client("s3").create_bucket(Bucket="athena-results")
        self.athena.create_work_group(Name="ddl", Configuration={
            "ResultConfiguration": {"OutputLocation": "s3://athena-results/ddl/"}})
        e = self.run_query("DROP SCHEMA seen")
        self.assertEqual(e["Status"]["State"], "FAILED")
        self.assertEqual(e["Status"]["StateChangeReason"],
                         "FAILED: Execution Error, return code 1 from org.apache.hadoop.hive.ql.exec.DDLTask. "
                         "InvalidOperationException(message:Database seen is not empty. One or more tables exist.)")
        self.assertEqual(self.glue.get_table(DatabaseName="seen", Name="sales")["Table"]["Name"], "sales")
        self.assertEqual(self.run_query("DROP SCHEMA seen CASCADE")["Status"]["State"], "SUCCEEDED")
        err = self.error_of(self.glue.get_table, DatabaseName="seen", Name="sales")
        self.assertEqual(err["Code"], "EntityNotFoundException")

    def run_query(self, sql):
        """An Athena DDL statement on AwsDataCatalog, which Floe runs against Glue at once."""
        qid = self.athena.start_query_execution(QueryString=sql, WorkGroup="ddl")["QueryExecutionId"]
        for _ in range(100):
            e = self.athena.get_query_execution(QueryExecutionId=qid)["QueryExecution"]
            if e["Status"]["State"] not in ("QUEUED", "RUNNING"):
                return e
            time.sleep(0.1)
        self.fail("query %s did not end" % qid)

    def test_05_tables_survive_restart_and_kill(self):
        self.glue.create_database(DatabaseInput={"Name": "kept"})
        self.glue.create_table(DatabaseName="kept", TableInput=hive_parquet_input("stays", "s3://data/stays/"))
        self.glue.update_table(DatabaseName="kept", VersionId="0",
                               TableInput=hive_parquet_input("stays", "s3://data/stays/v1/"))
        self.server.restart()
        t = self.glue.get_table(DatabaseName="kept", Name="stays")["Table"]
        self.assertEqual((t["VersionId"], t["StorageDescriptor"]["Location"]), ("1", "s3://data/stays/v1/"))
        self.server.kill()
        self.server.start()
        self.assertEqual([t["Name"] for t in self.glue.get_tables(DatabaseName="kept")["TableList"]], ["stays"],
                         "and after kill -9")


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""Athena's DDL in Hive's dialect, as AWS's S3 Tables guide and Athena's "Creating Iceberg tables"
write it, on a Floe whose Trino starts on the first query (scripts/setup-deps --athena installs it):
  - the guide's CREATE TABLE exactly as written (backquoted `s3tablescatalog/<bucket>` names,
    `string`, PARTITIONED BY (month(sale_date)), TBLPROPERTIES ('table_type' = 'iceberg')), then an
    INSERT and a SELECT reading the rows back; PyIceberg sees the table's month partition spec;
  - Hive's types and transforms (array<string>, struct<...>, bucket(N, col), LOCATION,
    'format'='parquet'), ALTER TABLE ADD COLUMNS, DESCRIBE and DROP TABLE with backquotes;
  - a CTAS WITH (table_type = 'ICEBERG', is_external = false, format = 'parquet', partitioning = ...);
  - CREATE EXTERNAL TABLE of an Iceberg table refused with Athena's sentence;
  - Athena's "Evolve Iceberg table schema" statements: ADD COLUMNS of several columns, CHANGE COLUMN
    (rename, int to bigint, comment), DROP COLUMN, REPLACE COLUMNS refused; SET TBLPROPERTIES and
    SHOW TBLPROPERTIES, the properties in the table's Iceberg metadata (PyIceberg) and the columns in
    DESCRIBE, Athena's GetTableMetadata and PyIceberg's schema; backquoted names in DML refused as
    Athena's engine refuses them.
Runs under the engines' virtual environment, re-executed there like the engine tests."""

import os
import sys
import time
import unittest

E2E_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(E2E_DIR, "..", "engines"))
sys.path.insert(0, E2E_DIR)
import snippets  # noqa: E402

snippets.reexec_in_venv()

from floe_server import FloeServer, create_glue_integration, engine_env  # noqa: E402

TRINO_HOME = os.path.join(os.environ.get("FLOE_TRINO_CACHE", os.path.expanduser("~/.cache/floe-trino")),
                          "trino-server-476")
BUCKET = "my-table-bucket"  # the guide's placeholder, amzn-s3-demo-table-bucket, is a reserved name
CONTEXT = {"Catalog": "s3tablescatalog/" + BUCKET, "Database": "my_namespace"}
OUTPUT = "s3://athena-results/queries/"
QUERY_TIMEOUT_S = 900  # the first query waits for Trino to start: a cold JVM on a loaded 2-core machine

# AWS's S3 Tables user guide, creating a table with Athena, as written (the bucket's placeholder replaced)
GUIDE_CREATE = """CREATE TABLE `s3tablescatalog/amzn-s3-demo-table-bucket`.`my_namespace`.`daily_sales` (
  sale_date date,
  product_category string,
  sales_amount double)
PARTITIONED BY (month(sale_date))
TBLPROPERTIES ('table_type' = 'iceberg')""".replace("amzn-s3-demo-table-bucket", BUCKET)


def values(result):
    return [[d.get("VarCharValue") for d in row["Data"]] for row in result["ResultSet"]["Rows"]]


class AthenaHiveDdlTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not os.path.exists(os.path.join(TRINO_HOME, "bin", "launcher")):
            raise unittest.SkipTest("Trino is not installed: run scripts/setup-deps --athena")
        engine_env()
        cls.server = FloeServer("--quiet").start()
        import boto3
        kw = {"endpoint_url": cls.server.endpoint, "region_name": "us-east-1"}
        cls.athena = boto3.client("athena", **kw)
        cls.s3tables = boto3.client("s3tables", **kw)
        cls.arn = cls.s3tables.create_table_bucket(name=BUCKET)["arn"]
        cls.s3tables.create_namespace(tableBucketARN=cls.arn, namespace=["my_namespace"])
        boto3.client("s3", **kw).create_bucket(Bucket="athena-results")
        create_glue_integration(boto3.client("glue", **kw), "000000000000")  # for Athena's GetTableMetadata

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()

    def run_query(self, sql):
        qid = self.athena.start_query_execution(QueryString=sql, QueryExecutionContext=CONTEXT,
                                                ResultConfiguration={"OutputLocation": OUTPUT})["QueryExecutionId"]
        deadline = time.monotonic() + QUERY_TIMEOUT_S
        while time.monotonic() < deadline:
            e = self.athena.get_query_execution(QueryExecutionId=qid)["QueryExecution"]
            if e["Status"]["State"] not in ("QUEUED", "RUNNING"):
                return e
            time.sleep(0.2)
        raise AssertionError("query did not end: %s" % sql)

    def succeed(self, sql):
        e = self.run_query(sql)
        self.assertEqual(e["Status"]["State"], "SUCCEEDED", "%s: %s" % (sql, e["Status"]))
        return e

    def rows(self, sql):
        return values(self.athena.get_query_results(QueryExecutionId=self.succeed(sql)["QueryExecutionId"]))

    def test_01_guide_create_table_insert_select(self):
        e = self.succeed(GUIDE_CREATE)
        self.assertEqual(e["StatementType"], "DDL")
        self.succeed('INSERT INTO "s3tablescatalog/%s"."my_namespace"."daily_sales" VALUES ' % BUCKET +
                     "(DATE '2024-01-15', 'Laptop', 900.00), (DATE '2024-02-01', 'Monitor', 300.00)")
        self.assertEqual(self.rows('SELECT * FROM "s3tablescatalog/%s"."my_namespace".'
                                   '"daily_sales" ORDER BY sale_date' % BUCKET),
                         [["sale_date", "product_category", "sales_amount"], ["2024-01-15", "Laptop", "900.0"],
                          ["2024-02-01", "Monitor", "300.0"]])
        table = snippets.run_python("pyiceberg-rest", self.server.endpoint, self.arn)["catalog"].load_table(
            "my_namespace.daily_sales")
        self.assertEqual([(f.name, str(f.transform), table.schema().find_field(f.source_id).name)
                          for f in table.spec().fields], [("sale_date_month", "month", "sale_date")])
        self.assertEqual(str(table.schema().find_field("product_category").field_type), "string")

    def test_02_hive_types_transforms_and_alter(self):
        self.succeed("CREATE TABLE `my_namespace`.`events` (id bigint COMMENT 'event id', tags array<string>, "
                     "detail struct<kind:string,score:float>, at timestamp) "
                     "PARTITIONED BY (bucket(4, id), day(at)) "
                     "LOCATION 's3://amzn-s3-demo-bucket/your-folder/' "
                     "TBLPROPERTIES ('table_type'='ICEBERG', 'format'='parquet', 'write_compression'='snappy')")
        self.succeed("ALTER TABLE `events` ADD COLUMNS (note string)")
        self.succeed("INSERT INTO events VALUES (7, ARRAY['a', 'b'], ROW('click', 0.5), "
                     "TIMESTAMP '2024-03-01 10:00:00', 'hello')")
        self.assertEqual(self.rows("SELECT id, cardinality(tags) AS n, detail.kind AS kind, note FROM events"),
                         [["id", "n", "kind", "note"], ["7", "2", "click", "hello"]])
        described = self.rows("DESCRIBE `events`")
        self.assertIn("varchar", [r[1] for r in described if r[0] == "note"])
        table = snippets.run_python("pyiceberg-rest", self.server.endpoint, self.arn)["catalog"].load_table(
            "my_namespace.events")
        self.assertEqual([str(f.transform) for f in table.spec().fields], ["bucket[4]", "day"])
        self.succeed("DROP TABLE `s3tablescatalog/%s`.`my_namespace`.`events`" % BUCKET)
        names = [t["name"] for t in self.s3tables.list_tables(tableBucketARN=self.arn)["tables"]]
        self.assertNotIn("events", names)

    def test_03_ctas_with_athena_properties(self):
        self.succeed("CREATE TABLE IF NOT EXISTS `my_namespace`.`sales_by_category` (c string, n bigint) "
                     "TBLPROPERTIES ('table_type'='ICEBERG')")
        e = self.succeed("CREATE TABLE `my_namespace`.`sales_copy` WITH (table_type = 'ICEBERG', is_external = false, "
                         "format = 'parquet', partitioning = ARRAY['product_category']) "
                         "AS SELECT * FROM daily_sales")
        self.assertEqual(e["StatementType"], "DML")
        self.assertEqual(self.rows("SELECT count(*) AS n FROM sales_copy"), [["n"], ["2"]])
        table = snippets.run_python("pyiceberg-rest", self.server.endpoint, self.arn)["catalog"].load_table(
            "my_namespace.sales_copy")
        self.assertEqual([str(f.transform) for f in table.spec().fields], ["identity"])

    def test_04_external_iceberg_table_refused(self):
        e = self.run_query("CREATE EXTERNAL TABLE `my_namespace`.`nope` (id int) TBLPROPERTIES ('table_type'='ICEBERG')")
        self.assertEqual(e["Status"]["State"], "FAILED")
        self.assertIn("External keyword not supported for table type ICEBERG", e["Status"]["StateChangeReason"])
        self.assertEqual(e["Status"]["AthenaError"]["ErrorCategory"], 2)

    def refused(self, sql):
        e = self.run_query(sql)
        self.assertEqual(e["Status"]["State"], "FAILED", sql)
        self.assertEqual(e["Status"]["AthenaError"]["ErrorCategory"], 2, e["Status"])
        return e["Status"]["StateChangeReason"]

    def iceberg_table(self, name):
        return snippets.run_python("pyiceberg-rest", self.server.endpoint, self.arn)["catalog"].load_table(
            "my_namespace." + name)

    def test_05_evolve_iceberg_schema(self):
        self.succeed("CREATE TABLE `my_namespace`.`orders` (id int, amount decimal(10,2), note string) "
                     "TBLPROPERTIES ('table_type'='ICEBERG', 'write_compression'='zstd')")
        self.succeed("INSERT INTO orders VALUES (1, 9.50, 'first')")
        self.succeed("ALTER TABLE `my_namespace`.`orders` ADD COLUMNS (qty int, `Region` string COMMENT 'sales region')")
        self.succeed("ALTER TABLE orders CHANGE COLUMN id order_id bigint COMMENT 'the order'")
        self.succeed("ALTER TABLE orders CHANGE amount amount decimal(12,2)")
        self.succeed("ALTER TABLE orders DROP COLUMN note")
        self.assertEqual([r[:2] + r[3:] for r in self.rows("DESCRIBE `orders`")],
                         [["order_id", "bigint", "the order"], ["amount", "decimal(12,2)", ""],
                          ["qty", "integer", ""], ["region", "varchar", "sales region"]])
        columns = self.athena.get_table_metadata(CatalogName="s3tablescatalog/" + BUCKET, DatabaseName="my_namespace",
                                                 TableName="orders")["TableMetadata"]["Columns"]
        self.assertEqual([(c["Name"], c["Type"]) for c in columns],
                         [("order_id", "bigint"), ("amount", "decimal(12,2)"), ("qty", "int"), ("region", "string")])
        schema = self.iceberg_table("orders").schema()
        self.assertEqual([(f.name, str(f.field_type), f.doc) for f in schema.fields],
                         [("order_id", "long", "the order"), ("amount", "decimal(12, 2)", None), ("qty", "int", None),
                          ("region", "string", "sales region")])
        self.assertEqual(self.rows("SELECT order_id, amount, qty FROM orders"), [["order_id", "amount", "qty"],
                                                                              ["1", "9.50", None]])
        reason = self.refused("ALTER TABLE orders REPLACE COLUMNS (order_id bigint)")
        self.assertIn("ALTER TABLE REPLACE COLUMNS is not supported", reason)
        # DML is not translated: Athena's DML is its Trino engine's, whose identifiers take double quotes
        for sql in ("SELECT `qty` FROM `my_namespace`.`orders`", "INSERT INTO `orders` (qty) VALUES (1)",
                    "DELETE FROM `orders` WHERE qty = 1"):
            self.assertIn("backquoted identifiers are not supported; use double quotes to quote identifiers",
                          self.refused(sql))

    def test_06_table_properties(self):
        self.succeed("CREATE TABLE `my_namespace`.`tuned` (id int) "
                     "TBLPROPERTIES ('table_type'='ICEBERG', 'format'='parquet', 'write_compression'='zstd')")
        self.succeed("ALTER TABLE `my_namespace`.`tuned` SET TBLPROPERTIES ("
                     "'format'='parquet', 'write_compression'='snappy', 'optimize_rewrite_delete_file_threshold'='10')")
        self.succeed("ALTER TABLE tuned SET TBLPROPERTIES ('vacuum_max_snapshot_age_seconds'='259200')")
        e = self.succeed("SHOW TBLPROPERTIES `tuned`")
        result = self.athena.get_query_results(QueryExecutionId=e["QueryExecutionId"])
        self.assertEqual(values(result), [["format\tparquet"], ["optimize_rewrite_delete_file_threshold\t10"],
                                          ["vacuum_max_snapshot_age_seconds\t259200"], ["write_compression\tsnappy"]])
        self.assertEqual(result["ResultSet"]["ResultSetMetadata"]["ColumnInfo"][0]["Name"], "prpt_name")
        self.assertEqual(self.rows("SHOW TBLPROPERTIES my_namespace.tuned('write_compression')"), [["snappy"]])
        properties = self.iceberg_table("tuned").properties
        self.assertEqual((properties.get("write_compression"), properties.get("optimize_rewrite_delete_file_threshold"),
                          properties.get("vacuum_max_snapshot_age_seconds"), properties.get("write.format.default")),
                         ("snappy", "10", "259200", "PARQUET"))
        reason = self.refused("ALTER TABLE tuned SET TBLPROPERTIES ('my.own'='x')")
        self.assertEqual(reason, "INVALID_TABLE_PROPERTY: Unsupported table property key: my.own")
        self.assertNotIn("my.own", self.iceberg_table("tuned").properties)


if __name__ == "__main__":
    unittest.main(verbosity=2)

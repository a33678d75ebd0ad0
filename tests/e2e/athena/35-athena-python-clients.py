#!/usr/bin/python3
"""The Python clients S3 Tables users query Athena with, each configured as its own docs show with
only the endpoint changed, against a Floe that starts its own Trino (scripts/setup-deps --athena):
  - PyAthena (`pyathena.connect(s3_staging_dir=..., region_name=..., catalog_name=
    "s3tablescatalog/<bucket>", schema_name=<namespace>, endpoint_url=...)`): CREATE TABLE and
    INSERT through its cursor, a SELECT whose rows come back as PyAthena converts Athena's types
    (int, float, Decimal, bool, date, datetime, None), its description and rowcount, its pyformat
    parameters and its qmark ones (Athena's ExecutionParameters),
    a result of several GetQueryResults pages, a failed query as its DatabaseError, its
    PandasCursor, which reads the result file from Floe's S3, and its metadata calls (with S3
    Tables' Glue integration);
  - awswrangler (`wr.config.athena_endpoint_url` and `s3_endpoint_url`, its documented endpoint
    settings): `wr.athena.read_sql_query(..., data_source="s3tablescatalog/<bucket>",
    ctas_approach=False)` into a DataFrame with the dtypes awswrangler gives Athena's types, also
    with qmark parameters, in chunks, and from its cache of earlier queries.
The bucket and namespace are made with the S3 Tables API. Runs in <build>/athena-clients-venv
(tests/athena/requirements-clients.txt, installed by scripts/setup-deps), re-executed there."""

import datetime
import decimal
import os
import sys
import unittest

E2E_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(E2E_DIR, "..", "engines"))
sys.path.insert(0, E2E_DIR)
import snippets  # noqa: E402

snippets.reexec_in_venv("athena-clients-venv")

from floe_server import FloeServer, create_glue_integration, engine_env  # noqa: E402

TRINO_HOME = os.path.join(os.environ.get("FLOE_TRINO_CACHE", os.path.expanduser("~/.cache/floe-trino")),
                          "trino-server-476")
BUCKET = "lake"
CATALOG = "s3tablescatalog/" + BUCKET
NAMESPACE = "sales"
STAGING = "s3://athena-results/pyathena/"
ROWS = [
    (1, "a", 0.5, 10, decimal.Decimal("1.25"), True, datetime.date(2024, 1, 2),
     datetime.datetime(2024, 1, 2, 3, 4, 5, 123000)),
    (2, 'b "quoted", too', None, None, None, False, None, None),
    (3, "c", 1e20, 3000000000, decimal.Decimal("-7.00"), None, datetime.date(1999, 12, 31),
     datetime.datetime(1999, 12, 31, 23, 59, 59)),
]


class AthenaPythonClientTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not os.path.exists(os.path.join(TRINO_HOME, "bin", "launcher")):
            raise unittest.SkipTest("Trino is not installed: run scripts/setup-deps --athena")
        engine_env()
        cls.server = FloeServer("--quiet").start()
        import boto3
        kw = {"endpoint_url": cls.server.endpoint, "region_name": "us-east-1"}
        s3tables = boto3.client("s3tables", **kw)
        arn = s3tables.create_table_bucket(name=BUCKET)["arn"]
        s3tables.create_namespace(tableBucketARN=arn, namespace=[NAMESPACE])
        boto3.client("s3", **kw).create_bucket(Bucket="athena-results")
        cursor = cls.connect().cursor()
        # The first query starts Trino: PyAthena polls it to the end as it would any slow query.
        cursor.execute("CREATE TABLE orders (id int, name varchar, amount double, qty bigint, price decimal(10, 2), "
                       "ok boolean, day date, at timestamp(6))")
        cursor.execute("INSERT INTO orders VALUES "
                       "(1, 'a', 0.5, 10, 1.25, true, DATE '2024-01-02', TIMESTAMP '2024-01-02 03:04:05.123456'), "
                       "(2, 'b \"quoted\", too', NULL, NULL, NULL, false, NULL, NULL), "
                       "(3, 'c', 1e20, 3000000000, -7, NULL, DATE '1999-12-31', TIMESTAMP '1999-12-31 23:59:59')")
        cls.inserted = (cursor.rowcount, cursor.substatement_type)

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()

    @classmethod
    def connect(cls, **kw):
        """A PyAthena connection as its README makes one, with Floe's endpoint (passed on to boto3)."""
        from pyathena import connect
        return connect(s3_staging_dir=STAGING, region_name="us-east-1", catalog_name=CATALOG,
                       schema_name=NAMESPACE, endpoint_url=cls.server.endpoint, poll_interval=0.2, **kw)

    def test_01_pyathena_cursor_types_rows(self):
        """Timestamps come back to the millisecond, as Athena prints them (ColumnInfo precision 3)."""
        cursor = self.connect().cursor()
        cursor.execute("SELECT * FROM orders ORDER BY id")
        # PyAthena's rowcount of a write: GetQueryResults' UpdateCount, for an INSERT's SubstatementType
        self.assertEqual(self.inserted, (3, "INSERT"))
        self.assertEqual(cursor.state, "SUCCEEDED")
        self.assertEqual(cursor.substatement_type, "SELECT")
        self.assertEqual([(d[0], d[1]) for d in cursor.description],
                         [("id", "integer"), ("name", "varchar"), ("amount", "double"), ("qty", "bigint"),
                          ("price", "decimal"), ("ok", "boolean"), ("day", "date"), ("at", "timestamp")])
        self.assertEqual(cursor.fetchall(), ROWS)
        self.assertGreater(cursor.data_scanned_in_bytes, 0)
        self.assertTrue(cursor.output_location.endswith(cursor.query_id + ".csv"), cursor.output_location)

    def test_02_pyathena_parameters_quoted_catalog_and_pages(self):
        cursor = self.connect().cursor()
        cursor.execute('SELECT name FROM "%s"."%s"."orders" WHERE id = %%(id)d' % (CATALOG, NAMESPACE), {"id": 2})
        self.assertEqual(cursor.fetchall(), [('b "quoted", too',)])
        # qmark: the values go to Athena as ExecutionParameters, SQL literals for the `?`s
        cursor.execute("SELECT id FROM orders WHERE name = ? OR qty = ? ORDER BY id", ["'a'", "3000000000"],
                       paramstyle="qmark")
        self.assertEqual(cursor.fetchall(), [(1,), (3,)])
        # and for a workgroup's prepared statement, EXECUTE's USING list
        import boto3
        boto3.client("athena", endpoint_url=self.server.endpoint, region_name="us-east-1").create_prepared_statement(
            StatementName="by_qty", WorkGroup="primary", QueryStatement="SELECT name FROM orders WHERE qty = ?")
        cursor.execute("EXECUTE by_qty", ["10"], paramstyle="qmark")
        self.assertEqual(cursor.fetchall(), [("a",)])
        # 2,500 rows: three GetQueryResults pages of at most 1,000, read one after the other
        cursor.execute("SELECT n FROM UNNEST(sequence(1, 2500)) AS t(n) ORDER BY n")
        self.assertEqual(cursor.fetchmany(3), [(1,), (2,), (3,)])
        self.assertEqual([r[0] for r in cursor.fetchall()], list(range(4, 2501)))

    def test_03_pyathena_failure(self):
        from pyathena.error import DatabaseError
        cursor = self.connect().cursor()
        with self.assertRaises(DatabaseError) as caught:
            cursor.execute("SELECT * FROM missing_table")
        self.assertIn("TABLE_NOT_FOUND: line 1:15: Table 's3tablescatalog/lake.sales.missing_table' does not exist",
                      str(caught.exception))

    def test_04_pyathena_pandas_cursor(self):
        """PyAthena's S3 client takes the session's endpoint, not Athena's `endpoint_url`: boto3's
        own AWS_ENDPOINT_URL_S3 names Floe's."""
        from pyathena.pandas.cursor import PandasCursor
        os.environ["AWS_ENDPOINT_URL_S3"] = self.server.endpoint
        df = self.connect(cursor_class=PandasCursor).cursor().execute(
            "SELECT id, name, amount, qty, ok FROM orders ORDER BY id").as_pandas()
        self.assertEqual(df["id"].tolist(), [1, 2, 3])
        self.assertEqual(df["name"].tolist(), ["a", 'b "quoted", too', "c"])
        self.assertEqual(df["amount"].tolist()[0], 0.5)
        self.assertEqual(str(df["id"].dtype), "Int64")
        self.assertEqual(str(df["qty"].dtype), "Int64")
        self.assertEqual(str(df["amount"].dtype), "float64")
        self.assertEqual(df["ok"].tolist(), [True, False, None])

    def test_05_awswrangler_read_sql_query(self):
        import awswrangler as wr
        wr.config.athena_endpoint_url = self.server.endpoint
        wr.config.s3_endpoint_url = self.server.endpoint
        df = wr.athena.read_sql_query("SELECT id, name, amount, qty, price, ok, day FROM orders ORDER BY id",
                                      database=NAMESPACE, data_source=CATALOG, ctas_approach=False,
                                      s3_output="s3://athena-results/wrangler/")
        self.assertEqual(df["id"].tolist(), [1, 2, 3])
        self.assertEqual(df["name"].tolist(), ["a", 'b "quoted", too', "c"])
        self.assertEqual(df["price"].tolist()[0], decimal.Decimal("1.25"))
        self.assertEqual(df["day"].tolist()[0], datetime.date(2024, 1, 2))
        self.assertEqual({c: str(t) for c, t in df.dtypes.items() if c in ("id", "qty", "amount", "ok")},
                         {"id": "Int32", "qty": "Int64", "amount": "float64", "ok": "boolean"})
        self.assertEqual(df.query_metadata["Status"]["State"], "SUCCEEDED")
        df = wr.athena.read_sql_query("SELECT name FROM orders WHERE id = ?", params=["3"], paramstyle="qmark",
                                      database=NAMESPACE, data_source=CATALOG, ctas_approach=False,
                                      s3_output="s3://athena-results/wrangler/")
        self.assertEqual(df["name"].tolist(), ["c"])
        self.assertEqual(df.query_metadata["ExecutionParameters"], ["3"])
        # chunks, and awswrangler's cache: the same SQL again reuses the earlier query's result,
        # found through ListQueryExecutions and BatchGetQueryExecution
        kw = {"database": NAMESPACE, "data_source": CATALOG, "ctas_approach": False,
              "s3_output": "s3://athena-results/wrangler/"}
        self.assertEqual([len(d) for d in wr.athena.read_sql_query("SELECT id FROM orders", chunksize=2, **kw)], [2, 1])
        first = wr.athena.read_sql_query("SELECT count(*) AS n FROM orders", **kw)
        again = wr.athena.read_sql_query("SELECT count(*) AS n FROM orders",
                                         athena_cache_settings={"max_cache_seconds": 900}, **kw)
        self.assertEqual(again["n"].tolist(), [3])
        self.assertEqual(again.query_metadata["QueryExecutionId"], first.query_metadata["QueryExecutionId"])

    def test_06_pyathena_metadata(self):
        """With S3 Tables' Glue integration, as AWS's guide sets it up, PyAthena's metadata calls
        (ListDatabases, ListTableMetadata, GetTableMetadata) see the bucket's namespaces and tables."""
        import boto3
        glue = boto3.client("glue", endpoint_url=self.server.endpoint, region_name="us-east-1")
        create_glue_integration(glue, boto3.client("sts", endpoint_url=self.server.endpoint, region_name="us-east-1")
                                .get_caller_identity()["Account"])
        cursor = self.connect().cursor()
        self.assertEqual([d.name for d in cursor.list_databases(CATALOG)], [NAMESPACE])
        self.assertIn("orders", [t.name for t in cursor.list_table_metadata()])
        table = cursor.get_table_metadata("orders")
        self.assertEqual([(c.name, c.type) for c in table.columns],
                         [("id", "int"), ("name", "string"), ("amount", "double"), ("qty", "bigint"),
                          ("price", "decimal(10,2)"), ("ok", "boolean"), ("day", "date"), ("at", "timestamp")])
        self.assertEqual(table.parameters["table_type"], "ICEBERG")


if __name__ == "__main__":
    unittest.main(verbosity=2)

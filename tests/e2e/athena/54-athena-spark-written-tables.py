#!/usr/bin/python3
"""Tables Spark wrote, queried through Athena, and Athena's writes read back by Spark (issue 33 §5).

Spark (PySpark 3.5 in local mode, tests/e2e/spark_engine.py) is configured as AWS's S3 Tables guide
configures it: AWS's Amazon S3 Tables Catalog for Apache Iceberg (`s3t`) and Iceberg's REST catalog
(`rest`) on one table bucket. Through `s3t` it creates a namespace and four tables:
  - `typed`: int, bigint, double, decimal(10,2), string, boolean, date, timestamp (Iceberg's
    timestamptz), timestamp_ntz and float, with NULLs, a negative decimal, a double in exponent
    form and a quoted string; then a column added after the data (ALTER TABLE ADD COLUMN);
  - `nested`: binary, array<string>, array<double>, map<string, int> and a struct, empty and
    holding NULLs;
  - `events`: partitioned by days(ts) and bucket(4, id);
  - `ledger`: format-version 2 with `write.delete.mode=merge-on-read`, and a Spark DELETE that
    writes position delete files.
boto3's Athena (QueryExecutionContext Catalog `s3tablescatalog/<bucket>`, Database the namespace)
then SELECTs each table: the rows, NULLs included, come back as Athena prints them (decimals with
their scale, dates YYYY-MM-DD, timestamps YYYY-MM-DD HH:MM:SS.SSS, with ` UTC` for a timestamp with
time zone, doubles as Java prints them, a binary's bytes in hex, arrays as [a, b], maps as
{k=v, ...}, structs as {field=value, ...}) and ColumnInfo names Athena's types. Athena then INSERTs,
UPDATEs and DELETEs in each table, and Spark, after REFRESH TABLE, reads Athena's changes row for
row through both catalogs. One Floe, one Trino start, one Spark session. Runs in the engines'
virtual environment, re-executed there like e2e.athena.34."""

import datetime
import os
import sys
import time
import unittest
import warnings
from decimal import Decimal

E2E_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(E2E_DIR, "..", "engines"))
sys.path.insert(0, E2E_DIR)
import snippets  # noqa: E402

snippets.reexec_in_venv()

from floe_server import FloeServer, engine_env  # noqa: E402
from spark_engine import missing_reason, rows, scalar, spark_session  # noqa: E402

os.environ["TZ"] = "UTC"  # PySpark turns a timestamp into a datetime in this process's time zone
time.tzset()

TRINO_HOME = os.path.join(os.environ.get("FLOE_TRINO_CACHE", os.path.expanduser("~/.cache/floe-trino")),
                          "trino-server-476")
BUCKET = "spark-lake"
NS = "written"
CONTEXT = {"Catalog": "s3tablescatalog/" + BUCKET, "Database": NS}
OUTPUT = "s3://athena-results/spark/"
QUERY_TIMEOUT_S = 900  # the first query waits for Trino to start: a cold JVM on a loaded 2-core machine

TYPED_COLUMNS = ["id", "qty", "amount", "price", "name", "ok", "day", "at", "local_at", "ratio", "note"]
TYPED_INFO = [("id", "integer", 10, 0), ("qty", "bigint", 19, 0), ("amount", "double", 17, 0),
              ("price", "decimal", 10, 2), ("name", "varchar", 2147483647, 0), ("ok", "boolean", 0, 0),
              ("day", "date", 0, 0), ("at", "timestamp with time zone", 3, 0), ("local_at", "timestamp", 3, 0),
              ("ratio", "float", 17, 0), ("note", "varchar", 2147483647, 0)]
TYPED_ROWS = [  # what Spark wrote, as Athena prints it
    ["1", "3000000000", "0.5", "1.25", "a", "true", "2024-01-02", "2024-01-02 03:04:05.123 UTC",
     "2024-01-02 03:04:05.123", "1.5", None],
    ["2", None, None, None, 'b "quoted", too', "false", None, None, None, None, None],
    ["3", "-1", "1.0E20", "-7.00", None, None, "1999-12-31", "1999-12-31 23:59:59.000 UTC", "1999-12-31 23:59:59.000",
     "-0.25", None],
    ["4", "40", "-2500.5", "0.01", "after the new column", "true", "2000-02-29", "2000-02-29 12:00:00.500 UTC",
     "2000-02-29 12:00:00.500", "0.1", "added"],
]


def dt(*a):
    return datetime.datetime(*a)


def values(result):
    return [[d.get("VarCharValue") for d in row["Data"]] for row in result["ResultSet"]["Rows"]]


class AthenaOnSparkTablesTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not os.path.exists(os.path.join(TRINO_HOME, "bin", "launcher")):
            raise unittest.SkipTest("Trino is not installed: run scripts/setup-deps --athena")
        reason = missing_reason()
        if reason:
            raise unittest.SkipTest(reason)
        warnings.simplefilter("ignore", ResourceWarning)  # py4j's sockets
        engine_env()
        cls.server = FloeServer("--quiet", "--maintenance-interval", "0").start()
        cls.spark = None
        try:
            cls.start_up()
        except BaseException:
            cls.tearDownClass()
            raise

    @classmethod
    def start_up(cls):
        import boto3
        kw = {"endpoint_url": cls.server.endpoint, "region_name": "us-east-1"}
        s3tables = boto3.client("s3tables", **kw)
        cls.arn = s3tables.create_table_bucket(name=BUCKET)["arn"]
        cls.spark = spark_session(cls.server, cls.arn, "floe-athena-spark-tables")  # sets the user's keys
        os.environ.pop("AWS_DATA_PATH", None)  # the venv's boto3 knows Athena and S3 Tables itself
        cls.athena = boto3.client("athena", **kw)
        cls.s3 = boto3.client("s3", **kw)
        cls.s3.create_bucket(Bucket="athena-results")
        # Trino starts on Athena's first query: it starts while Spark writes
        cls.warm_up = cls.start("SELECT 1 AS one")
        cls.write_with_spark()

    @classmethod
    def tearDownClass(cls):
        if cls.spark is not None:
            cls.spark.stop()
        cls.server.cleanup()

    @classmethod
    def write_with_spark(cls):
        sql = cls.spark.sql
        sql("CREATE NAMESPACE IF NOT EXISTS s3t.%s" % NS)
        sql("CREATE TABLE s3t.%s.typed (id int, qty bigint, amount double, price decimal(10,2), name string, "
            "ok boolean, day date, at timestamp, local_at timestamp_ntz, ratio float) USING iceberg" % NS)
        sql("INSERT INTO s3t.%s.typed VALUES "
            "(1, 3000000000, 0.5, 1.25, 'a', true, DATE '2024-01-02', TIMESTAMP '2024-01-02 03:04:05.123456', "
            " TIMESTAMP_NTZ '2024-01-02 03:04:05.123456', 1.5), "
            "(2, NULL, NULL, NULL, 'b \"quoted\", too', false, NULL, NULL, NULL, NULL), "
            "(3, -1, 1e20, -7, NULL, NULL, DATE '1999-12-31', TIMESTAMP '1999-12-31 23:59:59', "
            " TIMESTAMP_NTZ '1999-12-31 23:59:59', -0.25)" % NS)
        sql("ALTER TABLE s3t.%s.typed ADD COLUMN note string" % NS)
        sql("INSERT INTO s3t.%s.typed VALUES (4, 40, -2500.5, 0.01, 'after the new column', true, DATE '2000-02-29', "
            "TIMESTAMP '2000-02-29 12:00:00.5', TIMESTAMP_NTZ '2000-02-29 12:00:00.5', 0.1, 'added')" % NS)

        sql("CREATE TABLE s3t.%s.events (id bigint, kind string, ts timestamp) USING iceberg "
            "PARTITIONED BY (days(ts), bucket(4, id))" % NS)
        sql("INSERT INTO s3t.%s.events VALUES (1, 'a', TIMESTAMP '2024-05-01 08:00:00'), "
            "(2, 'b', TIMESTAMP '2024-05-01 23:59:59.999'), (3, 'a', TIMESTAMP '2024-05-02 00:00:00'), "
            "(4, 'b', TIMESTAMP '2024-05-02 13:30:00'), (5, 'c', TIMESTAMP '2024-05-03 06:15:00.25'), "
            "(6, 'a', TIMESTAMP '2024-05-03 18:00:00')" % NS)

        sql("CREATE TABLE s3t.%s.nested (id int, raw binary, tags array<string>, scores array<double>, "
            "attrs map<string, int>, point struct<x: double, label: string>) USING iceberg" % NS)
        sql("INSERT INTO s3t.%s.nested VALUES "
            "(1, X'68656C6C6F', array('a', 'b c'), array(0.5D, 1e20D), map('k', 1, 'z', 2), "
            " named_struct('x', 1.5D, 'label', 'here')), "
            "(2, NULL, array(), NULL, map(), NULL), "
            "(3, X'00FF', array('x', NULL), array(CAST(NULL AS DOUBLE)), map('n', CAST(NULL AS INT)), "
            " named_struct('x', CAST(NULL AS DOUBLE), 'label', 'nothing'))" % NS)

        sql("CREATE TABLE s3t.%s.ledger (id int, amount decimal(10,2)) USING iceberg TBLPROPERTIES "
            "('format-version'='2', 'write.delete.mode'='merge-on-read', 'write.update.mode'='merge-on-read')" % NS)
        sql("INSERT INTO s3t.%s.ledger VALUES (1, 10.00), (2, 20.50), (3, -3.25), (4, 4.00), (5, 5.55)" % NS)
        sql("DELETE FROM s3t.%s.ledger WHERE id IN (2, 4)" % NS)

    @classmethod
    def start(cls, sql):
        return cls.athena.start_query_execution(QueryString=sql, QueryExecutionContext=CONTEXT,
                                                ResultConfiguration={"OutputLocation": OUTPUT})["QueryExecutionId"]

    @classmethod
    def wait(cls, qid):
        deadline = time.monotonic() + QUERY_TIMEOUT_S
        while time.monotonic() < deadline:
            e = cls.athena.get_query_execution(QueryExecutionId=qid)["QueryExecution"]
            if e["Status"]["State"] not in ("QUEUED", "RUNNING"):
                return e
            time.sleep(0.2)
        raise AssertionError("query %s did not end" % qid)

    def succeed(self, sql):
        e = self.wait(self.start(sql))
        self.assertEqual(e["Status"]["State"], "SUCCEEDED", "%s: %s" % (sql, e["Status"]))
        return e

    def select(self, sql):
        """(ColumnInfo as (Name, Type, Precision, Scale), the rows after the header) of a SELECT."""
        r = self.athena.get_query_results(QueryExecutionId=self.succeed(sql)["QueryExecutionId"])
        info = [(c["Name"], c["Type"], c["Precision"], c["Scale"]) for c in r["ResultSet"]["ResultSetMetadata"]["ColumnInfo"]]
        return info, values(r)[1:]

    def spark_rows(self, table, order="id"):
        """The rows of the table through both of Spark's catalogs, each refreshed first: the same rows."""
        got = {}
        for cat in ("s3t", "rest"):
            self.spark.sql("REFRESH TABLE %s.%s.%s" % (cat, NS, table))  # each catalog cached the table
            got[cat] = [tuple(r) for r in self.spark.sql("SELECT * FROM %s.%s.%s ORDER BY %s" % (cat, NS, table, order))
                        .collect()]
        self.assertEqual(got["s3t"], got["rest"], "both catalogs read the same rows")
        return got["s3t"]

    def test_01_athena_reads_the_types_spark_wrote(self):
        warm = self.wait(self.warm_up)
        self.assertEqual(warm["Status"]["State"], "SUCCEEDED", warm["Status"])
        info, got = self.select("SELECT * FROM typed ORDER BY id")
        self.assertEqual(info, TYPED_INFO, "ColumnInfo names Athena's types of Spark's columns")
        self.assertEqual(got, TYPED_ROWS, "Spark's values as Athena prints them; the added column NULL before it")
        info, got = self.select('SELECT id, note FROM "s3tablescatalog/%s"."%s"."typed" WHERE note IS NOT NULL' %
                                (BUCKET, NS))
        self.assertEqual(got, [["4", "added"]])

    def test_02_athena_reads_a_partitioned_table_spark_wrote(self):
        info, got = self.select("SELECT id, kind, ts FROM events ORDER BY id")
        self.assertEqual(info, [("id", "bigint", 19, 0), ("kind", "varchar", 2147483647, 0),
                                ("ts", "timestamp with time zone", 3, 0)])
        self.assertEqual(got, [["1", "a", "2024-05-01 08:00:00.000 UTC"], ["2", "b", "2024-05-01 23:59:59.999 UTC"],
                               ["3", "a", "2024-05-02 00:00:00.000 UTC"], ["4", "b", "2024-05-02 13:30:00.000 UTC"],
                               ["5", "c", "2024-05-03 06:15:00.250 UTC"], ["6", "a", "2024-05-03 18:00:00.000 UTC"]])
        _, got = self.select("SELECT id FROM events WHERE ts >= TIMESTAMP '2024-05-02 00:00:00 UTC' "
                             "AND ts < TIMESTAMP '2024-05-03 00:00:00 UTC' ORDER BY id")
        self.assertEqual(got, [["3"], ["4"]], "one day's partition")
        _, got = self.select('SELECT count(*) AS n FROM "events$partitions"')
        self.assertGreaterEqual(int(got[0][0]), 3, "Spark's days(ts) and bucket(4, id) partitions")

    def test_03_athena_applies_sparks_merge_on_read_deletes(self):
        n = scalar(self.spark, "SELECT count(*) FROM s3t.%s.ledger.delete_files WHERE content = 1" % NS)
        self.assertGreater(n, 0, "Spark's DELETE wrote position delete files")
        info, got = self.select("SELECT id, amount FROM ledger ORDER BY id")
        self.assertEqual(info, [("id", "integer", 10, 0), ("amount", "decimal", 10, 2)])
        self.assertEqual(got, [["1", "10.00"], ["3", "-3.25"], ["5", "5.55"]], "the rows Spark deleted are gone")

    def test_04_athena_reads_binary_arrays_maps_and_structs_spark_wrote(self):
        info, got = self.select("SELECT * FROM nested ORDER BY id")
        self.assertEqual(info, [("id", "integer", 10, 0), ("raw", "varbinary", 1073741824, 0), ("tags", "array", 0, 0),
                                ("scores", "array", 0, 0), ("attrs", "map", 0, 0), ("point", "row", 0, 0)])
        self.assertEqual(got, [
            ["1", "68 65 6c 6c 6f", "[a, b c]", "[0.5, 1.0E20]", "{k=1, z=2}", "{x=1.5, label=here}"],
            ["2", None, "[]", None, "{}", None],
            ["3", "00 ff", "[x, null]", "[null]", "{n=null}", "{x=null, label=nothing}"],
        ], "a binary as its bytes in hex, arrays, maps and structs as Athena prints them")
        self.succeed("INSERT INTO nested VALUES (4, X'CAFE', ARRAY['athena'], ARRAY[2.5], MAP(ARRAY['m'], ARRAY[7]), "
                     "CAST(ROW(-1.0, 'athena') AS ROW(x double, label varchar)))")
        self.succeed("UPDATE nested SET tags = ARRAY['updated', NULL], attrs = MAP(ARRAY['u'], ARRAY[-1]) WHERE id = 1")
        self.succeed("DELETE FROM nested WHERE id = 2")
        got = self.spark_rows("nested")
        self.assertEqual([(r[0], bytes(r[1]) if r[1] is not None else None, r[2], r[3], r[4],
                           r[5].asDict() if r[5] is not None else None) for r in got], [
            (1, b"hello", ["updated", None], [0.5, 1e20], {"u": -1}, {"x": 1.5, "label": "here"}),
            (3, b"\x00\xff", ["x", None], [None], {"n": None}, {"x": None, "label": "nothing"}),
            (4, b"\xca\xfe", ["athena"], [2.5], {"m": 7}, {"x": -1.0, "label": "athena"}),
        ], "Spark reads Athena's binary, arrays, map and struct")

    def test_05_spark_reads_athenas_writes_to_typed(self):
        self.succeed("INSERT INTO typed VALUES (5, BIGINT '7', 2.5, DECIMAL '10.10', 'athena', true, DATE '2025-02-03', "
                     "TIMESTAMP '2025-02-03 04:05:06.789 UTC', TIMESTAMP '2025-02-03 04:05:06.789', REAL '0.75', "
                     "'from athena')")
        self.succeed("UPDATE typed SET price = DECIMAL '99.99', note = 'updated', name = NULL WHERE id = 1")
        self.succeed("DELETE FROM typed WHERE id = 3")
        _, got = self.select("SELECT * FROM typed ORDER BY id")
        self.assertEqual(got, [["1", "3000000000", "0.5", "99.99", None, "true", "2024-01-02", "2024-01-02 03:04:05.123 UTC",
                                "2024-01-02 03:04:05.123", "1.5", "updated"], TYPED_ROWS[1], TYPED_ROWS[3],
                               ["5", "7", "2.5", "10.10", "athena", "true", "2025-02-03", "2025-02-03 04:05:06.789 UTC",
                                "2025-02-03 04:05:06.789", "0.75", "from athena"]])
        self.assertEqual(self.spark_rows("typed"), [
            (1, 3000000000, 0.5, Decimal("99.99"), None, True, datetime.date(2024, 1, 2), dt(2024, 1, 2, 3, 4, 5, 123456),
             dt(2024, 1, 2, 3, 4, 5, 123456), 1.5, "updated"),
            (2, None, None, None, 'b "quoted", too', False, None, None, None, None, None),
            (4, 40, -2500.5, Decimal("0.01"), "after the new column", True, datetime.date(2000, 2, 29),
             dt(2000, 2, 29, 12, 0, 0, 500000), dt(2000, 2, 29, 12, 0, 0, 500000), scalar(self.spark, "SELECT float(0.1)"),
             "added"),
            (5, 7, 2.5, Decimal("10.10"), "athena", True, datetime.date(2025, 2, 3), dt(2025, 2, 3, 4, 5, 6, 789000),
             dt(2025, 2, 3, 4, 5, 6, 789000), 0.75, "from athena"),
        ], "Spark reads Athena's insert, update (microseconds kept) and delete")

    def test_06_spark_reads_athenas_writes_to_a_partitioned_table(self):
        self.succeed("INSERT INTO events VALUES (7, 'athena', TIMESTAMP '2024-05-04 12:00:00 UTC'), "
                     "(8, 'athena', TIMESTAMP '2024-05-01 01:00:00 UTC')")
        self.succeed("UPDATE events SET kind = 'z' WHERE id = 1")
        self.succeed("DELETE FROM events WHERE kind = 'b'")
        self.assertEqual(self.spark_rows("events"), [
            (1, "z", dt(2024, 5, 1, 8)), (3, "a", dt(2024, 5, 2)), (5, "c", dt(2024, 5, 3, 6, 15, 0, 250000)),
            (6, "a", dt(2024, 5, 3, 18)), (7, "athena", dt(2024, 5, 4, 12)), (8, "athena", dt(2024, 5, 1, 1))])
        self.assertEqual(rows(self.spark, "SELECT id FROM s3t.%s.events WHERE ts >= TIMESTAMP '2024-05-04 00:00:00'" % NS),
                         [(7,)], "Athena's row landed in its day's partition")

    def test_07_spark_reads_athenas_writes_over_its_own_deletes(self):
        self.succeed("UPDATE ledger SET amount = amount + DECIMAL '1.01' WHERE id = 1")
        self.succeed("DELETE FROM ledger WHERE id = 5")
        self.succeed("INSERT INTO ledger VALUES (6, DECIMAL '6.66')")
        self.assertEqual(self.spark_rows("ledger"), [(1, Decimal("11.01")), (3, Decimal("-3.25")), (6, Decimal("6.66"))])
        self.spark.sql("DELETE FROM s3t.%s.ledger WHERE id = 3" % NS)  # and Spark keeps writing after Athena
        _, got = self.select("SELECT id, amount FROM ledger ORDER BY id")
        self.assertEqual(got, [["1", "11.01"], ["6", "6.66"]])


if __name__ == "__main__":
    unittest.main(verbosity=2)

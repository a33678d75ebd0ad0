"""Apache Spark (PySpark 3.5, local mode) against a test's Floe, through Iceberg's two catalogs AWS documents.

What this is for: the Spark end-to-end tests start one SparkSession per file with two Iceberg
catalogs on the same table bucket, each configured as its own documentation shows, changing only
the endpoint a user would change:
  rest  Iceberg's REST catalog (`type rest`, SigV4 signed for `s3tables`), at Floe's /iceberg; the
        S3 settings (endpoint, path-style, region) come from Floe's loadTable answer, as on AWS.
        Its settings are read from docs/engines.md's Spark block (snippet spark-rest, catalog
        `floe`, which the session also has under that name, for the page's read block).
  s3t   AWS's Amazon S3 Tables Catalog for Apache Iceberg (`catalog-impl S3TablesCatalog`), whose
        S3 Tables client is pointed at Floe with `s3tables.endpoint` and its S3FileIO with
        `s3.endpoint` (it reads no settings from the service).
What it is not for: installing Spark. scripts/setup-deps puts PySpark and the pinned jars
(tests/engines/spark/) into <build>/engines-spark; without them a test skips (a failure in CI).
"""

import ast
import os
import sys
import unittest
import warnings

from floe_server import FloeServer, client_env

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "engines"))
import snippets  # noqa: E402

BUILD_DIR = os.environ.get("FLOE_BUILD_DIR", os.path.join(os.path.dirname(__file__), "..", "..", "build-asan"))
SPARK_DIR = os.environ.get("FLOE_SPARK_DIR", os.path.join(BUILD_DIR, "engines-spark"))
JAVA_HOME = "/usr/lib/jvm/java-17-openjdk-amd64"
REGION = "us-east-1"
CATALOGS = ("rest", "s3t")


def missing_reason():
    """Why Spark cannot run here, or None."""
    if not os.path.isdir(os.path.join(SPARK_DIR, "python", "pyspark")):
        return "PySpark is not installed in %s (run scripts/setup-deps)" % SPARK_DIR
    if not os.path.isdir(os.path.join(SPARK_DIR, "jars")):
        return "the Iceberg jars are not in %s/jars (run scripts/setup-deps)" % SPARK_DIR
    if not os.path.exists(os.path.join(os.environ.get("JAVA_HOME", JAVA_HOME), "bin", "java")):
        return "no Java 17 at %s" % JAVA_HOME
    return None


def require_spark(testcase):
    """Skips the calling test class when Spark is not installed; tests/e2e/run fails a skip in CI."""
    reason = missing_reason()
    if reason:
        import unittest
        raise unittest.SkipTest(reason)


def snippet_conf(name, server, warehouse_arn):
    """{key: value} of every `.config(key, value)` in the Python snippet NAME of docs/engines.md,
    filled in for this server and bucket, in the page's order."""
    tree = ast.parse(snippets.render(name, server.endpoint, warehouse_arn, region=REGION))
    calls = sorted((n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                    and n.func.attr == "config"), key=lambda n: (n.lineno, n.col_offset))
    return {c.args[0].value: c.args[1].value for c in calls}


def page_session_conf(server, warehouse_arn):
    """The settings of docs/engines.md's Spark session (snippet spark-rest), catalog `floe` as
    written, without spark.jars.packages: offline, the same pinned jars come through spark.jars,
    and every package the page names must be one of them."""
    conf = snippet_conf("spark-rest", server, warehouse_arn)
    installed = set(os.listdir(os.path.join(SPARK_DIR, "jars")))
    for coordinate in conf.pop("spark.jars.packages").split(","):
        group, artifact, version = coordinate.strip().split(":")
        assert "%s-%s.jar" % (artifact, version) in installed, \
            "docs/engines.md's Spark session names %s, which tests/engines/spark/pom.xml does not pin" % coordinate
    return conf


def catalog_conf(name, kind, server, warehouse_arn):
    """The Spark settings of one Iceberg catalog, as AWS's S3 Tables guide writes them: `rest` is
    docs/engines.md's catalog `floe` under another name."""
    p = "spark.sql.catalog." + name
    conf = {p: "org.apache.iceberg.spark.SparkCatalog", p + ".warehouse": warehouse_arn}
    if kind == "rest":
        page = "spark.sql.catalog.floe"
        conf.update({p + k[len(page):]: v for k, v in page_session_conf(server, warehouse_arn).items()
                     if k == page or k.startswith(page + ".")})
    else:
        conf.update({
            p + ".catalog-impl": "software.amazon.s3tables.iceberg.S3TablesCatalog",
            p + ".s3tables.endpoint": server.endpoint,
            p + ".client.region": REGION,
            p + ".s3.endpoint": server.endpoint,
            p + ".s3.path-style-access": "true",
        })
    return conf


def spark_session(server, warehouse_arn, app, extra_conf=None, env=None):
    """A local[2] SparkSession with docs/engines.md's settings (its catalog `floe`, the same again
    as `rest`) and AWS's catalog `s3t`, all on warehouse_arn. `env` is what the user's shell
    exports besides (an assumed role's AWS_SESSION_TOKEN ...): the JVM's AWS SDK reads it. Caller
    stops it."""
    os.environ.update(client_env(server))
    os.environ.update(env or {})
    os.environ.setdefault("JAVA_HOME", JAVA_HOME)
    os.environ["SPARK_LOCAL_IP"] = "127.0.0.1"
    os.environ.pop("SPARK_HOME", None)  # PySpark's own jars, not another install's
    os.environ["PYSPARK_PYTHON"] = sys.executable
    sys.path.insert(0, os.path.join(SPARK_DIR, "python"))
    from pyspark.sql import SparkSession
    jars_dir = os.path.join(SPARK_DIR, "jars")
    jars = ",".join(os.path.join(jars_dir, j) for j in sorted(os.listdir(jars_dir)) if j.endswith(".jar"))
    conf = {
        "spark.master": "local[2]",
        "spark.app.name": app,
        "spark.jars": jars,
        "spark.driver.memory": "2g",
        "spark.sql.shuffle.partitions": "2",
        "spark.default.parallelism": "2",
        "spark.ui.enabled": "false",
        "spark.ui.showConsoleProgress": "false",
        "spark.sql.session.timeZone": "UTC",
    }
    conf.update(page_session_conf(server, warehouse_arn))
    conf.update(catalog_conf("rest", "rest", server, warehouse_arn))
    conf.update(catalog_conf("s3t", "s3t", server, warehouse_arn))
    conf.update(extra_conf or {})
    builder = SparkSession.builder
    for k, v in conf.items():
        builder = builder.config(k, v)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def rows(spark, sql):
    """The rows of a query as sorted tuples."""
    return sorted(tuple(r) for r in spark.sql(sql).collect())


def scalar(spark, sql):
    return spark.sql(sql).collect()[0][0]


class SparkBesidePythonEngines(unittest.TestCase):
    """One Floe for the class, with Spark, PyIceberg (docs/engines.md's pyiceberg-rest block) and
    DuckDB on one table bucket named BUCKET; boto3 clients for S3 Tables and S3. Subclasses set
    BUCKET and APP and run in the engines' venv (snippets.reexec_in_venv)."""

    BUCKET = APP = None

    @classmethod
    def setUpClass(cls):
        reason = missing_reason()
        if reason:
            raise unittest.SkipTest(reason)
        warnings.simplefilter("ignore", ResourceWarning)  # py4j's sockets
        cls.server = FloeServer("--quiet", "--maintenance-interval", "0").start()
        cls.spark = cls.duck = None
        try:
            os.environ.update(client_env(cls.server))
            os.environ.pop("AWS_DATA_PATH", None)  # the venv's boto3 knows S3 Tables itself
            import boto3
            cls.s3tables = boto3.client("s3tables", endpoint_url=cls.server.endpoint, region_name=REGION)
            cls.s3 = boto3.client("s3", endpoint_url=cls.server.endpoint, region_name=REGION)
            cls.arn = cls.s3tables.create_table_bucket(name=cls.BUCKET)["arn"]
            cls.catalog = snippets.run_python("pyiceberg-rest", cls.server.endpoint, cls.arn)["catalog"]
            cls.duck = snippets.duckdb_connect(cls.server.endpoint, cls.arn)
            cls.spark = spark_session(cls.server, cls.arn, cls.APP)
        except BaseException:
            cls.tearDownClass()
            raise

    @classmethod
    def tearDownClass(cls):
        if cls.duck is not None:
            cls.duck.close()
        if cls.spark is not None:
            cls.spark.stop()
        cls.server.cleanup()

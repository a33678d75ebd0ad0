#!/usr/bin/python3
"""Athena's control plane through real clients, in both of its wire bindings: Debian's boto3 and
the aws CLI 2.9 speak awsJson1_1 (X-Amz-Target: AmazonAthena.*), the newest boto3 (botocore
1.44.18, hash-pinned in tests/athena/requirements-rest.txt, installed by scripts/setup-deps into
<build>/athena-rest-venv) speaks REST-JSON (POST /query-executions, GET /workgroups/{WorkGroup}).
Workgroups (with `primary`, which cannot be deleted), named queries, prepared statements, the data
catalogs over a table bucket made with the S3 Tables API, a query that fails at once because this
build has no engine (saying how to get one), and all of it after a restart. Which binding a
client used is read from Floe's access log (`GET /workgroups/... Athena:GetWorkGroup`), never
sent by hand."""

import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, HERE)
from floe_server import SOURCE_DIR, FloeTestCase, create_glue_integration, main  # noqa: E402

BUILD = os.environ.get("FLOE_BUILD_DIR", os.path.join(SOURCE_DIR, "build-asan"))
REST_PYTHON = os.path.join(BUILD, "athena-rest-venv", "bin", "python")
ACCOUNT = "000000000000"
OUTPUT = "s3://athena-results/out/"
NO_ENGINE = "Athena queries need Trino: Trino is not installed."
FAILED_RESULTS = "Query did not finish successfully. Final query state: FAILED"

# What the REST-JSON client does, run by the venv's Python: each step's answer (or error) as JSON.
REST_SCRIPT = r"""
import json, sys
import boto3, botocore, botocore.config, botocore.exceptions
endpoint, wg = sys.argv[1], sys.argv[2]
c = boto3.client("athena", endpoint_url=endpoint, region_name="us-east-1", aws_access_key_id="k",
                 aws_secret_access_key="s", config=botocore.config.Config(parameter_validation=False))
out = {"botocore": botocore.__version__, "protocol": c.meta.service_model.protocol}
def call(name, key=None, **kw):
    key = key or name
    try:
        r = getattr(c, name)(**kw)
        r.pop("ResponseMetadata", None)
        out[key] = json.loads(json.dumps(r, default=str))
    except botocore.exceptions.ClientError as e:
        out[key] = {"error": e.response["Error"], "status": e.response["ResponseMetadata"]["HTTPStatusCode"],
                    "code": e.response.get("AthenaErrorCode")}
    return out[key]
call("create_work_group", Name=wg, Description="rest",
     Configuration={"ResultConfiguration": {"OutputLocation": "s3://athena-results/rest/"}})
call("get_work_group", WorkGroup=wg)
call("list_work_groups", MaxResults=50)
nq = call("create_named_query", Name="daily", Database="sales", QueryString="SELECT 1", WorkGroup=wg)
call("get_named_query", NamedQueryId=nq.get("NamedQueryId", "x"))
call("list_named_queries", WorkGroup=wg, MaxResults=10)
call("create_prepared_statement", StatementName="by_id", WorkGroup=wg, QueryStatement="SELECT ?")
call("get_prepared_statement", StatementName="by_id", WorkGroup=wg)
q = call("start_query_execution", QueryString="SELECT 1", WorkGroup=wg,
         QueryExecutionContext={"Catalog": "AwsDataCatalog", "Database": "sales"})
import time
for _ in range(300):  # the engine takes the query off the serving thread; it fails at once
    if call("get_query_execution", QueryExecutionId=q.get("QueryExecutionId", "x")).get(
            "QueryExecution", {}).get("Status", {}).get("State") not in ("QUEUED", "RUNNING"):
        break
    time.sleep(0.1)
call("get_query_results", QueryExecutionId=q.get("QueryExecutionId", "x"), MaxResults=10)
call("list_query_executions", WorkGroup=wg)
call("get_work_group", "get_unknown_work_group", WorkGroup="nope")
call("delete_work_group", WorkGroup="primary")
call("list_data_catalogs")
first = call("list_work_groups", "list_work_groups_page_1", MaxResults=1)
call("list_work_groups", "list_work_groups_page_2", MaxResults=1, NextToken=first.get("NextToken", "x"))
call("list_engine_versions")
call("list_work_groups", "list_work_groups_zero", MaxResults=0)
print(json.dumps(out))
"""


class AthenaControlPlaneTests(FloeTestCase):
    # a Floe whose Trino is missing: the control plane works and a query fails at once, saying so
    server_args = ("--athena-trino-home", "/nonexistent/trino-server")

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.athena = cls.make_client("athena")
        cls.glue = cls.make_client("glue")

    def wait_query(self, qid):
        """The query once the engine has ended it (at once here: it has no Trino)."""
        for _ in range(300):
            e = self.athena.get_query_execution(QueryExecutionId=qid)["QueryExecution"]
            if e["Status"]["State"] not in ("QUEUED", "RUNNING"):
                return e
            time.sleep(0.1)
        self.fail("query %s did not end: %s" % (qid, e["Status"]))

    def log_lines(self):
        with open(self.server.log_path, "rb") as f:
            return f.read().decode("utf-8", "replace").splitlines()

    def make_work_group(self, name, **config):
        self.athena.create_work_group(Name=name, Configuration={"ResultConfiguration": {"OutputLocation": OUTPUT},
                                                                **config})

    def test_01_debian_clients_speak_awsjson_to_athena(self):
        self.assertEqual(self.athena.meta.service_model.protocol, "json", "Debian's boto3 knows Athena as awsJson1_1")
        _, out, _ = self.aws("athena", "list-work-groups")
        self.assertIn("primary", [w["Name"] for w in out["WorkGroups"]], "the aws CLI lists primary")
        self.assertTrue(any(re.search(r" POST / Athena:ListWorkGroups 200 ", line) for line in self.log_lines()),
                        "the CLI's call arrived as POST / with X-Amz-Target")

    def test_02_workgroups(self):
        names = [w["Name"] for w in self.athena.list_work_groups()["WorkGroups"]]
        self.assertIn("primary", names, "primary is always there")
        self.make_work_group("wg_crud", EnforceWorkGroupConfiguration=False, BytesScannedCutoffPerQuery=10485760)
        err = self.assertClientError("InvalidRequestException", self.make_work_group, "wg_crud")
        self.assertIn("already", err["Error"]["Message"])
        wg = self.athena.get_work_group(WorkGroup="wg_crud")["WorkGroup"]
        self.assertEqual(wg["State"], "ENABLED")
        self.assertEqual(wg["Configuration"]["ResultConfiguration"]["OutputLocation"], OUTPUT)
        self.assertFalse(wg["Configuration"]["EnforceWorkGroupConfiguration"])
        self.assertEqual(wg["Configuration"]["BytesScannedCutoffPerQuery"], 10485760)
        self.athena.update_work_group(WorkGroup="wg_crud", Description="nightly", State="DISABLED",
                                      ConfigurationUpdates={"ResultConfigurationUpdates": {"RemoveOutputLocation": True},
                                                            "RemoveBytesScannedCutoffPerQuery": True})
        wg = self.athena.get_work_group(WorkGroup="wg_crud")["WorkGroup"]
        self.assertEqual((wg["Description"], wg["State"]), ("nightly", "DISABLED"))
        self.assertNotIn("OutputLocation", wg["Configuration"]["ResultConfiguration"])
        self.assertNotIn("BytesScannedCutoffPerQuery", wg["Configuration"])
        first = self.athena.list_work_groups(MaxResults=1)
        self.assertEqual(len(first["WorkGroups"]), 1)
        rest = self.athena.list_work_groups(NextToken=first["NextToken"])["WorkGroups"]
        self.assertIn("wg_crud", [w["Name"] for w in first["WorkGroups"] + rest], "pages reach every workgroup")
        elsewhere = self.session.client("athena", endpoint_url=self.server.endpoint, region_name="eu-west-1",
                                        config=self.botocore_config)
        self.assertEqual([w["Name"] for w in elsewhere.list_work_groups()["WorkGroups"]], ["primary"],
                         "another region has its own workgroups")
        self.assertClientError("NotImplementedException", self.athena.list_engine_versions)
        unchecked = self.make_client("athena", parameter_validation=False)
        err = self.assertClientError("InvalidRequestException", unchecked.list_work_groups, MaxResults=0)
        self.assertEqual(err.get("AthenaErrorCode"), "INVALID_INPUT", "a constraint violation is Athena's INVALID_INPUT")
        err = self.assertClientError("InvalidRequestException", self.athena.delete_work_group, WorkGroup="primary")
        self.assertEqual(err["Error"]["Message"], "The primary workgroup cannot be deleted.")
        self.athena.delete_work_group(WorkGroup="wg_crud", RecursiveDeleteOption=True)
        err = self.assertClientError("InvalidRequestException", self.athena.get_work_group, WorkGroup="wg_crud")
        self.assertEqual(err["Error"]["Message"], "WorkGroup is not found.")

    def test_03_named_queries(self):
        self.make_work_group("wg_named")
        ids = [self.athena.create_named_query(Name="q%d" % i, Database="sales", QueryString="SELECT %d" % i,
                                              WorkGroup="wg_named")["NamedQueryId"] for i in range(3)]
        q = self.athena.get_named_query(NamedQueryId=ids[1])["NamedQuery"]
        self.assertEqual((q["Name"], q["Database"], q["QueryString"], q["WorkGroup"]),
                         ("q1", "sales", "SELECT 1", "wg_named"))
        page = self.athena.list_named_queries(WorkGroup="wg_named", MaxResults=2)
        more = self.athena.list_named_queries(WorkGroup="wg_named", NextToken=page["NextToken"])
        self.assertEqual(page["NamedQueryIds"] + more["NamedQueryIds"], ids, "every id, in pages")
        self.assertEqual(self.athena.list_named_queries()["NamedQueryIds"], [], "primary's are its own")
        batch = self.athena.batch_get_named_query(NamedQueryIds=[ids[0], "7c5e8f35-0000-4000-8000-000000000000"])
        self.assertEqual([q["NamedQueryId"] for q in batch["NamedQueries"]], [ids[0]])
        self.assertEqual([u["NamedQueryId"] for u in batch["UnprocessedNamedQueryIds"]],
                         ["7c5e8f35-0000-4000-8000-000000000000"])
        self.athena.delete_named_query(NamedQueryId=ids[0])
        self.assertClientError("InvalidRequestException", self.athena.get_named_query, NamedQueryId=ids[0])

    def test_04_prepared_statements(self):
        self.make_work_group("wg_prep")
        self.athena.create_prepared_statement(StatementName="by_id", WorkGroup="wg_prep",
                                              QueryStatement="SELECT * FROM t WHERE id = ?", Description="one row")
        self.assertClientError("InvalidRequestException", self.athena.create_prepared_statement, StatementName="by_id",
                               WorkGroup="wg_prep", QueryStatement="SELECT 2")
        p = self.athena.get_prepared_statement(StatementName="by_id", WorkGroup="wg_prep")["PreparedStatement"]
        self.assertEqual((p["QueryStatement"], p["WorkGroupName"], p["Description"]),
                         ("SELECT * FROM t WHERE id = ?", "wg_prep", "one row"))
        listed = self.athena.list_prepared_statements(WorkGroup="wg_prep")["PreparedStatements"]
        self.assertEqual([s["StatementName"] for s in listed], ["by_id"])
        self.athena.delete_prepared_statement(StatementName="by_id", WorkGroup="wg_prep")
        self.assertClientError("ResourceNotFoundException", self.athena.get_prepared_statement,
                               StatementName="by_id", WorkGroup="wg_prep")
        self.assertClientError("InvalidRequestException", self.athena.list_prepared_statements, WorkGroup="no_such")

    def test_05_catalogs_over_a_table_bucket(self):
        names = [c["CatalogName"] for c in self.athena.list_data_catalogs()["DataCatalogsSummary"]]
        self.assertEqual(names, ["AwsDataCatalog"], "without the Glue integration, only Glue's default catalog")
        arn = self.s3tables.create_table_bucket(name="athena-bucket")["arn"]
        self.s3tables.create_namespace(tableBucketARN=arn, namespace=["sales"])
        self.s3tables.create_table(tableBucketARN=arn, namespace="sales", name="orders", format="ICEBERG",
                                   metadata={"iceberg": {"schema": {"fields": [
                                       {"name": "id", "type": "long", "required": True}]}}})
        self.assertClientError("InvalidRequestException", self.athena.list_databases,
                               CatalogName="s3tablescatalog/athena-bucket")
        create_glue_integration(self.glue, ACCOUNT)
        names = [c["CatalogName"] for c in self.athena.list_data_catalogs()["DataCatalogsSummary"]]
        self.assertEqual(names[:2], ["AwsDataCatalog", "s3tablescatalog"])
        self.assertIn("s3tablescatalog/athena-bucket", names)
        catalog = "s3tablescatalog/athena-bucket"
        self.assertEqual(self.athena.get_data_catalog(Name=catalog)["DataCatalog"]["Type"], "GLUE")
        dbs = self.athena.list_databases(CatalogName=catalog)["DatabaseList"]
        self.assertEqual([d["Name"] for d in dbs], ["sales"])
        self.assertEqual(self.athena.get_database(CatalogName=catalog, DatabaseName="sales")["Database"]["Name"], "sales")
        tables = self.athena.list_table_metadata(CatalogName=catalog, DatabaseName="sales")["TableMetadataList"]
        self.assertEqual([t["Name"] for t in tables], ["orders"])
        t = self.athena.get_table_metadata(CatalogName=catalog, DatabaseName="sales", TableName="orders")["TableMetadata"]
        self.assertEqual(t["Parameters"]["table_type"], "ICEBERG")
        self.assertTrue(t["Parameters"]["metadata_location"].startswith("s3://"))
        self.assertEqual(t["Columns"], [{"Name": "id", "Type": "bigint"}], "the schema's columns, typed as Glue types them")
        self.assertClientError("MetadataException", self.athena.get_database, CatalogName=catalog, DatabaseName="nope")
        self.assertClientError("MetadataException", self.athena.get_table_metadata, CatalogName=catalog,
                               DatabaseName="sales", TableName="nope")
        self.assertEqual(self.athena.list_databases(CatalogName="AwsDataCatalog")["DatabaseList"], [])

    def test_05b_create_schema_in_aws_data_catalog_makes_a_glue_database_without_the_engine(self):
        """dbt-athena's `create schema if not exists` in AwsDataCatalog: Athena runs a database's
        DDL against Glue's default catalog, so it succeeds here though this Floe has no Trino."""
        self.make_client("s3").create_bucket(Bucket="athena-results")
        self.make_work_group("wg_schema")

        def run(sql, **context):
            qid = self.athena.start_query_execution(QueryString=sql, WorkGroup="wg_schema",
                                                    **context)["QueryExecutionId"]
            return qid, self.wait_query(qid)

        qid, e = run("create schema if not exists `dbt_sales` COMMENT 'dbt''s' LOCATION 's3://lake/dbt_sales/'",
                     QueryExecutionContext={"Catalog": "AwsDataCatalog"})
        self.assertEqual((e["Status"]["State"], e["StatementType"]), ("SUCCEEDED", "DDL"), e["Status"])
        results = self.athena.get_query_results(QueryExecutionId=qid)
        self.assertEqual((results["ResultSet"]["Rows"], results["ResultSet"]["ResultSetMetadata"]["ColumnInfo"]),
                         ([], []), "a DDL statement's result has no rows")
        db = self.glue.get_database(Name="dbt_sales")["Database"]
        self.assertEqual((db["Name"], db["Description"], db["LocationUri"], db["CatalogId"]),
                         ("dbt_sales", "dbt's", "s3://lake/dbt_sales/", ACCOUNT))
        self.assertEqual(self.athena.get_database(CatalogName="AwsDataCatalog", DatabaseName="dbt_sales")
                         ["Database"]["Name"], "dbt_sales")
        self.assertEqual([d["Name"] for d in self.athena.list_databases(CatalogName="AwsDataCatalog")["DatabaseList"]],
                         ["dbt_sales"])
        self.assertEqual(self.athena.list_table_metadata(CatalogName="AwsDataCatalog", DatabaseName="dbt_sales")
                         ["TableMetadataList"], [])

        _, e = run("CREATE DATABASE dbt_sales")  # no context catalog: AwsDataCatalog
        self.assertEqual(e["Status"]["State"], "FAILED")
        self.assertTrue(e["Status"]["StateChangeReason"].endswith("Database dbt_sales already exists)"),
                        e["Status"]["StateChangeReason"])
        _, e = run("CREATE SCHEMA IF NOT EXISTS dbt_sales;")
        self.assertEqual(e["Status"]["State"], "SUCCEEDED", "IF NOT EXISTS takes an existing database")

        _, e = run("DROP SCHEMA dbt_sales", QueryExecutionContext={"Catalog": "AwsDataCatalog"})
        self.assertEqual((e["Status"]["State"], e["StatementType"]), ("SUCCEEDED", "DDL"))
        self.assertClientError("EntityNotFoundException", self.glue.get_database, Name="dbt_sales")
        _, e = run("DROP DATABASE dbt_sales")
        self.assertEqual(e["Status"]["State"], "FAILED")
        self.assertIn("Database does not exist: dbt_sales", e["Status"]["StateChangeReason"])
        _, e = run("DROP DATABASE IF EXISTS dbt_sales")
        self.assertEqual(e["Status"]["State"], "SUCCEEDED")

    def test_06_a_query_fails_at_once_saying_how_to_get_the_engine(self):
        self.make_work_group("wg_query")
        ids = [self.athena.start_query_execution(
            QueryString="SELECT * FROM orders", WorkGroup="wg_query",
            QueryExecutionContext={"Catalog": "s3tablescatalog/athena-bucket", "Database": "sales"})["QueryExecutionId"]
            for _ in range(3)]
        e = self.wait_query(ids[0])
        self.assertEqual(e["Query"], "SELECT * FROM orders")
        self.assertEqual(e["WorkGroup"], "wg_query")
        self.assertEqual(e["QueryExecutionContext"], {"Catalog": "s3tablescatalog/athena-bucket", "Database": "sales"})
        self.assertEqual(e["ResultConfiguration"]["OutputLocation"], OUTPUT + ids[0] + ".csv")
        self.assertEqual(e["Status"]["State"], "FAILED")
        self.assertTrue(e["Status"]["StateChangeReason"].startswith(NO_ENGINE), e["Status"]["StateChangeReason"])
        self.assertIn("scripts/setup-deps --athena", e["Status"]["StateChangeReason"])
        self.assertEqual((e["Status"]["AthenaError"]["ErrorCategory"], e["Status"]["AthenaError"]["Retryable"]), (1, False))
        self.assertIn("SubmissionDateTime", e["Status"])
        err = self.assertClientError("InvalidRequestException", self.athena.get_query_results, QueryExecutionId=ids[0])
        self.assertEqual((err["Error"]["Message"], err.get("AthenaErrorCode")),
                         (FAILED_RESULTS, "INVALID_QUERY_EXECUTION_STATE"))
        self.assertIn("Timeline", self.athena.get_query_runtime_statistics(QueryExecutionId=ids[0])["QueryRuntimeStatistics"])
        self.athena.stop_query_execution(QueryExecutionId=ids[0])
        self.assertEqual(self.athena.get_query_execution(QueryExecutionId=ids[0])["QueryExecution"]["Status"]["State"],
                         "FAILED", "a finished query stays as it is")
        page = self.athena.list_query_executions(WorkGroup="wg_query", MaxResults=2)
        more = self.athena.list_query_executions(WorkGroup="wg_query", NextToken=page["NextToken"])
        self.assertEqual(page["QueryExecutionIds"] + more["QueryExecutionIds"], ids[::-1], "newest first, in pages")
        batch = self.athena.batch_get_query_execution(QueryExecutionIds=[ids[1], "00000000-0000-4000-8000-000000000000"])
        self.assertEqual([q["QueryExecutionId"] for q in batch["QueryExecutions"]], [ids[1]])
        self.assertEqual(len(batch["UnprocessedQueryExecutionIds"]), 1)
        self.assertClientError("InvalidRequestException", self.athena.get_query_execution,
                               QueryExecutionId="00000000-0000-4000-8000-000000000000")
        err = self.assertClientError("InvalidRequestException", self.athena.start_query_execution, QueryString="SELECT 1")
        self.assertTrue(err["Error"]["Message"].startswith("No output location provided."), "primary has no output")
        q = self.athena.start_query_execution(QueryString="SELECT 1",
                                              ResultConfiguration={"OutputLocation": "s3://mine/"})["QueryExecutionId"]
        got = self.athena.get_query_execution(QueryExecutionId=q)["QueryExecution"]
        self.assertEqual((got["WorkGroup"], got["ResultConfiguration"]["OutputLocation"]), ("primary", "s3://mine/%s.csv" % q))

    def test_07_the_aws_cli_runs_a_query_and_reads_why_it_failed(self):
        self.make_work_group("wg_cli")
        _, out, _ = self.aws("athena", "start-query-execution", "--query-string", "SELECT 1", "--work-group", "wg_cli")
        _, got, _ = self.aws("athena", "get-query-execution", "--query-execution-id", out["QueryExecutionId"])
        self.assertEqual(got["QueryExecution"]["Status"]["State"], "FAILED")
        rc, _, err = self.aws("athena", "get-query-results", "--query-execution-id", out["QueryExecutionId"],
                              expect_ok=False)
        self.assertNotEqual(rc, 0)
        self.assertIn("InvalidRequestException", err)
        self.assertIn(FAILED_RESULTS, err)

    def test_08_state_survives_a_restart(self):
        self.make_work_group("wg_keep")
        named = self.athena.create_named_query(Name="kept", Database="d", QueryString="SELECT 1",
                                               WorkGroup="wg_keep")["NamedQueryId"]
        self.athena.create_prepared_statement(StatementName="kept", WorkGroup="wg_keep", QueryStatement="SELECT 1")
        query = self.athena.start_query_execution(QueryString="SELECT ?, ?", WorkGroup="wg_keep",
                                                  ExecutionParameters=["1", "'a, b'"])["QueryExecutionId"]
        self.server.restart()
        self.assertEqual(self.athena.get_work_group(WorkGroup="wg_keep")["WorkGroup"]["Configuration"]
                         ["ResultConfiguration"]["OutputLocation"], OUTPUT)
        self.assertEqual(self.athena.get_named_query(NamedQueryId=named)["NamedQuery"]["Name"], "kept")
        self.assertEqual(self.athena.get_prepared_statement(StatementName="kept", WorkGroup="wg_keep")
                         ["PreparedStatement"]["QueryStatement"], "SELECT 1")
        self.assertEqual(self.athena.list_query_executions(WorkGroup="wg_keep")["QueryExecutionIds"], [query])
        execution = self.athena.get_query_execution(QueryExecutionId=query)["QueryExecution"]
        self.assertEqual(execution["Status"]["State"], "FAILED")
        self.assertEqual(execution["ExecutionParameters"], ["1", "'a, b'"])

    def test_09_the_newest_boto3_speaks_rest_json_and_gets_the_same_answers(self):
        if not os.path.exists(REST_PYTHON):
            self.skipTest("%s is missing: run scripts/setup-deps" % REST_PYTHON)
        proc = subprocess.run([REST_PYTHON, "-c", REST_SCRIPT, self.server.endpoint, "wg_rest"],
                              capture_output=True, text=True, timeout=120, env={"PATH": os.environ["PATH"]})
        self.assertEqual(proc.returncode, 0, proc.stderr)
        out = json.loads(proc.stdout)
        self.assertEqual(out["protocol"], "rest-json", "botocore %s speaks REST-JSON to Athena" % out["botocore"])
        self.assertEqual(out["get_work_group"]["WorkGroup"]["Description"], "rest")
        self.assertIn("wg_rest", [w["Name"] for w in out["list_work_groups"]["WorkGroups"]])
        self.assertEqual(out["get_named_query"]["NamedQuery"]["QueryString"], "SELECT 1")
        self.assertEqual(out["list_named_queries"]["NamedQueryIds"], [out["create_named_query"]["NamedQueryId"]])
        self.assertEqual(out["get_prepared_statement"]["PreparedStatement"]["QueryStatement"], "SELECT ?")
        execution = out["get_query_execution"]["QueryExecution"]
        self.assertEqual(execution["Status"]["State"], "FAILED")
        self.assertTrue(execution["Status"]["StateChangeReason"].startswith(NO_ENGINE))
        self.assertEqual(out["get_query_results"]["error"], {"Code": "InvalidRequestException", "Message": FAILED_RESULTS})
        self.assertEqual(out["list_query_executions"]["QueryExecutionIds"], [execution["QueryExecutionId"]])
        self.assertEqual(out["get_unknown_work_group"]["error"],
                         {"Code": "InvalidRequestException", "Message": "WorkGroup is not found."})
        self.assertEqual(out["delete_work_group"]["error"]["Code"], "InvalidRequestException")
        self.assertEqual(out["delete_work_group"]["status"], 400)
        pages = [w["Name"] for k in ("list_work_groups_page_1", "list_work_groups_page_2")
                 for w in out[k]["WorkGroups"]]
        self.assertEqual(len(set(pages)), 2, "a NextToken in the query string continues the listing")
        self.assertEqual(pages, sorted(pages), "where the first page stopped")
        self.assertEqual(out["get_query_results"]["code"], "INVALID_QUERY_EXECUTION_STATE")
        zero = out["list_work_groups_zero"]
        self.assertEqual((zero["error"]["Code"], zero["code"]), ("InvalidRequestException", "INVALID_INPUT"),
                         "MaxResults=0 in the query string breaks the model's range")
        self.assertEqual((out["list_engine_versions"]["error"]["Code"], out["list_engine_versions"]["status"]),
                         ("NotImplementedException", 501), "an operation without a handler is an honest 501")
        # the same state through the other binding
        self.assertEqual(self.athena.get_work_group(WorkGroup="wg_rest")["WorkGroup"]["Description"], "rest")
        self.assertEqual(self.athena.get_query_execution(QueryExecutionId=execution["QueryExecutionId"])
                         ["QueryExecution"]["Query"], "SELECT 1")
        # and the wire it used, as Floe logged it: routes, not X-Amz-Target
        log = self.log_lines()
        for route in (r"POST /workgroups Athena:CreateWorkGroup 200", r"GET /workgroups/wg_rest Athena:GetWorkGroup 200",
                      r"POST /query-executions Athena:StartQueryExecution 200",
                      r"GET /query-executions/%s/results\S* Athena:GetQueryResults 400" % execution["QueryExecutionId"],
                      r"POST /workgroups/wg_rest/prepared-statements Athena:CreatePreparedStatement 200",
                      r"GET /workgroups/nope Athena:GetWorkGroup 400",
                      r"DELETE /workgroups/primary Athena:DeleteWorkGroup 400"):
            self.assertTrue(any(re.search(" " + route + " ", line) for line in log), "the log shows " + route)


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""PyIceberg, unchanged, through Floe's Iceberg REST endpoint configured as AWS's S3 Tables guide
shows (the `pyiceberg-rest` block of docs/engines.md, run as written there): namespaces; a table
with a schema, identity/day/bucket partitions and a sort order; appends of 12,000 rows in many
files; overwrite, delete and upsert with filters; schema and partition evolution; time travel by
snapshot id and by timestamp; branches, tags and properties; filtered, projected scans pruned by
file statistics; the inspect tables; rename and drop with purge. After every write the table reads
back exactly the rows the test expects. The same block against --strict-signatures: PyIceberg's
and PyArrow's SigV4 signatures verify. With --iceberg-stage-create, of two create_table_transaction
of one table the second commit fails with CommitFailedException.

Runs under the engines' virtual environment (tests/engines/requirements.txt): started with
/usr/bin/python3 like every e2e test, it re-executes itself there."""

import contextlib
import datetime
import io
import os
import sys
import time
import unittest

E2E_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(E2E_DIR, "..", "engines"))
sys.path.insert(0, E2E_DIR)
import snippets  # noqa: E402

snippets.reexec_in_venv()

from floe_server import FloeServer, engine_env, strict_engine_server  # noqa: E402

import pyarrow as pa  # noqa: E402
import pyarrow.compute as pc  # noqa: E402
from pyiceberg.exceptions import NamespaceAlreadyExistsError, NoSuchTableError  # noqa: E402
from pyiceberg.expressions import And, EqualTo, GreaterThanOrEqual, LessThan  # noqa: E402
from pyiceberg.partitioning import PartitionField, PartitionSpec  # noqa: E402
from pyiceberg.schema import Schema  # noqa: E402
from pyiceberg.table.sorting import SortField, SortOrder  # noqa: E402
from pyiceberg.transforms import BucketTransform, DayTransform, IdentityTransform  # noqa: E402
from pyiceberg.types import (DoubleType, FloatType, IntegerType, LongType, NestedField,  # noqa: E402
                             StringType, TimestampType)

CATEGORIES = ["books", "games", "music"]
DAY0 = datetime.datetime(2026, 3, 1)
ROWS_PER_APPEND = 4000
APPENDS = 3

SCHEMA = Schema(
    NestedField(1, "id", LongType(), required=True),
    NestedField(2, "ts", TimestampType(), required=True),
    NestedField(3, "category", StringType(), required=True),
    NestedField(4, "qty", IntegerType(), required=True),
    NestedField(5, "price", FloatType(), required=False),
    NestedField(6, "note", StringType(), required=True),
    identifier_field_ids=[1],
)
SPEC = PartitionSpec(
    PartitionField(source_id=3, field_id=1000, transform=IdentityTransform(), name="category"),
    PartitionField(source_id=2, field_id=1001, transform=DayTransform(), name="ts_day"),
    PartitionField(source_id=1, field_id=1002, transform=BucketTransform(4), name="id_bucket"),
)
SORT = SortOrder(SortField(source_id=1, transform=IdentityTransform()))


def arrow_schema():
    return pa.schema([
        pa.field("id", pa.int64(), nullable=False), pa.field("ts", pa.timestamp("us"), nullable=False),
        pa.field("category", pa.string(), nullable=False), pa.field("qty", pa.int32(), nullable=False),
        pa.field("price", pa.float32()), pa.field("note", pa.string(), nullable=False)])


def rows(start, n, note="v1"):
    ids = list(range(start, start + n))
    return pa.table({
        "id": ids,
        "ts": [DAY0 + datetime.timedelta(hours=(i * 7) % (24 * 5)) for i in ids],
        "category": [CATEGORIES[i % 3] for i in ids],
        "qty": [i % 50 for i in ids],
        "price": [float(i % 100) / 4 for i in ids],
        "note": [note] * n,
    }, schema=arrow_schema())


def by_id(table, columns=("id", "category", "qty", "note")):
    """{id: (columns...)}: what a reader sees, independent of file and row order."""
    t = table.select(list(columns)).to_pylist()
    return {r["id"]: tuple(r[c] for c in columns) for r in t}


class PyIcebergThroughRest(unittest.TestCase):
    """One table's life through PyIceberg's REST catalog; the steps run in order."""

    @classmethod
    def setUpClass(cls):
        engine_env()
        cls.server = FloeServer("--quiet").start()
        import boto3
        s3tables = boto3.client("s3tables", endpoint_url=cls.server.endpoint, region_name="us-east-1")
        cls.arn = s3tables.create_table_bucket(name="engines-pyiceberg")["arn"]
        cls.catalog = snippets.run_python("pyiceberg-rest", cls.server.endpoint, cls.arn)["catalog"]
        cls.expected = {}
        cls.snapshots = {}

    @classmethod
    def tearDownClass(cls):
        cls.server.cleanup()

    def load(self):
        return self.catalog.load_table("sales.orders")

    def assertRows(self, table, expected, message):
        got = by_id(table.scan().to_arrow())
        self.assertEqual(len(got), len(expected), message + ": row count")
        self.assertEqual(got, expected, message)

    def test_01_namespaces(self):
        self.catalog.create_namespace("sales", {"owner": "analytics"})
        self.catalog.create_namespace("scratch")
        self.assertIn(("sales",), self.catalog.list_namespaces(), "lists a namespace it created")
        self.assertEqual(self.catalog.load_namespace_properties("sales").get("owner"), "analytics",
                         "keeps a namespace's properties")
        summary = self.catalog.update_namespace_properties("sales", updates={"team": "bi"})
        self.assertEqual(summary.updated, ["team"], "reports an updated namespace property")
        with self.assertRaises(NamespaceAlreadyExistsError, msg="refuses a namespace that exists"):
            self.catalog.create_namespace("sales")
        # S3 Tables has no views: the catalog does not advertise them and refuses them (501).
        self.assertEqual(self.catalog.list_views("sales"), [], "lists no views")
        with self.assertRaises(NotImplementedError, msg="refuses a view lookup as AWS's endpoint does"):
            self.catalog.view_exists("sales.recent")
        self.catalog.drop_namespace("scratch")
        self.assertNotIn(("scratch",), self.catalog.list_namespaces(), "drops an empty namespace")

    def test_02_create_with_partitions_and_sort_order(self):
        t = self.catalog.create_table("sales.orders", schema=SCHEMA, partition_spec=SPEC, sort_order=SORT,
                                      properties={"write.target-file-size-bytes": "1048576"})
        t = self.load()
        self.assertEqual([f.name for f in t.spec().fields], ["category", "ts_day", "id_bucket"],
                         "keeps the identity, day and bucket partition fields")
        self.assertEqual(str(t.spec().fields[2].transform), "bucket[4]", "keeps the bucket width")
        self.assertEqual(t.sort_order().fields[0].source_id, 1, "keeps the sort order")
        self.assertEqual(t.schema().identifier_field_ids, [1], "keeps the identifier field")
        self.assertIn(("sales", "orders"), self.catalog.list_tables("sales"), "lists the new table")

    def test_02b_staged_create_is_refused_as_aws_refuses_it(self):
        from pyiceberg.exceptions import BadRequestError
        with self.assertRaisesRegex(BadRequestError, "Stage-create is currently not supported",
                                    msg="create_table_transaction stages the table, which AWS's endpoint refuses"):
            self.catalog.create_table_transaction("sales.staged", schema=SCHEMA)
        self.assertFalse(self.catalog.table_exists("sales.staged"), "the refusal creates nothing")

    def test_03_append_in_several_files(self):
        t = self.load()
        for n in range(APPENDS):
            t.append(rows(n * ROWS_PER_APPEND, ROWS_PER_APPEND))
            self.snapshots["append%d" % n] = (t.current_snapshot().snapshot_id, time.time())
            time.sleep(0.01)  # distinct commit timestamps for time travel by timestamp
        type(self).expected = by_id(pa.concat_tables([rows(n * ROWS_PER_APPEND, ROWS_PER_APPEND)
                                                      for n in range(APPENDS)]))
        t = self.load()
        self.assertRows(t, self.expected, "reads back every appended row")
        shown = io.StringIO()
        with contextlib.redirect_stdout(shown):
            snippets.run_python("pyiceberg-read", self.server.endpoint, self.arn, scope={"catalog": self.catalog},
                                namespace="sales", table="orders")
        self.assertIn("id: int64 not null", shown.getvalue(), "the page's read block prints the table")
        files = t.inspect.files()
        self.assertGreater(files.num_rows, 30, "wrote one file per partition")
        self.assertEqual(sum(files["record_count"].to_pylist()), APPENDS * ROWS_PER_APPEND,
                         "the files count every row")

    def test_04_overwrite_delete_upsert(self):
        t = self.load()
        # Overwrite one partition's rows with new ones.
        replacement = rows(0, 3000, note="overwritten").filter(pc.equal(rows(0, 3000)["category"], "music"))
        t.overwrite(replacement, overwrite_filter=EqualTo("category", "music"))
        for k in [k for k, v in self.expected.items() if v[1] == "music"]:
            del self.expected[k]
        self.expected.update(by_id(replacement))
        self.assertRows(self.load(), self.expected, "an overwrite with a filter replaces exactly those rows")

        # Delete a range that cuts across files (rewritten without the rows).
        t = self.load()
        t.delete(delete_filter=And(GreaterThanOrEqual("id", 100), LessThan("id", 350)))
        for k in range(100, 350):
            self.expected.pop(k, None)
        self.assertRows(self.load(), self.expected, "a delete with a filter removes exactly those rows")

        # Upsert: update existing ids, insert new ones.
        t = self.load()
        changes = pa.concat_tables([rows(500, 20, note="upserted"), rows(20000, 30, note="inserted")])
        result = t.upsert(changes, join_cols=["id"])
        self.assertEqual((result.rows_updated, result.rows_inserted), (20, 30), "upsert updates and inserts")
        self.expected.update(by_id(changes))
        self.assertRows(self.load(), self.expected, "upsert leaves the merged rows")

    def test_05_schema_and_partition_evolution(self):
        t = self.load()
        with t.update_schema() as update:
            update.add_column("channel", StringType(), doc="where the order came from")
            update.rename_column("note", "comment")
            update.update_column("qty", field_type=LongType())
            update.update_column("price", field_type=DoubleType())
            update.make_column_optional("note")  # by its name before this update
        t = self.load()
        fields = {f.name: f for f in t.schema().fields}
        self.assertIn("channel", fields, "adds a column")
        self.assertNotIn("note", fields, "renames a column")
        self.assertIsInstance(fields["qty"].field_type, LongType, "widens int to long")
        self.assertIsInstance(fields["price"].field_type, DoubleType, "widens float to double")
        self.assertFalse(fields["comment"].required, "makes a column optional")
        old = by_id(t.scan().to_arrow(), ("id", "category", "qty", "comment"))
        self.assertEqual(old, self.expected, "old files read through the evolved schema")

        with t.update_spec() as spec:
            spec.remove_field("id_bucket")
            spec.add_field("id", BucketTransform(8), "id_bucket8")
        t = self.load()
        self.assertEqual([f.name for f in t.spec().fields if str(f.transform) != "void"],
                         ["category", "ts_day", "id_bucket8"], "evolves the partition spec")
        new = rows(30000, 500, note="evolved").rename_columns(
            ["id", "ts", "category", "qty", "price", "comment"])
        new = new.cast(pa.schema([pa.field("id", pa.int64(), False), pa.field("ts", pa.timestamp("us"), False),
                                  pa.field("category", pa.string(), False), pa.field("qty", pa.int64(), False),
                                  pa.field("price", pa.float64()), pa.field("comment", pa.string())]))
        new = new.append_column("channel", pa.array(["web"] * new.num_rows, pa.string()))
        t.append(new)
        self.expected.update({k: v for k, v in by_id(new, ("id", "category", "qty", "comment")).items()})
        got = by_id(self.load().scan().to_arrow(), ("id", "category", "qty", "comment"))
        self.assertEqual(got, self.expected, "appends under the new spec and schema")
        specs = self.load().specs()
        self.assertEqual(len(specs), 2, "keeps both partition specs")

    def test_06_time_travel(self):
        t = self.load()
        first_id, first_time = self.snapshots["append0"]
        at_first = t.scan(snapshot_id=first_id).to_arrow()
        self.assertEqual(at_first.num_rows, ROWS_PER_APPEND, "time travel by snapshot id")
        snap = t.snapshot_as_of_timestamp(int(first_time * 1000))
        self.assertEqual(snap.snapshot_id, first_id, "time travel by timestamp finds that snapshot")
        second_id, _ = self.snapshots["append1"]
        self.assertEqual(t.scan(snapshot_id=second_id).to_arrow().num_rows, 2 * ROWS_PER_APPEND,
                         "a later snapshot reads its own rows")

    def test_07_branches_tags_properties(self):
        t = self.load()
        first_id, _ = self.snapshots["append0"]
        main_id = t.current_snapshot().snapshot_id
        t.manage_snapshots().create_tag(first_id, "first-load").create_branch(main_id, "audit").commit()
        t = self.load()
        self.assertEqual(t.refs()["first-load"].snapshot_id, first_id, "creates a tag")
        self.assertEqual(t.refs()["audit"].snapshot_ref_type.value, "branch", "creates a branch")

        extra = self.load().scan().to_arrow().slice(0, 0)  # the evolved schema, empty
        branch_rows = pa.Table.from_pylist([{
            "id": 90000, "ts": DAY0, "category": "books", "qty": 1, "price": 1.0, "comment": "branch",
            "channel": "web"}], schema=extra.schema)
        t.append(branch_rows, branch="audit")
        t = self.load()
        self.assertEqual(t.current_snapshot().snapshot_id, main_id, "a branch write leaves main alone")
        on_branch = t.scan(snapshot_id=t.refs()["audit"].snapshot_id).to_arrow()
        self.assertEqual(on_branch.num_rows, len(self.expected) + 1, "the branch has its own row")
        self.assertEqual(t.scan(snapshot_id=t.refs()["first-load"].snapshot_id).to_arrow().num_rows,
                         ROWS_PER_APPEND, "the tag reads its snapshot")

        with t.transaction() as tx:
            tx.set_properties({"comment": "orders", "write.metadata.previous-versions-max": "50"})
        with self.load().transaction() as tx:
            tx.remove_properties("comment")
        props = self.load().properties
        self.assertEqual(props.get("write.metadata.previous-versions-max"), "50", "sets a property")
        self.assertNotIn("comment", props, "removes a property")

    def test_08_filtered_projected_scans_prune_files(self):
        t = self.load()
        all_files = len(list(t.scan().plan_files()))
        scan = t.scan(row_filter="category == 'books' and id < 1000", selected_fields=("id", "category"))
        planned = list(scan.plan_files())
        self.assertLess(len(planned), all_files / 2, "partition values and column statistics prune files")
        got = scan.to_arrow()
        self.assertEqual(got.column_names, ["id", "category"], "projects the selected columns")
        want = sorted(k for k, v in self.expected.items() if v[1] == "books" and k < 1000)
        self.assertEqual(sorted(got["id"].to_pylist()), want, "the filter keeps exactly the matching rows")
        by_stats = t.scan(row_filter=GreaterThanOrEqual("id", 30000))
        self.assertLess(len(list(by_stats.plan_files())), all_files / 2,
                        "column bounds alone prune files (no partition on the range)")

    def test_09_inspect_tables(self):
        t = self.load()
        snapshots = t.inspect.snapshots()
        self.assertEqual(snapshots.num_rows, len(t.metadata.snapshots), "inspect.snapshots lists every snapshot")
        history = t.inspect.history()
        self.assertEqual(history["snapshot_id"].to_pylist()[-1], t.current_snapshot().snapshot_id,
                         "inspect.history ends at the current snapshot")
        files = t.inspect.files()
        self.assertEqual(sum(files["record_count"].to_pylist()), len(self.expected),
                         "inspect.files counts the live rows")
        manifests = t.inspect.manifests()
        self.assertGreater(manifests.num_rows, 0, "inspect.manifests lists manifests")
        partitions = t.inspect.partitions()
        self.assertEqual(sum(partitions["record_count"].to_pylist()), len(self.expected),
                         "inspect.partitions counts the live rows")

    def test_10_rename_then_drop_with_purge(self):
        self.catalog.rename_table("sales.orders", "sales.orders_archive")
        with self.assertRaises(NoSuchTableError, msg="the old name is gone after a rename"):
            self.catalog.load_table("sales.orders")
        t = self.catalog.load_table("sales.orders_archive")
        self.assertEqual(by_id(t.scan().to_arrow(), ("id", "category", "qty", "comment")), self.expected,
                         "the renamed table keeps its rows")
        self.catalog.purge_table("sales.orders_archive")
        with self.assertRaises(NoSuchTableError, msg="a purged table is gone"):
            self.catalog.load_table("sales.orders_archive")
        self.assertEqual(self.catalog.list_tables("sales"), [], "the namespace is empty")
        self.catalog.drop_namespace("sales")



class PyIcebergStagedCreates(unittest.TestCase):
    """`floe serve --iceberg-stage-create`: PyIceberg's create_table_transaction stages the table;
    of two transactions creating one table, the one that commits second has lost, a 409."""

    @classmethod
    def setUpClass(cls):
        engine_env()
        cls.server = FloeServer("--quiet", "--iceberg-stage-create").start()
        import boto3
        s3tables = boto3.client("s3tables", endpoint_url=cls.server.endpoint, region_name="us-east-1")
        cls.arn = s3tables.create_table_bucket(name="engines-staged")["arn"]
        cls.catalog = snippets.run_python("pyiceberg-rest", cls.server.endpoint, cls.arn)["catalog"]
        cls.catalog.create_namespace("staged")

    @classmethod
    def tearDownClass(cls):
        cls.server.cleanup()

    def test_the_second_of_two_create_transactions_fails_to_commit(self):
        from pyiceberg.exceptions import CommitFailedException
        first = self.catalog.create_table_transaction("staged.t", schema=SCHEMA)
        second = self.catalog.create_table_transaction("staged.t", schema=SCHEMA)
        first.commit_transaction()
        with self.assertRaises(CommitFailedException, msg="the table exists: a lost commit, not a bad request"):
            second.commit_transaction()
        self.assertEqual(self.catalog.load_table("staged.t").location(), first.table_metadata.location,
                         "the table is the first transaction's")


class PyIcebergSignedStrictly(unittest.TestCase):
    """The same block against `floe serve --strict-signatures`: PyIceberg's SigV4 (botocore) on
    every catalog call and PyArrow's on every data file verify, and a wrong secret is refused."""

    @classmethod
    def setUpClass(cls):
        cls.server, cls.arn = strict_engine_server("AKIDENGINES", "engines-secret", "engines-strict")

    @classmethod
    def tearDownClass(cls):
        engine_env()
        cls.server.cleanup()

    def test_signed_catalog_and_data_requests_verify(self):
        catalog = snippets.run_python("pyiceberg-rest", self.server.endpoint, self.arn)["catalog"]
        catalog.create_namespace("signed")
        t = catalog.create_table("signed.t", schema=SCHEMA)
        t.append(rows(0, 100))
        self.assertEqual(catalog.load_table("signed.t").scan().to_arrow().num_rows, 100,
                         "a signed create, append and scan all verify")
        os.environ["AWS_SECRET_ACCESS_KEY"] = "not-the-secret"
        try:
            from pyiceberg.exceptions import ForbiddenError
            with self.assertRaises(ForbiddenError, msg="a wrong secret is refused with 403"):
                snippets.run_python("pyiceberg-rest", self.server.endpoint, self.arn)["catalog"].list_namespaces()
        finally:
            os.environ["AWS_SECRET_ACCESS_KEY"] = "engines-secret"


if __name__ == "__main__":
    unittest.main(verbosity=2)

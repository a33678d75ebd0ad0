#!/usr/bin/python3
"""Concurrent writers through PyIceberg's REST catalog (docs/engines.md's `pyiceberg-rest` block):
four processes append twenty times each to one table. A writer that loses a race gets a 409
CommitFailedException in the Iceberg error shape, PyIceberg refreshes and retries it, and every
one of the 80 appends lands: no row is lost or doubled.

Runs under the engines' virtual environment (tests/engines/requirements.txt)."""

import multiprocessing
import os
import re
import sys
import unittest

E2E_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(E2E_DIR, "..", "engines"))
sys.path.insert(0, E2E_DIR)
import snippets  # noqa: E402

snippets.reexec_in_venv()

from floe_server import FloeServer, engine_env  # noqa: E402

import pyarrow as pa  # noqa: E402

WRITERS = 4
APPENDS = 20
ROWS = 25
# Iceberg's own retry settings (table properties every Iceberg client reads): enough attempts for
# four writers in a tight loop, with short waits so the test stays quick.
RETRY_PROPERTIES = {"commit.retry.num-retries": "40", "commit.retry.min-wait-ms": "10",
                    "commit.retry.max-wait-ms": "400"}


def batch(writer, n):
    start = (writer * APPENDS + n) * ROWS
    return pa.table({"id": pa.array(range(start, start + ROWS), pa.int64()),
                     "writer": pa.array([writer] * ROWS, pa.int32())})


def writer(endpoint, arn, number, barrier):
    """One process: its own catalog, twenty appends as fast as it can."""
    engine_env()
    catalog = snippets.run_python("pyiceberg-rest", endpoint, arn)["catalog"]
    table = catalog.load_table("load.events")
    barrier.wait()
    for n in range(APPENDS):
        table.append(batch(number, n))


class ConcurrentAppends(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        engine_env()
        cls.server = FloeServer().start()  # with its request log: the test counts the 409s
        import boto3
        s3tables = boto3.client("s3tables", endpoint_url=cls.server.endpoint, region_name="us-east-1")
        cls.arn = s3tables.create_table_bucket(name="engines-concurrency")["arn"]
        cls.catalog = snippets.run_python("pyiceberg-rest", cls.server.endpoint, cls.arn)["catalog"]
        cls.catalog.create_namespace("load")
        cls.catalog.create_table("load.events", schema=batch(0, 0).schema, properties=RETRY_PROPERTIES)

    @classmethod
    def tearDownClass(cls):
        cls.server.cleanup()

    def test_a_stale_commit_is_a_409_commit_failed_exception(self):
        from pyiceberg.exceptions import CommitFailedException
        self.catalog.create_table("load.stale", schema=batch(0, 0).schema,
                                  properties={"commit.retry.num-retries": "0"})
        first = self.catalog.load_table("load.stale")
        second = self.catalog.load_table("load.stale")
        first.append(batch(0, 0))
        with self.assertRaises(CommitFailedException, msg="a commit from a stale version is refused") as caught:
            second.append(batch(0, 1))
        # PyIceberg prints the error body's type and message: Iceberg's {"error": {...}} shape parsed.
        self.assertRegex(str(caught.exception), r"^CommitFailedException: Requirement failed",
                         "the 409 carries Iceberg's error type and message")
        self.assertEqual(self.catalog.load_table("load.stale").scan().to_arrow().num_rows, ROWS,
                         "the refused commit left nothing behind")

    def test_four_writers_lose_no_row(self):
        ctx = multiprocessing.get_context("spawn")
        barrier = ctx.Barrier(WRITERS)
        procs = [ctx.Process(target=writer, args=(self.server.endpoint, self.arn, i, barrier)) for i in range(WRITERS)]
        for p in procs:
            p.start()
        for p in procs:
            p.join(300)
        self.assertEqual([p.exitcode for p in procs], [0] * WRITERS, "every writer finished all its appends")

        table = self.catalog.load_table("load.events")
        ids = table.scan().to_arrow()["id"].to_pylist()
        self.assertEqual(len(ids), WRITERS * APPENDS * ROWS, "every appended row is there once")
        self.assertEqual(sorted(ids), list(range(WRITERS * APPENDS * ROWS)), "no row lost, none doubled")
        appends = [s for s in table.metadata.snapshots if s.summary.operation.value == "append"]
        self.assertEqual(len(appends), WRITERS * APPENDS, "each append is one snapshot")

        with open(self.server.log_path, encoding="utf-8", errors="replace") as f:
            log = f.read()
        conflicts = len(re.findall(r"^\S+ POST /iceberg/v1/\S+/namespaces/load/tables/events Iceberg:updateTable 409 ",
                                   log, re.M))
        self.assertGreater(conflicts, 0, "writers raced: some commits were refused with 409 and retried")


if __name__ == "__main__":
    unittest.main(verbosity=2)

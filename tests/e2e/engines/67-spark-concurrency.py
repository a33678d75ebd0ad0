"""Four Spark MERGE jobs at once on one Floe table, through each catalog: none is lost.

Each job merges into its own partition (ON names it, so Iceberg's conflict checks see no
overlap): it updates the partition's existing rows and inserts new ones. The jobs run
concurrently, each in its own session of one Spark application; when two commit against the same metadata, Floe answers the
loser 409 (REST commit) or ConflictException (UpdateTableMetadataLocation), Iceberg refreshes and
retries (AWS's catalog often sees the race itself first and retries before asking Floe), and the
final table holds every job's rows exactly once.
"""

import os
import re
import sys
import threading
import warnings

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # tests/e2e: the shared helpers
from floe_server import FloeTestCase, main  # noqa: E402
from spark_engine import CATALOGS, require_spark, rows, scalar, spark_session  # noqa: E402

N_JOBS = 4
N_EXISTING = 50   # rows per partition before the jobs
N_NEW = 50        # rows each job inserts


class SparkConcurrentMergeTest(FloeTestCase):
    server_args = ("--maintenance-interval", "0")

    @classmethod
    def setUpClass(cls):
        require_spark(cls)
        warnings.simplefilter("ignore", ResourceWarning)  # py4j's sockets
        super().setUpClass()
        cls.arn = cls.s3tables.create_table_bucket(name="spark-merge")["arn"]
        cls.spark = spark_session(cls.server, cls.arn, "floe-spark-concurrency")

    @classmethod
    def tearDownClass(cls):
        if getattr(cls, "spark", None) is not None:
            cls.spark.stop()
        super().tearDownClass()

    def merge_job(self, session, table, part, errors):
        lo = part * 1000
        try:
            session.sql(
                "MERGE INTO %s t USING (SELECT id, %d AS part, 'merged' AS v FROM range(%d, %d)) s "
                "ON t.part = %d AND t.id = s.id "
                "WHEN MATCHED THEN UPDATE SET t.v = s.v WHEN NOT MATCHED THEN INSERT *"
                % (table, part, lo, lo + N_EXISTING + N_NEW, part))
        except Exception as e:  # noqa: BLE001 - reported by the test thread
            errors.append("job %d: %s" % (part, str(e)[:2000]))

    def test_four_concurrent_merges_all_land(self):
        for cat in CATALOGS:
            with self.subTest(catalog=cat):
                self.run_merges(cat)

    def run_merges(self, cat):
        table = "%s.merge_%s.t" % (cat, cat)
        self.spark.sql("CREATE NAMESPACE %s.merge_%s" % (cat, cat))
        self.spark.sql("CREATE TABLE %s (id BIGINT, part INT, v STRING) USING iceberg PARTITIONED BY (part)" % table)
        self.spark.sql("INSERT INTO %s SELECT id, CAST(floor(id / 1000) AS INT), 'old' FROM (%s)" % (
            table, " UNION ALL ".join("SELECT id FROM range(%d, %d)" % (p * 1000, p * 1000 + N_EXISTING)
                                      for p in range(N_JOBS))))
        before = self.commit_answers()
        errors = []
        # One session per job: each has its own catalog instance and table cache, as separate
        # jobs do, so each commit goes to Floe against the metadata its job read.
        threads = [threading.Thread(target=self.merge_job, args=(self.spark.newSession(), table, p, errors))
                   for p in range(N_JOBS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(errors, [], "every MERGE job succeeds (Iceberg retries the commits that lost)")
        self.spark.sql("REFRESH TABLE %s" % table)  # this session's catalog cached the table before the jobs
        expected = sorted((p * 1000 + i, p, "merged") for p in range(N_JOBS) for i in range(N_EXISTING + N_NEW))
        self.assertEqual(rows(self.spark, "SELECT id, part, v FROM %s" % table), expected,
                         "the table holds every job's updates and inserts exactly once")
        self.assertEqual(scalar(self.spark, "SELECT count(*) FROM %s.snapshots" % table), 1 + N_JOBS,
                         "each job committed exactly one snapshot")
        after = self.commit_answers()
        won = after[0] - before[0]
        refused = after[1] - before[1]
        # AWS's catalog checks the current location itself before UpdateTableMetadataLocation and
        # retries without asking Floe when it already sees it lost; each try writes a metadata file.
        retried_early = (after[2] - before[2]) - won if cat == "s3t" else 0
        self.assertEqual(won, N_JOBS, "Floe accepted one commit per job")
        self.assertGreater(refused + retried_early, 0, "some commits raced and lost (else this test proves nothing)")
        print("%s: %d commits accepted, %d refused by Floe as conflicts, %d retried before reaching Floe"
              % (cat, won, refused, retried_early))

    def commit_answers(self):
        """(accepted, conflicting) metadata commits and metadata files written by clients, from Floe's request log."""
        with open(self.server.log_path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        ok = len(re.findall(r"(Iceberg:updateTable|UpdateTableMetadataLocation) 200 ", text))
        conflict = len(re.findall(r"(Iceberg:updateTable|UpdateTableMetadataLocation) 409 ", text))
        written = len(re.findall(r"\.metadata\.json PutObject 200 ", text))
        return ok, conflict, written

if __name__ == "__main__":
    main()

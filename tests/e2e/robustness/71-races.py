#!/usr/bin/python3
"""Commit races: K clients (K >= 16) released together by a barrier fire the same write at one
table, round after round, against a default server and against `--threads 2` (two event loops,
two SQLite connections, so requests really overlap).

- UpdateTableMetadataLocation on one version token: exactly one wins, the other K-1 get
  ConflictException, and the table then points at the winner's location with the winner's token.
- DeleteTable with one version token: exactly one wins and the table is gone.
- RenameTable with one version token, each racer to its own new name: exactly one wins, the
  table is under the winner's name only, with its ARN and token unchanged.
- CreateTable of one name: exactly one wins and every other racer gets ConflictException (two
  racers with Iceberg metadata, and K without).

For DeleteTable and RenameTable a loser gets ConflictException when its request was already past
the look-up when the winner committed, and NotFoundException when it looked the table up
afterwards: the name it gave no longer names a table, which is what AWS answers for a table that
does not exist. Either is a refusal; what may never happen is a second success or any other
answer. The split is printed with the figures.

FLOE_RACE_ROUNDS sets the rounds per race (default 20); FLOE_RACE_K the racers (default 16). The
rename race runs ten times as many rounds on the two-thread server: the window it guards (between
a racer's look-up and its guarded UPDATE) is microseconds wide, and before the fix two winners
showed up about once in a hundred rounds there.
"""

import concurrent.futures
import os
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from floe_server import FloeTestCase, main  # noqa: E402

ROUNDS = int(os.environ.get("FLOE_RACE_ROUNDS", "20"))
K = max(16, int(os.environ.get("FLOE_RACE_K", "16")))
SCHEMA = {"fields": [{"name": "id", "type": "long", "required": True}]}
WON = "won"


class RaceMixin:
    """The races; each subclass runs them against its own server."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.arn = cls.s3tables.create_table_bucket(name="races")["arn"]
        cls.s3tables.create_namespace(tableBucketARN=cls.arn, namespace=["ns"])
        cls.clients = [cls.make_client("s3tables") for _ in range(K)]
        cls.pool = concurrent.futures.ThreadPoolExecutor(K)
        cls.figures = {}

    @classmethod
    def tearDownClass(cls):
        cls.pool.shutdown()
        for client in cls.clients:
            client.close()
        for race, counts in sorted(cls.figures.items()):
            print("figures: %s %s: %s" % (cls.label, race, ", ".join("%s=%d" % kv for kv in sorted(counts.items()))),
                  file=sys.stderr)
        super().tearDownClass()

    def race(self, n, attempt):
        """Runs attempt(client, i) for i in 0..n-1, all released at once; returns each result: WON,
        or the error code of the refusal."""
        barrier = threading.Barrier(n)

        def run(i):
            barrier.wait()
            try:
                attempt(self.clients[i], i)
                return WON
            except Exception as exc:  # noqa: BLE001 - the error code is the result
                response = getattr(exc, "response", None)
                if response is None:
                    raise
                return response["Error"]["Code"]

        return list(self.pool.map(run, range(n)))

    def count(self, race, results):
        counts = self.figures.setdefault(race, {"rounds": 0})
        counts["rounds"] += 1
        for r in results:
            counts[r] = counts.get(r, 0) + 1

    def create(self, name, **extra):
        return self.s3tables.create_table(tableBucketARN=self.arn, namespace="ns", name=name, format="ICEBERG", **extra)

    def get(self, name):
        return self.s3tables.get_table(tableBucketARN=self.arn, namespace="ns", name=name)

    def assertOneWinner(self, results, allowed_losses, what):
        self.assertEqual(results.count(WON), 1, "exactly one of %d racers wins %s: %s" % (len(results), what, results))
        for r in results:
            if r != WON:
                self.assertIn(r, allowed_losses, "a racer that loses %s is refused with %s" % (what, allowed_losses))

    # -- the races ------------------------------------------------------------------------------

    def test_update_metadata_location_on_one_token(self):
        self.create("cas", metadata={"iceberg": {"schema": SCHEMA}})
        for rnd in range(ROUNDS):
            table = self.get("cas")
            won = {}

            def attempt(client, i):
                resp = client.update_table_metadata_location(
                    tableBucketARN=self.arn, namespace="ns", name="cas", versionToken=table["versionToken"],
                    metadataLocation="%s/metadata/%05d-%02d.metadata.json" % (table["warehouseLocation"], rnd + 1, i))
                won[i] = resp

            results = self.race(K, attempt)
            self.count("UpdateTableMetadataLocation", results)
            self.assertOneWinner(results, ("ConflictException",), "a swap of one version token")
            self.assertEqual(results.count("ConflictException"), K - 1, "every other racer gets ConflictException")
            (i, resp), = won.items()
            after = self.get("cas")
            self.assertEqual(after["metadataLocation"], resp["metadataLocation"], "the table points where the winner said")
            self.assertEqual(after["versionToken"], resp["versionToken"], "and carries the token the winner was given")

    def test_delete_table_with_one_token(self):
        for rnd in range(ROUNDS):
            name = "doomed_%d" % rnd
            token = self.create(name)["versionToken"]
            results = self.race(K, lambda client, i: client.delete_table(
                tableBucketARN=self.arn, namespace="ns", name=name, versionToken=token))
            self.count("DeleteTable", results)
            self.assertOneWinner(results, ("ConflictException", "NotFoundException"), "a delete with one version token")
            self.assertClientError("NotFoundException", self.get, name)

    def test_rename_table_with_one_token(self):
        for rnd in range(ROUNDS * self.rename_round_factor):
            name = "moving_%d" % rnd
            created = self.create(name)
            winners = []

            def attempt(client, i):
                client.rename_table(tableBucketARN=self.arn, namespace="ns", name=name,
                                    newName="%s_to_%d" % (name, i), versionToken=created["versionToken"])
                winners.append(i)

            results = self.race(K, attempt)
            self.count("RenameTable", results)
            self.assertOneWinner(results, ("ConflictException", "NotFoundException"), "a rename with one version token")
            listed = sorted(t["name"] for t in self.s3tables.list_tables(tableBucketARN=self.arn, namespace="ns",
                                                                          prefix=name)["tables"])
            self.assertEqual(listed, ["%s_to_%d" % (name, winners[0])], "the table is under the winner's name only")
            moved = self.get("%s_to_%d" % (name, winners[0]))
            self.assertEqual((moved["tableARN"], moved["versionToken"]), (created["tableARN"], created["versionToken"]),
                             "a rename keeps the table's ARN and version token")

    def test_two_create_table_of_one_name(self):
        for rnd in range(ROUNDS):
            name = "twin_%d" % rnd
            results = self.race(2, lambda client, i: self.create_with(client, name, {"iceberg": {"schema": SCHEMA}}))
            self.count("CreateTable x2", results)
            self.assertOneWinner(results, ("ConflictException",), "two creates of one name")
            self.assertEqual(self.get(name)["name"], name, "the winner's table exists")

    def test_many_create_table_of_one_name(self):
        for rnd in range(ROUNDS):
            name = "crowd_%d" % rnd
            results = self.race(K, lambda client, i: self.create_with(client, name, None))
            self.count("CreateTable xK", results)
            self.assertOneWinner(results, ("ConflictException",), "%d creates of one name" % K)
            self.assertEqual(results.count("ConflictException"), K - 1, "every other racer gets ConflictException")

    def create_with(self, client, name, metadata):
        kwargs = {"tableBucketARN": self.arn, "namespace": "ns", "name": name, "format": "ICEBERG"}
        if metadata is not None:
            kwargs["metadata"] = metadata
        return client.create_table(**kwargs)


class RacesOneThread(RaceMixin, FloeTestCase):
    label = "default server"
    rename_round_factor = 1


class RacesTwoThreads(RaceMixin, FloeTestCase):
    label = "--threads 2"
    server_args = ("--threads", "2")
    rename_round_factor = 10


if __name__ == "__main__":
    main()

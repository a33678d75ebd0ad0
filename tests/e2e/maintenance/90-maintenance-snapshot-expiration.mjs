// Table maintenance, snapshot management end to end: a table written the way an engine writes one
// (iceberg_writer.mjs: hyparquet-writer, avsc, iceberg-js) gets snapshots with old timestamp-ms;
// POST /_floe/maintenance/run expires them down to minSnapshotsToKeep by the `now` it is given,
// deletes the manifest lists, manifests and data files only the expired snapshots reached (404
// afterwards), keeps everything the retained snapshots need (icebird still reads every row), keeps
// a tag's snapshot, and reports the run in GetTableMaintenanceJobStatus.
//
// Run: cd tests/e2e && npm ci && node --test maintenance/90-maintenance-snapshot-expiration.mjs

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";

import { FloeServer } from "../floe_server.mjs";
import { IcebergWriter, missingPackages, runMaintenance } from "../iceberg_writer.mjs";

const DAY_MS = 86400000;
const T0 = Date.parse("2026-01-01T00:00:00Z");

describe("snapshot management expires old snapshots and the files only they reached",
  { skip: missingPackages.length ? `not installed: ${missingPackages.join(", ")} (run npm ci in tests/e2e)` : false },
  () => {
    let server, w;

    before(async () => {
      server = new FloeServer({ args: ["--maintenance-interval", "0"] });
      await server.start();
      w = await IcebergWriter.open(server, { bucket: "expiry" });
    });

    after(async () => {
      w?.close();
      await server?.cleanup();
    });

    /** n appends, one a day from T0, each {id: i}. */
    async function appendDays(table, n) {
      const snaps = [];
      for (let i = 0; i < n; i++)
        snaps.push(await w.append(table, [{ id: BigInt(i), name: `day ${i}`, ts: new Date(T0 + i * DAY_MS) }],
          { timestampMs: T0 + i * DAY_MS }));
      return snaps;
    }

    test("snapshots older than maxSnapshotAgeHours expire down to minSnapshotsToKeep", async () => {
      await w.createTable("events");
      const snaps = await appendDays("events", 6);
      await w.send("PutTableMaintenanceConfigurationCommand", {
        ...w.where("events"), type: "icebergSnapshotManagement",
        value: { status: "enabled", settings: { icebergSnapshotManagement: { minSnapshotsToKeep: 2, maxSnapshotAgeHours: 24 } } },
      });
      const arn = await w.tableArn("events");
      const before = await w.load("events");

      const job = await runMaintenance(server, { arn, type: "icebergSnapshotManagement", now: "2026-03-01T00:00:00Z" });
      assert.equal(job.status, 200, `the run answers 200 (${JSON.stringify(job.body)})`);
      assert.equal(job.body.status, "Successful", "the job succeeded");
      assert.equal(job.body.snapshotsExpired, 4, "six snapshots, all older than a day, expire down to the two newest");
      assert.ok(job.body.metadataLocation.startsWith(before.location), "the new metadata lies in the table's warehouse");

      const md = await w.load("events");
      assert.deepEqual(md.snapshots.map((s) => s["snapshot-id"]).sort(),
        [snaps[4].snapshotId, snaps[5].snapshotId].sort(), "the two newest snapshots remain");
      assert.equal(md["current-snapshot-id"], snaps[5].snapshotId, "the current snapshot is unchanged");
      const rows = await w.readRows("events");
      assert.deepEqual(rows.map((r) => r.id).sort((a, b) => Number(a - b)), [0n, 1n, 2n, 3n, 4n, 5n],
        "every row is still readable: appends keep their data files in the current snapshot");

      for (const s of snaps.slice(0, 4))
        assert.equal(await w.status(s.manifestListPath), 404, "an expired snapshot's manifest list answers 404");
      for (const s of snaps)
        assert.equal(await w.status(s.dataPath), 200, "a data file the current snapshot reaches is kept");
      for (const s of snaps.slice(4))
        assert.equal(await w.status(s.manifestListPath), 200, "a retained snapshot's manifest list is kept");
      assert.equal(job.body.filesDeleted, 4, "only the four manifest lists were deleted");
    });

    test("files only expired snapshots reached answer 404 after the run", async () => {
      await w.createTable("overwritten");
      const snaps = await appendDays("overwritten", 3);
      // an overwrite: a new snapshot whose manifest list holds only a new manifest, so the old
      // data files and manifests are reached by the old snapshots alone
      let md = await w.load("overwritten");
      const id = IcebergWriter.newSnapshotId();
      const added = await w.writeDataFile(md, [{ id: 100n, name: "fresh", ts: new Date(T0 + 10 * DAY_MS) }], id);
      const seq = md["last-sequence-number"] + 1;
      const list = await w.writeManifestList({ ...md, snapshots: [] }, id, seq, added);
      await w.commit("overwritten", {
        requirements: [{ type: "assert-ref-snapshot-id", ref: "main", "snapshot-id": md["current-snapshot-id"] }],
        updates: [
          { action: "add-snapshot", snapshot: { "snapshot-id": id, "parent-snapshot-id": md["current-snapshot-id"],
            "sequence-number": seq, "timestamp-ms": T0 + 10 * DAY_MS, "manifest-list": list, "schema-id": 0,
            summary: { operation: "overwrite" } } },
          { action: "set-snapshot-ref", "ref-name": "main", type: "branch", "snapshot-id": id },
        ],
      });
      const job = await runMaintenance(server,
        { arn: await w.tableArn("overwritten"), type: "icebergSnapshotManagement", now: "2026-06-01T00:00:00Z" });
      assert.equal(job.body.status, "Successful", JSON.stringify(job.body));
      assert.equal(job.body.snapshotsExpired, 3, "the default minSnapshotsToKeep (1) keeps only the current snapshot");
      for (const s of snaps) {
        assert.equal(await w.status(s.dataPath), 404, "a data file only expired snapshots reached is deleted");
        assert.equal(await w.status(s.manifestPath), 404, "so is its manifest");
        assert.equal(await w.status(s.manifestListPath), 404, "and the expired manifest list");
      }
      assert.equal(await w.status(added.dataPath), 200, "the current snapshot's data file stays");
      md = await w.load("overwritten");
      assert.deepEqual((await w.readRows("overwritten")).map((r) => r.id), [100n], "the table reads as before");
    });

    test("a tag keeps its snapshot; a second run has nothing to do", async () => {
      await w.createTable("tagged");
      const snaps = await appendDays("tagged", 4);
      await w.commit("tagged", { requirements: [], updates: [
        { action: "set-snapshot-ref", "ref-name": "q1-report", type: "tag", "snapshot-id": snaps[1].snapshotId },
      ] });
      const arn = await w.tableArn("tagged");
      const first = await runMaintenance(server, { arn, type: "icebergSnapshotManagement", now: "2026-06-01T00:00:00Z" });
      assert.equal(first.body.snapshotsExpired, 2, "the tagged snapshot and the current one stay");
      const md = await w.load("tagged");
      assert.deepEqual(md.snapshots.map((s) => s["snapshot-id"]).sort(),
        [snaps[1].snapshotId, snaps[3].snapshotId].sort(), "as Iceberg's ExpireSnapshots keeps tags");
      const second = await runMaintenance(server, { arn, type: "icebergSnapshotManagement", now: "2026-06-01T00:00:00Z" });
      assert.equal(second.body.status, "Successful", "a run with nothing to expire succeeds");
      assert.equal(second.body.snapshotsExpired, 0, "and expires nothing");
      assert.equal(second.body.metadataLocation, undefined, "without a new metadata file");
    });

    test("GetTableMaintenanceJobStatus reports the last run", async () => {
      const status = await w.send("GetTableMaintenanceJobStatusCommand", w.where("events"));
      const snap = status.status.icebergSnapshotManagement;
      assert.equal(snap.status, "Successful", "snapshot management ran successfully");
      assert.equal(snap.lastRunTimestamp.toISOString(), "2026-03-01T00:00:00.000Z",
        "lastRunTimestamp is the job's clock (the `now` it ran with)");
      assert.equal(status.status.icebergCompaction.status, "Not_Yet_Run", "compaction never ran on this table");
    });

    test("a bucket ARN runs the job on each of the bucket's tables", async () => {
      const job = await runMaintenance(server,
        { arn: w.bucketArn, type: "icebergSnapshotManagement", now: "2026-06-01T00:00:00Z" });
      assert.equal(job.status, 200, JSON.stringify(job.body));
      assert.equal(job.body.tables.length, 3, "one entry per table of the bucket");
      assert.ok(job.body.tables.every((t) => t.status === "Successful"), "each succeeded");
    });
  });

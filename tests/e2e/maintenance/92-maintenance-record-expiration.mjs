// Table maintenance, record expiration end to end: with record expiration enabled, data files whose
// upper bound of the expiration column (a table's first timestamp column when it has no
// report_time or snapshot_time, as AWS picks the column from the schema) is older than now - days
// leave the table in a `delete` snapshot; recent files and files that straddle the cutoff stay
// (a documented difference: AWS rewrites straddling files). GetTableRecordExpirationJobStatus
// reports the run with real metrics.
//
// Run: cd tests/e2e && npm ci && node --test maintenance/92-maintenance-record-expiration.mjs

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";

import { FloeServer } from "../floe_server.mjs";
import { IcebergWriter, missingPackages, readAvro, runMaintenance } from "../iceberg_writer.mjs";

const DAY_MS = 86400000;
const NOW = Date.parse("2026-06-30T00:00:00Z");
const daysAgo = (d) => new Date(NOW - d * DAY_MS);

describe("record expiration removes data files whose records are all past the retention",
  { skip: missingPackages.length ? `not installed: ${missingPackages.join(", ")} (run npm ci in tests/e2e)` : false },
  () => {
    let server, w, arn;
    const files = {};

    before(async () => {
      server = new FloeServer({ args: ["--maintenance-interval", "0"] });
      await server.start();
      w = await IcebergWriter.open(server, { bucket: "retention" });
      await w.createTable("events");
      arn = await w.tableArn("events");
      files.old = await w.append("events", [{ id: 1n, name: "old", ts: daysAgo(40) }, { id: 2n, name: "old", ts: daysAgo(35) }]);
      files.straddling = await w.append("events", [{ id: 3n, name: "straddle", ts: daysAgo(45) }, { id: 4n, name: "straddle", ts: daysAgo(5) }]);
      files.recent = await w.append("events", [{ id: 5n, name: "recent", ts: daysAgo(1) }]);
      files.older = await w.append("events", [{ id: 6n, name: "older", ts: daysAgo(100) }]);
    });

    after(async () => {
      w?.close();
      await server?.cleanup();
    });

    test("before it is enabled, the job status is Disabled and a run is refused", async () => {
      const status = await w.send("GetTableRecordExpirationJobStatusCommand", { tableArn: arn });
      assert.equal(status.status, "Disabled", "record expiration is disabled by default");
      const job = await runMaintenance(server, { arn, type: "recordExpiration" });
      assert.equal(job.status, 400, "running a disabled job answers 400");
    });

    test("old files go in a delete snapshot; recent and straddling files stay", async () => {
      await w.send("PutTableRecordExpirationConfigurationCommand",
        { tableArn: arn, value: { status: "enabled", settings: { days: 30 } } });
      assert.equal((await w.send("GetTableRecordExpirationJobStatusCommand", { tableArn: arn })).status, "NotYetRun",
        "enabled and never run: NotYetRun");
      const before = await w.load("events");
      const job = await runMaintenance(server, { arn, type: "recordExpiration", now: new Date(NOW).toISOString() });
      assert.equal(job.status, 200, JSON.stringify(job.body));
      assert.equal(job.body.status, "Successful", JSON.stringify(job.body));
      assert.equal(job.body.recordsRemoved, 3, "the two files entirely past 30 days held three records");

      const md = await w.load("events");
      const snap = md.snapshots.find((s) => s["snapshot-id"] === md["current-snapshot-id"]);
      assert.equal(snap.summary.operation, "delete", "the new snapshot is a delete");
      assert.equal(snap["parent-snapshot-id"], before["current-snapshot-id"], "on top of the previous one");
      assert.equal(snap["sequence-number"], before["last-sequence-number"] + 1, "with the next sequence number");
      assert.equal(snap.summary["deleted-data-files"], "2", "the summary counts the removed files");
      assert.equal(snap.summary["deleted-records"], "3", "and the removed records");
      assert.equal(snap.summary["total-records"], "3", "and the records left");

      const rows = await w.readRows("events");
      assert.deepEqual(rows.map((r) => r.id).sort((a, b) => Number(a - b)), [3n, 4n, 5n],
        "icebird reads the recent file and the straddling one (both of its records), not the old ones");
      const entries = (await readAvro(await w.get(snap["manifest-list"]))).length;
      assert.equal(entries, 4, "the new manifest list still lists four data manifests (two rewritten)");
      assert.equal(await w.status(files.old.dataPath), 200,
        "a removed file stays in storage until snapshot management expires the snapshots that reach it");
    });

    test("GetTableRecordExpirationJobStatus reports the run with its metrics", async () => {
      const status = await w.send("GetTableRecordExpirationJobStatusCommand", { tableArn: arn });
      assert.equal(status.status, "Successful", "the last run succeeded");
      assert.equal(status.lastRunTimestamp.toISOString(), new Date(NOW).toISOString(), "at the job's clock");
      assert.equal(status.metrics.deletedDataFiles, 2, "two data files removed");
      assert.equal(status.metrics.deletedRecords, 3, "three records removed");
      const sizes = (await w.get(files.old.dataPath)).length + (await w.get(files.older.dataPath)).length;
      assert.equal(status.metrics.removedFilesSize, sizes, "removedFilesSize is their bytes");
    });

    test("a second run finds nothing more to remove", async () => {
      const job = await runMaintenance(server, { arn, type: "recordExpiration", now: new Date(NOW).toISOString() });
      assert.equal(job.body.status, "Successful");
      assert.equal(job.body.recordsRemoved, 0, "nothing else is past the retention");
      assert.equal(job.body.metadataLocation, undefined, "and nothing is committed");
    });

    test("a format version 3 table loses its expired files with their deletion vectors, keeping row lineage", async () => {
      await w.catalog.createTable({ namespace: [w.namespace] },
        { name: "lineage", schema: (await w.load("events")).schemas[0], properties: { "format-version": "3" } });
      const v3 = await w.tableArn("lineage");
      const old = await w.append("lineage",
        [{ id: 7n, name: "old", ts: daysAgo(40) }, { id: 8n, name: "old", ts: daysAgo(35) }]);
      await w.append("lineage", [{ id: 9n, name: "new", ts: daysAgo(1) }]);
      const dv = await w.deleteRows("lineage", [{ dataPath: old.dataPath, positions: [1] }]); // id 8 was deleted
      await w.send("PutTableRecordExpirationConfigurationCommand",
        { tableArn: v3, value: { status: "enabled", settings: { days: 30 } } });
      const before = await w.load("lineage");
      assert.equal(before["next-row-id"], 3, "three rows were given ids");
      const job = await runMaintenance(server, { arn: v3, type: "recordExpiration", now: new Date(NOW).toISOString() });
      assert.equal(job.body.status, "Successful", JSON.stringify(job.body));
      assert.equal(job.body.recordsRemoved, 1, "the old record still live goes (the vector had deleted the other)");
      const md = await w.load("lineage");
      const snap = md.snapshots.find((s) => s["snapshot-id"] === md["current-snapshot-id"]);
      assert.equal(snap.summary.operation, "delete", "a delete snapshot");
      assert.equal(snap.summary["removed-dvs"], "1", "the file's deletion vector leaves with it");
      assert.equal(snap.summary["total-delete-files"], "0", "no delete file is left");
      assert.equal(snap["first-row-id"], 3, "it starts at the table's next-row-id");
      assert.equal(snap["added-rows"], 0, "and adds no rows (the rewritten manifests hold only what they removed)");
      assert.equal(md["next-row-id"], 3, "next-row-id stays");
      const list = await readAvro(await w.get(snap["manifest-list"]));
      assert.ok(list.every((m) => m.content !== 0 || m.first_row_id != null), "every data manifest has a first_row_id");
      const kept = list.find((m) => m.first_row_id === 2);
      assert.ok(kept, "the new file's manifest keeps first_row_id 2, so its row keeps row id 2");
      assert.deepEqual((await w.readRows("lineage")).map((r) => r.id), [9n], "the new record stays");
      const entries = [];
      for (const m of list)
        entries.push(...(await readAvro(await w.get(m.manifest_path))).map((e) => ({ ...e, content: m.content })));
      assert.ok(entries.some((e) => e.content === 1 && e.status === 2 && e.data_file.file_path === dv.puffinPath),
        "the vector's entry is DELETED in its rewritten delete manifest");
    });
  });

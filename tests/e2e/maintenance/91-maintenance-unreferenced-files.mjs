// Table maintenance, unreferenced file removal end to end: objects in a table's warehouse that nothing
// references (a stray data file, an orphaned manifest) become noncurrent `unreferencedDays` after
// they were written and are deleted `nonCurrentDays` after that, as `now` moves; every file the
// table references (data files, manifests, manifest lists, metadata files in the log) stays.
// The job's answer reports what it marked and what it deleted.
//
// Run: cd tests/e2e && npm ci && node --test maintenance/91-maintenance-unreferenced-files.mjs

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";

import { FloeServer } from "../floe_server.mjs";
import { IcebergWriter, missingPackages, runMaintenance } from "../iceberg_writer.mjs";

const DAY_MS = 86400000;
const iso = (ms) => new Date(ms).toISOString();

describe("unreferenced file removal marks stray objects noncurrent, then deletes them",
  { skip: missingPackages.length ? `not installed: ${missingPackages.join(", ")} (run npm ci in tests/e2e)` : false },
  () => {
    let server, w;

    before(async () => {
      server = new FloeServer({ args: ["--maintenance-interval", "0"] });
      await server.start();
      w = await IcebergWriter.open(server, { bucket: "orphans" });
      await w.send("PutTableBucketMaintenanceConfigurationCommand", {
        tableBucketARN: w.bucketArn, type: "icebergUnreferencedFileRemoval",
        value: { status: "enabled", settings: { icebergUnreferencedFileRemoval: { unreferencedDays: 2, nonCurrentDays: 3 } } },
      });
    });

    after(async () => {
      w?.close();
      await server?.cleanup();
    });

    test("stray objects go noncurrent after unreferencedDays and are deleted nonCurrentDays later", async () => {
      await w.createTable("events");
      const a = await w.append("events", [{ id: 1n, name: "a", ts: new Date() }]);
      const b = await w.append("events", [{ id: 2n, name: "b", ts: new Date() }]);
      const md = await w.load("events");
      const stray = `${md.location}/data/left-behind-by-a-failed-writer.parquet`;
      const strayManifest = `${md.location}/metadata/orphan-m0.avro`;
      await w.put(stray, Buffer.from("not referenced by anything"));
      await w.put(strayManifest, Buffer.from("neither is this"));
      const arn = await w.tableArn("events");
      const start = Date.now();
      const run = (days) => runMaintenance(server, { arn, type: "icebergUnreferencedFileRemoval", now: iso(start + days * DAY_MS) });

      let job = await run(1);
      assert.equal(job.status, 200, JSON.stringify(job.body));
      assert.equal(job.body.filesMarkedNoncurrent, 0, "a day after they were written, nothing is noncurrent yet");
      assert.equal(job.body.filesDeleted, 0, "and nothing is deleted");

      job = await run(2.5);
      assert.equal(job.body.filesMarkedNoncurrent, 2, "past unreferencedDays the two stray objects become noncurrent");
      assert.equal(job.body.filesDeleted, 0, "but are not deleted yet");
      assert.equal(await w.status(stray), 200, "a noncurrent object is still there");

      job = await run(4);
      assert.equal(job.body.filesDeleted, 0, "before nonCurrentDays have passed since the mark, nothing is deleted");
      assert.equal(job.body.filesMarkedNoncurrent, 0, "and an object is marked only once");

      job = await run(6);
      assert.equal(job.body.filesDeleted, 2, "nonCurrentDays after the mark, the stray objects are deleted");
      assert.equal(await w.status(stray), 404, "the stray data file answers 404");
      assert.equal(await w.status(strayManifest), 404, "the orphaned manifest answers 404");

      for (const f of [a.dataPath, a.manifestPath, a.manifestListPath, b.dataPath, b.manifestPath, b.manifestListPath])
        assert.equal(await w.status(f), 200, "every file a snapshot references stays");
      const now = await w.load("events");
      for (const entry of now["metadata-log"])
        assert.equal(await w.status(entry["metadata-file"]), 200, "every metadata file in the metadata log stays");
      assert.deepEqual((await w.readRows("events")).map((r) => r.id).sort(), [1n, 2n], "the table reads as before");

      const status = await w.send("GetTableMaintenanceJobStatusCommand", w.where("events"));
      assert.equal(status.status.icebergUnreferencedFileRemoval.status, "Successful", "the job status shows the run");
    });

    test("an object referenced again before deletion keeps its data", async () => {
      await w.createTable("revived");
      await w.append("revived", [{ id: 1n, name: "a", ts: new Date() }]);
      const md = await w.load("revived");
      const arn = await w.tableArn("revived");
      const start = Date.now();
      // a data file written long before its commit (a slow writer): it is unreferenced at first
      const id = IcebergWriter.newSnapshotId();
      const late = await w.writeDataFile(md, [{ id: 7n, name: "late", ts: new Date() }], id);
      const job = await runMaintenance(server,
        { arn, type: "icebergUnreferencedFileRemoval", now: iso(start + 2.5 * DAY_MS) });
      assert.equal(job.body.filesMarkedNoncurrent, 2, "the uncommitted data file and its manifest are marked");
      const seq = md["last-sequence-number"] + 1;
      const list = await w.writeManifestList(md, id, seq, late);
      await w.commit("revived", { requirements: [], updates: [
        { action: "add-snapshot", snapshot: { "snapshot-id": id, "parent-snapshot-id": md["current-snapshot-id"],
          "sequence-number": seq, "timestamp-ms": Date.now(), "manifest-list": list, "schema-id": 0,
          summary: { operation: "append" } } },
        { action: "set-snapshot-ref", "ref-name": "main", type: "branch", "snapshot-id": id },
      ] });
      const later = await runMaintenance(server,
        { arn, type: "icebergUnreferencedFileRemoval", now: iso(start + 30 * DAY_MS) });
      assert.equal(later.body.status, "Successful", JSON.stringify(later.body));
      assert.equal(await w.status(late.dataPath), 200, "once committed, the file is referenced and is not deleted");
      assert.deepEqual((await w.readRows("revived")).map((r) => r.id).sort(), [1n, 7n], "both rows read");
    });

    test("a disabled configuration never runs", async () => {
      await w.send("PutTableBucketMaintenanceConfigurationCommand", {
        tableBucketARN: w.bucketArn, type: "icebergUnreferencedFileRemoval", value: { status: "disabled" },
      });
      const job = await runMaintenance(server, { arn: w.bucketArn, type: "icebergUnreferencedFileRemoval" });
      assert.equal(job.status, 400, "a disabled job answers 400");
      assert.match(job.body.message, /disabled/, "and says it is disabled");
      const status = await w.send("GetTableMaintenanceJobStatusCommand", w.where("events"));
      assert.equal(status.status.icebergUnreferencedFileRemoval.status, "Disabled", "the job status says Disabled");
    });
  });

// Table maintenance, bad input: POST /_floe/maintenance/run answers 400 with a message, and runs nothing,
// for a body that is not JSON, an unknown ARN, an unknown type, a bad time and a disabled job (405
// for another method); a corrupt manifest fails the job cleanly (Failed with a message in the
// answer and in GetTableMaintenanceJobStatus), leaves the table untouched and the server healthy.
//
// Run: cd tests/e2e && npm ci && node --test maintenance/93-maintenance-bad-input.mjs

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";

import { FloeServer } from "../floe_server.mjs";
import { IcebergWriter, missingPackages, runMaintenance } from "../iceberg_writer.mjs";

describe("bad maintenance input is refused, a corrupt table fails its job cleanly",
  { skip: missingPackages.length ? `not installed: ${missingPackages.join(", ")} (run npm ci in tests/e2e)` : false },
  () => {
    let server, w, arn;

    before(async () => {
      server = new FloeServer({ args: ["--maintenance-interval", "0"] });
      await server.start();
      w = await IcebergWriter.open(server, { bucket: "hostile" });
      await w.createTable("events");
      await w.append("events", [{ id: 1n, name: "a", ts: new Date("2026-01-01") }], { timestampMs: Date.parse("2026-01-01") });
      await w.append("events", [{ id: 2n, name: "b", ts: new Date("2026-01-02") }], { timestampMs: Date.parse("2026-01-02") });
      arn = await w.tableArn("events");
    });

    after(async () => {
      w?.close();
      await server?.cleanup();
    });

    const refused = async (request, pattern, why) => {
      const job = await runMaintenance(server, request);
      assert.equal(job.status, 400, `${why}: 400 (${JSON.stringify(job.body)})`);
      assert.match(job.body.message, pattern, `${why}: the message says so`);
    };

    test("the route refuses what it cannot run, with a message", async () => {
      await refused("{not json", /not JSON/, "a body that is not JSON");
      await refused({ type: "icebergSnapshotManagement" }, /"arn"/, "a body without an ARN");
      await refused({ arn: `${w.bucketArn.replace("hostile", "missing")}`, type: "icebergSnapshotManagement" },
        /No table or table bucket/, "an unknown table bucket ARN");
      await refused({ arn: `${w.bucketArn}/table/00000000-0000-0000-0000-000000000000`, type: "icebergCompaction" },
        /No table or table bucket/, "an unknown table ARN");
      await refused({ arn, type: "vacuum" }, /Unknown maintenance job type/, "an unknown type");
      await refused({ arn, type: "icebergSnapshotManagement", now: "next tuesday" }, /RFC 3339/, "a bad time");
      await refused({ arn, type: "icebergSnapshotManagement", now: "2026-02-30T00:00:00Z" }, /RFC 3339/, "a date that does not exist");
      await refused({ arn, type: "recordExpiration" }, /disabled/, "a disabled job");
      await w.send("CreateTableBucketCommand", { name: "hostile-empty" });
      const empty = await runMaintenance(server,
        { arn: w.bucketArn.replace("hostile", "hostile-empty"), type: "icebergSnapshotManagement" });
      assert.equal(empty.status, 200, "a table bucket without tables is no error");
      assert.deepEqual(empty.body.tables, [], "and runs on no table");
      const get = await fetch(`${server.endpoint}/_floe/maintenance/run`);
      assert.equal(get.status, 405, "GET answers 405");
      await get.arrayBuffer();
      const status = await w.send("GetTableMaintenanceJobStatusCommand", w.where("events"));
      assert.equal(status.status.icebergSnapshotManagement.status, "Not_Yet_Run", "nothing ran");
    });

    test("a corrupt manifest fails the job with Failed and a message; the table is untouched", async () => {
      const before = await w.load("events");
      const snap = before.snapshots[0];
      const manifestList = snap["manifest-list"];
      const good = await w.get(manifestList);
      await w.put(manifestList, Buffer.from("Obj\x01 this is not an Avro manifest list"));
      const job = await runMaintenance(server, { arn, type: "icebergSnapshotManagement", now: "2027-01-01T00:00:00Z" });
      assert.equal(job.status, 200, "the run answers with the job's status");
      assert.equal(job.body.status, "Failed", "the job failed");
      assert.match(job.body.failureMessage, /manifest list/, "and says which file it could not read");
      assert.deepEqual(await w.load("events"), before, "the table's metadata is untouched");
      const status = await w.send("GetTableMaintenanceJobStatusCommand", w.where("events"));
      assert.equal(status.status.icebergSnapshotManagement.status, "Failed", "GetTableMaintenanceJobStatus says Failed");
      assert.match(status.status.icebergSnapshotManagement.failureMessage, /manifest list/, "with the failure message");
      assert.ok(await server.isHealthy(), "the server is healthy");

      await w.put(manifestList, good);
      const again = await runMaintenance(server, { arn, type: "icebergSnapshotManagement", now: "2027-01-01T00:00:00Z" });
      assert.equal(again.body.status, "Successful", "once the file is repaired the job runs again");
      assert.equal(again.body.snapshotsExpired, 1, "and expires the old snapshot");
    });
  });

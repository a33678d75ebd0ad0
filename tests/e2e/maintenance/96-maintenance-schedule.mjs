// Table maintenance, the schedule: with `--maintenance-interval 1` the maintenance thread runs every
// enabled job on every table by itself, off the event loop: old snapshots expire without any
// request, GetTableMaintenanceJobStatus shows the run, a disabled job stays Disabled, requests are
// answered meanwhile, and the server stops cleanly (SIGTERM, exit 0) with the thread joined.
//
// Run: cd tests/e2e && npm ci && node --test maintenance/96-maintenance-schedule.mjs

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";

import { FloeServer } from "../floe_server.mjs";
import { IcebergWriter, missingPackages } from "../iceberg_writer.mjs";

const POLL_MS = 100;
const DEADLINE_MS = 20000;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

describe("scheduled maintenance runs by itself",
  { skip: missingPackages.length ? `not installed: ${missingPackages.join(", ")} (run npm ci in tests/e2e)` : false },
  () => {
    let server, w;

    before(async () => {
      server = new FloeServer({ args: ["--maintenance-interval", "1"] });
      await server.start();
      w = await IcebergWriter.open(server, { bucket: "scheduled" });
    });

    after(async () => {
      w?.close();
      await server?.cleanup();
    });

    test("old snapshots expire on the schedule and the job status shows it", async () => {
      await w.createTable("events");
      const old = Date.parse("2020-01-01T00:00:00Z");
      for (let i = 0; i < 4; i++)
        await w.append("events", [{ id: BigInt(i), name: "old", ts: new Date(old) }], { timestampMs: old + i });
      let status;
      const deadline = Date.now() + DEADLINE_MS;
      while (Date.now() < deadline) {
        status = (await w.send("GetTableMaintenanceJobStatusCommand", w.where("events"))).status;
        // a sweep runs snapshot management, then compaction, then unreferenced file removal
        if (status.icebergUnreferencedFileRemoval.status !== "Not_Yet_Run" && (await w.load("events")).snapshots.length === 1)
          break;
        assert.ok(await server.isHealthy(), "requests are answered while the schedule runs");
        await sleep(POLL_MS);
      }
      assert.equal(status.icebergSnapshotManagement.status, "Successful", "snapshot management ran by itself");
      assert.ok(status.icebergSnapshotManagement.lastRunTimestamp instanceof Date, "with a last run time");
      assert.equal((await w.load("events")).snapshots.length, 1, "the old snapshots expired down to one");
      assert.equal(status.icebergUnreferencedFileRemoval.status, "Successful", "unreferenced file removal ran too");
      const expiration = await w.send("GetTableRecordExpirationJobStatusCommand", { tableArn: await w.tableArn("events") });
      assert.equal(expiration.status, "Disabled", "record expiration, disabled by default, never ran");
      assert.deepEqual((await w.readRows("events")).map((r) => r.id).sort(), [0n, 1n, 2n, 3n], "every row reads");
    });

    test("the server stops cleanly while the schedule runs", async () => {
      await sleep(1200); // let a sweep start
      await server.stop(); // throws unless floe exits 0 within the timeout
      await server.start();
      assert.ok(await server.isHealthy(), "and starts again on the same data");
    });
  });

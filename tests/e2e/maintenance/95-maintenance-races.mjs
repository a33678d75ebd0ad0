// Table maintenance, safety: maintenance commits never lose a client's commit, and kill -9 in the middle of
// a job leaves the table readable and the job runnable again.
//  - Three writers append concurrently (retrying on 409, as engines do) while snapshot management
//    and record expiration run again and again: every acknowledged append is readable afterwards,
//    no row is duplicated, and the rows record expiration removed stay removed.
//  - A job on a table with many snapshots is killed (SIGKILL) at several moments; after a restart
//    the table reads in full, the job runs to success, and unreferenced file removal collects what
//    the killed runs left behind without touching the table.
//
// Run: cd tests/e2e && npm ci && node --test maintenance/95-maintenance-races.mjs

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";

import { FloeServer } from "../floe_server.mjs";
import { IcebergWriter, missingPackages, runMaintenance } from "../iceberg_writer.mjs";

const DAY_MS = 86400000;
const WRITERS = 3;
const APPENDS_PER_WRITER = 8;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const sorted = (ids) => [...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

describe("maintenance racing clients, and killed mid-job",
  { skip: missingPackages.length ? `not installed: ${missingPackages.join(", ")} (run npm ci in tests/e2e)` : false },
  () => {
    let server, w;

    before(async () => {
      server = new FloeServer({ args: ["--maintenance-interval", "0"] });
      await server.start();
      w = await IcebergWriter.open(server, { bucket: "races" });
    });

    after(async () => {
      w?.close();
      await server?.cleanup();
    });

    test("appends committed while expiration runs are all readable, none duplicated", async () => {
      await w.createTable("busy");
      const arn = await w.tableArn("busy");
      const old = Date.now() - 90 * DAY_MS;
      await w.append("busy", [{ id: -1n, name: "expired", ts: new Date(old) }], { timestampMs: old });
      await w.send("PutTableRecordExpirationConfigurationCommand",
        { tableArn: arn, value: { status: "enabled", settings: { days: 30 } } });

      const acknowledged = [];
      let writing = true;
      const writers = Array.from({ length: WRITERS }, async (_, k) => {
        for (let i = 0; i < APPENDS_PER_WRITER; i++) {
          const id = BigInt(k * 1000 + i);
          await w.append("busy", [{ id, name: `writer ${k}`, ts: new Date() }], { retries: 100 });
          acknowledged.push(id);
        }
      });
      const jobs = [];
      const maintenance = (async () => {
        const future = new Date(Date.now() + 30 * DAY_MS).toISOString();
        for (let i = 0; writing; i++) {
          const type = i % 2 ? "recordExpiration" : "icebergSnapshotManagement";
          jobs.push(await runMaintenance(server, { arn, type, now: type === "recordExpiration" ? undefined : future }));
        }
      })();
      await Promise.all(writers);
      writing = false;
      await maintenance;

      assert.ok(jobs.length >= 2, "maintenance ran while the writers appended");
      for (const job of jobs) {
        assert.equal(job.status, 200, JSON.stringify(job.body));
        assert.equal(job.body.status, "Successful", `every maintenance run succeeded: ${JSON.stringify(job.body)}`);
      }
      const final = await runMaintenance(server, { arn, type: "recordExpiration" });
      assert.equal(final.body.status, "Successful", JSON.stringify(final.body));
      const rows = (await w.readRows("busy")).map((r) => r.id);
      assert.deepEqual(sorted(rows), sorted(acknowledged),
        "every acknowledged append is readable, no row is duplicated, the expired row is gone");
    });

    test("kill -9 mid-job leaves the table readable and the job runnable again", async () => {
      await w.createTable("crashy");
      const arn = await w.tableArn("crashy");
      const t0 = Date.now() - 60 * DAY_MS;
      const expected = [];
      for (let i = 0; i < 30; i++) {
        await w.append("crashy", [{ id: BigInt(i), name: "r", ts: new Date(t0 + i * 3600000) }],
          { timestampMs: t0 + i * 3600000 });
        expected.push(BigInt(i));
      }
      for (const delay of [2, 15, 40]) {
        const pending = runMaintenance(server, { arn, type: "icebergSnapshotManagement" }).catch(() => null);
        await sleep(delay);
        server.proc.kill("SIGKILL");
        await server.exited;
        server.proc = null;
        await pending;
        await server.start();
        assert.deepEqual(sorted((await w.readRows("crashy")).map((r) => r.id)), expected,
          `after kill -9 ${delay} ms into the job the table reads in full`);
      }
      const job = await runMaintenance(server, { arn, type: "icebergSnapshotManagement" });
      assert.equal(job.body.status, "Successful", `the job runs again to success: ${JSON.stringify(job.body)}`);
      const md = await w.load("crashy");
      assert.equal(md.snapshots.length, 1, "and expires what the killed runs did not");
      assert.deepEqual(sorted((await w.readRows("crashy")).map((r) => r.id)), expected, "the table still reads in full");

      // what a killed run left behind (files it wrote before its swap, files it had not deleted yet)
      // is unreferenced: unreferenced file removal collects it, and the table keeps every row
      const day = (d) => new Date(Date.now() + d * DAY_MS).toISOString();
      const mark = await runMaintenance(server, { arn, type: "icebergUnreferencedFileRemoval", now: day(4) });
      assert.equal(mark.body.status, "Successful", JSON.stringify(mark.body));
      const sweep = await runMaintenance(server, { arn, type: "icebergUnreferencedFileRemoval", now: day(15) });
      assert.equal(sweep.body.status, "Successful", JSON.stringify(sweep.body));
      assert.equal(sweep.body.filesDeleted, mark.body.filesMarkedNoncurrent, "what was marked is deleted");
      assert.deepEqual(sorted((await w.readRows("crashy")).map((r) => r.id)), expected,
        "after unreferenced file removal the table still reads in full");
    });
  });

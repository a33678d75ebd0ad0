// Compaction racing a client's delete (compaction.c design notes 1 and 8): a client commits a
// deletion vector for one of the files a compaction job is rewriting, after the job read the
// snapshot and before it commits. The job's commit-time check must then refuse to replace that
// file: the client's delete wins, its vector stays live, the rows it deleted stay deleted, and the
// file the job wrote is deleted again, never referenced.
//
// The race is made deterministic with the fault shim (tests/fault/fault_shim.c, preloaded into
// this test's server only): a `delay` rule holds the job's first write of a new object (its new
// data file) until the test, having committed the client's delete meanwhile, releases it by
// writing new rules. Nothing of this is in the floe binary.
//
// Run: cd tests/e2e && npm ci && node --test maintenance/98-maintenance-compaction-concurrent-delete.mjs
// (FLOE_FAULT_SHIM names the shim; CTest sets it.)

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";

import { FLOE_BIN, FloeServer } from "../floe_server.mjs";
import { IcebergWriter, SCHEMA, missingPackages, readAvro, runMaintenance } from "../iceberg_writer.mjs";

const SHIM = process.env.FLOE_FAULT_SHIM ??
  path.join(process.env.FLOE_BUILD_DIR ?? "", "tests", "libfloe_fault_shim.so");
const HOLD_MS = 60000;     // the longest the shim holds the job: a failing test cannot hang for long
const WAIT_MS = 30000;     // the longest the test waits for the job to reach the held write
const BASE_MS = Date.parse("2026-01-01T00:00:00Z");
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const rows = (from, to) => Array.from({ length: to - from }, (_, j) => ({
  id: BigInt(from + j), name: `n${from + j}`, ts: new Date(BASE_MS + (from + j) * 1000),
}));
const ids = (rs) => rs.map((r) => r.id).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

/** The libasan floe links, which must come first in LD_PRELOAD, or null (a build without ASan). */
function asanRuntime() {
  const out = execFileSync("ldd", [FLOE_BIN], { encoding: "utf8" });
  return out.match(/^\s*libasan\S*\s+=>\s+(\S+)/m)?.[1] ?? null;
}

const missing = missingPackages.length ? `npm packages missing: ${missingPackages.join(", ")} (run npm ci in tests/e2e)`
  : !fs.existsSync(SHIM) ? `the fault shim is not built (${SHIM}); set FLOE_FAULT_SHIM` : false;

describe("a deletion vector a client commits while compaction runs wins", { skip: missing }, () => {
  let server, w, controlDir, control, mtimeMs = Date.now();

  /** Replaces the shim's rules (renamed over the control file, with a later mtime each time, so
   * the shim sees every change). */
  function setRules(...rules) {
    const tmp = `${control}.tmp`;
    fs.writeFileSync(tmp, rules.map((r) => `${r}\n`).join(""));
    mtimeMs = Math.max(mtimeMs + 10, Date.now());
    fs.utimesSync(tmp, mtimeMs / 1000, mtimeMs / 1000);
    fs.renameSync(tmp, control);
  }

  /** Waits for a line of the server's log matching `pattern` after byte `from`. */
  async function waitForLog(from, pattern) {
    for (const deadline = Date.now() + WAIT_MS; Date.now() < deadline; await sleep(20)) {
      const text = fs.readFileSync(server.logPath, "utf8").slice(from);
      const m = text.match(pattern);
      if (m)
        return m;
    }
    assert.fail(`no line matching ${pattern} in the server's log:\n${server.logText()}`);
  }

  before(async () => {
    controlDir = fs.mkdtempSync(path.join(os.tmpdir(), "floe-fault-"));
    control = path.join(controlDir, "control");
    setRules();
    server = new FloeServer({
      args: ["--maintenance-interval", "0", "--warehouse-s3", "full"],
      env: { LD_PRELOAD: [asanRuntime(), SHIM].filter(Boolean).join(" "), FLOE_FAULT_CONTROL: control },
    });
    await server.start();
    w = await IcebergWriter.open(server, { bucket: "race" });
  });

  after(async () => {
    if (control)
      setRules(); // a failed test may have left the job held: release it so the server stops at once
    w?.close();
    await server?.cleanup();
    if (controlDir)
      fs.rmSync(controlDir, { recursive: true, force: true });
  });

  /** The live entries of the current snapshot: {data: [data_file], deletes: [data_file], snap}. */
  async function live(name) {
    const md = await w.load(name);
    const snap = md.snapshots.find((s) => s["snapshot-id"] === md["current-snapshot-id"]);
    const out = { data: [], deletes: [], snap };
    for (const m of await readAvro(await w.get(snap["manifest-list"])))
      for (const e of await readAvro(await w.get(m.manifest_path)))
        if (e.status !== 2)
          (e.data_file.content === 0 ? out.data : out.deletes).push(e.data_file);
    return out;
  }

  /** The keys of the table's Parquet data files in its warehouse. */
  async function parquetKeys(name) {
    return (await w.listKeys(name)).filter((k) => k.endsWith(".parquet")).sort();
  }

  test("the job refuses to replace the file whose vector changed, and deletes what it wrote", async () => {
    await w.catalog.createTable({ namespace: [w.namespace] },
      { name: "raced", schema: SCHEMA, properties: { "format-version": "3" } });
    const a = await w.append("raced", rows(0, 6), { rowGroupSize: 3 });
    const b = await w.append("raced", rows(6, 10));
    const first = await w.deleteRows("raced", [{ dataPath: a.dataPath, positions: [1] }]); // part of a row group
    const keysBefore = await parquetKeys("raced");
    assert.equal(keysBefore.length, 2, "two data files");

    // Hold the job's first write of a new object: by then it has read the snapshot, applied the
    // vector of a (writing that row group again) and planned to replace a and b.
    const from = fs.statSync(server.logPath).size;
    setRules(`objects delay=${HOLD_MS} times=1`);
    const job = runMaintenance(server, { arn: await w.tableArn("raced"), type: "icebergCompaction" });
    const held = await waitForLog(from, /^floe-fault-shim: \S+ held on (\S+)$/m);

    // Meanwhile a client deletes two rows of b, through the REST catalog, while the job waits.
    const second = await w.deleteRows("raced", [{ dataPath: b.dataPath, positions: [0, 2] }]);
    const raced = await live("raced");
    assert.equal(raced.deletes.length, 2, "the client's vector is committed while the job is held");

    setRules(); // release the job
    await waitForLog(from, new RegExp(`^floe-fault-shim \\(released\\): \\S+ let through on ${held[1]}$`, "m"));
    const run = await job;
    assert.equal(run.body.status, "Successful", JSON.stringify(run.body));
    assert.match(run.body.message, /^nothing to compact; 1 new files dropped, their inputs changed while the job ran/,
      `the job says it dropped its new file: ${run.body.message}`);

    const now = await live("raced");
    assert.equal(now.snap["snapshot-id"], raced.snap["snapshot-id"], "the job committed nothing over the client's delete");
    assert.deepEqual(now.data.map((f) => f.file_path).sort(), [a.dataPath, b.dataPath].sort(),
      "a and b are still the table's data files");
    assert.deepEqual(now.deletes.map((d) => [d.referenced_data_file, d.file_path]).sort(),
      [[a.dataPath, first.puffinPath], [b.dataPath, second.puffinPath]].sort(),
      "the client's vector is live, and so is the one the job would have applied");
    assert.deepEqual(await parquetKeys("raced"), keysBefore,
      "the file the job wrote was deleted: no Parquet file but a and b is left in the warehouse");

    // The rows the client deleted stay deleted: the next run applies both vectors, and icebird
    // (which reads no Puffin file) then reads the table without them.
    const again = await runMaintenance(server, { arn: await w.tableArn("raced"), type: "icebergCompaction" });
    assert.equal(again.body.status, "Successful", JSON.stringify(again.body));
    assert.match(again.body.message, /^compacted 2 data files into 1; applied 2 deletion vectors/, again.body.message);
    assert.deepEqual((await live("raced")).deletes, [], "no vector is left once applied");
    assert.deepEqual(ids(await w.readRows("raced")), [0n, 2n, 3n, 4n, 5n, 7n, 9n],
      "the rows both deletes removed (ids 1, 6 and 8) are not read");
  });
});

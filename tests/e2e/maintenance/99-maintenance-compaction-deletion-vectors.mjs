// Compaction of a format version 3 table with deletion vectors (Puffin files of
// deletion-vector-v1 blobs, written by tests/e2e/iceberg_writer.mjs as merge-on-read engines
// write them): vectors that delete whole row groups are applied (the rows are not in the new
// file, the vectors leave the table, their Puffin file stays through unreferenced-file removal
// while referenced and goes once snapshots expire), a vector that
// deletes some rows of a row group is applied by writing that row group again (gzip and ZSTD pages
// too; a codec Floe does not decode, LZO, keeps its file and vector) with the kept rows' exact min/max
// statistics, a file two vectors
// name is left alone with the reason in the job's message, and every moved row keeps its _row_id
// and _last_updated_sequence_number. Rows are read
// with icebird once no vector is left (icebird reads no Puffin file) and the new file's lineage
// columns with hyparquet.
//
// Run: cd tests/e2e && npm ci && node --test maintenance/99-maintenance-compaction-deletion-vectors.mjs

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { gzipSync } from "node:zlib";

import { FloeServer, importOrSkip } from "../floe_server.mjs";
import { IcebergWriter, SCHEMA, missingPackages, readAvro, runMaintenance } from "../iceberg_writer.mjs";

const hyparquet = await importOrSkip("hyparquet");
const hyparquetCompressors = await importOrSkip("hyparquet-compressors");
const BASE_MS = Date.parse("2026-01-01T00:00:00Z");

/** Rows with ids from..to-1. */
const rows = (from, to) => Array.from({ length: to - from }, (_, j) => ({
  id: BigInt(from + j), name: `n${from + j}`, ts: new Date(BASE_MS + (from + j) * 1000),
}));
const ids = (rs) => rs.map((r) => r.id).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
const range = (from, to) => Array.from({ length: to - from }, (_, j) => BigInt(from + j));

/** `bytes` as one ZSTD frame of raw (stored) blocks: valid ZSTD that any decoder reads, for Node 20
 * has no ZSTD compressor. Header: the magic, a single-segment descriptor with a 4-byte content size. */
function zstdStored(bytes) {
  const parts = [Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0xa0]), Buffer.alloc(4)];
  parts[1].writeUInt32LE(bytes.length);
  for (let at = 0; ; at += 131072) {
    const block = bytes.subarray(at, at + 131072), last = at + 131072 >= bytes.length;
    const header = (block.length << 3) | (last ? 1 : 0); // block type 0: raw
    parts.push(Buffer.from([header & 0xff, (header >> 8) & 0xff, (header >> 16) & 0xff]), Buffer.from(block));
    if (last)
      return new Uint8Array(Buffer.concat(parts));
  }
}

describe("compaction applies deletion vectors by row group on a v3 table", {
  skip: missingPackages.length || !hyparquet || !hyparquetCompressors
    ? `npm packages missing: ${missingPackages.join(", ") || "hyparquet, hyparquet-compressors"} (run npm ci in tests/e2e)`
    : false,
}, () => {
  let server, w;

  before(async () => {
    server = new FloeServer({ args: ["--maintenance-interval", "0"] });
    await server.start();
    w = await IcebergWriter.open(server, { bucket: "vectors" });
  });

  after(async () => {
    w?.close();
    await server?.cleanup();
  });

  /** The live entries of the current snapshot: {data: [data_file], deletes: [data_file]}. */
  async function live(name) {
    const md = await w.load(name);
    const snap = md.snapshots.find((s) => s["snapshot-id"] === md["current-snapshot-id"]);
    const out = { data: [], deletes: [], snap, md };
    for (const m of await readAvro(await w.get(snap["manifest-list"])))
      for (const e of await readAvro(await w.get(m.manifest_path)))
        if (e.status !== 2)
          (e.data_file.content === 0 ? out.data : out.deletes).push(e.data_file);
    return out;
  }

  /** The decoded Parquet footer of a data file (hyparquet). */
  async function footerOf(path) {
    const body = await w.get(path);
    return hyparquet.parquetMetadata(body.buffer.slice(body.byteOffset, body.byteOffset + body.length));
  }

  /** The ids and lineage columns of a data file, in file order. */
  async function lineageOf(path) {
    const body = await w.get(path);
    return hyparquet.parquetReadObjects({
      file: body.buffer.slice(body.byteOffset, body.byteOffset + body.length),
      columns: ["id", "name", "_row_id", "_last_updated_sequence_number"],
      compressors: hyparquetCompressors.compressors, // the gzip file's row groups are copied gzip
    });
  }

  test("whole row groups and whole files a vector deletes are left out, and the vectors leave", async () => {
    await w.catalog.createTable({ namespace: [w.namespace] },
      { name: "applied", schema: SCHEMA, properties: { "format-version": "3" } });
    const a = await w.append("applied", rows(0, 10), { rowGroupSize: 5 }); // two row groups, row ids 0..9
    const b = await w.append("applied", rows(10, 15));                     // row ids 10..14
    const c = await w.append("applied", rows(15, 20));                     // row ids 15..19, kept whole
    const dv = await w.deleteRows("applied", [
      { dataPath: a.dataPath, positions: [5, 6, 7, 8, 9] },   // a's second row group
      { dataPath: b.dataPath, positions: [0, 1, 2, 3, 4] },   // all of b
    ]);
    const before = await live("applied");
    assert.equal(before.deletes.length, 2, "two deletion vectors are live");
    assert.equal(before.md["next-row-id"], 20, "twenty rows were given ids");

    // While a live entry points into it, the Puffin file is referenced: unreferenced-file removal
    // neither marks nor deletes it, however late it runs (AWS's defaults: 3 and 10 days).
    for (const days of [30, 60]) {
      const sweep = await runMaintenance(server, {
        arn: await w.tableArn("applied"), type: "icebergUnreferencedFileRemoval",
        now: new Date(Date.now() + days * 86400000).toISOString(),
      });
      assert.equal(sweep.body.status, "Successful", JSON.stringify(sweep.body));
      assert.deepEqual([sweep.body.filesMarkedNoncurrent, sweep.body.filesDeleted], [0, 0],
        `nothing the table references is marked or deleted (day ${days})`);
    }
    assert.equal(await w.status(dv.puffinPath), 200, "the Puffin file stays");

    const run = await runMaintenance(server, { arn: await w.tableArn("applied"), type: "icebergCompaction" });
    assert.equal(run.body.status, "Successful", JSON.stringify(run.body));
    assert.match(run.body.message, /compacted 3 data files into 1; applied 2 deletion vectors/,
      `the job says what it did: ${run.body.message}`);

    const now = await live("applied");
    assert.equal(now.deletes.length, 0, "no deletion vector is left in the table");
    assert.equal(now.data.length, 1, "one data file holds the rows");
    assert.deepEqual(ids(await w.readRows("applied")), [...range(0, 5), ...range(15, 20)],
      "icebird reads the rows the vectors kept, and only those");
    assert.equal(now.data[0].record_count, 10, "the new file's entry counts its rows");
    const lineage = await lineageOf(now.data[0].file_path);
    assert.deepEqual(lineage.map((r) => r.id), [...range(0, 5), ...range(15, 20)], "the deleted rows are not in it");
    assert.deepEqual(lineage.map((r) => r._row_id), [...range(0, 5), ...range(15, 20)],
      "each kept row keeps its row id");
    assert.deepEqual(lineage.map((r) => r._last_updated_sequence_number), [1n, 1n, 1n, 1n, 1n, 3n, 3n, 3n, 3n, 3n],
      "and the sequence number of the append that wrote it");
    const summary = now.snap.summary;
    assert.equal(summary["removed-dvs"], "2", "the summary counts the removed vectors");
    assert.equal(summary["removed-position-deletes"], "10", "and the positions they held");
    assert.equal(summary["total-delete-files"], "0", "no delete file is left");
    assert.equal(summary["total-records"], "10", "ten records are left");

    // The Puffin file goes once the snapshots that still reach it expire.
    await w.send("PutTableMaintenanceConfigurationCommand", {
      ...w.where("applied"), type: "icebergSnapshotManagement",
      value: { status: "enabled", settings: { icebergSnapshotManagement: { minSnapshotsToKeep: 1, maxSnapshotAgeHours: 1 } } },
    });
    const expire = await runMaintenance(server, {
      arn: await w.tableArn("applied"), type: "icebergSnapshotManagement",
      now: new Date(Date.now() + 2 * 3600 * 1000).toISOString(),
    });
    assert.equal(expire.body.status, "Successful", JSON.stringify(expire.body));
    assert.equal(await w.status(dv.puffinPath), 404, "the Puffin file is deleted with the last snapshot reaching it");
    assert.equal(await w.status(c.dataPath), 404, "and so are the replaced data files");
    assert.equal(await w.status(now.data[0].file_path), 200, "the new file stays");
    assert.deepEqual(ids(await w.readRows("applied")), [...range(0, 5), ...range(15, 20)], "the rows stay");
  });

  test("files whose every row a vector deletes leave with their vectors, and no empty file is written", async () => {
    await w.catalog.createTable({ namespace: [w.namespace] },
      { name: "emptied", schema: SCHEMA, properties: { "format-version": "3" } });
    const a = await w.append("emptied", rows(0, 3));
    const b = await w.append("emptied", rows(3, 6));
    await w.deleteRows("emptied", [
      { dataPath: a.dataPath, positions: [0, 1, 2] }, { dataPath: b.dataPath, positions: [0, 1, 2] },
    ]);
    const run = await runMaintenance(server, { arn: await w.tableArn("emptied"), type: "icebergCompaction" });
    assert.equal(run.body.status, "Successful", JSON.stringify(run.body));
    assert.match(run.body.message, /compacted 2 data files into 0; applied 2 deletion vectors/, run.body.message);
    const now = await live("emptied");
    assert.deepEqual([now.data.length, now.deletes.length], [0, 0], "no data file and no vector is left");
    assert.equal(now.snap.summary["added-data-files"], "0", "no file was added");
    assert.equal(now.snap.summary["deleted-data-files"], "2", "both files were removed");
    assert.equal(now.snap.summary["total-records"], "0", "the table holds no record");
  });

  test("a vector that deletes some rows of a row group is applied by writing that row group again", async () => {
    await w.catalog.createTable({ namespace: [w.namespace] },
      { name: "partial", schema: SCHEMA, properties: { "format-version": "3" } });
    const a = await w.append("partial", rows(0, 5));                       // snappy, one row group
    await w.append("partial", rows(5, 10));
    await w.append("partial", rows(10, 20), { rowGroupSize: 5 });          // two row groups
    const c = (await live("partial")).data.find((f) => f.record_count === 10);
    await w.deleteRows("partial", [
      { dataPath: a.dataPath, positions: [2] },                // a row in the middle
      { dataPath: c.file_path, positions: [0, 6, 7, 9] },      // some rows of both row groups
    ]);

    const run = await runMaintenance(server, { arn: await w.tableArn("partial"), type: "icebergCompaction" });
    assert.equal(run.body.status, "Successful", JSON.stringify(run.body));
    assert.match(run.body.message, /compacted 3 data files into 1; applied 2 deletion vectors/, run.body.message);
    const now = await live("partial");
    assert.equal(now.deletes.length, 0, "no vector is left");
    const kept = [0, 1, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 14, 15, 18];
    assert.deepEqual(ids(await w.readRows("partial")), kept.map(BigInt), "icebird reads the rows the vectors kept");
    assert.equal(now.data[0].record_count, kept.length, "the new file's entry counts them");
    const lineage = await lineageOf(now.data[0].file_path);
    assert.deepEqual(lineage.map((r) => r.id), kept.map(BigInt), "the deleted rows are not in the new file");
    assert.deepEqual(lineage.map((r) => r._row_id), kept.map(BigInt), "each kept row keeps its row id");
    assert.deepEqual(lineage.map((r) => r.name), kept.map((i) => `n${i}`), "and its values");

    // The rewritten row groups keep min/max statistics, so engines can still skip them: the kept
    // rows' exact bounds (ids 0..4 without 2, 11..14, and 15 and 18), strings in byte order.
    const md = await footerOf(now.data[0].file_path);
    assert.deepEqual(md.row_groups.map((g) => Number(g.num_rows)), [4, 5, 4, 2], "a's, b's and c's two row groups");
    const bounds = (g, c) => {
      const s = md.row_groups[g].columns[c].meta_data.statistics;
      return [s.min_value, s.max_value, s.is_min_value_exact, s.is_max_value_exact, Number(s.null_count)];
    };
    for (const [g, lo, hi] of [[0, 0, 4], [2, 11, 14], [3, 15, 18]]) {
      assert.deepEqual(bounds(g, 0), [BigInt(lo), BigInt(hi), true, true, 0], `row group ${g}'s id bounds are exact`);
      assert.deepEqual(bounds(g, 1), [`n${lo}`, `n${hi}`, true, true, 0], `and its name bounds`);
      assert.deepEqual(bounds(g, 2).slice(0, 2).map((d) => d.getTime()), [BASE_MS + lo * 1000, BASE_MS + hi * 1000],
        `and its ts bounds`);
    }
  });

  test("gzip pages are decoded too; a codec Floe cannot decode keeps its file and vector, with the reason", async () => {
    await w.catalog.createTable({ namespace: [w.namespace] },
      { name: "codecs", schema: SCHEMA, properties: { "format-version": "3" } });
    const gzip = { codec: "GZIP", compressors: { GZIP: (b) => gzipSync(b) } }; // one codec: one bin
    const gz = await w.append("codecs", rows(0, 4), gzip);
    await w.append("codecs", rows(4, 8), gzip);
    // Labelled LZO (Floe decodes Brotli, LZ4_RAW, ZSTD, gzip and Snappy) but stored as is: no
    // engine could read these pages, but Floe refuses the codec before it reads one, which is what
    // this checks.
    const lzo = await w.append("codecs", rows(8, 12), { codec: "LZO", compressors: { LZO: (b) => b } });
    await w.deleteRows("codecs", [
      { dataPath: gz.dataPath, positions: [1] }, { dataPath: lzo.dataPath, positions: [2] },
    ]);
    const run = await runMaintenance(server, { arn: await w.tableArn("codecs"), type: "icebergCompaction" });
    assert.equal(run.body.status, "Successful", JSON.stringify(run.body));
    assert.match(run.body.message, /compacted 2 data files into 1; applied 1 deletion vectors/, run.body.message);
    assert.match(run.body.message, /1 files skipped, their deletion vectors cannot be applied \(column 0: The column chunk is compressed with LZO, which Floe does not decode\.\)/,
      run.body.message);
    const now = await live("codecs");
    assert.deepEqual(now.deletes.map((d) => d.referenced_data_file), [lzo.dataPath], "the LZO file keeps its vector");
    const moved = now.data.find((f) => f.file_path !== lzo.dataPath);
    const lineage = await lineageOf(moved.file_path);
    assert.deepEqual(lineage.map((r) => r.id), [0n, 2n, 3n, 4n, 5n, 6n, 7n], "the gzip file's deleted row is gone");
    assert.deepEqual(lineage.map((r) => r._row_id), [0n, 2n, 3n, 4n, 5n, 6n, 7n], "and the others keep their row ids");
  });

  test("ZSTD pages are decoded and the row group is written again as ZSTD", async () => {
    await w.catalog.createTable({ namespace: [w.namespace] },
      { name: "zstd", schema: SCHEMA, properties: { "format-version": "3" } });
    const zstd = { codec: "ZSTD", compressors: { ZSTD: zstdStored } };
    const a = await w.append("zstd", rows(0, 6), { ...zstd, rowGroupSize: 3 }); // row groups 0..2 and 3..5
    await w.append("zstd", rows(6, 10), zstd);
    await w.deleteRows("zstd", [{ dataPath: a.dataPath, positions: [1, 5] }]);
    const run = await runMaintenance(server, { arn: await w.tableArn("zstd"), type: "icebergCompaction" });
    assert.equal(run.body.status, "Successful", JSON.stringify(run.body));
    assert.match(run.body.message, /^compacted 2 data files into 1; applied 1 deletion vectors/, run.body.message);
    assert.doesNotMatch(run.body.message, /skipped/, run.body.message);
    const now = await live("zstd");
    assert.deepEqual(now.deletes, [], "the vector left the table");
    assert.equal(now.data.length, 1);
    const kept = [0n, 2n, 3n, 4n, 6n, 7n, 8n, 9n];
    const lineage = await lineageOf(now.data[0].file_path);
    assert.deepEqual(lineage.map((r) => r.id), kept, "the deleted rows are not in the new file");
    assert.deepEqual(lineage.map((r) => r._row_id), kept, "each kept row keeps its row id");
    assert.deepEqual(lineage.map((r) => r.name), kept.map((i) => `n${i}`), "and its values");
    const md = await footerOf(now.data[0].file_path);
    assert.deepEqual(md.row_groups.map((g) => g.columns[0].meta_data.codec), ["ZSTD", "ZSTD", "ZSTD"],
      "the rewritten row groups are ZSTD like the copied one");
  });

  test("a file that two live vectors name is left alone, with the reason", async () => {
    await w.catalog.createTable({ namespace: [w.namespace] },
      { name: "twice", schema: SCHEMA, properties: { "format-version": "3" } });
    const a = await w.append("twice", rows(0, 4), { rowGroupSize: 2 });
    await w.append("twice", rows(4, 8));
    await w.deleteRows("twice", [{ dataPath: a.dataPath, positions: [0, 1] }]);
    await w.deleteRows("twice", [{ dataPath: a.dataPath, positions: [2, 3] }]);
    const before = await live("twice");
    const run = await runMaintenance(server, { arn: await w.tableArn("twice"), type: "icebergCompaction" });
    assert.equal(run.body.status, "Successful", JSON.stringify(run.body));
    assert.match(run.body.message, /^nothing to compact; 1 files skipped, their deletion vectors cannot be applied \(it is named by several deletion vectors\)/,
      `the file is not rewritten and the message says so: ${run.body.message}`);
    const now = await live("twice");
    assert.equal(now.snap["snapshot-id"], before.snap["snapshot-id"], "nothing was committed");
  });
});

// Compaction end to end (icebergCompaction): a real Iceberg table of 40 small Parquet
// files (hyparquet-writer), partitioned by name, with a position delete file in one partition
// (manifests from avsc, commits through iceberg-js), compacted with POST /_floe/maintenance/run
// and read back with icebird. Checks that the rows are the same, the snapshot is a `replace`
// with the right summary counts and merged statistics, the position delete file is applied (its
// row left out of the new file) and leaves the table with the file it names, that a position
// delete file Floe cannot decode and an equality delete file keep their files with the reasons,
// that clients appending while compaction runs lose nothing, and that a corrupt Parquet footer
// fails the job cleanly. The files a compaction replaced are deleted once the
// snapshots that held them live expire (unreferenced file removal finds nothing keeping them), and
// every live file stays.
//
// Run: cd tests/e2e && npm ci && node --test maintenance/97-maintenance-compaction.mjs

import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, test } from "node:test";

import { FloeServer, importOrSkip } from "../floe_server.mjs";
import {
  IcebergWriter, MANIFEST_ENTRY, MANIFEST_FILE, SCHEMA, avroFile, longBound, missingPackages, parquetFile, readAvro,
  runMaintenance,
} from "../iceberg_writer.mjs";

const parquet = await importOrSkip("hyparquet-writer");
const s3tablesSdk = await importOrSkip("@aws-sdk/client-s3tables");

const N_EAST = 36, N_WEST = 4, FILES_PER_COMMIT = 4, ROWS_PER_FILE = 5;
const BASE_MS = Date.parse("2026-01-01T00:00:00Z");
const SPEC_FIELDS = [{ name: "name", transform: "identity", "source-id": 2, "field-id": 1000 }];
const SPEC = { "spec-id": 0, fields: SPEC_FIELDS };

/** MANIFEST_ENTRY with the partition tuple {name: string} of SPEC. */
const ENTRY = structuredClone(MANIFEST_ENTRY);
ENTRY.fields.find((f) => f.name === "data_file").type.fields.find((f) => f.name === "partition").type.fields = [
  { name: "name", type: ["null", "string"], default: null, "field-id": 1000 },
];
ENTRY.fields.find((f) => f.name === "data_file").type.fields.push(
  { name: "equality_ids", type: ["null", { type: "array", items: "int", "element-id": 136 }], default: null,
    "field-id": 135 },
);

const byId = (a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const plain = (rows) => JSON.stringify([...rows].sort(byId), (_, v) => (typeof v === "bigint" ? `${v}n` : v));

/** The rows of data file k: ids 5k..5k+4, one name for the file (its partition). */
function rowsOf(k, name) {
  return Array.from({ length: ROWS_PER_FILE }, (_, j) => {
    const id = k * ROWS_PER_FILE + j;
    return { id: BigInt(id), name, ts: j === 2 ? null : new Date(BASE_MS + id * 1000) };
  });
}

/** Column statistics of `rows` as a manifest entry carries them. */
function stats(rows) {
  const ids = rows.map((r) => r.id);
  const min = ids.reduce((a, b) => (b < a ? b : a)), max = ids.reduce((a, b) => (b > a ? b : a));
  return {
    value_counts: [1, 2, 3].map((key) => ({ key, value: rows.length })),
    null_value_counts: [{ key: 1, value: 0 }, { key: 2, value: 0 }, { key: 3, value: rows.filter((r) => !r.ts).length }],
    lower_bounds: [{ key: 1, value: longBound(min) }], upper_bounds: [{ key: 1, value: longBound(max) }],
  };
}

describe("compaction of a real Iceberg table", {
  skip: missingPackages.length || !parquet || !s3tablesSdk
    ? `npm packages missing: ${missingPackages.join(", ") || "hyparquet-writer"} (run npm ci in tests/e2e)` : false,
}, () => {
  let server, w;

  /** Commits one snapshot whose new manifest holds `entries` (content: "data" or "deletes"). */
  async function commit(table, entries, { content = "data", operation = "append" } = {}) {
    const md = await w.load(table);
    const snapshotId = IcebergWriter.newSnapshotId();
    const seq = md["last-sequence-number"] + 1;
    const manifestPath = `${md.location}/metadata/${randomUUID()}-m0.avro`;
    const manifest = await avroFile(ENTRY, entries.map((data_file) => ({
      status: 1, snapshot_id: snapshotId, sequence_number: null, file_sequence_number: null, data_file,
    })), {
      schema: JSON.stringify(SCHEMA), "partition-spec": JSON.stringify(SPEC_FIELDS), "partition-spec-id": "0",
      "format-version": "2", content,
    });
    await w.put(manifestPath, manifest);
    const parent = md.snapshots?.find((s) => s["snapshot-id"] === md["current-snapshot-id"]);
    const inherited = parent ? await readAvro(await w.get(parent["manifest-list"])) : [];
    const listPath = `${md.location}/metadata/snap-${snapshotId}-1-${randomUUID()}.avro`;
    const rows = entries.reduce((n, e) => n + e.record_count, 0);
    await w.put(listPath, await avroFile(MANIFEST_FILE, [...inherited, {
      manifest_path: manifestPath, manifest_length: manifest.length, partition_spec_id: 0,
      content: content === "data" ? 0 : 1, sequence_number: seq, min_sequence_number: seq,
      added_snapshot_id: snapshotId, added_files_count: entries.length, existing_files_count: 0,
      deleted_files_count: 0, added_rows_count: rows, existing_rows_count: 0, deleted_rows_count: 0,
    }], {
      "snapshot-id": String(snapshotId), "parent-snapshot-id": String(md["current-snapshot-id"] ?? "null"),
      "sequence-number": String(seq), "format-version": "2",
    }));
    const snapshot = {
      "snapshot-id": snapshotId, "sequence-number": seq, "timestamp-ms": Date.now(), "manifest-list": listPath,
      "schema-id": 0, summary: { operation },
    };
    if (parent)
      snapshot["parent-snapshot-id"] = parent["snapshot-id"];
    await w.commit(table, {
      requirements: [{ type: "assert-ref-snapshot-id", ref: "main", "snapshot-id": parent?.["snapshot-id"] ?? null }],
      updates: [{ action: "add-snapshot", snapshot },
        { action: "set-snapshot-ref", "ref-name": "main", type: "branch", "snapshot-id": snapshotId }],
    });
  }

  /** Writes data file k of partition `name`; returns its manifest entry's data_file. */
  async function dataFile(location, k, name) {
    const rows = rowsOf(k, name);
    const body = parquetFile(rows);
    const path = `${location}/data/${name}-${k}-${randomUUID()}.parquet`;
    await w.put(path, body);
    return {
      content: 0, file_path: path, file_format: "PARQUET", partition: { name }, record_count: rows.length,
      file_size_in_bytes: body.length, ...stats(rows),
    };
  }

  /** A position delete file (Iceberg's file_path/pos schema) removing row `pos` of `target`. */
  async function positionDelete(location, target, pos, codec = {}) {
    const body = Buffer.from(parquet.parquetWriteBuffer({
      ...codec,
      columnData: [{ name: "file_path", data: [target.file_path] }, { name: "pos", data: [BigInt(pos)] }],
      schema: [
        { name: "table", num_children: 2 },
        { name: "file_path", type: "BYTE_ARRAY", converted_type: "UTF8", repetition_type: "REQUIRED",
          field_id: 2147483546 },
        { name: "pos", type: "INT64", repetition_type: "REQUIRED", field_id: 2147483545 },
      ],
    }));
    const path = `${location}/data/west-deletes-${randomUUID()}.parquet`;
    await w.put(path, body);
    return {
      content: 1, file_path: path, file_format: "PARQUET", partition: target.partition, record_count: 1,
      file_size_in_bytes: body.length, value_counts: null, null_value_counts: null, lower_bounds: null,
      upper_bounds: null,
    };
  }

  /** An equality delete file of partition `name` deleting the row whose id is `id`. */
  async function equalityDelete(location, name, id) {
    const body = Buffer.from(parquet.parquetWriteBuffer({
      columnData: [{ name: "id", data: [BigInt(id)] }],
      schema: [
        { name: "table", num_children: 1 },
        { name: "id", type: "INT64", repetition_type: "REQUIRED", field_id: 1 },
      ],
    }));
    const path = `${location}/data/${name}-eq-deletes-${randomUUID()}.parquet`;
    await w.put(path, body);
    return {
      content: 2, file_path: path, file_format: "PARQUET", partition: { name }, record_count: 1,
      file_size_in_bytes: body.length, value_counts: null, null_value_counts: null, lower_bounds: null,
      upper_bounds: null, equality_ids: [1],
    };
  }

  async function setStrategy(table, strategy) {
    await w.s3tables.send(new s3tablesSdk.PutTableMaintenanceConfigurationCommand({
      tableBucketARN: w.bucketArn, namespace: w.namespace, name: table, type: "icebergCompaction",
      value: { status: "enabled", settings: { icebergCompaction: { targetFileSizeMB: 64, strategy } } },
    }));
  }

  before(async () => {
    server = new FloeServer();
    await server.start();
    w = await IcebergWriter.open(server, { bucket: "compaction", namespace: "sales" });
  });

  after(async () => {
    w?.close();
    await server?.cleanup();
  });

  test("40 small files become a few, with the same rows, in a replace snapshot with the right counts", async () => {
    await w.catalog.createTable({ namespace: [w.namespace] }, { name: "events", schema: SCHEMA, "partition-spec": SPEC });
    const { location } = await w.load("events");
    const east = [], west = [];
    for (let k = 0; k < N_EAST; k++)
      east.push(await dataFile(location, k, "east"));
    for (let k = N_EAST; k < N_EAST + N_WEST; k++)
      west.push(await dataFile(location, k, "west"));
    const all = [...east, ...west];
    for (let i = 0; i < all.length; i += FILES_PER_COMMIT)
      await commit("events", all.slice(i, i + FILES_PER_COMMIT));
    const deletes = await positionDelete(location, west[0], 1);
    await commit("events", [deletes], { content: "deletes", operation: "delete" });
    await setStrategy("events", "sort");
    const before = await w.readRows("events");
    assert.equal(before.length, (N_EAST + N_WEST) * ROWS_PER_FILE - 1, "the table reads 199 rows before compaction");
    const beforeMd = await w.load("events");

    const run = await runMaintenance(server, { arn: await w.tableArn("events"), type: "icebergCompaction" });
    assert.equal(run.status, 200, `the run answers 200: ${JSON.stringify(run.body)}`);
    assert.equal(run.body.status, "Successful", `the job succeeds: ${JSON.stringify(run.body)}`);
    assert.match(run.body.message, /compacted 40 data files into 2/, "the job says what it compacted");
    assert.match(run.body.message, /strategy sort ran as binpack/, "the job says sort ran as binpack");
    assert.match(run.body.message, /applied the position deletes of 4 data files, 1 position delete files removed/,
      "the job says it applied the position delete file of the west partition and removed it");
    assert.ok(run.body.metadataLocation, "the run reports the new metadata location");
    assert.ok(run.body.filesWritten >= 4 && run.body.bytesWritten > 0,
      "the figures count the new file, the new manifests, the manifest list and the metadata file");
    assert.ok(run.body.filesRead >= 41 && run.body.bytesRead > 0, "the figures count what the job read");
    const jobStatus = await w.s3tables.send(new s3tablesSdk.GetTableMaintenanceJobStatusCommand({
      tableBucketARN: w.bucketArn, namespace: w.namespace, name: "events",
    }));
    assert.equal(jobStatus.status.icebergCompaction.status, "Successful", "the job status says Successful");
    assert.ok(jobStatus.status.icebergCompaction.lastRunTimestamp, "and when it last ran");

    const md = await w.load("events");
    const snap = md.snapshots.find((s) => s["snapshot-id"] === md["current-snapshot-id"]);
    assert.equal(snap["parent-snapshot-id"], beforeMd["current-snapshot-id"], "the new snapshot follows the old one");
    assert.equal(snap["sequence-number"], beforeMd["last-sequence-number"] + 1, "it takes the next sequence number");
    const s = snap.summary;
    assert.equal(s.operation, "replace", "the compaction snapshot is a replace");
    const removedSize = east.reduce((n, f) => n + f.file_size_in_bytes, 0);
    const westSize = west.reduce((n, f) => n + f.file_size_in_bytes, 0);
    assert.deepEqual(
      [s["added-data-files"], s["deleted-data-files"], s["added-records"], s["deleted-records"], s["removed-files-size"]],
      ["2", "40", "199", "200", String(removedSize + westSize + deletes.file_size_in_bytes)],
      "added and deleted files, records and bytes (the delete file's too) are counted");
    assert.deepEqual(
      [s["removed-delete-files"], s["removed-position-delete-files"], s["removed-position-deletes"], s["removed-dvs"]],
      ["1", "1", "1", undefined], "the position delete file is counted as removed, and it is no deletion vector");
    assert.deepEqual(
      [s["total-data-files"], s["total-delete-files"], s["total-records"], s["total-position-deletes"],
        s["changed-partition-count"]],
      ["2", "0", "199", "0", "2"], "the totals describe the table after the replace");

    const after = await w.readRows("events");
    assert.equal(plain(after), plain(before), "icebird reads exactly the same rows after compaction");

    const list = await readAvro(await w.get(snap["manifest-list"]));
    const entries = [];
    for (const mf of list)
      for (const e of await readAvro(await w.get(mf.manifest_path)))
        entries.push({ ...e, manifestContent: mf.content });
    const added = entries.filter((e) => e.status === 1 && Number(e.snapshot_id) === snap["snapshot-id"]);
    const deleted = entries.filter((e) => e.status === 2);
    const live = entries.filter((e) => e.status !== 2 && e.data_file.content === 0);
    assert.equal(added.length, 2, "one new data file per partition is added by the new snapshot");
    assert.equal(deleted.length, 41, "the 40 data files and the position delete file are marked deleted");
    assert.ok(deleted.some((e) => e.data_file.file_path === deletes.file_path && e.manifestContent === 1),
      "the position delete file is DELETED in the rewritten delete manifest");
    assert.equal(entries.filter((e) => e.status !== 2 && e.data_file.content !== 0).length, 0, "no delete file is live");
    assert.equal(live.length, 2, "two data files are live: the new ones");
    const westFile = added.find((e) => e.data_file.partition.name === "west").data_file;
    assert.equal(westFile.record_count, 19, "the new west file holds the 19 west rows left after the delete");
    const westRows = after.filter((r) => r.name === "west").map((r) => Number(r.id));
    assert.ok(!westRows.includes(N_EAST * ROWS_PER_FILE + 1) && westRows.length === 19,
      "the deleted row (row 1 of the first west file) is not read back");
    const nf = added.find((e) => e.data_file.partition.name === "east").data_file;
    assert.equal(nf.record_count, 180, "the new file holds the 180 east rows");
    assert.equal(nf.partition.name, "east", "the new file keeps its partition");
    assert.ok(nf.file_size_in_bytes < removedSize, "the new file is smaller than the 36 it replaces");
    const bound = (list, key) => list.find((b) => b.key === key)?.value;
    assert.deepEqual(bound(nf.lower_bounds, 1), longBound(0), "the id lower bound is the least of the inputs'");
    assert.deepEqual(bound(nf.upper_bounds, 1), longBound(N_EAST * ROWS_PER_FILE - 1),
      "the id upper bound is the greatest of the inputs'");
    assert.equal(Number(bound(nf.value_counts, 1)), 180, "value counts are summed");
    assert.equal(Number(bound(nf.null_value_counts, 3)), N_EAST, "null counts are summed");
    assert.equal(nf.split_offsets?.length, N_EAST, "one split offset per row group (one per input here)");
    assert.equal(Number(nf.split_offsets[0]), 4, "the first row group starts after the magic");
    const bytes = await w.get(nf.file_path);
    assert.equal(bytes.length, Number(nf.file_size_in_bytes), "the entry's size is the file's");
    assert.equal(bytes.subarray(0, 4).toString(), "PAR1", "the new file starts as Parquet does");
    assert.equal(bytes.subarray(bytes.length - 4).toString(), "PAR1", "and ends as Parquet does");
    assert.equal(await w.status(east[0].file_path), 200, "the replaced files stay until snapshot expiration");

    const again = await runMaintenance(server, { arn: await w.tableArn("events"), type: "icebergCompaction" });
    assert.equal(again.body.status, "Successful", "a second run succeeds");
    assert.match(again.body.message, /nothing to compact/, "and has nothing left to compact");
    assert.equal((await w.load("events"))["current-snapshot-id"], md["current-snapshot-id"],
      "a run with nothing to do commits nothing");
  });

  test("the files compaction replaced are gone after expiration and unreferenced file removal; live ones stay", async () => {
    const DAY_MS = 86400000, N_FILES = 40;
    const iso = (ms) => new Date(ms).toISOString();
    await w.createTable("replaced");
    const appended = [];
    for (let k = 0; k < N_FILES; k++)
      appended.push(await w.append("replaced", rowsOf(k, "r")));
    const before = await w.readRows("replaced");
    const arn = await w.tableArn("replaced");
    const start = Date.now();

    const compacted = await runMaintenance(server, { arn, type: "icebergCompaction" });
    assert.equal(compacted.body.status, "Successful", `compaction succeeds: ${JSON.stringify(compacted.body)}`);
    assert.match(compacted.body.message, /compacted 40 data files into 1/, "the 40 files are compacted into one");
    const expired = await runMaintenance(server, { arn, type: "icebergSnapshotManagement", now: iso(start + 6 * DAY_MS) });
    assert.equal(expired.body.status, "Successful", `expiration succeeds: ${JSON.stringify(expired.body)}`);
    assert.equal(expired.body.snapshotsExpired, N_FILES, "the 40 append snapshots expire; compaction's replace stays");
    for (const days of [4, 15]) {
      const removal = await runMaintenance(server,
        { arn, type: "icebergUnreferencedFileRemoval", now: iso(start + days * DAY_MS) });
      assert.equal(removal.body.status, "Successful", `removal at +${days} days succeeds: ${JSON.stringify(removal.body)}`);
    }

    for (const a of appended)
      assert.equal(await w.status(a.dataPath), 404, "a data file compaction replaced answers 404 over S3");
    const md = await w.load("replaced");
    const snap = md.snapshots.find((s) => s["snapshot-id"] === md["current-snapshot-id"]);
    assert.equal(md.snapshots.length, 1, "only compaction's snapshot is left");
    assert.equal(await w.status(snap["manifest-list"]), 200, "its manifest list still reads");
    const live = [];
    for (const mf of await readAvro(await w.get(snap["manifest-list"]))) {
      assert.equal(await w.status(mf.manifest_path), 200, "every manifest it lists still reads");
      for (const e of await readAvro(await w.get(mf.manifest_path)))
        if (e.status !== 2)
          live.push(e.data_file.file_path);
    }
    assert.equal(live.length, 1, "one live data file: the one compaction wrote");
    for (const path of live)
      assert.equal(await w.status(path), 200, "every live data file still reads");
    assert.equal(plain(await w.readRows("replaced")), plain(before), "the table reads the same 200 rows");
  });

  test("appends racing compaction all land exactly once", async (t) => {
    await w.createTable("racing");
    const WRITERS = 3, APPENDS = 6;
    let writing = true, runs = 0, compacted = 0;
    const writers = Array.from({ length: WRITERS }, async (_, wi) => {
      for (let a = 0; a < APPENDS; a++)
        await w.append("racing", rowsOf(wi * 100 + a, `w${wi}`));
    });
    const compactor = (async () => {
      while (writing) {
        const run = await runMaintenance(server, { arn: await w.tableArn("racing"), type: "icebergCompaction" });
        assert.equal(run.body.status, "Successful", `compaction succeeds while clients commit: ${JSON.stringify(run.body)}`);
        runs++;
        compacted += /compacted/.test(run.body.message) ? 1 : 0;
      }
    })();
    await Promise.all(writers);
    writing = false;
    await compactor;
    const last = await runMaintenance(server, { arn: await w.tableArn("racing"), type: "icebergCompaction" });
    assert.equal(last.body.status, "Successful", "a last compaction succeeds");
    const ids = (await w.readRows("racing")).map((r) => r.id).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const expected = [];
    for (let wi = 0; wi < WRITERS; wi++)
      for (let a = 0; a < APPENDS; a++)
        expected.push(...rowsOf(wi * 100 + a, "").map((r) => r.id));
    expected.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    assert.deepEqual(ids, expected, "every acknowledged append is read once, none lost, none duplicated");
    assert.ok(runs > 0, "compaction ran while the clients committed");
    t.diagnostic(`${runs} compaction runs during the appends, ${compacted} of them compacted`);
    const md = await w.load("racing");
    const snap = md.snapshots.find((s) => s["snapshot-id"] === md["current-snapshot-id"]);
    assert.equal(snap.summary.operation, "replace", "the last snapshot is compaction's replace");
    assert.equal(snap.summary["total-data-files"], "1", "all the appended files end in one");
  });

  test("a format version 3 table is compacted with its rows' row ids and sequence numbers written out", async () => {
    await w.catalog.createTable({ namespace: [w.namespace] },
      { name: "lineage", schema: SCHEMA, properties: { "format-version": "3" } });
    for (let k = 0; k < 3; k++)
      await w.append("lineage", rowsOf(k, "x"));
    const before = await w.load("lineage");
    assert.equal(before["format-version"], 3, "the table is v3");
    assert.equal(before["next-row-id"], 3 * ROWS_PER_FILE, "each append advanced next-row-id by its rows");
    assert.deepEqual(before.snapshots.map((s) => s["first-row-id"]), [0, 5, 10], "and got its first-row-id");
    const rowsBefore = await w.readRows("lineage");

    const run = await runMaintenance(server, { arn: await w.tableArn("lineage"), type: "icebergCompaction" });
    assert.equal(run.body.status, "Successful", `the job ends without error: ${JSON.stringify(run.body)}`);
    assert.match(run.body.message, /compacted 3 data files into 1/, "the three files become one");
    const md = await w.load("lineage");
    const snap = md.snapshots.find((s) => s["snapshot-id"] === md["current-snapshot-id"]);
    assert.equal(snap.summary.operation, "replace", "compaction committed a replace");
    assert.equal(snap["first-row-id"], 15, "the replace snapshot starts at the table's next-row-id");
    assert.equal(snap["added-rows"], 15, "its new manifest's rows were given ids");
    assert.equal(md["next-row-id"], 30, "and next-row-id moved past them");
    assert.equal(plain(await w.readRows("lineage")), plain(rowsBefore), "icebird reads the same rows");

    const list = await readAvro(await w.get(snap["manifest-list"]));
    assert.ok(list.every((m) => m.content !== 0 || m.first_row_id != null), "every data manifest has a first_row_id");
    const added = [];
    for (const m of list)
      for (const e of await readAvro(await w.get(m.manifest_path)))
        if (e.status === 1) added.push(e.data_file);
    assert.equal(added.length, 1, "one new data file");
    const { parquetReadObjects } = await import("hyparquet");
    const body = await w.get(added[0].file_path);
    const rows = await parquetReadObjects({
      file: body.buffer.slice(body.byteOffset, body.byteOffset + body.length),
      columns: ["id", "_row_id", "_last_updated_sequence_number"],
    });
    assert.deepEqual(rows.map((r) => r._row_id), Array.from({ length: 15 }, (_, i) => BigInt(i)),
      "each row keeps the row id it inherited (first-row-id + position)");
    assert.deepEqual(rows.map((r) => r._last_updated_sequence_number),
      Array.from({ length: 15 }, (_, i) => BigInt(1 + Math.floor(i / ROWS_PER_FILE))),
      "and the sequence number of the snapshot that added it");
    assert.deepEqual(rows.map((r) => r.id), Array.from({ length: 15 }, (_, i) => BigInt(i)), "in the inputs' order");

    const again = await runMaintenance(server, { arn: await w.tableArn("lineage"), type: "icebergCompaction" });
    assert.equal(again.body.status, "Successful", JSON.stringify(again.body));
  });

  test("a position delete file Floe cannot decode keeps the files it applies to, and equality deletes skip their partition, with the reasons", async () => {
    await w.catalog.createTable({ namespace: [w.namespace] }, { name: "skips", schema: SCHEMA, "partition-spec": SPEC });
    const { location } = await w.load("skips");
    const files = [];
    for (const [k, name] of [[0, "east"], [1, "east"], [2, "west"], [3, "west"], [4, "north"], [5, "north"]])
      files.push(await dataFile(location, k, name));
    await commit("skips", files);
    // Labelled LZO (Floe decodes Brotli, LZ4_RAW, ZSTD, gzip and Snappy) but stored as is: Floe refuses the codec before it reads a page.
    const lzo = await positionDelete(location, files[2], 1, { codec: "LZO", compressors: { LZO: (b) => b } });
    const eq = await equalityDelete(location, "north", 21);
    await commit("skips", [lzo, eq], { content: "deletes", operation: "delete" });

    const run = await runMaintenance(server, { arn: await w.tableArn("skips"), type: "icebergCompaction" });
    assert.equal(run.body.status, "Successful", JSON.stringify(run.body));
    assert.match(run.body.message, /compacted 2 data files into 1/, "the east files are compacted");
    assert.match(run.body.message,
      /2 files skipped, their position delete files cannot be applied \(.*LZO, which Floe does not decode/,
      "the west files, which the LZO delete file applies to, stay, and the message says why");
    assert.match(run.body.message,
      /partition \('north'\): skipped, it has equality delete files, which compaction does not apply/,
      "the north partition is skipped for its equality delete file, and the message says so");
    const md = await w.load("skips");
    const snap = md.snapshots.find((x) => x["snapshot-id"] === md["current-snapshot-id"]);
    const live = [];
    for (const mf of await readAvro(await w.get(snap["manifest-list"])))
      for (const e of await readAvro(await w.get(mf.manifest_path)))
        if (e.status !== 2)
          live.push(e.data_file.file_path);
    for (const f of [files[2], files[3], files[4], files[5], lzo, eq])
      assert.ok(live.includes(f.file_path), `${f.file_path} stays live`);
    assert.equal(snap.summary["removed-delete-files"], undefined, "no delete file is removed");
  });

  test("a corrupt Parquet footer fails the job cleanly and leaves the table as it was", async () => {
    await w.createTable("broken");
    let last;
    for (let k = 0; k < 3; k++)
      last = await w.append("broken", rowsOf(k, "x"));
    const good = await w.get(last.dataPath);
    const bad = Buffer.from(good);
    bad.fill(0xff, bad.length - 8 - 24, bad.length - 8); /* the end of the FileMetaData */
    await w.put(last.dataPath, bad);
    const before = await w.load("broken");

    const run = await runMaintenance(server, { arn: await w.tableArn("broken"), type: "icebergCompaction" });
    assert.equal(run.status, 200, "the run answers with the job's status");
    assert.equal(run.body.status, "Failed", "the job fails");
    assert.match(run.body.failureMessage, /bad Parquet footer/, "the message names the bad footer");
    assert.ok(run.body.failureMessage.includes(last.dataPath), "the message names the file");
    const md = await w.load("broken");
    assert.equal(md["current-snapshot-id"], before["current-snapshot-id"], "the table keeps its snapshot");
    assert.equal(md["metadata-log"]?.length ?? 0, before["metadata-log"]?.length ?? 0, "no metadata was committed");
    const health = await fetch(`${server.endpoint}/_floe/health`);
    assert.equal(health.status, 200, "the server is healthy after the failed job");
    const status = await w.s3tables.send(new s3tablesSdk.GetTableMaintenanceJobStatusCommand({
      tableBucketARN: w.bucketArn, namespace: w.namespace, name: "broken",
    }));
    assert.equal(status.status.icebergCompaction.status, "Failed", "the job status says Failed");
    assert.match(status.status.icebergCompaction.failure ?? status.status.icebergCompaction.failureMessage ?? "",
      /bad Parquet footer/, "and carries the message");
  });
});

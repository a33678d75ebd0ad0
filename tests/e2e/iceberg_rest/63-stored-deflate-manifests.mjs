// Manifests whose deflate stream is a single stored block read back through the tests' reader.
// zlib writes a stored block for incompressible data (a one-entry manifest can be one), and Floe's
// own manifests are deflate-coded. icebird inflates Avro blocks with hyparquet-compressors'
// gunzip, which reads past such a stream ("offset is out of bounds"); the tests' reader
// (iceberg_writer.mjs: icebirdFetch, readAvro) must read it whole, as zlib and avsc do, so no e2e
// test that reads Floe's manifests can fail at random.
//
// Run: cd tests/e2e && npm ci && node --test iceberg_rest/63-stored-deflate-manifests.mjs

import assert from "node:assert/strict";
import { randomBytes, randomUUID } from "node:crypto";
import { after, before, describe, test } from "node:test";

import { FloeServer, importOrSkip } from "../floe_server.mjs";
import {
  IcebergWriter, MANIFEST_ENTRY, MANIFEST_FILE, SCHEMA, inflateAvro, missingPackages, parquetFile, readAvro,
} from "../iceberg_writer.mjs";

const avro = (await importOrSkip("avsc"))?.default;
const icebird = await importOrSkip("icebird");

/* gunzip starts with a 1024-byte output and, when a stored block leaves part of it unfilled, decodes
 * the input again from past its end: a stored block of 513 to 1023 bytes then overruns the output. */
const INCOMPRESSIBLE_BYTES = 600;

/** MANIFEST_ENTRY with data_file.key_metadata (optional bytes, field 131), to carry random bytes. */
const ENTRY = structuredClone(MANIFEST_ENTRY);
ENTRY.fields.find((f) => f.name === "data_file").type.fields.push(
  { name: "key_metadata", type: ["null", "bytes"], default: null, "field-id": 131 });

/** An Avro container file of `records` coded with deflate (zlib's raw deflate, as Floe writes). */
function deflateAvroFile(schema, records, metadata) {
  return new Promise((resolve, reject) => {
    const meta = Object.fromEntries(Object.entries(metadata).map(([k, v]) => [k, Buffer.from(v)]));
    const encoder = new avro.streams.BlockEncoder(schema, { codec: "deflate", metadata: meta });
    const chunks = [];
    encoder.on("data", (chunk) => chunks.push(chunk));
    encoder.on("end", () => resolve(Buffer.concat(chunks)));
    encoder.on("error", reject);
    for (const record of records)
      encoder.write(record);
    encoder.end();
  });
}

/** True when `raw` (a raw deflate stream) is exactly one final stored block. */
function isOneStoredBlock(raw) {
  const isFinal = raw[0] & 1, type = (raw[0] >> 1) & 3, len = raw[1] | (raw[2] << 8);
  return isFinal === 1 && type === 0 && len + 5 === raw.length;
}

/** The raw deflate stream of an Avro container holding one block: the bytes between the block's
 * size and its sync marker (the file ends with that marker, 16 bytes). */
function onlyBlockData(buffer) {
  const sync = buffer.subarray(buffer.length - 16);
  const headerEnd = buffer.indexOf(sync) + 16;
  let at = headerEnd;
  const long = () => {
    let n = 0, shift = 0, b;
    do {
      b = buffer[at++];
      n += (b & 0x7f) * 2 ** shift;
      shift += 7;
    } while (b & 0x80);
    return n / 2;
  };
  long(); /* the record count */
  const size = long();
  return buffer.subarray(at, at + size);
}

describe("a manifest that is one stored deflate block reads through the tests' reader", {
  skip: missingPackages.length || !avro || !icebird
    ? `npm packages missing: ${missingPackages.join(", ")} (run npm ci in tests/e2e)` : false,
}, () => {
  let server, w;

  before(async () => {
    server = new FloeServer();
    await server.start();
    w = await IcebergWriter.open(server, { bucket: "stored-deflate", namespace: "sales" });
  });

  after(async () => {
    w?.close();
    await server?.cleanup();
  });

  test("icebird and avsc read every row and entry of a table whose manifest is one stored block", async (t) => {
    await w.createTable("incompressible");
    const md = await w.load("incompressible");
    const snapshotId = IcebergWriter.newSnapshotId(), seq = md["last-sequence-number"] + 1;
    const rows = [{ id: 7n, name: "stored", ts: new Date("2026-01-01T00:00:00Z") }];
    const data = parquetFile(rows);
    const dataPath = `${md.location}/data/${randomUUID()}.parquet`;
    await w.put(dataPath, data);
    const manifest = await deflateAvroFile(ENTRY, [{
      status: 1, snapshot_id: snapshotId, sequence_number: null, file_sequence_number: null,
      data_file: {
        content: 0, file_path: dataPath, file_format: "PARQUET", partition: {}, record_count: rows.length,
        file_size_in_bytes: data.length, value_counts: null, null_value_counts: null, lower_bounds: null,
        upper_bounds: null, key_metadata: randomBytes(INCOMPRESSIBLE_BYTES),
      },
    }], {
      schema: JSON.stringify(SCHEMA), "partition-spec": "[]", "partition-spec-id": "0", "format-version": "2",
      content: "data",
    });
    assert.ok(isOneStoredBlock(onlyBlockData(manifest)),
      "the one-entry manifest of incompressible bytes is a single stored deflate block, as zlib writes it");
    try {
      const reader = { view: new DataView(manifest.buffer, manifest.byteOffset, manifest.byteLength), offset: 0 };
      const { metadata, syncMarker } = await icebird.avroMetadata(reader);
      icebird.avroRead({ reader, metadata, syncMarker });
      t.diagnostic("icebird's own Avro decoder read the stored block");
    } catch (err) {
      t.diagnostic(`icebird's own Avro decoder fails on it: ${err.message}`);
    }

    const manifestPath = `${md.location}/metadata/${randomUUID()}-m0.avro`;
    await w.put(manifestPath, manifest);
    const listPath = `${md.location}/metadata/snap-${snapshotId}-1-${randomUUID()}.avro`;
    await w.put(listPath, await deflateAvroFile(MANIFEST_FILE, [{
      manifest_path: manifestPath, manifest_length: manifest.length, partition_spec_id: 0, content: 0,
      sequence_number: seq, min_sequence_number: seq, added_snapshot_id: snapshotId, added_files_count: 1,
      existing_files_count: 0, deleted_files_count: 0, added_rows_count: rows.length, existing_rows_count: 0,
      deleted_rows_count: 0,
    }], { "snapshot-id": String(snapshotId), "parent-snapshot-id": "null", "sequence-number": String(seq),
      "format-version": "2" }));
    await w.commit("incompressible", {
      requirements: [{ type: "assert-ref-snapshot-id", ref: "main", "snapshot-id": null }],
      updates: [
        { action: "add-snapshot", snapshot: { "snapshot-id": snapshotId, "sequence-number": seq,
          "timestamp-ms": Date.now(), "manifest-list": listPath, "schema-id": 0, summary: { operation: "append" } } },
        { action: "set-snapshot-ref", "ref-name": "main", type: "branch", "snapshot-id": snapshotId },
      ],
    });

    const entries = await readAvro(await w.get(manifestPath));
    assert.equal(entries.length, 1, "avsc reads the manifest's one entry");
    assert.equal(entries[0].data_file.key_metadata.length, INCOMPRESSIBLE_BYTES, "with every byte of it");
    const inflated = await readAvro(inflateAvro(manifest));
    const plain = (list) => JSON.stringify(list, (_, v) => (typeof v === "bigint" ? String(v) : v));
    assert.equal(plain(inflated), plain(entries), "the inflated file icebird is handed holds the same entries");
    const read = await w.readRows("incompressible");
    assert.deepEqual(read.map((r) => [r.id, r.name]), [[7n, "stored"]], "icebird reads the table's row through it");
  });
});

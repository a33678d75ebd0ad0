// Writes real Iceberg tables into a running Floe the way an engine does, for the maintenance tests
// (tests/e2e/9N-maintenance-*.mjs) and anyone else who needs a table with snapshots, manifests and
// Parquet files in it: Parquet data files from hyparquet-writer (with Iceberg field ids), Avro
// manifests (with column statistics: value and null counts, lower and upper bounds in Iceberg's
// single-value binary form) and manifest lists from avsc, PUT into the table's warehouse with
// @aws-sdk/client-s3, committed with add-snapshot + set-snapshot-ref through iceberg-js, and read
// back with icebird. What it is not for: checking the catalog itself (iceberg_rest/60-iceberg-rest.mjs does).
//
// Usage:
//   const w = await IcebergWriter.open(server, { bucket: "maint", namespace: "sales" });  // null: skip
//   await w.createTable("events");
//   const snap = await w.append("events", [{ id: 1n, name: "a", ts: new Date("2026-01-01") }],
//                               { timestampMs: Date.parse("2026-01-01") });
//   const rows = await w.readRows("events");
//   const job = await runMaintenance(server, { arn: await w.tableArn("events"), type: "icebergSnapshotManagement" });
//   w.close();

import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { crc32, inflateRawSync } from "node:zlib";

import { REGION, clientConfig, importOrSkip, s3tablesClient } from "./floe_server.mjs";

const iceberg = await importOrSkip("iceberg-js");
const s3sdk = await importOrSkip("@aws-sdk/client-s3");
const s3tablesSdk = await importOrSkip("@aws-sdk/client-s3tables");
const avro = (await importOrSkip("avsc"))?.default;
const parquet = await importOrSkip("hyparquet-writer");
const icebird = await importOrSkip("icebird");

/** The npm packages this module needs that are not installed (empty when all are). */
export const missingPackages = [["iceberg-js", iceberg], ["@aws-sdk/client-s3", s3sdk],
  ["@aws-sdk/client-s3tables", s3tablesSdk], ["avsc", avro], ["hyparquet-writer", parquet], ["icebird", icebird]]
  .filter(([, mod]) => !mod).map(([name]) => name);

/** The default table schema: an id, a name and an event time (the record-expiration column). */
export const SCHEMA = {
  type: "struct", "schema-id": 0,
  fields: [
    { id: 1, name: "id", type: "long", required: true },
    { id: 2, name: "name", type: "string", required: false },
    { id: 3, name: "ts", type: "timestamptz", required: false },
  ],
};

/** SCHEMA with a list column: tags, an optional list of optional strings (rows' `tags`). */
export const TAGGED_SCHEMA = {
  ...SCHEMA,
  fields: [...SCHEMA.fields,
    { id: 4, name: "tags", type: { type: "list", "element-id": 5, element: "string", "element-required": false },
      required: false }],
};

// ---- Avro schemas of the Iceberg spec ("Manifests", "Manifest Lists"), format version 2 ----

/** An optional Iceberg map<int, T> as Avro writes it: an array of key/value records. */
const intMap = (fieldId, keyId, valueId, valueType) => ({
  name: undefined, "field-id": fieldId, default: null,
  type: ["null", {
    type: "array", logicalType: "map", items: {
      type: "record", name: `k${keyId}_v${valueId}`, fields: [
        { name: "key", type: "int", "field-id": keyId },
        { name: "value", type: valueType, "field-id": valueId },
      ],
    },
  }],
});

export const MANIFEST_ENTRY = {
  type: "record", name: "manifest_entry", fields: [
    { name: "status", type: "int", "field-id": 0 },
    { name: "snapshot_id", type: ["null", "long"], default: null, "field-id": 1 },
    { name: "sequence_number", type: ["null", "long"], default: null, "field-id": 3 },
    { name: "file_sequence_number", type: ["null", "long"], default: null, "field-id": 4 },
    {
      name: "data_file", "field-id": 2, type: {
        type: "record", name: "r2", fields: [
          { name: "content", type: "int", "field-id": 134 },
          { name: "file_path", type: "string", "field-id": 100 },
          { name: "file_format", type: "string", "field-id": 101 },
          { name: "partition", type: { type: "record", name: "r102", fields: [] }, "field-id": 102 },
          { name: "record_count", type: "long", "field-id": 103 },
          { name: "file_size_in_bytes", type: "long", "field-id": 104 },
          { ...intMap(109, 119, 120, "long"), name: "value_counts" },
          { ...intMap(110, 121, 122, "long"), name: "null_value_counts" },
          { ...intMap(125, 126, 127, "bytes"), name: "lower_bounds" },
          { ...intMap(128, 129, 130, "bytes"), name: "upper_bounds" },
        ],
      },
    },
  ],
};

export const MANIFEST_FILE = {
  type: "record", name: "manifest_file", fields: [
    { name: "manifest_path", type: "string", "field-id": 500 },
    { name: "manifest_length", type: "long", "field-id": 501 },
    { name: "partition_spec_id", type: "int", "field-id": 502 },
    { name: "content", type: "int", "field-id": 517 },
    { name: "sequence_number", type: "long", "field-id": 515 },
    { name: "min_sequence_number", type: "long", "field-id": 516 },
    { name: "added_snapshot_id", type: "long", "field-id": 503 },
    { name: "added_files_count", type: "int", "field-id": 504 },
    { name: "existing_files_count", type: "int", "field-id": 505 },
    { name: "deleted_files_count", type: "int", "field-id": 506 },
    { name: "added_rows_count", type: "long", "field-id": 512 },
    { name: "existing_rows_count", type: "long", "field-id": 513 },
    { name: "deleted_rows_count", type: "long", "field-id": 514 },
  ],
};

/** The v3 manifest entry: row lineage (first_row_id) and a deletion vector's place in its Puffin file. */
export const MANIFEST_ENTRY_V3 = structuredClone(MANIFEST_ENTRY);
MANIFEST_ENTRY_V3.fields.find((f) => f.name === "data_file").type.fields.push(
  { name: "first_row_id", type: ["null", "long"], default: null, "field-id": 142 },
  { name: "referenced_data_file", type: ["null", "string"], default: null, "field-id": 143 },
  { name: "content_offset", type: ["null", "long"], default: null, "field-id": 144 },
  { name: "content_size_in_bytes", type: ["null", "long"], default: null, "field-id": 145 },
);

/** The v3 manifest list entry: the first row id the manifest's inheriting data files start from. */
export const MANIFEST_FILE_V3 = structuredClone(MANIFEST_FILE);
MANIFEST_FILE_V3.fields.push({ name: "first_row_id", type: ["null", "long"], default: null, "field-id": 520 });

/** An Avro object container file of `records`, with the header metadata Iceberg readers look for. */
export function avroFile(schema, records, metadata) {
  return new Promise((resolve, reject) => {
    const meta = Object.fromEntries(Object.entries(metadata).map(([k, v]) => [k, Buffer.from(v)]));
    const encoder = new avro.streams.BlockEncoder(schema, { metadata: meta });
    const chunks = [];
    encoder.on("data", (chunk) => chunks.push(chunk));
    encoder.on("end", () => resolve(Buffer.concat(chunks)));
    encoder.on("error", reject);
    for (const record of records)
      encoder.write(record);
    encoder.end();
  });
}

/** The records of an Avro object container file. */
export function readAvro(buffer) {
  return new Promise((resolve, reject) => {
    const decoder = new avro.streams.BlockDecoder();
    const records = [];
    decoder.on("data", (record) => records.push(record));
    decoder.on("end", () => resolve(records));
    decoder.on("error", reject);
    decoder.end(buffer);
  });
}

// ---- Avro for icebird ----
//
// icebird (0.3.1) inflates an Avro file's deflate blocks with hyparquet-compressors' gunzip
// (1.1.1). On a raw deflate stream that is a single stored block, which zlib writes for
// incompressible data (a one-entry manifest, say), it reads on past the stream's end looking for
// another gzip member and throws "offset is out of bounds". The file is valid (zlib and avsc read
// it), so the tests hand icebird the same file with its blocks inflated by zlib.

const AVRO_MAGIC = Buffer.from("Obj\x01", "latin1");
const AVRO_SYNC_LEN = 16;

/** Reads an Avro long (zigzag varint) at r.at. */
function readLong(buf, r) {
  let n = 0, shift = 0, b;
  do {
    if (r.at >= buf.length)
      throw new Error("truncated Avro file");
    b = buf[r.at++];
    n += (b & 0x7f) * 2 ** shift;
    shift += 7;
  } while (b & 0x80);
  return n % 2 ? -(n + 1) / 2 : n / 2;
}

/** An Avro long (zigzag varint). */
function writeLong(n) {
  let z = n >= 0 ? n * 2 : -n * 2 - 1;
  const out = [];
  do {
    const low = z % 128;
    z = Math.floor(z / 128);
    out.push(z > 0 ? low | 0x80 : low);
  } while (z > 0);
  return Buffer.from(out);
}

const readBytes = (buf, r) => {
  const len = readLong(buf, r);
  const out = buf.subarray(r.at, r.at + len);
  r.at += len;
  return out;
};
const withLength = (bytes) => [writeLong(bytes.length), bytes];

/**
 * The Avro object container file `buffer` with its deflate blocks inflated (by zlib) and its codec
 * set to "null"; every other byte of the header (the schema, Iceberg's metadata) is kept. A file
 * that is not deflate-coded is returned as is.
 */
export function inflateAvro(buffer) {
  const buf = Buffer.from(buffer);
  if (buf.length < AVRO_MAGIC.length || !buf.subarray(0, AVRO_MAGIC.length).equals(AVRO_MAGIC))
    return buf;
  const r = { at: AVRO_MAGIC.length }, meta = [];
  for (let count; (count = readLong(buf, r)) !== 0;) {
    if (count < 0) {
      count = -count;
      readLong(buf, r); /* the block's size in bytes */
    }
    for (let i = 0; i < count; i++)
      meta.push([readBytes(buf, r), readBytes(buf, r)]);
  }
  const codec = meta.find(([k]) => k.toString() === "avro.codec");
  if (!codec || codec[1].toString() !== "deflate")
    return buf;
  codec[1] = Buffer.from("null");
  const sync = buf.subarray(r.at, r.at + AVRO_SYNC_LEN);
  r.at += AVRO_SYNC_LEN;
  const out = [AVRO_MAGIC, writeLong(meta.length)];
  for (const [k, v] of meta)
    out.push(...withLength(k), ...withLength(v));
  out.push(writeLong(0), sync);
  while (r.at < buf.length) {
    const count = readLong(buf, r);
    const data = inflateRawSync(readBytes(buf, r));
    out.push(writeLong(count), ...withLength(data), buf.subarray(r.at, r.at + AVRO_SYNC_LEN));
    r.at += AVRO_SYNC_LEN;
  }
  return Buffer.concat(out);
}

/**
 * A fetch for icebird, which reads https://<bucket>.s3.amazonaws.com/<key>: sends such a URL to
 * Floe's S3 (`endpoint`), path-style, and hands icebird the Avro files it reads (manifest lists,
 * manifests) with their blocks inflated (inflateAvro). Anything else goes to `realFetch` as is.
 * `onRequest(url, init)`, when given, sees each request sent to Floe.
 */
export function icebirdFetch(realFetch, endpoint, onRequest) {
  return async (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    const m = /^https:\/\/([^./]+)\.s3\.amazonaws\.com\/(.*)$/.exec(url);
    if (!m)
      return realFetch(input, init);
    onRequest?.(url, init);
    const resp = await realFetch(`${endpoint}/${m[1]}/${m[2]}`, init);
    if (resp.status !== 200 || !m[2].endsWith(".avro"))
      return resp;
    const body = inflateAvro(Buffer.from(await resp.arrayBuffer()));
    return new Response(body, { status: 200, headers: { "content-type": resp.headers.get("content-type") ?? "" } });
  };
}

/** A long (or timestamp in microseconds) in Iceberg's single-value binary form: 8 bytes, little-endian. */
export function longBound(value) {
  const b = Buffer.alloc(8);
  b.writeBigInt64LE(BigInt(value));
  return b;
}

/** Microseconds since the epoch of a Date (or of milliseconds). */
export const micros = (t) => BigInt(t instanceof Date ? t.getTime() : t) * 1000n;

/** A Parquet file of rows {id: bigint, name: string|null, ts: Date|null} with SCHEMA's field ids
 * (row groups of `rowGroupSize` rows, and `codec` with hyparquet-writer's `compressors`, when given);
 * with `tagged`, rows also have tags (string|null)[]|null, TAGGED_SCHEMA's list column. */
export function parquetFile(rows, { rowGroupSize, codec, compressors, tagged } = {}) {
  return Buffer.from(parquet.parquetWriteBuffer({
    ...(rowGroupSize ? { rowGroupSize } : {}),
    ...(codec ? { codec, compressors } : {}),
    columnData: [
      { name: "id", data: rows.map((r) => r.id), nullable: false },
      { name: "name", data: rows.map((r) => r.name ?? null) },
      { name: "ts", data: rows.map((r) => (r.ts ? micros(r.ts) : null)) },
      ...(tagged ? [{ name: "tags", data: rows.map((r) => r.tags ?? null) }] : []),
    ],
    schema: [
      { name: "table", num_children: tagged ? 4 : 3 },
      { name: "id", type: "INT64", repetition_type: "REQUIRED", field_id: 1 },
      { name: "name", type: "BYTE_ARRAY", converted_type: "UTF8", repetition_type: "OPTIONAL", field_id: 2 },
      { name: "ts", type: "INT64", converted_type: "TIMESTAMP_MICROS", repetition_type: "OPTIONAL", field_id: 3 },
      ...(tagged ? [
        { name: "tags", repetition_type: "OPTIONAL", converted_type: "LIST", num_children: 1, field_id: 4 },
        { name: "list", repetition_type: "REPEATED", num_children: 1 },
        { name: "element", type: "BYTE_ARRAY", converted_type: "UTF8", repetition_type: "OPTIONAL", field_id: 5 },
      ] : []),
    ],
    kvMetadata: [{ key: "iceberg.schema", value: JSON.stringify(tagged ? TAGGED_SCHEMA : SCHEMA) }],
  }));
}

/** The smallest table schema: an id and a name (what a plain append writes). */
export const ID_NAME_SCHEMA = {
  type: "struct", "schema-id": 0,
  fields: [
    { id: 1, name: "id", type: "long", required: true },
    { id: 2, name: "name", type: "string", required: false },
  ],
};

/** A Parquet file of rows {id: bigint, name: string} with ID_NAME_SCHEMA's field ids, in a table of
 * `schema` (ID_NAME_SCHEMA, or a wider one whose other columns are absent, as Iceberg allows). */
export function idNameParquetFile(rows, schema = ID_NAME_SCHEMA) {
  return Buffer.from(parquet.parquetWriteBuffer({
    columnData: [
      { name: "id", data: rows.map((r) => r.id), nullable: false },
      { name: "name", data: rows.map((r) => r.name) },
    ],
    schema: [
      { name: "table", num_children: 2 },
      { name: "id", type: "INT64", repetition_type: "REQUIRED", field_id: 1 },
      { name: "name", type: "BYTE_ARRAY", converted_type: "UTF8", repetition_type: "OPTIONAL", field_id: 2 },
    ],
    kvMetadata: [{ key: "iceberg.schema", value: JSON.stringify(schema) }],
  }));
}

/** The column statistics of `rows` for a manifest entry: counts and id/ts bounds. */
function columnStats(rows) {
  const ids = rows.map((r) => BigInt(r.id));
  const times = rows.filter((r) => r.ts).map((r) => micros(r.ts));
  const min = (xs) => xs.reduce((a, b) => (b < a ? b : a));
  const max = (xs) => xs.reduce((a, b) => (b > a ? b : a));
  const lower = [{ key: 1, value: longBound(min(ids)) }], upper = [{ key: 1, value: longBound(max(ids)) }];
  if (times.length) {
    lower.push({ key: 3, value: longBound(min(times)) });
    upper.push({ key: 3, value: longBound(max(times)) });
  }
  return {
    value_counts: [1, 2, 3].map((key) => ({ key, value: rows.length })),
    null_value_counts: [
      { key: 1, value: 0 }, { key: 2, value: rows.filter((r) => r.name == null).length },
      { key: 3, value: rows.length - times.length },
    ],
    lower_bounds: lower, upper_bounds: upper,
  };
}

/**
 * A deletion-vector-v1 blob (Iceberg spec v3, "Deletion Vectors") of ascending row positions below
 * 2^32: length, magic, a 64-bit Roaring bitmap in the portable format (one 32-bit bitmap of array
 * containers, cookie 12346), CRC-32 of magic and bitmap.
 */
export function deletionVectorBlob(positions) {
  const containers = new Map();
  for (const p of positions) {
    const key = Math.floor(p / 65536);
    if (!containers.has(key))
      containers.set(key, []);
    containers.get(key).push(p % 65536);
  }
  const keys = [...containers.keys()].sort((a, b) => a - b);
  const u16 = (v) => { const b = Buffer.alloc(2); b.writeUInt16LE(v); return b; };
  const u32 = (v) => { const b = Buffer.alloc(4); b.writeUInt32LE(v); return b; };
  const header = [u32(12346), u32(keys.length), ...keys.flatMap((k) => [u16(k), u16(containers.get(k).length - 1)])];
  let offset = 8 + keys.length * 4 + keys.length * 4;
  const offsets = keys.map((k) => { const o = offset; offset += containers.get(k).length * 2; return u32(o); });
  const bitmap = Buffer.concat([...header, ...offsets, ...keys.flatMap((k) => containers.get(k).map(u16))]);
  const count = Buffer.alloc(8);
  count.writeBigUInt64LE(1n);
  const body = Buffer.concat([Buffer.from([0xD1, 0xD3, 0x39, 0x64]), count, u32(0), bitmap]);
  const length = Buffer.alloc(4), crc = Buffer.alloc(4);
  length.writeUInt32BE(body.length);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A Puffin file (Puffin spec) of deletion vectors, one per {dataPath, positions}: returns
 * {body, blobs: [{dataPath, offset, length, cardinality}]}.
 */
export function puffinFile(vectors) {
  const magic = Buffer.from("PFA1");
  const parts = [magic], blobs = [];
  let offset = magic.length;
  for (const { dataPath, positions } of vectors) {
    const blob = deletionVectorBlob(positions);
    blobs.push({ dataPath, offset, length: blob.length, cardinality: positions.length });
    parts.push(blob);
    offset += blob.length;
  }
  const footer = Buffer.from(JSON.stringify({
    blobs: blobs.map((b) => ({
      type: "deletion-vector-v1", fields: [2147483645], "snapshot-id": -1, "sequence-number": -1,
      offset: b.offset, length: b.length,
      properties: { "referenced-data-file": b.dataPath, cardinality: String(b.cardinality) },
    })),
    properties: { "created-by": "floe tests/e2e/iceberg_writer.mjs" },
  }));
  const size = Buffer.alloc(4), flags = Buffer.alloc(4);
  size.writeUInt32LE(footer.length);
  parts.push(magic, footer, size, flags, magic);
  return { body: Buffer.concat(parts), blobs };
}

/** "s3://bucket/key" -> {bucket, key}. */
export function splitS3(url) {
  const rest = url.slice("s3://".length);
  const slash = rest.indexOf("/");
  return { bucket: rest.slice(0, slash), key: rest.slice(slash + 1) };
}

/** POST /_floe/maintenance/run: {status (HTTP), body (parsed JSON or text)}. */
export async function runMaintenance(server, request) {
  const resp = await fetch(`${server.endpoint}/_floe/maintenance/run`, {
    method: "POST", headers: { "content-type": "application/json" },
    body: typeof request === "string" ? request : JSON.stringify(request),
  });
  const text = await resp.text();
  let body = text;
  try {
    body = JSON.parse(text);
  } catch { /* not JSON: keep the text */ }
  return { status: resp.status, body };
}

let nextSnapshotId = Date.now() * 1000; // below 2^53: JSON.parse keeps it exact

/** A writer of Iceberg tables in one namespace of one table bucket of a running Floe. */
export class IcebergWriter {
  /** Creates the bucket and namespace; null when a package is missing (the caller skips). */
  static async open(server, { bucket = "maint", namespace = "sales" } = {}) {
    if (missingPackages.length)
      return null;
    const w = new IcebergWriter();
    w.server = server;
    w.namespace = namespace;
    w.s3 = new s3sdk.S3Client({ ...clientConfig(server), forcePathStyle: true });
    w.s3tables = s3tablesClient(s3tablesSdk, server);
    w.bucketArn = (await w.s3tables.send(new s3tablesSdk.CreateTableBucketCommand({ name: bucket }))).arn;
    w.catalog = new iceberg.IcebergRestCatalog({
      baseUrl: `${server.endpoint}/_floe/iceberg`, catalogName: encodeURIComponent(w.bucketArn),
      auth: { type: "none" },
    });
    await w.catalog.createNamespace({ namespace: [namespace] });
    w.realFetch = globalThis.fetch;
    w.routeIcebirdToFloe();
    return w;
  }

  close() {
    globalThis.fetch = this.realFetch;
    this.s3?.destroy();
    this.s3tables?.destroy();
  }

  static newSnapshotId() {
    return nextSnapshotId++;
  }

  /** icebird reads https://<bucket>.s3.amazonaws.com/<key>; send it to Floe's S3 (icebirdFetch). */
  routeIcebirdToFloe() {
    globalThis.fetch = icebirdFetch(this.realFetch, this.server.endpoint);
  }

  /** Sends an S3 Tables API command by name: w.send("GetTableMaintenanceJobStatusCommand", {...}). */
  send(command, input) {
    return this.s3tables.send(new s3tablesSdk[command](input));
  }

  /** {tableBucketARN, namespace, name} of a table, for S3 Tables API inputs. */
  where(name) {
    return { tableBucketARN: this.bucketArn, namespace: this.namespace, name };
  }

  createTable(name, schema = SCHEMA) {
    return this.catalog.createTable({ namespace: [this.namespace] }, { name, schema });
  }

  load(name) {
    return this.catalog.loadTable({ namespace: [this.namespace], name });
  }

  commit(name, request) {
    return this.catalog.updateTable({ namespace: [this.namespace], name }, request);
  }

  async tableArn(name) {
    const t = await this.s3tables.send(new s3tablesSdk.GetTableCommand({
      tableBucketARN: this.bucketArn, namespace: this.namespace, name,
    }));
    return t.tableARN;
  }

  async put(s3url, body) {
    const { bucket, key } = splitS3(s3url);
    await this.s3.send(new s3sdk.PutObjectCommand({ Bucket: bucket, Key: key, Body: body }));
  }

  async get(s3url) {
    const { bucket, key } = splitS3(s3url);
    const resp = await this.s3.send(new s3sdk.GetObjectCommand({ Bucket: bucket, Key: key }));
    return Buffer.from(await resp.Body.transformToByteArray());
  }

  /** The HTTP status a plain GET of the object gets from Floe's S3 (200, or 404 once deleted). */
  async status(s3url) {
    const { bucket, key } = splitS3(s3url);
    const resp = await this.realFetch(`${this.server.endpoint}/${bucket}/${key}`);
    await resp.arrayBuffer();
    return resp.status;
  }

  /** Every key of the table's warehouse bucket (listing a warehouse needs `floe serve --warehouse-s3 full`). */
  async listKeys(name) {
    const md = await this.load(name);
    const { bucket } = splitS3(`${md.location}/`);
    const keys = [];
    let token;
    do {
      const page = await this.s3.send(new s3sdk.ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }));
      keys.push(...(page.Contents ?? []).map((o) => o.Key));
      token = page.NextContinuationToken;
    } while (token);
    return keys;
  }

  /** Writes rows as one Parquet data file and its manifest (with column statistics). */
  async writeDataFile(md, rows, snapshotId, parquetOptions = {}) {
    const dataPath = `${md.location}/data/${randomUUID()}.parquet`;
    const data = parquetFile(rows, parquetOptions);
    await this.put(dataPath, data);
    const manifestPath = `${md.location}/metadata/${randomUUID()}-m0.avro`;
    const v3 = md["format-version"] >= 3;
    const manifest = await avroFile(v3 ? MANIFEST_ENTRY_V3 : MANIFEST_ENTRY, [{
      status: 1, snapshot_id: snapshotId, sequence_number: null, file_sequence_number: null,
      data_file: {
        content: 0, file_path: dataPath, file_format: "PARQUET", partition: {},
        record_count: rows.length, file_size_in_bytes: data.length, ...columnStats(rows),
      },
    }], {
      schema: JSON.stringify(parquetOptions.tagged ? TAGGED_SCHEMA : SCHEMA), "partition-spec": "[]",
      "partition-spec-id": "0", "format-version": v3 ? "3" : "2", content: "data",
    });
    await this.put(manifestPath, manifest);
    return { dataPath, manifestPath, manifestLength: manifest.length, rows: rows.length };
  }

  /** Writes a new snapshot's manifest list: the parent's manifests plus `added`. */
  async writeManifestList(md, snapshotId, seq, added) {
    const parent = md.snapshots?.find((s) => s["snapshot-id"] === md["current-snapshot-id"]);
    const inherited = parent ? await readAvro(await this.get(parent["manifest-list"])) : [];
    const path = `${md.location}/metadata/snap-${snapshotId}-1-${randomUUID()}.avro`;
    const v3 = md["format-version"] >= 3;
    // v3: the new manifest's files inherit row ids from the table's next-row-id (the snapshot's first-row-id)
    const lineage = v3 ? { first_row_id: md["next-row-id"] } : {};
    const list = await avroFile(v3 ? MANIFEST_FILE_V3 : MANIFEST_FILE, [...inherited, {
      ...lineage,
      manifest_path: added.manifestPath, manifest_length: added.manifestLength, partition_spec_id: 0, content: 0,
      sequence_number: seq, min_sequence_number: seq, added_snapshot_id: snapshotId, added_files_count: 1,
      existing_files_count: 0, deleted_files_count: 0, added_rows_count: added.rows, existing_rows_count: 0,
      deleted_rows_count: 0,
    }], {
      "snapshot-id": String(snapshotId), "parent-snapshot-id": String(md["current-snapshot-id"] ?? "null"),
      "sequence-number": String(seq), "format-version": v3 ? "3" : "2",
      ...(v3 ? { "first-row-id": String(md["next-row-id"]) } : {}),
    });
    await this.put(path, list);
    return path;
  }

  /**
   * Appends rows as one data file in a new snapshot (timestamp-ms `timestampMs`, default now).
   * A 409 (a concurrent commit), or a parent manifest list that maintenance expired meanwhile,
   * reloads and retries up to `retries` times. `summary` replaces the snapshot's summary (the spec
   * requires only `operation`; DuckDB 1.4 writes no more). Returns
   * {snapshotId, dataPath, manifestPath, manifestListPath, metadata}.
   */
  async append(name, rows, { timestampMs = Date.now(), retries = 20, rowGroupSize, codec, compressors, tagged, summary } = {}) {
    const snapshotId = IcebergWriter.newSnapshotId();
    let md = await this.load(name);
    const added = await this.writeDataFile(md, rows, snapshotId, { rowGroupSize, codec, compressors, tagged });
    for (let attempt = 0; ; attempt++) {
      const seq = md["last-sequence-number"] + 1;
      const parent = md.refs?.main?.["snapshot-id"] ?? null;
      let manifestListPath;
      try {
        manifestListPath = await this.writeManifestList(md, snapshotId, seq, added);
      } catch (err) {
        // the parent's manifest list was expired since the load: reload, as an engine refreshes
        if (err.name !== "NoSuchKey" || attempt >= retries)
          throw err;
        md = await this.load(name);
        continue;
      }
      const snapshot = {
        "snapshot-id": snapshotId, "sequence-number": seq, "timestamp-ms": timestampMs,
        "manifest-list": manifestListPath, "schema-id": 0,
        summary: summary ?? { operation: "append", "added-data-files": "1", "added-records": String(rows.length) },
      };
      if (parent !== null)
        snapshot["parent-snapshot-id"] = parent;
      if (md["format-version"] >= 3) { // row lineage: the list gave the new manifest next-row-id
        snapshot["first-row-id"] = md["next-row-id"];
        snapshot["added-rows"] = rows.length;
      }
      try {
        const resp = await this.commit(name, {
          requirements: [
            { type: "assert-table-uuid", uuid: md["table-uuid"] },
            { type: "assert-ref-snapshot-id", ref: "main", "snapshot-id": parent },
          ],
          updates: [
            { action: "add-snapshot", snapshot },
            { action: "set-snapshot-ref", "ref-name": "main", type: "branch", "snapshot-id": snapshotId },
          ],
        });
        return { snapshotId, ...added, manifestListPath, metadata: resp.metadata };
      } catch (err) {
        if (err.status !== 409 || attempt >= retries)
          throw err;
        md = await this.load(name);
      }
    }
  }

  /**
   * Deletes rows of a v3 table's data files with deletion vectors, as merge-on-read writers do:
   * one Puffin file with a vector per {dataPath, positions}, one delete manifest, a `delete`
   * snapshot. Returns {snapshotId, puffinPath, manifestPath}.
   */
  async deleteRows(name, vectors) {
    const md = await this.load(name);
    const snapshotId = IcebergWriter.newSnapshotId();
    const seq = md["last-sequence-number"] + 1;
    const parent = md.snapshots.find((s) => s["snapshot-id"] === md["current-snapshot-id"]);
    const puffin = puffinFile(vectors);
    const puffinPath = `${md.location}/data/${randomUUID()}-deletes.puffin`;
    await this.put(puffinPath, puffin.body);
    const manifestPath = `${md.location}/metadata/${randomUUID()}-m0.avro`;
    const manifest = await avroFile(MANIFEST_ENTRY_V3, puffin.blobs.map((b) => ({
      status: 1, snapshot_id: snapshotId, sequence_number: null, file_sequence_number: null,
      data_file: {
        content: 1, file_path: puffinPath, file_format: "PUFFIN", partition: {}, record_count: b.cardinality,
        file_size_in_bytes: puffin.body.length, value_counts: null, null_value_counts: null, lower_bounds: null,
        upper_bounds: null, first_row_id: null, referenced_data_file: b.dataPath, content_offset: b.offset,
        content_size_in_bytes: b.length,
      },
    })), {
      schema: JSON.stringify(SCHEMA), "partition-spec": "[]", "partition-spec-id": "0", "format-version": "3",
      content: "deletes",
    });
    await this.put(manifestPath, manifest);
    const inherited = await readAvro(await this.get(parent["manifest-list"]));
    const deleted = puffin.blobs.reduce((n, b) => n + b.cardinality, 0);
    const listPath = `${md.location}/metadata/snap-${snapshotId}-1-${randomUUID()}.avro`;
    await this.put(listPath, await avroFile(MANIFEST_FILE_V3, [...inherited, {
      manifest_path: manifestPath, manifest_length: manifest.length, partition_spec_id: 0, content: 1,
      sequence_number: seq, min_sequence_number: seq, added_snapshot_id: snapshotId,
      added_files_count: puffin.blobs.length, existing_files_count: 0, deleted_files_count: 0,
      added_rows_count: deleted, existing_rows_count: 0, deleted_rows_count: 0, first_row_id: null,
    }], {
      "snapshot-id": String(snapshotId), "parent-snapshot-id": String(parent["snapshot-id"]),
      "sequence-number": String(seq), "format-version": "3", "first-row-id": String(md["next-row-id"]),
    }));
    await this.commit(name, {
      requirements: [{ type: "assert-ref-snapshot-id", ref: "main", "snapshot-id": parent["snapshot-id"] }],
      updates: [
        { action: "add-snapshot", snapshot: {
          "snapshot-id": snapshotId, "parent-snapshot-id": parent["snapshot-id"], "sequence-number": seq,
          "timestamp-ms": Date.now(), "manifest-list": listPath, "schema-id": 0, "first-row-id": md["next-row-id"],
          "added-rows": 0,
          summary: { operation: "delete", "added-delete-files": String(puffin.blobs.length),
            "added-dvs": String(puffin.blobs.length), "added-position-deletes": String(deleted) },
        } },
        { action: "set-snapshot-ref", "ref-name": "main", type: "branch", "snapshot-id": snapshotId },
      ],
    });
    return { snapshotId, puffinPath, manifestPath };
  }

  /**
   * Removes the data file at `dataPath` (a v2 table's, written by append) in a `delete` snapshot, as
   * a copy-on-write delete of all its rows does: its manifest is replaced by one that lists it as
   * DELETED. `summary` as for append. Returns {snapshotId, manifestPath, manifestListPath}.
   */
  async deleteFile(name, dataPath, { timestampMs = Date.now(), summary } = {}) {
    const md = await this.load(name);
    const snapshotId = IcebergWriter.newSnapshotId();
    const seq = md["last-sequence-number"] + 1;
    const parent = md.snapshots.find((s) => s["snapshot-id"] === md["current-snapshot-id"]);
    const listed = await readAvro(await this.get(parent["manifest-list"]));
    let removed = null;
    for (const m of listed) {
      const entry = (await readAvro(await this.get(m.manifest_path))).find((e) => e.data_file.file_path === dataPath);
      if (entry) removed = { m, entry };
    }
    assert.ok(removed, `${dataPath} is a live file of ${name}`);
    const manifestPath = `${md.location}/metadata/${randomUUID()}-m0.avro`;
    const file = removed.entry.data_file;
    const manifest = await avroFile(MANIFEST_ENTRY, [{
      status: 2, snapshot_id: snapshotId, sequence_number: removed.m.sequence_number,
      file_sequence_number: removed.m.sequence_number, data_file: file,
    }], {
      schema: JSON.stringify(SCHEMA), "partition-spec": "[]", "partition-spec-id": "0", "format-version": "2",
      content: "data",
    });
    await this.put(manifestPath, manifest);
    const manifestListPath = `${md.location}/metadata/snap-${snapshotId}-1-${randomUUID()}.avro`;
    await this.put(manifestListPath, await avroFile(MANIFEST_FILE, [...listed.filter((m) => m !== removed.m), {
      manifest_path: manifestPath, manifest_length: manifest.length, partition_spec_id: 0, content: 0,
      sequence_number: seq, min_sequence_number: removed.m.sequence_number, added_snapshot_id: snapshotId,
      added_files_count: 0, existing_files_count: 0, deleted_files_count: 1, added_rows_count: 0,
      existing_rows_count: 0, deleted_rows_count: Number(file.record_count),
    }], {
      "snapshot-id": String(snapshotId), "parent-snapshot-id": String(parent["snapshot-id"]),
      "sequence-number": String(seq), "format-version": "2",
    }));
    await this.commit(name, {
      requirements: [{ type: "assert-ref-snapshot-id", ref: "main", "snapshot-id": parent["snapshot-id"] }],
      updates: [
        { action: "add-snapshot", snapshot: {
          "snapshot-id": snapshotId, "parent-snapshot-id": parent["snapshot-id"], "sequence-number": seq,
          "timestamp-ms": timestampMs, "manifest-list": manifestListPath, "schema-id": 0,
          summary: summary ?? { operation: "delete", "deleted-data-files": "1", "deleted-records": String(file.record_count) },
        } },
        { action: "set-snapshot-ref", "ref-name": "main", type: "branch", "snapshot-id": snapshotId },
      ],
    });
    return { snapshotId, manifestPath, manifestListPath };
  }

  /** The table's rows as icebird reads them at the current snapshot. */
  async readRows(name) {
    const md = await this.load(name);
    if (md["current-snapshot-id"] == null || md["current-snapshot-id"] === -1)
      return [];
    return icebird.icebergRead({ tableUrl: md.location, metadata: md });
  }
}

export { REGION };

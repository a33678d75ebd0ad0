// The Iceberg REST catalog end to end with real JavaScript clients: iceberg-js for namespaces,
// tables, loads and commits (unsigned on /_floe/iceberg and SigV4-signed for s3tables on /iceberg);
// an append written the way an engine writes one (a Parquet data file from hyparquet-writer with
// Iceberg field ids, an Avro manifest and manifest list from avsc, PUT into the warehouse with
// @aws-sdk/client-s3, then add-snapshot + set-snapshot-ref over REST) and read back with icebird
// through Floe's S3 with Range requests; two writers racing on one table; multi-table transactions;
// and the S3 Tables API (@aws-sdk/client-s3tables) seeing and moving the same metadata pointer.
// iceberg_rest/61-iceberg-rest.py covers the wire-level cases (error shapes, 501s, pagination, strict mode).
//
// Run: cd tests/e2e && npm ci && node --test iceberg_rest/60-iceberg-rest.mjs

import assert from "node:assert/strict";
import { createHash, createHmac, randomUUID } from "node:crypto";
import { after, before, describe, test } from "node:test";

import { FloeServer, REGION, clientConfig, importOrSkip, s3tablesClient } from "../floe_server.mjs";
import {
  ID_NAME_SCHEMA, MANIFEST_ENTRY, MANIFEST_FILE, avroFile, icebirdFetch, idNameParquetFile, readAvro, splitS3,
} from "../iceberg_writer.mjs";

const iceberg = await importOrSkip("iceberg-js");
const s3sdk = await importOrSkip("@aws-sdk/client-s3");
const s3tablesSdk = await importOrSkip("@aws-sdk/client-s3tables");
const avro = (await importOrSkip("avsc"))?.default;
const parquet = await importOrSkip("hyparquet-writer");
const icebird = await importOrSkip("icebird");
const sigv4 = await importOrSkip("@smithy/signature-v4");
const missing = [["iceberg-js", iceberg], ["@aws-sdk/client-s3", s3sdk], ["@aws-sdk/client-s3tables", s3tablesSdk],
  ["avsc", avro], ["hyparquet-writer", parquet], ["icebird", icebird], ["@smithy/signature-v4", sigv4]]
  .filter(([, mod]) => !mod).map(([name]) => name);

const SCHEMA = ID_NAME_SCHEMA;
const parquetFile = idNameParquetFile;

/** A SHA-256 for @smithy/signature-v4 (the SDK's own hash packages are not direct dependencies). */
class Sha256 {
  constructor(secret) {
    this.hash = secret ? createHmac("sha256", secret) : createHash("sha256");
  }
  update(data) {
    this.hash.update(data);
  }
  async digest() {
    return new Uint8Array(this.hash.digest());
  }
}

/** A fetch that signs each request with SigV4 for the service s3tables, as AWS's endpoint wants. */
function signingFetch() {
  const signer = new sigv4.SignatureV4({
    service: "s3tables", region: REGION, sha256: Sha256, uriEscapePath: true,
    credentials: { accessKeyId: "floe-test", secretAccessKey: "floe-test" },
  });
  return async (input, init = {}) => {
    const url = new URL(input);
    const query = Object.fromEntries(url.searchParams.entries());
    const signed = await signer.sign({
      method: init.method ?? "GET", protocol: url.protocol, hostname: url.hostname, port: Number(url.port),
      path: url.pathname, query, headers: { host: url.host, ...(init.headers ?? {}) }, body: init.body,
    });
    return fetch(input, { ...init, headers: signed.headers });
  };
}

describe("the Iceberg REST catalog with iceberg-js, hyparquet-writer, avsc and icebird",
  { skip: missing.length ? `not installed: ${missing.join(", ")} (run npm ci in tests/e2e)` : false }, () => {
    let server, s3, s3tables, bucketArn, catalog, signedCatalog;
    const realFetch = globalThis.fetch;
    const rangeRequests = [];

    const send = (client, sdk, command, input) => client.send(new sdk[command](input));
    const catalogFor = (base, fetchImpl) => new iceberg.IcebergRestCatalog({
      baseUrl: `${server.endpoint}${base}`, catalogName: encodeURIComponent(bucketArn), auth: { type: "none" },
      fetch: fetchImpl,
    });

    /** The next free sequence number and the current snapshot of loaded table metadata. */
    const head = (md) => ({
      seq: md["last-sequence-number"] + 1,
      parent: md.refs?.main?.["snapshot-id"] ?? null,
    });

    /** Writes rows as one Parquet data file and its manifest into the table's warehouse. */
    async function writeDataAndManifest(md, rows, snapshotId) {
      const dataPath = `${md.location}/data/${randomUUID()}.parquet`;
      const data = parquetFile(rows);
      await put(dataPath, data);
      const manifestPath = `${md.location}/metadata/${randomUUID()}-m0.avro`;
      const manifest = await avroFile(MANIFEST_ENTRY, [{
        status: 1, snapshot_id: snapshotId, sequence_number: null, file_sequence_number: null,
        data_file: {
          content: 0, file_path: dataPath, file_format: "PARQUET", partition: {},
          record_count: rows.length, file_size_in_bytes: data.length,
        },
      }], {
        schema: JSON.stringify(SCHEMA), "partition-spec": "[]", "partition-spec-id": "0", "format-version": "2",
        content: "data",
      });
      await put(manifestPath, manifest);
      return { manifestPath, manifestLength: manifest.length, rows: rows.length };
    }

    /** Writes the manifest list of a new snapshot: the parent's manifests plus `added`. */
    async function writeManifestList(md, snapshotId, seq, added) {
      const parent = md.snapshots?.find((s) => s["snapshot-id"] === md["current-snapshot-id"]);
      const inherited = parent ? await readAvro(await get(parent["manifest-list"])) : [];
      const path = `${md.location}/metadata/snap-${snapshotId}-1-${randomUUID()}.avro`;
      const list = await avroFile(MANIFEST_FILE, [...inherited, {
        manifest_path: added.manifestPath, manifest_length: added.manifestLength, partition_spec_id: 0, content: 0,
        sequence_number: seq, min_sequence_number: seq, added_snapshot_id: snapshotId, added_files_count: 1,
        existing_files_count: 0, deleted_files_count: 0, added_rows_count: added.rows, existing_rows_count: 0,
        deleted_rows_count: 0,
      }], {
        "snapshot-id": String(snapshotId), "parent-snapshot-id": String(md["current-snapshot-id"] ?? "null"),
        "sequence-number": String(seq), "format-version": "2",
      });
      await put(path, list);
      return path;
    }

    /** The commit of an append: add-snapshot and set-snapshot-ref main, guarded by main's head. */
    async function appendCommit(md, snapshotId, added) {
      const { seq, parent } = head(md);
      const manifestList = await writeManifestList(md, snapshotId, seq, added);
      const snapshot = {
        "snapshot-id": snapshotId, "sequence-number": seq, "timestamp-ms": Date.now(), "manifest-list": manifestList,
        summary: { operation: "append", "added-data-files": "1", "added-records": String(added.rows) }, "schema-id": 0,
      };
      if (parent !== null)
        snapshot["parent-snapshot-id"] = parent;
      return {
        requirements: [
          { type: "assert-table-uuid", uuid: md["table-uuid"] },
          { type: "assert-ref-snapshot-id", ref: "main", "snapshot-id": parent },
        ],
        updates: [
          { action: "add-snapshot", snapshot },
          { action: "set-snapshot-ref", "ref-name": "main", type: "branch", "snapshot-id": snapshotId },
        ],
      };
    }

    let nextSnapshotId = Date.now() * 1000; // below 2^53: JSON.parse keeps it exact
    const newSnapshotId = () => nextSnapshotId++;

    const put = (s3url, body) => {
      const { bucket, key } = splitS3(s3url);
      return send(s3, s3sdk, "PutObjectCommand", { Bucket: bucket, Key: key, Body: body });
    };
    const get = async (s3url) => {
      const { bucket, key } = splitS3(s3url);
      const resp = await send(s3, s3sdk, "GetObjectCommand", { Bucket: bucket, Key: key });
      return Buffer.from(await resp.Body.transformToByteArray());
    };

    /** icebird reads https://<bucket>.s3.amazonaws.com/<key>; send it to Floe's S3, path-style. */
    function routeIcebirdToFloe() {
      globalThis.fetch = icebirdFetch(realFetch, server.endpoint, (url, init) => {
        const range = new Headers(init?.headers ?? {}).get("range");
        if (range)
          rangeRequests.push(range);
      });
    }

    const createTable = (ns, name) => catalog.createTable({ namespace: [ns] }, { name, schema: SCHEMA });
    const load = (ns, name) => catalog.loadTable({ namespace: [ns], name });
    const commit = (ns, name, request) => catalog.updateTable({ namespace: [ns], name }, request);

    /** Asserts the promise fails with an IcebergError of the given HTTP status and spec type. */
    async function rejectsWith(promise, status, type) {
      await assert.rejects(promise, (err) => {
        assert.ok(err instanceof iceberg.IcebergError, `an IcebergError, not ${err}`);
        assert.equal(err.status, status, `HTTP ${status} (${err.message})`);
        assert.equal(err.icebergType, type, `error type ${type}`);
        assert.equal(err.icebergCode, status, "the error body's code is the HTTP status");
        return true;
      });
    }

    before(async () => {
      server = new FloeServer();
      await server.start();
      s3 = new s3sdk.S3Client({ ...clientConfig(server), forcePathStyle: true });
      s3tables = s3tablesClient(s3tablesSdk, server);
      bucketArn = (await send(s3tables, s3tablesSdk, "CreateTableBucketCommand", { name: "rest-home" })).arn;
      catalog = catalogFor("/_floe/iceberg");
      signedCatalog = catalogFor("/iceberg", signingFetch());
      await catalog.createNamespace({ namespace: ["sales"] });
      routeIcebirdToFloe();
    });

    after(async () => {
      globalThis.fetch = realFetch;
      s3?.destroy();
      s3tables?.destroy();
      await server?.cleanup();
    });

    // -- namespaces ------------------------------------------------------------------------------

    test("namespaces: create with properties, list, load, exists, drop", async () => {
      const created = await catalog.createNamespace({ namespace: ["marketing"] }, { properties: { owner: "data-team" } });
      assert.deepEqual(created, { namespace: ["marketing"], properties: { owner: "data-team" } },
        "createNamespace answers the namespace and the stored properties");
      const names = (await catalog.listNamespaces()).map((n) => n.namespace);
      assert.ok(names.some((n) => n[0] === "marketing") && names.some((n) => n[0] === "sales"),
        "listNamespaces lists every namespace of the bucket");
      assert.deepEqual(await catalog.loadNamespaceMetadata({ namespace: ["marketing"] }),
        { properties: { owner: "data-team" } }, "loadNamespaceMetadata returns the properties");
      assert.equal(await catalog.namespaceExists({ namespace: ["marketing"] }), true, "an existing namespace exists");
      await catalog.dropNamespace({ namespace: ["marketing"] });
      assert.equal(await catalog.namespaceExists({ namespace: ["marketing"] }), false, "a dropped namespace is gone");
    });

    test("namespaces: a duplicate is 409 AlreadyExists, a missing one 404, a non-empty one cannot be dropped", async () => {
      await rejectsWith(catalog.createNamespace({ namespace: ["sales"] }), 409, "AlreadyExistsException");
      await rejectsWith(catalog.loadNamespaceMetadata({ namespace: ["nowhere"] }), 404, "NoSuchNamespaceException");
      await catalog.createNamespace({ namespace: ["busy"] });
      await createTable("busy", "t");
      await rejectsWith(catalog.dropNamespace({ namespace: ["busy"] }), 409, "NamespaceNotEmptyException");
    });

    test("namespaces: a namespace made over REST is an S3 Tables namespace", async () => {
      await catalog.createNamespace({ namespace: ["shared_ns"] });
      const got = await send(s3tables, s3tablesSdk, "GetNamespaceCommand", { tableBucketARN: bucketArn, namespace: "shared_ns" });
      assert.deepEqual(got.namespace, ["shared_ns"], "GetNamespace finds the namespace createNamespace made");
    });

    // -- tables ----------------------------------------------------------------------------------

    test("tables: create, list, load, exists, drop (purge required)", async () => {
      const md = await createTable("sales", "orders");
      assert.equal(md["format-version"], 2, "a new table is Iceberg format version 2");
      assert.match(md.location, /^s3:\/\/[0-9a-z-]+--table-s3$/, "its location is its own warehouse bucket");
      assert.deepEqual(md.schemas[0].fields.map((f) => f.name), ["id", "name"], "it has the schema sent");
      const ids = await catalog.listTables({ namespace: ["sales"] });
      assert.ok(ids.some((t) => t.name === "orders" && t.namespace[0] === "sales"), "listTables lists the table");
      const loaded = await load("sales", "orders");
      assert.equal(loaded["table-uuid"], md["table-uuid"], "loadTable returns the table created");
      assert.equal(await catalog.tableExists({ namespace: ["sales"], name: "orders" }), true, "tableExists says yes");
      await rejectsWith(createTable("sales", "orders"), 409, "AlreadyExistsException");
      await rejectsWith(catalog.dropTable({ namespace: ["sales"], name: "orders" }), 400, "BadRequestException");
      await catalog.dropTable({ namespace: ["sales"], name: "orders" }, { purge: true });
      assert.equal(await catalog.tableExists({ namespace: ["sales"], name: "orders" }), false,
        "a table dropped with purge is gone");
      await rejectsWith(load("sales", "orders"), 404, "NoSuchTableException");
    });

    test("tables: a table in a missing namespace is NoSuchTableException on load, drop and commit, both routes",
      async () => {
        // The spec's only 404 on a table route; Java's loadTable declares no NoSuchNamespaceException and its
        // dropTable returns false only on NoSuchTableException.
        for (const c of [catalog, signedCatalog]) {
          const id = { namespace: ["nowhere"], name: "t" };
          await rejectsWith(c.loadTable(id), 404, "NoSuchTableException");
          await rejectsWith(c.dropTable(id, { purge: true }), 404, "NoSuchTableException");
          await rejectsWith(c.updateTable(id, { requirements: [], updates: [] }), 404, "NoSuchTableException");
          assert.equal(await c.tableExists(id), false, "tableExists says no");
        }
        await rejectsWith(catalog.createTable({ namespace: ["nowhere"] }, { name: "t", schema: SCHEMA }), 404,
          "NoSuchNamespaceException");
      });

    test("tables: a commit writes the next metadata file and S3 Tables sees the new location", async () => {
      await createTable("sales", "props");
      const first = await send(s3tables, s3tablesSdk, "GetTableMetadataLocationCommand",
        { tableBucketARN: bucketArn, namespace: "sales", name: "props" });
      const resp = await commit("sales", "props", {
        requirements: [{ type: "assert-current-schema-id", "current-schema-id": 0 }],
        updates: [{ action: "set-properties", updates: { "write.format.default": "parquet" } }],
      });
      assert.match(resp["metadata-location"], /\/metadata\/00001-[0-9a-f-]{36}\.metadata\.json$/,
        "the commit writes metadata/00001-<uuid>.metadata.json");
      assert.equal(resp.metadata.properties["write.format.default"], "parquet", "the update is applied");
      assert.equal(resp.metadata["metadata-log"][0]["metadata-file"], first.metadataLocation,
        "the previous file is in metadata-log");
      const after = await send(s3tables, s3tablesSdk, "GetTableMetadataLocationCommand",
        { tableBucketARN: bucketArn, namespace: "sales", name: "props" });
      assert.equal(after.metadataLocation, resp["metadata-location"],
        "GetTableMetadataLocation shows the location the REST commit wrote");
      assert.notEqual(after.versionToken, first.versionToken, "the commit changed the version token");
      const stored = JSON.parse((await get(after.metadataLocation)).toString());
      assert.equal(stored.properties["write.format.default"], "parquet", "the file in the warehouse is the new metadata");
    });

    test("tables: a failed requirement is 409 CommitFailedException and changes nothing", async () => {
      await createTable("sales", "guarded");
      const before = await load("sales", "guarded");
      await rejectsWith(commit("sales", "guarded", {
        requirements: [{ type: "assert-current-schema-id", "current-schema-id": 7 }],
        updates: [{ action: "set-properties", updates: { a: "b" } }],
      }), 409, "CommitFailedException");
      assert.deepEqual(await load("sales", "guarded"), before, "the table is unchanged");
    });

    test("tables: signed for s3tables on /iceberg, iceberg-js sees the same catalog", async () => {
      await createTable("sales", "seen_signed");
      const ids = await signedCatalog.listTables({ namespace: ["sales"] });
      assert.ok(ids.some((t) => t.name === "seen_signed"), "the signed route lists the table made on the unsigned alias");
      const md = await signedCatalog.loadTable({ namespace: ["sales"], name: "seen_signed" });
      assert.equal(md["format-version"], 2, "and loads it");
    });

    // -- an append, read back ----------------------------------------------------------------------

    test("append: Parquet + Avro manifests committed over REST read back with icebird", async () => {
      await createTable("sales", "events");
      const md = await load("sales", "events");
      const rows = [{ id: 1n, name: "alpha" }, { id: 2n, name: "beta" }, { id: 3n, name: null }, { id: 4n, name: "delta" }];
      const snapshotId = newSnapshotId();
      const added = await writeDataAndManifest(md, rows, snapshotId);
      const resp = await commit("sales", "events", await appendCommit(md, snapshotId, added));
      assert.equal(resp.metadata["current-snapshot-id"], snapshotId, "the new snapshot is current");
      assert.equal(resp.metadata["last-sequence-number"], 1, "the sequence number advanced");
      assert.equal(resp.metadata["snapshot-log"].at(-1)["snapshot-id"], snapshotId, "snapshot-log records it");

      const loaded = await load("sales", "events");
      rangeRequests.length = 0;
      const read = await icebird.icebergRead({ tableUrl: loaded.location, metadata: loaded });
      assert.deepEqual(read.map((r) => ({ id: r.id, name: r.name ?? null })), rows, "the rows read are the rows written");
      assert.ok(rangeRequests.length > 0, "icebird read the Parquet file with Range requests through Floe's S3");
    });

    test("append: two writers race, one gets 409, retries on fresh metadata, both snapshots land", async () => {
      await createTable("sales", "raced");
      const base = await load("sales", "raced");
      const idA = newSnapshotId(), idB = newSnapshotId();
      const rowsA = [{ id: 10n, name: "from a" }], rowsB = [{ id: 20n, name: "from b" }];
      const addedA = await writeDataAndManifest(base, rowsA, idA);
      const addedB = await writeDataAndManifest(base, rowsB, idB);
      const results = await Promise.allSettled([
        commit("sales", "raced", await appendCommit(base, idA, addedA)),
        commit("sales", "raced", await appendCommit(base, idB, addedB)),
      ]);
      const lost = results.filter((r) => r.status === "rejected");
      assert.equal(lost.length, 1, "of two commits on the same base, exactly one fails");
      assert.equal(lost[0].reason.status, 409, "the loser gets 409");
      assert.equal(lost[0].reason.icebergType, "CommitFailedException", "as CommitFailedException");

      const loserIsB = results[1].status === "rejected";
      const fresh = await load("sales", "raced");
      const retry = loserIsB ? await appendCommit(fresh, idB, addedB) : await appendCommit(fresh, idA, addedA);
      const resp = await commit("sales", "raced", retry);
      const snapshots = resp.metadata.snapshots.map((s) => s["snapshot-id"]).sort();
      assert.deepEqual(snapshots, [idA, idB].sort(), "both snapshots are in the table");
      assert.equal(resp.metadata["last-sequence-number"], 2, "the retry took the next sequence number");

      const loaded = await load("sales", "raced");
      const read = await icebird.icebergRead({ tableUrl: loaded.location, metadata: loaded });
      assert.deepEqual(read.map((r) => r.id).sort(), [10n, 20n], "the table holds both writers' rows");
    });

    test("the S3 Tables API and REST commits share one compare-and-swap", async () => {
      await createTable("sales", "shared");
      const v0 = await send(s3tables, s3tablesSdk, "GetTableMetadataLocationCommand",
        { tableBucketARN: bucketArn, namespace: "sales", name: "shared" });
      const md = await load("sales", "shared");
      const snapshotId = newSnapshotId();
      const added = await writeDataAndManifest(md, [{ id: 5n, name: "e" }], snapshotId);
      await commit("sales", "shared", await appendCommit(md, snapshotId, added));
      const v1 = await send(s3tables, s3tablesSdk, "GetTableMetadataLocationCommand",
        { tableBucketARN: bucketArn, namespace: "sales", name: "shared" });

      // An S3 Tables client rolls the table back to its first metadata file.
      await send(s3tables, s3tablesSdk, "UpdateTableMetadataLocationCommand", {
        tableBucketARN: bucketArn, namespace: "sales", name: "shared", versionToken: v1.versionToken,
        metadataLocation: v0.metadataLocation,
      });
      const rolledBack = await load("sales", "shared");
      assert.equal(rolledBack["current-snapshot-id"], -1, "REST loads the metadata the S3 Tables API pointed at");

      // A REST writer that still believes main is at the snapshot it wrote loses.
      await rejectsWith(commit("sales", "shared", {
        requirements: [{ type: "assert-ref-snapshot-id", ref: "main", "snapshot-id": snapshotId }],
        updates: [{ action: "set-properties", updates: { stale: "yes" } }],
      }), 409, "CommitFailedException");
      await assert.rejects(send(s3tables, s3tablesSdk, "UpdateTableMetadataLocationCommand", {
        tableBucketARN: bucketArn, namespace: "sales", name: "shared", versionToken: v1.versionToken,
        metadataLocation: v1.metadataLocation,
      }), (err) => err.name === "ConflictException", "and an S3 Tables client with the old version token loses too");
    });

    // -- multi-table transactions ------------------------------------------------------------------

    test("transactions: every table commits, or none does", async () => {
      await createTable("sales", "tx_a");
      await createTable("sales", "tx_b");
      const txUrl = `${server.endpoint}/_floe/iceberg/v1/${encodeURIComponent(bucketArn)}/transactions/commit`;
      const change = (name, requirements, value) => ({
        identifier: { namespace: ["sales"], name }, requirements,
        updates: [{ action: "set-properties", updates: { tx: value } }],
      });
      const post = (changes) => realFetch(txUrl, {
        method: "POST", headers: { "content-type": "application/json" },
        body: JSON.stringify({ "table-changes": changes }),
      });

      let resp = await post([change("tx_a", [], "1"), change("tx_b", [], "1")]);
      assert.equal(resp.status, 204, "a transaction over two tables answers 204");
      assert.equal((await load("sales", "tx_a")).properties.tx, "1", "the first table committed");
      assert.equal((await load("sales", "tx_b")).properties.tx, "1", "the second table committed");

      resp = await post([change("tx_a", [], "2"),
        change("tx_b", [{ type: "assert-current-schema-id", "current-schema-id": 9 }], "2")]);
      const body = await resp.json();
      assert.equal(resp.status, 409, "a transaction with one failing requirement is 409");
      assert.equal(body.error.type, "CommitFailedException", "as CommitFailedException");
      assert.equal((await load("sales", "tx_a")).properties.tx, "1", "the table whose own commit was fine is unchanged");
    });
  });

// Replication that copies, with real Iceberg writers and readers: rows are written as an
// engine writes them (a Parquet file from hyparquet-writer, Avro manifest and manifest list from
// avsc, committed over the Iceberg REST catalog) into a table of account 111111111111 in
// us-east-1, replicated by a table replication configuration into a table bucket of account
// 222222222222 in eu-west-1 (@aws-sdk/client-s3tables under each account's key), and the replica is
// read with icebird and compared row for row: first the backfill, then a second append. The
// replica's manifests name its own warehouse, a REST commit on it is refused, a compaction-like
// replace commit arrives as the commit it is, and a kill -9 right after configuring replication of
// a table with a burst of appends is followed by a restart after which the replica catches up
// with every row exactly once and no file half-written. Snapshot expiration on the source prunes
// the replica: its copies of what only the expired snapshots reached, and metadata files that fell
// out of its metadata-log, answer 404, while the files both tables still use stay. replication/98-replication-boto3.py covers
// the S3 Tables API side with boto3.
//
// Run: cd tests/e2e && npm ci && node --test replication/99-replication-engines.mjs

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { after, before, describe, test } from "node:test";

import { FloeServer, importOrSkip } from "../floe_server.mjs";
import { ID_NAME_SCHEMA, MANIFEST_ENTRY, MANIFEST_FILE, avroFile, idNameParquetFile, icebirdFetch, readAvro, runMaintenance, splitS3 } from "../iceberg_writer.mjs";

const iceberg = await importOrSkip("iceberg-js");
const s3sdk = await importOrSkip("@aws-sdk/client-s3");
const s3tablesSdk = await importOrSkip("@aws-sdk/client-s3tables");
const avro = (await importOrSkip("avsc"))?.default;
const parquet = await importOrSkip("hyparquet-writer");
const icebird = await importOrSkip("icebird");
const missing = [["iceberg-js", iceberg], ["@aws-sdk/client-s3", s3sdk], ["@aws-sdk/client-s3tables", s3tablesSdk],
  ["avsc", avro], ["hyparquet-writer", parquet], ["icebird", icebird]].filter(([, mod]) => !mod).map(([n]) => n);

const SOURCE = { account: "111111111111", region: "us-east-1" };
const DESTINATION = { account: "222222222222", region: "eu-west-1" };
const ROLE = "arn:aws:iam::111111111111:role/replication";
const WAIT_MS = 15000;
const DAY_MS = 86400000;
const BURST = 6;

const SCHEMA = ID_NAME_SCHEMA;
const parquetFile = idNameParquetFile;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const byId = (rows) => rows.map((r) => ({ id: r.id, name: r.name ?? null })).sort((a, b) => Number(a.id - b.id));

describe("replication to another account and region, written and read with real Iceberg clients",
  { skip: missing.length ? `not installed: ${missing.join(", ")} (run npm ci in tests/e2e)` : false }, () => {
    let server, s3, source, destination, srcArn, dstArn;
    const realFetch = globalThis.fetch;
    let nextSnapshotId = Date.now() * 1000;

    const send = (client, sdk, command, input) => client.send(new sdk[command](input));
    const clientsFor = (scope) => new s3tablesSdk.S3TablesClient({
      endpoint: server.endpoint, region: scope.region, maxAttempts: 1,
      credentials: { accessKeyId: scope.account, secretAccessKey: "secret" },
    });
    const catalogOf = (arn) => new iceberg.IcebergRestCatalog({
      baseUrl: `${server.endpoint}/_floe/iceberg`, catalogName: encodeURIComponent(arn), auth: { type: "none" },
    });
    const put = (url, body) => {
      const { bucket, key } = splitS3(url);
      return send(s3, s3sdk, "PutObjectCommand", { Bucket: bucket, Key: key, Body: body });
    };
    const get = async (url) => {
      const { bucket, key } = splitS3(url);
      const resp = await send(s3, s3sdk, "GetObjectCommand", { Bucket: bucket, Key: key });
      return Buffer.from(await resp.Body.transformToByteArray());
    };

    /** Appends `rows` to the table as one snapshot: a data file, its manifest, a manifest list.
     * An "overwrite" snapshot's manifest list holds only its own manifest (the old rows are gone). */
    async function append(arn, table, rows, operation = "append") {
      const catalog = catalogOf(arn);
      const md = await catalog.loadTable({ namespace: ["sales"], name: table });
      const snapshotId = nextSnapshotId++;
      const seq = md["last-sequence-number"] + 1;
      const parent = md.refs?.main?.["snapshot-id"] ?? null;
      const dataPath = `${md.location}/data/${randomUUID()}.parquet`;
      const data = parquetFile(rows);
      await put(dataPath, data);
      const manifestPath = `${md.location}/metadata/${randomUUID()}-m0.avro`;
      const manifest = await avroFile(MANIFEST_ENTRY, [{
        status: 1, snapshot_id: snapshotId, sequence_number: null, file_sequence_number: null,
        data_file: { content: 0, file_path: dataPath, file_format: "PARQUET", partition: {}, record_count: rows.length,
          file_size_in_bytes: data.length },
      }], { schema: JSON.stringify(SCHEMA), "partition-spec": "[]", "partition-spec-id": "0", "format-version": "2",
        content: "data" });
      await put(manifestPath, manifest);
      const current = md.snapshots?.find((s) => s["snapshot-id"] === md["current-snapshot-id"]);
      const inherited = current && operation === "append" ? await readAvro(await get(current["manifest-list"])) : [];
      const listPath = `${md.location}/metadata/snap-${snapshotId}-1-${randomUUID()}.avro`;
      await put(listPath, await avroFile(MANIFEST_FILE, [...inherited, {
        manifest_path: manifestPath, manifest_length: manifest.length, partition_spec_id: 0, content: 0,
        sequence_number: seq, min_sequence_number: seq, added_snapshot_id: snapshotId, added_files_count: 1,
        existing_files_count: 0, deleted_files_count: 0, added_rows_count: rows.length, existing_rows_count: 0,
        deleted_rows_count: 0,
      }], { "snapshot-id": String(snapshotId), "parent-snapshot-id": String(parent ?? "null"),
        "sequence-number": String(seq), "format-version": "2" }));
      const snapshot = { "snapshot-id": snapshotId, "sequence-number": seq, "timestamp-ms": Date.now(),
        "manifest-list": listPath, summary: { operation }, "schema-id": 0 };
      if (parent !== null)
        snapshot["parent-snapshot-id"] = parent;
      const resp = await catalog.updateTable({ namespace: ["sales"], name: table }, {
        requirements: [{ type: "assert-ref-snapshot-id", ref: "main", "snapshot-id": parent }],
        updates: [{ action: "add-snapshot", snapshot },
          { action: "set-snapshot-ref", "ref-name": "main", type: "branch", "snapshot-id": snapshotId }],
      });
      return resp["metadata-location"];
    }

    /** Waits until the destination is completed at the source's metadata location `location`. */
    async function waitCompleted(tableArn, location) {
      const deadline = Date.now() + WAIT_MS;
      let entry;
      while (Date.now() < deadline) {
        const out = await send(source, s3tablesSdk, "GetTableReplicationStatusCommand", { tableArn });
        entry = out.destinations.find((d) => d.destinationTableBucketArn === dstArn);
        if (entry?.replicationStatus === "completed" && entry.lastSuccessfulReplicatedUpdate?.metadataLocation === location)
          return entry;
        await sleep(10);
      }
      assert.fail(`replication did not complete within ${WAIT_MS} ms: ${JSON.stringify(entry)}`);
    }

    /** The HTTP status a plain S3 GET of the object gets (200, or 404 once deleted). */
    async function status(url) {
      const { bucket, key } = splitS3(url);
      const resp = await realFetch(`${server.endpoint}/${bucket}/${key}`);
      await resp.arrayBuffer();
      return resp.status;
    }

    /** Every file each snapshot of `md` reaches: {list, manifests, data}, by snapshot id. */
    async function filesOf(md) {
      const out = new Map();
      for (const sn of md.snapshots ?? []) {
        const manifests = (await readAvro(await get(sn["manifest-list"]))).map((m) => m.manifest_path);
        const data = [];
        for (const m of manifests)
          data.push(...(await readAvro(await get(m))).map((e) => e.data_file.file_path));
        out.set(sn["snapshot-id"], { list: sn["manifest-list"], manifests, data });
      }
      return out;
    }

    /** The replica's current metadata location. */
    async function replicaLocation(table) {
      return (await send(destination, s3tablesSdk, "GetTableMetadataLocationCommand", { tableBucketARN: dstArn,
        namespace: "sales", name: table })).metadataLocation;
    }

    /** The replica's rows, read with icebird from its own metadata. */
    async function replicaRows(table) {
      const md = await catalogOf(dstArn).loadTable({ namespace: ["sales"], name: table });
      return { md, rows: byId(await icebird.icebergRead({ tableUrl: md.location, metadata: md })) };
    }

    before(async () => {
      server = new FloeServer();
      await server.start();
      s3 = new s3sdk.S3Client({ endpoint: server.endpoint, region: "us-east-1", forcePathStyle: true, maxAttempts: 1,
        credentials: { accessKeyId: "floe-test", secretAccessKey: "floe-test" } });
      source = clientsFor(SOURCE);
      destination = clientsFor(DESTINATION);
      srcArn = (await send(source, s3tablesSdk, "CreateTableBucketCommand", { name: "analytics" })).arn;
      dstArn = (await send(destination, s3tablesSdk, "CreateTableBucketCommand", { name: "analytics-replica" })).arn;
      await catalogOf(srcArn).createNamespace({ namespace: ["sales"] });
      // icebird reads https://<bucket>.s3.amazonaws.com/<key>: send it to Floe's S3, path-style.
      globalThis.fetch = icebirdFetch(realFetch, server.endpoint);
    });

    after(async () => {
      globalThis.fetch = realFetch;
      s3?.destroy();
      source?.destroy();
      destination?.destroy();
      await server?.cleanup();
    });

    test("the replica holds the source's rows, follows a second append and refuses writes", async () => {
      await catalogOf(srcArn).createTable({ namespace: ["sales"] }, { name: "orders", schema: SCHEMA });
      const first = [{ id: 1n, name: "alpha" }, { id: 2n, name: "beta" }, { id: 3n, name: null }];
      const location = await append(srcArn, "orders", first);
      const table = await send(source, s3tablesSdk, "GetTableCommand", { tableBucketARN: srcArn, namespace: "sales",
        name: "orders" });
      await send(source, s3tablesSdk, "PutTableReplicationCommand", { tableArn: table.tableARN, configuration: {
        role: ROLE, rules: [{ destinations: [{ destinationTableBucketARN: dstArn }] }] } });
      await waitCompleted(table.tableARN, location);

      const { md, rows } = await replicaRows("orders");
      assert.deepEqual(rows, byId(first), "icebird reads the source's rows from the replica");
      assert.notEqual(md.location, table.warehouseLocation, "the replica has its own warehouse");
      const snapshot = md.snapshots.find((s) => s["snapshot-id"] === md["current-snapshot-id"]);
      assert.ok(snapshot["manifest-list"].startsWith(md.location + "/"), "its manifest list lies in its warehouse");
      const manifests = await readAvro(await get(snapshot["manifest-list"]));
      const entries = await readAvro(await get(manifests[0].manifest_path));
      assert.ok(manifests[0].manifest_path.startsWith(md.location + "/"), "its manifests lie in its warehouse");
      assert.ok(entries[0].data_file.file_path.startsWith(md.location + "/"), "its data files lie in its warehouse");

      const second = [{ id: 4n, name: "delta" }];
      const next = await append(srcArn, "orders", second);
      await waitCompleted(table.tableARN, next);
      assert.deepEqual((await replicaRows("orders")).rows, byId([...first, ...second]),
        "a second append reaches the replica");

      await assert.rejects(append(dstArn, "orders", [{ id: 99n, name: "no" }]), (err) => {
        assert.equal(err.status, 403, `a REST commit on a replica is refused with 403 (${err.message})`);
        return true;
      });
      assert.deepEqual((await replicaRows("orders")).rows, byId([...first, ...second]), "the refused write left no row");
    });

    test("a compaction-like replace commit replicates as the commit it is", async () => {
      await catalogOf(srcArn).createTable({ namespace: ["sales"] }, { name: "compacted", schema: SCHEMA });
      const table = await send(source, s3tablesSdk, "GetTableCommand", { tableBucketARN: srcArn, namespace: "sales",
        name: "compacted" });
      await send(source, s3tablesSdk, "PutTableReplicationCommand", { tableArn: table.tableARN, configuration: {
        role: ROLE, rules: [{ destinations: [{ destinationTableBucketARN: dstArn }] }] } });
      const rows = [{ id: 7n, name: "x" }, { id: 8n, name: "y" }];
      await append(srcArn, "compacted", rows.slice(0, 1));
      await append(srcArn, "compacted", rows.slice(1));

      // Rewrite both data files into one, as compaction does: one manifest with the new file added
      // and the old ones deleted, in a "replace" snapshot.
      const catalog = catalogOf(srcArn);
      const md = await catalog.loadTable({ namespace: ["sales"], name: "compacted" });
      const current = md.snapshots.find((sn) => sn["snapshot-id"] === md["current-snapshot-id"]);
      const old = [];
      for (const m of await readAvro(await get(current["manifest-list"])))
        old.push(...(await readAvro(await get(m.manifest_path))).map((e) => e.data_file));
      const snapshotId = nextSnapshotId++;
      const seq = md["last-sequence-number"] + 1;
      const dataPath = `${md.location}/data/${randomUUID()}-compacted.parquet`;
      const data = parquetFile(rows);
      await put(dataPath, data);
      const manifestPath = `${md.location}/metadata/${randomUUID()}-m0.avro`;
      const manifest = await avroFile(MANIFEST_ENTRY, [
        { status: 1, snapshot_id: snapshotId, sequence_number: null, file_sequence_number: null,
          data_file: { content: 0, file_path: dataPath, file_format: "PARQUET", partition: {},
            record_count: rows.length, file_size_in_bytes: data.length } },
        ...old.map((f) => ({ status: 2, snapshot_id: snapshotId, sequence_number: 1, file_sequence_number: 1,
          data_file: f })),
      ], { schema: JSON.stringify(SCHEMA), "partition-spec": "[]", "partition-spec-id": "0", "format-version": "2",
        content: "data" });
      await put(manifestPath, manifest);
      const listPath = `${md.location}/metadata/snap-${snapshotId}-1-${randomUUID()}.avro`;
      await put(listPath, await avroFile(MANIFEST_FILE, [{
        manifest_path: manifestPath, manifest_length: manifest.length, partition_spec_id: 0, content: 0,
        sequence_number: seq, min_sequence_number: 1, added_snapshot_id: snapshotId, added_files_count: 1,
        existing_files_count: 0, deleted_files_count: old.length, added_rows_count: rows.length,
        existing_rows_count: 0, deleted_rows_count: rows.length,
      }], { "snapshot-id": String(snapshotId), "parent-snapshot-id": String(current["snapshot-id"]),
        "sequence-number": String(seq), "format-version": "2" }));
      const resp = await catalog.updateTable({ namespace: ["sales"], name: "compacted" }, {
        requirements: [{ type: "assert-ref-snapshot-id", ref: "main", "snapshot-id": current["snapshot-id"] }],
        updates: [{ action: "add-snapshot", snapshot: { "snapshot-id": snapshotId, "sequence-number": seq,
          "timestamp-ms": Date.now(), "manifest-list": listPath, "parent-snapshot-id": current["snapshot-id"],
          summary: { operation: "replace" }, "schema-id": 0 } },
        { action: "set-snapshot-ref", "ref-name": "main", type: "branch", "snapshot-id": snapshotId }],
      });
      await waitCompleted(table.tableARN, resp["metadata-location"]);
      const replica = await replicaRows("compacted");
      assert.deepEqual(replica.rows, byId(rows), "the replica reads the compacted rows once");
      assert.equal(replica.md["current-snapshot-id"], snapshotId, "the replica's current snapshot is the replace");
      assert.equal(replica.md.snapshots.length, 3, "every snapshot, the compacted ones included, is replicated");
    });

    test("snapshot expiration on the source prunes the replica: what only the expired snapshots reached goes",
      async () => {
        await catalogOf(srcArn).createTable({ namespace: ["sales"] }, { name: "expiring", schema: SCHEMA,
          properties: { "write.metadata.previous-versions-max": "2" } });
        const table = await send(source, s3tablesSdk, "GetTableCommand", { tableBucketARN: srcArn,
          namespace: "sales", name: "expiring" });
        await send(source, s3tablesSdk, "PutTableReplicationCommand", { tableArn: table.tableARN, configuration: {
          role: ROLE, rules: [{ destinations: [{ destinationTableBucketARN: dstArn }] }] } });
        await waitCompleted(table.tableARN, table.metadataLocation);
        const replicaMetadata = [await replicaLocation("expiring")];
        for (let i = 0; i < 3; i++) {
          await waitCompleted(table.tableARN, await append(srcArn, "expiring", [{ id: BigInt(200 + i), name: `old ${i}` }]));
          replicaMetadata.push(await replicaLocation("expiring"));
        }
        // an overwrite: the current snapshot no longer reaches the appends' manifests and data files
        const live = [{ id: 300n, name: "fresh" }];
        await waitCompleted(table.tableARN, await append(srcArn, "expiring", live, "overwrite"));
        replicaMetadata.push(await replicaLocation("expiring"));
        const replicaBefore = await filesOf((await replicaRows("expiring")).md);
        const sourceBefore = await catalogOf(srcArn).loadTable({ namespace: ["sales"], name: "expiring" });
        assert.equal(replicaBefore.size, 4, "the replica has every snapshot before the expiration");

        const job = await runMaintenance(server, { arn: table.tableARN, type: "icebergSnapshotManagement",
          now: new Date(Date.now() + 30 * DAY_MS).toISOString() });
        assert.equal(job.body.status, "Successful", `snapshot expiration ran on the source (${JSON.stringify(job.body)})`);
        assert.equal(job.body.snapshotsExpired, 3, "the three appends expire, the overwrite stays");
        await waitCompleted(table.tableARN, job.body.metadataLocation);
        replicaMetadata.push(await replicaLocation("expiring"));

        const { md, rows } = await replicaRows("expiring");
        assert.deepEqual(md.snapshots.map((sn) => sn["snapshot-id"]), [sourceBefore["current-snapshot-id"]],
          "the replica's metadata lists only the retained snapshot");
        const kept = (await filesOf(md)).get(md["current-snapshot-id"]);
        const expired = [...replicaBefore].filter(([id]) => id !== md["current-snapshot-id"])
          .flatMap(([, f]) => [f.list, ...f.manifests, ...f.data])
          .filter((p) => !kept.manifests.includes(p) && !kept.data.includes(p));
        assert.ok(expired.length >= 9, `three lists, manifests and data files only the expired snapshots reached (${expired.length})`);
        assert.ok(expired.every((p) => p.startsWith(md.location + "/")), "they all lie in the replica's warehouse");
        const deadline = Date.now() + WAIT_MS;
        let left = expired;
        while (left.length && Date.now() < deadline) {
          left = (await Promise.all(left.map(async (p) => ((await status(p)) === 404 ? null : p)))).filter(Boolean);
          if (left.length)
            await sleep(20);
        }
        assert.deepEqual(left, [], "the replica's files only the expired snapshots reached answer 404 through S3");

        for (const p of [kept.list, ...kept.manifests, ...kept.data])
          assert.equal(await status(p), 200, "the replica's live files are kept");
        const inLog = new Set([(md["metadata-log"] ?? []).map((e) => e["metadata-file"]), await replicaLocation("expiring")].flat());
        for (const loc of replicaMetadata)
          assert.equal(await status(loc), inLog.has(loc) ? 200 : 404,
            `a replica metadata file is kept while its metadata-log names it, and deleted once it falls out (${loc})`);
        assert.ok(replicaMetadata.some((loc) => !inLog.has(loc)), "some replica metadata fell out of the log");

        const src = await catalogOf(srcArn).loadTable({ namespace: ["sales"], name: "expiring" });
        const srcKept = (await filesOf(src)).get(src["current-snapshot-id"]);
        for (const p of [srcKept.list, ...srcKept.manifests, ...srcKept.data])
          assert.equal(await status(p), 200, "the source's live files are intact");
        assert.equal((await get(srcKept.data[0])).length, (await get(kept.data[0])).length,
          "the data file both tables share still has its bytes");
        assert.deepEqual(rows, byId(live), "icebird reads the replica after the pruning");
        assert.deepEqual(byId(await icebird.icebergRead({ tableUrl: src.location, metadata: src })), byId(live),
          "icebird reads the source as before");
      });

    test("kill -9 in the middle of replicating: after a restart the replica catches up, no duplicate, no partial file",
      async (t) => {
        await catalogOf(srcArn).createTable({ namespace: ["sales"] }, { name: "burst", schema: SCHEMA });
        const table = await send(source, s3tablesSdk, "GetTableCommand", { tableBucketARN: srcArn, namespace: "sales",
          name: "burst" });
        const written = [];
        let location;
        for (let i = 0; i < BURST; i++) {
          const rows = [{ id: BigInt(100 + i), name: `row ${i}` }];
          written.push(...rows);
          location = await append(srcArn, "burst", rows);
        }
        // The configuration comes last, so the worker has the whole burst to backfill when the
        // server dies right after the Put answers.
        await send(source, s3tablesSdk, "PutTableReplicationCommand", { tableArn: table.tableARN, configuration: {
          role: ROLE, rules: [{ destinations: [{ destinationTableBucketARN: dstArn }] }] } });
        server.proc.kill("SIGKILL");
        await server.exited;
        server.proc = null;
        await server.start();
        const early = await send(source, s3tablesSdk, "GetTableReplicationStatusCommand", { tableArn: table.tableARN });
        t.diagnostic(`status right after the restart (the kill came first when pending): ${early.destinations[0].replicationStatus}`);

        const entry = await waitCompleted(table.tableARN, location);
        assert.ok(entry.destinationTableArn, "the replica is named");
        assert.deepEqual((await replicaRows("burst")).rows, byId(written), "every row exactly once after the restart");
        assert.deepEqual(fs.readdirSync(path.join(server.dataDir, "tmp")), [], "no half-written file is left in tmp/");
        // Storage is not listable (as on S3 Tables): walk the replica's own metadata instead.
        const { md } = await replicaRows("burst");
        const current = md.snapshots.find((sn) => sn["snapshot-id"] === md["current-snapshot-id"]);
        const manifests = await readAvro(await get(current["manifest-list"]));
        const dataFiles = [];
        for (const m of manifests) {
          assert.equal((await get(m.manifest_path)).length, Number(m.manifest_length), "each manifest is whole");
          for (const e of await readAvro(await get(m.manifest_path)))
            dataFiles.push(e.data_file);
        }
        assert.equal(new Set(dataFiles.map((f) => f.file_path)).size, BURST, "one data file per append, none twice");
        for (const f of dataFiles) {
          assert.ok(f.file_path.startsWith(md.location + "/"), "each data file lies in the replica's warehouse");
          assert.equal((await get(f.file_path)).length, Number(f.file_size_in_bytes), "each data file is whole");
        }
      });
  });

// Replication of a format version 3 table with deletion vectors: the replica's delete manifest
// names the Puffin file under the replica's own warehouse, where the object is the replica's own
// copy whose blob's referenced-data-file property names the replica's data file (the blob itself
// is the source's, at the same offset), and each vector's referenced_data_file names the
// replica's copy of its data file; the replica keeps next-row-id and each snapshot's
// first-row-id; compaction on the source applies the vector, and the replica follows (no vector
// left, the same rows for icebird). A Puffin file whose footer is LZ4-compressed cannot be
// rewritten: that table's replication fails with the reason. The tables and their vectors are
// written with tests/e2e/iceberg_writer.mjs (Puffin deletion-vector-v1 blobs).
//
// Run: cd tests/e2e && npm ci && node --test replication/96-replication-deletion-vectors.mjs

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";

import { FloeServer } from "../floe_server.mjs";
import { IcebergWriter, SCHEMA, missingPackages, readAvro, runMaintenance } from "../iceberg_writer.mjs";

const WAIT_MS = 15000;
const ROLE = "arn:aws:iam::000000000000:role/replication";
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const rows = (from, to) => Array.from({ length: to - from }, (_, j) => ({ id: BigInt(from + j), name: `r${from + j}` }));
/** The footer JSON of a Puffin file: FooterPayload, then its size (LE32), the flags and "PFA1". */
const puffinFooter = (bytes) => {
  const size = bytes.readUInt32LE(bytes.length - 12);
  assert.equal(bytes.readUInt32LE(bytes.length - 8) & 1, 0, "the footer is not compressed");
  return JSON.parse(bytes.subarray(bytes.length - 12 - size, bytes.length - 12).toString("utf8"));
};
const ids = (rs) => rs.map((r) => r.id).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

describe("replication of a v3 table's deletion vectors",
  { skip: missingPackages.length ? `not installed: ${missingPackages.join(", ")} (run npm ci in tests/e2e)` : false }, () => {
    let server, w, replica, dstArn;

    before(async () => {
      server = new FloeServer({ args: ["--maintenance-interval", "0"] });
      await server.start();
      w = await IcebergWriter.open(server, { bucket: "origin", namespace: "sales" });
      dstArn = (await w.send("CreateTableBucketCommand", { name: "copy" })).arn;
    });

    after(async () => {
      w?.close();
      await server?.cleanup();
    });

    /** Waits until the replica is at the source's current metadata location. */
    async function waitReplicated(tableArn) {
      const location = (await w.send("GetTableMetadataLocationCommand", w.where("events"))).metadataLocation;
      const deadline = Date.now() + WAIT_MS;
      let entry;
      while (Date.now() < deadline) {
        const out = await w.send("GetTableReplicationStatusCommand", { tableArn });
        entry = out.destinations.find((d) => d.destinationTableBucketArn === dstArn);
        if (entry?.replicationStatus === "completed" && entry.lastSuccessfulReplicatedUpdate?.metadataLocation === location)
          return;
        await sleep(10);
      }
      assert.fail(`replication did not complete within ${WAIT_MS} ms: ${JSON.stringify(entry)}`);
    }

    /** The replica's metadata and the live entries of its current snapshot. */
    async function replicaState() {
      const md = await replica.loadTable({ namespace: ["sales"], name: "events" });
      const snap = md.snapshots.find((s) => s["snapshot-id"] === md["current-snapshot-id"]);
      const data = [], deletes = [];
      for (const m of await readAvro(await w.get(snap["manifest-list"])))
        for (const e of await readAvro(await w.get(m.manifest_path)))
          if (e.status !== 2)
            (e.data_file.content === 0 ? data : deletes).push(e.data_file);
      return { md, data, deletes };
    }

    test("the replica's vectors name its own Puffin file and data files, inside the Puffin file too", async () => {
      await w.catalog.createTable({ namespace: ["sales"] },
        { name: "events", schema: SCHEMA, properties: { "format-version": "3" } });
      const a = await w.append("events", rows(0, 6), { rowGroupSize: 3 });
      await w.append("events", rows(6, 9));
      const dv = await w.deleteRows("events", [{ dataPath: a.dataPath, positions: [3, 4, 5] }]);
      const tableArn = await w.tableArn("events");
      await w.send("PutTableReplicationCommand", { tableArn, configuration: {
        role: ROLE, rules: [{ destinations: [{ destinationTableBucketARN: dstArn }] }] } });
      await waitReplicated(tableArn);

      const IcebergRestCatalog = w.catalog.constructor;
      replica = new IcebergRestCatalog({ baseUrl: `${server.endpoint}/_floe/iceberg`,
        catalogName: encodeURIComponent(dstArn), auth: { type: "none" } });
      const source = await w.load("events");
      const { md, data, deletes } = await replicaState();
      assert.notEqual(md.location, source.location, "the replica has its own warehouse");
      assert.equal(md["format-version"], 3, "the replica is v3");
      assert.equal(md["next-row-id"], source["next-row-id"], "with the source's next-row-id");
      assert.deepEqual(md.snapshots.map((s) => s["first-row-id"]), source.snapshots.map((s) => s["first-row-id"]),
        "and each snapshot's first-row-id");
      assert.equal(deletes.length, 1, "the vector is live in the replica");
      const vector = deletes[0];
      assert.ok(vector.file_path.startsWith(`${md.location}/`), `the Puffin file is in the replica's warehouse: ${vector.file_path}`);
      const target = data.find((f) => f.file_path === vector.referenced_data_file);
      assert.ok(target, `referenced_data_file names the replica's copy of the data file: ${vector.referenced_data_file}`);
      assert.ok(target.file_path.startsWith(`${md.location}/`), "which is in the replica's warehouse");
      assert.equal(await w.status(target.file_path), 200, "and exists there");
      assert.equal(vector.content_offset, 4, "the blob's place in the Puffin file is kept");

      // Readers (PyIceberg, Iceberg Java) match a vector to its data file by the blob's
      // referenced-data-file property, so the replica's Puffin file is its own copy naming the
      // replica's data file, with the source's blob bytes at the same offset.
      const copy = await w.get(vector.file_path), original = await w.get(dv.puffinPath);
      const footer = puffinFooter(copy);
      assert.equal(footer.blobs.length, 1, "the replica's Puffin file lists the one vector");
      assert.equal(footer.blobs[0].properties["referenced-data-file"], target.file_path,
        "whose referenced-data-file names the replica's data file");
      assert.equal(puffinFooter(original).blobs[0].properties["referenced-data-file"], a.dataPath,
        "while the source's still names the source's");
      const at = Number(vector.content_offset), size = Number(vector.content_size_in_bytes);
      assert.deepEqual(copy.subarray(at, at + size), original.subarray(at, at + size), "the blob's bytes are the source's");
      assert.equal(Number(vector.file_size_in_bytes), copy.length, "file_size_in_bytes is the copy's size");
    });

    test("compaction on the source applies the vector, and the replica follows", async () => {
      const tableArn = await w.tableArn("events");
      const run = await runMaintenance(server, { arn: tableArn, type: "icebergCompaction" });
      assert.equal(run.body.status, "Successful", JSON.stringify(run.body));
      assert.match(run.body.message, /applied 1 deletion vectors/, run.body.message);
      await waitReplicated(tableArn);
      const { md, deletes } = await replicaState();
      assert.equal(deletes.length, 0, "no vector is left in the replica");
      const read = await import("icebird");
      assert.deepEqual(ids(await read.icebergRead({ tableUrl: md.location, metadata: md })), [...rows(0, 3), ...rows(6, 9)].map((r) => r.id),
        "icebird reads the rows the vector kept from the replica");
    });

    test("a vector's Puffin file with a compressed footer fails the replication, with the reason", async () => {
      await w.catalog.createTable({ namespace: ["sales"] },
        { name: "packed", schema: SCHEMA, properties: { "format-version": "3" } });
      const a = await w.append("packed", rows(0, 3));
      const dv = await w.deleteRows("packed", [{ dataPath: a.dataPath, positions: [1] }]);
      const bytes = await w.get(dv.puffinPath);
      bytes[bytes.length - 8] |= 1; // Flags bit 0: the footer payload is LZ4-compressed
      await w.put(dv.puffinPath, bytes);
      const tableArn = await w.tableArn("packed");
      await w.send("PutTableReplicationCommand", { tableArn, configuration: {
        role: ROLE, rules: [{ destinations: [{ destinationTableBucketARN: dstArn }] }] } });
      const deadline = Date.now() + WAIT_MS;
      let entry;
      while (Date.now() < deadline && entry?.replicationStatus !== "failed") {
        await sleep(10);
        const out = await w.send("GetTableReplicationStatusCommand", { tableArn });
        entry = out.destinations.find((d) => d.destinationTableBucketArn === dstArn);
      }
      assert.equal(entry?.replicationStatus, "failed", JSON.stringify(entry));
      assert.match(entry.failureMessage, /could not be rewritten for the replica: .*LZ4/, entry.failureMessage);
      await assert.rejects(replica.loadTable({ namespace: ["sales"], name: "packed" }).then((md) => {
        if (!md["current-snapshot-id"] || md["current-snapshot-id"] < 0) throw new Error("no snapshot");
        return md;
      }), "the replica holds no state of the table");
    });
  });

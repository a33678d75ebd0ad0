// Tables end to end with the AWS SDK for JavaScript v3 (@aws-sdk/client-s3tables and
// @aws-sdk/client-s3): CreateTable with Iceberg metadata read back over S3, GetTable by name and by
// ARN, ListTables pages, RenameTable keeping ARN and token, the UpdateTableMetadataLocation
// compare-and-swap with 16 racing clients, DeleteTable with its version token and the warehouse
// removed afterwards. s3tables/40-tables.py covers the same rules with boto3 and the aws CLI.
//
// Run: cd tests/e2e && npm ci && node --test s3tables/41-tables.mjs

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";

import { FloeServer, clientConfig, importOrSkip, s3tablesClient, modeled } from "../floe_server.mjs";

const sdk = await importOrSkip("@aws-sdk/client-s3tables");
const s3sdk = await importOrSkip("@aws-sdk/client-s3");
const SCHEMA = { fields: [{ name: "id", type: "long", required: true }, { name: "note", type: "string" }] };
const RACERS = 16;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

describe("tables with @aws-sdk/client-s3tables",
  { skip: sdk && s3sdk ? false : "the AWS SDK packages are not installed (run npm ci in tests/e2e)" }, () => {
    let server;
    let s3tables;
    let s3;
    let bucket;

    const send = (command, input) => s3tables.send(new sdk[command](input));
    const table = (name, ns = "sales") => ({ tableBucketARN: bucket, namespace: ns, name });
    const create = (name, extra = {}) => send("CreateTableCommand", { ...table(name), format: "ICEBERG", ...extra });
    const get = (name, ns) => send("GetTableCommand", table(name, ns));

    before(async () => {
      server = new FloeServer();
      await server.start();
      s3tables = s3tablesClient(sdk, server);
      s3 = new s3sdk.S3Client({ ...clientConfig(server), forcePathStyle: true });
      bucket = (await send("CreateTableBucketCommand", { name: "js-tables" })).arn;
      await send("CreateNamespaceCommand", { tableBucketARN: bucket, namespace: ["sales"] });
    });

    after(async () => {
      s3tables?.destroy();
      s3?.destroy();
      await server?.cleanup();
    });

    test("CreateTable writes Iceberg v2 metadata that reads back over S3", async () => {
      const created = await create("orders", { metadata: { iceberg: { schema: SCHEMA } } });
      const loc = await send("GetTableMetadataLocationCommand", table("orders"));
      assert.match(loc.metadataLocation, /^s3:\/\/[0-9a-z-]+--table-s3\/metadata\/00000-[0-9a-f-]{36}\.metadata\.json$/,
        "the first metadata file is metadata/00000-<uuid>.metadata.json in the warehouse");
      assert.equal(loc.versionToken, created.versionToken, "GetTableMetadataLocation shows CreateTable's token");
      const [bucketName, ...key] = loc.metadataLocation.slice("s3://".length).split("/");
      const body = await (await s3.send(new s3sdk.GetObjectCommand({ Bucket: bucketName, Key: key.join("/") })))
        .Body.transformToString();
      const doc = JSON.parse(body);
      assert.equal(doc["format-version"], 2, "the file is Iceberg format version 2");
      assert.deepEqual(doc.schemas[0].fields.map((f) => [f.id, f.name]), [[1, "id"], [2, "note"]],
        "field ids are assigned 1..n in order");
      assert.equal(doc.location, loc.warehouseLocation, "the table's location is its warehouse");
    });

    test("GetTable answers by name and by ARN with the same table", async () => {
      const { tableARN } = await create("by_both");
      const byName = await get("by_both");
      const byArn = await send("GetTableCommand", { tableArn: tableARN });
      assert.equal(byName.tableARN, tableARN, "by name: the ARN CreateTable gave");
      assert.equal(byArn.name, "by_both", "by ARN: the same table");
      assert.deepEqual(byName.namespace, ["sales"], "the namespace is a one-element list");
      assert.equal(byName.format, "ICEBERG", "the format is ICEBERG");
      assert.ok(byName.createdAt instanceof Date && byName.modifiedAt instanceof Date, "timestamps are dates");
      assert.equal(byName.metadataLocation, undefined, "a table created without metadata has no metadata location");
    });

    test("bad names, formats and metadata are BadRequestException; duplicates ConflictException", async () => {
      await create("twice");
      await assert.rejects(create("twice"), modeled("ConflictException", 409), "a second table of one name conflicts");
      await assert.rejects(create("Bad-Name"), modeled("BadRequestException", 400), "an invalid name is refused");
      await assert.rejects(create("fmt", { format: "DELTA" }), modeled("BadRequestException", 400),
        "a format other than ICEBERG is refused");
      await assert.rejects(create("typo", { metadata: { iceberg: { schema: { fields: [{ name: "a", type: "int64" }] } } } }),
        modeled("BadRequestException", 400), "an unknown Iceberg type is refused");
      await assert.rejects(get("no_such_table"), modeled("NotFoundException", 404), "a missing table is not found");
    });

    test("ListTables pages through every table once, with the SDK paginator too", async () => {
      await send("CreateNamespaceCommand", { tableBucketARN: bucket, namespace: ["paged"] });
      for (let i = 0; i < 5; i++)
        await create(`p${i}`, { namespace: "paged" });
      const names = [];
      for await (const page of sdk.paginateListTables({ client: s3tables, pageSize: 2 },
        { tableBucketARN: bucket, namespace: "paged" }))
        names.push(...page.tables.map((t) => t.name));
      assert.deepEqual(names, ["p0", "p1", "p2", "p3", "p4"], "every table of the namespace, in order, once");
    });

    test("RenameTable keeps the ARN and the version token", async () => {
      const created = await create("old_name");
      await send("RenameTableCommand", { ...table("old_name"), newName: "new_name", versionToken: created.versionToken });
      const renamed = await get("new_name");
      assert.equal(renamed.tableARN, created.tableARN, "the ARN survives a rename");
      assert.equal(renamed.versionToken, created.versionToken, "the version token survives a rename");
      await assert.rejects(get("old_name"), modeled("NotFoundException", 404), "the old name is gone");
    });

    test(`of ${RACERS} clients racing on one token exactly one commit wins`, async () => {
      await create("race");
      const { versionToken, warehouseLocation } = await get("race");
      const clients = Array.from({ length: RACERS }, () => s3tablesClient(sdk, server));
      const results = await Promise.allSettled(clients.map((c, i) => c.send(new sdk.UpdateTableMetadataLocationCommand({
        ...table("race"), versionToken, metadataLocation: `${warehouseLocation}/metadata/0000${i}-x.metadata.json`,
      }))));
      clients.forEach((c) => c.destroy());
      assert.equal(results.filter((r) => r.status === "fulfilled").length, 1, "exactly one racer commits");
      assert.equal(results.filter((r) => r.status === "rejected" && r.reason.name === "ConflictException").length,
        RACERS - 1, "every other racer gets ConflictException");
      const winner = results.find((r) => r.status === "fulfilled").value;
      assert.equal((await get("race")).metadataLocation, winner.metadataLocation, "the table points where the winner said");
    });

    test("UpdateTableMetadataLocation refuses a location outside the warehouse", async () => {
      await create("outside");
      const { versionToken } = await get("outside");
      await assert.rejects(send("UpdateTableMetadataLocationCommand", {
        ...table("outside"), versionToken, metadataLocation: "s3://someone-else/metadata/1.metadata.json",
      }), modeled("BadRequestException", 400), "a metadata location outside the table's warehouse is refused");
    });

    test("DeleteTable checks the token, then the warehouse goes in the background", async () => {
      await create("doomed");
      const { versionToken, warehouseLocation } = await get("doomed");
      const warehouse = warehouseLocation.slice("s3://".length);
      await s3.send(new s3sdk.PutObjectCommand({ Bucket: warehouse, Key: "data/file.parquet", Body: "x" }));
      await assert.rejects(send("DeleteTableCommand", { ...table("doomed"), versionToken: "stale" }),
        modeled("ConflictException", 409), "a stale version token is refused");
      const resp = await send("DeleteTableCommand", { ...table("doomed"), versionToken });
      assert.equal(resp.$metadata.httpStatusCode, 204, "DeleteTable answers 204");
      let gone = false;
      for (let i = 0; i < 100 && !gone; i++) {
        try {
          // HeadBucket is not served on table storage: GetObject's NoSuchBucket tells the bucket is gone.
          await s3.send(new s3sdk.GetObjectCommand({ Bucket: warehouse, Key: "data/file.parquet" }));
          await sleep(100);
        } catch (err) {
          gone = err.name === "NoSuchBucket";
        }
      }
      assert.ok(gone, "the warehouse bucket is removed after the table");
    });
  });

// The console in a real browser: Debian's headless chromium (console_browser.mjs) loads the console
// at /_floe/ui/ against a server holding a table written the way an engine writes one (hyparquet-writer Parquet, avsc
// manifests, commits over the Iceberg REST catalog with iceberg-js, as iceberg_rest/60-iceberg-rest.mjs does),
// clicks through the bucket, the table and a snapshot, and checks what a user sees: bucket, table
// and field names, the snapshot count, the data files and a preview row; and, on a format version 3
// table with a deletion vector (tests/e2e/iceberg_writer.mjs writes it in a Puffin file), the row
// lineage (next-row-id, a snapshot's first-row-id and added-rows), the vector beside its data file
// and a preview without the rows it deletes. It also checks that no
// request left 127.0.0.1 and that the page logged no error, and saves screenshots of the table
// page in light and dark mode (FLOE_E2E_ARTIFACTS, else the temporary directory).
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { after, before, describe, test } from "node:test";

import { ARTIFACTS, Browser, chromiumMissing } from "../console_browser.mjs";
import { FloeServer, clientConfig, importOrSkip, s3tablesClient } from "../floe_server.mjs";
import {
  IcebergWriter, MANIFEST_ENTRY, MANIFEST_FILE, SCHEMA as WRITER_SCHEMA, avroFile, idNameParquetFile, readAvro,
} from "../iceberg_writer.mjs";

const iceberg = await importOrSkip("iceberg-js");
const s3sdk = await importOrSkip("@aws-sdk/client-s3");
const s3tablesSdk = await importOrSkip("@aws-sdk/client-s3tables");
const avro = (await importOrSkip("avsc"))?.default;
const parquet = await importOrSkip("hyparquet-writer");
const missing = [["iceberg-js", iceberg], ["@aws-sdk/client-s3", s3sdk], ["@aws-sdk/client-s3tables", s3tablesSdk],
  ["avsc", avro], ["hyparquet-writer", parquet]].filter(([, mod]) => !mod).map(([name]) => `${name} (npm ci in tests/e2e)`);
if (chromiumMissing()) missing.push(chromiumMissing());

// A schema with nested types, so the page has a struct, a list and a map to show.
const SCHEMA = {
  type: "struct", "schema-id": 0,
  fields: [
    { id: 1, name: "id", type: "long", required: true },
    { id: 2, name: "name", type: "string", required: false },
    { id: 3, name: "shipping", required: false, type: { type: "struct", fields: [
      { id: 4, name: "city", type: "string", required: false },
      { id: 5, name: "zip", type: "int", required: false }] } },
    { id: 6, name: "labels", required: false, type: { type: "list", "element-id": 7, element: "string", "element-required": false } },
    { id: 8, name: "scores", required: false, type: { type: "map", "key-id": 9, key: "string", "value-id": 10, value: "double", "value-required": false } },
  ],
};

const parquetFile = (rows) => idNameParquetFile(rows, SCHEMA);

describe("the console in headless chromium", { skip: missing.length ? `missing: ${missing.join(", ")}` : false }, () => {
  let server, s3, s3tables, catalog, browser, page, bucketArn;
  const snapshotIds = [];
  const send = (client, sdk, command, input) => client.send(new sdk[command](input));
  const split = (url) => { const rest = url.slice(5), i = rest.indexOf("/"); return { Bucket: rest.slice(0, i), Key: rest.slice(i + 1) }; };
  const put = (url, Body) => send(s3, s3sdk, "PutObjectCommand", { ...split(url), Body });
  const get = async (url) => Buffer.from(await (await send(s3, s3sdk, "GetObjectCommand", split(url))).Body.transformToByteArray());
  let nextSnapshotId = Date.now() * 1000;

  /** One append of `rows` as one Parquet file: the commit an engine makes. */
  async function append(rows) {
    const md = await catalog.loadTable({ namespace: ["sales"], name: "events" });
    const snapshotId = nextSnapshotId++;
    const seq = md["last-sequence-number"] + 1;
    const dataPath = `${md.location}/data/${randomUUID()}.parquet`;
    const data = parquetFile(rows);
    await put(dataPath, data);
    const manifestPath = `${md.location}/metadata/${randomUUID()}-m0.avro`;
    const manifest = await avroFile(MANIFEST_ENTRY, [{ status: 1, snapshot_id: snapshotId, sequence_number: null, file_sequence_number: null,
      data_file: { content: 0, file_path: dataPath, file_format: "PARQUET", partition: {}, record_count: rows.length, file_size_in_bytes: data.length } }],
    { schema: JSON.stringify(SCHEMA), "partition-spec": "[]", "partition-spec-id": "0", "format-version": "2", content: "data" });
    await put(manifestPath, manifest);
    const parent = md.snapshots?.find((s) => s["snapshot-id"] === md["current-snapshot-id"]);
    const inherited = parent ? await readAvro(await get(parent["manifest-list"])) : [];
    const listPath = `${md.location}/metadata/snap-${snapshotId}-1-${randomUUID()}.avro`;
    await put(listPath, await avroFile(MANIFEST_FILE, [...inherited, { manifest_path: manifestPath, manifest_length: manifest.length,
      partition_spec_id: 0, content: 0, sequence_number: seq, min_sequence_number: seq, added_snapshot_id: snapshotId,
      added_files_count: 1, existing_files_count: 0, deleted_files_count: 0, added_rows_count: rows.length, existing_rows_count: 0,
      deleted_rows_count: 0 }], { "snapshot-id": String(snapshotId), "sequence-number": String(seq), "format-version": "2" }));
    const total = (parent ? Number(parent.summary["total-records"]) : 0) + rows.length;
    const size = (parent ? Number(parent.summary["total-files-size"]) : 0) + data.length;
    const snapshot = { "snapshot-id": snapshotId, "sequence-number": seq, "timestamp-ms": Date.now(), "manifest-list": listPath, "schema-id": 0,
      summary: { operation: "append", "added-data-files": "1", "added-records": String(rows.length), "added-files-size": String(data.length),
        "total-records": String(total), "total-data-files": String(snapshotIds.length + 1), "total-files-size": String(size) } };
    if (parent) snapshot["parent-snapshot-id"] = parent["snapshot-id"];
    await catalog.updateTable({ namespace: ["sales"], name: "events" }, {
      requirements: [{ type: "assert-ref-snapshot-id", ref: "main", "snapshot-id": parent ? parent["snapshot-id"] : null }],
      updates: [{ action: "add-snapshot", snapshot }, { action: "set-snapshot-ref", "ref-name": "main", type: "branch", "snapshot-id": snapshotId }],
    });
    snapshotIds.push(snapshotId);
  }

  before(async () => {
    server = new FloeServer();
    await server.start();
    s3 = new s3sdk.S3Client({ ...clientConfig(server), forcePathStyle: true });
    s3tables = s3tablesClient(s3tablesSdk, server);
    bucketArn = (await send(s3tables, s3tablesSdk, "CreateTableBucketCommand", { name: "lakehouse" })).arn;
    catalog = new iceberg.IcebergRestCatalog({ baseUrl: `${server.endpoint}/_floe/iceberg`, catalogName: encodeURIComponent(bucketArn), auth: { type: "none" } });
    await catalog.createNamespace({ namespace: ["sales"] });
    await catalog.createTable({ namespace: ["sales"] }, { name: "events", schema: SCHEMA, properties: { "write.format.default": "parquet" } });
    await append([{ id: 1n, name: "alpha" }, { id: 2n, name: "beta" }, { id: 3n, name: null }, { id: 4n, name: "delta" }]);
    await new Promise((r) => setTimeout(r, 20)); // a later timestamp for the second snapshot
    await append([{ id: 5n, name: "epsilon" }, { id: 6n, name: "zeta" }, { id: 7n, name: "eta" }]);
    browser = await Browser.launch();
    page = await browser.newPage();
    await page.setColorScheme("light");
  });

  after(async () => {
    await browser?.close();
    s3?.destroy();
    s3tables?.destroy();
    await server?.cleanup();
  });

  test("the start page lists the table bucket in the picked account and region", async () => {
    await page.goto(`${server.endpoint}/_floe/ui/`);
    await page.waitReady("the bucket list");
    assert.equal(await page.eval("document.querySelector('a.bucket-link')?.textContent"), "lakehouse", "shows the bucket by name");
    assert.equal(await page.eval("document.getElementById('scope').value"), "000000000000/us-east-1", "the picker offers the scope that holds it");
  });

  test("clicking the bucket shows its namespaces, tables and configuration", async () => {
    await page.eval("document.getElementById('main').dataset.ready = 'false'");
    await page.click("a.bucket-link");
    await page.waitReady("the bucket page");
    assert.equal(await page.eval("document.querySelector('main h1').textContent"), "lakehouse");
    assert.ok((await page.eval("document.querySelector('[aria-label=Namespaces]').innerText")).includes("sales"), "lists namespace sales");
    await page.waitFor("document.querySelector('a.table-link')", "the table list");
    assert.equal(await page.eval("document.querySelector('a.table-link').textContent"), "events", "lists table events");
    assert.ok((await page.eval("document.getElementById('main').innerText")).includes("icebergUnreferencedFileRemoval"), "shows the bucket's maintenance");
  });

  test("clicking the table shows schema, snapshots, data files and a preview", async () => {
    await page.eval("document.getElementById('main').dataset.ready = 'false'");
    await page.click("a.table-link");
    await page.waitReady("the table page");
    const text = await page.eval("document.getElementById('main').innerText");
    assert.equal(await page.eval("document.querySelector('main h1').textContent"), "sales.events");
    const schema = await page.eval("document.getElementById('schema').innerText");
    for (const field of ["id", "name", "shipping", "city", "zip", "labels", "element", "scores", "key", "value"])
      assert.ok(schema.includes(field), `the schema shows ${field}`);
    assert.ok(schema.includes("map<string, double>") && schema.includes("list<string>"), "nested types are spelled out");
    assert.ok(schema.includes("required") && schema.includes("optional"), "required flags are shown");
    assert.ok(text.includes("Unpartitioned") && text.includes("write.format.default"), "partition spec and properties");
    assert.ok(text.includes(await page.eval("document.getElementById('version-token').textContent")), "the version token");
    assert.equal(await page.eval("document.getElementById('snapshots').dataset.count"), "2", "two snapshots on the timeline");
    assert.equal(await page.eval("document.querySelectorAll('#snapshot-list button').length"), 2);
    assert.ok(await page.eval("!!document.querySelector('#snapshot-chart canvas')"), "the timeline is drawn");
    assert.equal(await page.eval("document.getElementById('snapshot-detail').dataset.snapshotId"), String(snapshotIds[1]),
      "the current snapshot is selected first, its id exact");
    assert.equal(await page.eval("document.getElementById('data-files').dataset.count"), "2", "two data files from the manifests");
    assert.ok(text.includes("7 records"), "their record counts add up");
    assert.equal(await page.eval("document.getElementById('preview').dataset.rows"), "7", "the preview reads all 7 rows");
    const preview = await page.eval("document.getElementById('preview-rows').innerText");
    assert.ok(preview.includes("alpha") && preview.includes("epsilon"), "preview rows show the values written");
    await page.screenshot(path.join(ARTIFACTS, "floe-console-table-light.png"));
    // The top of the page, at the size docs/console-table.png has (copied from here by hand).
    await page.eval("window.scrollTo(0, 0)");
    await page.screenshot(path.join(ARTIFACTS, "floe-console-table-top.png"), { x: 0, y: 0, width: 1400, height: 1350, scale: 0.7 });
  });

  test("a snapshot is selected from the keyboard and shows its summary", async () => {
    await page.eval("document.querySelector('#snapshot-list button').focus()");
    await page.key("Enter", "Enter", 13);
    await page.waitFor(`document.getElementById('snapshot-detail').dataset.snapshotId === '${snapshotIds[0]}'`, "the first snapshot");
    const detail = await page.eval("document.getElementById('snapshot-detail').innerText");
    assert.ok(detail.includes("append") && detail.includes('"added-records": "4"'), "the summary of the first append");
    await page.eval("document.querySelectorAll('#snapshot-list button')[1].focus()");
    await page.key(" ", "Space", 32);
    await page.waitFor(`document.getElementById('snapshot-detail').dataset.snapshotId === '${snapshotIds[1]}'`, "the second snapshot by Space");
  });

  test("Run now runs a maintenance job, shows the answer and the job's new status", async () => {
    const status = "document.querySelector('#maintenance tr:has(button[data-type=icebergSnapshotManagement]) [data-job-status]')?.dataset.jobStatus";
    assert.equal(await page.eval(status), "Not_Yet_Run", "no job has run yet");
    await page.click("#maintenance button[data-type=icebergSnapshotManagement]");
    await page.waitFor(`${status} !== 'Not_Yet_Run'`, "the job status after the run");
    const answer = await page.eval("document.getElementById('maintenance-answer').innerText");
    assert.ok(answer.includes("the server answered") && answer.includes('"status": "Successful"'), `the answer is shown: ${answer}`);
    assert.equal(await page.eval(status), "Successful", "the table's job status is read again");
  });

  test("dark mode renders the table page too", async () => {
    await page.setColorScheme("dark");
    const bg = await page.eval("getComputedStyle(document.body).backgroundColor");
    assert.equal(bg, "rgb(13, 17, 23)", "the dark palette applies");
    await new Promise((r) => setTimeout(r, 300)); // the chart redraws itself in the new palette
    await page.screenshot(path.join(ARTIFACTS, "floe-console-table-dark.png"));
  });

  test("a v3 table shows its row lineage, a deletion vector beside its file, and a preview without its rows", async () => {
    const w = await IcebergWriter.open(server, { bucket: "lineage", namespace: "tracked" });
    try {
      await w.catalog.createTable({ namespace: ["tracked"] },
        { name: "orders", schema: WRITER_SCHEMA, properties: { "format-version": "3" } });
      const a = await w.append("orders", [0, 1, 2, 3].map((i) => ({ id: BigInt(i), name: `row-${i}` })));
      await w.append("orders", [4, 5, 6].map((i) => ({ id: BigInt(i), name: `row-${i}` })));
      await w.deleteRows("orders", [{ dataPath: a.dataPath, positions: [1, 2] }]);
      const arn = await w.tableArn("orders");
      await page.eval("document.getElementById('main').dataset.ready = 'false'");
      await page.goto(`${server.endpoint}/_floe/ui/#/table?${new URLSearchParams({ arn })}`);
      await page.waitReady("the v3 table page");
      assert.equal(await page.eval("document.getElementById('format-version').textContent"), "3", "the format version");
      assert.equal(await page.eval("document.getElementById('next-row-id').textContent"), "7", "next-row-id: 7 rows were given ids");
      assert.equal(await page.eval("document.querySelector('#snapshot-detail .first-row-id').textContent"), "7",
        "the current snapshot (the delete) starts at row id 7");
      assert.equal(await page.eval("document.querySelector('#snapshot-detail .added-rows').textContent"), "0", "and adds no rows");
      const list = await page.eval("document.getElementById('snapshot-list').innerText");
      assert.ok(list.includes("row ids from 0 (+4)") && list.includes("row ids from 4 (+3)"),
        `each append's first-row-id and added-rows are on the timeline: ${list}`);
      await page.waitFor("document.getElementById('preview').dataset.rows !== undefined", "the preview");
      const files = await page.eval("document.getElementById('data-files-table').innerText");
      assert.ok(files.includes("Deletion vector") && files.includes("2 rows deleted") && files.includes(".puffin"),
        `the vector is shown beside its data file: ${files}`);
      assert.equal(await page.eval("document.getElementById('preview').dataset.rows"), "5", "the preview applies the vector");
      const preview = await page.eval("document.getElementById('preview-rows').innerText");
      assert.ok(preview.includes("row-0") && preview.includes("row-3") && preview.includes("row-6"), "kept rows are shown");
      assert.ok(!preview.includes("row-1") && !preview.includes("row-2"), "deleted rows are not");
      assert.ok(await page.eval("!!document.getElementById('preview-vectors')"), "the page says the vectors are applied");
    } finally {
      w?.close();
    }
  });

  test("no request left 127.0.0.1 and the console logged no error", () => {
    const outside = page.requests.filter((u) => !u.startsWith(server.endpoint) && !u.startsWith("data:") && !u.startsWith("about:"));
    assert.deepEqual(outside, [], "every request went to the Floe server");
    assert.ok(page.requests.some((u) => u.includes("/_floe/ui/api/object")), "the browser read the table's files through the console");
    assert.deepEqual(page.errors, [], "no script error and no failed request");
  });
});

describe("the console in headless chromium with strict signatures", { skip: missing.length ? `missing: ${missing.join(", ")}` : false }, () => {
  const KEY = "111111111111", SECRET = "secret-one";
  let server, browser, page;

  before(async () => {
    // The buckets are made before strict signatures are turned on (an access key of 12 digits is
    // the account either way); the console's own signing is what this test is about.
    server = new FloeServer();
    await server.start();
    for (const [accessKeyId, secretAccessKey, name] of [[KEY, SECRET, "mine"], ["222222222222", "secret-two", "theirs"]]) {
      const client = new s3tablesSdk.S3TablesClient({ ...clientConfig(server), credentials: { accessKeyId, secretAccessKey } });
      await client.send(new s3tablesSdk.CreateTableBucketCommand({ name }));
      client.destroy();
    }
    server.args = ["--strict-signatures", "--credentials", `${KEY}:${SECRET}`, "--credentials", "222222222222:secret-two"];
    await server.restart();
    browser = await Browser.launch();
    page = await browser.newPage();
  });

  after(async () => {
    await browser?.close();
    await server?.cleanup();
  });

  test("asks for keys, signs in the browser, and shows only the signer's account", async () => {
    await page.goto(`${server.endpoint}/_floe/ui/`);
    await page.waitFor("document.getElementById('credentials').open", "the credentials dialog");
    await page.eval(`document.getElementById('access-key').value = '${KEY}';
      document.getElementById('secret-key').value = '${SECRET}';
      document.getElementById('main').dataset.ready = 'false';
      document.querySelector('#credentials-form button[value=save]').click()`);
    await page.waitFor("document.querySelector('a.bucket-link')", "the signed bucket list");
    const names = await page.eval("[...document.querySelectorAll('a.bucket-link')].map((a) => a.textContent)");
    assert.deepEqual(names, ["mine"], "only the signer's bucket is listed");
    const scopes = await page.eval("[...document.getElementById('scope').options].map((o) => o.value)");
    assert.deepEqual(scopes, [`${KEY}/us-east-1`], "the picker offers only the signer's account");
    await page.eval("document.getElementById('main').dataset.ready = 'false'");
    await page.click("a.bucket-link");
    await page.waitReady("the signed bucket page");
    assert.equal(await page.eval("document.querySelector('main h1').textContent"), "mine");
  });
});

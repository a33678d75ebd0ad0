// The bucket page shows each replication destination's status, in headless chromium
// (console_browser.mjs): a table bucket of account 111111111111 in us-east-1 replicates (its own
// configuration, PutTableBucketReplication) to a bucket of account 222222222222 in eu-west-1 and to
// a bucket that does not exist. Its page lists both destinations with the status their tables add
// up to, and how many tables GetTableReplicationStatus reports completed, pending and failed for
// each (completed for the real one, failed with the failure message for the missing one); a table
// with nothing to replicate yet makes the real destination pending.
//
// Run: cd tests/e2e && npm ci && node --test console/86-console-bucket-replication-status.mjs
import assert from "node:assert/strict";
import path from "node:path";
import { after, before, describe, test } from "node:test";

import { ARTIFACTS, Browser, chromiumMissing } from "../console_browser.mjs";
import { FloeServer, importOrSkip } from "../floe_server.mjs";

const sdk = await importOrSkip("@aws-sdk/client-s3tables");
const missing = [sdk ? null : "@aws-sdk/client-s3tables (npm ci in tests/e2e)", chromiumMissing()].filter(Boolean);
const SOURCE = { account: "111111111111", region: "us-east-1" };
const DESTINATION = { account: "222222222222", region: "eu-west-1" };
const NOWHERE = "arn:aws:s3tables:eu-west-1:222222222222:bucket/does-not-exist";
const SCHEMA = { fields: [{ name: "id", type: "long", required: true }] };
const WAIT_MS = 15000;

describe("the bucket page shows each replication destination's status", { skip: missing.length ? `missing: ${missing.join(", ")}` : false }, () => {
  let server, source, destination, browser, page, sourceArn, destinationArn;
  const tableArns = [];
  const client = (scope) => new sdk.S3TablesClient({ endpoint: server.endpoint, region: scope.region, maxAttempts: 1,
    credentials: { accessKeyId: scope.account, secretAccessKey: "secret" } });

  async function createTable(name) {
    const { tableARN } = await source.send(new sdk.CreateTableCommand({ tableBucketARN: sourceArn, namespace: "sales", name,
      format: "ICEBERG", metadata: { iceberg: { schema: SCHEMA } } }));
    tableArns.push(tableARN);
  }

  /** Per destination, how many tables GetTableReplicationStatus reports in each status. */
  async function apiCounts() {
    const counts = {};
    for (const tableArn of tableArns) {
      const out = await source.send(new sdk.GetTableReplicationStatusCommand({ tableArn }));
      for (const d of out.destinations) {
        counts[d.destinationTableBucketArn] ??= { completed: 0, pending: 0, failed: 0 };
        counts[d.destinationTableBucketArn][d.replicationStatus]++;
      }
    }
    return counts;
  }

  async function waitForCounts(want) {
    const deadline = Date.now() + WAIT_MS;
    let got;
    while (Date.now() < deadline) {
      got = await apiCounts();
      if (JSON.stringify(got[destinationArn]) === JSON.stringify(want)) return got;
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.fail(`replication did not reach ${JSON.stringify(want)}: ${JSON.stringify(got)}`);
  }

  /** The rows of the bucket page's destination table: {destination: [status, tables, last replicated]}. */
  async function shownRows() {
    await page.load(`${server.endpoint}/_floe/ui/#/bucket?arn=${encodeURIComponent(sourceArn)}`, "the source bucket's page");
    return page.eval(`Object.fromEntries([...document.querySelectorAll('#replication tbody tr')].map((tr) =>
      [tr.cells[1].textContent, [...tr.cells].slice(2).map((c) => c.textContent)]))`);
  }

  before(async () => {
    server = new FloeServer();
    await server.start();
    source = client(SOURCE);
    destination = client(DESTINATION);
    sourceArn = (await source.send(new sdk.CreateTableBucketCommand({ name: "orders-us" }))).arn;
    destinationArn = (await destination.send(new sdk.CreateTableBucketCommand({ name: "orders-eu" }))).arn;
    await source.send(new sdk.CreateNamespaceCommand({ tableBucketARN: sourceArn, namespace: ["sales"] }));
    await createTable("orders");
    await createTable("refunds");
    await source.send(new sdk.PutTableBucketReplicationCommand({ tableBucketARN: sourceArn, configuration: {
      role: "arn:aws:iam::111111111111:role/replication",
      rules: [{ destinations: [{ destinationTableBucketARN: destinationArn }, { destinationTableBucketARN: NOWHERE }] }] } }));
    browser = await Browser.launch();
    page = await browser.newPage();
    await page.setColorScheme("light");
  });

  after(async () => {
    await browser?.close();
    source?.destroy();
    destination?.destroy();
    await server?.cleanup();
  });

  test("each destination shows the status its tables add up to, with the API's counts", async () => {
    const counts = await waitForCounts({ completed: 2, pending: 0, failed: 0 });
    assert.deepEqual(counts[NOWHERE], { completed: 0, pending: 0, failed: 2 }, "the missing destination fails for both tables");
    const rows = await shownRows();
    assert.deepEqual(Object.keys(rows).sort(), [destinationArn, NOWHERE].sort(), "both destinations are listed");
    const [status, tables, last] = rows[destinationArn];
    assert.equal(status, "completed", "the real destination is completed");
    assert.equal(tables, "2 completed, 0 pending, 0 failed", "with the counts GetTableReplicationStatus gives");
    assert.match(last, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ$/, "and when it last replicated");
    const [badStatus, badTables, badLast] = rows[NOWHERE];
    assert.equal(badStatus, "failed", "the missing destination is failed");
    assert.match(badTables, /^0 completed, 0 pending, 2 failed\s*sales\.(orders|refunds): The destination table bucket .* does not exist/,
      `with its counts and the failure message: ${badTables}`);
    assert.equal(badLast, "–", "it never replicated");
    await page.screenshot(path.join(ARTIFACTS, "floe-console-bucket-replication.png"));
  });

  test("a table with nothing to replicate yet makes the destination pending", async () => {
    // A table without metadata has no state to copy: GetTableReplicationStatus says pending.
    const { tableARN } = await source.send(new sdk.CreateTableCommand({ tableBucketARN: sourceArn, namespace: "sales",
      name: "drafts", format: "ICEBERG" }));
    tableArns.push(tableARN);
    const counts = await apiCounts();
    assert.deepEqual(counts[destinationArn], { completed: 2, pending: 1, failed: 0 }, "the API reports the new table pending");
    const rows = await shownRows();
    assert.deepEqual(rows[destinationArn].slice(0, 2), ["pending", "2 completed, 1 pending, 0 failed"],
      "the page shows the destination pending, with the API's counts");
  });

  test("the console logged no error", () => {
    assert.deepEqual(page.errors, [], "no script error and no failed request");
  });
});

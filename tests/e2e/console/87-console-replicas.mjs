// A replica table's page says what it is, in headless chromium (console_browser.mjs): a table of
// account 111111111111 in us-east-1 replicates (PutTableReplication) into a bucket of account
// 222222222222 in eu-west-1. The replica's page names its source (the sourceTableARN GetTable
// reports), links to it, and shows the status the source's GetTableReplicationStatus gives for
// this destination and when it last replicated; it never says the table does not replicate.
// Maintenance is shown as AWS describes it for a read-only replica, with no Run now button (the
// maintenance route refuses a run on a replica with a 400). The source's page lists the replica.
// When the source stops replicating here, and when the source is deleted, the replica's page says so.
//
// Run: cd tests/e2e && npm ci && node --test console/87-console-replicas.mjs
import assert from "node:assert/strict";
import path from "node:path";
import { after, before, describe, test } from "node:test";

import { ARTIFACTS, Browser, chromiumMissing } from "../console_browser.mjs";
import { FloeServer, importOrSkip } from "../floe_server.mjs";
import { runMaintenance } from "../iceberg_writer.mjs";

const sdk = await importOrSkip("@aws-sdk/client-s3tables");
const missing = [sdk ? null : "@aws-sdk/client-s3tables (npm ci in tests/e2e)", chromiumMissing()].filter(Boolean);
const SOURCE = { account: "111111111111", region: "us-east-1" };
const DESTINATION = { account: "222222222222", region: "eu-west-1" };
const SCHEMA = { fields: [{ name: "id", type: "long", required: true }, { name: "name", type: "string" }] };
const WAIT_MS = 15000;

describe("a replica table's page", { skip: missing.length ? `missing: ${missing.join(", ")}` : false }, () => {
  let server, source, destination, browser, page, sourceBucket, replicaBucket, sourceArn, replicaArn;
  const client = (scope) => new sdk.S3TablesClient({ endpoint: server.endpoint, region: scope.region, maxAttempts: 1,
    credentials: { accessKeyId: scope.account, secretAccessKey: "secret" } });
  const text = (id) => page.eval(`document.getElementById(${JSON.stringify(id)})?.innerText ?? null`);
  const openTable = (arn, what) => page.load(`${server.endpoint}/_floe/ui/#/table?arn=${encodeURIComponent(arn)}`, what);

  before(async () => {
    server = new FloeServer();
    await server.start();
    source = client(SOURCE);
    destination = client(DESTINATION);
    sourceBucket = (await source.send(new sdk.CreateTableBucketCommand({ name: "orders-us" }))).arn;
    replicaBucket = (await destination.send(new sdk.CreateTableBucketCommand({ name: "orders-eu" }))).arn;
    await source.send(new sdk.CreateNamespaceCommand({ tableBucketARN: sourceBucket, namespace: ["sales"] }));
    sourceArn = (await source.send(new sdk.CreateTableCommand({ tableBucketARN: sourceBucket, namespace: "sales", name: "orders",
      format: "ICEBERG", metadata: { iceberg: { schema: SCHEMA } } }))).tableARN;
    await source.send(new sdk.PutTableReplicationCommand({ tableArn: sourceArn, configuration: {
      role: "arn:aws:iam::111111111111:role/replication", rules: [{ destinations: [{ destinationTableBucketARN: replicaBucket }] }] } }));
    const deadline = Date.now() + WAIT_MS;
    let entry;
    while (Date.now() < deadline) {
      entry = (await source.send(new sdk.GetTableReplicationStatusCommand({ tableArn: sourceArn }))).destinations[0];
      if (entry.replicationStatus === "completed") break;
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.equal(entry.replicationStatus, "completed", "the replica is made");
    replicaArn = entry.destinationTableArn;
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

  test("names its source and shows the status the source reports for it", async () => {
    const replica = await destination.send(new sdk.GetTableCommand({ tableArn: replicaArn }));
    const reported = replica.managedTableInformation.replicationInformation.sourceTableARN;
    assert.equal(reported, sourceArn, "GetTable names the source");
    await openTable(replicaArn, "the replica's page");
    assert.equal(await page.eval("document.querySelector('main h1').textContent"), "sales.orders");
    assert.equal(await page.eval("document.querySelector('#replica-of code').textContent"), reported, "the page names the source GetTable reports");
    assert.equal(await page.eval("document.querySelector('dl.facts dt:nth-of-type(2)').textContent"), "Replica of", "the page says it is a replica at the top");
    const status = (await source.send(new sdk.GetTableReplicationStatusCommand({ tableArn: sourceArn }))).destinations
      .find((d) => d.destinationTableBucketArn === replicaBucket);
    assert.equal(await text("replica-status"), status.replicationStatus, "with the status the source's GetTableReplicationStatus gives");
    const shown = await page.eval("document.getElementById('main').innerText");
    assert.ok(shown.includes(status.lastSuccessfulReplicatedUpdate.metadataLocation), "and the metadata it last replicated");
    assert.doesNotMatch(shown, /The table does not replicate/, "it never says the replica does not replicate");
    await page.screenshot(path.join(ARTIFACTS, "floe-console-replica.png"));
  });

  test("shows maintenance as AWS describes it for a replica, without Run now buttons that cannot work", async () => {
    const refused = await runMaintenance(server, { arn: replicaArn, type: "icebergSnapshotManagement" });
    assert.equal(refused.status, 400, "the maintenance route refuses a run on a replica");
    assert.equal(await page.eval("document.querySelectorAll('#maintenance button').length"), 0, "so the page offers no Run now button");
    assert.match(await text("replica-maintenance"), /read-only replica: no maintenance job runs on it/, "and says why");
    assert.ok(await page.eval("document.querySelectorAll('#maintenance tbody tr').length") >= 3, "the replica's configuration is still listed");
  });

  test("links to the source, whose page lists the replica", async () => {
    await page.eval("document.getElementById('main').dataset.ready = 'false'");
    await page.click("#replica-source-link");
    await page.waitReady("the source's page");
    assert.equal(await page.eval("document.querySelector('dl.facts code').textContent"), sourceArn, "the link opens the source table");
    const rows = await text("replication-status");
    assert.ok(rows.includes(replicaBucket) && rows.includes(replicaArn) && rows.includes("completed"), `the source lists the replica: ${rows}`);
    assert.equal(await page.eval("document.querySelectorAll('#maintenance button').length"), 4, "the source keeps its Run now buttons");
    assert.equal(await page.eval("document.getElementById('replica-of')"), null, "and is no replica");
  });

  test("says when the source no longer replicates here, and when the source is gone", async () => {
    const { versionToken } = await source.send(new sdk.GetTableReplicationCommand({ tableArn: sourceArn }));
    await source.send(new sdk.DeleteTableReplicationCommand({ tableArn: sourceArn, versionToken }));
    await openTable(replicaArn, "the replica's page after the source stopped replicating");
    const facts = await page.eval("document.getElementById('main').innerText");
    assert.match(facts, /Source replicates here\s+no: the source's configuration no longer names this table bucket/, "stopped replication is shown");
    await source.send(new sdk.DeleteTableCommand({ tableBucketARN: sourceBucket, namespace: "sales", name: "orders" }));
    await openTable(replicaArn, "the replica's page after the source was deleted");
    assert.match(await text("replica-source-status"), /The source table no longer exists/, "a deleted source is shown");
    assert.equal(await page.eval("document.querySelector('#replica-of code').textContent"), sourceArn, "the source's ARN stays named");
  });

  test("the console logged no error", () => {
    assert.deepEqual(page.errors, [], "no script error and no failed request");
  });
});

// The console shows what the API answers, defaults included, in headless chromium
// (console_browser.mjs): a new table bucket's encryption (GetTableBucketEncryption: AES256), storage
// class (GetTableBucketStorageClass: STANDARD) and unreferenced file removal days
// (GetTableBucketMaintenanceConfiguration: 3 and 10) are shown with those values, marked as the
// default, never as "none" or "–"; so are a table's (GetTableEncryption, GetTableStorageClass, and
// the bucket's removal days on the table page): a table that took its encryption and storage
// class from its bucket (CreateTable named none) has them marked as defaults, and keeps them,
// marked, when the bucket's settings change. Values that were set (on the bucket, or by CreateTable) are
// shown unmarked.
//
// Run: cd tests/e2e && npm ci && node --test console/85-console-default-settings.mjs
import assert from "node:assert/strict";
import path from "node:path";
import { after, before, describe, test } from "node:test";

import { ARTIFACTS, Browser, chromiumMissing } from "../console_browser.mjs";
import { FloeServer, importOrSkip, s3tablesClient } from "../floe_server.mjs";

const sdk = await importOrSkip("@aws-sdk/client-s3tables");
const missing = [sdk ? null : "@aws-sdk/client-s3tables (npm ci in tests/e2e)", chromiumMissing()].filter(Boolean);
const KMS_KEY = "arn:aws:kms:us-east-1:000000000000:key/1234abcd-12ab-34cd-56ef-1234567890ab";

/** The <dd> of the fact labelled `label` in the page's Configuration list. */
const fact = (label) => `[...document.querySelectorAll('dl.facts dt')].find((dt) => dt.textContent === ${JSON.stringify(label)})?.nextElementSibling?.textContent`;
/** The cells of the maintenance row whose first cell is `type`, in the table with id or label `which`. */
const row = (selector, type) => `[...document.querySelectorAll('${selector} tbody tr')].map((tr) => [...tr.cells].map((c) => c.textContent)).find((cells) => cells[0] === ${JSON.stringify(type)})`;

describe("the console shows the values the API answers, defaults marked", { skip: missing.length ? `missing: ${missing.join(", ")}` : false }, () => {
  let server, s3tables, browser, page, bucketArn, tableArn;
  const send = (command, input) => s3tables.send(new sdk[command](input));

  const open = (hash, what) => page.load(`${server.endpoint}/_floe/ui/${hash}`, what);

  before(async () => {
    server = new FloeServer();
    await server.start();
    s3tables = s3tablesClient(sdk, server);
    bucketArn = (await send("CreateTableBucketCommand", { name: "defaults" })).arn;
    await send("CreateNamespaceCommand", { tableBucketARN: bucketArn, namespace: ["sales"] });
    tableArn = (await send("CreateTableCommand", { tableBucketARN: bucketArn, namespace: "sales", name: "orders", format: "ICEBERG" })).tableARN;
    browser = await Browser.launch();
    page = await browser.newPage();
    await page.setColorScheme("light");
  });

  after(async () => {
    await browser?.close();
    s3tables?.destroy();
    await server?.cleanup();
  });

  test("a new bucket's encryption, storage class and removal days are the API's, marked as the default", async () => {
    const enc = await send("GetTableBucketEncryptionCommand", { tableBucketARN: bucketArn });
    const sc = await send("GetTableBucketStorageClassCommand", { tableBucketARN: bucketArn });
    const maint = await send("GetTableBucketMaintenanceConfigurationCommand", { tableBucketARN: bucketArn });
    const removal = maint.configuration.icebergUnreferencedFileRemoval;
    assert.equal(enc.encryptionConfiguration.sseAlgorithm, "AES256", "the API answers AES256 for a new bucket");
    assert.equal(sc.storageClassConfiguration.storageClass, "STANDARD", "and STANDARD");
    assert.deepEqual([removal.settings.icebergUnreferencedFileRemoval.unreferencedDays,
      removal.settings.icebergUnreferencedFileRemoval.nonCurrentDays], [3, 10], "and 3 and 10 days");

    await open(`#/bucket?arn=${encodeURIComponent(bucketArn)}`, "the bucket page");
    assert.equal(await page.eval(fact("Encryption")), "AES256 (default)", "the bucket page shows the API's encryption, marked as the default");
    assert.equal(await page.eval(fact("Storage class")), "STANDARD (default)", "and its storage class");
    assert.deepEqual(await page.eval(row('table[aria-label="Bucket maintenance"]', "icebergUnreferencedFileRemoval")),
      ["icebergUnreferencedFileRemoval", "enabled (default)", "3 (default)", "10 (default)"], "and the removal days the API answers");
    const configuration = await page.eval("[...document.querySelectorAll('dl.facts')].at(-1).innerText");
    assert.doesNotMatch(configuration, /\bnone\b|–/, "no value the API reports is shown as absent");
    await page.screenshot(path.join(ARTIFACTS, "floe-console-bucket-defaults.png"));
  });

  test("a table's encryption, storage class and removal days are the API's too", async () => {
    const enc = await send("GetTableEncryptionCommand", { tableBucketARN: bucketArn, namespace: "sales", name: "orders" });
    const sc = await send("GetTableStorageClassCommand", { tableBucketARN: bucketArn, namespace: "sales", name: "orders" });
    await open(`#/table?arn=${encodeURIComponent(tableArn)}`, "the table page");
    assert.equal(enc.encryptionConfiguration.sseAlgorithm, "AES256", "the table took its bucket's default encryption");
    assert.equal(sc.storageClassConfiguration.storageClass, "STANDARD", "and storage class");
    assert.equal(await page.eval(fact("Encryption")), "AES256 (default)",
      "the table page shows GetTableEncryption's answer, marked as the default the table took from its bucket");
    assert.equal(await page.eval(fact("Storage class")), "STANDARD (default)", "and GetTableStorageClass's");
    const removal = await page.eval(row("#maintenance", "icebergUnreferencedFileRemoval"));
    assert.match(removal[2], /unreferencedDays 3, nonCurrentDays 10, on the table bucket \(default\)/, `the bucket's removal days: ${removal}`);
    const main = await page.eval("document.getElementById('main').innerText");
    assert.doesNotMatch(main, /Encryption\s+none|Storage class\s+none/, "nothing the API answers shows as none");
  });

  test("values that were set are shown as set, without the default mark", async () => {
    await send("PutTableBucketEncryptionCommand", { tableBucketARN: bucketArn, encryptionConfiguration: { sseAlgorithm: "aws:kms", kmsKeyArn: KMS_KEY } });
    await send("PutTableBucketStorageClassCommand", { tableBucketARN: bucketArn, storageClassConfiguration: { storageClass: "INTELLIGENT_TIERING" } });
    await send("PutTableBucketMaintenanceConfigurationCommand", { tableBucketARN: bucketArn, type: "icebergUnreferencedFileRemoval",
      value: { status: "enabled", settings: { icebergUnreferencedFileRemoval: { unreferencedDays: 5, nonCurrentDays: 20 } } } });
    await open(`#/bucket?arn=${encodeURIComponent(bucketArn)}`, "the bucket page after the changes");
    assert.equal(await page.eval(fact("Encryption")), `aws:kms (${KMS_KEY})`, "the set encryption, unmarked");
    assert.equal(await page.eval(fact("Storage class")), "INTELLIGENT_TIERING", "the set storage class, unmarked");
    assert.deepEqual(await page.eval(row('table[aria-label="Bucket maintenance"]', "icebergUnreferencedFileRemoval")),
      ["icebergUnreferencedFileRemoval", "enabled", "5", "20"], "the set removal days, unmarked");
    await open(`#/table?arn=${encodeURIComponent(tableArn)}`, "the table page after the changes");
    const removal = await page.eval(row("#maintenance", "icebergUnreferencedFileRemoval"));
    assert.match(removal[2], /^unreferencedDays 5, nonCurrentDays 20, on the table bucket$/, `the table page follows its bucket's days: ${removal}`);
    assert.equal(await page.eval(fact("Storage class")), "STANDARD (default)",
      "the table keeps the storage class it took from its bucket when it was created, as GetTableStorageClass does");
    assert.equal(await page.eval(fact("Encryption")), "AES256 (default)", "and its encryption");
  });

  test("a table takes its bucket's settings as its defaults; settings CreateTable names are unmarked", async () => {
    await send("CreateTableCommand", { tableBucketARN: bucketArn, namespace: "sales", name: "inherits", format: "ICEBERG" });
    const set = await send("CreateTableCommand", { tableBucketARN: bucketArn, namespace: "sales", name: "named", format: "ICEBERG",
      encryptionConfiguration: { sseAlgorithm: "AES256" }, storageClassConfiguration: { storageClass: "STANDARD" } });
    const inheritsArn = (await send("GetTableCommand", { tableBucketARN: bucketArn, namespace: "sales", name: "inherits" })).tableARN;
    await open(`#/table?arn=${encodeURIComponent(inheritsArn)}`, "the page of a table made in the changed bucket");
    assert.equal(await page.eval(fact("Encryption")), `aws:kms (${KMS_KEY}) (default)`, "the bucket's encryption, taken as the table's default");
    assert.equal(await page.eval(fact("Storage class")), "INTELLIGENT_TIERING (default)", "and its storage class");
    await open(`#/table?arn=${encodeURIComponent(set.tableARN)}`, "the page of a table CreateTable gave settings");
    assert.equal(await page.eval(fact("Encryption")), "AES256", "the encryption CreateTable named, unmarked");
    assert.equal(await page.eval(fact("Storage class")), "STANDARD", "and the storage class");
  });

  test("the console logged no error", () => {
    assert.deepEqual(page.errors, [], "no script error and no failed request");
  });
});

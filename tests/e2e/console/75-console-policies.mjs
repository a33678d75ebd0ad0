// The console's table page shows the table's policy and its bucket's, and whom each statement
// names, in headless chromium (console_browser.mjs): a bucket policy sharing reads with another
// account (the S3 Tables guide's cross-account example) and a table policy denying DeleteTable to
// everyone are both there, pretty-printed, with one row per statement naming its policy, Sid,
// effect, principals, actions and conditions. The bucket page lists its own policy's statements.
//
// Run: cd tests/e2e && npm ci && node --test console/75-console-policies.mjs
import assert from "node:assert/strict";
import path from "node:path";
import { after, before, describe, test } from "node:test";

import { ARTIFACTS, Browser, chromiumMissing } from "../console_browser.mjs";
import { FloeServer, importOrSkip, s3tablesClient } from "../floe_server.mjs";

const sdk = await importOrSkip("@aws-sdk/client-s3tables");
const missing = [sdk ? null : "@aws-sdk/client-s3tables (npm ci in tests/e2e)", chromiumMissing()].filter(Boolean);
const OTHER = "arn:aws:iam::444455556666:root";

/** The rows of the grants table, each as its cells' text. */
const grants = "[...document.querySelectorAll('table#grants tbody tr')].map((tr) => [...tr.cells].map((c) => c.textContent))";
const headings = "[...document.querySelectorAll('h3')].map((e) => e.textContent)";

describe("the console shows whom a table's and its bucket's policies grant", { skip: missing.length ? `missing: ${missing.join(", ")}` : false }, () => {
  let server, s3tables, browser, page, bucketArn, tableArn;
  const send = (command, input) => s3tables.send(new sdk[command](input));
  const open = (hash, what) => page.load(`${server.endpoint}/_floe/ui/${hash}`, what);

  before(async () => {
    server = new FloeServer();
    await server.start();
    s3tables = s3tablesClient(sdk, server);
    bucketArn = (await send("CreateTableBucketCommand", { name: "shared" })).arn;
    await send("CreateNamespaceCommand", { tableBucketARN: bucketArn, namespace: ["hr"] });
    tableArn = (await send("CreateTableCommand", { tableBucketARN: bucketArn, namespace: "hr", name: "staff", format: "ICEBERG" })).tableARN;
    await send("PutTableBucketPolicyCommand", { tableBucketARN: bucketArn, resourcePolicy: JSON.stringify({
      Version: "2012-10-17", Statement: [{ Sid: "ShareHr", Effect: "Allow", Principal: { AWS: OTHER },
        Action: ["s3tables:GetTableData", "s3tables:GetTableMetadataLocation"], Resource: `${bucketArn}/table/*`,
        Condition: { StringLike: { "s3tables:namespace": "hr" } } }] }) });
    await send("PutTablePolicyCommand", { tableBucketARN: bucketArn, namespace: "hr", name: "staff", resourcePolicy: JSON.stringify({
      Version: "2012-10-17", Statement: [{ Effect: "Deny", Principal: "*", Action: "s3tables:DeleteTable", Resource: tableArn }] }) });
    browser = await Browser.launch();
    page = await browser.newPage();
    await page.setColorScheme("light");
  });

  after(async () => {
    await browser?.close();
    s3tables?.destroy();
    await server?.cleanup();
  });

  test("the table page shows both policies and one row per statement", async () => {
    await open(`#/table?arn=${encodeURIComponent(tableArn)}`, "the table page");
    const titles = await page.eval(headings);
    assert.ok(titles.includes("Resource policy") && titles.includes("Table bucket policy"), "both policies have a section");
    assert.deepEqual(await page.eval(grants), [
      ["table", "Statement[0]", "Deny", "everyone (*)", "s3tables:DeleteTable", "–"],
      ["table bucket", "ShareHr", "Allow", OTHER, "s3tables:GetTableData, s3tables:GetTableMetadataLocation",
        "StringLike s3tables:namespace hr"],
    ], "each statement is listed with its policy, effect, principals, actions and conditions");
    await page.screenshot(path.join(ARTIFACTS, "floe-console-table-policies.png"));
  });

  test("the bucket page lists its own policy's statements", async () => {
    await open(`#/bucket?arn=${encodeURIComponent(bucketArn)}`, "the bucket page");
    assert.deepEqual((await page.eval(grants)).map((r) => r.slice(0, 4)), [["table bucket", "ShareHr", "Allow", OTHER]],
      "the bucket's statement names the other account");
    assert.ok(!(await page.eval(headings)).includes("Table bucket policy"), "the bucket page has one policy section");
  });
});

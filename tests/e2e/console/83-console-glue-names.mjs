// The bucket page says whether the account has the Glue Data Catalog's S3 Tables integration, and
// with it each table's Glue name, in headless chromium (console_browser.mjs): before `aws glue
// create-catalog --name s3tablescatalog` (run with /usr/bin/aws, as AWS's guide shows) the page says
// "not integrated" and lists no Glue names; after it, the bucket's catalog id
// (<account>:s3tablescatalog/<bucket>) and each table's <catalog id>/<namespace>/<table>, the
// names Glue's GetTable answers to.
//
// Run: cd tests/e2e && npm ci && node --test console/83-console-glue-names.mjs
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, test } from "node:test";

import { ARTIFACTS, Browser, chromiumMissing } from "../console_browser.mjs";
import { ACCOUNT, FloeServer, REGION, SOURCE_DIR, importOrSkip, s3tablesClient } from "../floe_server.mjs";

const AWS_CLI = "/usr/bin/aws";
const sdk = await importOrSkip("@aws-sdk/client-s3tables");
const missing = [sdk ? null : "@aws-sdk/client-s3tables (npm ci in tests/e2e)", chromiumMissing(),
  fs.existsSync(AWS_CLI) ? null : AWS_CLI].filter(Boolean);
const CATALOG_ID = `${ACCOUNT}:s3tablescatalog/analytics`;

/** The <dd> of the fact labelled `label` on the page. */
const fact = (label) => `[...document.querySelectorAll('dl.facts dt')].find((dt) => dt.textContent === ${JSON.stringify(label)})?.nextElementSibling?.textContent`;
const glueNames = "[...document.querySelectorAll('code.glue-name')].map((c) => c.textContent)";

describe("the bucket page shows the Glue integration and the tables' Glue names", { skip: missing.length ? `missing: ${missing.join(", ")}` : false }, () => {
  let server, s3tables, browser, page, bucketArn;
  const send = (command, input) => s3tables.send(new sdk[command](input));
  const open = (hash, what) => page.load(`${server.endpoint}/_floe/ui/${hash}`, what);

  /** Runs the aws CLI against the server, configured as in AWS's guide but for the endpoint. */
  const aws = (...args) => JSON.parse(execFileSync(AWS_CLI, ["--endpoint-url", server.endpoint, "--output", "json", ...args], {
    env: { ...process.env, AWS_ACCESS_KEY_ID: "floe-test", AWS_SECRET_ACCESS_KEY: "floe-test", AWS_DEFAULT_REGION: REGION,
      AWS_DATA_PATH: path.join(SOURCE_DIR, "models", "botocore"), AWS_CONFIG_FILE: "/dev/null",
      AWS_SHARED_CREDENTIALS_FILE: "/dev/null", AWS_PAGER: "", AWS_EC2_METADATA_DISABLED: "true" },
    encoding: "utf8" }) || "{}");

  before(async () => {
    server = new FloeServer();
    await server.start();
    s3tables = s3tablesClient(sdk, server);
    bucketArn = (await send("CreateTableBucketCommand", { name: "analytics" })).arn;
    await send("CreateNamespaceCommand", { tableBucketARN: bucketArn, namespace: ["sales"] });
    await send("CreateTableCommand", { tableBucketARN: bucketArn, namespace: "sales", name: "orders", format: "ICEBERG" });
    browser = await Browser.launch();
    page = await browser.newPage();
    await page.setColorScheme("light");
  });

  after(async () => {
    await browser?.close();
    s3tables?.destroy();
    await server?.cleanup();
  });

  test("without the integration the page says so and shows no Glue names", async () => {
    await open(`#/bucket?arn=${encodeURIComponent(bucketArn)}`, "the bucket page");
    await page.waitFor("document.querySelector('a.table-link') !== null", "the bucket's tables");
    assert.match(await page.eval(fact("AWS Glue")), /^not integrated/, "the page says the account has no integration");
    assert.deepEqual(await page.eval(glueNames), [], "and lists no Glue names");
  });

  test("with the integration the page shows the catalog and each table's Glue name", async () => {
    aws("glue", "create-catalog", "--name", "s3tablescatalog", "--catalog-input", JSON.stringify({
      FederatedCatalog: { Identifier: `arn:aws:s3tables:${REGION}:${ACCOUNT}:bucket/*`, ConnectionName: "aws:s3tables" },
      CreateDatabaseDefaultPermissions: [], CreateTableDefaultPermissions: [] }));
    await open(`#/bucket?arn=${encodeURIComponent(bucketArn)}`, "the bucket page after the integration");
    await page.waitFor("document.querySelector('code.glue-name') !== null", "the tables' Glue names");
    assert.equal(await page.eval(fact("AWS Glue")), `integrated: catalog ${CATALOG_ID}`, "the bucket's Glue catalog id");
    assert.deepEqual(await page.eval(glueNames), [`${CATALOG_ID}/sales/orders`], "each table's Glue name");
    const table = aws("glue", "get-table", "--catalog-id", CATALOG_ID, "--database-name", "sales", "--name", "orders");
    assert.equal(table.Table.Name, "orders", "Glue answers to the name the console shows");
    await page.screenshot(path.join(ARTIFACTS, "floe-console-bucket-glue.png"));
  });

  test("the console logged no error", () => {
    assert.deepEqual(page.errors, [], "no script error and no failed request");
  });
});

// The console's table page shows the engine configuration of docs/engines.md filled in for that
// table, in headless chromium (console_browser.mjs): every block docs/engines.md marks for the
// console (`<!-- snippet: NAME; console: ENGINE -->`: PyIceberg's catalog and read, DuckDB's attach
// and read, Spark's session and read), under its engine's heading, with this server's endpoint and the table's region,
// bucket ARN, namespace and name in place of the page's examples. One source: each block shown is
// byte for byte what `tests/engines/snippets.py NAME ENDPOINT ARN NAMESPACE TABLE` prints, the
// text the engine tests (62-64, 66-69) run; and Copy copies exactly that text. docs/console.md's
// description of the section names every engine the page shows.
//
// Run: cd tests/e2e && npm ci && node --test console/82-console-engine-snippets.mjs
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, test } from "node:test";

import { ARTIFACTS, Browser, chromiumMissing } from "../console_browser.mjs";
import { FloeServer, importOrSkip, SOURCE_DIR } from "../floe_server.mjs";

const sdk = await importOrSkip("@aws-sdk/client-s3tables");
const missing = [sdk ? null : "@aws-sdk/client-s3tables (npm ci in tests/e2e)", chromiumMissing()].filter(Boolean);

// A region and account unlike the page's examples (us-east-1, 111122223333), so a value left
// unreplaced shows.
const REGION = "eu-west-2";
const ACCOUNT = "123456789012";
const SNIPPETS_PY = path.join(SOURCE_DIR, "tests", "engines", "snippets.py");

/** [{name, engine}] of the blocks docs/engines.md marks for the console, in page order. */
function markedForConsole() {
  const page = fs.readFileSync(path.join(SOURCE_DIR, "docs", "engines.md"), "utf8");
  return [...page.matchAll(/^<!-- snippet: ([a-z0-9-]+); console: (.+?) -->$/gm)].map((m) => ({ name: m[1], engine: m[2] }));
}

/** What tests/engines/snippets.py prints for one block filled in for a table. */
const snippetsPy = (name, endpoint, arn, namespace, table) =>
  execFileSync("/usr/bin/python3", [SNIPPETS_PY, name, endpoint, arn, namespace, table], { encoding: "utf8" });

/** [{name, engine, language, text}] of the blocks the page shows, with the heading each is under. */
const shown = `[...document.querySelectorAll('#engines pre[data-snippet]')].map((pre) => {
  let heading = pre.parentElement; while (heading && heading.tagName !== 'H3') heading = heading.previousElementSibling;
  return { name: pre.dataset.snippet, engine: heading?.textContent, language: pre.dataset.language, text: pre.textContent };
})`;

describe("the table page shows the engine snippets for that table", { skip: missing.length ? `missing: ${missing.join(", ")}` : false }, () => {
  let server, s3tables, browser, page, bucket;
  const send = (command, input) => s3tables.send(new sdk[command](input));
  const open = (arn, what) => page.load(`${server.endpoint}/_floe/ui/#/table?arn=${encodeURIComponent(arn)}`, what);
  const openEngines = async (arn, what) => {
    await open(arn, what);
    await page.waitFor("document.querySelectorAll('#engines pre[data-snippet]').length > 0", `the engine snippets of ${what}`);
  };

  before(async () => {
    server = new FloeServer();
    await server.start();
    s3tables = new sdk.S3TablesClient({ endpoint: server.endpoint, region: REGION, maxAttempts: 1,
      credentials: { accessKeyId: ACCOUNT, secretAccessKey: "floe-test" } });
    bucket = (await send("CreateTableBucketCommand", { name: "analytics" })).arn;
    assert.equal(bucket, `arn:aws:s3tables:${REGION}:${ACCOUNT}:bucket/analytics`, "the bucket is in the client's region and account");
    for (const [namespace, name] of [["sales_2026", "daily_orders"], ["my_table", "my_namespace"]]) {
      await send("CreateNamespaceCommand", { tableBucketARN: bucket, namespace: [namespace] });
      await send("CreateTableCommand", { tableBucketARN: bucket, namespace, name, format: "ICEBERG" });
    }
    browser = await Browser.launch();
    page = await browser.newPage();
    await page.setColorScheme("light");
  });

  after(async () => {
    await browser?.close();
    s3tables?.destroy();
    await server?.cleanup();
  });

  test("each block docs/engines.md marks for the console is shown under its engine, and only those", async () => {
    const marked = markedForConsole();
    assert.deepEqual(marked.map((m) => m.name), ["pyiceberg-rest", "pyiceberg-read", "duckdb-attach", "duckdb-read", "spark-rest", "spark-read"],
      "docs/engines.md marks PyIceberg's catalog and read, DuckDB's attach and read and Spark's session and read for the console");
    const table = (await send("GetTableCommand", { tableBucketARN: bucket, namespace: "sales_2026", name: "daily_orders" })).tableARN;
    await openEngines(table, "the table page");
    const blocks = await page.eval(shown);
    assert.deepEqual(blocks.map(({ name, engine }) => ({ name, engine })), marked, "the page shows the marked blocks, in the page's order, under their engine");
    assert.deepEqual(await page.eval("[...document.querySelectorAll('#engines h3')].map((e) => e.textContent)"), ["PyIceberg", "DuckDB", "Spark"]);
    assert.deepEqual(blocks.map((b) => b.language), ["python", "python", "sql", "sql", "python", "python"]);
  });

  test("docs/console.md names every engine the section shows", async () => {
    const table = (await send("GetTableCommand", { tableBucketARN: bucket, namespace: "sales_2026", name: "daily_orders" })).tableARN;
    await openEngines(table, "the table page");
    const engines = await page.eval("[...document.querySelectorAll('#engines h3')].map((e) => e.textContent)");
    const doc = fs.readFileSync(path.join(SOURCE_DIR, "docs", "console.md"), "utf8");
    const paragraph = doc.slice(doc.indexOf("**Engine snippets.**")).split("\n\n")[0].replace(/\s+/g, " ");
    // what the section holds: the paragraph's sentences before the one on filling in the values
    const holds = paragraph.split("The page's example values")[0];
    assert.match(holds, /^\*\*Engine snippets\.\*\* .+/, "docs/console.md says what the section holds");
    for (const engine of engines)
      assert.ok(holds.includes(`${engine}'s`), `docs/console.md's "Engine snippets" names ${engine}'s blocks: ${holds}`);
  });

  test("the blocks carry this table's endpoint, region, bucket ARN, namespace and name: what snippets.py prints", async () => {
    const table = (await send("GetTableCommand", { tableBucketARN: bucket, namespace: "sales_2026", name: "daily_orders" })).tableARN;
    await openEngines(table, "the table page");
    const blocks = Object.fromEntries((await page.eval(shown)).map((b) => [b.name, b.text]));
    const endpoint = server.endpoint;
    const rest = blocks["pyiceberg-rest"];
    assert.match(rest, new RegExp(`"uri": "${endpoint}/iceberg",`), "PyIceberg's uri is this server's");
    assert.ok(rest.includes(`"warehouse": "${bucket}",`), `PyIceberg's warehouse is the table's bucket ARN:\n${rest}`);
    assert.ok(rest.includes(`"rest.signing-region": "${REGION}",`), "and it signs for the table's region");
    assert.ok(blocks["pyiceberg-read"].includes('catalog.load_table("sales_2026.daily_orders")'), blocks["pyiceberg-read"]);
    const attach = blocks["duckdb-attach"];
    assert.ok(attach.includes(`ENDPOINT '127.0.0.1:${server.port}',`), `DuckDB's S3 secret is this server's host:port:\n${attach}`);
    assert.ok(attach.includes(`REGION '${REGION}',`), "in the table's region");
    assert.ok(attach.includes(`ATTACH '${bucket}' AS floe`) && attach.includes(`ENDPOINT '${endpoint}/iceberg',`), attach);
    assert.ok(attach.includes(`SIGV4_REGION '${REGION}',`), `DuckDB signs the catalog's requests for the table's region:\n${attach}`);
    assert.equal(blocks["duckdb-read"], "SELECT count(*) FROM floe.sales_2026.daily_orders;\n");
    const spark = blocks["spark-rest"];
    assert.ok(spark.includes(`.config("spark.sql.catalog.floe.uri", "${endpoint}/iceberg")`), `Spark's catalog uri is this server's:\n${spark}`);
    assert.ok(spark.includes(`.config("spark.sql.catalog.floe.warehouse", "${bucket}")`), `Spark's warehouse is the table's bucket ARN:\n${spark}`);
    assert.ok(spark.includes(`.config("spark.sql.catalog.floe.rest.signing-region", "${REGION}")`), "and it signs for the table's region");
    assert.equal(blocks["spark-read"], 'spark.table("floe.sales_2026.daily_orders").show(10)\n');
    for (const [name, text] of Object.entries(blocks)) {
      assert.doesNotMatch(text, /us-east-1|111122223333|my-table-bucket|my_namespace|my_table|4566/, `${name} keeps none of the page's example values`);
      assert.equal(text, snippetsPy(name, endpoint, bucket, "sales_2026", "daily_orders"),
        `${name} is what tests/engines/snippets.py prints for this table, the text the engine tests run`);
    }
    await page.eval("document.getElementById('engines').scrollIntoView()");
    const clip = await page.eval(`(() => { const r = document.getElementById('engines').getBoundingClientRect();
      return { x: r.x + scrollX - 10, y: r.y + scrollY - 10, width: r.width + 20, height: r.height + 20, scale: 1 }; })()`);
    await page.screenshot(path.join(ARTIFACTS, "floe-console-engine-snippets.png"), clip);
  });

  test("a namespace and table named like the page's examples are filled in once, not replaced again", async () => {
    const table = (await send("GetTableCommand", { tableBucketARN: bucket, namespace: "my_table", name: "my_namespace" })).tableARN;
    await openEngines(table, "the page of my_table.my_namespace");
    const blocks = Object.fromEntries((await page.eval(shown)).map((b) => [b.name, b.text]));
    assert.ok(blocks["pyiceberg-read"].includes('catalog.load_table("my_table.my_namespace")'), blocks["pyiceberg-read"]);
    assert.equal(blocks["duckdb-read"], "SELECT count(*) FROM floe.my_table.my_namespace;\n");
    for (const [name, text] of Object.entries(blocks))
      assert.equal(text, snippetsPy(name, server.endpoint, bucket, "my_table", "my_namespace"), `${name} is what snippets.py prints`);
  });

  test("Copy copies exactly the block shown", async () => {
    const table = (await send("GetTableCommand", { tableBucketARN: bucket, namespace: "sales_2026", name: "daily_orders" })).tableARN;
    await openEngines(table, "the table page");
    // What the button hands the clipboard, recorded: a headless browser has no clipboard to read back.
    await page.eval("window.copied = []; navigator.clipboard.writeText = async (text) => { window.copied.push(text); }");
    for (const name of ["pyiceberg-rest", "duckdb-attach"]) {
      await page.click(`#engines pre[data-snippet="${name}"] + button.copy`);
      await page.waitFor("window.copied.length > 0", `the copy of ${name}`);
      assert.deepEqual(await page.eval("window.copied.splice(0)"), [snippetsPy(name, server.endpoint, bucket, "sales_2026", "daily_orders")],
        `Copy of ${name} copies the block, the text snippets.py prints`);
      assert.equal(await page.eval(`document.querySelector('#engines pre[data-snippet="${name}"] + button.copy').textContent`), "Copied");
    }
  });

  test("the console logged no error", () => {
    assert.deepEqual(page.errors, [], "no script error and no failed request");
  });
});

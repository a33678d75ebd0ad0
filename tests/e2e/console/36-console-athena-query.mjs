// The console's query page (#/query) runs Athena queries on Trino, in headless chromium
// (console_browser.mjs), against a Floe that starts its own Trino on the first query (installed by
// scripts/setup-deps --athena, as tests/e2e/athena/34 uses it). A table bucket and namespace made
// with the aws CLI appear as the catalog s3tablescatalog/<bucket> and its database; the page's
// first query (CREATE TABLE) is QUEUED with the reason that Trino is starting, then SUCCEEDED; an
// INSERT and a SELECT follow, and the SELECT's rows show as a table whose columns carry Athena's
// types, with its state and statistics (the ones the aws CLI's get-query-execution reports); a query
// on a missing table shows FAILED with Athena's reason; the history lists all four newest first
// with their states, and following a query there shows its result again. Nothing is sent anywhere
// but the server, and nothing is logged as an error.
// Under --strict-signatures --enforce-iam (and no Trino), the page's Athena calls are the signed
// caller's: an IAM user whose policy lacks athena:StartQueryExecution sees Athena's
// AccessDeniedException on Run and no query is recorded; one whose policy allows it starts a query
// that the account's history (and the aws CLI) then holds.
//
// Run: cd tests/e2e && node --test console/36-console-athena-query.mjs
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";

import { ARTIFACTS, Browser, chromiumMissing } from "../console_browser.mjs";
import { FloeServer, REGION, SOURCE_DIR } from "../floe_server.mjs";

const AWS_CLI = "/usr/bin/aws";
const TRINO_HOME = path.join(process.env.FLOE_TRINO_CACHE ?? path.join(os.homedir(), ".cache", "floe-trino"), "trino-server-476");
const missing = [chromiumMissing(), fs.existsSync(AWS_CLI) ? null : AWS_CLI,
  fs.existsSync(path.join(TRINO_HOME, "bin", "launcher")) ? null : "Trino (scripts/setup-deps --athena)"].filter(Boolean);
const FIRST_QUERY_MS = 15 * 60 * 1000; // the first query waits for Trino: a cold JVM on a loaded 2-core machine
const QUERY_MS = 5 * 60 * 1000;
const OUTPUT = "s3://athena-results/console/";

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const shown = (selector) => `document.querySelector(${JSON.stringify(selector)})?.textContent ?? null`;

/** Runs the aws CLI against `server` with the keys `key`:`secret`, configured as in AWS's guide but for the endpoint. */
function awsCli(server, [key, secret], ...args) {
  return JSON.parse(execFileSync(AWS_CLI, ["--endpoint-url", server.endpoint, "--output", "json", ...args], {
    env: { ...process.env, AWS_ACCESS_KEY_ID: key, AWS_SECRET_ACCESS_KEY: secret, AWS_DEFAULT_REGION: REGION,
      AWS_DATA_PATH: path.join(SOURCE_DIR, "models", "botocore"), AWS_CONFIG_FILE: "/dev/null",
      AWS_SHARED_CREDENTIALS_FILE: "/dev/null", AWS_PAGER: "", AWS_EC2_METADATA_DISABLED: "true" },
    encoding: "utf8" }) || "{}");
}

/** Headless chromium with a page in light mode: [browser, page]. */
async function lightPage() {
  const browser = await Browser.launch();
  const page = await browser.newPage();
  await page.setColorScheme("light");
  return [browser, page];
}

/** Picks `value` in the <select> `selector` as a person does (the page hears a change). */
const choose = (page, selector, value) => page.eval(`(() => { const s = document.querySelector(${JSON.stringify(selector)});
  s.focus(); s.value = ${JSON.stringify(value)}; s.dispatchEvent(new Event('change', { bubbles: true })); return s.value; })()`);

/** Replaces the text of the field `selector` by typing `text` into it. */
async function type(page, selector, text) {
  await page.eval(`(() => { const e = document.querySelector(${JSON.stringify(selector)}); e.focus(); e.select(); })()`);
  await page.send("Input.insertText", { text });
}

/** What the page shows of query `id`: its state, its reason, whether it has ended (all null before it shows it). */
const progress = (id) => `(() => { const q = document.querySelector('#query-execution');
  if (q?.dataset.id !== ${JSON.stringify(id)}) return { state: null, reason: null, done: false };
  return { state: q.querySelector('#query-state')?.textContent ?? null, reason: q.querySelector('#query-reason')?.textContent ?? null,
    done: q.dataset.done === 'true' }; })()`;

/**
 * Types `sql`, clicks Run and waits up to `ms` until the page shows the query ended: its id, and
 * each (state, reason) the page showed on the way.
 */
async function run(page, sql, ms = QUERY_MS) {
  const before = await page.eval("location.hash");
  await type(page, "#query-sql", sql);
  await page.click("#query-run");
  await page.waitFor(`location.hash.startsWith('#/query?id=') && location.hash !== ${JSON.stringify(before)}`, `${sql} to start`);
  const id = decodeURIComponent((await page.eval("location.hash")).split("id=")[1]);
  const seen = [];
  const deadline = Date.now() + ms;
  for (;;) {
    const p = await page.eval(progress(id));
    if (p.state && (!seen.length || seen.at(-1).state !== p.state || seen.at(-1).reason !== p.reason)) seen.push(p);
    if (p.done) return { id, seen };
    if (Date.now() > deadline)
      throw new Error(`${sql} did not end within ${ms / 1000} s; the page shows: ${await page.eval("document.getElementById('main').innerText.slice(0, 3000)")}`);
    await sleep(100);
  }
}

/** Chooses the catalog s3tablescatalog/<bucket>, the database `namespace` and the result location. */
async function pickContext(page, bucket, namespace) {
  assert.equal(await choose(page, "#query-catalog", bucket), bucket);
  await page.waitFor(`[...document.querySelectorAll('#query-database option')].some((o) => o.value === ${JSON.stringify(namespace)})`, "the bucket's namespaces");
  assert.equal(await choose(page, "#query-database", namespace), namespace);
  await type(page, "#query-output", OUTPUT);
}

describe("the console's query page runs Athena queries on Trino", { skip: missing.length ? `missing: ${missing.join(", ")}` : false }, () => {
  let server, browser, page;
  const ids = {};
  const aws = (...args) => awsCli(server, ["floe-test", "floe-test"], ...args);

  before(async () => {
    server = new FloeServer({ args: ["--quiet"] });
    await server.start();
    const arn = aws("s3tables", "create-table-bucket", "--name", "analytics").arn;
    aws("s3tables", "create-namespace", "--table-bucket-arn", arn, "--namespace", "sales");
    aws("s3api", "create-bucket", "--bucket", "athena-results");
    [browser, page] = await lightPage();
  });

  after(async () => {
    await browser?.close();
    await server?.cleanup();
  });

  test("the catalog picker offers each table bucket as s3tablescatalog/<bucket>, with its namespaces", async () => {
    await page.load(`${server.endpoint}/_floe/ui/#/query`, "the query page");
    assert.equal(await page.eval("document.title"), "Query editor · Floe console");
    assert.deepEqual(await page.eval("[...document.querySelectorAll('#query-catalog option')].map((o) => o.textContent)"),
      ["s3tablescatalog/analytics"], "the account's table bucket as Athena's catalog name");
    await pickContext(page, "analytics", "sales");
    assert.deepEqual(await page.eval("[...document.querySelectorAll('#query-workgroup option')].map((o) => o.value)"), ["primary"],
      "the account's workgroups");
    assert.match(await page.eval(shown("#query-history-holder")), /No queries yet/, "no history yet");
  });

  test("the first query is QUEUED while Trino starts, with the reason, then SUCCEEDED", async () => {
    const started = Date.now();
    const { id, seen } = await run(page, "CREATE TABLE daily (id int, name varchar, amount double)", FIRST_QUERY_MS);
    console.log(`# the first query, with Trino's start: ${((Date.now() - started) / 1000).toFixed(1)} s`);
    ids.create = id;
    assert.equal(seen[0].state, "QUEUED", `the page showed ${JSON.stringify(seen)}`);
    assert.ok(seen.some((p) => p.state === "QUEUED" && /^Starting Trino, Athena's engine, for the first query/.test(p.reason)),
      `with the reason that Trino is starting: ${JSON.stringify(seen)}`);
    assert.equal(seen.at(-1).state, "SUCCEEDED", `the page showed ${JSON.stringify(seen)}`);
    assert.equal(await page.eval(shown("#query-result-count")), "No result set (the statement returns no rows).");
    const table = aws("s3tables", "get-table", "--table-bucket-arn", aws("s3tables", "list-table-buckets").tableBuckets[0].arn,
      "--namespace", "sales", "--name", "daily");
    assert.equal(table.format, "ICEBERG", "the table is in the bucket, as the S3 Tables API sees it");
  });

  test("a SELECT shows its rows as a table, with Athena's column types, its state and statistics", async () => {
    const insert = await run(page, "INSERT INTO daily VALUES (1, 'a', 0.5), (2, 'b', NULL)");
    assert.equal(insert.seen.at(-1).state, "SUCCEEDED", JSON.stringify(insert.seen));
    ids.insert = insert.id;
    const select = await run(page, "SELECT id, name, amount FROM daily ORDER BY id");
    ids.select = select.id;
    assert.equal(select.seen.at(-1).state, "SUCCEEDED", JSON.stringify(select.seen));
    assert.deepEqual(await page.eval("[...document.querySelectorAll('#query-results thead th')].map((th) => th.innerText.split('\\n'))"),
      [["id", "integer"], ["name", "varchar"], ["amount", "double"]], "each column with the type Athena gives it");
    assert.deepEqual(await page.eval("[...document.querySelectorAll('#query-results tbody tr')].map((tr) => [...tr.cells].map((c) => c.textContent))"),
      [["1", "a", "0.5"], ["2", "b", "NULL"]], "the rows, a NULL marked");
    assert.equal(await page.eval(shown("#query-result-count")), "2 rows");
    const e = aws("athena", "get-query-execution", "--query-execution-id", select.id).QueryExecution;
    const ms = (n) => `${Number(n).toLocaleString("en-US")} ms`;
    assert.equal(await page.eval(shown("#query-engine-time")), ms(e.Statistics.EngineExecutionTimeInMillis),
      "the engine time GetQueryExecution reports");
    assert.equal(await page.eval(shown("#query-total-time")), ms(e.Statistics.TotalExecutionTimeInMillis), "and the total time");
    assert.ok(e.Statistics.DataScannedInBytes > 0, `Trino scanned the table: ${JSON.stringify(e.Statistics)}`);
    assert.match(await page.eval(shown("#query-data-scanned")), /^\d+(\.\d)? (B|KiB|MiB)$/, "and the data scanned");
    await page.screenshot(path.join(ARTIFACTS, "floe-console-athena-query.png"));
  });

  test("a failing query shows FAILED with Athena's reason", async () => {
    const failed = await run(page, "SELECT * FROM nope");
    ids.failed = failed.id;
    assert.equal(failed.seen.at(-1).state, "FAILED", JSON.stringify(failed.seen));
    const e = aws("athena", "get-query-execution", "--query-execution-id", failed.id).QueryExecution;
    assert.match(e.Status.StateChangeReason, /TABLE_NOT_FOUND.*'s3tablescatalog\/analytics\.sales\.nope'/, "Athena's reason names the table as the user did");
    assert.equal(await page.eval(shown("#query-reason")), e.Status.StateChangeReason, "the page shows the reason GetQueryExecution gives");
    assert.equal(await page.eval("document.querySelector('#query-results')"), null, "and no result table");
  });

  test("the history lists the account's queries newest first; following one shows its result", async () => {
    await page.waitFor("document.querySelectorAll('#query-history tbody tr').length === 4", "four queries in the history");
    const rows = await page.eval("[...document.querySelectorAll('#query-history tbody tr')].map((tr) => [tr.dataset.id, tr.cells[1].textContent, tr.cells[2].textContent])");
    assert.deepEqual(rows, [
      [ids.failed, "FAILED", "SELECT * FROM nope"],
      [ids.select, "SUCCEEDED", "SELECT id, name, amount FROM daily ORDER BY id"],
      [ids.insert, "SUCCEEDED", "INSERT INTO daily VALUES (1, 'a', 0.5), (2, 'b', NULL)"],
      [ids.create, "SUCCEEDED", "CREATE TABLE daily (id int, name varchar, amount double)"]], "newest first, with state and SQL");
    const listed = aws("athena", "list-query-executions").QueryExecutionIds;
    assert.deepEqual(listed, rows.map(([id]) => id), "the queries ListQueryExecutions lists, in its order");
    await page.click(`#query-history tr[data-id="${ids.select}"] a.query-link`);
    await page.waitFor(`(${progress(ids.select)}).done`, "the SELECT's page");
    assert.deepEqual(await page.eval("[...document.querySelectorAll('#query-results tbody tr')].map((tr) => [...tr.cells].map((c) => c.textContent))"),
      [["1", "a", "0.5"], ["2", "b", "NULL"]], "the chosen query's result");
    assert.equal(await page.eval("document.querySelector('#query-history tr[aria-current=\"true\"]')?.dataset.id"), ids.select,
      "the history marks the query shown");
  });

  test("the page reached only this server and logged no error", () => {
    const elsewhere = page.requests.filter((u) => !u.startsWith(server.endpoint) && !u.startsWith("about:") && !u.startsWith("data:"));
    assert.deepEqual(elsewhere, [], "no request left the server");
    assert.deepEqual(page.errors, [], "no script error and no failed request");
  });
});

const OWNER = "111122223333";
const ROOT = [OWNER, "owner-secret"];
const READ = ["s3tables:ListTableBuckets", "s3tables:ListNamespaces", "athena:ListWorkGroups", "athena:GetWorkGroup",
  "athena:ListQueryExecutions", "athena:BatchGetQueryExecution", "athena:GetQueryExecution", "athena:GetQueryResults"];
const uiMissing = [chromiumMissing(), fs.existsSync(AWS_CLI) ? null : AWS_CLI].filter(Boolean);

describe("under --enforce-iam the query page's Athena calls are the signed caller's", { skip: uiMissing.length ? `missing: ${uiMissing.join(", ")}` : false }, () => {
  let server, browser, page, noTrino;
  const aws = (...args) => awsCli(server, ROOT, ...args);

  /** An IAM user of the account whose inline policy allows `actions`: its [access key, secret]. */
  function user(name, actions) {
    aws("iam", "create-user", "--user-name", name);
    aws("iam", "put-user-policy", "--user-name", name, "--policy-name", "query", "--policy-document",
      JSON.stringify({ Version: "2012-10-17", Statement: [{ Effect: "Allow", Action: actions, Resource: "*" }] }));
    const { AccessKey: k } = aws("iam", "create-access-key", "--user-name", name);
    return [k.AccessKeyId, k.SecretAccessKey];
  }

  /** Gives the page the keys [key, secret] in its credentials dialog and waits for the query page. */
  async function signIn([key, secret]) {
    await page.waitFor("document.getElementById('credentials').open", "the credentials dialog");
    await page.eval(`document.getElementById('access-key').value = ${JSON.stringify(key)};
      document.getElementById('secret-key').value = ${JSON.stringify(secret)};
      document.querySelector('#credentials-form button[value=save]').click()`);
    await page.waitFor("document.getElementById('main').dataset.ready === 'true' && document.querySelector('#query-catalog') !== null", "the query page");
  }

  before(async () => {
    noTrino = fs.mkdtempSync(path.join(os.tmpdir(), "floe-no-trino-"));
    server = new FloeServer({ args: ["--quiet", "--strict-signatures", "--enforce-iam", "--credentials", ROOT.join(":")],
      env: { FLOE_TRINO_CACHE: noTrino } });
    await server.start();
    const arn = aws("s3tables", "create-table-bucket", "--name", "analytics").arn;
    aws("s3tables", "create-namespace", "--table-bucket-arn", arn, "--namespace", "sales");
    [browser, page] = await lightPage();
  });

  after(async () => {
    await browser?.close();
    await server?.cleanup();
    if (noTrino) fs.rmSync(noTrino, { recursive: true, force: true });
  });

  test("a caller without athena:StartQueryExecution is refused with Athena's AccessDeniedException", async () => {
    const viewer = user("viewer", READ);
    await page.goto(`${server.endpoint}/_floe/ui/#/query`);
    await signIn(viewer);
    await pickContext(page, "analytics", "sales");
    await type(page, "#query-sql", "SELECT 1");
    await page.click("#query-run");
    await page.waitFor("document.querySelector('#query-run-status .error') !== null", "the refusal");
    assert.match(await page.eval(shown("#query-run-status")),
      new RegExp(`^AccessDeniedException: User: arn:aws:iam::${OWNER}:user/viewer is not authorized to perform: athena:StartQueryExecution `),
      "the page shows Athena's refusal, for the signed user");
    assert.equal(await page.eval("location.hash"), "#/query", "no query was started");
    assert.deepEqual(aws("athena", "list-query-executions").QueryExecutionIds, [], "and none is recorded");
    assert.deepEqual(page.errors.filter((e) => !/status of 400 \(Bad Request\)/.test(e)), [],
      "nothing but the refused call (Athena answers it 400) was logged");
  });

  test("a caller allowed athena:StartQueryExecution starts the query, recorded in its account", async () => {
    const analyst = user("analyst", [...READ, "athena:StartQueryExecution"]);
    await page.click("#credentials-button");
    await signIn(analyst);
    await pickContext(page, "analytics", "sales");
    const { id, seen } = await run(page, "SELECT 1");
    assert.equal(seen.at(-1).state, "FAILED", "this server has no Trino");
    assert.match(seen.at(-1).reason, /^Athena queries need Trino/, "so the query fails with the reason Athena's engine gives");
    assert.deepEqual(aws("athena", "list-query-executions").QueryExecutionIds, [id], "the account's root sees the query");
    await page.waitFor(`document.querySelector('#query-history tr[data-id="${id}"]') !== null`, "the query in the history");
  });
});

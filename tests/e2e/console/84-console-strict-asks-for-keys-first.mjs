// With --strict-signatures the console asks for keys before it sends anything the server would
// refuse, in headless chromium (console_browser.mjs): on first load the page reads server.json
// (unsigned, like its other files), shows the credentials dialog over a "Keys needed" page, and has
// made no API request, shown no error and logged no failed request. The keys given, it lists the
// signer's buckets. Cancelling leaves a button to enter them; keys the server refuses are reported.
//
// Run: cd tests/e2e && npm ci && node --test console/84-console-strict-asks-for-keys-first.mjs
import assert from "node:assert/strict";
import path from "node:path";
import { after, before, describe, test } from "node:test";

import { ARTIFACTS, Browser, chromiumMissing } from "../console_browser.mjs";
import { FloeServer, importOrSkip } from "../floe_server.mjs";

const sdk = await importOrSkip("@aws-sdk/client-s3tables");
const missing = [sdk ? null : "@aws-sdk/client-s3tables (npm ci in tests/e2e)", chromiumMissing()].filter(Boolean);
const KEY = "111111111111", SECRET = "secret-one";

describe("the console under strict signatures asks for keys first", { skip: missing.length ? `missing: ${missing.join(", ")}` : false }, () => {
  let server, browser, page;
  const apiRequests = () => page.requests.filter((u) => u.includes("/_floe/ui/api/"));

  async function enterKeys(accessKey, secret) {
    await page.eval(`document.getElementById('access-key').value = ${JSON.stringify(accessKey)};
      document.getElementById('secret-key').value = ${JSON.stringify(secret)};
      document.getElementById('main').dataset.ready = 'false';
      document.querySelector('#credentials-form button[value=save]').click()`);
    await page.waitReady("the page after the keys were given");
  }

  before(async () => {
    server = new FloeServer({ args: ["--strict-signatures", "--credentials", `${KEY}:${SECRET}`] });
    await server.start();
    const client = new sdk.S3TablesClient({ endpoint: server.endpoint, region: "us-east-1", maxAttempts: 1,
      credentials: { accessKeyId: KEY, secretAccessKey: SECRET } });
    await client.send(new sdk.CreateTableBucketCommand({ name: "mine" }));
    client.destroy();
    browser = await Browser.launch();
    page = await browser.newPage();
    await page.setColorScheme("light");
  });

  after(async () => {
    await browser?.close();
    await server?.cleanup();
  });

  test("the first load shows the credentials dialog, no error, and sends no API request", async () => {
    await page.goto(`${server.endpoint}/_floe/ui/`);
    await page.waitFor("document.getElementById('credentials').open", "the credentials dialog");
    await page.waitReady("the page behind the dialog");
    await new Promise((r) => setTimeout(r, 300)); // anything sent after the dialog opened would show now
    assert.deepEqual(apiRequests(), [], "no API request is sent before keys are given");
    assert.ok(page.requests.some((u) => u.endsWith("/_floe/ui/server.json")), "the page asked the server whether to sign");
    const shown = await page.eval("document.getElementById('main').innerText");
    assert.doesNotMatch(shown, /Something went wrong|Missing Authentication Token|403/, `no error behind the dialog: ${shown}`);
    assert.equal(await page.eval("document.querySelector('main h1').textContent"), "Keys needed", "the page says what it needs");
    assert.equal(await page.eval("document.querySelectorAll('main .error, main [role=alert]').length"), 0, "and shows no error box");
    assert.deepEqual(page.errors, [], "the browser logged no error and no failed request");
    await page.screenshot(path.join(ARTIFACTS, "floe-console-strict-first-load.png"));
  });

  test("cancelling leaves a button that asks again", async () => {
    await page.eval("document.querySelector('#credentials-form button[value=cancel]').click()");
    await page.waitFor("!document.getElementById('credentials').open", "the dialog to close");
    assert.deepEqual(apiRequests(), [], "still no API request");
    await page.click("#enter-keys");
    await page.waitFor("document.getElementById('credentials').open", "the dialog again");
  });

  test("the keys given, the signer's buckets are listed", async () => {
    await enterKeys(KEY, SECRET);
    await page.waitFor("document.querySelector('a.bucket-link')", "the signed bucket list");
    assert.deepEqual(await page.eval("[...document.querySelectorAll('a.bucket-link')].map((a) => a.textContent)"), ["mine"]);
    assert.ok(apiRequests().length > 0, "the console reads the server once it can sign");
    assert.deepEqual(page.errors, [], "every signed request succeeded");
  });

  test("keys the server refuses are reported, and asked for again", async () => {
    await page.eval("sessionStorage.clear()");
    await page.load(`${server.endpoint}/_floe/ui/`, "a fresh load without keys");
    await page.waitFor("document.getElementById('credentials').open", "the credentials dialog");
    await enterKeys(KEY, "wrong-secret");
    await page.waitFor("document.getElementById('credentials').open", "the dialog after a refusal");
    assert.match(await page.eval("document.querySelector('main .error').textContent"), /signature/i, "the refusal is shown");
  });
});

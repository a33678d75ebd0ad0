// Headless chromium for the console's browser tests (tests/e2e/console/*.mjs): Debian's
// /usr/bin/chromium driven over the DevTools protocol (--remote-debugging-pipe) with node's
// built-ins only. A Page records every request URL and every error the page logs (script
// exceptions, console.error, failed loads such as a 403), clicks with real mouse events, types
// keys, and saves screenshots. What it is not for: anything but looking at the console the way a
// person does.
//
// Usage:
//   if (chromiumMissing()) ...skip with that reason...
//   const browser = await Browser.launch();
//   const page = await browser.newPage();
//   await page.goto(`${server.endpoint}/_floe/ui/`);
//   await page.waitReady("the bucket list");
//   await browser.close();

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";


export const CHROMIUM = "/usr/bin/chromium";
export const WAIT_MS = 30000;
/** Where screenshots go: FLOE_E2E_ARTIFACTS, else the temporary directory. */
export const ARTIFACTS = process.env.FLOE_E2E_ARTIFACTS ?? os.tmpdir();

/** Why the browser tests cannot run ("chromium"), or null (tests/e2e/run fails the skip in CI). */
export function chromiumMissing() {
  if (fs.existsSync(CHROMIUM)) return null;
  return "chromium (apt-get install chromium)";
}

export class Browser {
  static async launch() {
    const b = new Browser();
    b.profile = fs.mkdtempSync(path.join(os.tmpdir(), "floe-chromium-"));
    b.proc = spawn(CHROMIUM, ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
      "--no-first-run", "--no-default-browser-check", "--disable-background-networking", "--disable-sync",
      "--disable-component-update", "--disable-extensions", "--remote-debugging-pipe", `--user-data-dir=${b.profile}`,
      "--window-size=1400,2000", "about:blank"], { stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"], detached: true });
    b.proc.stderr.on("data", () => {});
    b.out = b.proc.stdio[3];
    b.nextId = 1;
    b.pending = new Map();
    b.listeners = [];
    let buf = Buffer.alloc(0);
    b.proc.stdio[4].on("data", (chunk) => {
      buf = Buffer.concat([buf, chunk]);
      let end;
      while ((end = buf.indexOf(0)) >= 0) {
        const msg = JSON.parse(buf.subarray(0, end).toString("utf8"));
        buf = buf.subarray(end + 1);
        if (msg.id && b.pending.has(msg.id)) {
          const { resolve, reject } = b.pending.get(msg.id);
          b.pending.delete(msg.id);
          if (msg.error) reject(new Error(`${msg.error.message} ${msg.error.data ?? ""}`));
          else resolve(msg.result);
        } else if (msg.method) {
          for (const l of b.listeners) l(msg);
        }
      }
    });
    return b;
  }

  send(method, params = {}, sessionId = undefined) {
    const id = this.nextId++;
    this.out.write(JSON.stringify({ id, method, params, sessionId }) + "\0");
    return new Promise((resolve, reject) => this.pending.set(id, { resolve, reject }));
  }

  async newPage() {
    const { targetId } = await this.send("Target.createTarget", { url: "about:blank" });
    const { sessionId } = await this.send("Target.attachToTarget", { targetId, flatten: true });
    const page = new Page(this, sessionId);
    this.listeners.push((msg) => { if (msg.sessionId === sessionId) page.onEvent(msg); });
    for (const domain of ["Page", "Runtime", "Network", "Log"]) await page.send(`${domain}.enable`);
    return page;
  }

  /** Asks chromium to quit, then kills its process group (its own children too) and closes the pipes,
   * so nothing keeps node alive. */
  async close() {
    const exited = new Promise((r) => (this.proc.exitCode !== null ? r() : this.proc.once("exit", r)));
    try { await Promise.race([this.send("Browser.close"), new Promise((r) => setTimeout(r, 3000))]); } catch { /* gone */ }
    await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
    try { process.kill(-this.proc.pid, "SIGKILL"); } catch { /* the group is gone */ }
    await exited;
    for (const stream of [this.proc.stdio[2], this.proc.stdio[3], this.proc.stdio[4]]) stream?.destroy();
    await new Promise((r) => setTimeout(r, 200)); // its children write their last files into the profile
    try {
      fs.rmSync(this.profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
    } catch (err) {
      console.log(`# left the chromium profile ${this.profile}: ${err.message}`);
    }
  }

}

export class Page {
  constructor(browser, sessionId) {
    this.browser = browser;
    this.sessionId = sessionId;
    this.requests = [];
    this.errors = [];
  }

  send(method, params = {}) { return this.browser.send(method, params, this.sessionId); }

  onEvent({ method, params }) {
    if (method === "Network.requestWillBeSent") this.requests.push(params.request.url);
    else if (method === "Runtime.exceptionThrown") this.errors.push(params.exceptionDetails.exception?.description ?? params.exceptionDetails.text);
    else if (method === "Runtime.consoleAPICalled" && params.type === "error") this.errors.push(params.args.map((a) => a.value ?? a.description).join(" "));
    else if (method === "Log.entryAdded" && params.entry.level === "error") this.errors.push(`${params.entry.text} ${params.entry.url ?? ""}`);
  }

  async eval(expression) {
    const r = await this.send("Runtime.evaluate", { expression, awaitPromise: true, returnByValue: true });
    if (r.exceptionDetails) throw new Error(`${expression}: ${r.exceptionDetails.exception?.description ?? r.exceptionDetails.text}`);
    return r.result.value;
  }

  async waitFor(expression, what) {
    const deadline = Date.now() + WAIT_MS;
    while (Date.now() < deadline) {
      if (await this.eval(expression)) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`timed out waiting for ${what}; the page shows: ${await this.eval("document.getElementById('main')?.innerText.slice(0, 2000)")}; errors: ${this.errors.join(" | ")}`);
  }

  /** Waits for the console to finish rendering the view it was sent to. */
  waitReady(what) { return this.waitFor("document.getElementById('main')?.dataset.ready === 'true'", what); }

  async goto(url) {
    await this.send("Page.navigate", { url });
    await this.waitFor("document.readyState === 'complete'", `${url} to load`);
  }

  /** Loads `url` as a new document (through about:blank, so the same address loads afresh) and
   * waits until the console has rendered `what`. */
  async load(url, what) {
    await this.goto("about:blank");
    await this.goto(url);
    await this.waitReady(what);
  }

  /** A real mouse click at the middle of the first element matching `selector`. */
  async click(selector) {
    const box = await this.eval(`(() => { const e = document.querySelector(${JSON.stringify(selector)}); if (!e) return null;
      e.scrollIntoView({block: 'center'}); const r = e.getBoundingClientRect(); return {x: r.x + r.width / 2, y: r.y + r.height / 2}; })()`);
    assert.ok(box, `the page has ${selector} to click`);
    for (const type of ["mousePressed", "mouseReleased"])
      await this.send("Input.dispatchMouseEvent", { type, x: box.x, y: box.y, button: "left", clickCount: 1 });
  }

  async key(key, code, keyCode) {
    await this.send("Input.dispatchKeyEvent", { type: "keyDown", key, code, windowsVirtualKeyCode: keyCode, text: key === "Enter" ? "\r" : key === " " ? " " : undefined });
    await this.send("Input.dispatchKeyEvent", { type: "keyUp", key, code, windowsVirtualKeyCode: keyCode });
  }

  /** The whole page, or only `clip` ({x, y, width, height, scale}). */
  async screenshot(file, clip = undefined) {
    const { data } = await this.send("Page.captureScreenshot", { format: "png", captureBeyondViewport: true, clip });
    fs.writeFileSync(file, Buffer.from(data, "base64"));
    return file;
  }

  setColorScheme(value) {
    return this.send("Emulation.setEmulatedMedia", { features: [{ name: "prefers-color-scheme", value }] });
  }
}

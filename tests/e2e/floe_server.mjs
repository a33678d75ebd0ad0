// Starts a real `floe serve` for an end-to-end test in JavaScript and gives it AWS SDK v3 clients.
//
// What this is for: every tests/e2e/<folder>/NN-*.mjs file (run with `node --test`) uses FloeServer to run
// its own server on a free port over a fresh data directory, the way floe_server.py does for the
// Python tests: the binary comes from FLOE_BIN (set by CTest), readiness is a poll of
// /_floe/health, and stop() sends SIGTERM and requires exit status 0, so a sanitizer report fails
// the test. What it is not for: hand-built HTTP, except where a test is about the wire itself.
//
// Usage:
//   const sdk = await importOrSkip("@aws-sdk/client-s3tables");   // null (skip) when not installed
//   const server = new FloeServer();      // keep the object: cleanup() also removes the data dir
//   await server.start();                 // when start() fails
//   const s3tables = s3tablesClient(sdk, server);
//   ...
//   await server.cleanup();

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const SOURCE_DIR = process.env.FLOE_SOURCE_DIR ?? path.resolve(HERE, "..", "..");
export const FLOE_BIN = process.env.FLOE_BIN ?? path.join(SOURCE_DIR, "build", "floe");
export const REGION = "us-east-1";
export const ACCOUNT = "000000000000";

const START_TIMEOUT_MS = 15000;
const STOP_TIMEOUT_MS = 15000;
const POLL_INTERVAL_MS = 20;
const LOG_TAIL_BYTES = 20000;

/** A check for assert.rejects: the SDK raised the modeled exception `name` with HTTP `status`. */
export function modeled(name, status) {
  return (err) => {
    assert.equal(err.name, name, `expected ${name}, got ${err.name}: ${err.message}`);
    assert.equal(err.$metadata?.httpStatusCode, status, `${name} is HTTP ${status}`);
    return true;
  };
}

/**
 * Imports an npm package from tests/e2e/node_modules (`npm ci` there installs them). Returns null
 * when it is not installed, so the caller can skip with a reason (tests/e2e/run fails a skip in CI).
 */
export async function importOrSkip(name) {
  try {
    return await import(name);
  } catch (err) {
    if (err.code !== "ERR_MODULE_NOT_FOUND")
      throw err;
    return null;
  }
}

/** A TCP port nobody listens on right now. */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** One `floe serve` process on a free port over its own data directory. */
export class FloeServer {
  /** env: variables added to the server's environment only (the test's own clients never get them). */
  constructor({ args = [], dataDir = null, env = {} } = {}) {
    this.args = args;
    this.env = env;
    this.ownDir = dataDir === null;
    this.dataDir = dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "floe-e2e-"));
    this.port = null;
    this.proc = null;
    this.exited = null; // resolves to {code, signal} when the process ends
  }

  get endpoint() {
    return `http://127.0.0.1:${this.port}`;
  }

  async start() {
    this.port = this.port ?? await freePort();
    this.logPath = path.join(os.tmpdir(), `floe-e2e-${this.port}.log`);
    // A port is reused across test runs: the first start truncates the log, restarts append to it.
    const log = fs.openSync(this.logPath, this.logStarted ? "a" : "w");
    this.logStarted = true;
    this.proc = spawn(FLOE_BIN, ["serve", "--host", "127.0.0.1", "--port", String(this.port),
      "--data-dir", this.dataDir, ...this.args], { stdio: ["ignore", log, log], env: { ...process.env, ...this.env } });
    fs.closeSync(log);
    this.exited = new Promise((resolve) => this.proc.once("exit", (code, signal) => resolve({ code, signal })));
    const spawnFailed = new Promise((resolve) => this.proc.once("error", resolve));
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (Date.now() < deadline) {
      const early = await Promise.race([this.exited, spawnFailed, sleep(0).then(() => null)]);
      if (early !== null) {
        this.proc = null;
        throw new Error(`floe did not start (${early.message ?? `exit ${early.code}`}):\n${this.logText()}`);
      }
      if (await this.isHealthy())
        return this;
      await sleep(POLL_INTERVAL_MS);
    }
    this.proc.kill("SIGKILL");
    await this.exited;
    this.proc = null;
    throw new Error(`floe did not answer /_floe/health within ${START_TIMEOUT_MS} ms:\n${this.logText()}`);
  }

  async isHealthy() {
    try {
      const resp = await fetch(`${this.endpoint}/_floe/health`, { signal: AbortSignal.timeout(1000) });
      await resp.arrayBuffer();
      return resp.status === 200;
    } catch {
      return false;
    }
  }

  /** SIGTERM and wait; a non-zero exit (a sanitizer report, say) is an error. */
  async stop() {
    if (this.proc === null)
      return;
    const proc = this.proc;
    this.proc = null;
    proc.kill("SIGTERM");
    let timer;
    const timeout = new Promise((resolve) => { timer = setTimeout(() => resolve(null), STOP_TIMEOUT_MS); });
    const result = await Promise.race([this.exited, timeout]);
    clearTimeout(timer); // a pending timer would keep node alive after the tests
    if (result === null) {
      proc.kill("SIGKILL");
      await this.exited;
      throw new Error(`floe did not stop within ${STOP_TIMEOUT_MS} ms of SIGTERM:\n${this.logText()}`);
    }
    if (result.code !== 0)
      throw new Error(`floe exited with ${result.code ?? result.signal}:\n${this.logText()}`);
  }

  /** Stops and starts again on the same port and data directory. */
  async restart() {
    await this.stop();
    return this.start();
  }

  async cleanup() {
    try {
      await this.stop();
    } finally {
      if (this.ownDir)
        fs.rmSync(this.dataDir, { recursive: true, force: true });
    }
  }

  logText() {
    try {
      const text = fs.readFileSync(this.logPath, "utf8");
      return text.slice(-LOG_TAIL_BYTES);
    } catch {
      return "";
    }
  }
}

/** Settings for an AWS SDK v3 client talking to `server`: test credentials, one attempt. */
export function clientConfig(server) {
  return {
    endpoint: server.endpoint,
    region: REGION,
    credentials: { accessKeyId: "floe-test", secretAccessKey: "floe-test" },
    maxAttempts: 1,
  };
}

/** An S3TablesClient for `server`, from the imported @aws-sdk/client-s3tables module `sdk`. */
export function s3tablesClient(sdk, server) {
  return new sdk.S3TablesClient(clientConfig(server));
}

/** The table bucket ARN Floe gives the bucket `name`. */
export function bucketArn(name) {
  return `arn:aws:s3tables:${REGION}:${ACCOUNT}:bucket/${name}`;
}

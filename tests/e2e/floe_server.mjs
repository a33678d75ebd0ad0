// Starts a real `floe serve` for a JavaScript end-to-end test, as floe_server.py does for Python:
// a free port, a fresh data directory, readiness by polling /_floe/health, and a stop that sends
// SIGTERM and fails the test unless Floe exits 0 (a sanitizer report exits non-zero). Not for
// building requests: tests use the AWS SDK for JavaScript v3.
import { spawn } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SOURCE_DIR = process.env.FLOE_SOURCE_DIR ?? path.resolve(HERE, '..', '..');
const FLOE_BIN = process.env.FLOE_BIN ?? path.join(SOURCE_DIR, 'build', 'floe');
const START_TIMEOUT_MS = 15000;
const STOP_TIMEOUT_MS = 15000;

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

async function waitForHealth(endpoint, proc, logPath) {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null) {
      throw new Error(`floe exited with ${proc.exitCode} during start-up:\n${readFileSync(logPath, 'utf8')}`);
    }
    try {
      const res = await fetch(`${endpoint}/_floe/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`floe did not answer /_floe/health within ${START_TIMEOUT_MS} ms`);
}

/** Starts Floe; resolves to { endpoint, dataDir, stop }. stop() rejects unless Floe exits 0. */
export async function startFloe(...extraArgs) {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'floe-e2e-'));
  const logPath = path.join(os.tmpdir(), `floe-e2e-${port}.log`);
  const log = openSync(logPath, 'a');
  const proc = spawn(FLOE_BIN, ['serve', '--host', '127.0.0.1', '--port', String(port), '--data-dir', dataDir,
    ...extraArgs], { stdio: ['ignore', log, log] });
  const endpoint = `http://127.0.0.1:${port}`;
  await waitForHealth(endpoint, proc, logPath);
  const exited = new Promise((resolve) => proc.once('exit', (code, signal) => resolve({ code, signal })));
  async function stop() {
    proc.kill('SIGTERM');
    let timeout;
    const timer = new Promise((resolve) => { timeout = setTimeout(() => resolve(null), STOP_TIMEOUT_MS); });
    const result = await Promise.race([exited, timer]);
    clearTimeout(timeout);
    rmSync(dataDir, { recursive: true, force: true });
    if (result === null) {
      proc.kill('SIGKILL');
      throw new Error(`floe did not stop within ${STOP_TIMEOUT_MS} ms of SIGTERM`);
    }
    if (result.code !== 0) {
      throw new Error(`floe exited with status ${result.code}:\n${readFileSync(logPath, 'utf8').slice(-20000)}`);
    }
  }
  return { endpoint, dataDir, stop };
}

/** Credentials and region for SDK clients pointed at Floe. */
export const clientConfig = (endpoint) => ({
  endpoint,
  region: 'us-east-1',
  credentials: { accessKeyId: 'floe-test', secretAccessKey: 'floe-test' },
});

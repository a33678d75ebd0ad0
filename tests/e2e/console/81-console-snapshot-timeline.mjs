// The table page's snapshot timeline in headless chromium (console_browser.mjs), for snapshots an
// engine wrote (iceberg_writer.mjs: hyparquet-writer, avsc, iceberg-js):
//  - a snapshot whose summary holds only `operation` (all the spec requires, and all DuckDB 1.4
//    writes) gets its counts computed from its manifests by GET /_floe/ui/api/table
//    (computedSummaries, "computedFrom": "manifests"): added and deleted files and records and the
//    totals, equal to what the manifests this test reads itself hold; the page shows them, marked
//    "computed from manifests", in the list and in the snapshot's details, and plots them;
//  - the chart's time axis fits the data: one snapshot sits in the middle of an axis about an hour
//    wide (not years), two snapshots a day apart both lie inside it, and the legend shows the
//    selected snapshot's values, not "--".
//
// Run: cd tests/e2e && npm ci && node --test console/81-console-snapshot-timeline.mjs
import assert from "node:assert/strict";
import path from "node:path";
import { after, before, describe, test } from "node:test";

import { ARTIFACTS, Browser, chromiumMissing } from "../console_browser.mjs";
import { FloeServer } from "../floe_server.mjs";
import { IcebergWriter, missingPackages, readAvro } from "../iceberg_writer.mjs";

const missing = [...missingPackages.map((p) => `${p} (npm ci in tests/e2e)`), chromiumMissing()].filter(Boolean);
const T0 = Date.parse("2026-06-01T12:00:00Z");
const HOUR_MS = 3600000;
const ONLY_OPERATION = (operation) => ({ summary: { operation } });

describe("the snapshot timeline of the table page", { skip: missing.length ? `missing: ${missing.join(", ")}` : false }, () => {
  let server, w, browser, page, arn;
  const snaps = [];

  before(async () => {
    server = new FloeServer({ args: ["--maintenance-interval", "0"] });
    await server.start();
    w = await IcebergWriter.open(server, { bucket: "timeline" });
    await w.createTable("events");
    arn = await w.tableArn("events");
    snaps.push(await w.append("events", [1, 2, 3].map((i) => ({ id: BigInt(i), name: `n${i}`, ts: new Date(T0) })),
      { timestampMs: T0, ...ONLY_OPERATION("append") }));
    browser = await Browser.launch();
    page = await browser.newPage();
    await page.setColorScheme("light");
  });

  after(async () => {
    await browser?.close();
    w?.close();
    await server?.cleanup();
  });

  /** GET /_floe/ui/api/table, as the page reads it. */
  async function apiTable() {
    const res = await fetch(`${server.endpoint}/_floe/ui/api/table?arn=${encodeURIComponent(arn)}`);
    assert.equal(res.status, 200, "the table route answers");
    return res.json();
  }

  /** What the snapshot's manifests hold, read here with avsc: Iceberg Java's summary counts. */
  async function countsInManifests(snapshot) {
    const c = { "added-data-files": 0, "deleted-data-files": 0, "added-records": 0, "deleted-records": 0,
      "total-data-files": 0, "total-records": 0, "total-files-size": 0 };
    for (const m of await readAvro(await w.get(snapshot.manifestListPath))) {
      for (const e of await readAvro(await w.get(m.manifest_path))) {
        const f = e.data_file, mine = m.added_snapshot_id === snapshot.snapshotId;
        if (e.status === 2) {
          if (mine) { c["deleted-data-files"]++; c["deleted-records"] += f.record_count; }
          continue;
        }
        if (e.status === 1 && mine) { c["added-data-files"]++; c["added-records"] += f.record_count; }
        c["total-data-files"]++;
        c["total-records"] += f.record_count;
        c["total-files-size"] += f.file_size_in_bytes;
      }
    }
    return c;
  }

  const open = () => page.load(`${server.endpoint}/_floe/ui/#/table?arn=${encodeURIComponent(arn)}`, "the table page");
  /** The text of the snapshot list's entries, oldest first. */
  const listed = () => page.eval("[...document.querySelectorAll('#snapshot-list button')].map((b) => b.innerText.replace(/\\s+/g, ' '))");
  const chart = () => page.eval(`(() => { const c = document.getElementById('snapshot-chart');
    if (!c) return { missing: document.getElementById('main').innerText.slice(0, 1500) };
    return { ...c.dataset, label: c.getAttribute('aria-label'),
      legend: [...c.querySelectorAll('.u-legend .u-series')].map((s) => s.innerText.replace(/\\s+/g, ' ').trim()) }; })()`);

  /** A screenshot of the snapshot timeline section. */
  async function shoot(file) {
    const clip = await page.eval(`(() => { const e = document.getElementById('snapshots'); e.scrollIntoView();
      const r = e.getBoundingClientRect(); return { x: r.x + scrollX, y: r.y + scrollY, width: r.width, height: r.height, scale: 1 }; })()`);
    await page.screenshot(path.join(ARTIFACTS, file), clip);
  }

  test("one snapshot whose summary holds only its operation: counts computed from its manifests", async () => {
    await open();
    const [entry] = await listed();
    assert.match(entry, /records \+3 −0 · files \+1 −0 · total 3 records, [\d.]+ K?i?B · computed from manifests/,
      `the list shows the computed counts, marked: ${entry}`);
    const detail = await page.eval("document.getElementById('snapshot-detail').innerText");
    assert.match(detail, /computed from manifests/, "so does the snapshot's detail");
    assert.match(detail, /"total-records": "3"/, "with the computed counts");
    const t = await apiTable();
    const written = t.metadata.snapshots.find((s) => String(s["snapshot-id"]) === String(snaps[0].snapshotId));
    assert.deepEqual(written.summary, { operation: "append" }, "the snapshot's summary holds only its operation");
    const computed = t.computedSummaries[String(snaps[0].snapshotId)];
    assert.ok(computed, `the route computes the snapshot's counts: ${JSON.stringify(t.computedSummaries)}`);
    assert.equal(computed.computedFrom, "manifests", "and says they are computed from its manifests");
    const expected = await countsInManifests(snaps[0]);
    assert.deepEqual(expected["added-records"], 3, "the test's own reading of the manifests");
    for (const [key, value] of Object.entries(expected))
      assert.equal(computed[key], String(value), `${key}: what the manifests hold`);

    await shoot("floe-console-snapshot-one.png");
  });

  test("one snapshot: the time axis is centred on it and about an hour wide, the legend shows its values", async () => {
    await open();
    const c = await chart();
    assert.equal(c.missing, undefined, "the page has the chart");
    assert.ok(c.legend.some((s) => /^Total records\s*3$/.test(s)), `the legend shows the snapshot's total records: ${c.legend}`);
    assert.ok(c.legend.every((s) => !s.includes("--")), `the legend shows no "--": ${c.legend}`);
    const from = Date.parse(c.xFrom), to = Date.parse(c.xTo);
    assert.ok(to - from >= HOUR_MS && to - from <= 2 * HOUR_MS, `an axis of an hour or so, not years: ${c.xFrom} to ${c.xTo}`);
    assert.ok(Math.abs((T0 - from) - (to - T0)) < 60000, `the snapshot in the middle: ${c.xFrom} to ${c.xTo} around ${new Date(T0).toISOString()}`);
    const labels = JSON.parse(c.xLabels);
    assert.ok(labels.length >= 2, `the axis has labels: ${c.xLabels}`);
    assert.ok(labels.every((l) => /^\d{1,2}:\d\d[ap]m(\n6\/1\/26)?$/.test(l)), `the labels are times of that day: ${c.xLabels}`);
    assert.match(c.label, /from 2026-06-01 11:\d\d:\d\dZ to 2026-06-01 12:\d\d:\d\dZ/, `the chart says what it spans: ${c.label}`);
  });

  test("later snapshots: an append and a delete of a file, each with only its operation", async () => {
    snaps.push(await w.append("events", [4, 5].map((i) => ({ id: BigInt(i), name: `n${i}`, ts: new Date(T0) })),
      { timestampMs: T0 + 24 * HOUR_MS, ...ONLY_OPERATION("append") }));
    const removed = await w.deleteFile("events", snaps[0].dataPath, { timestampMs: T0 + 48 * HOUR_MS, ...ONLY_OPERATION("delete") });
    snaps.push(removed);
    const t = await apiTable();
    for (const s of snaps) {
      const computed = t.computedSummaries[String(s.snapshotId)];
      for (const [key, value] of Object.entries(await countsInManifests(s)))
        assert.equal(computed[key], String(value), `snapshot ${s.snapshotId}, ${key}: what its manifests hold`);
    }
    const [, second, third] = snaps.map((s) => t.computedSummaries[String(s.snapshotId)]);
    assert.deepEqual([second["added-records"], second["total-records"], second["total-data-files"]], ["2", "5", "2"],
      "the append added its file to the one before");
    assert.deepEqual([third["deleted-data-files"], third["deleted-records"], third["added-records"], third["total-records"]],
      ["1", "3", "0", "2"], "the delete removed the first file");

    await open();
    const entries = await listed();
    assert.match(entries[1], /records \+2 −0 · files \+1 −0 · total 5 records/, `the second append: ${entries[1]}`);
    assert.match(entries[2], /delete ★ records \+0 −3 · files \+0 −1 · total 2 records, [\d.]+ K?i?B · computed from manifests/,
      `the delete: ${entries[2]}`);
    const c = await chart();
    const from = Date.parse(c.xFrom), to = Date.parse(c.xTo);
    assert.ok(from < T0 && to > T0 + 48 * HOUR_MS && to - from < 72 * HOUR_MS, `the axis spans the three days: ${c.xFrom} to ${c.xTo}`);
    assert.ok(c.legend.some((s) => /^Total records\s*2$/.test(s)), `the legend shows the current snapshot's total: ${c.legend}`);
    await shoot("floe-console-snapshot-timeline.png");
  });

  test("the page logged no error", () => {
    assert.deepEqual(page.errors, [], "no script error and no failed request");
  });
});

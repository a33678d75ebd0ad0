// The table page: what the catalog says (row, metadata.json, maintenance, replication and, for a
// replica, its source, settings) from GET api/table; the engine snippets filled in for the table
// (engines.js); and what the browser reads itself through GET api/object: the current snapshot's
// manifest list and manifests (Avro, icebird's reader) for the data files, and the first 100
// rows from those Parquet files (hyparquet). A data file's deletion vector (format version 3) is
// shown beside it and applied to the preview (deletion_vector.js); other delete files are listed,
// not applied. Format version 3 tables also show their row lineage: next-row-id, and each
// snapshot's first-row-id and added-rows. A snapshot whose summary lacks the counts (the spec
// requires only `operation`) shows those the server computed from its manifests
// (computedSummaries), marked as computed.
import { get, object, runMaintenance } from './api.js';
import { deletedPositions } from './deletion_vector.js';
import { errorBox, facts, fmtBytes, fmtInt, fmtTime, h, jsonView, table } from './dom.js';
import { enginesSection } from './engines.js';
import { ownedSection, withDefault } from './owned.js';

const PREVIEW_ROWS = 100;
const q = (params) => new URLSearchParams(params).toString();

// ---- schema ----

function typeName(t) {
  if (typeof t === 'string') return t;
  if (t.type === 'list') return `list<${typeName(t.element)}>`;
  if (t.type === 'map') return `map<${typeName(t.key)}, ${typeName(t.value)}>`;
  return t.type; // struct
}

/** Rows [id, name (indented), type, required] for a struct's fields and everything nested in them. */
function schemaRows(fields, depth = 0, out = []) {
  const pad = (name) => h('span', { style: `padding-left:${depth * 1.4}em` }, depth ? '↳ ' : '', name);
  const nested = (t, d) => {
    if (typeof t !== 'object' || t === null) return;
    if (t.type === 'struct') schemaRows(t.fields, d, out);
    else if (t.type === 'list') {
      out.push([String(t['element-id']), h('span', { style: `padding-left:${d * 1.4}em`, class: 'type-nested' }, '↳ element'),
        typeName(t.element), t['element-required'] ? 'required' : 'optional']);
      nested(t.element, d + 1);
    } else if (t.type === 'map') {
      out.push([String(t['key-id']), h('span', { style: `padding-left:${d * 1.4}em`, class: 'type-nested' }, '↳ key'), typeName(t.key), 'required']);
      nested(t.key, d + 1);
      out.push([String(t['value-id']), h('span', { style: `padding-left:${d * 1.4}em`, class: 'type-nested' }, '↳ value'),
        typeName(t.value), t['value-required'] ? 'required' : 'optional']);
      nested(t.value, d + 1);
    }
  };
  for (const f of fields ?? []) {
    out.push([String(f.id), pad(f.name), h('code', {}, typeName(f.type)), f.required ? 'required' : 'optional']);
    nested(f.type, depth + 1);
  }
  return out;
}

function currentSchema(md) {
  return md.schemas?.find((s) => s['schema-id'] === md['current-schema-id']) ?? md.schema ?? { fields: [] };
}

/** field id -> column name, over every nesting level. */
function namesById(schema) {
  const names = new Map();
  const walk = (fields, prefix) => {
    for (const f of fields ?? []) {
      names.set(f.id, prefix + f.name);
      if (f.type?.type === 'struct') walk(f.type.fields, `${prefix}${f.name}.`);
    }
  };
  walk(schema.fields, '');
  return names;
}

function specSection(md, schema) {
  const names = namesById(schema);
  const spec = md['partition-specs']?.find((s) => s['spec-id'] === md['default-spec-id']) ?? { fields: md['partition-spec'] ?? [] };
  const order = md['sort-orders']?.find((s) => s['order-id'] === md['default-sort-order-id']) ?? { fields: [] };
  const props = Object.entries(md.properties ?? {}).sort(([a], [b]) => a.localeCompare(b));
  return h('div', { class: 'grid2' },
    h('section', { 'aria-labelledby': 'h-partition' }, h('h2', { id: 'h-partition' }, `Partition spec ${spec['spec-id'] ?? ''}`),
      spec.fields.length
        ? table(['Field id', 'Name', 'Transform', 'Source'], spec.fields.map((f) =>
          [String(f['field-id'] ?? '–'), f.name, h('code', {}, f.transform), names.get(f['source-id']) ?? String(f['source-id'])]),
        { attrs: { id: 'partition-spec', 'aria-label': 'Partition fields' } })
        : h('p', { class: 'muted', id: 'partition-spec' }, 'Unpartitioned.')),
    h('section', { 'aria-labelledby': 'h-sort' }, h('h2', { id: 'h-sort' }, `Sort order ${order['order-id'] ?? ''}`),
      order.fields.length
        ? table(['Source', 'Transform', 'Direction', 'Nulls'], order.fields.map((f) =>
          [names.get(f['source-id']) ?? String(f['source-id']), h('code', {}, f.transform), f.direction, f['null-order']]),
        { attrs: { id: 'sort-order', 'aria-label': 'Sort fields' } })
        : h('p', { class: 'muted', id: 'sort-order' }, 'Unsorted.')),
    h('section', { 'aria-labelledby': 'h-props' }, h('h2', { id: 'h-props' }, 'Properties'),
      props.length ? table(['Key', 'Value'], props.map(([k, v]) => [h('code', {}, k), String(v)]), { attrs: { id: 'properties', 'aria-label': 'Properties' } })
        : h('p', { class: 'muted', id: 'properties' }, 'No properties.')));
}

// ---- snapshots ----

const num = (v) => (v === undefined || v === null ? null : Number(v));

function cssVar(name) { return getComputedStyle(document.documentElement).getPropertyValue(name).trim(); }

// The time axis spans the snapshots with a margin, and at least an hour: one snapshot (or a burst
// of them) sits in the middle of a readable axis, not at the left edge of a day uPlot gives a
// single time and then widens on every redraw. A range the user zoomed to is kept as it is.
const MIN_SPAN_S = 3600;
const timeRange = (first, last) => (u, min, max) => {
  if (min !== first || (max !== last && first !== last)) return [min, max];
  const mid = (first + last) / 2, half = Math.max(last - first, MIN_SPAN_S) * 0.55;
  return [mid - half, mid + half];
};

/** The chart; `shown()` is the snapshot whose values the legend shows while the pointer is away. */
async function timelineChart(snaps, onPick, shown) {
  const label = `Chart of ${snaps.length} snapshot${snaps.length === 1 ? '' : 's'}: total records and total size over time`;
  const holder = h('div', { class: 'chart', id: 'snapshot-chart', role: 'img', 'aria-label': label });
  if (!snaps.length) return { holder, show: () => {} };
  let plot = null;
  const draw = async () => {
    const { default: uPlot } = await import('./vendor/uplot/dist/uPlot.esm.js');
    const xs = snaps.map((s) => Number(s['timestamp-ms']) / 1000);
    const records = snaps.map((s) => num(s.counts['total-records']));
    const size = snaps.map((s) => num(s.counts['total-files-size']));
    const fg = cssVar('--fg'), line = cssVar('--line');
    const axis = { stroke: fg, grid: { stroke: line }, ticks: { stroke: line } };
    // Away from the chart uPlot's legend shows "--": show the selected snapshot's values instead.
    const legendAtRest = (u) => { if (u.legend.idx === null || u.legend.idx === undefined) u.setLegend({ idx: shown() }, false); };
    // What the axis shows, for a screen reader (and the browser test): its range and its labels.
    const describeAxis = (u) => {
      const from = new Date(u.scales.x.min * 1000).toISOString(), to = new Date(u.scales.x.max * 1000).toISOString();
      Object.assign(holder.dataset, { xFrom: from, xTo: to, xLabels: JSON.stringify((u.axes[0]._values ?? []).map(String)) });
      holder.setAttribute('aria-label', `${label}, from ${fmtTime(Date.parse(from))} to ${fmtTime(Date.parse(to))}`);
    };
    plot?.destroy();
    plot = new uPlot({
      width: Math.min(1100, Math.max(360, (document.getElementById('main').clientWidth || 900) - 20)), height: 240,
      scales: { x: { time: true, range: timeRange(xs[0], xs[xs.length - 1]) }, size: {} },
      series: [{}, { label: 'Total records', stroke: cssVar('--accent'), width: 2, points: { size: 8 } },
        { label: 'Total size (bytes)', stroke: cssVar('--good'), width: 2, dash: [6, 4], scale: 'size', points: { size: 6 } }],
      axes: [axis, { ...axis, label: 'records' }, { ...axis, side: 1, scale: 'size', label: 'bytes', grid: { show: false } }],
      hooks: { setLegend: [legendAtRest], draw: [describeAxis] },
    }, [xs, records, size], holder);
    plot.setLegend({ idx: shown() }, false);
    const p = plot;
    plot.over.addEventListener('click', () => { if (p.cursor.idx !== null && p.cursor.idx !== undefined) onPick(p.cursor.idx); });
  };
  // The chart is drawn on a canvas with the palette's colours: draw it again when the palette changes.
  const scheme = matchMedia('(prefers-color-scheme: dark)');
  const redraw = () => {
    if (!holder.isConnected) { scheme.removeEventListener('change', redraw); return; }
    draw().catch((e) => holder.append(errorBox(e)));
  };
  scheme.addEventListener('change', redraw);
  try {
    await draw();
  } catch (e) {
    holder.append(errorBox(e));
  }
  return { holder, show: (i) => plot?.setLegend({ idx: i }, false) };
}

/** A v3 snapshot's row lineage: the first row id its added rows got, and how many ids it used. */
function lineageFacts(s) {
  if (s['first-row-id'] === undefined && s['added-rows'] === undefined) return [];
  return [['First row id', h('span', { class: 'first-row-id' }, String(s['first-row-id'] ?? '–'))],
    ['Added rows', h('span', { class: 'added-rows' }, String(s['added-rows'] ?? '–'))]];
}

/** "computed from manifests" beside a snapshot's counts that its summary did not hold, or why
 * they are unknown. */
function countsNote(s) {
  if (s.computed?.error) return h('span', { class: 'muted computed-counts' }, `counts unknown: ${s.computed.error}`);
  return s.computed ? h('span', { class: 'muted computed-counts' }, 'computed from manifests') : null;
}

function snapshotDetail(s, md) {
  const sum = s.summary ?? {};
  const refs = Object.entries(md.refs ?? {}).filter(([, r]) => String(r['snapshot-id']) === String(s['snapshot-id'])).map(([k]) => k);
  const { computedFrom, error, ...computed } = s.computed ?? {};
  return h('div', { id: 'snapshot-detail', 'data-snapshot-id': String(s['snapshot-id']) },
    h('h3', {}, `Snapshot ${s['snapshot-id']}`),
    facts([['Committed', fmtTime(s['timestamp-ms'])], ['Operation', sum.operation ?? '–'], ['Parent', s['parent-snapshot-id'] ? String(s['parent-snapshot-id']) : null],
      ['Sequence number', s['sequence-number'] !== undefined ? String(s['sequence-number']) : null], ['Schema id', s['schema-id'] !== undefined ? String(s['schema-id']) : null],
      ...lineageFacts(s),
      ['References', refs.length ? refs.join(', ') : null], ['Manifest list', h('code', {}, s['manifest-list'] ?? '–')]]),
    jsonView(sum, 'snapshot summary'),
    s.computed ? [h('p', {}, 'The summary does not hold the counts; ', countsNote(s), computedFrom ? ':' : '.'),
      computedFrom ? jsonView(computed, 'counts computed from manifests') : null] : null);
}

/** The snapshots, oldest first, each with `counts`: its summary's, and for a summary without
 * them the counts the server computed from its manifests (`computed`, api/table's computedSummaries). */
function withCounts(md, computedSummaries) {
  return [...(md.snapshots ?? [])].sort((a, b) => Number(a['timestamp-ms']) - Number(b['timestamp-ms'])).map((s) => {
    const computed = computedSummaries?.[String(s['snapshot-id'])];
    const fromManifests = computed && !computed.error ? computed : {};
    return { ...s, computed, counts: { ...fromManifests, ...(s.summary ?? {}) } };
  });
}

/** A count the list shows: Iceberg Java leaves out added and deleted counts that are 0, but always
 * writes the totals; with no totals either, a count nobody knows is "–". */
const count = (c, key) => fmtInt(c[key] ?? (c['total-records'] !== undefined ? 0 : undefined));

async function snapshotSection(md, computedSummaries) {
  const snaps = withCounts(md, computedSummaries);
  const detail = h('div');
  const list = h('ul', { class: 'snapshots', id: 'snapshot-list', 'aria-label': 'Snapshots, oldest first' });
  const buttons = [];
  let picked = snaps.length - 1, chart = null;
  const pick = (i) => {
    picked = i;
    buttons.forEach((b, j) => b.setAttribute('aria-pressed', String(i === j)));
    detail.replaceChildren(snapshotDetail(snaps[i], md));
    chart?.show(i);
  };
  snaps.forEach((s, i) => {
    const sum = s.summary ?? {}, c = s.counts;
    const isCurrent = String(s['snapshot-id']) === String(md['current-snapshot-id']);
    const b = h('button', { type: 'button', 'aria-pressed': 'false', class: 'snapshot', dataset: { snapshotId: String(s['snapshot-id']), operation: sum.operation ?? '' },
      onclick: () => pick(i) },
    h('span', {}, fmtTime(s['timestamp-ms'])), h('span', {}, sum.operation ?? '–', isCurrent ? ' ★' : ''),
    h('span', {}, `records +${count(c, 'added-records')} −${count(c, 'deleted-records')} · files +${count(c, 'added-data-files')} −${count(c, 'deleted-data-files')} · total ${fmtInt(c['total-records'])} records, ${fmtBytes(c['total-files-size'])}` +
      (s['first-row-id'] !== undefined ? ` · row ids from ${s['first-row-id']} (+${s['added-rows'] ?? 0})` : ''),
    s.computed ? [' · ', countsNote(s)] : null));
    buttons.push(b);
    list.append(h('li', {}, b));
  });
  const current = snaps.findIndex((s) => String(s['snapshot-id']) === String(md['current-snapshot-id']));
  if (current >= 0) picked = current;
  chart = await timelineChart(snaps, pick, () => picked);
  const section = h('section', { 'aria-labelledby': 'h-snapshots', id: 'snapshots', dataset: { count: String(snaps.length) } },
    h('h2', { id: 'h-snapshots' }, `Snapshot timeline (${snaps.length})`),
    snaps.length ? [chart.holder, h('p', { class: 'muted' }, 'Select a snapshot (or a point of the chart) to see its summary. ★ marks the current snapshot.'), list, detail]
      : h('p', { class: 'muted' }, 'No snapshots yet.'));
  if (snaps.length) pick(picked);
  return section;
}

// ---- data files and preview, read in the browser ----

async function readAvro(arn, location) {
  const [{ avroMetadata }, { avroRead }] = await Promise.all([
    import('./vendor/icebird/src/avro/avro.metadata.js'), import('./vendor/icebird/src/avro/avro.read.js')]);
  const buffer = await object(arn, location);
  const reader = { view: new DataView(buffer), offset: 0 };
  const { metadata, syncMarker } = avroMetadata(reader);
  return avroRead({ reader, metadata, syncMarker });
}

/** The live entries of the current snapshot's manifests: {data: [...], deletes: [...], vectors},
 * vectors mapping a data file's path to its deletion vectors (v3 delete entries that name it). */
async function liveFiles(arn, md) {
  const snap = md.snapshots?.find((s) => String(s['snapshot-id']) === String(md['current-snapshot-id']));
  const vectors = new Map();
  if (!snap?.['manifest-list']) return { data: [], deletes: [], vectors };
  const manifests = await readAvro(arn, snap['manifest-list']);
  const data = [], deletes = [];
  for (const m of manifests) {
    for (const e of await readAvro(arn, m.manifest_path)) {
      if (Number(e.status) === 2) continue; // DELETED entries are history, not live files
      const f = e.data_file;
      if (Number(f.content ?? 0) === 0) data.push(f);
      else if (f.referenced_data_file && String(f.file_format).toUpperCase() === 'PUFFIN') vectors.set(f.referenced_data_file, [...(vectors.get(f.referenced_data_file) ?? []), f]);
      else deletes.push(f);
    }
  }
  return { data, deletes, vectors };
}

/** The positions a data file's deletion vectors delete (a Set), read from their Puffin files. */
async function deletedRows(arn, vectors) {
  const out = new Set();
  for (const v of vectors ?? []) {
    const puffin = await object(arn, v.file_path);
    const offset = Number(v.content_offset), size = Number(v.content_size_in_bytes);
    for (const p of deletedPositions(new Uint8Array(puffin, offset, size))) out.add(p);
  }
  return out;
}

/** A data file's deletion vectors, shown beside it. */
function vectorCell(vectors) {
  if (!vectors?.length) return h('span', { class: 'muted' }, '–');
  return h('span', { class: 'deletion-vector' }, ...vectors.flatMap((v, i) => [i ? h('br') : null,
    `${fmtInt(v.record_count)} rows deleted · `, h('code', {}, `${v.file_path} @${v.content_offset}`)]).filter(Boolean));
}

function cell(v) {
  if (v === null || v === undefined) return h('span', { class: 'muted' }, 'null');
  if (typeof v === 'bigint') return v.toString();
  if (v instanceof Date) return v.toISOString();
  if (v instanceof Uint8Array) return `0x${[...v.slice(0, 16)].map((b) => b.toString(16).padStart(2, '0')).join('')}${v.length > 16 ? '…' : ''}`;
  if (typeof v === 'object') return JSON.stringify(v, (k, x) => (typeof x === 'bigint' ? x.toString() : x));
  return String(v);
}

/** The first PREVIEW_ROWS rows of the data files, without the rows their deletion vectors delete. */
async function previewRows(arn, files, vectors) {
  const [{ parquetReadObjects }, { compressors }] = await Promise.all([import('./vendor/hyparquet/src/index.js'), import('./vendor/hyparquet-compressors/src/index.js')]);
  const rows = [];
  for (const f of files) {
    if (rows.length >= PREVIEW_ROWS) break;
    if (String(f.file_format).toUpperCase() !== 'PARQUET') continue;
    const deleted = await deletedRows(arn, vectors.get(f.file_path));
    const file = await object(arn, f.file_path);
    // enough rows that PREVIEW_ROWS survive even if every deleted position comes first
    const read = await parquetReadObjects({ file, rowEnd: PREVIEW_ROWS - rows.length + deleted.size, compressors });
    rows.push(...read.filter((_, pos) => !deleted.has(pos)));
  }
  return rows.slice(0, PREVIEW_ROWS);
}

function filesAndPreview(arn, md, schema) {
  const files = h('section', { 'aria-labelledby': 'h-files', id: 'data-files' }, h('h2', { id: 'h-files' }, 'Current data files'),
    h('p', { class: 'muted', role: 'status' }, 'Reading the manifests…'));
  const preview = h('section', { 'aria-labelledby': 'h-preview', id: 'preview' }, h('h2', { id: 'h-preview' }, `Preview (first ${PREVIEW_ROWS} rows)`),
    h('p', { class: 'muted', role: 'status' }, 'Waiting for the data files…'));
  const done = (async () => {
    let live;
    try {
      live = await liveFiles(arn, md);
      const total = live.data.reduce((a, f) => a + Number(f.record_count), 0);
      files.dataset.count = String(live.data.length);
      files.replaceChildren(...[files.firstChild,
        h('p', {}, `${live.data.length} data file${live.data.length === 1 ? '' : 's'}, ${fmtInt(total)} records, ${fmtBytes(live.data.reduce((a, f) => a + Number(f.file_size_in_bytes), 0))}` +
          (live.vectors.size ? `; ${[...live.vectors.values()].flat().length} deletion vector(s)` : '') +
          (live.deletes.length ? `; ${live.deletes.length} delete file(s)` : '') + '.'),
        live.data.length ? table(['Path', 'Format', 'Records', 'Size', 'Partition', ...(live.vectors.size ? ['Deletion vector'] : [])],
          live.data.map((f) => [h('code', {}, f.file_path), f.file_format, fmtInt(f.record_count), fmtBytes(f.file_size_in_bytes), cell(f.partition),
            ...(live.vectors.size ? [vectorCell(live.vectors.get(f.file_path))] : [])]),
          { nums: [2, 3], attrs: { 'aria-label': 'Data files', id: 'data-files-table' } }) : null,
        live.deletes.length ? h('details', {}, h('summary', {}, 'Delete files'), table(['Path', 'Content', 'Records'],
          live.deletes.map((f) => [h('code', {}, f.file_path), Number(f.content) === 1 ? 'position deletes' : 'equality deletes', fmtInt(f.record_count)]))) : null].filter(Boolean));
    } catch (e) {
      files.replaceChildren(files.firstChild, errorBox(e));
      preview.replaceChildren(preview.firstChild, h('p', { class: 'muted' }, 'No preview without the data files.'));
      return;
    }
    try {
      const rows = await previewRows(arn, live.data, live.vectors);
      const cols = schema.fields.map((f) => f.name);
      for (const r of rows) for (const k of Object.keys(r)) if (!cols.includes(k)) cols.push(k);
      preview.dataset.rows = String(rows.length);
      preview.replaceChildren(...[preview.firstChild,
        live.vectors.size ? h('p', { class: 'muted', id: 'preview-vectors' }, 'Deletion vectors are applied to this preview.') : null,
        live.deletes.length ? h('p', { class: 'muted' }, 'Position and equality delete files are not applied to this preview.') : null,
        rows.length ? h('div', { class: 'preview' }, table(cols, rows.map((r) => cols.map((c) => cell(r[c]))), { attrs: { 'aria-label': 'Preview rows', id: 'preview-rows' } }))
          : h('p', { class: 'muted' }, 'The table has no rows.')].filter(Boolean));
    } catch (e) {
      preview.replaceChildren(preview.firstChild, errorBox(e));
    }
  })();
  return { files, preview, done };
}

// ---- maintenance ----

/** The maintenance table: each type's configuration and last job, with a Run now button unless
 * the table is a replica (no job runs on a replica: the maintenance route refuses one). */
function maintenanceTable(t, onRun) {
  const rows = Object.entries(t.maintenance).map(([type, m]) => {
    const run = t.replicaOf ? null : h('button', { type: 'button', class: 'primary', 'data-type': type, 'aria-label': `Run ${type} now`,
      onclick: () => onRun(type, run) }, 'Run now');
    const listed = Object.entries(m.settings).map(([k, v]) => `${k} ${v}`).join(', ') || 'none set';
    const settings = m.configuredOn === 'tableBucket'
      ? withDefault(`${listed}, on the table bucket`, m.isDefault) : listed;
    const last = m.lastRun ? h('div', { class: 'muted' }, `${fmtTime(Date.parse(m.lastRun.at))}${m.lastRun.failureMessage ? `: ${m.lastRun.failureMessage}` : ''}`) : null;
    const cells = [h('code', {}, type), m.status, settings, h('span', {}, h('span', { class: 'pill', dataset: { jobStatus: m.jobStatus } }, m.jobStatus), last)];
    return run ? [...cells, run] : cells;
  });
  const headers = ['Type', 'Status', 'Settings', 'Last job'];
  return table(t.replicaOf ? headers : [...headers, ''], rows, { attrs: { id: 'maintenance', 'aria-label': 'Maintenance' } });
}

// AWS: replicas are read-only and "maintained automatically by the S3 Tables service"; every
// snapshot of the source, compacted ones included, is replicated in order
// (https://docs.aws.amazon.com/AmazonS3/latest/userguide/s3-tables-replication-how-replication-works.html).
const REPLICA_MAINTENANCE = 'This table is a read-only replica: no maintenance job runs on it, and none can be started here. ' +
  'Compaction and snapshot expiration run on its source table and reach this replica as the commits they make; ' +
  'the files those commits drop are removed from the replica\'s warehouse as they are replicated. ' +
  'The configuration below is what GetTableMaintenanceConfiguration reports for the replica.';

/** Maintenance, with Run now: POST /_floe/maintenance/run, its answer (or error) shown below, and
 * the table's job statuses read again after a run. */
function maintenanceSection(t) {
  const out = h('div', { role: 'status', 'aria-live': 'polite', id: 'maintenance-answer' });
  let current;
  const onRun = async (type, button) => {
    button.disabled = true;
    out.replaceChildren(h('p', { class: 'muted' }, `Running ${type}…`));
    try {
      const answer = await runMaintenance(t.table.arn, type);
      out.replaceChildren(h('p', { class: 'ok' }, `${type}: the server answered`), jsonView(answer, 'maintenance answer'));
      const fresh = await get('table', { arn: t.table.arn });
      const next = maintenanceTable(fresh, onRun);
      current.replaceWith(next);
      current = next;
    } catch (e) {
      out.replaceChildren(h('p', { class: 'error', role: 'alert' }, `${type} failed: ${e.message}`));
    } finally {
      button.disabled = false;
    }
  };
  current = maintenanceTable(t, onRun);
  return h('section', { 'aria-labelledby': 'h-maint' }, h('h2', { id: 'h-maint' }, 'Maintenance'),
    t.replicaOf ? h('p', { class: 'muted', id: 'replica-maintenance' }, REPLICA_MAINTENANCE) : null, current, out);
}

/** Where a replica's source stands: replicating here (and how), deleted, stopped, or out of sight. */
function replicaSource(t) {
  const r = t.replicaOf;
  const intro = h('p', { id: 'replica-of' }, 'This table is a read-only replica of ', sourceLink(t), '. S3 Tables replication commits every change of the source here, in the order the source made them; clients cannot commit to it.');
  if (r.source === 'hidden')
    return [intro, h('p', { class: 'muted', id: 'replica-source-status' }, `The source is in account ${scopeAccount(r.sourceTableArn)}, which these credentials may not look at: its replication status is shown to that account.`)];
  if (r.source === 'deleted')
    return [intro, h('p', { class: 'muted', id: 'replica-source-status' }, 'The source table no longer exists: the replica keeps the last state it received.')];
  return [intro, facts([
    ['Source table', `${r.sourceNamespace}.${r.sourceName}`],
    ['Replication status', h('span', { class: 'pill', id: 'replica-status', dataset: { replicationStatus: r.replicationStatus } }, r.replicationStatus)],
    ['Source replicates here', r.isReplicating ? 'yes' : 'no: the source\'s configuration no longer names this table bucket; the replica keeps the last state it received'],
    ['Last replicated', r.lastReplicatedAt ? fmtTime(Date.parse(r.lastReplicatedAt)) : 'not yet'],
    ['Source metadata replicated', r.lastReplicatedMetadataLocation ? h('code', {}, r.lastReplicatedMetadataLocation) : null],
    ['Failure', r.failureMessage ? h('span', { class: 'error' }, r.failureMessage) : null],
  ].filter(([, v]) => v !== null))];
}

const scopeAccount = (arn) => /^arn:aws:s3tables:[^:]+:(\d{12}):/.exec(arn)?.[1] ?? '?';

/** The source table's ARN, linked to its page when the request may look at it. */
function sourceLink(t) {
  const r = t.replicaOf;
  const code = h('code', {}, r.sourceTableArn);
  return r.source === 'present' ? h('a', { href: `#/table?${q({ arn: r.sourceTableArn })}`, id: 'replica-source-link' }, code) : code;
}

function replicationStatusSection(t) {
  return h('section', { 'aria-labelledby': 'h-repl' }, h('h2', { id: 'h-repl' }, 'Replication status'),
    t.replicaOf ? replicaSource(t) : null,
    t.replicationStatus.length
      ? table(['Destination table bucket', 'Status', 'Replica', 'Last replicated'], t.replicationStatus.map((d) =>
        [h('code', {}, d.destinationTableBucketArn), h('span', { class: 'pill' }, d.replicationStatus),
          d.destinationTableArn ? h('code', {}, d.destinationTableArn) : '–',
          d.lastReplicatedAt ? fmtTime(Date.parse(d.lastReplicatedAt)) : (d.failureMessage ?? '–')]),
      { attrs: { id: 'replication-status', 'aria-label': 'Replication status per destination' } })
      : h('p', { class: 'muted', id: 'replication-status' }, t.replicaOf
        ? 'The replica replicates nowhere itself (neither it nor its bucket has a replication configuration).'
        : 'The table does not replicate (neither it nor its bucket has a replication configuration).'));
}

// ---- the page ----

export async function renderTable(main, { arn }, { selectScope, setCrumbs, scopeOfArn }) {
  const t = await get('table', { arn });
  selectScope(scopeOfArn(arn));
  setCrumbs(h('a', { href: '#/' }, 'Table buckets'), h('a', { href: `#/bucket?${q({ arn: t.bucket.arn })}` }, t.bucket.name), t.table.namespace, t.table.name);
  const md = t.metadata;
  const schema = md ? currentSchema(md) : { fields: [] };
  const head = [
    h('h1', {}, `${t.table.namespace}.${t.table.name}`),
    facts([['ARN', h('code', {}, t.table.arn)], ...(t.replicaOf ? [['Replica of', sourceLink(t)]] : []), ['Format', t.table.format], ['Metadata location', t.table.metadataLocation ? h('code', { id: 'metadata-location' }, t.table.metadataLocation) : null],
      ['Version token', h('code', { id: 'version-token' }, t.table.versionToken)], ['Warehouse', h('code', {}, t.table.warehouseLocation)],
      ['Format version', md ? h('span', { id: 'format-version' }, String(md['format-version'])) : null],
      ...(md?.['next-row-id'] !== undefined ? [['Next row id', h('span', { id: 'next-row-id' }, String(md['next-row-id']))]] : []),
      ['Table UUID', md ? h('code', {}, md['table-uuid']) : null],
      ['Created', `${fmtTime(Date.parse(t.table.createdAt))} by ${t.table.createdBy}`],
      ['Modified', `${fmtTime(Date.parse(t.table.modifiedAt))}${t.table.modifiedBy ? ` by ${t.table.modifiedBy}` : ''}`]]),
  ];
  if (!md) {
    main.replaceChildren(...head, h('p', { class: 'muted' }, t.metadataError), maintenanceSection(t), replicationStatusSection(t), ...ownedSection(t),
      await enginesSection(t));
    return;
  }
  const { files, preview, done } = filesAndPreview(t.table.arn, md, schema);
  main.replaceChildren(...head,
    h('section', { 'aria-labelledby': 'h-schema' }, h('h2', { id: 'h-schema' }, `Schema ${schema['schema-id'] ?? ''}`),
      table(['Id', 'Name', 'Type', 'Required'], schemaRows(schema.fields), { attrs: { id: 'schema', 'aria-label': 'Schema fields' } })),
    specSection(md, schema),
    await snapshotSection(md, t.computedSummaries),
    files, preview,
    maintenanceSection(t),
    replicationStatusSection(t),
    ...ownedSection(t),
    await enginesSection(t),
    h('h2', {}, 'metadata.json'),
    h('details', {}, h('summary', {}, 'The current metadata file (64-bit ids shown as strings)'), jsonView(md, 'metadata.json')));
  await done;
}

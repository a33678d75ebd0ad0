// What a table bucket and a table both own, as the bucket page and the table page show it:
// encryption, storage class, replication (on the bucket page with each destination's status over
// the bucket's tables; the table page has its own status section), policies (a table's page shows
// its bucket's too) with whom each statement names, and tags.
// Encryption and storage class are what the API answers, marked when they are AWS's default.
import { facts, fmtTime, h, jsonView, table } from './dom.js';

/** A value the API reports, with "(default)" when it is the one AWS gives a resource that set none. */
export function withDefault(text, isDefault) {
  return isDefault ? h('span', {}, text, ' ', h('span', { class: 'muted default' }, '(default)')) : text;
}

const plural = (n, what) => `${n} ${what}${n === 1 ? '' : 's'}`;

/** A bucket's destinations with their status over its tables (each table's is on its own page). */
function bucketDestinations(o) {
  const statusOf = new Map(o.replicationStatus.map((s) => [s.destinationTableBucketArn, s]));
  return table(['Rule', 'Destination table bucket', 'Status', 'Tables', 'Last replicated'], o.replication.destinations.map((d) => {
    const s = statusOf.get(d.destinationTableBucketArn);
    const counts = `${s.tables.completed} completed, ${s.tables.pending} pending, ${s.tables.failed} failed`;
    return [String(d.rule), h('code', {}, d.destinationTableBucketArn),
      h('span', { class: 'pill', dataset: { replicationStatus: s.replicationStatus } }, s.replicationStatus === 'none' ? 'no tables' : s.replicationStatus),
      h('span', {}, counts, s.failureMessage ? h('div', { class: 'error' }, `${s.failedTable}: ${s.failureMessage}`) : null),
      s.lastReplicatedAt ? fmtTime(Date.parse(s.lastReplicatedAt)) : '–'];
  }), { attrs: { 'aria-label': 'Replication destinations and their status', id: 'replication' } });
}

const list = (v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** Whom a statement's Principal (or NotPrincipal) names, as text. */
function principals(st) {
  const p = st.Principal ?? st.NotPrincipal;
  const names = p === '*' ? ['everyone (*)'] : Object.entries(p ?? {}).flatMap(([kind, v]) =>
    list(v).map((name) => (name === '*' ? 'everyone (*)' : kind === 'AWS' ? name : `${kind}: ${name}`)));
  return (st.NotPrincipal ? 'everyone but ' : '') + names.join(', ');
}

/** One row per statement of each policy: where it is, its Sid, effect, whom it names, what it allows or denies. */
function grantRows(label, text) {
  let doc;
  try { doc = JSON.parse(text); } catch { return []; }
  return list(doc.Statement).map((st, i) => [label, st.Sid ?? `Statement[${i}]`, st.Effect, principals(st),
    (st.NotAction ? 'all but ' : '') + list(st.Action ?? st.NotAction).join(', '),
    st.Condition ? Object.entries(st.Condition).flatMap(([op, keys]) =>
      Object.entries(keys).map(([k, v]) => `${op} ${k} ${list(v).join(' | ')}`)).join('; ') : '–']);
}

/** Whom the policies grant or deny, statement by statement (the bucket's apply to its tables too). */
function grantsSection(o) {
  const rows = [...(o.policy ? grantRows(o.bucketPolicy === undefined ? 'table bucket' : 'table', o.policy) : []),
    ...(o.bucketPolicy ? grantRows('table bucket', o.bucketPolicy) : [])];
  return rows.length ? [h('h3', {}, 'Who the policies grant'),
    table(['Policy', 'Statement', 'Effect', 'Principals', 'Actions', 'Conditions'], rows,
      { attrs: { 'aria-label': 'Policy grants', id: 'grants' } })] : [];
}

/** The sections; `isBucket` for the bucket page's answer (destinations with their status). */
export function ownedSection(o, { isBucket = false } = {}) {
  const enc = o.encryption, sc = o.storageClass;
  return [
    h('h2', {}, 'Configuration'),
    facts([
      ['Encryption', withDefault(`${enc.sseAlgorithm}${enc.kmsKeyArn ? ` (${enc.kmsKeyArn})` : ''}`, enc.isDefault)],
      ['Storage class', withDefault(sc.storageClass, sc.isDefault)],
    ]),
    h('h3', {}, 'Replication'),
    o.replication
      ? h('div', {}, facts([['Role', o.replication.role], ['Version token', h('code', {}, o.replication.versionToken)]]),
        isBucket ? bucketDestinations(o) : table(['Rule', 'Destination table bucket'], o.replication.destinations.map((d) =>
          [String(d.rule), h('code', {}, d.destinationTableBucketArn)]),
        { attrs: { 'aria-label': 'Replication destinations', id: 'replication' } }))
      : h('p', { class: 'muted' }, 'No replication configuration.'),
    h('h3', {}, 'Resource policy'),
    o.policy ? jsonView(o.policy, 'resource policy') : h('p', { class: 'muted' }, 'No resource policy.'),
    ...('bucketPolicy' in o ? [h('h3', {}, 'Table bucket policy'),
      o.bucketPolicy ? jsonView(o.bucketPolicy, 'table bucket policy') : h('p', { class: 'muted' }, 'No table bucket policy.')] : []),
    ...grantsSection(o),
    h('h3', {}, 'Tags'),
    Object.keys(o.tags).length
      ? table(['Key', 'Value'], Object.entries(o.tags), { attrs: { 'aria-label': 'Tags', id: 'tags' } })
      : h('p', { class: 'muted' }, 'No tags.'),
  ];
}

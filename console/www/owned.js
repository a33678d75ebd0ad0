// What a table bucket and a table both own, as the bucket page and the table page show it:
// encryption, storage class, replication (on the bucket page with each destination's status over
// the bucket's tables; the table page has its own status section), policy and tags.
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
    h('h3', {}, 'Tags'),
    Object.keys(o.tags).length
      ? table(['Key', 'Value'], Object.entries(o.tags), { attrs: { 'aria-label': 'Tags', id: 'tags' } })
      : h('p', { class: 'muted' }, 'No tags.'),
  ];
}

// What a table bucket and a table both own, as the bucket page and the table page show it:
// encryption, storage class, replication with each destination's status, policy and tags.
// Encryption and storage class are what the API answers, marked when they are AWS's default.
import { facts, h, jsonView, table } from './dom.js';

/** A value the API reports, with "(default)" when it is the one AWS gives a resource that set none. */
export function withDefault(text, isDefault) {
  return isDefault ? h('span', {}, text, ' ', h('span', { class: 'muted default' }, '(default)')) : text;
}

export function ownedSection(o) {
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
        table(['Rule', 'Destination table bucket'], o.replication.destinations.map((d) =>
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

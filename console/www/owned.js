// What a table bucket and a table both own, as the bucket page and the table page show it:
// encryption, storage class, replication with each destination's status, policy and tags.
import { facts, h, jsonView, table } from './dom.js';

export function ownedSection(o) {
  return [
    h('h2', {}, 'Configuration'),
    facts([
      ['Encryption', o.encryption ? `${o.encryption.sseAlgorithm}${o.encryption.kmsKeyArn ? ` (${o.encryption.kmsKeyArn})` : ''}` : null],
      ['Storage class', o.storageClass],
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

// The table page's engine snippets: the blocks docs/engines.md marks for the console
// (`<!-- snippet: NAME; console: ENGINE -->`), which the regen target copies into
// generated/console/engine-snippets.json (served as generated/engine-snippets.json), filled in for
// one table the way tests/engines/snippets.py fills them in for the tests. A newly marked block
// shows up here under its engine's heading with no change to this file.
import { copyView, errorBox, h } from './dom.js';

/**
 * `text` with the example values replaced by `values` ({arn, endpoint, hostport, region, namespace,
 * table}), in `order`. Each example value first becomes a marker, so no inserted value (a region
 * inside the ARN just put in) is replaced again; split/join, so a `$` in a value stays as written.
 */
export function fill(text, example, order, values) {
  for (const key of order) text = text.split(example[key]).join(`\0${key}\0`);
  for (const key of order) text = text.split(`\0${key}\0`).join(values[key]);
  return text;
}

/** The values of a table's snippets: this server's endpoint, and the table's bucket ARN, region, namespace and name. */
export function tableValues(t) {
  return {
    endpoint: location.origin, hostport: location.host, arn: t.bucket.arn, region: t.bucket.arn.split(':')[3],
    namespace: t.table.namespace, table: t.table.name,
  };
}

/** The section "Use this table from an engine": each engine's blocks, filled in, each with a Copy button. */
export async function enginesSection(t) {
  const section = h('section', { 'aria-labelledby': 'h-engines', id: 'engines' }, h('h2', { id: 'h-engines' }, 'Use this table from an engine'));
  let doc;
  try {
    ({ default: doc } = await import('./generated/engine-snippets.json', { with: { type: 'json' } }));
  } catch (e) {
    section.append(errorBox(e));
    return section;
  }
  const values = tableValues(t);
  section.append(h('p', { class: 'muted' }, 'The configuration of docs/engines.md, filled in for this table and this server. ' +
    'Credentials come from the usual AWS environment variables or profile (', h('code', {}, 'eval "$(floe env)"'),
  '); docs/engines.md says what else an engine needs.'));
  const engines = [...new Set(doc.snippets.map((s) => s.engine))];
  for (const engine of engines) {
    const id = `engine-${engine.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
    section.append(h('h3', { id }, engine),
      ...doc.snippets.filter((s) => s.engine === engine).map((s) =>
        copyView(fill(s.text, doc.example, doc.replaceOrder, values), `${engine} snippet ${s.name}`,
          { dataset: { snippet: s.name, language: s.language } })));
  }
  return section;
}

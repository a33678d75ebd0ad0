// The console's shell: the hash router (#/, #/bucket?arn=, #/table?arn=, #/search?q=, #/stacks,
// #/stack?id=, #/query, #/query?id=), the account and region picker, the search box and the
// credentials dialog. Each view renders into <main>; the table page is table.js, the query page
// query.js.
import { ApiError, get, keys, serverMode, setKeys, setSigningRegion } from './api.js';
import { errorBox, facts, fmtTime, h, jsonView, table } from './dom.js';
import { ownedSection, withDefault } from './owned.js';
import { renderQuery } from './query.js';
import { renderTable } from './table.js';

const main = document.getElementById('main');
const crumbs = document.getElementById('crumbs');
const picker = document.getElementById('scope');
const SCOPE = 'floe-console-scope';
let mode = null; // {strictSignatures}, from server.json
let session = null;
let scope = null; // {account, region}

function route() {
  const hash = location.hash.replace(/^#/, '') || '/';
  const [path, query = ''] = hash.split('?');
  return { path, params: Object.fromEntries(new URLSearchParams(query)) };
}
const q = (params) => new URLSearchParams(Object.entries(params).filter(([, v]) => v)).toString();
const scopeParams = () => ({ account: scope?.account, region: scope?.region });

function setCrumbs(...items) {
  crumbs.replaceChildren(...items.flatMap((it, i) => [i ? ' / ' : '', typeof it === 'string' ? it : it]));
}

/** The scope an ARN names ("arn:aws:s3tables:<region>:<account>:..."). */
export function scopeOfArn(arn) {
  const m = /^arn:aws:s3tables:([^:]+):(\d{12}):/.exec(arn ?? '');
  return m ? { region: m[1], account: m[2] } : null;
}

function selectScope(s, { persist = true } = {}) {
  if (!s) return;
  scope = s;
  setSigningRegion(s.region);
  if (persist) sessionStorage.setItem(SCOPE, JSON.stringify(s));
  const value = `${s.account}/${s.region}`;
  if (![...picker.options].some((o) => o.value === value))
    picker.append(h('option', { value }, `${s.account} · ${s.region}`));
  picker.value = value;
}

async function loadScopes() {
  const { scopes } = await get('scopes');
  const fallback = { account: session.account ?? session.defaultAccount, region: session.defaultRegion };
  const list = scopes.length ? scopes : [{ ...fallback, hasTableBuckets: false, hasStacks: false }];
  picker.closest('label').hidden = false;
  picker.replaceChildren(...list.map((s) => h('option', { value: `${s.account}/${s.region}` },
    `${s.account} · ${s.region}${s.hasTableBuckets ? '' : ' (stacks only)'}`)));
  let saved = null;
  try { saved = JSON.parse(sessionStorage.getItem(SCOPE)); } catch { /* none */ }
  const pick = list.find((s) => saved && s.account === saved.account && s.region === saved.region) ??
    list.find((s) => s.account === fallback.account && s.region === fallback.region) ?? list[0];
  selectScope({ account: pick.account, region: pick.region });
}

// ---- views ----

async function pagedList(room, params, columns, rowOf, { emptyText, label }) {
  const body = h('tbody');
  const more = h('button', { type: 'button', hidden: true }, 'Load more');
  const count = h('span', { class: 'muted', role: 'status' });
  let token = null, n = 0;
  const tableEl = h('table', { 'aria-label': label },
    h('thead', {}, h('tr', {}, columns.map((c) => h('th', { scope: 'col' }, c)))), body);
  async function page() {
    more.disabled = true;
    const res = await get(room, { ...params, token });
    for (const item of res.items) body.append(h('tr', {}, rowOf(item).map((c) => h('td', {}, c))));
    n += res.items.length;
    token = res.nextToken;
    more.hidden = !token;
    more.disabled = false;
    count.textContent = n === 0 ? emptyText : `${n} shown${token ? ', more on the server' : ''}`;
  }
  more.addEventListener('click', () => page().catch((e) => more.after(errorBox(e))));
  await page();
  return h('div', {}, tableEl, h('div', { class: 'toolbar' }, more, count));
}

async function viewBuckets() {
  setCrumbs('Table buckets');
  const filter = h('input', { type: 'search', id: 'bucket-filter', placeholder: 'Filter by name prefix' });
  const holder = h('div');
  const render = async () => {
    holder.replaceChildren(await pagedList('buckets', { ...scopeParams(), prefix: filter.value, limit: 100 },
      ['Name', 'Type', 'Created', 'ARN'],
      (b) => [h('a', { href: `#/bucket?${q({ arn: b.arn })}`, class: 'bucket-link' }, b.name), b.type, fmtTime(Date.parse(b.createdAt)), h('code', {}, b.arn)],
      { emptyText: 'No table buckets in this account and region.', label: 'Table buckets' }));
  };
  filter.addEventListener('input', () => render().catch((e) => holder.replaceChildren(errorBox(e))));
  main.replaceChildren(h('h1', {}, 'Table buckets'),
    h('p', { class: 'muted' }, `Account ${scope.account}, region ${scope.region}`),
    h('label', { class: 'toolbar' }, 'Filter ', filter), holder);
  await render();
}

async function viewBucket({ arn }) {
  const b = await get('bucket', { arn });
  selectScope({ account: b.account, region: b.region });
  setCrumbs(h('a', { href: '#/' }, 'Table buckets'), b.bucket.name);
  const filter = h('input', { type: 'search', id: 'table-filter', placeholder: 'Table name prefix' });
  const tables = h('div');
  // With the Glue integration each table also has a Glue name: <account>:s3tablescatalog/<bucket>/<namespace>/<table>.
  const glueName = (t) => h('code', { class: 'glue-name' }, `${b.glue.catalogId}/${t.namespace}/${t.name}`);
  const render = async () => {
    tables.replaceChildren(await pagedList('tables', { arn, prefix: filter.value, limit: 100 },
      ['Namespace', 'Table', 'Format', 'Modified', ...(b.glue.integrated ? ['Glue name'] : [])],
      (t) => [t.namespace, h('a', { href: `#/table?${q({ arn: t.arn })}`, class: 'table-link' }, t.name), t.format, fmtTime(Date.parse(t.modifiedAt)),
        ...(b.glue.integrated ? [glueName(t)] : [])],
      { emptyText: 'No tables.', label: 'Tables' }));
  };
  filter.addEventListener('input', () => render().catch((e) => tables.replaceChildren(errorBox(e))));
  const maint = Object.entries(b.maintenance).map(([type, m]) =>
    [type, withDefault(m.status, m.isDefault), withDefault(String(m.settings.unreferencedDays), m.isDefault),
      withDefault(String(m.settings.nonCurrentDays), m.isDefault)]);
  main.replaceChildren(
    h('h1', {}, b.bucket.name),
    facts([['ARN', h('code', {}, b.bucket.arn)], ['Table bucket id', h('code', {}, b.bucket.tableBucketId)],
      ['Type', b.bucket.type], ['Created', fmtTime(Date.parse(b.bucket.createdAt))],
      ['Account · region', `${b.account} · ${b.region}`], ['Metrics configuration', b.metricsConfigurationId],
      ['AWS Glue', b.glue.integrated ? h('span', {}, 'integrated: catalog ', h('code', {}, b.glue.catalogId))
        : 'not integrated (this account and region has no s3tablescatalog)']]),
    h('h2', {}, 'Namespaces'),
    await pagedList('namespaces', { arn, limit: 100 }, ['Namespace', 'Created', 'Created by'],
      (n) => [n.name, fmtTime(Date.parse(n.createdAt)), n.createdBy], { emptyText: 'No namespaces.', label: 'Namespaces' }),
    h('h2', {}, 'Tables'),
    h('label', { class: 'toolbar' }, 'Search ', filter), tables,
    h('h2', {}, 'Maintenance'),
    table(['Type', 'Status', 'Unreferenced days', 'Non-current days'], maint, { attrs: { 'aria-label': 'Bucket maintenance' } }),
    ...ownedSection(b, { isBucket: true }));
  await render();
}

async function viewSearch({ q: text = '' }) {
  setCrumbs(h('a', { href: '#/' }, 'Table buckets'), `Search “${text}”`);
  document.getElementById('search-box').value = text;
  const results = h('tbody');
  const status = h('p', { class: 'muted', role: 'status' }, 'Searching…');
  main.replaceChildren(h('h1', {}, `Tables named ${text}…`),
    h('p', { class: 'muted' }, `Table names that start with “${text}”, in every table bucket of ${scope.account} · ${scope.region}.`),
    status, h('table', { 'aria-label': 'Search results', id: 'search-results' },
      h('thead', {}, h('tr', {}, ['Bucket', 'Namespace', 'Table'].map((c) => h('th', { scope: 'col' }, c)))), results));
  let n = 0, token = null;
  do {
    const page = await get('buckets', { ...scopeParams(), token, limit: 1000 });
    for (const b of page.items) {
      const found = await get('tables', { arn: b.arn, prefix: text, limit: 100 });
      for (const t of found.items) {
        results.append(h('tr', {}, h('td', {}, b.name), h('td', {}, t.namespace),
          h('td', {}, h('a', { href: `#/table?${q({ arn: t.arn })}`, class: 'table-link' }, t.name))));
        n++;
      }
    }
    token = page.nextToken;
  } while (token);
  status.textContent = n ? `${n} table${n === 1 ? '' : 's'} found.` : 'No table has a name that starts with that.';
}

async function viewStacks() {
  setCrumbs('CloudFormation');
  const { items } = await get('stacks', scopeParams());
  main.replaceChildren(h('h1', {}, 'CloudFormation stacks'),
    h('p', { class: 'muted' }, `Account ${scope.account}, region ${scope.region}`),
    items.length
      ? table(['Stack', 'Status', 'Created', 'Updated', 'Description'], items.map((s) =>
        [h('a', { href: `#/stack?${q({ id: s.stackId })}`, class: 'stack-link' }, s.stackName),
          h('span', { class: 'pill' }, s.status), fmtTime(Date.parse(s.createdAt)), s.updatedAt ? fmtTime(Date.parse(s.updatedAt)) : '–',
          s.description ?? '']), { attrs: { 'aria-label': 'Stacks', id: 'stacks' } })
      : h('p', { class: 'muted' }, 'No stacks in this account and region.'));
}

async function viewStack({ id }) {
  const m = /^arn:aws:cloudformation:([^:]+):(\d{12}):/.exec(id ?? '');
  if (m) selectScope({ region: m[1], account: m[2] });
  const s = await get('stack', { ...scopeParams(), id });
  setCrumbs(h('a', { href: '#/stacks' }, 'CloudFormation'), s.stackName);
  main.replaceChildren(h('h1', {}, s.stackName),
    facts([['Stack id', h('code', {}, s.stackId)], ['Status', h('span', { class: 'pill' }, s.status)],
      ['Status reason', s.statusReason], ['Description', s.description], ['Created', fmtTime(Date.parse(s.createdAt))],
      ['Updated', s.updatedAt ? fmtTime(Date.parse(s.updatedAt)) : null], ['Deleted', s.deletedAt ? fmtTime(Date.parse(s.deletedAt)) : null]]),
    h('h2', {}, 'Resources'),
    table(['Logical id', 'Type', 'Physical id', 'Status', 'Reason'], s.resources.map((r) =>
      [r.logicalId, r.type, h('code', {}, r.physicalId ?? '–'), h('span', { class: 'pill' }, r.status), r.statusReason ?? '']),
    { attrs: { 'aria-label': 'Resources', id: 'stack-resources' } }),
    h('h2', {}, 'Outputs'), s.outputs.length ? jsonView(s.outputs, 'outputs') : h('p', { class: 'muted' }, 'No outputs.'),
    h('h2', {}, 'Events'),
    table(['Time', 'Logical id', 'Type', 'Status', 'Reason'], s.events.map((e) =>
      [fmtTime(Date.parse(e.at)), e.logicalId, e.resourceType, e.status, e.statusReason ?? '']),
    { attrs: { 'aria-label': 'Events', id: 'stack-events' } }),
    h('details', {}, h('summary', {}, 'Template'), jsonView(s.templateBody, 'template')),
    h('details', {}, h('summary', {}, 'Tags'), jsonView(s.tags, 'tags')));
}

// ---- the shell ----

async function render() {
  const { path, params } = route();
  document.getElementById('nav-stacks').toggleAttribute('aria-current', path.startsWith('/stack'));
  document.getElementById('nav-query').toggleAttribute('aria-current', path === '/query');
  try {
    if (!mode) {
      mode = await serverMode();
      document.getElementById('credentials-button').hidden = !mode.strictSignatures;
    }
    if (mode.strictSignatures && !keys()) {
      askFirst();
      return;
    }
    if (!session) {
      session = await get('session');
      await loadScopes();
    }
    if (path === '/bucket') await viewBucket(params);
    else if (path === '/table') await renderTable(main, params, { selectScope, setCrumbs, scopeOfArn });
    else if (path === '/search') await viewSearch(params);
    else if (path === '/stacks') await viewStacks();
    else if (path === '/stack') await viewStack(params);
    else if (path === '/query') await renderQuery(main, params, { scope, setCrumbs });
    else await viewBuckets();
    document.title = `${main.querySelector('h1')?.textContent ?? 'Floe'} · Floe console`;
  } catch (e) {
    if (e instanceof ApiError && e.status === 403 && mode?.strictSignatures) askForKeys();
    main.replaceChildren(h('h1', {}, 'Something went wrong'), errorBox(e));
  }
  main.dataset.ready = 'true';
  document.body.dataset.view = path;
}

/** Strict signatures and no keys yet: ask for them before sending any request the server would refuse. */
function askFirst() {
  main.replaceChildren(h('h1', {}, 'Keys needed'),
    h('p', {}, 'This server verifies signatures (--strict-signatures). Enter one of its access keys to see its ' +
      'table buckets, tables and stacks: the console signs each request with it in this browser.'),
    h('button', { type: 'button', class: 'primary', id: 'enter-keys', onclick: askForKeys }, 'Enter keys'));
  document.title = 'Keys needed · Floe console';
  picker.closest('label').hidden = true; // nothing to pick before the server can be read
  main.dataset.ready = 'true';
  askForKeys();
}

function askForKeys() {
  const dialog = document.getElementById('credentials');
  const k = keys();
  document.getElementById('access-key').value = k?.accessKeyId ?? '';
  if (!dialog.open) dialog.showModal();
}

document.getElementById('credentials-form').addEventListener('submit', (ev) => {
  if (ev.submitter?.value !== 'save') return;
  setKeys(document.getElementById('access-key').value.trim(), document.getElementById('secret-key').value);
  session = null;
  main.dataset.ready = 'false'; // the view is read again with the new keys
  render();
});
document.getElementById('credentials-button').addEventListener('click', askForKeys);
picker.addEventListener('change', () => {
  const [account, region] = picker.value.split('/');
  selectScope({ account, region });
  const { path } = route();
  const next = path.startsWith('/stack') ? '#/stacks' : path === '/query' ? '#/query' : '#/';
  if (location.hash === next) render(); else location.hash = next;
});
document.getElementById('search').addEventListener('submit', (ev) => {
  ev.preventDefault();
  location.hash = `#/search?${q({ q: document.getElementById('search-box').value.trim() })}`;
});
window.addEventListener('hashchange', () => { main.dataset.ready = 'false'; render().then(() => main.focus({ preventScroll: true })); });
render();

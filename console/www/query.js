// The query page (#/query, and #/query?id=<QueryExecutionId> for one query): Athena's query editor
// over this server's table buckets. It calls Athena's own API (api.js `athena`, as the aws CLI
// does), so a query runs, is authorized and is recorded exactly as any client's: StartQueryExecution
// with the catalog `s3tablescatalog/<bucket>` and a namespace as its database, GetQueryExecution
// until the query ends (QUEUED with its reason while Trino starts, RUNNING, then SUCCEEDED, FAILED
// or CANCELLED with the reason), GetQueryResults for its rows, and the account's history from
// ListWorkGroups, ListQueryExecutions and BatchGetQueryExecution. The catalog and namespace pickers
// read the console's own routes (buckets, namespaces). What the user typed is kept in this tab's
// sessionStorage per account and region, so following a query's link keeps the editor as it was.
import { athena, get } from './api.js';
import { errorBox, facts, fmtBytes, fmtInt, fmtTime, h } from './dom.js';

const CATALOG_PREFIX = 's3tablescatalog/';
const FINAL = new Set(['SUCCEEDED', 'FAILED', 'CANCELLED']);
const POLL_MS = 500;
const HISTORY_PER_WORKGROUP = 50; // ListQueryExecutions' and BatchGetQueryExecution's most
const NUMERIC = /^(tinyint|smallint|integer|int|bigint|float|real|double|decimal)/;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const draftKey = (scope) => `floe-console-query:${scope.account}/${scope.region}`;
function loadDraft(scope) {
  try { return JSON.parse(sessionStorage.getItem(draftKey(scope))) ?? {}; } catch { return {}; }
}
const fmtMs = (ms) => (ms === undefined || ms === null ? '–' : `${fmtInt(ms)} ms`);
/** Athena's timestamps are epoch seconds (awsJson1_1). */
const fmtEpoch = (s) => (s ? fmtTime(Math.round(Number(s) * 1000)) : '–');
const statePill = (state) => h('span', { class: `pill state-${(state ?? '').toLowerCase()}` }, state ?? '–');

/** Every page of a console list route. */
async function allItems(room, params) {
  const items = [];
  let token = null;
  do {
    const page = await get(room, { ...params, token, limit: 1000 });
    items.push(...page.items);
    token = page.nextToken;
  } while (token);
  return items;
}

/** A column's type as Athena names it, with decimal's precision and scale. */
function typeOf(c) {
  return c.Type === 'decimal' ? `decimal(${c.Precision},${c.Scale})` : c.Type;
}

/** The editor: workgroup, catalog, database, result location, SQL and Run. */
async function editor(scope, draft, save) {
  const [buckets, { WorkGroups: workgroups = [] }] = await Promise.all([
    allItems('buckets', { account: scope.account, region: scope.region }),
    athena('ListWorkGroups', {}, scope.account)]);
  const workgroup = h('select', { id: 'query-workgroup' },
    workgroups.map((w) => h('option', { value: w.Name }, w.Name)));
  workgroup.value = workgroups.some((w) => w.Name === draft.workgroup) ? draft.workgroup : 'primary';
  const catalog = h('select', { id: 'query-catalog' },
    buckets.length ? buckets.map((b) => h('option', { value: b.name }, CATALOG_PREFIX + b.name))
      : h('option', { value: '' }, 'no table buckets'));
  if (buckets.some((b) => b.name === draft.bucket)) catalog.value = draft.bucket;
  const database = h('select', { id: 'query-database' });
  const output = h('input', { id: 'query-output', size: 40, placeholder: 's3://bucket/prefix/', value: draft.output ?? '' });
  const sql = h('textarea', { id: 'query-sql', rows: 8, spellcheck: 'false', 'aria-label': 'SQL' }, draft.sql ?? '');
  const run = h('button', { type: 'submit', class: 'primary', id: 'query-run' }, 'Run');
  const status = h('div', { id: 'query-run-status', role: 'status' });

  const fillDatabases = async () => {
    const bucket = buckets.find((b) => b.name === catalog.value);
    const namespaces = bucket ? await allItems('namespaces', { arn: bucket.arn }) : [];
    database.replaceChildren(...namespaces.map((n) => h('option', { value: n.name }, n.name)));
    if (!namespaces.length) database.append(h('option', { value: '' }, 'no namespaces'));
    if (namespaces.some((n) => n.name === draft.database)) database.value = draft.database;
  };
  const fillOutput = async () => {
    // The workgroup's result location, where the user has not typed one (AWS's editor shows it too).
    const w = await athena('GetWorkGroup', { WorkGroup: workgroup.value }, scope.account);
    output.placeholder = w.WorkGroup?.Configuration?.ResultConfiguration?.OutputLocation ?? 's3://bucket/prefix/';
  };
  const remember = () => save({ workgroup: workgroup.value, bucket: catalog.value, database: database.value,
    output: output.value.trim(), sql: sql.value });
  catalog.addEventListener('change', () => fillDatabases().then(remember).catch((e) => status.replaceChildren(errorBox(e))));
  workgroup.addEventListener('change', () => { remember(); fillOutput().catch((e) => status.replaceChildren(errorBox(e))); });
  for (const el of [database, output, sql]) el.addEventListener('input', remember);
  database.addEventListener('change', remember);
  sql.addEventListener('keydown', (ev) => { if (ev.key === 'Enter' && (ev.ctrlKey || ev.metaKey)) form.requestSubmit(); });

  const form = h('form', { id: 'query-editor', class: 'query-editor' },
    h('div', { class: 'toolbar' },
      h('label', {}, 'Workgroup ', workgroup),
      h('label', {}, 'Catalog ', catalog),
      h('label', {}, 'Database ', database),
      h('label', {}, 'Query result location ', output)),
    sql,
    h('div', { class: 'toolbar' }, run, h('span', { class: 'muted' }, 'Ctrl+Enter runs the query too.'), status));
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    remember();
    run.disabled = true;
    status.replaceChildren(h('span', { class: 'muted' }, 'Starting…'));
    try {
      const input = { QueryString: sql.value, WorkGroup: workgroup.value,
        QueryExecutionContext: { Catalog: CATALOG_PREFIX + catalog.value, Database: database.value || undefined } };
      if (output.value.trim()) input.ResultConfiguration = { OutputLocation: output.value.trim() };
      const { QueryExecutionId: id } = await athena('StartQueryExecution', input, scope.account);
      status.replaceChildren();
      location.hash = `#/query?id=${encodeURIComponent(id)}`;
    } catch (e) {
      status.replaceChildren(errorBox(e));
    } finally {
      run.disabled = false;
    }
  });
  await Promise.all([fillDatabases(), fillOutput()]);
  return form;
}

/** A query's result as a table: its columns with their types, then its rows (NULL marked). */
async function results(scope, e) {
  const holder = h('div', { class: 'preview' });
  const count = h('span', { class: 'muted', role: 'status', id: 'query-result-count' });
  const more = h('button', { type: 'button', hidden: true }, 'Load more');
  const body = h('tbody');
  let token = null, n = 0, columns = [];
  const page = async () => {
    more.disabled = true;
    const r = await athena('GetQueryResults', { QueryExecutionId: e.QueryExecutionId, MaxResults: 1000, NextToken: token ?? undefined }, scope.account);
    let rows = r.ResultSet?.Rows ?? [];
    if (token === null) {
      columns = r.ResultSet?.ResultSetMetadata?.ColumnInfo ?? [];
      holder.replaceChildren(h('table', { id: 'query-results', 'aria-label': 'Query results' },
        h('thead', {}, h('tr', {}, columns.map((c) => h('th', { scope: 'col', class: NUMERIC.test(c.Type) ? 'num' : null },
          c.Name, h('br'), h('span', { class: 'column-type' }, typeOf(c)))))), body));
      if (e.StatementType === 'DML' && columns.length) rows = rows.slice(1); // a SELECT's first row names its columns
    }
    for (const row of rows) {
      body.append(h('tr', {}, (row.Data ?? []).map((d, i) => h('td', { class: NUMERIC.test(columns[i]?.Type ?? '') ? 'num' : null },
        d.VarCharValue === undefined ? h('span', { class: 'muted null' }, 'NULL') : d.VarCharValue))));
    }
    n += rows.length;
    token = r.NextToken ?? null;
    more.hidden = !token;
    more.disabled = false;
    count.textContent = columns.length ? `${n} row${n === 1 ? '' : 's'}${token ? ', more on the server' : ''}` : 'No result set (the statement returns no rows).';
  };
  more.addEventListener('click', () => page().catch((err) => more.after(errorBox(err))));
  await page();
  return h('div', {}, holder, h('div', { class: 'toolbar' }, more, count));
}

/** The query's state, reason and statistics. */
function summary(e) {
  const s = e.Status ?? {}, st = e.Statistics ?? {}, ctx = e.QueryExecutionContext ?? {};
  const reason = s.StateChangeReason
    ? h('span', { id: 'query-reason', class: s.State === 'FAILED' ? 'error' : 'muted' }, s.StateChangeReason) : null;
  return h('div', { id: 'query-summary', dataset: { state: s.State ?? '' } },
    h('p', {}, h('span', { id: 'query-state' }, statePill(s.State)), ' ', reason),
    facts([['Query id', h('code', {}, e.QueryExecutionId)],
      ['Catalog · database', `${ctx.Catalog ?? '–'} · ${ctx.Database ?? '–'}`],
      ['Workgroup', e.WorkGroup], ['Statement type', e.StatementType ?? null],
      ['Submitted', fmtEpoch(s.SubmissionDateTime)], ['Completed', s.CompletionDateTime ? fmtEpoch(s.CompletionDateTime) : null],
      ['Data scanned', h('span', { id: 'query-data-scanned' }, fmtBytes(st.DataScannedInBytes))],
      ['Engine execution time', h('span', { id: 'query-engine-time' }, fmtMs(st.EngineExecutionTimeInMillis))],
      ['Queue time', fmtMs(st.QueryQueueTimeInMillis)],
      ['Total time', h('span', { id: 'query-total-time' }, fmtMs(st.TotalExecutionTimeInMillis))],
      ['Error', s.AthenaError ? `category ${s.AthenaError.ErrorCategory}, type ${s.AthenaError.ErrorType}` : null],
      ['Result file', e.ResultConfiguration?.OutputLocation ? h('code', {}, e.ResultConfiguration.OutputLocation) : null]]),
    h('pre', { class: 'query-text', 'aria-label': 'The query' }, e.Query ?? ''));
}

/** One query: its summary, updated until it ends, then its result. `onEnd` runs once it has ended. */
function queryView(scope, id, main, onEnd) {
  const section = h('section', { id: 'query-execution', dataset: { id } }, h('p', { class: 'muted' }, 'Loading the query…'));
  const stop = h('button', { type: 'button', id: 'query-stop' }, 'Cancel');
  stop.addEventListener('click', () => athena('StopQueryExecution', { QueryExecutionId: id }, scope.account)
    .catch((e) => section.append(errorBox(e))));
  (async () => {
    let delay = POLL_MS;
    for (;;) {
      const { QueryExecution: e } = await athena('GetQueryExecution', { QueryExecutionId: id }, scope.account);
      if (!main.contains(section)) return; // the page moved on
      const ended = FINAL.has(e.Status?.State);
      section.replaceChildren(summary(e), ended ? '' : stop);
      if (ended) {
        if (e.Status.State === 'SUCCEEDED') section.append(h('h3', {}, 'Result'), await results(scope, e));
        section.dataset.done = 'true';
        onEnd();
        return;
      }
      await sleep(delay);
      delay = Math.min(delay * 1.5, 2000);
    }
  })().catch((e) => { section.replaceChildren(errorBox(e)); section.dataset.done = 'true'; });
  return section;
}

/** The account's queries, newest first: the newest of each workgroup, merged. */
async function history(scope, currentId) {
  const { WorkGroups: workgroups = [] } = await athena('ListWorkGroups', {}, scope.account);
  const lists = await Promise.all(workgroups.map(async (w) => {
    const { QueryExecutionIds: ids = [] } = await athena('ListQueryExecutions', { WorkGroup: w.Name, MaxResults: HISTORY_PER_WORKGROUP }, scope.account);
    return ids.length ? (await athena('BatchGetQueryExecution', { QueryExecutionIds: ids }, scope.account)).QueryExecutions ?? [] : [];
  }));
  const all = lists.flat().sort((a, b) => (b.Status?.SubmissionDateTime ?? 0) - (a.Status?.SubmissionDateTime ?? 0));
  if (!all.length) return h('p', { class: 'muted', id: 'query-history' }, 'No queries yet in this account and region.');
  return h('table', { id: 'query-history', 'aria-label': 'Query history' },
    h('thead', {}, h('tr', {}, ['Submitted', 'State', 'Query', 'Catalog · database', 'Data scanned', 'Total time']
      .map((c, i) => h('th', { scope: 'col', class: i >= 4 ? 'num' : null }, c)))),
    h('tbody', {}, all.map((e) => h('tr', { 'aria-current': e.QueryExecutionId === currentId ? 'true' : null, dataset: { id: e.QueryExecutionId } },
      h('td', {}, fmtEpoch(e.Status?.SubmissionDateTime)),
      h('td', {}, statePill(e.Status?.State)),
      h('td', {}, h('a', { href: `#/query?id=${encodeURIComponent(e.QueryExecutionId)}`, class: 'query-link', title: e.Query },
        h('code', {}, e.Query.length > 160 ? `${e.Query.slice(0, 160)}…` : e.Query))),
      h('td', {}, `${e.QueryExecutionContext?.Catalog ?? '–'} · ${e.QueryExecutionContext?.Database ?? '–'}`),
      h('td', { class: 'num' }, fmtBytes(e.Statistics?.DataScannedInBytes)),
      h('td', { class: 'num' }, fmtMs(e.Statistics?.TotalExecutionTimeInMillis))))));
}

export async function renderQuery(main, { id }, { scope, setCrumbs }) {
  setCrumbs(id ? h('a', { href: '#/query' }, 'Query editor') : 'Query editor', ...(id ? [id] : []));
  const save = (d) => sessionStorage.setItem(draftKey(scope), JSON.stringify(d));
  const historyHolder = h('div', { id: 'query-history-holder' });
  const refreshHistory = () => history(scope, id).then((t) => historyHolder.replaceChildren(t))
    .catch((e) => historyHolder.replaceChildren(errorBox(e)));
  const form = await editor(scope, loadDraft(scope), save);
  main.replaceChildren(h('h1', {}, 'Query editor'),
    h('p', { class: 'muted' }, `Athena (on Trino) over the table buckets of account ${scope.account}, region ${scope.region}: ` +
      'each bucket is the catalog s3tablescatalog/<bucket>, its namespaces the databases.'),
    form,
    ...(id ? [h('h2', {}, 'Query'), queryView(scope, id, main, refreshHistory)] : []),
    h('h2', {}, 'Recent queries'), historyHolder);
  await refreshHistory();
}

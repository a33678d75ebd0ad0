// Small DOM helpers shared by the console's views: building elements, fact lists, tables,
// copyable text and pretty-printed JSON, and number formatting. Text is always set as text, never as HTML.

/** h('a', {href: '#/'}, 'text', child...) */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) if (c !== undefined && c !== null && c !== false) el.append(c instanceof Node ? c : String(c));
  return el;
}

/** A <dl> of [label, value] pairs; null values show as "none". */
export function facts(pairs) {
  return h('dl', { class: 'facts' }, pairs.flatMap(([k, v]) => [h('dt', {}, k),
    h('dd', {}, v === null || v === undefined ? h('span', { class: 'muted' }, 'none') : v)]));
}

/** A table from column headers and rows of cells; numeric columns are named in `nums`. */
export function table(headers, rows, { nums = [], caption, attrs = {} } = {}) {
  return h('table', attrs,
    caption ? h('caption', { class: 'visually-hidden' }, caption) : null,
    h('thead', {}, h('tr', {}, headers.map((t, i) => h('th', { scope: 'col', class: nums.includes(i) ? 'num' : null }, t)))),
    h('tbody', {}, rows.map((r) => h('tr', {}, r.map((c, i) => h('td', { class: nums.includes(i) ? 'num' : null }, c))))));
}

/** Pretty-printed JSON with a Copy button. `value` may be JSON text (kept as written if it does not parse). */
export function jsonView(value, label = 'JSON') {
  let text;
  if (typeof value === 'string') {
    try { text = JSON.stringify(JSON.parse(value), null, 2); } catch { text = value; }
  } else {
    text = JSON.stringify(value, (k, v) => (typeof v === 'bigint' ? v.toString() : v), 2);
  }
  return copyView(text, label);
}

/** Text in a <pre> with a Copy button that copies exactly that text. */
export function copyView(text, label, attrs = {}) {
  const pre = h('pre', { tabindex: '0', 'aria-label': label, ...attrs }, text);
  const status = h('span', { class: 'visually-hidden', role: 'status' });
  const copy = h('button', {
    type: 'button', class: 'copy', 'aria-label': `Copy ${label}`,
    onclick: async () => {
      try {
        await navigator.clipboard.writeText(text);
      } catch {
        const range = document.createRange(); range.selectNodeContents(pre);
        getSelection().removeAllRanges(); getSelection().addRange(range); document.execCommand('copy');
      }
      copy.textContent = 'Copied'; status.textContent = 'Copied to the clipboard';
      setTimeout(() => { copy.textContent = 'Copy'; }, 1500);
    },
  }, 'Copy');
  return h('div', { class: 'json' }, pre, copy, status);
}

export const fmtInt = (n) => (n === undefined || n === null || n === '' ? '–' : Number(n).toLocaleString('en-US'));
export function fmtBytes(n) {
  if (n === undefined || n === null || n === '') return '–';
  let v = Number(n), u = 0;
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  while (v >= 1024 && u < units.length - 1) { v /= 1024; u++; }
  return `${u ? v.toFixed(1) : v} ${units[u]}`;
}
export const fmtTime = (ms) => (ms ? new Date(Number(ms)).toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z') : '–');
export const errorBox = (e) => h('p', { class: 'error', role: 'alert' }, e?.message ?? String(e));

/** A link that keeps the console's current hash query (account, region) when it is followed. */
export function link(hash, text, attrs = {}) {
  return h('a', { href: hash, ...attrs }, text);
}

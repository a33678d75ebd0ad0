// How the console talks to Floe: GET /_floe/ui/api/<room> (read-only JSON), POST
// /_floe/maintenance/run, and Athena's own API (awsJson1_1, POST / signed for `athena`) for the
// query page. With strict signatures on, each request is signed here with SigV4 (WebCrypto) using
// keys the user typed, kept in this tab's sessionStorage only. Without them Athena calls are
// signed too (Floe picks a call's service by its signing name): with the picked account as the
// access key, which Floe takes as that account, and a secret it does not check.

const API = new URL('api/', document.baseURI).pathname;
const KEYS = 'floe-console-keys';
const enc = new TextEncoder();

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

export function keys() {
  try { return JSON.parse(sessionStorage.getItem(KEYS)); } catch { return null; }
}
export function setKeys(accessKeyId, secretAccessKey) {
  sessionStorage.setItem(KEYS, JSON.stringify({ accessKeyId, secretAccessKey }));
}

const hex = (buf) => [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, '0')).join('');
const sha256 = async (data) => hex(await crypto.subtle.digest('SHA-256', typeof data === 'string' ? enc.encode(data) : data));
async function hmac(key, text) {
  const k = await crypto.subtle.importKey('raw', typeof key === 'string' ? enc.encode(key) : key,
    { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return crypto.subtle.sign('HMAC', k, enc.encode(text));
}
// RFC 3986 encoding, as SigV4 wants it (encodeURIComponent leaves !'()* alone).
const uriEncode = (s) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());

/**
 * SigV4 headers for a request (the rule of every service but S3: the path is encoded again), with
 * `headers` (lower-case names) signed too. `k` the keys; none, no signature.
 */
async function sign(method, url, pairs, body, region, { service = 's3tables', k = keys(), headers = {} } = {}) {
  if (!k) return {};
  const now = new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
  const date = now.slice(0, 8);
  const scope = `${date}/${region}/${service}/aws4_request`;
  const path = url.pathname.split('/').map((seg) => uriEncode(decodeURIComponent(seg))).join('/');
  const query = pairs.map(([key, v]) => [uriEncode(key), uriEncode(v)])
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0))
    .map(([key, v]) => `${key}=${v}`).join('&');
  const payload = await sha256(body ?? '');
  const signed = Object.entries({ ...headers, host: url.host, 'x-amz-date': now }).sort(([a], [b]) => (a < b ? -1 : 1));
  const names = signed.map(([name]) => name).join(';');
  const canonical = [method, uriEncode(path).replace(/%2F/g, '/'), query, ...signed.map(([n, v]) => `${n}:${v}`), '',
    names, payload].join('\n');
  const toSign = ['AWS4-HMAC-SHA256', now, scope, await sha256(canonical)].join('\n');
  let key = await hmac('AWS4' + k.secretAccessKey, date);
  for (const part of [region, service, 'aws4_request']) key = await hmac(key, part);
  const signature = hex(await hmac(key, toSign));
  return {
    ...headers,
    'x-amz-date': now,
    authorization: `AWS4-HMAC-SHA256 Credential=${k.accessKeyId}/${scope}, SignedHeaders=${names}, Signature=${signature}`,
  };
}

let signingRegion = 'us-east-1';
export function setSigningRegion(region) { signingRegion = region; }

/** Builds the URL itself, so the query it signs is byte for byte the one it sends (%20, never '+'). */
async function send(method, path, params, body) {
  const pairs = Object.entries(params).filter(([, v]) => v !== undefined && v !== null && v !== '').map(([k, v]) => [k, String(v)]);
  const query = pairs.map(([k, v]) => `${uriEncode(k)}=${uriEncode(v)}`).join('&');
  const url = new URL(path + (query ? '?' + query : ''), window.location.origin);
  const headers = await sign(method, url, pairs, body, signingRegion);
  if (body !== undefined) headers['content-type'] = 'application/json';
  const resp = await fetch(url, { method, headers, body });
  if (!resp.ok) {
    let message = `${resp.status} ${resp.statusText}`;
    try { message = (await resp.json()).message ?? message; } catch { /* not JSON */ }
    throw new ApiError(resp.status, message);
  }
  return resp;
}

/**
 * JSON.parse that keeps 64-bit integers (Iceberg snapshot ids) exact: numbers of 16 digits or
 * more become strings before parsing.
 */
export function parseExact(text) {
  try {
    return JSON.parse(text.replace(/([:[,]\s*)(-?\d{16,})(?=\s*[,\]}])/g, '$1"$2"'));
  } catch {
    return JSON.parse(text);
  }
}

/**
 * How the server treats the console's requests ({strictSignatures}), from server.json: a file of the
 * page, read unsigned before any API request, so that a strict server is asked nothing before the
 * user has given keys.
 */
export async function serverMode() {
  const resp = await fetch(new URL('server.json', document.baseURI));
  if (!resp.ok) throw new ApiError(resp.status, `${resp.status} ${resp.statusText}`);
  return resp.json();
}

/** GET a console route with the given query parameters (undefined ones left out). */
export async function get(room, params = {}) {
  return parseExact(await (await send('GET', API + room, params)).text());
}

/** The bytes of an object inside a table's warehouse. */
export async function object(tableArn, location) {
  return (await send('GET', API + 'object', { arn: tableArn, location })).arrayBuffer();
}

/** POST /_floe/maintenance/run {arn, type}: the answer's JSON (or text), or an ApiError. */
export async function runMaintenance(arn, type) {
  const resp = await send('POST', '/_floe/maintenance/run', {}, JSON.stringify({ arn, type }));
  const text = await resp.text();
  try { return JSON.parse(text); } catch { return text; }
}

/** Athena refused a call: `type` is its error's name (InvalidRequestException, AccessDeniedException, ...). */
export class AthenaError extends ApiError {
  constructor(status, type, message) {
    super(status, `${type}: ${message}`);
    this.type = type;
  }
}

/**
 * Athena's operation `operation` (StartQueryExecution, ...) with `input`, in `account` and the
 * signing region, as the aws CLI sends it (awsJson1_1): the answer's JSON, or an AthenaError.
 */
export async function athena(operation, input, account) {
  const url = new URL('/', window.location.origin);
  const body = JSON.stringify(input);
  const k = keys() ?? { accessKeyId: account, secretAccessKey: 'floe-console' };
  const headers = await sign('POST', url, [], body, signingRegion, {
    service: 'athena', k,
    headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': `AmazonAthena.${operation}` },
  });
  const resp = await fetch(url, { method: 'POST', headers, body });
  const text = await resp.text();
  let answer = {};
  try { answer = text ? JSON.parse(text) : {}; } catch { /* not JSON */ }
  if (!resp.ok) {
    const type = String(answer.__type ?? resp.headers.get('x-amzn-errortype') ?? `${resp.status}`).replace(/^.*#/, '').replace(/:.*$/, '');
    throw new AthenaError(resp.status, type, answer.Message ?? answer.message ?? (text || resp.statusText));
  }
  return answer;
}

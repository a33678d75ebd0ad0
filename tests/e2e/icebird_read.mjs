// Prints, as JSON lines, the rows icebird reads from one Iceberg table through Floe.
// What this is for: tests in other languages (tests/e2e/engines/64-duckdb.py) that check icebird reads what
// other engines wrote. What it is not for: writing; iceberg_writer.mjs writes.
// Usage: node icebird_read.mjs <floe endpoint> <s3://bucket/key of the metadata.json>
import { icebergRead } from "icebird";

const [endpoint, metadataUrl] = process.argv.slice(2);
const realFetch = globalThis.fetch;
// icebird reads https://<bucket>.s3.amazonaws.com/<key>; send it to Floe's S3, path-style.
globalThis.fetch = (input, init) => {
  const url = String(input instanceof Request ? input.url : input);
  const m = /^https:\/\/([^./]+)\.s3\.amazonaws\.com\/(.*)$/.exec(url);
  return realFetch(m ? `${endpoint}/${m[1]}/${m[2]}` : input, init);
};

const m = /^s3:\/\/([^/]+)\/(.*)$/.exec(metadataUrl);
const res = await realFetch(`${endpoint}/${m[1]}/${m[2]}`);
if (!res.ok)
  throw new Error(`GET ${metadataUrl}: ${res.status}`);
const metadata = await res.json();
const rows = await icebergRead({ tableUrl: metadata.location, metadata });
for (const row of rows)
  process.stdout.write(JSON.stringify(row, (k, v) => (typeof v === "bigint" ? Number(v) : v)) + "\n");

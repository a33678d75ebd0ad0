// Writes a format version 3 table with a deletion vector into a running Floe, for tests in other
// languages (tests/e2e/64-engines-read-v3-deletion-vectors.py) that read it with other engines.
// What it is not for: anything else iceberg_writer.mjs does (that is where the writing lives).
// Usage: node iceberg_write_v3.mjs <floe endpoint> <table bucket name>
// Prints one JSON line: {bucketArn, tableArn, namespace, table}. The table `sales.events` holds ids
// 0..8 in two data files (the first of two row groups of 3 rows); a deletion vector deletes id 1
// (part of the first file's first row group) and ids 3, 4 and 5 (its second row group).
import { IcebergWriter, SCHEMA } from "./iceberg_writer.mjs";

const [endpoint, bucket] = process.argv.slice(2);
const w = await IcebergWriter.open({ endpoint }, { bucket, namespace: "sales" });
if (!w)
  throw new Error("npm packages are missing: run npm ci in tests/e2e");
const rows = (a, b) => Array.from({ length: b - a }, (_, j) => ({
  id: BigInt(a + j), name: `r${a + j}`, ts: new Date(Date.UTC(2026, 0, 1) + (a + j) * 1000),
}));
await w.catalog.createTable({ namespace: ["sales"] },
  { name: "events", schema: SCHEMA, properties: { "format-version": "3" } });
const first = await w.append("events", rows(0, 6), { rowGroupSize: 3 });
await w.append("events", rows(6, 9));
await w.deleteRows("events", [{ dataPath: first.dataPath, positions: [1, 3, 4, 5] }]);
process.stdout.write(JSON.stringify({ bucketArn: w.bucketArn, tableArn: await w.tableArn("events"),
  namespace: "sales", table: "events" }) + "\n");
w.close();

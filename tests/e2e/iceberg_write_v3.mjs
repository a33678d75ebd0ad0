// Writes a format version 3 table with a deletion vector into a running Floe, for tests in other
// languages (tests/e2e/engines/71-engines-read-v3-deletion-vectors.py) that read it with other engines.
// What it is not for: anything else iceberg_writer.mjs does (that is where the writing lives).
// Usage: node iceberg_write_v3.mjs <floe endpoint> <table bucket name>
// Prints one JSON line: {bucketArn, tableArn, namespace, table, taggedArn}. The table `sales.events` holds ids
// 0..8 in two data files (the first of two row groups of 3 rows); a deletion vector deletes id 1
// (part of the first file's first row group) and ids 3, 4 and 5 (its second row group). The table
// `sales.tagged` holds the same ids with a list column, tags (tagsOf below), in two files likewise;
// its vector deletes ids 1 and 4 (part of each row group of the first file).
import { IcebergWriter, SCHEMA, TAGGED_SCHEMA } from "./iceberg_writer.mjs";

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

// tags of id i: null, an empty list, a list with a null, three strings (the Python test's tags_of)
const tagsOf = (i) => [null, [], [`a${i}`, null], ["x", "y", `z${i}`]][i % 4];
const tagged = (a, b) => rows(a, b).map((r) => ({ ...r, tags: tagsOf(Number(r.id)) }));
await w.catalog.createTable({ namespace: ["sales"] },
  { name: "tagged", schema: TAGGED_SCHEMA, properties: { "format-version": "3" } });
const firstTagged = await w.append("tagged", tagged(0, 6), { rowGroupSize: 3, tagged: true });
await w.append("tagged", tagged(6, 9), { tagged: true });
await w.deleteRows("tagged", [{ dataPath: firstTagged.dataPath, positions: [1, 4] }]);
process.stdout.write(JSON.stringify({ bucketArn: w.bucketArn, tableArn: await w.tableArn("events"),
  namespace: "sales", table: "events", taggedArn: await w.tableArn("tagged") }) + "\n");
w.close();

// The non-Trino side of bench/engines/trino: writes an Iceberg table into a running Floe through
// the Iceberg REST catalog and Floe's S3 (tests/e2e/iceberg_writer.mjs: Parquet data, Avro
// manifests, a commit), and reads any table of a bucket back with icebird, so Trino's reads and
// writes are checked by another client. Prints one JSON line. Not a test and not a benchmark.
//
// Usage: node iceberg_rows.mjs ENDPOINT write BUCKET NAMESPACE TABLE ROWS
//        node iceberg_rows.mjs ENDPOINT read BUCKET_ARN NAMESPACE TABLE

import { IcebergWriter, missingPackages } from "../../tests/e2e/iceberg_writer.mjs";

const [endpoint, command, bucket, namespace, table, nRows] = process.argv.slice(2);
const server = { endpoint };

if (missingPackages.length) {
  console.error(`missing npm packages (run scripts/setup-deps): ${missingPackages.join(", ")}`);
  process.exit(2);
}

/** Sums as strings: ids are BigInt and JSON has no BigInt. */
function summary(rows) {
  let sum = 0n;
  for (const r of rows)
    sum += BigInt(r.id);
  return { rows: rows.length, sumId: sum.toString() };
}

if (command === "write") {
  const w = await IcebergWriter.open(server, { bucket, namespace });
  await w.createTable(table);
  const base = Date.parse("2026-01-01T00:00:00Z");
  const rows = Array.from({ length: Number(nRows) }, (_, i) => ({
    id: BigInt(i + 1), name: `row-${i + 1}`, ts: new Date(base + i * 1000),
  }));
  await w.append(table, rows);
  console.log(JSON.stringify({ bucketArn: w.bucketArn, ...summary(rows) }));
  w.close();
} else if (command === "read") {
  // open() makes a bucket and namespace of its own; point its catalog at the bucket to read.
  const w = await IcebergWriter.open(server, { bucket: `reader-${process.pid}`, namespace });
  w.bucketArn = bucket;
  w.catalog = new w.catalog.constructor({
    baseUrl: `${endpoint}/_floe/iceberg`, catalogName: encodeURIComponent(bucket), auth: { type: "none" },
  });
  console.log(JSON.stringify(summary(await w.readRows(table))));
  w.close();
} else {
  console.error("usage: iceberg_rows.mjs ENDPOINT write|read ...");
  process.exit(2);
}

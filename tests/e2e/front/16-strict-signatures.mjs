// --strict-signatures with the AWS SDK for JavaScript v3, which signs headers boto3 does not: its
// S3 Tables requests sign content-length, which h2o keeps out of the request's header list, so a
// verifier that read only that list refused every request with a body. front/15-strict-signatures.py
// covers the rules themselves with boto3.
//
// Run: cd tests/e2e && npm ci && node --test front/16-strict-signatures.mjs

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";

import { FloeServer, clientConfig, importOrSkip } from "../floe_server.mjs";

const sdk = await importOrSkip("@aws-sdk/client-s3tables");
const s3sdk = await importOrSkip("@aws-sdk/client-s3");
const KEY = "AKIDSTRICTJS", SECRET = "strict-js-secret";

describe("strict signatures with the JS SDK", { skip: sdk && s3sdk ? false : "run npm ci in tests/e2e" }, () => {
  let server;
  const config = (secret) => ({ ...clientConfig(server), credentials: { accessKeyId: KEY, secretAccessKey: secret } });

  before(async () => {
    server = new FloeServer({ args: ["--strict-signatures", "--credentials", `${KEY}:${SECRET}`] });
    await server.start();
  });
  after(async () => server.stop());

  test("a signed request with a body (content-length signed) is accepted", async () => {
    const s3tables = new sdk.S3TablesClient(config(SECRET));
    const { arn } = await s3tables.send(new sdk.CreateTableBucketCommand({ name: "strict-js" }));
    await s3tables.send(new sdk.CreateNamespaceCommand({ tableBucketARN: arn, namespace: ["ns"] }));
    const listed = await s3tables.send(new sdk.ListNamespacesCommand({ tableBucketARN: arn }));
    assert.deepEqual(listed.namespaces.map((n) => n.namespace), [["ns"]]);
  });

  test("S3 PutObject and GetObject signed by the JS SDK are accepted", async () => {
    const s3 = new s3sdk.S3Client({ ...config(SECRET), forcePathStyle: true });
    await s3.send(new s3sdk.CreateBucketCommand({ Bucket: "strict-js-objects" }));
    await s3.send(new s3sdk.PutObjectCommand({ Bucket: "strict-js-objects", Key: "k", Body: "hello" }));
    const got = await s3.send(new s3sdk.GetObjectCommand({ Bucket: "strict-js-objects", Key: "k" }));
    assert.equal(await got.Body.transformToString(), "hello");
  });

  test("the wrong secret is still refused", async () => {
    const s3tables = new sdk.S3TablesClient(config("not-the-secret"));
    await assert.rejects(s3tables.send(new sdk.CreateTableBucketCommand({ name: "strict-js-wrong" })),
      (e) => e.name === "InvalidSignatureException" && e.$metadata.httpStatusCode === 403);
  });
});

// Table buckets end to end with the AWS SDK for JavaScript v3 (@aws-sdk/client-s3tables): create,
// get, list, delete, AWS's naming rules, conflicts, missing buckets, pagination by hand and with the
// SDK's paginator, and state that survives a restart. s3tables/20-table-buckets.py covers the same rules with
// boto3 and the aws CLI; the JS SDK checks almost nothing on the client, so every invalid value here
// reaches the server and the answer is the server's modeled exception.
//
// Run: cd tests/e2e && npm ci && node --test s3tables/22-table-buckets.mjs

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";

import { ACCOUNT, FloeServer, REGION, bucketArn, importOrSkip, s3tablesClient, modeled } from "../floe_server.mjs";

const sdk = await importOrSkip("@aws-sdk/client-s3tables");
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const SUMMARY_FIELDS = ["arn", "createdAt", "name", "ownerAccountId", "tableBucketId", "type"];

describe("table buckets with @aws-sdk/client-s3tables",
  { skip: sdk ? false : "@aws-sdk/client-s3tables is not installed (run npm ci in tests/e2e)" }, () => {
    let server;
    let s3tables;

    const send = (command, input) => s3tables.send(new sdk[command](input));
    const createBucket = async (name) => (await send("CreateTableBucketCommand", { name })).arn;
    const getBucket = (arn) => send("GetTableBucketCommand", { tableBucketARN: arn });
    const listNames = async (input) => (await send("ListTableBucketsCommand", input)).tableBuckets.map((b) => b.name);

    before(async () => {
      server = new FloeServer();
      await server.start();
      s3tables = s3tablesClient(sdk, server);
    });

    after(async () => {
      s3tables?.destroy();
      await server?.cleanup();
    });

    test("CreateTableBucket returns the AWS-shaped ARN", async () => {
      const resp = await send("CreateTableBucketCommand", { name: "js-create-arn" });
      assert.equal(resp.$metadata.httpStatusCode, 200, "CreateTableBucket answers 200");
      assert.equal(resp.arn, `arn:aws:s3tables:${REGION}:${ACCOUNT}:bucket/js-create-arn`,
        "the ARN is arn:aws:s3tables:{region}:{account}:bucket/{name}");
    });

    test("GetTableBucket reads back every field of the created bucket", async () => {
      const started = Date.now();
      const arn = await createBucket("js-get-back");
      const got = await getBucket(arn);
      assert.equal(got.name, "js-get-back", "GetTableBucket returns the name");
      assert.equal(got.arn, arn, "GetTableBucket returns the ARN it was asked for");
      assert.equal(got.ownerAccountId, ACCOUNT, "the owner is the configured account");
      assert.equal(got.type, "customer", "a created bucket is a customer bucket");
      assert.match(got.tableBucketId, UUID_V4, "tableBucketId is a random (version 4) UUID");
      assert.ok(got.createdAt instanceof Date, "the SDK parses createdAt into a Date");
      assert.ok(Math.abs(got.createdAt.getTime() - started) < 60000, "createdAt is the time of creation");
      const again = await getBucket(arn);
      assert.equal(again.tableBucketId, got.tableBucketId, "the bucket id is stable across reads");
    });

    test("ListTableBuckets summarises a bucket with the same fields GetTableBucket returns", async () => {
      const arn = await createBucket("js-summary");
      const got = await getBucket(arn);
      const { tableBuckets } = await send("ListTableBucketsCommand", { prefix: "js-summary" });
      assert.equal(tableBuckets.length, 1, "the prefix finds exactly the one bucket");
      const summary = tableBuckets[0];
      assert.deepEqual(Object.keys(summary).sort(), SUMMARY_FIELDS, "a summary has the fields AWS returns");
      assert.equal(summary.arn, arn, "the summary carries the bucket's ARN");
      assert.equal(summary.ownerAccountId, ACCOUNT, "the summary carries the owner account");
      assert.equal(summary.type, "customer", "the summary carries the bucket type");
      assert.equal(summary.tableBucketId, got.tableBucketId, "the summary carries the same bucket id");
      assert.equal(summary.createdAt.getTime(), got.createdAt.getTime(), "the summary carries the same createdAt");
    });

    test("valid table bucket names are accepted", async () => {
      for (const name of ["abc", "a".repeat(63), "my-bucket-1", "0start-with-digit", "ends-with-digit-9",
        "has--double-hyphen", "awx-not-reserved", "s3alias-at-start", "name-s3alias-not-at-end"]) {
        assert.equal(await createBucket(name), bucketArn(name), `the valid name ${JSON.stringify(name)} is accepted`);
      }
    });

    test("invalid table bucket names are refused with BadRequestException", async () => {
      const invalid = [
        "ab", "a".repeat(64), "Upper-Case", "under_score", "dots.in.name", "spa ce", "-starts-with-hyphen",
        "ends-with-hyphen-", "xn--prefix", "sthree-prefix", "amzn-s3-demo-bucket", "aws", "awsbucket",
        "aws-bucket", "name-s3alias", "name--ol-s3", "name--x-s3", "name--table-s3",
      ];
      for (const name of invalid) {
        await assert.rejects(send("CreateTableBucketCommand", { name }), modeled("BadRequestException", 400),
          `the name ${JSON.stringify(name)} breaks AWS's naming rules and is refused`);
      }
      const names = await listNames({});
      for (const name of invalid)
        assert.ok(!names.includes(name), `a refused name (${JSON.stringify(name)}) creates no bucket`);
    });

    test("creating a bucket whose name is taken is ConflictException", async () => {
      const arn = await createBucket("js-twice");
      const { tableBucketId } = await getBucket(arn);
      await assert.rejects(createBucket("js-twice"), modeled("ConflictException", 409),
        "a second bucket with the same name is refused");
      assert.equal((await getBucket(arn)).tableBucketId, tableBucketId, "the refused create leaves the first bucket as it was");
    });

    test("a missing bucket is NotFoundException", async () => {
      const missing = bucketArn("js-no-such-bucket");
      await assert.rejects(getBucket(missing), modeled("NotFoundException", 404), "GetTableBucket of a missing bucket is not found");
      await assert.rejects(send("DeleteTableBucketCommand", { tableBucketARN: missing }), modeled("NotFoundException", 404),
        "DeleteTableBucket of a missing bucket is not found");
    });

    test("the ARN of another account is access denied, of another region names no bucket", async () => {
      await createBucket("js-elsewhere");
      const otherAccount = "arn:aws:s3tables:us-east-1:111122223333:bucket/js-elsewhere";
      const otherRegion = `arn:aws:s3tables:eu-west-1:${ACCOUNT}:bucket/js-elsewhere`;
      await assert.rejects(getBucket(otherAccount), modeled("AccessDeniedException", 403),
        "a bucket ARN of another account is access denied, as AWS answers when no policy grants access");
      await assert.rejects(getBucket(otherRegion), modeled("NotFoundException", 404),
        "a bucket of the same name in another region is not found");
      await assert.rejects(send("DeleteTableBucketCommand", { tableBucketARN: otherAccount }),
        modeled("AccessDeniedException", 403), "deleting through another account's ARN is access denied");
      assert.equal((await getBucket(bucketArn("js-elsewhere"))).name, "js-elsewhere",
        "the bucket is still there under its own ARN");
    });

    test("a malformed ARN is BadRequestException", async () => {
      await assert.rejects(getBucket("not-an-arn"), modeled("BadRequestException", 400),
        "a table bucket ARN that is not an ARN is refused");
    });

    test("DeleteTableBucket answers 204 and the bucket is gone; the name can be reused", async () => {
      const arn = await createBucket("js-delete-me");
      const { tableBucketId } = await getBucket(arn);
      const resp = await send("DeleteTableBucketCommand", { tableBucketARN: arn });
      assert.equal(resp.$metadata.httpStatusCode, 204, "DeleteTableBucket answers 204");
      await assert.rejects(getBucket(arn), modeled("NotFoundException", 404), "a deleted bucket is not found");
      assert.ok(!(await listNames({ prefix: "js-delete-me" })).includes("js-delete-me"), "a deleted bucket is not listed");
      assert.equal(await createBucket("js-delete-me"), arn, "the name of a deleted bucket can be used again");
      assert.notEqual((await getBucket(arn)).tableBucketId, tableBucketId, "the new bucket has a new id");
    });

    test("a bucket that has a namespace cannot be deleted", async () => {
      const arn = await createBucket("js-has-namespace");
      await send("CreateNamespaceCommand", { tableBucketARN: arn, namespace: ["ns1"] });
      await assert.rejects(send("DeleteTableBucketCommand", { tableBucketARN: arn }), modeled("ConflictException", 409),
        "deleting a bucket that still has a namespace is a conflict");
      assert.equal((await getBucket(arn)).name, "js-has-namespace", "the refused delete leaves the bucket in place");
      await send("DeleteNamespaceCommand", { tableBucketARN: arn, namespace: "ns1" });
      const resp = await send("DeleteTableBucketCommand", { tableBucketARN: arn });
      assert.equal(resp.$metadata.httpStatusCode, 204, "once its namespace is gone the bucket deletes");
    });

    test("ListTableBuckets filters by prefix and sorts by name", async () => {
      for (const name of ["jspfx-two", "jspfx-one", "other-jspfx", "jspf-short"])
        await createBucket(name);
      assert.deepEqual(await listNames({ prefix: "jspfx-" }), ["jspfx-one", "jspfx-two"],
        "a prefix keeps only the names that start with it, in name order");
      assert.deepEqual(await listNames({ prefix: "jspfx-nothing" }), [], "a prefix nothing matches lists nothing");
      const all = await listNames({});
      assert.deepEqual(all, [...all].sort(), "without a prefix every bucket is listed in name order");
      assert.ok(["jspfx-one", "jspfx-two", "other-jspfx", "jspf-short"].every((n) => all.includes(n)),
        "without a prefix every bucket is listed");
    });

    test("ListTableBuckets filters by type", async () => {
      await createBucket("js-typed-customer");
      assert.ok((await listNames({ type: "customer" })).includes("js-typed-customer"), "type=customer lists created buckets");
      assert.deepEqual(await listNames({ type: "aws" }), [], "there are no AWS-managed buckets");
      await assert.rejects(send("ListTableBucketsCommand", { type: "other" }), modeled("BadRequestException", 400),
        "a type that is neither customer nor aws is refused");
    });

    test("ListTableBuckets pages with continuation tokens that stay correct while buckets are created", async () => {
      for (let i = 0; i < 7; i++)
        await createBucket(`jspage-${String(i).padStart(2, "0")}`);
      const seen = [];
      let continuationToken;
      let pages = 0;
      do {
        const resp = await send("ListTableBucketsCommand", { prefix: "jspage-", maxBuckets: 3, continuationToken });
        assert.ok(resp.tableBuckets.length <= 3, "a page never holds more than maxBuckets");
        seen.push(...resp.tableBuckets.map((b) => b.name));
        pages += 1;
        if (pages === 1) {
          await createBucket("jspage-00a"); // sorts before the next page: must not shift it
          await createBucket("jspage-99"); // sorts after: must appear
        }
        continuationToken = resp.continuationToken;
      } while (continuationToken);
      const expected = [0, 1, 2, 3, 4, 5, 6].map((i) => `jspage-0${i}`).concat(["jspage-99"]);
      assert.deepEqual(seen, expected, "pages are contiguous and sorted, and a bucket created after the cursor shows up");
      assert.equal(pages, 3, "8 buckets at 3 a page take 3 pages");
    });

    test("paginateListTableBuckets walks every page", async () => {
      for (let i = 0; i < 5; i++)
        await createBucket(`jswalk-${i}`);
      const names = [];
      let pages = 0;
      for await (const page of sdk.paginateListTableBuckets({ client: s3tables, pageSize: 2 }, { prefix: "jswalk-" })) {
        assert.ok(page.tableBuckets.length <= 2, "the paginator's pageSize becomes maxBuckets");
        names.push(...page.tableBuckets.map((b) => b.name));
        pages += 1;
      }
      assert.deepEqual(names, [0, 1, 2, 3, 4].map((i) => `jswalk-${i}`), "the SDK's paginator sees every bucket once, in order");
      assert.equal(pages, 3, "5 buckets at 2 a page take 3 pages");
    });

    test("maxBuckets outside 1 to 1000 is BadRequestException", async () => {
      for (const maxBuckets of [0, 1001]) {
        await assert.rejects(send("ListTableBucketsCommand", { maxBuckets }), modeled("BadRequestException", 400),
          `maxBuckets=${maxBuckets} is refused`);
      }
      for (const maxBuckets of [1, 1000]) {
        const resp = await send("ListTableBucketsCommand", { maxBuckets });
        assert.ok(resp.tableBuckets.length <= maxBuckets, `maxBuckets=${maxBuckets} is accepted and honoured`);
      }
    });

    test("a garbage continuation token is BadRequestException", async () => {
      await assert.rejects(send("ListTableBucketsCommand", { continuationToken: "garbage!" }),
        modeled("BadRequestException", 400), "a continuation token the server never issued is refused");
      await assert.rejects(send("ListTableBucketsCommand", { continuationToken: "Z2FyYmFnZQ" }),
        modeled("BadRequestException", 400), "well-formed base64 that is not a token is refused");
    });

    test("buckets survive a restart", async () => {
      const arn = await createBucket("js-survivor");
      const beforeRestart = await getBucket(arn);
      const deleted = await createBucket("js-deleted-before-restart");
      await send("DeleteTableBucketCommand", { tableBucketARN: deleted });
      await server.restart();
      const afterRestart = await getBucket(arn);
      assert.equal(afterRestart.tableBucketId, beforeRestart.tableBucketId, "the bucket id is the same after a restart");
      assert.equal(afterRestart.createdAt.getTime(), beforeRestart.createdAt.getTime(), "createdAt is the same after a restart");
      assert.equal(afterRestart.name, "js-survivor", "the name is the same after a restart");
      await assert.rejects(getBucket(deleted), modeled("NotFoundException", 404), "a bucket deleted before the restart stays deleted");
      await assert.rejects(createBucket("js-survivor"), modeled("ConflictException", 409),
        "the name is still taken after a restart");
      assert.deepEqual(await listNames({ prefix: "js-survivor" }), ["js-survivor"], "the bucket is still listed after a restart");
    });
  });

// Table bucket configuration and tags end to end with the AWS SDK for JavaScript v3
// (@aws-sdk/client-s3tables): tags, encryption and policy round trips, and the NotFound and
// BadRequest answers a JS caller sees as modeled exceptions. s3tables/25-table-bucket-config.py covers
// every operation with boto3; this file proves a second SDK reads the same wire.
//
// Run: cd tests/e2e && npm ci && node --test s3tables/26-table-bucket-config.mjs

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";

import { FloeServer, bucketArn, importOrSkip, s3tablesClient, modeled } from "../floe_server.mjs";

const sdk = await importOrSkip("@aws-sdk/client-s3tables");
const KMS_KEY = "arn:aws:kms:us-east-1:000000000000:key/1234abcd-12ab-34cd-56ef-1234567890ab";
const POLICY = JSON.stringify({
  Version: "2012-10-17",
  Statement: [{
    Effect: "Allow",
    Principal: { AWS: "arn:aws:iam::000000000000:root" },
    Action: "s3tables:GetTableBucket",
    Resource: bucketArn("*"),
  }],
});

describe("table bucket configuration with @aws-sdk/client-s3tables",
  { skip: sdk ? false : "@aws-sdk/client-s3tables is not installed (run npm ci in tests/e2e)" }, () => {
    let server;
    let s3tables;

    const send = (command, input) => s3tables.send(new sdk[command](input));
    const createBucket = async (name, input = {}) => (await send("CreateTableBucketCommand", { name, ...input })).arn;

    before(async () => {
      server = new FloeServer();
      await server.start();
      s3tables = s3tablesClient(sdk, server);
    });

    after(async () => {
      s3tables?.destroy();
      await server?.cleanup();
    });

    test("tags given at creation, added, listed and removed read back", async () => {
      const arn = await createBucket("js-tags", { tags: { team: "data" } });
      assert.deepEqual((await send("ListTagsForResourceCommand", { resourceArn: arn })).tags, { team: "data" },
        "tags given at creation are listed");
      await send("TagResourceCommand", { resourceArn: arn, tags: { env: "test", team: "analytics" } });
      assert.deepEqual((await send("ListTagsForResourceCommand", { resourceArn: arn })).tags,
        { env: "test", team: "analytics" }, "TagResource adds keys and replaces existing values");
      const untag = await send("UntagResourceCommand", { resourceArn: arn, tagKeys: ["team"] });
      assert.equal(untag.$metadata.httpStatusCode, 204, "UntagResource answers 204");
      assert.deepEqual((await send("ListTagsForResourceCommand", { resourceArn: arn })).tags, { env: "test" },
        "UntagResource removes the named key");
    });

    test("encryption defaults to AES256, takes a KMS key and returns to AES256 on delete", async () => {
      const arn = await createBucket("js-encryption");
      const get = async () => (await send("GetTableBucketEncryptionCommand", { tableBucketARN: arn })).encryptionConfiguration;
      assert.deepEqual(await get(), { sseAlgorithm: "AES256" }, "a new bucket is AES256");
      await send("PutTableBucketEncryptionCommand", {
        tableBucketARN: arn, encryptionConfiguration: { sseAlgorithm: "aws:kms", kmsKeyArn: KMS_KEY },
      });
      assert.deepEqual(await get(), { sseAlgorithm: "aws:kms", kmsKeyArn: KMS_KEY }, "the KMS configuration reads back");
      await send("DeleteTableBucketEncryptionCommand", { tableBucketARN: arn });
      assert.deepEqual(await get(), { sseAlgorithm: "AES256" }, "Delete returns the bucket to AES256");
    });

    test("a policy is stored verbatim and deleted", async () => {
      const arn = await createBucket("js-policy");
      await send("PutTableBucketPolicyCommand", { tableBucketARN: arn, resourcePolicy: POLICY });
      const got = await send("GetTableBucketPolicyCommand", { tableBucketARN: arn });
      assert.equal(got.resourcePolicy, POLICY, "the policy reads back exactly as it was put");
      await send("DeleteTableBucketPolicyCommand", { tableBucketARN: arn });
      await assert.rejects(send("GetTableBucketPolicyCommand", { tableBucketARN: arn }),
        modeled("NotFoundException", 404), "after Delete there is no policy");
    });

    test("a missing bucket is NotFoundException", async () => {
      await assert.rejects(send("GetTableBucketEncryptionCommand", { tableBucketARN: bucketArn("js-no-such-bucket") }),
        modeled("NotFoundException", 404), "encryption of a missing bucket is not found");
      await assert.rejects(send("ListTagsForResourceCommand", { resourceArn: bucketArn("js-no-such-bucket") }),
        modeled("NotFoundException", 404), "tags of a missing bucket are not found");
    });

    test("a broken rule is BadRequestException", async () => {
      const arn = await createBucket("js-bad-request");
      await assert.rejects(send("PutTableBucketEncryptionCommand", {
        tableBucketARN: arn, encryptionConfiguration: { sseAlgorithm: "aws:kms" },
      }), modeled("BadRequestException", 400), "aws:kms without a key is refused");
      await assert.rejects(send("TagResourceCommand", { resourceArn: arn, tags: { "aws:owner": "me" } }),
        modeled("BadRequestException", 400), "an aws: tag key is refused");
      await assert.rejects(send("PutTableBucketPolicyCommand", { tableBucketARN: arn, resourcePolicy: "{}" }),
        modeled("BadRequestException", 400), "a policy without Version and Statement is refused");
    });

    test("a stale replication version token is ConflictException", async () => {
      const source = await createBucket("js-rep-source");
      const dest = await createBucket("js-rep-dest");
      const configuration = { role: "arn:aws:iam::000000000000:role/replication",
        rules: [{ destinations: [{ destinationTableBucketARN: dest }] }] };
      const first = await send("PutTableBucketReplicationCommand", { tableBucketARN: source, configuration });
      await send("PutTableBucketReplicationCommand", { tableBucketARN: source, configuration, versionToken: first.versionToken });
      await assert.rejects(
        send("PutTableBucketReplicationCommand", { tableBucketARN: source, configuration, versionToken: first.versionToken }),
        modeled("ConflictException", 409), "a token from before the last change conflicts");
    });
  });

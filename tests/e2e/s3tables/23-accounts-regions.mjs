// Accounts and regions with the AWS SDK for JavaScript v3: a client whose region is set in code
// acts in that region, and a 12-digit access key is the account, so ARNs carry both, listings show
// only that scope, the same bucket name lives in two scopes independently, another scope's ARN is
// not found, and S3 bucket names stay one name space across accounts (@aws-sdk/client-s3).
// s3tables/24-accounts-regions.py checks the same with boto3, the aws CLI and the Iceberg REST catalog.
//
// Run: cd tests/e2e && npm ci && node --test s3tables/23-accounts-regions.mjs

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";

import { ACCOUNT, FloeServer, REGION, importOrSkip, modeled } from "../floe_server.mjs";

const sdk = await importOrSkip("@aws-sdk/client-s3tables");
const s3sdk = await importOrSkip("@aws-sdk/client-s3");
const WEST = "eu-west-1";
const A1 = "111111111111";
const A2 = "222222222222";
const SCHEMA = { fields: [{ name: "id", type: "long", required: true }] };

const arnOf = (region, account, name) => `arn:aws:s3tables:${region}:${account}:bucket/${name}`;

describe("accounts and regions with the JS SDK",
  { skip: sdk && s3sdk ? false : "@aws-sdk/client-s3tables or client-s3 is not installed (run npm ci in tests/e2e)" },
  () => {
    let server;
    const clients = [];

    // A client whose region and access key are set in code, as an application sets them.
    const client = (region, accessKeyId = "floe-test") => {
      const c = new sdk.S3TablesClient({
        endpoint: server.endpoint, region, maxAttempts: 1,
        credentials: { accessKeyId, secretAccessKey: "floe-test" },
      });
      clients.push(c);
      return c;
    };
    const s3Client = (region, accessKeyId) => {
      const c = new s3sdk.S3Client({
        endpoint: server.endpoint, region, forcePathStyle: true, maxAttempts: 1,
        credentials: { accessKeyId, secretAccessKey: "floe-test" },
      });
      clients.push(c);
      return c;
    };
    const send = (c, command, input) => c.send(new sdk[command](input));
    const names = async (c, prefix) =>
      (await send(c, "ListTableBucketsCommand", { prefix })).tableBuckets.map((b) => b.name);

    before(async () => {
      server = new FloeServer();
      await server.start();
    });

    after(async () => {
      for (const c of clients)
        c.destroy();
      await server?.cleanup();
    });

    test("a client with region eu-west-1 set in code gets eu-west-1 ARNs", async () => {
      const west = client(WEST);
      const { arn } = await send(west, "CreateTableBucketCommand", { name: "js-west" });
      assert.equal(arn, arnOf(WEST, ACCOUNT, "js-west"), "the ARN names the client's region");
      await send(west, "CreateNamespaceCommand", { tableBucketARN: arn, namespace: ["sales"] });
      const { tableARN } = await send(west, "CreateTableCommand", {
        tableBucketARN: arn, namespace: "sales", name: "orders", format: "ICEBERG",
        metadata: { iceberg: { schema: SCHEMA } },
      });
      assert.ok(tableARN.startsWith(`${arn}/table/`), "the table's ARN is in the same region");
      const table = await send(west, "GetTableCommand", { tableArn: tableARN });
      assert.equal(table.ownerAccountId, ACCOUNT, "the table's owner is the default account");
    });

    test("clients in two regions do not see each other's buckets", async () => {
      const east = client(REGION);
      const west = client(WEST);
      await send(east, "CreateTableBucketCommand", { name: "js-iso-east" });
      await send(west, "CreateTableBucketCommand", { name: "js-iso-west" });
      assert.deepEqual(await names(east, "js-iso-"), ["js-iso-east"], "the us-east-1 client lists only its bucket");
      assert.deepEqual(await names(west, "js-iso-"), ["js-iso-west"], "the eu-west-1 client lists only its bucket");
      await assert.rejects(send(east, "GetTableBucketCommand", { tableBucketARN: arnOf(WEST, ACCOUNT, "js-iso-west") }),
        modeled("NotFoundException", 404), "a us-east-1 client does not find an eu-west-1 bucket by its ARN");
      await assert.rejects(
        send(west, "ListNamespacesCommand", { tableBucketARN: arnOf(REGION, ACCOUNT, "js-iso-east") }),
        modeled("NotFoundException", 404), "nor does an eu-west-1 client find a us-east-1 bucket");
    });

    test("the same name in two regions and two accounts is four buckets", async () => {
      const scopes = [[REGION, A1], [WEST, A1], [REGION, A2], [WEST, A2]];
      const ids = new Set();
      for (const [region, account] of scopes) {
        const c = client(region, account);
        const { arn } = await send(c, "CreateTableBucketCommand", { name: "js-same" });
        assert.equal(arn, arnOf(region, account, "js-same"), "a 12-digit access key is the ARN's account");
        const got = await send(c, "GetTableBucketCommand", { tableBucketARN: arn });
        assert.equal(got.ownerAccountId, account, "the owner is the access key's account");
        ids.add(got.tableBucketId);
        await assert.rejects(send(c, "CreateTableBucketCommand", { name: "js-same" }),
          modeled("ConflictException", 409), "the name is taken within its own scope");
      }
      assert.equal(ids.size, 4, "four scopes hold four distinct buckets");
    });

    test("S3 bucket names are shared by every account", async () => {
      const one = s3Client(REGION, A1);
      const two = s3Client(WEST, A2);
      await one.send(new s3sdk.CreateBucketCommand({ Bucket: "js-global-name" }));
      await assert.rejects(two.send(new s3sdk.CreateBucketCommand({
        Bucket: "js-global-name", CreateBucketConfiguration: { LocationConstraint: WEST },
      })), (err) => {
        assert.equal(err.name, "BucketAlreadyExists", `another account's name is BucketAlreadyExists, got ${err.name}`);
        return true;
      });
      await assert.rejects(one.send(new s3sdk.CreateBucketCommand({ Bucket: "js-global-name" })), (err) => {
        assert.equal(err.name, "BucketAlreadyOwnedByYou", `one's own name is BucketAlreadyOwnedByYou, got ${err.name}`);
        return true;
      });
      const listed = async (c) => (await c.send(new s3sdk.ListBucketsCommand({}))).Buckets?.map((b) => b.Name) ?? [];
      assert.ok((await listed(one)).includes("js-global-name"), "ListBuckets of the owner shows the bucket");
      assert.ok(!(await listed(two)).includes("js-global-name"), "ListBuckets of another account does not");
    });
  });

// Namespaces end to end with the AWS SDK for JavaScript v3 (@aws-sdk/client-s3tables): create, get,
// list, delete, AWS's naming rules, the single namespace level, conflicts, missing buckets and
// namespaces, pagination by hand and with the SDK's paginator, and state that survives a restart.
// s3tables/30-namespaces.py covers the same rules with boto3 and the aws CLI; the JS SDK checks almost
// nothing on the client, so every invalid value here reaches the server and the answer is the
// server's modeled exception.
//
// Run: cd tests/e2e && npm ci && node --test s3tables/32-namespaces.mjs

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";

import { ACCOUNT, FloeServer, bucketArn, importOrSkip, s3tablesClient, modeled } from "../floe_server.mjs";

const sdk = await importOrSkip("@aws-sdk/client-s3tables");
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const SUMMARY_FIELDS = ["createdAt", "createdBy", "namespace", "namespaceId", "ownerAccountId", "tableBucketId"];

describe("namespaces with @aws-sdk/client-s3tables",
  { skip: sdk ? false : "@aws-sdk/client-s3tables is not installed (run npm ci in tests/e2e)" }, () => {
    let server;
    let s3tables;
    let home; // the ARN of the bucket most tests put their namespaces in

    const send = (command, input) => s3tables.send(new sdk[command](input));
    const createBucket = async (name) => (await send("CreateTableBucketCommand", { name })).arn;
    const createNamespace = (name, arn = home) => send("CreateNamespaceCommand", { tableBucketARN: arn, namespace: [name] });
    const getNamespace = (name, arn = home) => send("GetNamespaceCommand", { tableBucketARN: arn, namespace: name });
    const deleteNamespace = (name, arn = home) => send("DeleteNamespaceCommand", { tableBucketARN: arn, namespace: name });
    const listNames = async (input) =>
      (await send("ListNamespacesCommand", { tableBucketARN: home, ...input })).namespaces.map((n) => n.namespace[0]);

    before(async () => {
      server = new FloeServer();
      await server.start();
      s3tables = s3tablesClient(sdk, server);
      home = await createBucket("js-ns-home");
    });

    after(async () => {
      s3tables?.destroy();
      await server?.cleanup();
    });

    test("CreateNamespace echoes the bucket ARN and the namespace", async () => {
      const resp = await createNamespace("created");
      assert.equal(resp.$metadata.httpStatusCode, 200, "CreateNamespace answers 200");
      assert.equal(resp.tableBucketARN, home, "CreateNamespace returns the bucket's ARN");
      assert.deepEqual(resp.namespace, ["created"], "CreateNamespace returns the namespace as a one-element list");
    });

    test("GetNamespace reads back every field of the created namespace", async () => {
      const started = Date.now();
      await createNamespace("readback");
      const got = await getNamespace("readback");
      const bucket = await send("GetTableBucketCommand", { tableBucketARN: home });
      assert.deepEqual(got.namespace, ["readback"], "GetNamespace returns the name as a one-element list");
      assert.equal(got.createdBy, ACCOUNT, "createdBy is the account");
      assert.equal(got.ownerAccountId, ACCOUNT, "ownerAccountId is the account");
      assert.equal(got.tableBucketId, bucket.tableBucketId, "tableBucketId is the id of the bucket holding the namespace");
      assert.match(got.namespaceId, UUID_V4, "namespaceId is a random (version 4) UUID");
      assert.notEqual(got.namespaceId, bucket.tableBucketId, "the namespace has an id of its own");
      assert.ok(got.createdAt instanceof Date, "the SDK parses createdAt into a Date");
      assert.ok(Math.abs(got.createdAt.getTime() - started) < 60000, "createdAt is the time of creation");
      const again = await getNamespace("readback");
      assert.equal(again.namespaceId, got.namespaceId, "the namespace id is stable across reads");
    });

    test("valid namespace names are accepted", async () => {
      for (const name of ["a", "7", "x".repeat(255), "sales_2024", "0abc", "with_under_score9", "a__b", "awx",
        "data_aws"]) {
        const resp = await createNamespace(name);
        assert.deepEqual(resp.namespace, [name], `the valid name ${JSON.stringify(name)} is accepted`);
        assert.deepEqual((await getNamespace(name)).namespace, [name], `the namespace ${JSON.stringify(name)} reads back`);
      }
    });

    test("invalid namespace names are refused with BadRequestException", async () => {
      const invalid = ["", "x".repeat(256), "Upper", "has-hyphen", "dot.ted", "_leading", "trailing_", "_", "aws",
        "awsdata", "aws_data", "spa ce", "slash/ed", "ünïcode"];
      for (const name of invalid) {
        await assert.rejects(createNamespace(name), modeled("BadRequestException", 400),
          `the name ${JSON.stringify(name)} breaks AWS's naming rules and is refused`);
      }
      const names = await listNames({});
      for (const name of invalid)
        assert.ok(!names.includes(name), `a refused name (${JSON.stringify(name)}) creates no namespace`);
    });

    test("exactly one namespace level is accepted", async () => {
      await assert.rejects(send("CreateNamespaceCommand", { tableBucketARN: home, namespace: ["lvl_a", "lvl_b"] }),
        modeled("BadRequestException", 400), "a nested namespace of two levels is refused");
      await assert.rejects(send("CreateNamespaceCommand", { tableBucketARN: home, namespace: [] }),
        modeled("BadRequestException", 400), "an empty namespace list is refused");
      const names = await listNames({ prefix: "lvl_" });
      assert.deepEqual(names, [], "a refused nested namespace creates neither level");
    });

    test("creating a namespace whose name is taken in the bucket is ConflictException", async () => {
      await createNamespace("dupe");
      const { namespaceId } = await getNamespace("dupe");
      await assert.rejects(createNamespace("dupe"), modeled("ConflictException", 409),
        "a second namespace with the same name in the same bucket is refused");
      assert.equal((await getNamespace("dupe")).namespaceId, namespaceId, "the refused create leaves the first namespace as it was");
    });

    test("the same name in another bucket is a different namespace", async () => {
      const other = await createBucket("js-ns-other");
      await createNamespace("shared");
      const resp = await createNamespace("shared", other);
      assert.deepEqual(resp.namespace, ["shared"], "namespace names are unique per bucket, not globally");
      assert.equal(resp.tableBucketARN, other, "the namespace is created in the bucket it was asked for");
      const here = await getNamespace("shared");
      const there = await getNamespace("shared", other);
      assert.notEqual(there.namespaceId, here.namespaceId, "each bucket's namespace has its own id");
      assert.notEqual(there.tableBucketId, here.tableBucketId, "each namespace names its own bucket");
      await deleteNamespace("shared", other);
      assert.deepEqual((await getNamespace("shared")).namespaceId, here.namespaceId,
        "deleting the namespace in one bucket leaves the other bucket's alone");
    });

    test("a missing bucket or namespace is NotFoundException", async () => {
      const missing = bucketArn("js-no-such-bucket");
      await assert.rejects(createNamespace("x", missing), modeled("NotFoundException", 404),
        "CreateNamespace in a missing bucket is not found");
      await assert.rejects(getNamespace("x", missing), modeled("NotFoundException", 404),
        "GetNamespace in a missing bucket is not found");
      await assert.rejects(send("ListNamespacesCommand", { tableBucketARN: missing }), modeled("NotFoundException", 404),
        "ListNamespaces of a missing bucket is not found");
      await assert.rejects(deleteNamespace("x", missing), modeled("NotFoundException", 404),
        "DeleteNamespace in a missing bucket is not found");
      await assert.rejects(getNamespace("nope"), modeled("NotFoundException", 404),
        "GetNamespace of a missing namespace is not found");
      await assert.rejects(deleteNamespace("nope"), modeled("NotFoundException", 404),
        "DeleteNamespace of a missing namespace is not found");
    });

    test("the ARN of another account is access denied, of another region names no bucket", async () => {
      await createNamespace("elsewhere");
      const otherAccount = "arn:aws:s3tables:us-east-1:111122223333:bucket/js-ns-home";
      const otherRegion = `arn:aws:s3tables:eu-west-1:${ACCOUNT}:bucket/js-ns-home`;
      const answers = [[otherAccount, "another account", ["AccessDeniedException", 403], "access denied"],
        [otherRegion, "another region", ["NotFoundException", 404], "not found"]];
      for (const [arn, where, [name, status], what] of answers) {
        await assert.rejects(getNamespace("elsewhere", arn), modeled(name, status),
          `a namespace reached through the same bucket name in ${where} is ${what}`);
        await assert.rejects(createNamespace("elsewhere_new", arn), modeled(name, status),
          `CreateNamespace through a bucket ARN of ${where} is ${what}`);
        await assert.rejects(send("ListNamespacesCommand", { tableBucketARN: arn }), modeled(name, status),
          `ListNamespaces through a bucket ARN of ${where} is ${what}`);
        await assert.rejects(deleteNamespace("elsewhere", arn), modeled(name, status),
          `DeleteNamespace through a bucket ARN of ${where} is ${what}`);
      }
      assert.deepEqual((await getNamespace("elsewhere")).namespace, ["elsewhere"],
        "the namespace is still there under its own bucket's ARN");
      assert.deepEqual(await listNames({ prefix: "elsewhere" }), ["elsewhere"], "nothing was created through the foreign ARNs");
    });

    test("DeleteNamespace answers 204 and the namespace is gone; the name can be reused", async () => {
      await createNamespace("gone");
      const { namespaceId } = await getNamespace("gone");
      const resp = await deleteNamespace("gone");
      assert.equal(resp.$metadata.httpStatusCode, 204, "DeleteNamespace answers 204");
      await assert.rejects(getNamespace("gone"), modeled("NotFoundException", 404), "a deleted namespace is not found");
      assert.deepEqual(await listNames({ prefix: "gone" }), [], "a deleted namespace is not listed");
      assert.deepEqual((await createNamespace("gone")).namespace, ["gone"], "the name can be reused after a delete");
      assert.notEqual((await getNamespace("gone")).namespaceId, namespaceId, "the new namespace has a new id");
    });

    test("ListNamespaces sorts, filters by prefix and summarises each namespace", async () => {
      const arn = await createBucket("js-ns-listing");
      const bucket = await send("GetTableBucketCommand", { tableBucketARN: arn });
      for (const name of ["b_two", "a_one", "b_one", "c_three"])
        await createNamespace(name, arn);
      const all = await send("ListNamespacesCommand", { tableBucketARN: arn });
      assert.deepEqual(all.namespaces.map((n) => n.namespace), [["a_one"], ["b_one"], ["b_two"], ["c_three"]],
        "every namespace of the bucket is listed once, in name order, each as a one-element list");
      assert.equal(all.continuationToken, undefined, "a listing that fits one page has no continuation token");
      const summary = all.namespaces[0];
      assert.deepEqual(Object.keys(summary).sort(), SUMMARY_FIELDS, "a summary has the fields AWS returns");
      const got = await getNamespace("a_one", arn);
      assert.equal(summary.namespaceId, got.namespaceId, "the summary carries the namespace's id");
      assert.equal(summary.tableBucketId, bucket.tableBucketId, "the summary carries the bucket's id");
      assert.equal(summary.createdBy, ACCOUNT, "the summary carries createdBy");
      assert.equal(summary.ownerAccountId, ACCOUNT, "the summary carries the owner account");
      assert.equal(summary.createdAt.getTime(), got.createdAt.getTime(), "the summary carries the same createdAt");
      const prefixed = await send("ListNamespacesCommand", { tableBucketARN: arn, prefix: "b_" });
      assert.deepEqual(prefixed.namespaces.map((n) => n.namespace[0]), ["b_one", "b_two"],
        "a prefix keeps only the names that start with it");
      const none = await send("ListNamespacesCommand", { tableBucketARN: arn, prefix: "z" });
      assert.deepEqual(none.namespaces, [], "a prefix nothing matches lists nothing");
      const empty = await send("ListNamespacesCommand", { tableBucketARN: await createBucket("js-ns-empty") });
      assert.deepEqual(empty.namespaces, [], "a bucket without namespaces lists none");
    });

    test("ListNamespaces pages with continuation tokens that stay correct while namespaces are created", async () => {
      const arn = await createBucket("js-ns-paging");
      for (let i = 0; i < 5; i++)
        await createNamespace(`p_${i}`, arn);
      await createNamespace("q_0", arn);
      const seen = [];
      let continuationToken;
      let pages = 0;
      do {
        const resp = await send("ListNamespacesCommand", { tableBucketARN: arn, prefix: "p_", maxNamespaces: 2, continuationToken });
        assert.ok(resp.namespaces.length <= 2, "a page never holds more than maxNamespaces");
        seen.push(...resp.namespaces.map((n) => n.namespace[0]));
        pages += 1;
        if (pages === 1) {
          await createNamespace("p_0a", arn); // sorts before the next page: must not shift it
          await createNamespace("p_9", arn); // sorts after: must appear
        }
        continuationToken = resp.continuationToken;
      } while (continuationToken);
      assert.deepEqual(seen, ["p_0", "p_1", "p_2", "p_3", "p_4", "p_9"],
        "every namespace with the prefix is listed once, in order, and one created after the cursor shows up");
      assert.equal(pages, 3, "6 namespaces at 2 a page take 3 pages");
    });

    test("paginateListNamespaces walks every page", async () => {
      const arn = await createBucket("js-ns-walk");
      for (let i = 0; i < 5; i++)
        await createNamespace(`walk_${i}`, arn);
      const names = [];
      let pages = 0;
      for await (const page of sdk.paginateListNamespaces({ client: s3tables, pageSize: 2 }, { tableBucketARN: arn })) {
        assert.ok(page.namespaces.length <= 2, "the paginator's pageSize becomes maxNamespaces");
        names.push(...page.namespaces.map((n) => n.namespace[0]));
        pages += 1;
      }
      assert.deepEqual(names, [0, 1, 2, 3, 4].map((i) => `walk_${i}`), "the SDK's paginator sees every namespace once, in order");
      assert.equal(pages, 3, "5 namespaces at 2 a page take 3 pages");
    });

    test("maxNamespaces outside 1 to 1000 is BadRequestException", async () => {
      for (const maxNamespaces of [0, 1001]) {
        await assert.rejects(send("ListNamespacesCommand", { tableBucketARN: home, maxNamespaces }),
          modeled("BadRequestException", 400), `maxNamespaces=${maxNamespaces} is refused`);
      }
      for (const maxNamespaces of [1, 1000]) {
        const resp = await send("ListNamespacesCommand", { tableBucketARN: home, maxNamespaces });
        assert.ok(resp.namespaces.length >= 1 && resp.namespaces.length <= maxNamespaces,
          `maxNamespaces=${maxNamespaces} is accepted and honoured`);
      }
    });

    test("a garbage continuation token is BadRequestException", async () => {
      await assert.rejects(send("ListNamespacesCommand", { tableBucketARN: home, continuationToken: "garbage!" }),
        modeled("BadRequestException", 400), "a continuation token the server never issued is refused");
      await assert.rejects(send("ListNamespacesCommand", { tableBucketARN: home, continuationToken: "Z2FyYmFnZQ" }),
        modeled("BadRequestException", 400), "well-formed base64 that is not a token is refused");
    });

    test("namespaces survive a restart", async () => {
      const arn = await createBucket("js-ns-durable");
      await createNamespace("durable", arn);
      await createNamespace("dropped", arn);
      await deleteNamespace("dropped", arn);
      const beforeRestart = await getNamespace("durable", arn);
      await server.restart();
      const afterRestart = await getNamespace("durable", arn);
      assert.equal(afterRestart.namespaceId, beforeRestart.namespaceId, "the namespace id is the same after a restart");
      assert.equal(afterRestart.tableBucketId, beforeRestart.tableBucketId, "the bucket id is the same after a restart");
      assert.equal(afterRestart.createdAt.getTime(), beforeRestart.createdAt.getTime(), "createdAt is the same after a restart");
      await assert.rejects(getNamespace("dropped", arn), modeled("NotFoundException", 404),
        "a namespace deleted before the restart stays deleted");
      const listed = await send("ListNamespacesCommand", { tableBucketARN: arn });
      assert.deepEqual(listed.namespaces.map((n) => n.namespace[0]), ["durable"], "the namespace is still listed after a restart");
      await assert.rejects(createNamespace("durable", arn), modeled("ConflictException", 409),
        "the name is still taken after a restart");
      await assert.rejects(send("DeleteTableBucketCommand", { tableBucketARN: arn }), modeled("ConflictException", 409),
        "the bucket still holds its namespace after a restart and cannot be deleted");
    });
  });

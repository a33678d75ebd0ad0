// Table configuration end to end with the AWS SDK for JavaScript v3 (@aws-sdk/client-s3tables):
// encryption and storage class taken from the bucket at creation or given by CreateTable, a
// policy round trip, maintenance settings and job status, record expiration, and replication
// with its version token and status, plus the NotFound, BadRequest and Conflict answers a JS
// caller sees as modeled exceptions. s3tables/45-table-config.py covers every operation with boto3; this
// file proves a second SDK reads the same wire.
//
// Run: cd tests/e2e && npm ci && node --test s3tables/46-table-config.mjs

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";

import { ACCOUNT, FloeServer, bucketArn, importOrSkip, s3tablesClient, modeled } from "../floe_server.mjs";

const sdk = await importOrSkip("@aws-sdk/client-s3tables");
const KMS_KEY = `arn:aws:kms:us-east-1:${ACCOUNT}:key/1234abcd-12ab-34cd-56ef-1234567890ab`;
const ROLE = `arn:aws:iam::${ACCOUNT}:role/replication`;

const replication = (...destinations) => ({
  role: ROLE,
  rules: [{ destinations: destinations.map((arn) => ({ destinationTableBucketARN: arn })) }],
});

describe("table configuration with @aws-sdk/client-s3tables",
  { skip: sdk ? false : "@aws-sdk/client-s3tables is not installed (run npm ci in tests/e2e)" }, () => {
    let server;
    let s3tables;

    const send = (command, input) => s3tables.send(new sdk[command](input));
    const createBucket = async (name, input = {}) => {
      const { arn } = await send("CreateTableBucketCommand", { name, ...input });
      await send("CreateNamespaceCommand", { tableBucketARN: arn, namespace: ["sales"] });
      return arn;
    };
    const where = (bucket, name) => ({ tableBucketARN: bucket, namespace: "sales", name });
    const createTable = async (bucket, name, input = {}) =>
      (await send("CreateTableCommand", { ...where(bucket, name), format: "ICEBERG", ...input })).tableARN;

    before(async () => {
      server = new FloeServer();
      await server.start();
      s3tables = s3tablesClient(sdk, server);
    });

    after(async () => {
      s3tables?.destroy();
      await server?.cleanup();
    });

    test("a table takes its bucket's encryption and storage class unless CreateTable gives its own", async () => {
      const bucket = await createBucket("js-inherit", {
        encryptionConfiguration: { sseAlgorithm: "aws:kms", kmsKeyArn: KMS_KEY },
        storageClassConfiguration: { storageClass: "INTELLIGENT_TIERING" },
      });
      await createTable(bucket, "inherited");
      await createTable(bucket, "own", {
        encryptionConfiguration: { sseAlgorithm: "AES256" },
        storageClassConfiguration: { storageClass: "STANDARD" },
      });
      const encryption = async (name) =>
        (await send("GetTableEncryptionCommand", where(bucket, name))).encryptionConfiguration;
      const storageClass = async (name) =>
        (await send("GetTableStorageClassCommand", where(bucket, name))).storageClassConfiguration.storageClass;
      assert.deepEqual(await encryption("inherited"), { sseAlgorithm: "aws:kms", kmsKeyArn: KMS_KEY },
        "a table created without encryption settings takes the bucket's");
      assert.equal(await storageClass("inherited"), "INTELLIGENT_TIERING",
        "a table created without a storage class takes the bucket's");
      assert.deepEqual(await encryption("own"), { sseAlgorithm: "AES256" }, "encryption given at creation wins");
      assert.equal(await storageClass("own"), "STANDARD", "a storage class given at creation wins");
      await send("PutTableBucketEncryptionCommand", {
        tableBucketARN: bucket, encryptionConfiguration: { sseAlgorithm: "AES256" },
      });
      assert.deepEqual(await encryption("inherited"), { sseAlgorithm: "aws:kms", kmsKeyArn: KMS_KEY },
        "a later change to the bucket leaves the table's encryption alone");
    });

    test("a table policy is stored verbatim, then deleted", async () => {
      const bucket = await createBucket("js-policy");
      const arn = await createTable(bucket, "t");
      const policy = JSON.stringify({
        Version: "2012-10-17",
        Statement: [{ Effect: "Allow", Principal: { AWS: `arn:aws:iam::${ACCOUNT}:root` },
          Action: "s3tables:GetTable", Resource: arn }],
      });
      await assert.rejects(send("GetTablePolicyCommand", where(bucket, "t")), modeled("NotFoundException", 404),
        "a table without a policy has none to get");
      await send("PutTablePolicyCommand", { ...where(bucket, "t"), resourcePolicy: policy });
      assert.equal((await send("GetTablePolicyCommand", where(bucket, "t"))).resourcePolicy, policy,
        "the policy reads back exactly as it was put");
      await assert.rejects(send("PutTablePolicyCommand", { ...where(bucket, "t"), resourcePolicy: "{}" }),
        modeled("BadRequestException", 400), "a policy without Version and Statement is refused");
      await send("DeleteTablePolicyCommand", where(bucket, "t"));
      await assert.rejects(send("GetTablePolicyCommand", where(bucket, "t")), modeled("NotFoundException", 404),
        "after Delete there is no policy");
    });

    test("maintenance settings read back, the target size is 64 to 512 MB, and jobs report honestly", async () => {
      const bucket = await createBucket("js-maintenance");
      await createTable(bucket, "t");
      const value = { status: "enabled", settings: { icebergCompaction: { targetFileSizeMB: 128, strategy: "sort" } } };
      await send("PutTableMaintenanceConfigurationCommand", { ...where(bucket, "t"), type: "icebergCompaction", value });
      const got = await send("GetTableMaintenanceConfigurationCommand", where(bucket, "t"));
      assert.deepEqual(got.configuration.icebergCompaction, value, "the compaction settings that were put read back");
      assert.deepEqual(got.configuration.icebergSnapshotManagement, {
        status: "enabled", settings: { icebergSnapshotManagement: { minSnapshotsToKeep: 1, maxSnapshotAgeHours: 120 } },
      }, "snapshot management keeps AWS's defaults");
      await assert.rejects(send("PutTableMaintenanceConfigurationCommand", {
        ...where(bucket, "t"), type: "icebergCompaction",
        value: { settings: { icebergCompaction: { targetFileSizeMB: 1024 } } },
      }), modeled("BadRequestException", 400), "a 1024 MB target file size is refused");
      await send("PutTableMaintenanceConfigurationCommand", {
        ...where(bucket, "t"), type: "icebergSnapshotManagement", value: { status: "disabled" },
      });
      const jobs = (await send("GetTableMaintenanceJobStatusCommand", where(bucket, "t"))).status;
      assert.deepEqual(Object.fromEntries(Object.entries(jobs).map(([k, v]) => [k, v.status])), {
        icebergCompaction: "Not_Yet_Run",
        icebergSnapshotManagement: "Disabled",
        icebergUnreferencedFileRemoval: "Not_Yet_Run",
      }, "an enabled job has not run yet and a disabled one says so");
    });

    test("record expiration reads back and drives its job status", async () => {
      const bucket = await createBucket("js-expiration");
      const arn = await createTable(bucket, "t");
      const get = async () => (await send("GetTableRecordExpirationConfigurationCommand", { tableArn: arn })).configuration;
      const job = async () => (await send("GetTableRecordExpirationJobStatusCommand", { tableArn: arn })).status;
      assert.deepEqual(await get(), { status: "disabled" }, "records do not expire by default");
      assert.equal(await job(), "Disabled", "the job of a table without expiration is Disabled");
      await send("PutTableRecordExpirationConfigurationCommand", {
        tableArn: arn, value: { status: "enabled", settings: { days: 30 } },
      });
      assert.deepEqual(await get(), { status: "enabled", settings: { days: 30 } }, "the configuration reads back");
      assert.equal(await job(), "NotYetRun", "an enabled expiration job has not run yet");
      await assert.rejects(send("PutTableRecordExpirationConfigurationCommand", {
        tableArn: arn, value: { status: "enabled" },
      }), modeled("BadRequestException", 400), "enabling without a number of days is refused");
    });

    test("replication is versioned, reports a status per destination, and refuses stale tokens", async () => {
      const bucket = await createBucket("js-rep-source");
      const dest = await createBucket("js-rep-dest");
      const arn = await createTable(bucket, "t");
      const first = await send("PutTableReplicationCommand", { tableArn: arn, configuration: replication(dest) });
      assert.equal(first.status, "pending", "PutTableReplication reports pending: nothing is copied yet");
      const got = await send("GetTableReplicationCommand", { tableArn: arn });
      assert.deepEqual(got.configuration, replication(dest), "the configuration that was put reads back");
      assert.equal(got.versionToken, first.versionToken, "Get returns the token Put returned");
      const status = await send("GetTableReplicationStatusCommand", { tableArn: arn });
      assert.equal(status.sourceTableArn, arn, "the status names the source table");
      assert.deepEqual(status.destinations, [{ replicationStatus: "pending", destinationTableBucketArn: dest }],
        "each destination is pending, since nothing has been copied");
      const second = await send("PutTableReplicationCommand", {
        tableArn: arn, configuration: replication(dest), versionToken: first.versionToken,
      });
      assert.notEqual(second.versionToken, first.versionToken, "every change gets a new version token");
      await assert.rejects(send("DeleteTableReplicationCommand", { tableArn: arn, versionToken: first.versionToken }),
        modeled("ConflictException", 409), "a token from before the last change conflicts");
      await send("DeleteTableReplicationCommand", { tableArn: arn, versionToken: second.versionToken });
      await assert.rejects(send("GetTableReplicationCommand", { tableArn: arn }), modeled("NotFoundException", 404),
        "after Delete there is no replication configuration");
    });

    test("a missing table is NotFoundException", async () => {
      const bucket = await createBucket("js-missing");
      const missing = `${bucketArn("js-missing")}/table/0d7c3a55-34f6-4a34-9e2e-4a1a3a9f0c11`;
      await assert.rejects(send("GetTableEncryptionCommand", where(bucket, "nope")), modeled("NotFoundException", 404),
        "encryption of a missing table is not found");
      await assert.rejects(send("GetTableMaintenanceJobStatusCommand", where(bucket, "nope")),
        modeled("NotFoundException", 404), "job status of a missing table is not found");
      await assert.rejects(send("GetTableRecordExpirationConfigurationCommand", { tableArn: missing }),
        modeled("NotFoundException", 404), "record expiration of a missing table is not found");
      await assert.rejects(send("GetTableReplicationStatusCommand", { tableArn: missing }),
        modeled("NotFoundException", 404), "replication status of a missing table is not found");
    });
  });

#!/usr/bin/python3
"""Table configuration end to end with boto3: encryption and storage class (taken from the bucket
at creation unless CreateTable gives its own, and not changed by later bucket changes), policy,
maintenance and its job status, record expiration and its job status, and replication with its
version tokens and status. Each is read back after it is written; AWS's defaults; the refusals
(missing table, bad enum or range, stale version token, missing configuration); removal with the
table; and state that survives a restart."""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from floe_server import FloeTestCase, main  # noqa: E402

ACCOUNT = "000000000000"
ARN_PREFIX = "arn:aws:s3tables:us-east-1:%s:bucket/" % ACCOUNT
KMS_KEY = "arn:aws:kms:us-east-1:%s:key/1234abcd-12ab-34cd-56ef-1234567890ab" % ACCOUNT
OTHER_KMS_KEY = "arn:aws:kms:us-east-1:%s:key/9999abcd-12ab-34cd-56ef-1234567890ab" % ACCOUNT
ROLE = "arn:aws:iam::%s:role/replication" % ACCOUNT
COMPACTION = "icebergCompaction"
SNAPSHOTS = "icebergSnapshotManagement"
REMOVAL = "icebergUnreferencedFileRemoval"
DEFAULT_MAINTENANCE = {
    COMPACTION: {"status": "enabled", "settings": {COMPACTION: {"targetFileSizeMB": 512, "strategy": "auto"}}},
    SNAPSHOTS: {"status": "enabled",
                "settings": {SNAPSHOTS: {"minSnapshotsToKeep": 1, "maxSnapshotAgeHours": 120}}},
}
NOT_YET_RUN = {COMPACTION: "Not_Yet_Run", SNAPSHOTS: "Not_Yet_Run", REMOVAL: "Not_Yet_Run"}
MISSING_TABLE_ARN = ARN_PREFIX + "cfg-home/table/0d7c3a55-34f6-4a34-9e2e-4a1a3a9f0c11"


def policy(table_arn):
    return json.dumps({
        "Version": "2012-10-17",
        "Statement": [{
            "Sid": "ReadTable", "Effect": "Allow",
            "Principal": {"AWS": "arn:aws:iam::%s:root" % ACCOUNT},
            "Action": ["s3tables:GetTable"], "Resource": table_arn,
        }],
    })


def replication(*destinations, role=ROLE):
    return {"role": role, "rules": [{"destinations": [{"destinationTableBucketARN": d} for d in destinations]}]}


class TableConfigTestCase(FloeTestCase):
    """One bucket with a namespace per test class; tables are created by each test."""

    bucket_name = "cfg-home"

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.arn = cls.s3tables.create_table_bucket(name=cls.bucket_name)["arn"]
        cls.s3tables.create_namespace(tableBucketARN=cls.arn, namespace=["sales"])

    def bucket(self, name, **kwargs):
        arn = self.s3tables.create_table_bucket(name=name, **kwargs)["arn"]
        self.s3tables.create_namespace(tableBucketARN=arn, namespace=["sales"])
        return arn

    def table(self, name, bucket=None, **kwargs):
        """Creates table `name` in namespace sales; returns its ARN."""
        return self.s3tables.create_table(tableBucketARN=bucket or self.arn, namespace="sales", name=name,
                                          format="ICEBERG", **kwargs)["tableARN"]

    def where(self, name, bucket=None):
        return {"tableBucketARN": bucket or self.arn, "namespace": "sales", "name": name}

    def status(self, resp):
        return resp["ResponseMetadata"]["HTTPStatusCode"]

    def encryption(self, name, bucket=None):
        return self.s3tables.get_table_encryption(**self.where(name, bucket))["encryptionConfiguration"]

    def storage_class(self, name, bucket=None):
        return self.s3tables.get_table_storage_class(**self.where(name, bucket))["storageClassConfiguration"]["storageClass"]

    def maintenance(self, name):
        return self.s3tables.get_table_maintenance_configuration(**self.where(name))["configuration"]

    def jobs(self, name, bucket=None):
        status = self.s3tables.get_table_maintenance_job_status(**self.where(name, bucket))["status"]
        return {job: value["status"] for job, value in status.items()}

    def expiration(self, table_arn):
        return self.s3tables.get_table_record_expiration_configuration(tableArn=table_arn)["configuration"]

    def expiration_job(self, table_arn):
        return self.s3tables.get_table_record_expiration_job_status(tableArn=table_arn)

    def assertNotFoundEverywhere(self, calls):
        """Each (operation, kwargs) answers NotFoundException."""
        for op, kwargs in calls:
            with self.subTest(operation=op.__name__):
                self.assertClientError("NotFoundException", op, **kwargs)


class EncryptionTests(TableConfigTestCase):
    def test_a_table_in_a_default_bucket_is_aes256(self):
        self.table("enc_default")
        self.assertEqual(self.encryption("enc_default"), {"sseAlgorithm": "AES256"},
                         "a table in a bucket without encryption settings reports AES256 and no key")

    def test_a_table_takes_its_buckets_encryption_at_creation_and_keeps_it(self):
        bucket = self.bucket("enc-inherit", encryptionConfiguration={"sseAlgorithm": "aws:kms", "kmsKeyArn": KMS_KEY})
        self.table("inherited", bucket)
        self.assertEqual(self.encryption("inherited", bucket), {"sseAlgorithm": "aws:kms", "kmsKeyArn": KMS_KEY},
                         "a table created without encryption settings takes its bucket's KMS configuration")
        self.s3tables.put_table_bucket_encryption(tableBucketARN=bucket, encryptionConfiguration={"sseAlgorithm": "AES256"})
        self.assertEqual(self.encryption("inherited", bucket), {"sseAlgorithm": "aws:kms", "kmsKeyArn": KMS_KEY},
                         "changing the bucket's encryption later does not change an existing table")
        self.s3tables.delete_table_bucket_encryption(tableBucketARN=bucket)
        self.assertEqual(self.encryption("inherited", bucket), {"sseAlgorithm": "aws:kms", "kmsKeyArn": KMS_KEY},
                         "deleting the bucket's encryption later does not change an existing table")
        self.table("after_change", bucket)
        self.assertEqual(self.encryption("after_change", bucket), {"sseAlgorithm": "AES256"},
                         "a table created after the change takes the bucket's configuration of that moment")

    def test_encryption_given_at_creation_overrides_the_buckets(self):
        bucket = self.bucket("enc-override", encryptionConfiguration={"sseAlgorithm": "aws:kms", "kmsKeyArn": KMS_KEY})
        self.table("own_aes", bucket, encryptionConfiguration={"sseAlgorithm": "AES256"})
        self.assertEqual(self.encryption("own_aes", bucket), {"sseAlgorithm": "AES256"},
                         "a table given AES256 at creation is AES256 in a KMS bucket")
        self.table("own_kms", encryptionConfiguration={"sseAlgorithm": "aws:kms", "kmsKeyArn": OTHER_KMS_KEY})
        self.assertEqual(self.encryption("own_kms"), {"sseAlgorithm": "aws:kms", "kmsKeyArn": OTHER_KMS_KEY},
                         "a table given a KMS key at creation keeps that key in an AES256 bucket")

    def test_a_refused_encryption_creates_no_table(self):
        cases = {
            "aws:kms without a key": ({"sseAlgorithm": "aws:kms"}, self.s3tables),
            "AES256 with a key": ({"sseAlgorithm": "AES256", "kmsKeyArn": KMS_KEY}, self.s3tables),
            "a key that is not a KMS key ARN": ({"sseAlgorithm": "aws:kms", "kmsKeyArn": "not-a-key"}, self.s3tables),
            "an unknown algorithm": ({"sseAlgorithm": "DES"}, self.s3tables_unchecked),
        }
        for i, (what, (config, client)) in enumerate(cases.items()):
            with self.subTest(what=what):
                name = "enc_refused_%d" % i
                self.assertClientError("BadRequestException", client.create_table, tableBucketARN=self.arn,
                                       namespace="sales", name=name, format="ICEBERG", encryptionConfiguration=config)
                self.assertClientError("NotFoundException", self.s3tables.get_table, **self.where(name))

    def test_missing_table_is_not_found(self):
        self.assertNotFoundEverywhere([
            (self.s3tables.get_table_encryption, self.where("no_such_table")),
            (self.s3tables.get_table_encryption, {**self.where("x"), "namespace": "no_such_namespace"}),
            (self.s3tables.get_table_encryption, self.where("x", ARN_PREFIX + "no-such-bucket")),
        ])


class StorageClassTests(TableConfigTestCase):
    def test_a_table_in_a_default_bucket_is_standard(self):
        self.table("sc_default")
        self.assertEqual(self.storage_class("sc_default"), "STANDARD", "a table in a default bucket is STANDARD")

    def test_a_table_takes_its_buckets_storage_class_at_creation_and_keeps_it(self):
        bucket = self.bucket("sc-inherit", storageClassConfiguration={"storageClass": "INTELLIGENT_TIERING"})
        self.table("inherited", bucket)
        self.assertEqual(self.storage_class("inherited", bucket), "INTELLIGENT_TIERING",
                         "a table created without a storage class takes its bucket's")
        self.s3tables.put_table_bucket_storage_class(tableBucketARN=bucket,
                                                     storageClassConfiguration={"storageClass": "STANDARD"})
        self.assertEqual(self.storage_class("inherited", bucket), "INTELLIGENT_TIERING",
                         "changing the bucket's storage class later does not change an existing table")
        self.table("after_change", bucket)
        self.assertEqual(self.storage_class("after_change", bucket), "STANDARD",
                         "a table created after the change takes the bucket's new storage class")

    def test_storage_class_given_at_creation_overrides_the_buckets(self):
        bucket = self.bucket("sc-override", storageClassConfiguration={"storageClass": "INTELLIGENT_TIERING"})
        self.table("own_standard", bucket, storageClassConfiguration={"storageClass": "STANDARD"})
        self.assertEqual(self.storage_class("own_standard", bucket), "STANDARD",
                         "a table given STANDARD at creation is STANDARD in an INTELLIGENT_TIERING bucket")
        self.table("own_tiering", storageClassConfiguration={"storageClass": "INTELLIGENT_TIERING"})
        self.assertEqual(self.storage_class("own_tiering"), "INTELLIGENT_TIERING",
                         "a table given INTELLIGENT_TIERING at creation keeps it in a STANDARD bucket")

    def test_unknown_storage_class_creates_no_table(self):
        self.assertClientError("BadRequestException", self.s3tables_unchecked.create_table, tableBucketARN=self.arn,
                               namespace="sales", name="sc_glacier", format="ICEBERG",
                               storageClassConfiguration={"storageClass": "GLACIER"})
        self.assertClientError("NotFoundException", self.s3tables.get_table, **self.where("sc_glacier"))

    def test_missing_table_is_not_found(self):
        self.assertNotFoundEverywhere([(self.s3tables.get_table_storage_class, self.where("no_such_table"))])


class PolicyTests(TableConfigTestCase):
    def test_policy_round_trip(self):
        arn = self.table("pol_round_trip")
        self.assertClientError("NotFoundException", self.s3tables.get_table_policy, **self.where("pol_round_trip"))
        doc = policy(arn)
        resp = self.s3tables.put_table_policy(resourcePolicy=doc, **self.where("pol_round_trip"))
        self.assertEqual(self.status(resp), 200, "PutTablePolicy answers 200")
        self.assertEqual(self.s3tables.get_table_policy(**self.where("pol_round_trip"))["resourcePolicy"], doc,
                         "the policy reads back byte for byte")
        spaced = json.dumps(json.loads(doc), indent=2)
        self.s3tables.put_table_policy(resourcePolicy=spaced, **self.where("pol_round_trip"))
        self.assertEqual(self.s3tables.get_table_policy(**self.where("pol_round_trip"))["resourcePolicy"], spaced,
                         "a later Put replaces the policy, whitespace and all")
        resp = self.s3tables.delete_table_policy(**self.where("pol_round_trip"))
        self.assertEqual(self.status(resp), 204, "DeleteTablePolicy answers 204")
        self.assertClientError("NotFoundException", self.s3tables.get_table_policy, **self.where("pol_round_trip"))
        self.s3tables.delete_table_policy(**self.where("pol_round_trip"))

    def test_table_and_bucket_policies_are_separate(self):
        arn = self.table("pol_separate")
        self.s3tables.put_table_policy(resourcePolicy=policy(arn), **self.where("pol_separate"))
        self.assertClientError("NotFoundException", self.s3tables.get_table_bucket_policy, tableBucketARN=self.arn)
        self.table("pol_other")
        self.assertClientError("NotFoundException", self.s3tables.get_table_policy, **self.where("pol_other"))

    def test_malformed_policies_are_bad_request(self):
        arn = self.table("pol_bad")
        statement = json.loads(policy(arn))["Statement"][0]
        cases = {
            "not JSON": "{not json",
            "no Statement": json.dumps({"Version": "2012-10-17"}),
            "an unknown Version": json.dumps({"Version": "2020-01-01", "Statement": [statement]}),
            "a statement without Effect": json.dumps(
                {"Version": "2012-10-17", "Statement": [{k: v for k, v in statement.items() if k != "Effect"}]}),
            "more than 20480 characters": json.dumps({"Version": "2012-10-17", "Statement": [statement],
                                                      "Padding": "x" * 20480}),
        }
        for what, doc in cases.items():
            with self.subTest(what=what):
                self.assertClientError("BadRequestException", self.s3tables_unchecked.put_table_policy,
                                       resourcePolicy=doc, **self.where("pol_bad"))
        self.assertClientError("NotFoundException", self.s3tables.get_table_policy, **self.where("pol_bad"))

    def test_missing_table_is_not_found(self):
        doc = policy(MISSING_TABLE_ARN)
        self.assertNotFoundEverywhere([
            (self.s3tables.get_table_policy, self.where("no_such_table")),
            (self.s3tables.put_table_policy, {**self.where("no_such_table"), "resourcePolicy": doc}),
            (self.s3tables.delete_table_policy, self.where("no_such_table")),
        ])


class MaintenanceTests(TableConfigTestCase):
    def put(self, name, type_, value, client=None):
        return (client or self.s3tables).put_table_maintenance_configuration(type=type_, value=value, **self.where(name))

    def test_a_new_table_has_awss_defaults(self):
        arn = self.table("mnt_default")
        got = self.s3tables.get_table_maintenance_configuration(**self.where("mnt_default"))
        self.assertEqual(got["tableARN"], arn, "GetTableMaintenanceConfiguration names the table")
        self.assertEqual(got["configuration"], DEFAULT_MAINTENANCE,
                         "compaction (512 MB, auto) and snapshot management (1 snapshot, 120 hours) are enabled")

    def test_compaction_reads_back(self):
        self.table("mnt_compaction")
        value = {"status": "enabled", "settings": {COMPACTION: {"targetFileSizeMB": 256, "strategy": "z-order"}}}
        resp = self.put("mnt_compaction", COMPACTION, value)
        self.assertEqual(self.status(resp), 204, "PutTableMaintenanceConfiguration answers 204")
        got = self.maintenance("mnt_compaction")
        self.assertEqual(got[COMPACTION], value, "the compaction settings that were put read back")
        self.assertEqual(got[SNAPSHOTS], DEFAULT_MAINTENANCE[SNAPSHOTS], "snapshot management keeps its defaults")
        self.put("mnt_compaction", COMPACTION, {"settings": {COMPACTION: {"strategy": "binpack"}}})
        self.assertEqual(self.maintenance("mnt_compaction")[COMPACTION],
                         {"status": "enabled", "settings": {COMPACTION: {"targetFileSizeMB": 512, "strategy": "binpack"}}},
                         "a Put replaces the whole value: what it leaves out takes its default")

    def test_snapshot_management_reads_back(self):
        self.table("mnt_snapshots")
        value = {"status": "disabled", "settings": {SNAPSHOTS: {"minSnapshotsToKeep": 5, "maxSnapshotAgeHours": 48}}}
        self.put("mnt_snapshots", SNAPSHOTS, value)
        got = self.maintenance("mnt_snapshots")
        self.assertEqual(got[SNAPSHOTS], value, "the snapshot management settings that were put read back")
        self.assertEqual(got[COMPACTION], DEFAULT_MAINTENANCE[COMPACTION], "compaction keeps its defaults")
        self.put("mnt_snapshots", SNAPSHOTS, {"status": "disabled"})
        self.assertEqual(self.maintenance("mnt_snapshots")[SNAPSHOTS],
                         {"status": "disabled", "settings": DEFAULT_MAINTENANCE[SNAPSHOTS]["settings"]},
                         "a Put with a status only keeps the default settings")

    def test_target_file_size_is_64_to_512_mb(self):
        self.table("mnt_range")
        for size in (64, 512):
            self.put("mnt_range", COMPACTION, {"settings": {COMPACTION: {"targetFileSizeMB": size}}})
            self.assertEqual(self.maintenance("mnt_range")[COMPACTION]["settings"][COMPACTION]["targetFileSizeMB"], size,
                             "a target file size of %d MB is accepted" % size)
        for size in (63, 513, 0):
            with self.subTest(size=size):
                resp = self.assertClientError("BadRequestException", self.put, "mnt_range", COMPACTION,
                                              {"settings": {COMPACTION: {"targetFileSizeMB": size}}},
                                              self.s3tables_unchecked)
                if size:
                    self.assertIn("64", resp["Error"]["Message"], "the refusal states the allowed range")
        self.assertEqual(self.maintenance("mnt_range")[COMPACTION]["settings"][COMPACTION]["targetFileSizeMB"], 512,
                         "a refused Put leaves the configuration alone")

    def test_bad_enums_and_ranges_are_bad_request(self):
        self.table("mnt_bad")
        cases = {
            "an unknown strategy": (COMPACTION, {"settings": {COMPACTION: {"strategy": "shuffle"}}}),
            "an unknown status": (COMPACTION, {"status": "paused"}),
            "an unknown type": ("icebergVacuum", {"status": "enabled"}),
            "the bucket-level type": (REMOVAL, {"status": "enabled"}),
            "settings of the other type": (COMPACTION, {"settings": {SNAPSHOTS: {"minSnapshotsToKeep": 2}}}),
            "no snapshots to keep": (SNAPSHOTS, {"settings": {SNAPSHOTS: {"minSnapshotsToKeep": 0}}}),
            "a snapshot age of 0 hours": (SNAPSHOTS, {"settings": {SNAPSHOTS: {"maxSnapshotAgeHours": 0}}}),
        }
        for what, (type_, value) in cases.items():
            with self.subTest(what=what):
                self.assertClientError("BadRequestException", self.put, "mnt_bad", type_, value, self.s3tables_unchecked)
        self.assertEqual(self.maintenance("mnt_bad"), DEFAULT_MAINTENANCE, "refused Puts leave the defaults alone")

    def test_job_status_follows_what_is_enabled(self):
        bucket = self.bucket("mnt-jobs")
        arn = self.table("jobs", bucket)
        got = self.s3tables.get_table_maintenance_job_status(**self.where("jobs", bucket))
        self.assertEqual(got["tableARN"], arn, "GetTableMaintenanceJobStatus names the table")
        self.assertEqual(self.jobs("jobs", bucket), NOT_YET_RUN,
                         "every maintenance job of a new table is enabled and has not run yet")
        for value in got["status"].values():
            self.assertNotIn("lastRunTimestamp", value, "a job that never ran has no last run time")
        self.s3tables.put_table_maintenance_configuration(type=COMPACTION, value={"status": "disabled"},
                                                          **self.where("jobs", bucket))
        self.assertEqual(self.jobs("jobs", bucket), {**NOT_YET_RUN, COMPACTION: "Disabled"},
                         "disabling compaction shows its job as Disabled")
        self.s3tables.put_table_bucket_maintenance_configuration(tableBucketARN=bucket, type=REMOVAL,
                                                                 value={"status": "disabled"})
        self.assertEqual(self.jobs("jobs", bucket),
                         {COMPACTION: "Disabled", SNAPSHOTS: "Not_Yet_Run", REMOVAL: "Disabled"},
                         "unreferenced file removal follows the table bucket's configuration")

    def test_missing_table_is_not_found(self):
        self.assertNotFoundEverywhere([
            (self.s3tables.get_table_maintenance_configuration, self.where("no_such_table")),
            (self.s3tables.put_table_maintenance_configuration,
             {**self.where("no_such_table"), "type": COMPACTION, "value": {"status": "enabled"}}),
            (self.s3tables.get_table_maintenance_job_status, self.where("no_such_table")),
        ])


class RecordExpirationTests(TableConfigTestCase):
    def put(self, table_arn, value, client=None):
        return (client or self.s3tables).put_table_record_expiration_configuration(tableArn=table_arn, value=value)

    def test_records_do_not_expire_by_default(self):
        arn = self.table("exp_default")
        self.assertEqual(self.expiration(arn), {"status": "disabled"},
                         "a new table's record expiration is disabled, with no settings")
        job = self.expiration_job(arn)
        self.assertEqual(job["status"], "Disabled", "the expiration job of a new table is Disabled")
        for member in ("lastRunTimestamp", "failureMessage", "metrics"):
            self.assertNotIn(member, job, "a job that never ran reports no %s" % member)

    def test_configuration_reads_back_and_drives_the_job_status(self):
        arn = self.table("exp_round_trip")
        value = {"status": "enabled", "settings": {"days": 365}}
        resp = self.put(arn, value)
        self.assertEqual(self.status(resp), 204, "PutTableRecordExpirationConfiguration answers 204")
        self.assertEqual(self.expiration(arn), value, "the configuration that was put reads back")
        self.assertEqual(self.expiration_job(arn)["status"], "NotYetRun",
                         "an enabled expiration job that has not run is NotYetRun")
        self.put(arn, {"status": "disabled", "settings": {"days": 30}})
        self.assertEqual(self.expiration(arn), {"status": "disabled", "settings": {"days": 30}},
                         "a later Put replaces the configuration")
        self.assertEqual(self.expiration_job(arn)["status"], "Disabled", "a disabled expiration job is Disabled")
        self.put(arn, {"settings": {"days": 7}})
        self.assertEqual(self.expiration(arn), {"status": "disabled", "settings": {"days": 7}},
                         "a Put without a status leaves record expiration disabled")

    def test_enabling_needs_a_number_of_days(self):
        arn = self.table("exp_days")
        for value in ({"status": "enabled"}, {"status": "enabled", "settings": {}}):
            with self.subTest(value=value):
                self.assertClientError("BadRequestException", self.put, arn, value)
        self.assertEqual(self.expiration(arn), {"status": "disabled"}, "a refused Put leaves the configuration alone")

    def test_bad_enums_and_ranges_are_bad_request(self):
        arn = self.table("exp_bad")
        for what, value in {"an unknown status": {"status": "paused", "settings": {"days": 1}},
                            "zero days": {"status": "enabled", "settings": {"days": 0}},
                            "negative days": {"status": "enabled", "settings": {"days": -5}}}.items():
            with self.subTest(what=what):
                self.assertClientError("BadRequestException", self.put, arn, value, self.s3tables_unchecked)
        self.assertClientError("BadRequestException", self.s3tables.get_table_record_expiration_configuration,
                               tableArn="not-a-table-arn")

    def test_missing_table_is_not_found(self):
        self.table("exp_elsewhere")
        self.assertNotFoundEverywhere([
            (self.s3tables.get_table_record_expiration_configuration, {"tableArn": MISSING_TABLE_ARN}),
            (self.s3tables.put_table_record_expiration_configuration,
             {"tableArn": MISSING_TABLE_ARN, "value": {"status": "disabled"}}),
            (self.s3tables.get_table_record_expiration_job_status, {"tableArn": MISSING_TABLE_ARN}),
        ])
        self.assertClientError("AccessDeniedException", self.s3tables.get_table_record_expiration_configuration,
                               tableArn="arn:aws:s3tables:eu-west-1:111122223333:bucket/cfg-home/table/abc")


class ReplicationTests(TableConfigTestCase):
    def put(self, table_arn, config, client=None, **kwargs):
        return (client or self.s3tables).put_table_replication(tableArn=table_arn, configuration=config, **kwargs)

    def test_replication_round_trip_and_status(self):
        source = self.table("rep_round_trip")
        one, two = self.bucket("rep-rt-one"), self.bucket("rep-rt-two")
        self.assertClientError("NotFoundException", self.s3tables.get_table_replication, tableArn=source)
        self.assertClientError("NotFoundException", self.s3tables.get_table_replication_status, tableArn=source)
        put = self.put(source, replication(one, two))
        self.assertTrue(put["versionToken"], "PutTableReplication returns a version token")
        self.assertEqual(put["status"], "pending", "PutTableReplication reports pending: nothing is copied yet")
        got = self.s3tables.get_table_replication(tableArn=source)
        self.assertEqual(got["configuration"], replication(one, two), "the configuration that was put reads back")
        self.assertEqual(got["versionToken"], put["versionToken"], "Get returns the token Put returned")
        status = self.s3tables.get_table_replication_status(tableArn=source)
        self.assertEqual(status["sourceTableArn"], source, "the status names the source table")
        self.assertEqual(status["destinations"],
                         [{"replicationStatus": "pending", "destinationTableBucketArn": one},
                          {"replicationStatus": "pending", "destinationTableBucketArn": two}],
                         "each destination has a status, pending because nothing has been copied")
        resp = self.s3tables.delete_table_replication(tableArn=source, versionToken=put["versionToken"])
        self.assertEqual(self.status(resp), 204, "DeleteTableReplication answers 204")
        self.assertClientError("NotFoundException", self.s3tables.get_table_replication, tableArn=source)
        self.assertClientError("NotFoundException", self.s3tables.get_table_replication_status, tableArn=source)
        self.assertClientError("NotFoundException", self.s3tables.delete_table_replication, tableArn=source,
                               versionToken=put["versionToken"])

    def test_every_change_gets_a_new_token_and_stale_tokens_conflict(self):
        source = self.table("rep_cas")
        one, two = self.bucket("rep-cas-one"), self.bucket("rep-cas-two")
        self.assertClientError("ConflictException", self.put, source, replication(one), versionToken="no-such-token")
        first = self.put(source, replication(one))["versionToken"]
        second = self.put(source, replication(two), versionToken=first)["versionToken"]
        self.assertNotEqual(first, second, "each Put returns a new version token")
        self.assertClientError("ConflictException", self.put, source, replication(one), versionToken=first)
        self.assertClientError("ConflictException", self.s3tables.delete_table_replication, tableArn=source,
                               versionToken=first)
        got = self.s3tables.get_table_replication(tableArn=source)
        self.assertEqual((got["versionToken"], got["configuration"]), (second, replication(two)),
                         "a conflicting write changes nothing")
        third = self.put(source, replication(one, two))["versionToken"]
        self.assertNotIn(third, (first, second), "a Put without a token overwrites, under a new token")
        self.s3tables.delete_table_replication(tableArn=source, versionToken=third)
        self.assertClientError("ConflictException", self.put, source, replication(one), versionToken=third)

    def test_table_and_bucket_replication_are_separate(self):
        source = self.table("rep_separate")
        dest = self.bucket("rep-separate-dest")
        self.put(source, replication(dest))
        self.assertClientError("NotFoundException", self.s3tables.get_table_bucket_replication, tableBucketARN=self.arn)

    def test_destinations_must_be_other_table_buckets(self):
        source = self.table("rep_dst")
        dest = self.bucket("rep-dst-dest")
        cases = {
            "the table's own bucket": replication(self.arn),
            "a destination listed twice": replication(dest, dest),
            "an S3 bucket ARN": replication("arn:aws:s3:::general-purpose-bucket"),
            "an ARN of another service": replication("arn:aws:s3:us-east-1:%s:bucket/rep-dst-dest" % ACCOUNT),
        }
        for what, config in cases.items():
            with self.subTest(what=what):
                self.assertClientError("BadRequestException", self.put, source, config)
        resp = self.assertClientError("NotFoundException", self.put, source, replication(ARN_PREFIX + "rep-nowhere"))
        self.assertIn("rep-nowhere", resp["Error"]["Message"], "the refusal names the missing destination")
        elsewhere = "arn:aws:s3tables:eu-west-1:111122223333:bucket/far-away"
        self.put(source, replication(elsewhere))
        self.assertEqual(self.s3tables.get_table_replication(tableArn=source)["configuration"], replication(elsewhere),
                         "a destination in another account and region is recorded")

    def test_model_constraints_are_enforced(self):
        source = self.table("rep_model")
        dest = self.bucket("rep-model-dest")
        cases = {
            "a role that is not an IAM role ARN": replication(dest, role="arn:aws:s3:::not-a-role-at-all"),
            "no destinations": {"role": ROLE, "rules": [{"destinations": []}]},
            "six destinations": replication(*[ARN_PREFIX + "rep-model-d%d" % i for i in range(6)]),
            "two rules": {"role": ROLE, "rules": [replication(dest)["rules"][0]] * 2},
            "no rules": {"role": ROLE, "rules": []},
        }
        for what, config in cases.items():
            with self.subTest(what=what):
                self.assertClientError("BadRequestException", self.put, source, config, self.s3tables_unchecked)
        self.assertClientError("BadRequestException", self.s3tables_unchecked.delete_table_replication,
                               tableArn=source)
        self.assertClientError("NotFoundException", self.s3tables.get_table_replication, tableArn=source)

    def test_missing_table_is_not_found(self):
        dest = self.bucket("rep-missing-dest")
        self.assertNotFoundEverywhere([
            (self.s3tables.get_table_replication, {"tableArn": MISSING_TABLE_ARN}),
            (self.put, {"table_arn": MISSING_TABLE_ARN, "config": replication(dest)}),
            (self.s3tables.delete_table_replication, {"tableArn": MISSING_TABLE_ARN, "versionToken": "t"}),
            (self.s3tables.get_table_replication_status, {"tableArn": MISSING_TABLE_ARN}),
        ])


def configure_everything(case, name, dest):
    """Puts every table-level setting on table `name`; returns (table ARN, replication token)."""
    s3t = case.s3tables
    arn = case.table(name, encryptionConfiguration={"sseAlgorithm": "aws:kms", "kmsKeyArn": KMS_KEY},
                     storageClassConfiguration={"storageClass": "INTELLIGENT_TIERING"}, tags={"team": "data"})
    s3t.put_table_policy(resourcePolicy=policy(arn), **case.where(name))
    s3t.put_table_maintenance_configuration(type=COMPACTION, value={"status": "disabled"}, **case.where(name))
    s3t.put_table_maintenance_configuration(
        type=SNAPSHOTS, value={"status": "enabled", "settings": {SNAPSHOTS: {"minSnapshotsToKeep": 3}}}, **case.where(name))
    s3t.put_table_record_expiration_configuration(tableArn=arn, value={"status": "enabled", "settings": {"days": 90}})
    token = s3t.put_table_replication(tableArn=arn, configuration=replication(dest))["versionToken"]
    return arn, token


class LifecycleTests(TableConfigTestCase):
    bucket_name = "cfg-lifecycle"

    def test_deleting_a_table_removes_its_configuration(self):
        dest = self.bucket("cascade-dest")
        configure_everything(self, "cascade", dest)
        self.s3tables.delete_table(**self.where("cascade"))
        # The table just deleted had the highest row id, so SQLite gives the new table the same id:
        # configuration rows that outlived the old table would show on the new one.
        arn = self.table("cascade")
        self.assertEqual(self.encryption("cascade"), {"sseAlgorithm": "AES256"}, "the new table has default encryption")
        self.assertEqual(self.storage_class("cascade"), "STANDARD", "the new table has the default storage class")
        self.assertEqual(self.maintenance("cascade"), DEFAULT_MAINTENANCE, "the new table has default maintenance")
        self.assertEqual(self.expiration(arn), {"status": "disabled"}, "the new table's records do not expire")
        self.assertEqual(self.s3tables.list_tags_for_resource(resourceArn=arn).get("tags", {}), {},
                         "the new table has no tags")
        self.assertNotFoundEverywhere([
            (self.s3tables.get_table_policy, self.where("cascade")),
            (self.s3tables.get_table_replication, {"tableArn": arn}),
        ])

    def test_a_renamed_table_keeps_its_configuration(self):
        dest = self.bucket("renamed-dest")
        arn, token = configure_everything(self, "before_rename", dest)
        self.s3tables.rename_table(newName="after_rename", **self.where("before_rename"))
        self.assertEqual(self.encryption("after_rename"), {"sseAlgorithm": "aws:kms", "kmsKeyArn": KMS_KEY},
                         "encryption stays with a renamed table")
        self.assertEqual(self.s3tables.get_table_policy(**self.where("after_rename"))["resourcePolicy"], policy(arn),
                         "the policy stays with a renamed table")
        self.assertEqual(self.maintenance("after_rename")[COMPACTION]["status"], "disabled",
                         "maintenance stays with a renamed table")
        self.assertEqual(self.s3tables.get_table_replication(tableArn=arn)["versionToken"], token,
                         "replication stays with a renamed table, whose ARN does not change")
        self.s3tables.delete_table(**self.where("after_rename"))

    def test_configuration_survives_a_restart(self):
        dest = self.bucket("survivor-dest")
        arn, token = configure_everything(self, "survivor", dest)
        self.server.restart()
        self.assertEqual(self.encryption("survivor"), {"sseAlgorithm": "aws:kms", "kmsKeyArn": KMS_KEY},
                         "encryption survives a restart")
        self.assertEqual(self.storage_class("survivor"), "INTELLIGENT_TIERING", "the storage class survives a restart")
        self.assertEqual(self.s3tables.get_table_policy(**self.where("survivor"))["resourcePolicy"], policy(arn),
                         "the policy survives a restart")
        got = self.maintenance("survivor")
        self.assertEqual((got[COMPACTION]["status"], got[SNAPSHOTS]["settings"][SNAPSHOTS]["minSnapshotsToKeep"]),
                         ("disabled", 3), "maintenance survives a restart")
        self.assertEqual(self.jobs("survivor")[COMPACTION], "Disabled", "the job status survives a restart")
        self.assertEqual(self.expiration(arn), {"status": "enabled", "settings": {"days": 90}},
                         "record expiration survives a restart")
        got = self.s3tables.get_table_replication(tableArn=arn)
        self.assertEqual((got["versionToken"], got["configuration"]), (token, replication(dest)),
                         "replication and its version token survive a restart")
        self.assertEqual(self.s3tables.list_tags_for_resource(resourceArn=arn)["tags"], {"team": "data"},
                         "tags given at creation survive a restart")


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""Table bucket configuration and tags end to end with boto3: encryption, storage class, policy,
metrics, maintenance, replication and tags, each read back after it is written; AWS's defaults;
the refusals (missing bucket, bad enum or range, stale version token, missing configuration);
settings given at creation; removal with the bucket; and state that survives a restart."""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from floe_server import FloeTestCase, main  # noqa: E402

ACCOUNT = "000000000000"
ARN_PREFIX = "arn:aws:s3tables:us-east-1:%s:bucket/" % ACCOUNT
MISSING = ARN_PREFIX + "no-such-bucket"
KMS_KEY = "arn:aws:kms:us-east-1:%s:key/1234abcd-12ab-34cd-56ef-1234567890ab" % ACCOUNT
ROLE = "arn:aws:iam::%s:role/replication" % ACCOUNT
POLICY = json.dumps({
    "Version": "2012-10-17",
    "Statement": [{
        "Sid": "ReadBucket", "Effect": "Allow",
        "Principal": {"AWS": "arn:aws:iam::%s:root" % ACCOUNT},
        "Action": ["s3tables:GetTableBucket"], "Resource": ARN_PREFIX + "*",
    }],
})
REMOVAL = "icebergUnreferencedFileRemoval"
DEFAULT_MAINTENANCE = {REMOVAL: {"status": "enabled", "settings": {REMOVAL: {"unreferencedDays": 3, "nonCurrentDays": 10}}}}


def replication(*destinations, role=ROLE):
    return {"role": role, "rules": [{"destinations": [{"destinationTableBucketARN": d} for d in destinations]}]}


class ConfigTestCase(FloeTestCase):
    def bucket(self, name, **kwargs):
        return self.s3tables.create_table_bucket(name=name, **kwargs)["arn"]

    def status(self, resp):
        return resp["ResponseMetadata"]["HTTPStatusCode"]

    def encryption(self, arn):
        return self.s3tables.get_table_bucket_encryption(tableBucketARN=arn)["encryptionConfiguration"]

    def storage_class(self, arn):
        return self.s3tables.get_table_bucket_storage_class(tableBucketARN=arn)["storageClassConfiguration"]["storageClass"]

    def maintenance(self, arn):
        return self.s3tables.get_table_bucket_maintenance_configuration(tableBucketARN=arn)["configuration"]

    def tags(self, arn):
        return self.s3tables.list_tags_for_resource(resourceArn=arn).get("tags", {})


class EncryptionTests(ConfigTestCase):
    def test_a_new_bucket_is_encrypted_with_aes256(self):
        arn = self.bucket("enc-default")
        self.assertEqual(self.encryption(arn), {"sseAlgorithm": "AES256"}, "a new bucket reports AES256 and no key")

    def test_kms_configuration_reads_back(self):
        arn = self.bucket("enc-kms")
        resp = self.s3tables.put_table_bucket_encryption(
            tableBucketARN=arn, encryptionConfiguration={"sseAlgorithm": "aws:kms", "kmsKeyArn": KMS_KEY})
        self.assertEqual(self.status(resp), 200, "PutTableBucketEncryption answers 200")
        self.assertEqual(self.encryption(arn), {"sseAlgorithm": "aws:kms", "kmsKeyArn": KMS_KEY},
                         "GetTableBucketEncryption returns the algorithm and key that were put")
        self.s3tables.put_table_bucket_encryption(tableBucketARN=arn, encryptionConfiguration={"sseAlgorithm": "AES256"})
        self.assertEqual(self.encryption(arn), {"sseAlgorithm": "AES256"}, "a later Put replaces the key as well")

    def test_delete_returns_the_bucket_to_aes256(self):
        arn = self.bucket("enc-delete")
        self.s3tables.put_table_bucket_encryption(
            tableBucketARN=arn, encryptionConfiguration={"sseAlgorithm": "aws:kms", "kmsKeyArn": KMS_KEY})
        resp = self.s3tables.delete_table_bucket_encryption(tableBucketARN=arn)
        self.assertEqual(self.status(resp), 204, "DeleteTableBucketEncryption answers 204")
        self.assertEqual(self.encryption(arn), {"sseAlgorithm": "AES256"}, "after Delete the bucket is AES256 again")
        self.s3tables.delete_table_bucket_encryption(tableBucketARN=arn)
        self.assertEqual(self.encryption(arn), {"sseAlgorithm": "AES256"}, "deleting the default again changes nothing")

    def test_kms_needs_a_key_and_aes256_takes_none(self):
        arn = self.bucket("enc-rules")
        resp = self.assertClientError("BadRequestException", self.s3tables.put_table_bucket_encryption,
                                      tableBucketARN=arn, encryptionConfiguration={"sseAlgorithm": "aws:kms"})
        self.assertIn("aws:kms", resp["Error"]["Message"], "the refusal names the rule that was broken")
        self.assertClientError("BadRequestException", self.s3tables.put_table_bucket_encryption, tableBucketARN=arn,
                               encryptionConfiguration={"sseAlgorithm": "AES256", "kmsKeyArn": KMS_KEY})
        self.assertEqual(self.encryption(arn), {"sseAlgorithm": "AES256"}, "a refused Put leaves the configuration alone")

    def test_bad_algorithm_or_key_shape_is_bad_request(self):
        arn = self.bucket("enc-shapes")
        self.assertClientError("BadRequestException", self.s3tables_unchecked.put_table_bucket_encryption,
                               tableBucketARN=arn, encryptionConfiguration={"sseAlgorithm": "DES"})
        self.assertClientError("BadRequestException", self.s3tables.put_table_bucket_encryption, tableBucketARN=arn,
                               encryptionConfiguration={"sseAlgorithm": "aws:kms", "kmsKeyArn": "not-a-key-arn"})
        self.assertClientError("BadRequestException", self.s3tables_unchecked.put_table_bucket_encryption,
                               tableBucketARN=arn, encryptionConfiguration={})

    def test_missing_bucket_is_not_found(self):
        self.assertClientError("NotFoundException", self.s3tables.get_table_bucket_encryption, tableBucketARN=MISSING)
        self.assertClientError("NotFoundException", self.s3tables.put_table_bucket_encryption, tableBucketARN=MISSING,
                               encryptionConfiguration={"sseAlgorithm": "AES256"})
        self.assertClientError("NotFoundException", self.s3tables.delete_table_bucket_encryption, tableBucketARN=MISSING)


class StorageClassTests(ConfigTestCase):
    def test_a_new_bucket_is_standard(self):
        self.assertEqual(self.storage_class(self.bucket("sc-default")), "STANDARD", "a new bucket reports STANDARD")

    def test_put_reads_back(self):
        arn = self.bucket("sc-put")
        resp = self.s3tables.put_table_bucket_storage_class(
            tableBucketARN=arn, storageClassConfiguration={"storageClass": "INTELLIGENT_TIERING"})
        self.assertEqual(self.status(resp), 200, "PutTableBucketStorageClass answers 200")
        self.assertEqual(self.storage_class(arn), "INTELLIGENT_TIERING", "the storage class that was put reads back")
        self.s3tables.put_table_bucket_storage_class(tableBucketARN=arn, storageClassConfiguration={"storageClass": "STANDARD"})
        self.assertEqual(self.storage_class(arn), "STANDARD", "a later Put replaces it")

    def test_unknown_storage_class_is_bad_request(self):
        arn = self.bucket("sc-bad")
        self.assertClientError("BadRequestException", self.s3tables_unchecked.put_table_bucket_storage_class,
                               tableBucketARN=arn, storageClassConfiguration={"storageClass": "GLACIER"})
        self.assertEqual(self.storage_class(arn), "STANDARD", "a refused Put leaves the storage class alone")

    def test_missing_bucket_is_not_found(self):
        self.assertClientError("NotFoundException", self.s3tables.get_table_bucket_storage_class, tableBucketARN=MISSING)
        self.assertClientError("NotFoundException", self.s3tables.put_table_bucket_storage_class, tableBucketARN=MISSING,
                               storageClassConfiguration={"storageClass": "STANDARD"})


class PolicyTests(ConfigTestCase):
    def test_policy_round_trip(self):
        arn = self.bucket("pol-round-trip")
        resp = self.assertClientError("NotFoundException", self.s3tables.get_table_bucket_policy, tableBucketARN=arn)
        self.assertEqual(resp["Error"]["Message"], "The specified bucket policy does not exist.",
                         "a bucket without a policy says so")
        resp = self.s3tables.put_table_bucket_policy(tableBucketARN=arn, resourcePolicy=POLICY)
        self.assertEqual(self.status(resp), 200, "PutTableBucketPolicy answers 200")
        self.assertEqual(self.s3tables.get_table_bucket_policy(tableBucketARN=arn)["resourcePolicy"], POLICY,
                         "GetTableBucketPolicy returns the document exactly as it was put")
        resp = self.s3tables.delete_table_bucket_policy(tableBucketARN=arn)
        self.assertEqual(self.status(resp), 204, "DeleteTableBucketPolicy answers 204")
        self.assertClientError("NotFoundException", self.s3tables.get_table_bucket_policy, tableBucketARN=arn)
        self.s3tables.delete_table_bucket_policy(tableBucketARN=arn)  # nothing left to delete: still succeeds

    def test_put_replaces_the_policy(self):
        arn = self.bucket("pol-replace")
        self.s3tables.put_table_bucket_policy(tableBucketARN=arn, resourcePolicy=POLICY)
        other = POLICY.replace("ReadBucket", "ReadBucketAgain")
        self.s3tables.put_table_bucket_policy(tableBucketARN=arn, resourcePolicy=other)
        self.assertEqual(self.s3tables.get_table_bucket_policy(tableBucketARN=arn)["resourcePolicy"], other,
                         "the second Put replaces the first policy")

    def test_malformed_policies_are_bad_request(self):
        arn = self.bucket("pol-malformed")
        statement = json.loads(POLICY)["Statement"][0]
        cases = {
            "not JSON": "{not json",
            "a JSON array": "[]",
            "no Version": json.dumps({"Statement": [statement]}),
            "an unknown Version": json.dumps({"Version": "2020-01-01", "Statement": [statement]}),
            "no Statement": json.dumps({"Version": "2012-10-17"}),
            "an empty Statement": json.dumps({"Version": "2012-10-17", "Statement": []}),
            "a statement without Effect": json.dumps({"Version": "2012-10-17", "Statement": [
                {k: v for k, v in statement.items() if k != "Effect"}]}),
        }
        for what, doc in cases.items():
            with self.subTest(what=what):
                self.assertClientError("BadRequestException", self.s3tables.put_table_bucket_policy,
                                       tableBucketARN=arn, resourcePolicy=doc)
        self.assertClientError("NotFoundException", self.s3tables.get_table_bucket_policy, tableBucketARN=arn)

    def test_policy_over_20_kib_is_bad_request(self):
        arn = self.bucket("pol-too-long")
        doc = json.loads(POLICY)
        doc["Statement"][0]["Sid"] = "x" * 20480
        self.assertClientError("BadRequestException", self.s3tables_unchecked.put_table_bucket_policy,
                               tableBucketARN=arn, resourcePolicy=json.dumps(doc))

    def test_missing_bucket_is_not_found(self):
        self.assertClientError("NotFoundException", self.s3tables.get_table_bucket_policy, tableBucketARN=MISSING)
        self.assertClientError("NotFoundException", self.s3tables.put_table_bucket_policy, tableBucketARN=MISSING,
                               resourcePolicy=POLICY)
        self.assertClientError("NotFoundException", self.s3tables.delete_table_bucket_policy, tableBucketARN=MISSING)


class MetricsTests(ConfigTestCase):
    def test_metrics_round_trip(self):
        arn = self.bucket("met-round-trip")
        self.assertClientError("NotFoundException", self.s3tables.get_table_bucket_metrics_configuration,
                               tableBucketARN=arn)
        resp = self.s3tables.put_table_bucket_metrics_configuration(tableBucketARN=arn)
        self.assertEqual(self.status(resp), 204, "PutTableBucketMetricsConfiguration answers 204")
        got = self.s3tables.get_table_bucket_metrics_configuration(tableBucketARN=arn)
        self.assertEqual(got["tableBucketARN"], arn, "the configuration names its bucket")
        self.assertTrue(got.get("id"), "the configuration has an id")
        self.s3tables.put_table_bucket_metrics_configuration(tableBucketARN=arn)
        again = self.s3tables.get_table_bucket_metrics_configuration(tableBucketARN=arn)
        self.assertEqual(again["id"], got["id"], "putting the configuration again keeps its id")
        resp = self.s3tables.delete_table_bucket_metrics_configuration(tableBucketARN=arn)
        self.assertEqual(self.status(resp), 204, "DeleteTableBucketMetricsConfiguration answers 204")
        self.assertClientError("NotFoundException", self.s3tables.get_table_bucket_metrics_configuration,
                               tableBucketARN=arn)

    def test_missing_bucket_is_not_found(self):
        for op in (self.s3tables.get_table_bucket_metrics_configuration,
                   self.s3tables.put_table_bucket_metrics_configuration,
                   self.s3tables.delete_table_bucket_metrics_configuration):
            with self.subTest(op=op.__name__):
                self.assertClientError("NotFoundException", op, tableBucketARN=MISSING)


class MaintenanceTests(ConfigTestCase):
    def put(self, arn, value, client=None, type=REMOVAL):
        return (client or self.s3tables).put_table_bucket_maintenance_configuration(tableBucketARN=arn, type=type,
                                                                                    value=value)

    def test_a_new_bucket_has_the_documented_defaults(self):
        arn = self.bucket("mnt-default")
        got = self.s3tables.get_table_bucket_maintenance_configuration(tableBucketARN=arn)
        self.assertEqual(got["tableBucketARN"], arn, "the configuration names its bucket")
        self.assertEqual(got["configuration"], DEFAULT_MAINTENANCE,
                         "unreferenced file removal is enabled with 3 and 10 days by default")

    def test_put_reads_back(self):
        arn = self.bucket("mnt-put")
        value = {"status": "disabled", "settings": {REMOVAL: {"unreferencedDays": 4, "nonCurrentDays": 20}}}
        resp = self.put(arn, value)
        self.assertEqual(self.status(resp), 204, "PutTableBucketMaintenanceConfiguration answers 204")
        self.assertEqual(self.maintenance(arn), {REMOVAL: value}, "the configuration that was put reads back")

    def test_a_partial_value_takes_the_defaults(self):
        arn = self.bucket("mnt-partial")
        self.put(arn, {"status": "disabled", "settings": {REMOVAL: {"unreferencedDays": 4, "nonCurrentDays": 20}}})
        self.put(arn, {"settings": {REMOVAL: {"nonCurrentDays": 7}}})
        self.assertEqual(self.maintenance(arn), {REMOVAL: {"status": "enabled", "settings": {
            REMOVAL: {"unreferencedDays": 3, "nonCurrentDays": 7}}}}, "a Put replaces the whole value")

    def test_days_below_one_are_bad_request(self):
        arn = self.bucket("mnt-range")
        for settings in ({"unreferencedDays": 0}, {"nonCurrentDays": 0}, {"unreferencedDays": -5}):
            with self.subTest(settings=settings):
                self.assertClientError("BadRequestException", self.put, arn,
                                       {"status": "enabled", "settings": {REMOVAL: settings}}, self.s3tables_unchecked)
        self.assertEqual(self.maintenance(arn), DEFAULT_MAINTENANCE, "refused Puts leave the defaults alone")

    def test_bad_enums_are_bad_request(self):
        arn = self.bucket("mnt-enums")
        self.assertClientError("BadRequestException", self.put, arn, {"status": "paused"}, self.s3tables_unchecked)
        self.assertClientError("BadRequestException", self.put, arn, {"status": "enabled"}, self.s3tables_unchecked,
                               type="icebergCompaction")

    def test_missing_bucket_is_not_found(self):
        self.assertClientError("NotFoundException", self.s3tables.get_table_bucket_maintenance_configuration,
                               tableBucketARN=MISSING)
        self.assertClientError("NotFoundException", self.put, MISSING, {"status": "enabled"})


class ReplicationTests(ConfigTestCase):
    def put(self, arn, config, client=None, **kwargs):
        return (client or self.s3tables).put_table_bucket_replication(tableBucketARN=arn, configuration=config, **kwargs)

    def test_replication_round_trip(self):
        source, dest = self.bucket("rep-source"), self.bucket("rep-dest")
        resp = self.assertClientError("NotFoundException", self.s3tables.get_table_bucket_replication,
                                      tableBucketARN=source)
        put = self.put(source, replication(dest))
        self.assertTrue(put["versionToken"], "PutTableBucketReplication returns a version token")
        self.assertEqual(put["status"], "pending", "PutTableBucketReplication reports pending: nothing is copied yet")
        got = self.s3tables.get_table_bucket_replication(tableBucketARN=source)
        self.assertEqual(got["configuration"], replication(dest), "the configuration that was put reads back")
        self.assertEqual(got["versionToken"], put["versionToken"], "Get returns the token Put returned")
        resp = self.s3tables.delete_table_bucket_replication(tableBucketARN=source, versionToken=put["versionToken"])
        self.assertEqual(self.status(resp), 204, "DeleteTableBucketReplication answers 204")
        self.assertClientError("NotFoundException", self.s3tables.get_table_bucket_replication, tableBucketARN=source)
        self.assertClientError("NotFoundException", self.s3tables.delete_table_bucket_replication, tableBucketARN=source)

    def test_every_change_gets_a_new_token_and_stale_tokens_conflict(self):
        source, one, two = self.bucket("rep-cas-source"), self.bucket("rep-cas-one"), self.bucket("rep-cas-two")
        first = self.put(source, replication(one))["versionToken"]
        second = self.put(source, replication(two), versionToken=first)["versionToken"]
        self.assertNotEqual(first, second, "each Put returns a new version token")
        self.assertClientError("ConflictException", self.put, source, replication(one), versionToken=first)
        self.assertClientError("ConflictException", self.s3tables.delete_table_bucket_replication,
                               tableBucketARN=source, versionToken=first)
        got = self.s3tables.get_table_bucket_replication(tableBucketARN=source)
        self.assertEqual((got["versionToken"], got["configuration"]), (second, replication(two)),
                         "a conflicting write changes nothing")
        third = self.put(source, replication(one, two))["versionToken"]
        self.assertNotIn(third, (first, second), "a Put without a token overwrites, under a new token")
        self.s3tables.delete_table_bucket_replication(tableBucketARN=source)
        self.assertClientError("ConflictException", self.put, source, replication(one), versionToken=third)

    def test_destinations_must_be_other_table_buckets(self):
        source, dest = self.bucket("rep-dst-source"), self.bucket("rep-dst-dest")
        self.assertClientError("BadRequestException", self.put, source, replication(source))
        self.assertClientError("BadRequestException", self.put, source, replication(dest, dest))
        self.assertClientError("BadRequestException", self.put, source,
                               replication("arn:aws:s3:::general-purpose-bucket"))
        resp = self.assertClientError("BadRequestException", self.put, source,
                                      replication("arn:aws:s3:us-east-1:000000000000:bucket/general-purpose"))
        self.assertIn("not a table bucket ARN", resp["Error"]["Message"],
                      "an ARN of the model's shape but another service is refused as no table bucket")
        resp = self.assertClientError("NotFoundException", self.put, source, replication(ARN_PREFIX + "rep-nowhere"))
        self.assertIn("rep-nowhere", resp["Error"]["Message"], "the refusal names the missing destination")
        elsewhere = "arn:aws:s3tables:eu-west-1:111122223333:bucket/far-away"
        self.put(source, replication(elsewhere))
        self.assertEqual(self.s3tables.get_table_bucket_replication(tableBucketARN=source)["configuration"],
                         replication(elsewhere), "a destination in another account and region is recorded")

    def test_model_constraints_are_enforced(self):
        source, dest = self.bucket("rep-model-source"), self.bucket("rep-model-dest")
        cases = {
            "a role that is not an IAM role ARN": replication(dest, role="arn:aws:s3:::not-a-role-at-all"),
            "no destinations": {"role": ROLE, "rules": [{"destinations": []}]},
            "six destinations": replication(*[ARN_PREFIX + "rep-model-d%d" % i for i in range(6)]),
            "two rules": {"role": ROLE, "rules": [replication(dest)["rules"][0]] * 2},
        }
        for what, config in cases.items():
            with self.subTest(what=what):
                self.assertClientError("BadRequestException", self.put, source, config, self.s3tables_unchecked)
        self.assertClientError("NotFoundException", self.s3tables.get_table_bucket_replication, tableBucketARN=source)

    def test_missing_bucket_is_not_found(self):
        dest = self.bucket("rep-missing-dest")
        self.assertClientError("NotFoundException", self.s3tables.get_table_bucket_replication, tableBucketARN=MISSING)
        self.assertClientError("NotFoundException", self.put, MISSING, replication(dest))
        self.assertClientError("NotFoundException", self.s3tables.delete_table_bucket_replication, tableBucketARN=MISSING)


class TagTests(ConfigTestCase):
    def test_tags_round_trip(self):
        arn = self.bucket("tag-round-trip")
        self.assertEqual(self.tags(arn), {}, "a bucket created without tags has none")
        resp = self.s3tables.tag_resource(resourceArn=arn, tags={"team": "data", "env": "test"})
        self.assertEqual(self.status(resp), 200, "TagResource answers 200")
        self.assertEqual(self.tags(arn), {"team": "data", "env": "test"}, "the tags that were added read back")
        self.s3tables.tag_resource(resourceArn=arn, tags={"env": "prod", "empty": ""})
        self.assertEqual(self.tags(arn), {"team": "data", "env": "prod", "empty": ""},
                         "TagResource adds keys and replaces the values of existing ones; values may be empty")
        resp = self.s3tables.untag_resource(resourceArn=arn, tagKeys=["env", "never-set"])
        self.assertEqual(self.status(resp), 204, "UntagResource answers 204")
        self.assertEqual(self.tags(arn), {"team": "data", "empty": ""},
                         "UntagResource removes the keys it names and ignores ones the bucket does not have")

    def test_at_most_50_tags(self):
        arn = self.bucket("tag-limit")
        self.s3tables.tag_resource(resourceArn=arn, tags={"k%02d" % i: "v" for i in range(50)})
        self.assertEqual(len(self.tags(arn)), 50, "a bucket can carry 50 tags")
        self.s3tables.tag_resource(resourceArn=arn, tags={"k00": "replaced"})
        self.assertClientError("BadRequestException", self.s3tables.tag_resource, resourceArn=arn, tags={"k50": "v"})
        tags = self.tags(arn)
        self.assertEqual((len(tags), tags["k00"]), (50, "replaced"), "a refused TagResource writes none of its tags")

    def test_aws_prefixed_keys_are_refused(self):
        arn = self.bucket("tag-reserved")
        for key in ("aws:created-by", "AWS:Team"):
            with self.subTest(key=key):
                self.assertClientError("BadRequestException", self.s3tables.tag_resource, resourceArn=arn,
                                       tags={"ok": "1", key: "x"})
                self.assertClientError("BadRequestException", self.s3tables.untag_resource, resourceArn=arn,
                                       tagKeys=[key])
        self.assertEqual(self.tags(arn), {}, "a refused TagResource writes none of its tags")

    def test_key_and_value_lengths_are_enforced(self):
        arn = self.bucket("tag-lengths")
        self.s3tables.tag_resource(resourceArn=arn, tags={"k" * 128: "v" * 256})
        self.assertEqual(self.tags(arn), {"k" * 128: "v" * 256}, "128-character keys and 256-character values fit")
        for tags in ({"k" * 129: "v"}, {"k": "v" * 257}, {"": "v"}):
            with self.subTest(tags={k[:10]: v[:10] for k, v in tags.items()}):
                self.assertClientError("BadRequestException", self.s3tables_unchecked.tag_resource, resourceArn=arn,
                                       tags=tags)

    def test_unknown_resources_are_not_found_and_another_accounts_access_denied(self):
        arn = self.bucket("tag-unknown")
        for resource, code in ((MISSING, "NotFoundException"),
                               (arn + "/table/0d7c3a55-34f6-4a34-9e2e-4a1a3a9f0c11", "NotFoundException"),
                               ("arn:aws:s3tables:us-east-1:111122223333:bucket/tag-unknown", "AccessDeniedException")):
            with self.subTest(resource=resource):
                self.assertClientError(code, self.s3tables.list_tags_for_resource, resourceArn=resource)
                self.assertClientError(code, self.s3tables.tag_resource, resourceArn=resource, tags={"a": "b"})
                self.assertClientError(code, self.s3tables.untag_resource, resourceArn=resource, tagKeys=["a"])
        self.assertClientError("BadRequestException", self.s3tables.list_tags_for_resource, resourceArn="not-an-arn")


class CreationTests(ConfigTestCase):
    def test_settings_given_at_creation_read_back(self):
        arn = self.bucket("create-with-all", tags={"team": "data"},
                          encryptionConfiguration={"sseAlgorithm": "aws:kms", "kmsKeyArn": KMS_KEY},
                          storageClassConfiguration={"storageClass": "INTELLIGENT_TIERING"})
        self.assertEqual(self.tags(arn), {"team": "data"}, "tags given at creation read back")
        self.assertEqual(self.encryption(arn), {"sseAlgorithm": "aws:kms", "kmsKeyArn": KMS_KEY},
                         "encryption given at creation reads back")
        self.assertEqual(self.storage_class(arn), "INTELLIGENT_TIERING", "the storage class given at creation reads back")

    def test_a_refused_setting_creates_no_bucket(self):
        cases = {
            "an aws: tag": {"tags": {"aws:owner": "me"}},
            "51 tags": {"tags": {"k%02d" % i: "v" for i in range(51)}},
            "aws:kms without a key": {"encryptionConfiguration": {"sseAlgorithm": "aws:kms"}},
        }
        for i, (what, kwargs) in enumerate(cases.items()):
            with self.subTest(what=what):
                name = "create-refused-%d" % i
                self.assertClientError("BadRequestException", self.s3tables.create_table_bucket, name=name, **kwargs)
                self.assertClientError("NotFoundException", self.s3tables.get_table_bucket,
                                       tableBucketARN=ARN_PREFIX + name)

    def test_bad_storage_class_at_creation_is_bad_request(self):
        self.assertClientError("BadRequestException", self.s3tables_unchecked.create_table_bucket,
                               name="create-bad-class", storageClassConfiguration={"storageClass": "GLACIER"})


def configure_everything(case, arn, dest):
    """Puts every bucket-level setting on arn; returns the replication version token."""
    s3t = case.s3tables
    s3t.put_table_bucket_encryption(tableBucketARN=arn,
                                    encryptionConfiguration={"sseAlgorithm": "aws:kms", "kmsKeyArn": KMS_KEY})
    s3t.put_table_bucket_storage_class(tableBucketARN=arn, storageClassConfiguration={"storageClass": "INTELLIGENT_TIERING"})
    s3t.put_table_bucket_policy(tableBucketARN=arn, resourcePolicy=POLICY)
    s3t.put_table_bucket_metrics_configuration(tableBucketARN=arn)
    s3t.put_table_bucket_maintenance_configuration(tableBucketARN=arn, type=REMOVAL, value={"status": "disabled"})
    s3t.tag_resource(resourceArn=arn, tags={"team": "data"})
    return s3t.put_table_bucket_replication(tableBucketARN=arn, configuration=replication(dest))["versionToken"]


class LifecycleTests(ConfigTestCase):
    def test_deleting_a_bucket_removes_its_configuration(self):
        arn, dest = self.bucket("cascade"), self.bucket("cascade-dest")
        configure_everything(self, arn, dest)
        self.s3tables.delete_table_bucket(tableBucketARN=arn)
        self.assertEqual(self.bucket("cascade"), arn, "a bucket of the same name can be created again")
        self.assertEqual(self.encryption(arn), {"sseAlgorithm": "AES256"}, "the new bucket has default encryption")
        self.assertEqual(self.storage_class(arn), "STANDARD", "the new bucket has the default storage class")
        self.assertEqual(self.maintenance(arn), DEFAULT_MAINTENANCE, "the new bucket has default maintenance")
        self.assertEqual(self.tags(arn), {}, "the new bucket has no tags")
        for op in (self.s3tables.get_table_bucket_policy, self.s3tables.get_table_bucket_metrics_configuration,
                   self.s3tables.get_table_bucket_replication):
            with self.subTest(op=op.__name__):
                self.assertClientError("NotFoundException", op, tableBucketARN=arn)

    def test_a_bucket_with_a_namespace_keeps_refusing_deletion(self):
        arn, dest = self.bucket("cascade-busy"), self.bucket("cascade-busy-dest")
        token = configure_everything(self, arn, dest)
        self.s3tables.create_namespace(tableBucketARN=arn, namespace=["ns1"])
        self.assertClientError("ConflictException", self.s3tables.delete_table_bucket, tableBucketARN=arn)
        self.assertEqual(self.tags(arn), {"team": "data"}, "a refused delete keeps the tags")
        self.assertEqual(self.s3tables.get_table_bucket_replication(tableBucketARN=arn)["versionToken"], token,
                         "a refused delete keeps the replication configuration")

    def test_configuration_survives_a_restart(self):
        arn, dest = self.bucket("survivor-config"), self.bucket("survivor-config-dest")
        token = configure_everything(self, arn, dest)
        metrics_id = self.s3tables.get_table_bucket_metrics_configuration(tableBucketARN=arn)["id"]
        self.server.restart()
        self.assertEqual(self.encryption(arn), {"sseAlgorithm": "aws:kms", "kmsKeyArn": KMS_KEY},
                         "encryption survives a restart")
        self.assertEqual(self.storage_class(arn), "INTELLIGENT_TIERING", "the storage class survives a restart")
        self.assertEqual(self.s3tables.get_table_bucket_policy(tableBucketARN=arn)["resourcePolicy"], POLICY,
                         "the policy survives a restart")
        self.assertEqual(self.s3tables.get_table_bucket_metrics_configuration(tableBucketARN=arn)["id"], metrics_id,
                         "the metrics configuration survives a restart")
        self.assertEqual(self.maintenance(arn)[REMOVAL]["status"], "disabled", "maintenance survives a restart")
        self.assertEqual(self.tags(arn), {"team": "data"}, "tags survive a restart")
        got = self.s3tables.get_table_bucket_replication(tableBucketARN=arn)
        self.assertEqual((got["versionToken"], got["configuration"]), (token, replication(dest)),
                         "replication and its version token survive a restart")


if __name__ == "__main__":
    main()

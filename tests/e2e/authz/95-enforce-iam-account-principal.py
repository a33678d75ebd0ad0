#!/usr/bin/python3
"""--enforce-iam: a table bucket policy whose Principal names the owner's own account (its id or its
root ARN) delegates to the account, as on AWS: the account's root is allowed, but an IAM user or a
role's session of the account is not, until its own identity-based policy allows it; a policy naming
the user itself (or everyone) grants it alone. IAM's policy simulator answers the same. Driven by
boto3, as against AWS."""

import json
import os
import sys
import uuid

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from floe_server import FloeTestCase, main  # noqa: E402

OWNER = "111122223333"
ACTION = "s3tables:GetTableBucket"


def unique(prefix):
    return "%s-%s" % (prefix, uuid.uuid4().hex[:8])


def bucket_policy(principal, arn):
    return json.dumps({"Version": "2012-10-17", "Statement": [{
        "Sid": "Grant", "Effect": "Allow", "Principal": principal, "Action": ACTION, "Resource": arn}]})


class AccountPrincipalTests(FloeTestCase):
    server_args = ("--strict-signatures", "--enforce-iam", "--credentials", "%s:owner-secret" % OWNER)

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.owner = cls.signed_client("s3tables", OWNER, "owner-secret")
        cls.iam = cls.signed_client("iam", OWNER, "owner-secret")
        cls.sts = cls.signed_client("sts", OWNER, "owner-secret")

    def user(self):
        name = unique("ann")
        arn = self.iam.create_user(UserName=name)["User"]["Arn"]
        key = self.iam.create_access_key(UserName=name)["AccessKey"]
        return name, arn, self.signed_client("s3tables", key["AccessKeyId"], key["SecretAccessKey"])

    def assertDeniedNoIdentityAllow(self, client, principal, arn):
        response = self.assertClientError("AccessDeniedException", client.get_table_bucket, tableBucketARN=arn)
        self.assertEqual(response["Error"]["Message"],
                         "User: %s is not authorized to perform: %s on resource: %s because no identity-based policy "
                         "allows the %s action" % (principal, ACTION, arn, ACTION))

    def test_a_grant_to_the_account_needs_the_users_own_allow(self):
        for form in (OWNER, "arn:aws:iam::%s:root" % OWNER):
            arn = self.owner.create_table_bucket(name=unique("delegated"))["arn"]
            self.owner.put_table_bucket_policy(tableBucketARN=arn, resourcePolicy=bucket_policy({"AWS": form}, arn))
            name, user_arn, ann = self.user()
            self.assertDeniedNoIdentityAllow(ann, user_arn, arn)
            self.assertEqual(self.owner.get_table_bucket(tableBucketARN=arn)["arn"], arn, "the root is allowed")
            self.iam.put_user_policy(UserName=name, PolicyName="read", PolicyDocument=json.dumps({
                "Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": ACTION, "Resource": arn}]}))
            self.assertEqual(ann.get_table_bucket(tableBucketARN=arn)["arn"], arn,
                             "with its own identity-based allow the user is in")

    def test_a_roles_session_is_delegated_to_likewise(self):
        arn = self.owner.create_table_bucket(name=unique("delegated"))["arn"]
        self.owner.put_table_bucket_policy(tableBucketARN=arn, resourcePolicy=bucket_policy({"AWS": OWNER}, arn))
        role = self.iam.create_role(RoleName=unique("reader"), AssumeRolePolicyDocument=json.dumps({
            "Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Principal": {"AWS": OWNER},
                                                    "Action": "sts:AssumeRole"}]}))["Role"]
        out = self.sts.assume_role(RoleArn=role["Arn"], RoleSessionName="etl")
        creds = out["Credentials"]
        session = self.signed_client("s3tables", creds["AccessKeyId"], creds["SecretAccessKey"], creds["SessionToken"])
        self.assertDeniedNoIdentityAllow(session, out["AssumedRoleUser"]["Arn"], arn)

    def test_a_grant_naming_the_user_or_everyone_is_enough(self):
        arn = self.owner.create_table_bucket(name=unique("named"))["arn"]
        _, user_arn, ann = self.user()
        self.owner.put_table_bucket_policy(tableBucketARN=arn, resourcePolicy=bucket_policy({"AWS": user_arn}, arn))
        self.assertEqual(ann.get_table_bucket(tableBucketARN=arn)["arn"], arn, "the user named is in")
        self.owner.put_table_bucket_policy(tableBucketARN=arn, resourcePolicy=bucket_policy("*", arn))
        self.assertEqual(ann.get_table_bucket(tableBucketARN=arn)["arn"], arn, "everyone is in")

    def test_the_simulator_answers_the_same(self):
        arn = self.owner.create_table_bucket(name=unique("simulated"))["arn"]
        _, user_arn, _ = self.user()
        for principal, decision in (({"AWS": OWNER}, "implicitDeny"), ({"AWS": user_arn}, "allowed")):
            result = self.iam.simulate_principal_policy(
                PolicySourceArn=user_arn, ActionNames=[ACTION], ResourceArns=[arn], CallerArn=user_arn,
                ResourcePolicy=bucket_policy(principal, arn))["EvaluationResults"][0]
            self.assertEqual(result["EvalDecision"], decision, "a resource policy naming %s" % principal)


if __name__ == "__main__":
    main()

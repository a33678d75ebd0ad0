#!/usr/bin/python3
"""STS AssumeRole on Floe's port: a caller whose role's trust policy allows it gets temporary
credentials (ASIA..., a secret, a session token) that --strict-signatures accepts with their token,
and GetCallerIdentity names the assumed role's session; a role that does not trust the caller, or
does not exist, answers AccessDenied. Driven by boto3 and the aws CLI, as against AWS."""

import datetime
import json
import os
import sys
import uuid

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from floe_server import FloeTestCase, client_env, main  # noqa: E402

ACCOUNT, ROOT_SECRET = "111122223333", "root-secret-of-the-test-account"
OTHER = "444455556666"


def trust(principal):
    return json.dumps({"Version": "2012-10-17",
                       "Statement": [{"Effect": "Allow", "Principal": {"AWS": principal}, "Action": "sts:AssumeRole"}]})


def unique(prefix):
    return "%s-%s" % (prefix, uuid.uuid4().hex[:8])


class AssumeRoleTests(FloeTestCase):
    server_args = ("--strict-signatures", "--credentials", "%s:%s" % (ACCOUNT, ROOT_SECRET),
                   "--credentials", "%s:other-secret" % OTHER)

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.iam = cls.signed_client("iam", ACCOUNT, ROOT_SECRET)
        cls.sts = cls.signed_client("sts", ACCOUNT, ROOT_SECRET)

    def role(self, principal, **kwargs):
        name = unique("role")
        return self.iam.create_role(RoleName=name, AssumeRolePolicyDocument=trust(principal), **kwargs)["Role"]

    def test_the_root_assumes_a_role_its_account_trusts(self):
        role = self.role("arn:aws:iam::%s:root" % ACCOUNT)
        out = self.sts.assume_role(RoleArn=role["Arn"], RoleSessionName="etl")
        creds, user = out["Credentials"], out["AssumedRoleUser"]
        self.assertRegex(creds["AccessKeyId"], r"^ASIA[A-Z2-7]{16}$", "a temporary access key id")
        self.assertEqual(len(creds["SecretAccessKey"]), 40)
        self.assertTrue(creds["SessionToken"], "a session token")
        remaining = creds["Expiration"] - datetime.datetime.now(datetime.timezone.utc)
        self.assertTrue(3500 < remaining.total_seconds() <= 3600, "valid for an hour by default: %s" % remaining)
        self.assertEqual(user["Arn"], "arn:aws:sts::%s:assumed-role/%s/etl" % (ACCOUNT, role["RoleName"]))
        self.assertEqual(user["AssumedRoleId"], "%s:etl" % role["RoleId"])

        session_sts = self.signed_client("sts", creds["AccessKeyId"], creds["SecretAccessKey"], creds["SessionToken"])
        who = session_sts.get_caller_identity()
        self.assertEqual((who["Arn"], who["UserId"], who["Account"]), (user["Arn"], user["AssumedRoleId"], ACCOUNT),
                         "GetCallerIdentity names the assumed role's session")
        tables = self.signed_client("s3tables", creds["AccessKeyId"], creds["SecretAccessKey"], creds["SessionToken"])
        self.assertIn(":%s:" % ACCOUNT, tables.create_table_bucket(name=unique("by-role"))["arn"],
                      "the session signs S3 Tables calls in the role's account")

        without_token = self.signed_client("sts", creds["AccessKeyId"], creds["SecretAccessKey"])
        self.assertClientError("InvalidClientTokenId", without_token.get_caller_identity)
        wrong_token = self.signed_client("s3tables", creds["AccessKeyId"], creds["SecretAccessKey"], "not-the-token")
        self.assertClientError("UnrecognizedClientException", wrong_token.list_table_buckets)

    def test_the_cli_assumes_a_role_and_signs_with_it(self):
        import subprocess
        role = self.role("arn:aws:iam::%s:root" % ACCOUNT, MaxSessionDuration=7200)
        env = client_env(self.server)
        env.update({"AWS_ACCESS_KEY_ID": ACCOUNT, "AWS_SECRET_ACCESS_KEY": ROOT_SECRET})
        self.require_tool("/usr/bin/aws")
        base = ["/usr/bin/aws", "--endpoint-url", self.server.endpoint, "--output", "json"]
        proc = subprocess.run(base + ["sts", "assume-role", "--role-arn", role["Arn"], "--role-session-name", "cli",
                                      "--duration-seconds", "7200"], capture_output=True, text=True, env=env, timeout=120)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        creds = json.loads(proc.stdout)["Credentials"]
        env.update({"AWS_ACCESS_KEY_ID": creds["AccessKeyId"], "AWS_SECRET_ACCESS_KEY": creds["SecretAccessKey"],
                    "AWS_SESSION_TOKEN": creds["SessionToken"]})
        proc = subprocess.run(base + ["sts", "get-caller-identity"], capture_output=True, text=True, env=env, timeout=120)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(json.loads(proc.stdout)["Arn"], "arn:aws:sts::%s:assumed-role/%s/cli" % (ACCOUNT, role["RoleName"]))

    def test_a_user_named_in_the_trust_policy_assumes_the_role(self):
        name = unique("user")
        user = self.iam.create_user(UserName=name)["User"]
        key = self.iam.create_access_key(UserName=name)["AccessKey"]
        role = self.role(user["Arn"])
        sts = self.signed_client("sts", key["AccessKeyId"], key["SecretAccessKey"])
        out = sts.assume_role(RoleArn=role["Arn"], RoleSessionName="alice")
        self.assertEqual(out["AssumedRoleUser"]["Arn"],
                         "arn:aws:sts::%s:assumed-role/%s/alice" % (ACCOUNT, role["RoleName"]))

    def test_a_role_that_does_not_trust_the_caller_is_access_denied(self):
        role = self.role("arn:aws:iam::%s:root" % OTHER)
        resp = self.assertClientError("AccessDenied", self.sts.assume_role, RoleArn=role["Arn"], RoleSessionName="sess")
        self.assertEqual(resp["ResponseMetadata"]["HTTPStatusCode"], 403)
        self.assertEqual(resp["Error"]["Message"],
                         "User: arn:aws:iam::%s:root is not authorized to perform: sts:AssumeRole on resource: %s"
                         % (ACCOUNT, role["Arn"]))
        missing = "arn:aws:iam::%s:role/not-there" % ACCOUNT
        resp = self.assertClientError("AccessDenied", self.sts.assume_role, RoleArn=missing, RoleSessionName="sess")
        self.assertIn("on resource: %s" % missing, resp["Error"]["Message"], "a missing role is denied the same way")

    def test_another_account_assumes_a_role_that_trusts_it(self):
        role = self.role("arn:aws:iam::%s:root" % OTHER)
        other = self.signed_client("sts", OTHER, "other-secret")
        out = other.assume_role(RoleArn=role["Arn"], RoleSessionName="xacct")
        creds = out["Credentials"]
        self.assertEqual(out["AssumedRoleUser"]["Arn"],
                         "arn:aws:sts::%s:assumed-role/%s/xacct" % (ACCOUNT, role["RoleName"]),
                         "the session is the role's account's")
        who = self.signed_client("sts", creds["AccessKeyId"], creds["SecretAccessKey"], creds["SessionToken"])
        self.assertEqual(who.get_caller_identity()["Account"], ACCOUNT)

    def test_duration_is_bounded_by_the_role(self):
        role = self.role("arn:aws:iam::%s:root" % ACCOUNT)
        resp = self.assertClientError("ValidationError", self.sts.assume_role, RoleArn=role["Arn"],
                                      RoleSessionName="sess", DurationSeconds=7200)
        self.assertEqual(resp["Error"]["Message"],
                         "The requested DurationSeconds exceeds the MaxSessionDuration set for this role.")

    def test_deleting_the_role_ends_its_sessions(self):
        role = self.role("arn:aws:iam::%s:root" % ACCOUNT)
        creds = self.sts.assume_role(RoleArn=role["Arn"], RoleSessionName="sess")["Credentials"]
        session = self.signed_client("sts", creds["AccessKeyId"], creds["SecretAccessKey"], creds["SessionToken"])
        session.get_caller_identity()
        self.iam.delete_role(RoleName=role["RoleName"])
        self.assertClientError("InvalidClientTokenId", session.get_caller_identity)

    def test_sessions_survive_a_restart(self):
        role = self.role("arn:aws:iam::%s:root" % ACCOUNT)
        creds = self.sts.assume_role(RoleArn=role["Arn"], RoleSessionName="sess")["Credentials"]
        self.server.restart()
        session = self.signed_client("sts", creds["AccessKeyId"], creds["SecretAccessKey"], creds["SessionToken"])
        self.assertTrue(session.get_caller_identity()["Arn"].endswith("/%s/sess" % role["RoleName"]))


if __name__ == "__main__":
    main()

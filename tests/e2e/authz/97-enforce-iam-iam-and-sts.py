#!/usr/bin/python3
"""--enforce-iam on IAM's and STS's own operations: an IAM user with no identity policy may not
call IAM (iam:<Operation> on the user, role or policy ARN the call names, `*` where IAM names
none), with IAM's AccessDenied (403, Sender) and AWS's sentence, seen by boto3 and the aws CLI; it
may once an inline policy grants the action. sts:GetCallerIdentity needs no permission.
sts:AssumeRole keeps its trust policy check and, as AWS's AssumeRole reference says, also needs the
caller's identity-based allow unless the trust policy names the caller itself within the role's
account. The account's root is allowed throughout."""

import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from enforce_iam import allow, refusal  # noqa: E402
from floe_server import AWS_CLI, FloeTestCase, client_env, main  # noqa: E402

OWNER, SECRET = "111122223333", "owner-secret"
REGION = "us-east-1"


def trust(principal):
    return json.dumps({"Version": "2012-10-17", "Statement": [
        {"Effect": "Allow", "Principal": {"AWS": principal}, "Action": "sts:AssumeRole"}]})


class EnforceIamOnIamAndSts(FloeTestCase):
    server_args = ("--strict-signatures", "--enforce-iam", "--credentials", "%s:%s" % (OWNER, SECRET))

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.iam = cls.signed_client("iam", OWNER, SECRET)
        cls.sts = cls.signed_client("sts", OWNER, SECRET)

    def new_user(self, name):
        """An IAM user with no policy: (its ARN, an IAM client and an STS client signed with its key, its key pair)."""
        arn = self.iam.create_user(UserName=name)["User"]["Arn"]
        key = self.iam.create_access_key(UserName=name)["AccessKey"]
        pair = (key["AccessKeyId"], key["SecretAccessKey"])
        return arn, self.signed_client("iam", *pair), self.signed_client("sts", *pair), pair

    def assertDenied(self, message, fn, **kwargs):
        response = self.assertClientError("AccessDenied", fn, **kwargs)
        self.assertEqual((response["ResponseMetadata"]["HTTPStatusCode"], response["Error"].get("Type")),
                         (403, "Sender"), "IAM's and STS's AccessDenied is a 403 Sender fault")
        self.assertEqual(response["Error"]["Message"], message, "the denial says why in AWS's words")

    def cli(self, pair, *args):
        env = dict(client_env(self.server), AWS_ACCESS_KEY_ID=pair[0], AWS_SECRET_ACCESS_KEY=pair[1])
        self.require_tool(AWS_CLI)
        return subprocess.run([AWS_CLI, "--endpoint-url", self.server.endpoint, "--region", REGION, "--output", "json"]
                              + list(args), capture_output=True, text=True, env=env, timeout=120)

    def test_iam_operations_need_the_callers_identity_allow(self):
        alice, iam, sts, pair = self.new_user("alice")
        self.assertEqual(sts.get_caller_identity()["Arn"], alice, "GetCallerIdentity needs no permission")
        bob = "arn:aws:iam::%s:user/team/bob" % OWNER
        self.assertDenied(refusal(alice, "iam:CreateUser", bob), iam.create_user, UserName="bob", Path="/team/")
        cli = self.cli(pair, "iam", "list-users")
        self.assertNotEqual(cli.returncode, 0, "the aws CLI is refused too")
        self.assertIn("AccessDenied", cli.stderr, "the aws CLI names the error")
        self.assertIn(refusal(alice, "iam:ListUsers", "*"), cli.stderr, "ListUsers names no resource: *")
        self.iam.put_user_policy(UserName="alice", PolicyName="admin-of-users", PolicyDocument=allow(
            ["iam:CreateUser", "iam:ListUsers"], ["arn:aws:iam::%s:user/team/*" % OWNER, "*"]))
        self.assertEqual(iam.create_user(UserName="bob", Path="/team/")["User"]["Arn"], bob,
                         "granted, alice creates bob")
        cli = self.cli(pair, "iam", "list-users")
        self.assertEqual(cli.returncode, 0, cli.stderr)
        self.assertIn("bob", [u["UserName"] for u in json.loads(cli.stdout)["Users"]], "and lists users")
        self.assertDenied(refusal(alice, "iam:GetUser", bob), iam.get_user, UserName="bob")
        self.assertDenied(refusal(alice, "iam:CreateRole", "arn:aws:iam::%s:role/escalate" % OWNER),
                          iam.create_role, RoleName="escalate", AssumeRolePolicyDocument=trust(alice))
        policy = "arn:aws:iam::%s:policy/anything" % OWNER
        self.assertDenied(refusal(alice, "iam:CreatePolicy", policy), iam.create_policy, PolicyName="anything",
                          PolicyDocument=allow("*", "*"))
        self.assertEqual(self.iam.get_user(UserName="bob")["User"]["Arn"], bob, "the root is allowed everything")
        self.iam.delete_user(UserName="bob")

    def test_assume_role_needs_the_callers_allow_unless_the_trust_policy_names_it(self):
        carol, _, sts, _ = self.new_user("carol")
        by_account = self.iam.create_role(RoleName="by-account", AssumeRolePolicyDocument=trust(
            "arn:aws:iam::%s:root" % OWNER))["Role"]["Arn"]
        by_name = self.iam.create_role(RoleName="by-name", AssumeRolePolicyDocument=trust(carol))["Role"]["Arn"]
        self.assertDenied(refusal(carol, "sts:AssumeRole", by_account), sts.assume_role, RoleArn=by_account,
                          RoleSessionName="work")
        got = sts.assume_role(RoleArn=by_name, RoleSessionName="work")["AssumedRoleUser"]["Arn"]
        self.assertEqual(got, "arn:aws:sts::%s:assumed-role/by-name/work" % OWNER,
                         "a trust policy naming carol herself needs no identity-based allow")
        self.iam.put_user_policy(UserName="carol", PolicyName="assume", PolicyDocument=allow("sts:AssumeRole",
                                                                                             by_account))
        got = sts.assume_role(RoleArn=by_account, RoleSessionName="work")["AssumedRoleUser"]["Arn"]
        self.assertEqual(got, "arn:aws:sts::%s:assumed-role/by-account/work" % OWNER,
                         "granted sts:AssumeRole, carol assumes the role that trusts her account")
        got = self.sts.assume_role(RoleArn=by_account, RoleSessionName="root")["AssumedRoleUser"]["Arn"]
        self.assertEqual(got, "arn:aws:sts::%s:assumed-role/by-account/root" % OWNER, "the root assumes it")


if __name__ == "__main__":
    main()

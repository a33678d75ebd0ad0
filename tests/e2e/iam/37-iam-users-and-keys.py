#!/usr/bin/python3
"""IAM on Floe's port (requests signed for `iam`): users, access keys, inline and managed policies
and roles, with IAM's error codes, statuses and messages, driven by boto3 and the aws CLI as against
AWS. The access keys IAM creates sign requests under --strict-signatures at once, and a deleted one
is refused at once, in each API's words for an unknown key. State survives a restart and kill -9."""

import json
import os
import sys
import uuid

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from floe_server import FloeTestCase, client_env, main  # noqa: E402

ACCOUNT, ROOT_SECRET = "111122223333", "root-secret-of-the-test-account"
READ_TABLES = {"Version": "2012-10-17",
               "Statement": [{"Effect": "Allow", "Action": ["s3tables:Get*", "s3tables:List*"], "Resource": "*"}]}
TRUST_ACCOUNT = {"Version": "2012-10-17",
                 "Statement": [{"Effect": "Allow", "Principal": {"AWS": "arn:aws:iam::%s:root" % ACCOUNT},
                                "Action": "sts:AssumeRole"}]}


def unique(prefix):
    return "%s-%s" % (prefix, uuid.uuid4().hex[:8])


class IamTests(FloeTestCase):
    server_args = ("--strict-signatures", "--credentials", "%s:%s" % (ACCOUNT, ROOT_SECRET))

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.iam = cls.signed_client("iam", ACCOUNT, ROOT_SECRET)

    def cli(self, *args, key=ACCOUNT, secret=ROOT_SECRET):
        """The aws CLI signed with a key pair: (exit code, parsed JSON or None, stderr)."""
        import subprocess
        env = client_env(self.server)
        env.update({"AWS_ACCESS_KEY_ID": key, "AWS_SECRET_ACCESS_KEY": secret})
        self.require_tool("/usr/bin/aws")
        proc = subprocess.run(["/usr/bin/aws", "--endpoint-url", self.server.endpoint, "--output", "json"] + list(args),
                              capture_output=True, text=True, env=env, timeout=120)
        return proc.returncode, json.loads(proc.stdout) if proc.stdout.strip() else None, proc.stderr

    def new_user_with_key(self):
        name = unique("user")
        self.iam.create_user(UserName=name)
        key = self.iam.create_access_key(UserName=name)["AccessKey"]
        return name, key

    def assertIamError(self, code, status, message, fn, **kwargs):
        resp = self.assertClientError(code, fn, **kwargs)
        self.assertEqual(resp["ResponseMetadata"]["HTTPStatusCode"], status, "%s is %d" % (code, status))
        self.assertEqual(resp["Error"]["Message"], message, "IAM's message")
        self.assertEqual(resp["Error"]["Type"], "Sender", "a caller's error")

    def test_users_with_the_cli(self):
        name = unique("cli-user")
        rc, out, err = self.cli("iam", "create-user", "--user-name", name, "--path", "/team/")
        self.assertEqual(rc, 0, err)
        user = out["User"]
        self.assertEqual(user["Arn"], "arn:aws:iam::%s:user/team/%s" % (ACCOUNT, name), "the user's ARN has its path")
        self.assertRegex(user["UserId"], r"^AIDA[A-Z2-7]{17}$", "an IAM user id")
        rc, out, err = self.cli("iam", "get-user", "--user-name", name.upper())
        self.assertEqual((rc, out["User"]["UserName"]), (0, name), "names are found whatever their case")
        rc, out, err = self.cli("iam", "list-users", "--path-prefix", "/team/")
        self.assertIn(name, [u["UserName"] for u in out["Users"]], "listed under its path")
        rc, out, err = self.cli("iam", "delete-user", "--user-name", name)
        self.assertEqual(rc, 0, err)
        rc, out, err = self.cli("iam", "get-user", "--user-name", name)
        self.assertNotEqual(rc, 0)
        self.assertIn("NoSuchEntity", err, "a deleted user is gone")
        self.assertIn("The user with name %s cannot be found." % name, err)

    def test_a_new_key_signs_at_once_and_a_deleted_one_is_refused_at_once(self):
        name, key = self.new_user_with_key()
        self.assertRegex(key["AccessKeyId"], r"^AKIA[A-Z2-7]{16}$", "an access key id")
        self.assertEqual(len(key["SecretAccessKey"]), 40, "a 40-character secret")
        secret = key["SecretAccessKey"]
        tables = self.signed_client("s3tables", key["AccessKeyId"], secret)
        arn = tables.create_table_bucket(name=unique("by-user"))["arn"]
        self.assertIn(":%s:" % ACCOUNT, arn, "the user acts in its own account")
        who = self.signed_client("sts", key["AccessKeyId"], secret).get_caller_identity()
        self.assertEqual(who["Arn"], "arn:aws:iam::%s:user/%s" % (ACCOUNT, name), "STS names the user")
        self.assertEqual(who["Account"], ACCOUNT)
        self.assertRegex(who["UserId"], r"^AIDA", "and its user id")
        rc, out, err = self.cli("sts", "get-caller-identity", key=key["AccessKeyId"], secret=secret)
        self.assertEqual((rc, out["Arn"]), (0, who["Arn"]), "the aws CLI signs with it too")
        listed = self.iam.list_access_keys(UserName=name)["AccessKeyMetadata"]
        self.assertEqual([(k["AccessKeyId"], k["Status"]) for k in listed], [(key["AccessKeyId"], "Active")])

        self.iam.delete_access_key(UserName=name, AccessKeyId=key["AccessKeyId"])
        resp = self.assertClientError("UnrecognizedClientException", tables.list_table_buckets)
        self.assertEqual(resp["Error"]["Message"], "The security token included in the request is invalid.")
        self.assertClientError("InvalidAccessKeyId", self.signed_client("s3", key["AccessKeyId"], secret).list_buckets)
        self.assertClientError("InvalidClientTokenId",
                               self.signed_client("sts", key["AccessKeyId"], secret).get_caller_identity)
        self.assertIamError("NoSuchEntity", 404, "The Access Key with id %s cannot be found." % key["AccessKeyId"],
                            self.iam.delete_access_key, UserName=name, AccessKeyId=key["AccessKeyId"])

    def test_a_user_has_at_most_two_keys(self):
        name, _ = self.new_user_with_key()
        self.iam.create_access_key(UserName=name)
        self.assertIamError("LimitExceeded", 409, "Cannot exceed quota for AccessKeysPerUser: 2",
                            self.iam.create_access_key, UserName=name)

    def test_iam_errors_are_iams(self):
        name = unique("dup")
        self.iam.create_user(UserName=name)
        self.assertIamError("EntityAlreadyExists", 409, "User with name %s already exists." % name.upper(),
                            self.iam.create_user, UserName=name.upper())
        self.assertIamError("NoSuchEntity", 404, "The user with name nobody-here cannot be found.",
                            self.iam.get_user, UserName="nobody-here")
        self.assertIamError("NoSuchEntity", 404, "The role with name nobody-here cannot be found.",
                            self.iam.get_role, RoleName="nobody-here")
        resp = self.assertClientError("MalformedPolicyDocument", self.iam.put_user_policy, UserName=name,
                                      PolicyName="p", PolicyDocument="this is not a policy")
        self.assertEqual(resp["ResponseMetadata"]["HTTPStatusCode"], 400, "MalformedPolicyDocument is 400")
        self.assertClientError("MalformedPolicyDocument", self.iam.create_policy, PolicyName=unique("bad"),
                               PolicyDocument="{}")
        self.assertIamError("NoSuchEntity", 404, "The user policy with name missing cannot be found.",
                            self.iam.get_user_policy, UserName=name, PolicyName="missing")

    def test_a_user_with_keys_or_policies_cannot_be_deleted(self):
        name, key = self.new_user_with_key()
        self.assertIamError("DeleteConflict", 409, "Cannot delete entity, must delete access keys first.",
                            self.iam.delete_user, UserName=name)
        self.iam.delete_access_key(UserName=name, AccessKeyId=key["AccessKeyId"])
        self.iam.put_user_policy(UserName=name, PolicyName="read", PolicyDocument=json.dumps(READ_TABLES))
        self.assertIamError("DeleteConflict", 409, "Cannot delete entity, must delete policies first.",
                            self.iam.delete_user, UserName=name)
        self.iam.delete_user_policy(UserName=name, PolicyName="read")
        arn = self.iam.create_policy(PolicyName=unique("managed"), PolicyDocument=json.dumps(READ_TABLES))["Policy"]["Arn"]
        self.iam.attach_user_policy(UserName=name, PolicyArn=arn)
        self.assertIamError("DeleteConflict", 409, "Cannot delete entity, must detach all policies first.",
                            self.iam.delete_user, UserName=name)
        self.assertIamError("DeleteConflict", 409, "Cannot delete a policy attached to entities.",
                            self.iam.delete_policy, PolicyArn=arn)
        self.iam.detach_user_policy(UserName=name, PolicyArn=arn)
        self.iam.delete_policy(PolicyArn=arn)
        self.iam.delete_user(UserName=name)

    def test_inline_policies_round_trip_url_encoded(self):
        name = unique("inline")
        self.iam.create_user(UserName=name)
        self.iam.put_user_policy(UserName=name, PolicyName="read", PolicyDocument=json.dumps(READ_TABLES))
        got = self.iam.get_user_policy(UserName=name, PolicyName="read")
        # botocore URL-decodes and parses IAM's policy documents: it gets back what was put
        self.assertEqual(got["PolicyDocument"], READ_TABLES, "the document comes back as it was put")
        self.assertEqual(self.iam.list_user_policies(UserName=name)["PolicyNames"], ["read"])
        rc, out, err = self.cli("iam", "get-user-policy", "--user-name", name, "--policy-name", "read")
        self.assertEqual((rc, out["PolicyDocument"]), (0, READ_TABLES), "and so does the aws CLI")
        self.iam.delete_user_policy(UserName=name, PolicyName="read")
        self.assertEqual(self.iam.list_user_policies(UserName=name)["PolicyNames"], [])

    def test_managed_policies_attach_to_users_and_roles(self):
        pname = unique("tables-read")
        policy = self.iam.create_policy(PolicyName=pname, Path="/floe/", PolicyDocument=json.dumps(READ_TABLES),
                                        Description="read tables")["Policy"]
        self.assertEqual(policy["Arn"], "arn:aws:iam::%s:policy/floe/%s" % (ACCOUNT, pname))
        self.assertEqual(policy["DefaultVersionId"], "v1")
        self.assertIamError("EntityAlreadyExists", 409,
                            "A policy called %s already exists. Duplicate names are not allowed." % pname,
                            self.iam.create_policy, PolicyName=pname, PolicyDocument=json.dumps(READ_TABLES))
        version = self.iam.get_policy_version(PolicyArn=policy["Arn"], VersionId="v1")["PolicyVersion"]
        self.assertEqual((version["Document"], version["IsDefaultVersion"]), (READ_TABLES, True))
        user, role = unique("attached-user"), unique("attached-role")
        self.iam.create_user(UserName=user)
        self.iam.create_role(RoleName=role, AssumeRolePolicyDocument=json.dumps(TRUST_ACCOUNT))
        self.iam.attach_user_policy(UserName=user, PolicyArn=policy["Arn"])
        self.iam.attach_role_policy(RoleName=role, PolicyArn=policy["Arn"])
        self.assertEqual(self.iam.get_policy(PolicyArn=policy["Arn"])["Policy"]["AttachmentCount"], 2)
        self.assertEqual(self.iam.list_attached_user_policies(UserName=user)["AttachedPolicies"],
                         [{"PolicyName": pname, "PolicyArn": policy["Arn"]}])
        self.assertEqual(self.iam.list_attached_role_policies(RoleName=role)["AttachedPolicies"],
                         [{"PolicyName": pname, "PolicyArn": policy["Arn"]}])
        self.iam.detach_user_policy(UserName=user, PolicyArn=policy["Arn"])
        self.assertIamError("NoSuchEntity", 404, "Policy %s was not found." % policy["Arn"],
                            self.iam.detach_user_policy, UserName=user, PolicyArn=policy["Arn"])
        missing = "arn:aws:iam::%s:policy/not-there" % ACCOUNT
        self.assertIamError("NoSuchEntity", 404, "Policy %s does not exist or is not attachable." % missing,
                            self.iam.attach_user_policy, UserName=user, PolicyArn=missing)
        self.assertIamError("NoSuchEntity", 404, "Policy %s was not found." % missing,
                            self.iam.get_policy, PolicyArn=missing)

    def test_roles(self):
        name = unique("role")
        role = self.iam.create_role(RoleName=name, AssumeRolePolicyDocument=json.dumps(TRUST_ACCOUNT),
                                    Description="reads tables", MaxSessionDuration=7200)["Role"]
        self.assertEqual(role["Arn"], "arn:aws:iam::%s:role/%s" % (ACCOUNT, name))
        self.assertRegex(role["RoleId"], r"^AROA[A-Z2-7]{17}$")
        got = self.iam.get_role(RoleName=name)["Role"]
        self.assertEqual((got["AssumeRolePolicyDocument"], got["MaxSessionDuration"], got["Description"]),
                         (TRUST_ACCOUNT, 7200, "reads tables"), "the trust policy comes back as it was given")
        self.assertIn(name, [r["RoleName"] for r in self.iam.list_roles()["Roles"]])
        self.assertIamError("EntityAlreadyExists", 409, "Role with name %s already exists." % name,
                            self.iam.create_role, RoleName=name, AssumeRolePolicyDocument=json.dumps(TRUST_ACCOUNT))
        self.iam.put_role_policy(RoleName=name, PolicyName="read", PolicyDocument=json.dumps(READ_TABLES))
        self.assertEqual(self.iam.get_role_policy(RoleName=name, PolicyName="read")["PolicyDocument"], READ_TABLES)
        self.assertEqual(self.iam.list_role_policies(RoleName=name)["PolicyNames"], ["read"])
        self.assertIamError("DeleteConflict", 409, "Cannot delete entity, must delete policies first.",
                            self.iam.delete_role, RoleName=name)
        self.iam.delete_role_policy(RoleName=name, PolicyName="read")
        self.assertIamError("NoSuchEntity", 404, "The role policy with name read cannot be found.",
                            self.iam.delete_role_policy, RoleName=name, PolicyName="read")
        self.iam.delete_role(RoleName=name)
        self.assertClientError("NoSuchEntity", self.iam.get_role, RoleName=name)

    def test_another_account_sees_none_of_it(self):
        name = unique("scoped")
        self.iam.create_user(UserName=name)
        other = self.signed_client("iam", "444455556666", "x")
        # the other account's key is not configured: strict signatures refuse it before IAM runs
        self.assertClientError("InvalidClientTokenId", other.get_user, UserName=name)

    def test_state_survives_restart_and_kill(self):
        name, key = self.new_user_with_key()
        self.iam.put_user_policy(UserName=name, PolicyName="read", PolicyDocument=json.dumps(READ_TABLES))
        self.server.restart()
        sts = self.signed_client("sts", key["AccessKeyId"], key["SecretAccessKey"])
        self.assertTrue(sts.get_caller_identity()["Arn"].endswith("/" + name), "the key works after a restart")
        self.server.kill()
        self.server.start()
        self.assertEqual(self.iam.get_user_policy(UserName=name, PolicyName="read")["PolicyDocument"], READ_TABLES,
                         "and everything is there after kill -9")
        self.assertTrue(sts.get_caller_identity()["Arn"].endswith("/" + name))


if __name__ == "__main__":
    main()

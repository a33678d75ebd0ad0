#!/usr/bin/python3
"""IAM's policy simulator: SimulateCustomPolicy and SimulatePrincipalPolicy answer, for each action
on each resource, what --enforce-iam decides (allowed, explicitDeny, implicitDeny) and which
statement of which policy decided it. Driven by the aws CLI and boto3, with the read-only and
namespace-scoped policies of AWS's S3 Tables guide."""

import json
import os
import sys
import tempfile
import uuid

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from floe_server import AWS_CLI, FloeTestCase, client_env, main  # noqa: E402

ACCOUNT, ROOT_SECRET = "111122223333", "root-secret-of-the-test-account"
OTHER = "444455556666"
BUCKET = "arn:aws:s3tables:us-east-1:%s:bucket/amzn-s3-demo-bucket" % ACCOUNT
TABLE = BUCKET + "/table/0123456789abcdef"

# AWS's S3 Tables guide: read-only access to a table bucket and its tables.
READ_ONLY = {"Version": "2012-10-17", "Statement": [{
    "Sid": "AllowReadOnlyAccess", "Effect": "Allow",
    "Action": ["s3tables:GetTableBucket", "s3tables:ListNamespaces", "s3tables:GetNamespace", "s3tables:ListTables",
               "s3tables:GetTable", "s3tables:GetTableMetadataLocation", "s3tables:GetTableData"],
    "Resource": [BUCKET, BUCKET + "/table/*"]}]}
DENY_DATA = {"Version": "2012-10-17", "Statement": [{
    "Sid": "ProtectTheData", "Effect": "Deny", "Action": "s3tables:GetTableData", "Resource": TABLE}]}
# AWS's S3 Tables guide: access to the tables of one namespace only.
NAMESPACE_HR = {"Version": "2012-10-17", "Statement": [{
    "Sid": "HrTablesOnly", "Effect": "Allow", "Action": ["s3tables:GetTable", "s3tables:GetTableData"],
    "Resource": BUCKET + "/table/*", "Condition": {"StringLike": {"s3tables:namespace": "hr"}}}]}
TRUST = {"Version": "2012-10-17", "Statement": [{
    "Effect": "Allow", "Principal": {"AWS": "arn:aws:iam::%s:root" % ACCOUNT}, "Action": "sts:AssumeRole"}]}


def by_action(results):
    return {r["EvalActionName"]: r for r in results}


class PolicySimulatorTests(FloeTestCase):
    server_args = ("--strict-signatures", "--credentials", "%s:%s" % (ACCOUNT, ROOT_SECRET))

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.iam = cls.signed_client("iam", ACCOUNT, ROOT_SECRET)

    def cli(self, *args):
        import subprocess
        self.require_tool(AWS_CLI)
        env = client_env(self.server)
        env.update({"AWS_ACCESS_KEY_ID": ACCOUNT, "AWS_SECRET_ACCESS_KEY": ROOT_SECRET})
        proc = subprocess.run([AWS_CLI, "--endpoint-url", self.server.endpoint, "--output", "json"] + list(args),
                              capture_output=True, text=True, env=env, timeout=120)
        return proc.returncode, proc.stdout, proc.stderr

    def read_only_role(self, *extra_inline):
        name = "reader-%s" % uuid.uuid4().hex[:8]
        role = self.iam.create_role(RoleName=name, AssumeRolePolicyDocument=json.dumps(TRUST))["Role"]
        self.iam.put_role_policy(RoleName=name, PolicyName="ReadOnly", PolicyDocument=json.dumps(READ_ONLY))
        for policy_name, doc in extra_inline:
            self.iam.put_role_policy(RoleName=name, PolicyName=policy_name, PolicyDocument=json.dumps(doc))
        return role

    def test_the_cli_simulates_a_custom_policy(self):
        # The CLI reads a list parameter's file as a JSON list: here, of one policy document.
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump([json.dumps(READ_ONLY)], f)
        try:
            code, out, err = self.cli("iam", "simulate-custom-policy", "--policy-input-list", "file://" + f.name,
                                      "--action-names", "s3tables:GetTable", "s3tables:PutTableData",
                                      "--resource-arns", TABLE)
        finally:
            os.unlink(f.name)
        self.assertEqual(code, 0, err)
        results = by_action(json.loads(out)["EvaluationResults"])
        get, put = results["s3tables:GetTable"], results["s3tables:PutTableData"]
        self.assertEqual((get["EvalResourceName"], get["EvalDecision"]), (TABLE, "allowed"))
        self.assertEqual(get["MatchedStatements"][0]["SourcePolicyId"], "PolicyInputList.1")
        self.assertEqual(put["EvalDecision"], "implicitDeny", "the read-only policy does not allow writes")
        self.assertEqual(put["MatchedStatements"], [])

    def test_a_role_is_simulated_with_its_own_policies(self):
        role = self.read_only_role(("ProtectTheData", DENY_DATA))
        out = self.iam.simulate_principal_policy(
            PolicySourceArn=role["Arn"], ResourceArns=[TABLE],
            ActionNames=["s3tables:GetTable", "s3tables:PutTableData", "s3tables:GetTableData"])
        self.assertFalse(out["IsTruncated"])
        results = by_action(out["EvaluationResults"])
        get = results["s3tables:GetTable"]
        self.assertEqual(get["EvalDecision"], "allowed")
        self.assertEqual([(s["SourcePolicyId"], s["SourcePolicyType"]) for s in get["MatchedStatements"]],
                         [("ReadOnly", "role")], "the role's inline policy allowed it")
        self.assertEqual(results["s3tables:PutTableData"]["EvalDecision"], "implicitDeny")
        deny = results["s3tables:GetTableData"]
        self.assertEqual(deny["EvalDecision"], "explicitDeny", "a Deny wins over the read-only Allow")
        self.assertEqual([(s["SourcePolicyId"], s["SourcePolicyType"]) for s in deny["MatchedStatements"]],
                         [("ProtectTheData", "role")])

    def test_context_entries_meet_a_namespace_condition(self):
        name = "hr-%s" % uuid.uuid4().hex[:8]
        role = self.iam.create_role(RoleName=name, AssumeRolePolicyDocument=json.dumps(TRUST))["Role"]
        self.iam.put_role_policy(RoleName=name, PolicyName="HrOnly", PolicyDocument=json.dumps(NAMESPACE_HR))

        def decision(namespace):
            kwargs = {}
            if namespace is not None:
                kwargs["ContextEntries"] = [{"ContextKeyName": "s3tables:namespace", "ContextKeyValues": [namespace],
                                             "ContextKeyType": "string"}]
            out = self.iam.simulate_principal_policy(PolicySourceArn=role["Arn"], ActionNames=["s3tables:GetTable"],
                                                     ResourceArns=[TABLE], **kwargs)
            result = out["EvaluationResults"][0]
            return result["EvalDecision"], result["MissingContextValues"]

        self.assertEqual(decision("hr"), ("allowed", []))
        self.assertEqual(decision("finance"), ("implicitDeny", []))
        self.assertEqual(decision(None), ("implicitDeny", ["s3tables:namespace"]),
                         "a condition on a key the request lacks does not hold, and the key is named missing")

    def test_a_resource_policy_grants_another_account(self):
        shared = {"Version": "2012-10-17", "Statement": [{
            "Sid": "ShareRead", "Effect": "Allow", "Principal": {"AWS": "arn:aws:iam::%s:root" % OTHER},
            "Action": "s3tables:GetTable", "Resource": TABLE}]}
        caller = "arn:aws:iam::%s:user/analyst" % OTHER

        def simulate(identity):
            return self.iam.simulate_custom_policy(
                PolicyInputList=[json.dumps(identity)], ActionNames=["s3tables:GetTable"], ResourceArns=[TABLE],
                ResourcePolicy=json.dumps(shared), ResourceOwner="arn:aws:iam::%s:root" % ACCOUNT,
                CallerArn=caller)["EvaluationResults"][0]

        both = simulate(READ_ONLY)
        self.assertEqual(both["EvalDecision"], "allowed", "both sides allow across accounts")
        self.assertEqual(both["EvalDecisionDetails"], {"IAM Policy": "allowed", "Resource Policy": "allowed"})
        alone = simulate(DENY_DATA)
        self.assertEqual(alone["EvalDecision"], "implicitDeny", "the resource policy alone grants no other account")

    def test_pages_and_errors(self):
        out = self.iam.simulate_custom_policy(PolicyInputList=[json.dumps(READ_ONLY)], MaxItems=1,
                                              ActionNames=["s3tables:GetTable", "s3tables:ListTables"])
        self.assertTrue(out["IsTruncated"])
        self.assertEqual(out["EvaluationResults"][0]["EvalResourceName"], "*", "every resource by default")
        rest = self.iam.simulate_custom_policy(PolicyInputList=[json.dumps(READ_ONLY)], Marker=out["Marker"],
                                               ActionNames=["s3tables:GetTable", "s3tables:ListTables"])
        self.assertEqual([r["EvalActionName"] for r in rest["EvaluationResults"]], ["s3tables:ListTables"])
        self.assertFalse(rest["IsTruncated"])
        self.assertClientError("InvalidInput", self.iam.simulate_custom_policy,
                               PolicyInputList=['{"Statement": "no"}'], ActionNames=["s3tables:GetTable"])
        self.assertClientError("NoSuchEntity", self.iam.simulate_principal_policy,
                               PolicySourceArn="arn:aws:iam::%s:role/nobody" % ACCOUNT,
                               ActionNames=["s3tables:GetTable"])


if __name__ == "__main__":
    main()

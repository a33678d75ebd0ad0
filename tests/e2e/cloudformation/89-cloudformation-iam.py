#!/usr/bin/python3
"""CloudFormation's AWS::IAM resource types on Floe, driven by boto3 as against AWS: a stack makes a
role (with an inline policy, a managed policy attached and Fn::GetAtt Arn), a user with an access key
(whose SecretAccessKey an output hands on, and which signs under --strict-signatures at once), an
AWS::IAM::Policy on both; an update changes the role in place; deleting the stack removes all of it,
and the key stops working."""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from floe_server import FloeTestCase, main  # noqa: E402

ACCOUNT, ROOT_SECRET = "111122223333", "root-secret-of-the-test-account"
WAIT = {"Delay": 0.1, "MaxAttempts": 600}
READ = {"Version": "2012-10-17",
        "Statement": [{"Effect": "Allow", "Action": ["s3tables:Get*", "s3tables:List*"], "Resource": "*"}]}
TRUST = {"Version": "2012-10-17",
         "Statement": [{"Effect": "Allow", "Principal": {"AWS": "arn:aws:iam::%s:root" % ACCOUNT},
                        "Action": "sts:AssumeRole"}]}


def stack_template(role_description):
    return json.dumps({
        "Resources": {
            "Readers": {"Type": "AWS::IAM::ManagedPolicy",
                        "Properties": {"ManagedPolicyName": "cfn-readers", "PolicyDocument": READ}},
            "Reader": {"Type": "AWS::IAM::Role",
                       "Properties": {"RoleName": "cfn-reader", "AssumeRolePolicyDocument": TRUST,
                                      "Description": role_description,
                                      "ManagedPolicyArns": [{"Ref": "Readers"}],
                                      "Policies": [{"PolicyName": "inline-read", "PolicyDocument": READ}]}},
            "Analyst": {"Type": "AWS::IAM::User", "Properties": {"UserName": "cfn-analyst", "Path": "/team/"}},
            "AnalystKey": {"Type": "AWS::IAM::AccessKey", "Properties": {"UserName": {"Ref": "Analyst"}}},
            "Shared": {"Type": "AWS::IAM::Policy",
                       "Properties": {"PolicyName": "shared", "PolicyDocument": READ,
                                      "Users": [{"Ref": "Analyst"}], "Roles": [{"Ref": "Reader"}]}},
        },
        "Outputs": {
            "RoleArn": {"Value": {"Fn::GetAtt": ["Reader", "Arn"]}},
            "RoleId": {"Value": {"Fn::GetAtt": ["Reader", "RoleId"]}},
            "UserArn": {"Value": {"Fn::GetAtt": ["Analyst", "Arn"]}},
            "KeyId": {"Value": {"Ref": "AnalystKey"}},
            "Secret": {"Value": {"Fn::GetAtt": ["AnalystKey", "SecretAccessKey"]}},
            "PolicyArn": {"Value": {"Ref": "Readers"}},
        },
    })


class CloudFormationIamTests(FloeTestCase):
    server_args = ("--strict-signatures", "--credentials", "%s:%s" % (ACCOUNT, ROOT_SECRET))

    def outputs(self, cfn, name):
        stack = cfn.describe_stacks(StackName=name)["Stacks"][0]
        return stack["StackStatus"], {o["OutputKey"]: o["OutputValue"] for o in stack.get("Outputs", [])}

    def test_a_stack_makes_changes_and_removes_roles_users_policies_and_keys(self):
        cfn = self.signed_client("cloudformation", ACCOUNT, ROOT_SECRET)
        iam = self.signed_client("iam", ACCOUNT, ROOT_SECRET)
        cfn.create_stack(StackName="iam-stack", TemplateBody=stack_template("v1"), Capabilities=["CAPABILITY_NAMED_IAM"])
        cfn.get_waiter("stack_create_complete").wait(StackName="iam-stack", WaiterConfig=WAIT)
        status, out = self.outputs(cfn, "iam-stack")
        self.assertEqual(status, "CREATE_COMPLETE")
        self.assertEqual(out["RoleArn"], "arn:aws:iam::%s:role/cfn-reader" % ACCOUNT, "Fn::GetAtt Arn")
        self.assertEqual(out["UserArn"], "arn:aws:iam::%s:user/team/cfn-analyst" % ACCOUNT)
        self.assertEqual(out["PolicyArn"], "arn:aws:iam::%s:policy/cfn-readers" % ACCOUNT, "a managed policy's Ref is its ARN")

        role = iam.get_role(RoleName="cfn-reader")["Role"]
        self.assertEqual((role["RoleId"], role["AssumeRolePolicyDocument"], role["Description"]),
                         (out["RoleId"], TRUST, "v1"))
        self.assertEqual(sorted(iam.list_role_policies(RoleName="cfn-reader")["PolicyNames"]), ["inline-read", "shared"])
        self.assertEqual([p["PolicyArn"] for p in iam.list_attached_role_policies(RoleName="cfn-reader")["AttachedPolicies"]],
                         [out["PolicyArn"]])
        self.assertEqual(iam.get_user_policy(UserName="cfn-analyst", PolicyName="shared")["PolicyDocument"], READ)

        who = self.signed_client("sts", out["KeyId"], out["Secret"]).get_caller_identity()
        self.assertEqual(who["Arn"], out["UserArn"], "the stack's access key signs at once")

        cfn.update_stack(StackName="iam-stack", TemplateBody=stack_template("v2"), Capabilities=["CAPABILITY_NAMED_IAM"])
        cfn.get_waiter("stack_update_complete").wait(StackName="iam-stack", WaiterConfig=WAIT)
        role = iam.get_role(RoleName="cfn-reader")["Role"]
        self.assertEqual((role["Description"], role["RoleId"]), ("v2", out["RoleId"]), "updated in place")

        cfn.delete_stack(StackName="iam-stack")
        cfn.get_waiter("stack_delete_complete").wait(StackName="iam-stack", WaiterConfig=WAIT)
        self.assertClientError("NoSuchEntity", iam.get_role, RoleName="cfn-reader")
        self.assertClientError("NoSuchEntity", iam.get_user, UserName="cfn-analyst")
        self.assertClientError("NoSuchEntity", iam.get_policy, PolicyArn=out["PolicyArn"])
        self.assertClientError("InvalidClientTokenId", self.signed_client("sts", out["KeyId"], out["Secret"]).get_caller_identity)

    def test_a_role_with_a_malformed_trust_policy_fails_the_stack(self):
        cfn = self.signed_client("cloudformation", ACCOUNT, ROOT_SECRET)
        bad = json.dumps({"Resources": {"Bad": {"Type": "AWS::IAM::Role",
                                                "Properties": {"AssumeRolePolicyDocument": "not a policy"}}}})
        stack_id = cfn.create_stack(StackName="bad-iam", TemplateBody=bad, OnFailure="DELETE")["StackId"]
        cfn.get_waiter("stack_delete_complete").wait(StackName=stack_id, WaiterConfig=WAIT)
        events = cfn.describe_stack_events(StackName=stack_id)["StackEvents"]
        reasons = [e.get("ResourceStatusReason", "") for e in events if e["LogicalResourceId"] == "Bad"]
        self.assertTrue(any("policy" in r.lower() for r in reasons), "the reason says the policy is malformed: %s" % reasons)


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""--enforce-iam keeps what it authorizes with in memory (each access key's principal with its
identity policies, each bucket's and table's policies), and a change takes effect on the very next
call, whichever serving thread (two here) or CloudFormation's thread made it and whichever serves
the next call: PutTableBucketPolicy, PutTablePolicy and their deletes; IAM's PutUserPolicy,
DeleteUserPolicy, AttachUserPolicy, DetachUserPolicy, the role's equivalents and DeleteAccessKey;
a bucket or table deleted and created again under its name; a stack's bucket policy. Each change
comes after calls that the old state decided, so a stale cache answers the old way. Driven by
boto3, as against AWS."""

import json
import os
import sys
import uuid

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from floe_server import FloeTestCase, main  # noqa: E402

OWNER, OTHER = "111122223333", "444455556666"
SCHEMA = {"fields": [{"name": "id", "type": "long", "required": True}]}
WARM_CALLS = 4  # calls per client before a change: both serving threads have decided by then


def unique(prefix):
    return "%s-%s" % (prefix, uuid.uuid4().hex[:8])


def document(effect, principal, action, resource):
    statement = {"Effect": effect, "Action": action, "Resource": resource}
    if principal is not None:
        statement["Principal"] = {"AWS": principal}
    return json.dumps({"Version": "2012-10-17", "Statement": [statement]})


class ChangesTakeEffectAtOnceTests(FloeTestCase):
    server_args = ("--strict-signatures", "--enforce-iam", "--threads", "2",
                   "--credentials", "%s:owner-secret" % OWNER, "--credentials", "%s:other-secret" % OTHER)

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.owner = cls.signed_client("s3tables", OWNER, "owner-secret")
        cls.iam = cls.signed_client("iam", OWNER, "owner-secret")
        cls.sts = cls.signed_client("sts", OWNER, "owner-secret")
        # two clients of one key: two connection pools, which the two serving threads share out
        cls.others = [cls.signed_client("s3tables", OTHER, "other-secret") for _ in range(2)]

    def assertAllowed(self, clients, fn_name, why, **kwargs):
        import botocore.exceptions
        for client in clients:
            for _ in range(WARM_CALLS):
                try:
                    getattr(client, fn_name)(**kwargs)
                except botocore.exceptions.ClientError as e:
                    self.fail("%s, but: %s" % (why, e))

    def assertDenied(self, clients, fn_name, why, **kwargs):
        for client in clients:
            for _ in range(WARM_CALLS):
                response = self.assertClientError("AccessDeniedException", getattr(client, fn_name), **kwargs)
                self.assertIn(why, response["Error"]["Message"])

    def bucket_with_table(self, bucket, namespace, table):
        """The owner's new `bucket` with `namespace` and `table` in it: their ARNs (bucket, table)."""
        arn = self.owner.create_table_bucket(name=bucket)["arn"]
        self.owner.create_namespace(tableBucketARN=arn, namespace=[namespace])
        return arn, self.owner.create_table(tableBucketARN=arn, namespace=namespace, name=table, format="ICEBERG",
                                            metadata={"iceberg": {"schema": SCHEMA}})["tableARN"]

    def test_a_bucket_policy_decides_the_very_next_call(self):
        arn = self.owner.create_table_bucket(name=unique("shared"))["arn"]
        self.assertDenied(self.others, "get_table_bucket", "because no resource-based policy allows",
                          tableBucketARN=arn)
        self.owner.put_table_bucket_policy(tableBucketARN=arn, resourcePolicy=document(
            "Allow", OTHER, "s3tables:GetTableBucket", arn))
        self.assertAllowed(self.others, "get_table_bucket", "the policy put grants the next call", tableBucketARN=arn)
        self.owner.put_table_bucket_policy(tableBucketARN=arn, resourcePolicy=document(
            "Allow", OTHER, "s3tables:ListNamespaces", arn))
        self.assertDenied(self.others, "get_table_bucket", "because no resource-based policy allows",
                          tableBucketARN=arn)
        self.owner.put_table_bucket_policy(tableBucketARN=arn, resourcePolicy=document(
            "Allow", OTHER, "s3tables:*", arn))
        self.assertAllowed(self.others, "get_table_bucket", "a replaced policy decides the next call",
                           tableBucketARN=arn)
        self.owner.delete_table_bucket_policy(tableBucketARN=arn)
        self.assertDenied(self.others, "get_table_bucket", "because no resource-based policy allows",
                          tableBucketARN=arn)

    def test_a_table_policy_decides_the_very_next_call(self):
        arn, table_arn = self.bucket_with_table(unique("tables"), "sales", "orders")
        args = {"tableBucketARN": arn, "namespace": "sales", "name": "orders"}
        self.owner.put_table_policy(resourcePolicy=document("Allow", OTHER, "s3tables:GetTable", table_arn), **args)
        self.assertAllowed(self.others, "get_table", "the table policy grants", **args)
        self.owner.put_table_policy(resourcePolicy=document("Deny", "*", "s3tables:GetTable", table_arn), **args)
        self.assertDenied(self.others, "get_table", "with an explicit deny in a resource-based policy", **args)
        self.assertDenied([self.owner], "get_table", "with an explicit deny in a resource-based policy", **args)
        self.owner.delete_table_policy(**args)
        self.assertAllowed([self.owner], "get_table", "the owner's root reads its table again", **args)
        self.assertDenied(self.others, "get_table", "because no resource-based policy allows", **args)

    def user_with_key(self):
        name = unique("user")
        self.iam.create_user(UserName=name)
        key = self.iam.create_access_key(UserName=name)["AccessKey"]
        clients = [self.signed_client("s3tables", key["AccessKeyId"], key["SecretAccessKey"]) for _ in range(2)]
        return name, key["AccessKeyId"], clients

    def test_a_users_policies_and_key_decide_the_very_next_call(self):
        arn = self.owner.create_table_bucket(name=unique("users"))["arn"]
        name, key_id, clients = self.user_with_key()
        self.assertDenied(clients, "get_table_bucket", "because no identity-based policy allows", tableBucketARN=arn)
        self.iam.put_user_policy(UserName=name, PolicyName="read", PolicyDocument=document(
            "Allow", None, "s3tables:GetTableBucket", "*"))
        self.assertAllowed(clients, "get_table_bucket", "PutUserPolicy grants the next call", tableBucketARN=arn)
        self.iam.delete_user_policy(UserName=name, PolicyName="read")
        self.assertDenied(clients, "get_table_bucket", "because no identity-based policy allows", tableBucketARN=arn)
        managed = self.iam.create_policy(PolicyName=unique("managed"), PolicyDocument=document(
            "Allow", None, "s3tables:GetTableBucket", arn))["Policy"]["Arn"]
        self.iam.attach_user_policy(UserName=name, PolicyArn=managed)
        self.assertAllowed(clients, "get_table_bucket", "AttachUserPolicy grants the next call", tableBucketARN=arn)
        self.iam.put_user_policy(UserName=name, PolicyName="guard", PolicyDocument=document(
            "Deny", None, "s3tables:GetTableBucket", "*"))
        self.assertDenied(clients, "get_table_bucket", "with an explicit deny in an identity-based policy",
                          tableBucketARN=arn)
        self.iam.delete_user_policy(UserName=name, PolicyName="guard")
        self.assertAllowed(clients, "get_table_bucket", "the deny is gone", tableBucketARN=arn)
        self.iam.detach_user_policy(UserName=name, PolicyArn=managed)
        self.assertDenied(clients, "get_table_bucket", "because no identity-based policy allows", tableBucketARN=arn)
        self.iam.attach_user_policy(UserName=name, PolicyArn=managed)
        self.assertAllowed(clients, "get_table_bucket", "attached again", tableBucketARN=arn)
        self.iam.delete_access_key(UserName=name, AccessKeyId=key_id)
        for client in clients:
            self.assertClientError("UnrecognizedClientException", client.get_table_bucket, tableBucketARN=arn)

    def test_a_roles_policies_decide_its_sessions_very_next_call(self):
        arn = self.owner.create_table_bucket(name=unique("roles"))["arn"]
        role = self.iam.create_role(RoleName=unique("reader"), AssumeRolePolicyDocument=json.dumps({
            "Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Principal": {"AWS": "arn:aws:iam::%s:root" % OWNER},
                                                    "Action": "sts:AssumeRole"}]}))["Role"]
        creds = self.sts.assume_role(RoleArn=role["Arn"], RoleSessionName="etl")["Credentials"]
        clients = [self.signed_client("s3tables", creds["AccessKeyId"], creds["SecretAccessKey"], creds["SessionToken"])
                   for _ in range(2)]
        self.assertDenied(clients, "get_table_bucket", "because no identity-based policy allows", tableBucketARN=arn)
        self.iam.put_role_policy(RoleName=role["RoleName"], PolicyName="read", PolicyDocument=document(
            "Allow", None, "s3tables:GetTableBucket", "*"))
        self.assertAllowed(clients, "get_table_bucket", "PutRolePolicy grants the session", tableBucketARN=arn)
        self.iam.delete_role_policy(RoleName=role["RoleName"], PolicyName="read")
        self.assertDenied(clients, "get_table_bucket", "because no identity-based policy allows", tableBucketARN=arn)
        managed = self.iam.create_policy(PolicyName=unique("role-managed"), PolicyDocument=document(
            "Allow", None, "s3tables:GetTableBucket", "*"))["Policy"]["Arn"]
        self.iam.attach_role_policy(RoleName=role["RoleName"], PolicyArn=managed)
        self.assertAllowed(clients, "get_table_bucket", "AttachRolePolicy grants the session", tableBucketARN=arn)
        self.iam.detach_role_policy(RoleName=role["RoleName"], PolicyArn=managed)
        self.assertDenied(clients, "get_table_bucket", "because no identity-based policy allows", tableBucketARN=arn)

    def test_a_bucket_or_table_created_again_has_none_of_the_old_policy(self):
        name = unique("again")
        arn, table_arn = self.bucket_with_table(name, "sales", "orders")
        args = {"tableBucketARN": arn, "namespace": "sales", "name": "orders"}
        self.owner.put_table_policy(resourcePolicy=document("Allow", OTHER, "s3tables:GetTable", table_arn), **args)
        self.assertAllowed(self.others, "get_table", "the old table's policy grants", **args)
        self.owner.delete_table(**args)
        new_table = self.owner.create_table(format="ICEBERG", metadata={"iceberg": {"schema": SCHEMA}},
                                            **args)["tableARN"]
        self.assertNotEqual(new_table, table_arn, "a table created again is another table")
        for client in self.others:
            response = self.assertClientError("AccessDeniedException", client.get_table, **args)
            self.assertIn("on resource: %s because no resource-based policy allows" % new_table,
                          response["Error"]["Message"], "the new table has no policy, and the denial names it")
        self.owner.put_table_bucket_policy(tableBucketARN=arn, resourcePolicy=document(
            "Allow", OTHER, "s3tables:GetTableBucket", arn))
        self.assertAllowed(self.others, "get_table_bucket", "the old bucket's policy grants", tableBucketARN=arn)
        self.owner.delete_table(**args)
        self.owner.delete_namespace(tableBucketARN=arn, namespace="sales")
        self.owner.delete_table_bucket(tableBucketARN=arn)
        again = self.owner.create_table_bucket(name=name)["arn"]
        self.assertEqual(again, arn, "the bucket created again has the same ARN")
        self.assertDenied(self.others, "get_table_bucket", "because no resource-based policy allows",
                          tableBucketARN=arn)

    def test_a_policy_a_stack_puts_decides_the_very_next_call(self):
        cfn = self.signed_client("cloudformation", OWNER, "owner-secret")
        arn = self.owner.create_table_bucket(name=unique("stacked"))["arn"]
        self.assertDenied(self.others, "get_table_bucket", "because no resource-based policy allows",
                          tableBucketARN=arn)
        template = {"Resources": {"Policy": {"Type": "AWS::S3Tables::TableBucketPolicy", "Properties": {
            "TableBucketARN": arn, "ResourcePolicy": json.loads(document(
                "Allow", OTHER, "s3tables:GetTableBucket", arn))}}}}
        stack = unique("policy")
        cfn.create_stack(StackName=stack, TemplateBody=json.dumps(template))
        cfn.get_waiter("stack_create_complete").wait(StackName=stack, WaiterConfig={"Delay": 0.1, "MaxAttempts": 600})
        self.assertAllowed(self.others, "get_table_bucket", "the stack's policy grants", tableBucketARN=arn)
        cfn.delete_stack(StackName=stack)
        cfn.get_waiter("stack_delete_complete").wait(StackName=stack, WaiterConfig={"Delay": 0.1, "MaxAttempts": 600})
        self.assertDenied(self.others, "get_table_bucket", "because no resource-based policy allows",
                          tableBucketARN=arn)


if __name__ == "__main__":
    main()

"""What the assumed-role engine tests (tests/e2e/authz/57 and 58) share: the account whose root
makes the table, the table's schema and rows, AWS's read-only S3 Tables policy, a trust policy and the sentence
a refused session gets. Imported under the engines' virtual environment (PyIceberg, PyArrow)."""

import json

import pyarrow as pa
from pyiceberg.schema import Schema
from pyiceberg.types import LongType, NestedField, StringType

ACCOUNT, ROOT_SECRET = "111122223333", "root-secret"
SCHEMA = Schema(NestedField(1, "id", LongType(), required=True), NestedField(2, "item", StringType()))
ROWS = pa.table({"id": pa.array([1, 2, 3], pa.int64()), "item": ["apple", "pear", "plum"]},
                schema=SCHEMA.as_arrow())
# AWS's managed policy AmazonS3TablesReadOnlyAccess ("Provides read only access to all S3 table
# buckets"), as the AWS Managed Policy reference lists it.
READ_ONLY = {"Version": "2012-10-17",
             "Statement": [{"Effect": "Allow", "Action": ["s3tables:Get*", "s3tables:List*"], "Resource": "*"}]}


def refusal(session_arn, action, resource):
    """AWS's sentence for a session whose role's policies do not allow ACTION on RESOURCE."""
    return ("User: %s is not authorized to perform: %s on resource: %s because no identity-based policy "
            "allows the %s action" % (session_arn, action, resource, action))


def trust(principal_arn):
    """A role's trust policy that lets PRINCIPAL_ARN (a user, or an account's root) assume it."""
    return json.dumps({"Version": "2012-10-17", "Statement": [
        {"Effect": "Allow", "Principal": {"AWS": principal_arn}, "Action": "sts:AssumeRole"}]})

#!/usr/bin/python3
"""The capability docs tell the truth: every operation in generated/docs/operations.md is called
with a request that is valid for the model (built from the model itself), and it answers 501
NotImplementedException exactly when the docs say "not implemented". And every operation the docs
claim (implemented or partial) is called once on real state (a table bucket, a namespace and a
table made first; the operations run in a fixed plan: create, update and put, then get and list,
then rename and delete), and must succeed with an answer that carries every member the model
marks required: a claim whose handler fails, or answers without what the model promises, fails."""

import json
import os
import re
import sys
import urllib.error
import urllib.parse
import urllib.request

E2E_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, E2E_DIR)
from floe_server import SOURCE_DIR, FloeTestCase, main  # noqa: E402

sys.path.insert(0, os.path.join(SOURCE_DIR, "codegen"))
import samples  # noqa: E402
import smithy  # noqa: E402

DOCS = os.path.join(SOURCE_DIR, "generated", "docs", "operations.md")


def documented_statuses():
    rows = {}
    with open(DOCS) as f:
        for line in f:
            m = re.match(r"^\| \d+ \| \[(\w+)\]\([^)]*\) \| [A-Z]+ \| .* "
                         r"\| (implemented|partial|not implemented) \|", line)
            if m:
                rows[m.group(1)] = m.group(2)
    return rows


def sample_string(member):
    length = member.constraint("smithy.api#length") or {}
    pattern = member.constraint("smithy.api#pattern")
    if pattern:
        return samples.pattern_sample(pattern, length.get("min", 0), length.get("max"))
    return "a" * max(length.get("min", 1), 1)


def sample_value(member, depth=0):
    """A value of the member's target that satisfies the model's constraints."""
    t = member.target
    if t.kind == "string":
        return sample_string(member)
    if t.kind == "enum":
        return t.members[0].enum_value
    if t.kind in ("integer", "long"):
        rng = member.constraint("smithy.api#range") or {}
        return int(rng.get("min", 1))
    if t.kind == "boolean":
        return True
    if t.kind == "timestamp":
        return "2024-01-01T00:00:00Z"
    if t.kind == "document":
        return "string"
    if t.kind == "list":
        n = (member.constraint("smithy.api#length") or {}).get("min", 1) or 1
        return [sample_value(t.member, depth + 1) for _ in range(n)]
    if t.kind == "map":
        return {}
    if t.kind == "union":
        return {t.members[0].json_name: sample_value(t.members[0], depth + 1)}
    if t.kind == "structure":
        return {m.json_name: sample_value(m, depth + 1) for m in t.members if m.required}
    raise AssertionError("no sample for %s" % t.kind)


def build_request(op, values=None):
    """(method, path, body) of a call of op: the members in values (by member name) with those
    values, the other required members with samples valid for the model."""
    values = values or {}
    path = op.uri
    query, body = [], {}

    def value(m):
        return values[m.name] if m.name in values else sample_value(m)

    for m in op.input.members:
        if m.location == "label":
            path = path.replace("{%s}" % m.name, urllib.parse.quote(str(value(m)), safe=""))
        elif m.location == "query" and (m.required or m.name in values):
            v = value(m)
            for item in v if isinstance(v, list) else [v]:
                query.append((m.query_key, str(item)))
        elif m.location == "body" and (m.required or m.name in values):
            body[m.json_name] = value(m)
    if query:
        path += "?" + urllib.parse.urlencode(query)
    return op.method, path, (json.dumps(body).encode() if body else b"")


class CapabilityTests(FloeTestCase):
    def call(self, method, path, body):
        """A signed call: (status, x-amzn-ErrorType)."""
        status, headers, _ = self.call_json(method, path, body)
        return status, headers.get("x-amzn-ErrorType")

    def call_json(self, method, path, body):
        """Like call, with the answer's headers and parsed JSON body: (status, headers, body)."""
        from botocore.auth import SigV4Auth
        from botocore.awsrequest import AWSRequest
        req = AWSRequest(method=method, url=self.server.endpoint + path, data=body,
                         headers={"Content-Type": "application/json"} if body else {})
        SigV4Auth(self.session.get_credentials(), "s3tables", "us-east-1").add_auth(req)
        prepared = req.prepare()
        r = urllib.request.Request(prepared.url, data=body or None, method=method, headers=dict(prepared.headers))
        try:
            with urllib.request.urlopen(r, timeout=10) as resp:
                status, headers, data = resp.status, resp.headers, resp.read()
        except urllib.error.HTTPError as e:
            status, headers, data = e.code, e.headers, e.read()
        try:
            return status, headers, json.loads(data) if data.strip() else {}
        except ValueError:
            return status, headers, {"unparsed": data.decode(errors="replace")}

    def test_docs_list_every_operation_of_the_model(self):
        model = smithy.Model(os.path.join(SOURCE_DIR, "models", "s3tables", "s3tables-2018-05-10.smithy.json"))
        self.assertEqual(sorted(documented_statuses()), sorted(op.name for op in model.operations),
                         "operations.md has one row per operation of the model")

    def test_501_exactly_when_the_docs_say_not_implemented(self):
        model = smithy.Model(os.path.join(SOURCE_DIR, "models", "s3tables", "s3tables-2018-05-10.smithy.json"))
        docs = documented_statuses()
        for op in model.operations:
            with self.subTest(operation=op.name):
                status, error = self.call(*build_request(op))
                if docs[op.name] == "not implemented":
                    self.assertEqual((status, error), (501, "NotImplementedException"),
                                     "%s is documented as not implemented, so it answers 501" % op.name)
                else:
                    self.assertNotEqual(status, 501, "%s is documented as %s, so it does not answer 501"
                                        % (op.name, docs[op.name]))


    def make_state(self):
        """A table bucket with a namespace and a table, and a second bucket to replicate to."""
        client = self.make_client("s3tables")
        bucket = client.create_table_bucket(name="capabilities")["arn"]
        dest = client.create_table_bucket(name="capabilities-replicas")["arn"]
        client.create_namespace(tableBucketARN=bucket, namespace=["fixture"])
        table = client.create_table(tableBucketARN=bucket, namespace="fixture", name="events", format="ICEBERG")
        return client, bucket, dest, table["tableARN"]

    def plan(self, client, bucket, dest, table):
        """[(operation, {member: value or fn() -> value})] in the order they run: what each call
        needs beyond the model's samples. Made resources are named apart from the fixture's."""
        policy = json.dumps({"Version": "2012-10-17", "Statement": [{
            "Effect": "Allow", "Principal": {"AWS": "arn:aws:iam::000000000000:root"},
            "Action": "s3tables:GetTable", "Resource": table}]})
        replication = {"role": "arn:aws:iam::000000000000:role/replication",
                       "rules": [{"destinations": [{"destinationTableBucketARN": dest}]}]}
        on_table = {"tableBucketARN": bucket, "namespace": "fixture", "name": "events"}
        by_arn = {"tableArn": table}

        def token():
            return client.get_table(tableArn=table)["versionToken"]

        def replication_token():
            return client.get_table_replication(tableArn=table)["versionToken"]

        def warehouse_location():
            return client.get_table(tableArn=table)["warehouseLocation"] + "/metadata/00001.metadata.json"

        return [
            ("CreateTableBucket", {"name": "capabilities-extra"}),
            ("CreateNamespace", {"tableBucketARN": bucket, "namespace": ["extra"]}),
            ("CreateTable", {"tableBucketARN": bucket, "namespace": "extra", "name": "extra", "format": "ICEBERG"}),
            # before the gets: AWS leaves a table's modifiedBy out until something modifies it
            ("UpdateTableMetadataLocation", dict(on_table, versionToken=token, metadataLocation=warehouse_location)),
            ("TagResource", {"resourceArn": table, "tags": {"team": "floe"}}),
            ("PutTableBucketEncryption", {"tableBucketARN": bucket}),
            ("PutTableBucketPolicy", {"tableBucketARN": bucket, "resourcePolicy": policy}),
            ("PutTableBucketReplication", {"tableBucketARN": bucket, "configuration": replication}),
            ("PutTableBucketMaintenanceConfiguration", {"tableBucketARN": bucket}),
            ("PutTableBucketMetricsConfiguration", {"tableBucketARN": bucket}),
            ("PutTableBucketStorageClass", {"tableBucketARN": bucket}),
            ("PutTablePolicy", dict(on_table, resourcePolicy=policy)),
            ("PutTableReplication", dict(by_arn, configuration=replication)),
            ("PutTableMaintenanceConfiguration", on_table),
            ("PutTableRecordExpirationConfiguration", by_arn),
            ("GetTableBucket", {"tableBucketARN": bucket}),
            ("ListTableBuckets", {}),
            ("GetNamespace", {"tableBucketARN": bucket, "namespace": "fixture"}),
            ("ListNamespaces", {"tableBucketARN": bucket}),
            ("GetTable", {"tableArn": table}),
            ("ListTables", {"tableBucketARN": bucket}),
            ("ListTagsForResource", {"resourceArn": table}),
            ("GetTableBucketEncryption", {"tableBucketARN": bucket}),
            ("GetTableBucketPolicy", {"tableBucketARN": bucket}),
            ("GetTableBucketReplication", {"tableBucketARN": bucket}),
            ("GetTableBucketMaintenanceConfiguration", {"tableBucketARN": bucket}),
            ("GetTableBucketMetricsConfiguration", {"tableBucketARN": bucket}),
            ("GetTableBucketStorageClass", {"tableBucketARN": bucket}),
            ("GetTableEncryption", on_table),
            ("GetTablePolicy", on_table),
            ("GetTableReplication", by_arn),
            ("GetTableReplicationStatus", by_arn),
            ("GetTableMaintenanceConfiguration", on_table),
            ("GetTableMaintenanceJobStatus", on_table),
            ("GetTableMetadataLocation", on_table),
            ("GetTableRecordExpirationConfiguration", by_arn),
            ("GetTableRecordExpirationJobStatus", by_arn),
            ("GetTableStorageClass", on_table),
            ("RenameTable", {"tableBucketARN": bucket, "namespace": "extra", "name": "extra", "newName": "renamed"}),
            ("UntagResource", {"resourceArn": table, "tagKeys": ["team"]}),
            ("DeleteTableReplication", dict(by_arn, versionToken=replication_token)),
            ("DeleteTableBucketReplication", {"tableBucketARN": bucket}),
            ("DeleteTablePolicy", on_table),
            ("DeleteTableBucketPolicy", {"tableBucketARN": bucket}),
            ("DeleteTableBucketMetricsConfiguration", {"tableBucketARN": bucket}),
            ("DeleteTableBucketEncryption", {"tableBucketARN": bucket}),
            ("DeleteTable", {"tableBucketARN": bucket, "namespace": "extra", "name": "renamed"}),
            ("DeleteNamespace", {"tableBucketARN": bucket, "namespace": "extra"}),
            ("DeleteTableBucket", {"tableBucketARN": lambda: next(
                b["arn"] for b in client.list_table_buckets()["tableBuckets"] if b["name"] == "capabilities-extra")}),
        ]

    def test_every_claimed_operation_answers_what_the_model_requires(self):
        model = smithy.Model(os.path.join(SOURCE_DIR, "models", "s3tables", "s3tables-2018-05-10.smithy.json"))
        ops = {op.name: op for op in model.operations}
        claimed = {name for name, status in documented_statuses().items() if status != "not implemented"}
        plan = self.plan(*self.make_state())
        self.assertEqual(sorted(name for name, _ in plan), sorted(claimed),
                         "the plan calls exactly the operations the docs claim (add a claimed operation to it)")
        for name, values in plan:
            op = ops[name]
            values = {k: v() if callable(v) else v for k, v in values.items()}
            status, headers, body = self.call_json(*build_request(op, values))
            with self.subTest(operation=name):
                self.assertTrue(200 <= status < 300, "%s, claimed by the docs, succeeds on real state: %d %s"
                                % (name, status, json.dumps(body)[:300]))
                for m in (op.output.members if op.output is not None else []):
                    if not m.required:
                        continue
                    header = m.traits.get("smithy.api#httpHeader")
                    present = headers.get(header) is not None if header else m.json_name in body
                    self.assertTrue(present, "%s's answer carries %s, which the model marks required" % (name, m.name))


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""The capability docs tell the truth: every operation in generated/docs/operations.md is called
with a request that is valid for the model (built from the model itself), and it answers 501
NotImplementedException exactly when the docs say "not implemented"; a partial operation answers
normally (what it does not do is in its note)."""

import json
import os
import re
import sys
import urllib.error
import urllib.parse
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
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


def build_request(op):
    path = op.uri
    query, body = [], {}
    for m in op.input.members:
        if m.location == "label":
            path = path.replace("{%s}" % m.name, urllib.parse.quote(str(sample_value(m)), safe=""))
        elif m.location == "query" and m.required:
            values = sample_value(m)
            for v in values if isinstance(values, list) else [values]:
                query.append((m.query_key, str(v)))
        elif m.location == "body" and m.required:
            body[m.json_name] = sample_value(m)
    if query:
        path += "?" + urllib.parse.urlencode(query)
    return op.method, path, (json.dumps(body).encode() if body else b"")


class CapabilityTests(FloeTestCase):
    def call(self, method, path, body):
        from botocore.auth import SigV4Auth
        from botocore.awsrequest import AWSRequest
        req = AWSRequest(method=method, url=self.server.endpoint + path, data=body,
                         headers={"Content-Type": "application/json"} if body else {})
        SigV4Auth(self.session.get_credentials(), "s3tables", "us-east-1").add_auth(req)
        prepared = req.prepare()
        r = urllib.request.Request(prepared.url, data=body or None, method=method, headers=dict(prepared.headers))
        try:
            with urllib.request.urlopen(r, timeout=10) as resp:
                return resp.status, resp.headers.get("x-amzn-ErrorType")
        except urllib.error.HTTPError as e:
            return e.code, e.headers.get("x-amzn-ErrorType")

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


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""Model evolution: the project builds and serves from the older 2025-04 model (26 operations,
GetTable on its old path) as well as the current one, with no model guard in the handlers. The
generator gives every model version the same C types (the union with the pinned model) and only
the target's wire: operations the old model lacks are absent (no route, so a 404
UnknownOperationException), members it lacks are neither read from requests nor written to
responses, enum values it lacks are refused and left out, while the shared operations work."""

import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
import urllib.error
import urllib.parse
import urllib.request

E2E_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, E2E_DIR)
import floe_server  # noqa: E402
from floe_server import SOURCE_DIR, FloeServer, FloeTestCase, main  # noqa: E402

OLD_MODEL_NAME = "s3tables-2018-05-10.2025-04-02.smithy.json"
ARN = "arn:aws:s3tables:us-east-1:000000000000:bucket/"


def build_with_old_model(workdir):
    gen, build = os.path.join(workdir, "generated"), os.path.join(workdir, "build")
    subprocess.run(["/usr/bin/python3", os.path.join(SOURCE_DIR, "codegen", "generate.py"), "--model",
                    os.path.join(SOURCE_DIR, "models", "s3tables", "history", OLD_MODEL_NAME), "--overlay", os.path.join(SOURCE_DIR, "models", "overlay.json"),
                    "--out", gen], check=True, capture_output=True)
    subprocess.run(["cmake", "-S", SOURCE_DIR, "-B", build, "-DFLOE_GENERATED_DIR=" + gen,
                    "-DCMAKE_BUILD_TYPE=Release"], check=True, capture_output=True)
    proc = subprocess.run(["cmake", "--build", build, "--target", "floe", "-j%d" % (os.cpu_count() or 2)],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError("the build against the old model failed:\n" + proc.stdout[-4000:] + proc.stderr[-4000:])
    return gen, os.path.join(build, "floe")


class OldModelTests(FloeTestCase):
    @classmethod
    def setUpClass(cls):
        cls.workdir = tempfile.mkdtemp(prefix="floe-old-model-")
        cls.generated, floe_server.FLOE_BIN = build_with_old_model(cls.workdir)
        super().setUpClass()

    @classmethod
    def tearDownClass(cls):
        super().tearDownClass()
        shutil.rmtree(cls.workdir, ignore_errors=True)

    def signed(self, method, path, body=None):
        from botocore.auth import SigV4Auth
        from botocore.awsrequest import AWSRequest
        data = json.dumps(body).encode() if body is not None else None
        req = AWSRequest(method=method, url=self.server.endpoint + path, data=data,
                         headers={"Content-Type": "application/json"} if data else {})
        SigV4Auth(self.session.get_credentials(), "s3tables", "us-east-1").add_auth(req)
        r = urllib.request.Request(self.server.endpoint + path, data=data, method=method,
                                   headers=dict(req.prepare().headers))
        try:
            with urllib.request.urlopen(r, timeout=10) as resp:
                return resp.status, resp.headers.get("x-amzn-ErrorType"), resp.read()
        except urllib.error.HTTPError as e:
            return e.code, e.headers.get("x-amzn-ErrorType"), e.read()

    def test_docs_list_the_26_operations_of_the_old_model(self):
        with open(os.path.join(self.generated, "docs", "operations.md")) as f:
            text = f.read()
        self.assertIn("26 operations", text, "the docs describe the model they were made from")
        self.assertNotIn("[TagResource]", text, "operations the old model lacks are not listed")

    def test_shared_operations_work(self):
        arn = self.s3tables.create_table_bucket(name="old-model")["arn"]
        self.assertEqual(self.s3tables.get_table_bucket(tableBucketARN=arn)["name"], "old-model",
                         "table buckets work when built from the old model")
        self.s3tables.create_namespace(tableBucketARN=arn, namespace=["ns"])
        self.assertEqual([n["namespace"] for n in self.s3tables.list_namespaces(tableBucketARN=arn)["namespaces"]],
                         [["ns"]], "namespaces work when built from the old model")

    def test_operations_the_old_model_lacks_are_absent(self):
        quoted = urllib.parse.quote(ARN + "old-model", safe="")
        status, error, _ = self.signed("GET", "/tag/" + quoted)
        self.assertEqual((status, error), (404, "UnknownOperationException"), "ListTagsForResource has no route")
        status, error, _ = self.signed("GET", "/buckets/%s/encryption" % quoted)
        self.assertEqual((status, error), (404, "UnknownOperationException"), "GetTableBucketEncryption has no route")
        status, error, _ = self.signed("GET", "/get-table?tableArn=x")
        self.assertEqual((status, error), (404, "UnknownOperationException"), "the new GetTable path has no route")

    def test_members_the_old_model_lacks_are_not_read(self):
        status, _, body = self.signed("PUT", "/buckets", {"name": "old-model-read",
                                                          "encryptionConfiguration": {"sseAlgorithm": "bogus"},
                                                          "tags": {"k": "v"}})
        self.assertEqual(status, 200, "CreateTableBucket ignores encryptionConfiguration and tags, which the old "
                                      "model lacks, as it ignores any unknown member: %r" % body)

    def test_members_the_old_model_lacks_are_not_written(self):
        arn = self.s3tables.create_table_bucket(name="old-model-write")["arn"]
        quoted = urllib.parse.quote(arn, safe="")
        status, _, body = self.signed("GET", "/buckets/" + quoted)
        bucket = json.loads(body)
        self.assertEqual((status, bucket["name"]), (200, "old-model-write"), "GetTableBucket answers")
        self.assertNotIn("tableBucketId", bucket, "GetTableBucket leaves out tableBucketId, which the old model lacks")
        self.assertNotIn("type", bucket, "and type")
        self.s3tables.create_namespace(tableBucketARN=arn, namespace=["ns"])
        status, _, body = self.signed("GET", "/namespaces/%s/ns" % quoted)
        self.assertEqual(status, 200, "GetNamespace answers")
        self.assertNotIn("namespaceId", json.loads(body), "GetNamespace leaves out namespaceId, which the old model lacks")

    def test_get_table_is_served_on_its_old_path(self):
        quoted = urllib.parse.quote(ARN + "no-such-bucket", safe="")
        status, error, body = self.signed("GET", "/tables/%s/ns/t" % quoted)
        self.assertNotEqual(error, "UnknownOperationException", "GET /tables/{arn}/{ns}/{name} reaches GetTable")
        self.assertIn(status, (404, 501), "and answers as GetTable does (not found, or not implemented)")


class GuardTests(unittest.TestCase):
    def test_handlers_and_runtime_need_no_model_guards(self):
        found = []
        for path in glob.glob(os.path.join(SOURCE_DIR, "handlers", "**", "*.[ch]"), recursive=True) + \
                glob.glob(os.path.join(SOURCE_DIR, "runtime", "**", "*.[ch]"), recursive=True):
            with open(path) as f:
                found += ["%s:%d" % (os.path.relpath(path, SOURCE_DIR), n + 1)
                          for n, line in enumerate(f) if "FLOE_HAS_" in line]
        self.assertEqual(found, [], "handlers/ and runtime/ build against every model version without a "
                                    "FLOE_HAS_ guard: the generated types cover them all")


class EnumValueTests(unittest.TestCase):
    """A model that lacks an enum value the pinned model has (no real model does yet): the value
    stays in the C enum, the parsers refuse it and the serializers leave it out."""

    @classmethod
    def setUpClass(cls):
        cls.workdir = tempfile.mkdtemp(prefix="floe-enum-model-")
        with open(os.path.join(SOURCE_DIR, "models", "s3tables", "s3tables-2018-05-10.smithy.json")) as f:
            ast = json.load(f)
        del ast["shapes"]["com.amazonaws.s3tables#TableBucketType"]["members"]["CUSTOMER"]
        model = os.path.join(cls.workdir, "s3tables-without-customer.json")
        with open(model, "w") as f:
            json.dump(ast, f)
        cls.gen = os.path.join(cls.workdir, "generated")
        subprocess.run(["/usr/bin/python3", os.path.join(SOURCE_DIR, "codegen", "generate.py"), "--model", model,
                        "--overlay", os.path.join(SOURCE_DIR, "models", "overlay.json"), "--out", cls.gen],
                       check=True, capture_output=True)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.workdir, ignore_errors=True)

    def read(self, name):
        with open(os.path.join(self.gen, name)) as f:
            return f.read()

    def test_the_c_enum_keeps_every_value(self):
        self.assertIn('FLOE_TableBucketType_CUSTOMER = 1, /* "customer"; not in this model version */',
                      self.read("floe_api.h"), "handlers still see FLOE_TableBucketType_CUSTOMER")

    def test_the_wire_table_has_only_the_values_of_the_model(self):
        self.assertRegex(self.read("shapes.c"), r"floe_TableBucketType_wire_values\[[^]]*\] = \{\s*NULL,\s*NULL,\s*"
                                                r'"aws",\s*\};', "customer is NULL in the wire table")
        parse = self.read("parse.c")
        self.assertIn("floe_TableBucketType_wire_values, FLOE_TableBucketType__COUNT", parse,
                      "the parsers accept only the wire values")
        self.assertNotIn("floe_TableBucketType_values", parse, "and never the full C table")
        serialize = self.read("serialize.c")
        self.assertIn("if (floe_TableBucketType_wire_values[x->type] != NULL) {", serialize,
                      "the serializers leave out a value the model lacks")
        self.assertNotIn("floe_TableBucketType_values", serialize, "and never write from the full C table")

    def test_the_generated_c_compiles(self):
        flags = subprocess.run(["pkg-config", "--cflags", "libh2o-evloop", "libcjson", "libpcre2-8"], check=True,
                               capture_output=True, text=True).stdout.split()
        for source in sorted(glob.glob(os.path.join(self.gen, "*.c"))):
            proc = subprocess.run(["cc", "-std=gnu11", "-fsyntax-only", "-Wall", "-Wextra", "-Werror",
                                   "-Wmissing-prototypes", "-Wno-unused-parameter", "-DH2O_USE_LIBUV=0", "-D_GNU_SOURCE",
                                   "-I", self.gen, "-I", os.path.join(SOURCE_DIR, "runtime")] + flags + [source],
                                  capture_output=True, text=True)
            self.assertEqual(proc.returncode, 0, "%s compiles: %s" % (os.path.basename(source), proc.stderr[-2000:]))


if __name__ == "__main__":
    main()

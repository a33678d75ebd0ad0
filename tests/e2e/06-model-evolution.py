#!/usr/bin/python3
"""Model evolution: the project builds and serves from the older 2025-04 model (26 operations,
GetTable on its old path) as well as the current one. Operations the old model lacks are simply
absent: no route, so a 404 UnknownOperationException, while the shared operations work."""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import urllib.error
import urllib.parse
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
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

    def signed(self, method, path):
        from botocore.auth import SigV4Auth
        from botocore.awsrequest import AWSRequest
        req = AWSRequest(method=method, url=self.server.endpoint + path)
        SigV4Auth(self.session.get_credentials(), "s3tables", "us-east-1").add_auth(req)
        r = urllib.request.Request(self.server.endpoint + path, method=method, headers=dict(req.prepare().headers))
        try:
            with urllib.request.urlopen(r, timeout=10) as resp:
                return resp.status, resp.headers.get("x-amzn-ErrorType"), resp.read()
        except urllib.error.HTTPError as e:
            return e.code, e.headers.get("x-amzn-ErrorType"), e.read()

    def test_docs_list_the_26_operations_of_the_old_model(self):
        with open(os.path.join(self.generated, "docs", "operations.md")) as f:
            text = f.read()
        self.assertIn("26 operations", text, "the docs describe the model they were made from")
        self.assertNotIn("| TagResource |", text, "operations the old model lacks are not listed")

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

    def test_get_table_is_served_on_its_old_path(self):
        quoted = urllib.parse.quote(ARN + "no-such-bucket", safe="")
        status, error, body = self.signed("GET", "/tables/%s/ns/t" % quoted)
        self.assertNotEqual(error, "UnknownOperationException", "GET /tables/{arn}/{ns}/{name} reaches GetTable")
        self.assertIn(status, (404, 501), "and answers as GetTable does (not found, or not implemented)")


if __name__ == "__main__":
    main()

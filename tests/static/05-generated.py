#!/usr/bin/python3
"""generated/ is exactly what the generator makes from the pinned inputs (the S3 Tables model and
models/overlay.json; the Iceberg REST catalog spec and models/iceberg-overlay.json; the
CloudFormation and STS models and models/<service>-overlay.json; the blocks of docs/engines.md
marked for the console), every model file in models/ is the one models/pin.txt pins, and the
generator refuses a model, spec or snippet marker it does not understand rather than guessing."""

import filecmp
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

E2E_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "e2e")
sys.path.insert(0, E2E_DIR)
from floe_server import SOURCE_DIR  # noqa: E402

GENERATOR = os.path.join(SOURCE_DIR, "codegen", "generate.py")
PYTHON = "/usr/bin/python3"   # Debian's, with Debian's Jinja2: what a fresh machine has


MODELS = os.path.join(SOURCE_DIR, "models")
OVERLAY = os.path.join(MODELS, "overlay.json")
ICEBERG_OVERLAY = os.path.join(MODELS, "iceberg-overlay.json")
# Where the docs link each operation: AWS's API reference page, and the operation's line in the
# pinned Iceberg spec on GitHub at its upstream commit (the file is byte for byte that commit's).
AWS_PAGE = "https://docs.aws.amazon.com/AmazonS3/latest/API/API_s3Buckets_%s.html"
ICEBERG_SPEC_PAGE = "https://github.com/apache/iceberg/blob/%s/open-api/rest-catalog-open-api.yaml#L%d"
# models/ files that are Floe's own, not pinned upstream copies
UNPINNED = {"pin.txt", "update", "overlay.json", "iceberg-overlay.json", ".gitattributes", "LICENSE", "NOTICE",
            "SOURCE.md", "README.md", "iceberg/NOTICE", "cloudformation/LICENSE",
            "cloudformation-overlay.json", "sts-overlay.json", "iam-overlay.json", "glue-overlay.json",
            "athena-overlay.json"}
# The awsQuery services: (generator key, pinned model under models/, C prefix, docs name, README name)
QUERY_SERVICES = [
    ("cloudformation", "cloudformation/cloudformation-2010-05-15.smithy.json", "cfn", "cloudformation", "CloudFormation"),
    ("sts", "sts/sts-2011-06-15.smithy.json", "sts", "sts", "STS"),
    ("iam", "iam/iam-2010-05-08.smithy.json", "iam", "iam", "IAM"),
]
# The awsJson1_1 services: (generator key, pinned model under models/, C prefix, docs name, README name)
JSON_SERVICES = [
    ("glue", "glue/glue-2017-03-31.smithy.json", "glue", "glue", "Glue"),
    ("athena", "athena/athena-2017-05-18.smithy.json", "athena", "athena", "Athena"),
]


def pinned_model():
    return os.path.join(MODELS, "s3tables", "s3tables-2018-05-10.smithy.json")


def pinned_iceberg_spec():
    return os.path.join(MODELS, "iceberg", "iceberg-rest-catalog-open-api-1.11.0.yaml")


def pins(pin_txt=os.path.join(MODELS, "pin.txt")):
    """{path under models/: [sha256, commit, source]} from pin.txt."""
    with open(pin_txt) as f:
        return {fields[0]: fields[1:] for fields in (line.split() for line in f)
                if fields and not fields[0].startswith("#")}


def sha256_of(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def generate(model, out, iceberg_spec=None, iceberg_overlay=ICEBERG_OVERLAY, overlay=OVERLAY, query_models=None,
             engines_doc=None):
    extra = ["--engines-doc", engines_doc] if engines_doc else []
    for key, path in (query_models or {}).items():
        extra += ["--query-model", "%s=%s" % (key, path)]
    return subprocess.run([PYTHON, GENERATOR, "--model", model, "--overlay", overlay, "--out", out,
                           "--iceberg-spec", iceberg_spec or pinned_iceberg_spec(),
                           "--iceberg-overlay", iceberg_overlay] + extra,
                          capture_output=True, text=True)


def tree_files(root):
    found = set()
    for dirpath, _, files in os.walk(root):
        for f in files:
            found.add(os.path.relpath(os.path.join(dirpath, f), root))
    return found


class PinTests(unittest.TestCase):
    def test_every_pinned_file_has_its_sha256(self):
        pinned = pins()
        self.assertIn("s3tables/s3tables-2018-05-10.smithy.json", pinned)
        for path, (sha, commit, source) in sorted(pinned.items()):
            full = os.path.join(MODELS, path)
            self.assertTrue(os.path.isfile(full), "models/%s is committed" % path)
            self.assertEqual(sha256_of(full), sha, "models/%s is byte for byte the pinned file" % path)
            self.assertTrue(commit and source, "models/%s records its upstream commit and source" % path)

    def test_every_model_file_is_pinned(self):
        pinned = set(pins())
        on_disk = {f.replace(os.sep, "/") for f in tree_files(MODELS)} - UNPINNED
        self.assertEqual(sorted(on_disk - pinned), [], "every upstream file in models/ has a line in pin.txt")

    def test_nothing_reads_models_from_outside_the_repository(self):
        for name in ("CMakeLists.txt", os.path.join("codegen", "regen.cmake"), os.path.join("scripts", "run"),
                     os.path.join("scripts", "test"), os.path.join("scripts", "setup-deps"),
                     os.path.join("codegen", "generate.py"), os.path.join("tests", "e2e", "floe_server.py")):
            with open(os.path.join(SOURCE_DIR, name)) as f:
                text = f.read()
            for needle in ("../shared", "FLOE_SHARED_MODELS", ".cache/models", "fetch-model"):
                self.assertNotIn(needle, text, "%s does not use %s" % (name, needle))

    def test_update_replaces_a_file_and_repins_it(self):
        with tempfile.TemporaryDirectory() as tmp:
            models = os.path.join(tmp, "models")
            shutil.copytree(MODELS, models)
            new = os.path.join(tmp, "new.json")
            with open(new, "wb") as f:
                f.write(b'{"smithy": "2.0", "shapes": {}}')
            url = "https://raw.githubusercontent.com/aws/api-models-aws/%s/models/sts/x.json" % ("ab" * 20)
            proc = subprocess.run([PYTHON, os.path.join(models, "update"), "sts-2011-06-15.smithy.json", new,
                                   "--source", url], capture_output=True, text=True)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            self.assertIn("--target regen", proc.stdout, "it says what to run next")
            after = pins(os.path.join(models, "pin.txt"))
            sha = hashlib.sha256(b'{"smithy": "2.0", "shapes": {}}').hexdigest()
            self.assertEqual(after["sts/sts-2011-06-15.smithy.json"], [sha, "ab" * 20, url],
                             "the line has the new sha256, the commit in the URL and the source")
            self.assertEqual(sha256_of(os.path.join(models, "sts", "sts-2011-06-15.smithy.json")), sha)
            before = pins()
            del before["sts/sts-2011-06-15.smithy.json"], after["sts/sts-2011-06-15.smithy.json"]
            self.assertEqual(after, before, "the other pins are untouched")
            proc = subprocess.run([PYTHON, os.path.join(models, "update"), "--check"], capture_output=True, text=True)
            self.assertEqual(proc.returncode, 0, proc.stdout)

            with open(os.path.join(models, "s3tables", "s3tables-2018-05-10.smithy.json"), "ab") as f:
                f.write(b" ")
            proc = subprocess.run([PYTHON, os.path.join(models, "update"), "--check"], capture_output=True, text=True)
            self.assertEqual(proc.returncode, 1, "--check notices a changed file")
            self.assertIn("s3tables-2018-05-10.smithy.json", proc.stdout)

            proc = subprocess.run([PYTHON, os.path.join(models, "update"), "s3tables-2018-05-10.smithy.json",
                                   os.path.join(MODELS, "README.md")], capture_output=True, text=True)
            self.assertNotEqual(proc.returncode, 0, "a .json model that is not JSON (an error page) is refused")


class GeneratedTests(unittest.TestCase):
    def test_generated_tree_is_up_to_date_with_model_and_overlay(self):
        with tempfile.TemporaryDirectory() as out:
            proc = generate(pinned_model(), out)
            self.assertEqual(proc.returncode, 0, "the generator runs on the pinned model: " + proc.stderr)
            committed = os.path.join(SOURCE_DIR, "generated")
            self.assertEqual(tree_files(out), tree_files(committed), "generated/ has exactly the files it makes")
            stale = [f for f in sorted(tree_files(out))
                     if not filecmp.cmp(os.path.join(out, f), os.path.join(committed, f), shallow=False)]
            self.assertEqual(stale, [], "generated/ is byte-for-byte the generator's output: run "
                                        "`cmake --build build --target regen` and commit")

    def test_output_is_deterministic(self):
        with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
            generate(pinned_model(), a)
            generate(pinned_model(), b)
            diff = [f for f in tree_files(a) if not filecmp.cmp(os.path.join(a, f), os.path.join(b, f), shallow=False)]
            self.assertEqual(diff, [], "two runs give the same bytes")

    def test_every_file_says_it_is_generated(self):
        for f in tree_files(os.path.join(SOURCE_DIR, "generated")):
            with open(os.path.join(SOURCE_DIR, "generated", f)) as fh:
                first = fh.readline()
            self.assertIn("Code generated by codegen/generate.py", first, "%s opens with the generated header" % f)
            self.assertIn("DO NOT EDIT", first, "%s says DO NOT EDIT" % f)

    def readme_headline(self, marker):
        """The line that follows the README's `<!-- marker: ... -->` comment."""
        with open(os.path.join(SOURCE_DIR, "README.md")) as f:
            lines = f.read().split("\n")
        starts = [i for i, line in enumerate(lines) if line.startswith("<!-- %s:" % marker)]
        self.assertEqual(len(starts), 1, "the README has one %s block" % marker)
        return lines[starts[0] + 1]

    def test_readme_summary_matches_the_capability_docs(self):
        with open(os.path.join(SOURCE_DIR, "generated", "docs", "operations.md")) as f:
            docs = f.read()
        total = re.search(r"(\d+) operations\.", docs).group(1)
        impl, part, none = re.search(r"\*\*(\d+) implemented, (\d+) partial, (\d+) not implemented\.\*\*", docs).groups()
        summary = ("**S3 Tables API: %s of %s operations implemented, %s partial, %s not implemented.**"
                   % (impl, total, part, none))
        self.assertEqual(self.readme_headline("capability-summary"), summary,
                         "the README's headline is the docs' summary")

    def operation_rows(self, doc):
        """[(name, link, status, notes)] of the table in generated/docs/<doc>."""
        with open(os.path.join(SOURCE_DIR, "generated", "docs", doc)) as f:
            rows = [re.match(r"^\| \d+ \| (.*?) \| [A-Z]+ \| .* \| (implemented|partial|not implemented) \| (.*) \|$",
                             line) for line in f if re.match(r"^\| \d+ \|", line)]
        self.assertTrue(rows and all(rows), "every row of %s has a name, a status and notes" % doc)
        out = []
        for m in rows:
            link = re.match(r"^\[(\w+)\]\((\S+)\)$", m.group(1))
            out.append((link.group(1), link.group(2)) + m.groups()[1:] if link else (m.group(1), None) + m.groups()[1:])
        return out

    def test_every_operation_links_to_its_page_in_the_aws_api_reference(self):
        for name, link, _, _ in self.operation_rows("operations.md"):
            self.assertEqual(link, AWS_PAGE % name, "the %s row links to AWS's page for %s" % (name, name))

    def test_a_partial_operation_says_what_is_not_done(self):
        rows = self.operation_rows("operations.md")
        for name, _, status, notes in rows:
            if status == "partial":
                self.assertIn("Not done:", notes, "the %s row says what Floe does not do" % name)
        statuses = {name: status for name, _, status, _ in rows}
        for name in ("PutTableBucketEncryption",):
            self.assertEqual(statuses[name], "partial", "%s records a setting or reports work Floe never acts on "
                                                        "or does, so it is partial" % name)

    def test_a_partial_operation_without_what_is_not_done_stops_the_generator(self):
        with open(OVERLAY) as f:
            overlay = json.load(f)
        overlay["operations"]["PutTableBucketEncryption"]["notes"] = "Recorded."
        fd, path = tempfile.mkstemp(suffix=".json")
        with os.fdopen(fd, "w") as f:
            json.dump(overlay, f)
        self.addCleanup(os.unlink, path)
        with tempfile.TemporaryDirectory() as out:
            proc = generate(pinned_model(), out, overlay=path)
            self.assertEqual(proc.returncode, 1,
                             "a partial operation whose notes do not say what is not done is refused")
            self.assertIn("PutTableBucketEncryption", proc.stderr, "the message names the operation")
            self.assertEqual(os.listdir(out), [], "nothing is written")

    def test_every_iceberg_operation_links_to_its_line_in_the_pinned_spec(self):
        commit = pins()["iceberg/iceberg-rest-catalog-open-api-1.11.0.yaml"][1]
        with open(pinned_iceberg_spec()) as f:
            spec_lines = f.read().split("\n")
        for op_id, link, _, _ in self.operation_rows("iceberg.md"):
            m = re.match(r"^(.*)#L(\d+)$", link or "")
            self.assertTrue(m, "the %s row links to a line of the spec: %r" % (op_id, link))
            line = int(m.group(2))
            self.assertEqual(link, ICEBERG_SPEC_PAGE % (commit, line), "the %s row links to the pinned commit" % op_id)
            self.assertEqual(spec_lines[line - 1].strip(), "operationId: " + op_id,
                             "the %s row's line is where the spec defines %s" % (op_id, op_id))

    def test_iceberg_outputs_are_generated_from_the_pinned_spec(self):
        committed = os.path.join(SOURCE_DIR, "generated")
        for f in ("iceberg_routes.def", os.path.join("docs", "iceberg.md")):
            self.assertTrue(os.path.exists(os.path.join(committed, f)), "generated/%s exists" % f)
        with open(os.path.join(committed, "iceberg_routes.def")) as f:
            first = f.readline()
        self.assertIn("iceberg-rest-catalog-open-api-1.11.0.yaml", first, "the route table names the spec it came from")
        self.assertIn("models/iceberg-overlay.json", first, "and the overlay")

    def test_readme_iceberg_summary_matches_the_iceberg_docs(self):
        with open(os.path.join(SOURCE_DIR, "generated", "docs", "iceberg.md")) as f:
            docs = f.read()
        total = re.search(r"(\d+) operations\.", docs).group(1)
        impl, part, none = re.search(r"\*\*(\d+) implemented, (\d+) partial, (\d+) not implemented\.\*\*", docs).groups()
        summary = ("**Iceberg REST catalog: %s of %s operations implemented, %s partial, %s not implemented.**"
                   % (impl, total, part, none))
        self.assertEqual(self.readme_headline("iceberg-summary"), summary,
                         "the README's REST catalog headline is the docs' summary")

    def mutated_iceberg(self, mutate_spec=None, mutate_overlay=None):
        import yaml
        with open(pinned_iceberg_spec()) as f:
            spec = yaml.safe_load(f)
        with open(ICEBERG_OVERLAY) as f:
            overlay = json.load(f)
        if mutate_spec:
            mutate_spec(spec)
        if mutate_overlay:
            mutate_overlay(overlay)
        paths = []
        for data, suffix in ((yaml.safe_dump(spec), ".yaml"), (json.dumps(overlay), ".json")):
            fd, path = tempfile.mkstemp(suffix=suffix)
            with os.fdopen(fd, "w") as f:
                f.write(data)
            self.addCleanup(os.unlink, path)
            paths.append(path)
        return paths

    def test_an_operation_without_operation_id_stops_the_generator(self):
        def drop_id(spec):
            del spec["paths"]["/v1/{prefix}/namespaces"]["get"]["operationId"]
        spec, overlay = self.mutated_iceberg(mutate_spec=drop_id)
        with tempfile.TemporaryDirectory() as out:
            proc = generate(pinned_model(), out, spec, overlay)
            self.assertEqual(proc.returncode, 1, "an operation without an operationId is a failure")
            self.assertIn("/v1/{prefix}/namespaces", proc.stderr, "the message names the path")
            self.assertEqual(os.listdir(out), [], "nothing is written")

    def test_an_overlay_status_it_does_not_know_stops_the_generator(self):
        def bad_status(overlay):
            overlay["operations"]["loadTable"]["status"] = "maybe"
        spec, overlay = self.mutated_iceberg(mutate_overlay=bad_status)
        with tempfile.TemporaryDirectory() as out:
            proc = generate(pinned_model(), out, spec, overlay)
            self.assertEqual(proc.returncode, 1, "an unknown status is a failure")
            self.assertIn("loadTable", proc.stderr, "the message names the operation")

    def test_a_new_operation_in_the_spec_is_not_implemented_until_reviewed(self):
        def add_op(spec):
            spec["paths"]["/v1/{prefix}/brand-new"] = {"parameters": [{"$ref": "#/components/parameters/prefix"}],
                                                       "get": {"operationId": "brandNew", "responses": {"204": {}}}}
        spec, overlay = self.mutated_iceberg(mutate_spec=add_op)
        with tempfile.TemporaryDirectory() as out:
            proc = generate(pinned_model(), out, spec, overlay)
            self.assertEqual(proc.returncode, 0, "the generator accepts an operation the overlay lacks: " + proc.stderr)
            with open(os.path.join(out, "iceberg_routes.def")) as f:
                self.assertIn('FLOE_ICEBERG_UNSERVED(brandNew, GET, "/v1/{prefix}/brand-new")', f.read(),
                              "an operation the overlay does not list is routed to a 501")
            with open(os.path.join(out, "docs", "iceberg.md")) as f:
                self.assertNotIn("](https://github.com/", f.read(),
                                 "a spec that is not the pinned one gets no links to the pinned one")

    def test_query_outputs_are_generated_from_the_pinned_models(self):
        committed = os.path.join(SOURCE_DIR, "generated")
        for key, model, prefix, docs, _ in QUERY_SERVICES:
            for f in ("%s_api.h" % prefix, "%s_codec.h" % prefix, "%s_parse.c" % prefix, "%s_validate.c" % prefix,
                      "%s_serialize.c" % prefix, "%s_shapes.c" % prefix, "%s_operation_table.c" % prefix,
                      os.path.join("docs", docs + ".md"), os.path.join("tests", "%s_constraints.def" % prefix)):
                self.assertTrue(os.path.exists(os.path.join(committed, f)), "generated/%s exists" % f)
            with open(os.path.join(committed, "%s_api.h" % prefix)) as f:
                first = f.readline()
            self.assertIn(os.path.basename(model), first, "%s's API names the model it came from" % key)
            self.assertIn("models/%s-overlay.json" % key, first, "and its overlay")
        with open(os.path.join(committed, "query_services.def")) as f:
            text = f.read()
        for _, _, prefix, _, _ in QUERY_SERVICES:
            self.assertIn("FLOE_QUERY_SERVICE(floe_%s_service)" % prefix, text, "the service list has every service")

    def test_readme_query_and_json_summaries_match_the_docs(self):
        with open(os.path.join(SOURCE_DIR, "README.md")) as f:
            readme = f.read()
        for _, _, _, docs, title in QUERY_SERVICES + JSON_SERVICES:
            with open(os.path.join(SOURCE_DIR, "generated", "docs", docs + ".md")) as f:
                text = f.read()
            total = re.search(r"(\d+) operations\.", text).group(1)
            impl, part, none = re.search(r"\*\*(\d+) implemented, (\d+) partial, (\d+) not implemented\.\*\*",
                                         text).groups()
            summary = ("**%s API: %s of %s operations implemented, %s partial, %s not implemented.**"
                       % (title, impl, total, part, none))
            self.assertTrue(summary in readme, "the README's %s summary is the docs' summary: %s" % (title, summary))

    def test_json_outputs_are_generated_from_the_pinned_models(self):
        committed = os.path.join(SOURCE_DIR, "generated")
        for key, model, prefix, docs, _ in JSON_SERVICES:
            for f in ("%s_api.h" % prefix, "%s_tables.c" % prefix, os.path.join("docs", docs + ".md")):
                self.assertTrue(os.path.exists(os.path.join(committed, f)), "generated/%s exists" % f)
            with open(os.path.join(committed, "%s_api.h" % prefix)) as f:
                first = f.readline()
            self.assertIn(os.path.basename(model), first, "%s's API names the model it came from" % key)
            self.assertIn("models/%s-overlay.json" % key, first, "and its overlay")
            with open(os.path.join(committed, "docs", docs + ".md")) as f:
                rows = [line for line in f if re.match(r"^\| \d+ \| ", line)]
            self.assertTrue(rows, "the %s docs have a row per operation" % key)
            for row in rows:
                self.assertRegex(row, r"^\| \d+ \| \[\w+\]\(https://docs\.aws\.amazon\.com/(glue/latest/webapi|athena/latest/APIReference)/API_\w+\.html\) \| "
                                 r"(implemented|partial|not implemented) \|",
                                 "each operation links to its page in AWS's API reference and says its status")
        with open(os.path.join(committed, "awsjson_services.def")) as f:
            text = f.read()
        for _, _, prefix, _, _ in JSON_SERVICES:
            self.assertIn("FLOE_AWSJSON_SERVICE(floe_%s_service)" % prefix, text, "the service list has every service")

    def test_unknown_trait_in_a_json_model_stops_the_generator(self):
        with open(os.path.join(MODELS, JSON_SERVICES[0][1])) as f:
            ast = json.load(f)
        ast["shapes"]["com.amazonaws.glue#GetTableRequest"]["traits"]["example.vendor#newThing"] = {}
        fd, path = tempfile.mkstemp(suffix=".json")
        with os.fdopen(fd, "w") as f:
            json.dump(ast, f)
        self.addCleanup(os.unlink, path)
        with tempfile.TemporaryDirectory() as out:
            proc = generate(pinned_model(), out, query_models={"glue": path})
            self.assertEqual(proc.returncode, 1, "an unknown trait in the Glue model is a failure")
            self.assertIn("com.amazonaws.glue#GetTableRequest", proc.stderr, "the message names the shape")
            self.assertEqual(os.listdir(out), [], "nothing is written")

    def mutated_query_model(self, key, mutate):
        model = next(m for k, m, _, _, _ in QUERY_SERVICES if k == key)
        with open(os.path.join(MODELS, model)) as f:
            ast = json.load(f)
        mutate(ast["shapes"])
        fd, path = tempfile.mkstemp(suffix=".json")
        with os.fdopen(fd, "w") as f:
            json.dump(ast, f)
        self.addCleanup(os.unlink, path)
        return {key: path}

    def test_unknown_trait_in_a_query_model_stops_the_generator(self):
        def add_trait(shapes):
            shapes["com.amazonaws.sts#GetCallerIdentityResponse"]["traits"]["example.vendor#newThing"] = {}
        with tempfile.TemporaryDirectory() as out:
            proc = generate(pinned_model(), out, query_models=self.mutated_query_model("sts", add_trait))
            self.assertEqual(proc.returncode, 1, "an unknown trait in the STS model is a failure")
            self.assertIn("com.amazonaws.sts#GetCallerIdentityResponse", proc.stderr, "the message names the shape")
            self.assertEqual(os.listdir(out), [], "nothing is written")

    def test_query_xml_names_and_flattened_lists_are_honoured(self):
        def rename(shapes):
            members = shapes["com.amazonaws.sts#AssumeRoleRequest"]["members"]
            members["RoleArn"].setdefault("traits", {})["smithy.api#xmlName"] = "RoleARN"
            members["PolicyArns"].setdefault("traits", {})["smithy.api#xmlFlattened"] = {}
            out_members = shapes["com.amazonaws.sts#GetCallerIdentityResponse"]["members"]
            out_members["Arn"].setdefault("traits", {})["smithy.api#xmlName"] = "ARN"
        with tempfile.TemporaryDirectory() as out:
            proc = generate(pinned_model(), out, query_models=self.mutated_query_model("sts", rename))
            self.assertEqual(proc.returncode, 0, "xmlName and xmlFlattened are understood: " + proc.stderr)
            with open(os.path.join(out, "sts_parse.c")) as f:
                parse = f.read()
            with open(os.path.join(out, "sts_serialize.c")) as f:
                serialize = f.read()
        self.assertIn('floe_query_form_key(call, key, "RoleARN")', parse, "@xmlName renames the form key")
        self.assertIn("parse_policyDescriptorListType(call, form, k, out->PolicyArns", parse,
                      "a flattened list's items sit right below its key (PolicyArns.N)")
        self.assertIn('floe_xml_elem(w, "ARN", x->Arn)', serialize, "@xmlName renames the XML element")

    def test_query_traits_in_a_rest_json_model_are_refused(self):
        def add_trait(shapes):
            shapes["com.amazonaws.s3tables#TableBucketName"]["traits"]["smithy.api#xmlName"] = "Name"
        with tempfile.TemporaryDirectory() as out:
            proc = generate(self.mutated_model(add_trait), out)
            self.assertEqual(proc.returncode, 1, "an XML trait in the restJson1 S3 Tables model is refused, not ignored")
            self.assertIn("com.amazonaws.s3tables#TableBucketName", proc.stderr, "the message names the shape")

    def mutated_model(self, mutate):
        with open(pinned_model()) as f:
            ast = json.load(f)
        mutate(ast["shapes"])
        fd, path = tempfile.mkstemp(suffix=".json")
        with os.fdopen(fd, "w") as f:
            json.dump(ast, f)
        self.addCleanup(os.unlink, path)
        return path

    def test_unknown_trait_stops_the_generator_naming_the_shape(self):
        def add_trait(shapes):
            shapes["com.amazonaws.s3tables#TableBucketName"]["traits"]["example.vendor#newThing"] = {}
        with tempfile.TemporaryDirectory() as out:
            proc = generate(self.mutated_model(add_trait), out)
            self.assertEqual(proc.returncode, 1, "an unknown trait is a failure")
            self.assertIn("com.amazonaws.s3tables#TableBucketName", proc.stderr, "the message names the shape")
            self.assertEqual(os.listdir(out), [], "nothing is written")

    def test_unsupported_binding_stops_the_generator(self):
        def add_header(shapes):
            member = shapes["com.amazonaws.s3tables#GetTableBucketRequest"]["members"]["tableBucketARN"]
            member["traits"]["smithy.api#httpHeader"] = "x-arn"
        with tempfile.TemporaryDirectory() as out:
            proc = generate(self.mutated_model(add_header), out)
            self.assertEqual(proc.returncode, 1, "an @httpHeader binding is refused, not ignored")
            self.assertIn("GetTableBucketRequest", proc.stderr, "the message names the shape")


class EngineSnippetsTests(unittest.TestCase):
    """generated/console/engine-snippets.json, which the console's table page shows, is made from
    the blocks docs/engines.md marks for the console; a marker the generator cannot read stops it."""

    SPARK = ("\n<!-- snippet: spark-session; console: Spark -->\n```python\n"
             "spark = SparkSession.builder.config(\"uri\", \"http://127.0.0.1:4566/iceberg\").getOrCreate()\n```\n"
             "\n<!-- snippet: spark-tests-only -->\n```sql\nSELECT 1;\n```\n")

    def engines_doc(self, extra):
        with open(os.path.join(SOURCE_DIR, "docs", "engines.md")) as f:
            text = f.read()
        fd, path = tempfile.mkstemp(suffix=".md")
        with os.fdopen(fd, "w") as f:
            f.write(text + extra)
        self.addCleanup(os.unlink, path)
        return path

    def test_a_new_block_marked_for_the_console_is_added_and_an_unmarked_one_is_not(self):
        with open(os.path.join(SOURCE_DIR, "generated", "console", "engine-snippets.json")) as f:
            committed = json.load(f)["snippets"]
        with tempfile.TemporaryDirectory() as out:
            proc = generate(pinned_model(), out, engines_doc=self.engines_doc(self.SPARK))
            self.assertEqual(proc.returncode, 0, proc.stderr)
            with open(os.path.join(out, "console", "engine-snippets.json")) as f:
                made = json.load(f)["snippets"]
        self.assertEqual(made[:-1], committed, "the blocks already marked stay as they were")
        self.assertEqual(made[-1], {"name": "spark-session", "engine": "Spark", "language": "python",
                                    "text": "spark = SparkSession.builder.config(\"uri\", "
                                            "\"http://127.0.0.1:4566/iceberg\").getOrCreate()\n"},
                         "the new marked block is added, under its engine, as written; the unmarked one is not")

    def test_a_marker_the_generator_cannot_read_stops_it(self):
        for extra, named in [("\n<!-- snippet: spark console: Spark -->\n```sql\nSELECT 1;\n```\n", "spark console: Spark"),
                             ("\n<!-- snippet: pyiceberg-read -->\n```python\npass\n```\n", "pyiceberg-read")]:
            with self.subTest(named), tempfile.TemporaryDirectory() as out:
                proc = generate(pinned_model(), out, engines_doc=self.engines_doc(extra))
                self.assertEqual(proc.returncode, 1, "a malformed or repeated snippet is a failure, not a dropped block")
                self.assertIn(named, proc.stderr, "the message names the marker")
                self.assertEqual(os.listdir(out), [], "nothing is written")


if __name__ == "__main__":
    unittest.main(verbosity=2)

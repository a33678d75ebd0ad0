#!/usr/bin/env python3
"""Generates Floe's C protocol layer and capability docs from the AWS S3 Tables Smithy model, the
Apache Iceberg REST catalog's OpenAPI spec, the CloudFormation and STS Smithy models (query.py)
and the Glue Smithy model (awsjson.py).

Usage: generate.py --model PATH [--reference PATH] [--overlay models/overlay.json] [--out generated]
                   [--iceberg-spec PATH] [--iceberg-overlay models/iceberg-overlay.json]
                   [--query-model cloudformation=PATH] [--query-model sts=PATH] [--engines-doc docs/engines.md]

--reference and --iceberg-spec default to the pinned copies in models/ (models/pin.txt). --model is
the model version to serve; --reference is the version handlers are written against. The C types
cover both (evolution.py), the wire only --model, so handlers build against an older or newer
model without a guard.

What this is for: the one command that turns the model (plus Floe's overlay) into the typed C
API handlers are written against, the restJson1 request parsers, the constraint validators, the
JSON serializers, the operation and route tables, the per-operation capability docs and the
constraint test rows; from the Iceberg spec (openapi.py) the REST catalog's route table and
its capability docs; the same typed layer for the awsQuery services (query.py), each with its
own overlay (models/<service>-overlay.json) and C prefix; the awsJson1_1 services' typed API and
the descriptor tables their generic codec walks (awsjson.py); every model's smoke tests as cases
the e2e runner replays against the server (smoke.py); and the engine configuration blocks of
docs/engines.md that the console's table page shows (engine_snippets.py). What it is not for:
any behaviour of an operation; that lives in handlers/.

Output is deterministic: no dates, paths or versions, fixed ordering, LF endings. Files whose
content did not change are left alone so their mtime does not trigger a rebuild.
"""

import argparse
import os
import re
import sys
import tempfile

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import jinja2  # noqa: E402

import awsjson  # noqa: E402
import cfn_resource_types  # noqa: E402
import engine_snippets  # noqa: E402
import evolution  # noqa: E402
import openapi  # noqa: E402
import overlay as overlay_mod  # noqa: E402
import query  # noqa: E402
import samples  # noqa: E402
import smithy  # noqa: E402
import smoke  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
ICEBERG_SPEC_NAME = "iceberg-rest-catalog-open-api-1.11.0.yaml"   # pinned in models/pin.txt

# Each S3 Tables operation's page in AWS's API reference, linked from docs/operations.md. This is
# the pattern AWS's own pages link to (the Service Authorization Reference for s3tables, and the
# API reference's list of S3 Tables actions); pages from before 2025 were API_s3TableBuckets_*.
AWS_API_REFERENCE = "https://docs.aws.amazon.com/AmazonS3/latest/API/API_s3Buckets_{operation}.html"

# One message template per constraint trait (the wording AWS's validation layer uses).
MESSAGES = {
    "required": "Member must not be null",
    "length_min": "Member must have length greater than or equal to {min}",
    "length_max": "Member must have length less than or equal to {max}",
    "pattern": "Member must satisfy regular expression pattern: {pattern}",
    "range_min": "Member must have value greater than or equal to {min}",
    "range_max": "Member must have value less than or equal to {max}",
    "enum": "Member must satisfy enum value set: [{values}]",
    "union": "Member must have exactly one member set",
}

OUTPUTS = [
    ("floe_api.h.j2", "floe_api.h"),
    ("floe_codec.h.j2", "floe_codec.h"),
    ("operations.def.j2", "operations.def"),
    ("shapes.c.j2", "shapes.c"),
    ("parse.c.j2", "parse.c"),
    ("validate.c.j2", "validate.c"),
    ("serialize.c.j2", "serialize.c"),
    ("operation_table.c.j2", "operation_table.c"),
    ("operations.md.j2", "docs/operations.md"),
    ("constraints.def.j2", "tests/constraints.def"),
]

# Outputs of the Iceberg REST catalog spec.
ICEBERG_OUTPUTS = [
    ("iceberg_routes.def.j2", "iceberg_routes.def"),
    ("iceberg.md.j2", "docs/iceberg.md"),
]


def c_string(value):
    """A C string literal for `value` (UTF-8, with escapes for anything not printable ASCII)."""
    out = []
    for byte in value.encode("utf-8"):
        ch = chr(byte)
        if ch in ('"', "\\"):
            out.append("\\" + ch)
        elif 32 <= byte < 127 and ch != "?":
            out.append(ch)
        else:
            out.append("\\%03o" % byte)
    return '"' + "".join(out) + '"'


class CModel(smithy.CMemberTypes):
    """C names and per-shape facts the templates need, computed once. The prefixes are those of
    S3 Tables; each awsQuery service has its own (query.py), so their shapes never collide."""

    PREFIX = "floe_"              # floe_<Shape>, floe_validate_<Shape>, floe_<Enum>_values
    MACRO_PREFIX = "FLOE_"        # FLOE_<Enum>_<Member>, FLOE_<Enum>__COUNT
    API_HEADER = "floe_api.h"
    CODEC_HEADER = "floe_codec.h"
    VIOLATION_ERROR = "BadRequestException"   # what the dispatcher answers a violation with

    def __init__(self, model, overlay, reference):
        self.model = model
        self.overlay = overlay
        self.types = evolution.TypeView(model, reference)
        self.shapes = model.reachable_shapes()
        self.errors = self.types.errors          # floe_error_t: one enum for every model version
        self.operations = model.operations
        self.routes = overlay.routes(model)
        self.patterns = sorted({p for p in self._all_patterns()})
        self.pattern_index = {p: i for i, p in enumerate(self.patterns)}
        self._validation_memo = {}
        for op in self.operations:
            op.status = overlay.status(op)
            op.notes = overlay.notes(op)
            op.doc_url = AWS_API_REFERENCE.format(operation=op.name)
            op.claimed = op.status != "not_implemented"
            op.routes = [r for r in self.routes if r.op is op]
            op.error_names = [e.name for e in op.errors]
        for op in self.types.operations:
            op.claimed = overlay.status(op) != "not_implemented"
        self.resources = []
        for op in self.operations:
            if not self.resources or self.resources[-1][0] != op.resource:
                self.resources.append((op.resource, []))
            self.resources[-1][1].append(op)
        self.validators = self._value_validators()
        self.wire_enums = [s for s in self.shapes if s.kind == "enum" and self.types.wire_enum_values(s)]

    # -- names and types -----------------------------------------------------------------------

    def type_name(self, shape):
        if shape.kind == "unit":
            return "floe_Unit"
        return self.PREFIX + shape.name

    @staticmethod
    def path_name(member):
        """The member's name in a violation's path: the name on the wire."""
        return member.json_name

    def scalar_ctype(self, shape):
        kind = shape.kind
        if kind in ("string", "document"):
            return "char *"
        if kind == "enum":
            return self.type_name(shape) + " "
        if kind == "integer":
            return "int32_t "
        if kind == "long":
            return "int64_t "
        if kind == "double":
            return "double "
        if kind == "boolean":
            return "bool "
        if kind == "timestamp":
            return "floe_timestamp_t "
        raise smithy.ModelError("%s: no scalar C type" % shape.id)

    def absent(self, member, ref):
        """C expression true when `member` of the struct at `ref` is absent."""
        t = member.target
        if t.kind in ("string", "document") or t.is_aggregate:
            return "%s->%s == NULL" % (ref, member.c_name)
        if t.kind == "enum":
            return "%s->%s == 0" % (ref, member.c_name)
        if member.has_presence_flag:
            return "!%s->has_%s" % (ref, member.c_name)
        return None

    def present(self, member, ref):
        """C expression true when `member` of the struct at `ref` is present (None: always)."""
        t = member.target
        if t.kind in ("string", "document") or t.is_aggregate:
            return "%s->%s != NULL" % (ref, member.c_name)
        if t.kind == "enum":
            return "%s->%s != 0" % (ref, member.c_name)
        if member.has_presence_flag:
            return "%s->has_%s" % (ref, member.c_name)
        return None

    def enum_values(self, shape):
        """The table of wire values to parse or serialize the enum `shape` of this model with:
        the C one, or where the model lacks some of the C values, one with NULL for those."""
        if self.types.wire_enum_values(shape):
            return "%s%s_wire_values" % (self.PREFIX, shape.name)
        return "%s%s_values" % (self.PREFIX, shape.name)

    def on_wire(self, shape, expr, lacks=False):
        """C expression true when the value `expr` of `shape` is one this model has on the wire
        (with `lacks`, when it is not), or None when that is every value: an enum value the
        model lacks is left out of the output."""
        if shape.kind == "enum" and self.types.wire_enum_values(shape):
            return "%s%s_wire_values[%s] %s NULL" % (self.PREFIX, shape.name, expr, "==" if lacks else "!=")
        return None

    # -- constraints -----------------------------------------------------------------------------

    @staticmethod
    def pcre_pattern(pattern):
        """The pattern as PCRE2 reads it: the models write code points Java's and ECMA-262's way
        (\\uD7FF, four hex digits), which PCRE2 spells \\x{D7FF}."""
        return re.sub(r"(?<!\\)((?:\\\\)*)\\u([0-9A-Fa-f]{4})", r"\1\\x{\2}", pattern)

    def _all_patterns(self):
        for s in self.model.reachable_shapes():
            if "smithy.api#pattern" in s.traits:
                yield s.traits["smithy.api#pattern"]
            for m in s.members:
                if "smithy.api#pattern" in m.traits:
                    yield m.traits["smithy.api#pattern"]

    def _value_validators(self):
        """Standalone checks of one value: shape-level, then member-level overrides."""
        result = []
        for s in self.shapes:
            v = self._make_validator(s.name, s, s.traits, "%s" % s.name)
            if v:
                s.validator = v
                result.append(v)
        for s in self.shapes:
            for m in s.members:
                if s.kind in ("structure", "union") and m.own_constraints:
                    merged = dict(m.target.traits)
                    merged.update(m.traits)
                    v = self._make_validator("%s_%s" % (s.name, m.name), m.target, merged,
                                             "%s$%s" % (s.name, m.name))
                    if v:
                        m.validator = v
                        result.append(v)
        return result

    def _make_validator(self, name, target, traits, label):
        length = traits.get("smithy.api#length")
        pattern = traits.get("smithy.api#pattern")
        rng = traits.get("smithy.api#range")
        kind = target.kind
        if kind == "string" and (length or pattern):
            rows = samples.string_rows(name, length, pattern)
            return {"fn": self.PREFIX + "validate_" + name, "kind": "string", "label": label, "length": length,
                    "pattern": pattern, "pattern_index": self.pattern_index.get(pattern),
                    "rows": rows}
        if kind in ("integer", "long") and rng:
            return {"fn": self.PREFIX + "validate_" + name, "kind": "number", "label": label, "range": rng,
                    "rows": samples.range_rows(name, rng, smithy.INT_LIMITS[kind])}
        if kind in ("list", "map") and length:
            return {"fn": "%svalidate_%s_count" % (self.PREFIX, name), "kind": "count", "label": label,
                    "length": length, "rows": samples.count_rows(name, length)}
        if (length or pattern or rng) and kind not in ("string", "integer", "long", "list", "map"):
            raise smithy.ModelError("%s: constraint on a %s is not supported" % (label, kind))
        return None

    def member_validator(self, member):
        if getattr(member, "validator", None):
            return member.validator
        return getattr(member.target, "validator", None)

    def member_value_check(self, member):
        """The value check a structure member needs beyond its aggregate's own validator: count
        limits on a list or map shape are checked inside that shape's validator instead."""
        v = self.member_validator(member)
        if v and v["kind"] == "count" and not getattr(member, "validator", None):
            return None
        return v

    def needs_validation(self, shape):
        """Whether an aggregate holds anything the validators must look at."""
        if shape.id in self._validation_memo:
            return self._validation_memo[shape.id]
        self._validation_memo[shape.id] = False       # breaks recursion through cyclic shapes
        result = False
        if shape.kind in ("structure", "union"):
            result = shape.kind == "union" or any(
                m.required or self.member_validator(m) or
                (m.target.is_aggregate and self.needs_validation(m.target)) for m in shape.members)
        elif shape.kind == "list":
            t = shape.member.target
            result = bool(getattr(shape, "validator", None) or self.member_validator(shape.member) or
                          (t.is_aggregate and self.needs_validation(t)))
        elif shape.kind == "map":
            result = bool(getattr(shape, "validator", None) or self.member_validator(shape.key) or
                          self.member_validator(shape.value) or
                          (shape.value.target.is_aggregate and self.needs_validation(shape.value.target)))
        self._validation_memo[shape.id] = result
        return result

    def enum_message(self, shape):
        return MESSAGES["enum"].format(values=", ".join(m.enum_value for m in shape.members))

    # -- output ordering -----------------------------------------------------------------------

    def aggregates(self):
        return [s for s in self.shapes if s.is_aggregate]

    def input_shapes(self):
        seen, out = set(), []
        for op in self.operations:
            if op.input.name not in seen:
                seen.add(op.input.name)
                out.append(op.input)
        return out

    def output_shapes(self):
        seen, out = set(), []
        for op in self.operations:
            if op.output is not None and op.output.name not in seen:
                seen.add(op.output.name)
                out.append(op.output)
        return out

    def parsed_shapes(self):
        """Aggregates reachable from JSON request bodies (query lists are parsed in place)."""
        return smithy.reach([m.target for route in self.routes for m in route.members_at("body")],
                            lambda s: s.is_aggregate)

    def validated_shapes(self):
        """Aggregates the validators walk: operation inputs and what their members reach."""
        shapes = {s.id: s for s in self.parsed_shapes() + self.input_shapes()}
        for s in self.input_shapes():
            for m in s.members:
                if m.target.is_aggregate:
                    shapes[m.target.id] = m.target
        return sorted((s for s in shapes.values() if self.needs_validation(s)), key=lambda s: s.name)

    def serialized_shapes(self):
        return smithy.reach([m.target for op in self.operations if op.output is not None for m in op.output.members],
                            lambda s: s.is_aggregate)

    def constraint_rows(self):
        rows = []
        for v in self.validators:
            for ident, value, ok in v["rows"]:
                rows.append({"id": ident, "fn": v["fn"], "kind": v["kind"], "value": value, "ok": ok})
        return rows


class QueryServiceModel(query.QueryCModel, CModel):
    """An awsQuery service's C model (CloudFormation, STS): CModel with the service's prefix and
    query.py's protocol facts."""


def header_line(model, reference, overlay_path):
    types = ""
    if reference.sha256 != model.sha256:
        types = ", types widened by %s (sha256 %s)," % (os.path.basename(reference.path), reference.sha256[:12])
    return ("Code generated by codegen/generate.py from %s (sha256 %s)%s and %s. DO NOT EDIT."
            % (os.path.basename(model.path), model.sha256[:12], types, overlay_path))


def c_comment(value):
    """Text safe inside a C block comment."""
    return value.replace("*/", "* /")


def pinned_model():
    """The pinned S3 Tables model, committed in models/s3tables/: the one the regen target generates from."""
    return os.path.join(ROOT, "models", "s3tables", "s3tables-2018-05-10.smithy.json")


def pinned_iceberg_spec():
    """The pinned spec, committed in models/iceberg/ (its sha256 is in models/pin.txt)."""
    return os.path.join(ROOT, "models", "iceberg", ICEBERG_SPEC_NAME)


def repo_relative(path):
    return os.path.relpath(os.path.abspath(path), ROOT).replace(os.sep, "/")


def pinned_source(sha256):
    """The upstream URL models/pin.txt records for the file with this sha256, or None when the
    file is not a pinned one (a spec given on the command line)."""
    with open(os.path.join(ROOT, "models", "pin.txt")) as f:
        for fields in (line.split() for line in f):
            if len(fields) == 4 and not fields[0].startswith("#") and fields[1] == sha256:
                return fields[3]
    return None


def github_blob(raw_url):
    """The GitHub page of a raw.githubusercontent.com file at a commit, or None for another URL.
    A commit in the URL makes it a permalink: the page, and its line numbers, never change."""
    m = re.match(r"^https://raw\.githubusercontent\.com/([^/]+)/([^/]+)/([0-9a-f]{40})/(.+)$", raw_url or "")
    return "https://github.com/%s/%s/blob/%s/%s" % m.groups() if m else None


def link_iceberg_routes(spec):
    """Points each route at the line of its operationId in the pinned spec on GitHub, at the commit
    models/pin.txt records (the file is byte for byte that commit's). The Iceberg site renders the
    spec of its main branch, not of the version Floe serves, so it is not linked. A spec that is
    not pinned gets no links."""
    page = github_blob(pinned_source(spec.sha256))
    for r in spec.routes:
        r.doc_url = "%s#L%d" % (page, r.line) if page and r.line else None


def render_iceberg(env, spec_path, overlay_path, out):
    """The REST catalog's outputs: [(path, text)], or raises openapi.SpecError."""
    spec = openapi.load(spec_path, overlay_path)
    link_iceberg_routes(spec)
    header = ("Code generated by codegen/generate.py from %s (sha256 %s) and %s. DO NOT EDIT."
              % (os.path.basename(spec_path), spec.sha256[:12], repo_relative(overlay_path)))
    ctx = {"spec": spec, "spec_name": os.path.basename(spec_path), "header": header}
    return spec, [(os.path.join(out, dst), env.get_template(tpl).render(ctx)) for tpl, dst in ICEBERG_OUTPUTS]


def json_name(value):
    """The arguments of floe_json_name for a member's JSON name: the literal and its length. The
    runtime copies the name as it is, so a name JSON would escape is a model error."""
    if not re.fullmatch(r"[A-Za-z0-9_.$-]+", value):
        raise smithy.ModelError("JSON name %r would need escaping" % value)
    return "%s, %d" % (c_string(value), len(value))


def raise_model_error(message):
    raise smithy.ModelError(message)


def make_env():
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(os.path.join(HERE, "templates")),
        trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined, autoescape=False)
    env.filters["c_string"] = c_string
    env.filters["json_name"] = json_name
    env.filters["c_comment"] = c_comment
    env.globals["MESSAGES"] = MESSAGES
    env.globals["raise"] = raise_model_error
    return env


def write_if_changed(path, content):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    data = content.encode("utf-8")
    try:
        with open(path, "rb") as f:
            if f.read() == data:
                return False
    except FileNotFoundError:
        pass
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".tmp-")
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    os.chmod(tmp, 0o644)
    os.replace(tmp, path)
    return True


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", required=True, help="Smithy JSON AST of the S3 Tables service")
    ap.add_argument("--reference", help="the model handlers are written against (default: the pinned one)")
    ap.add_argument("--overlay", default="models/overlay.json")
    ap.add_argument("--out", default="generated")
    ap.add_argument("--iceberg-spec", help="Iceberg REST catalog OpenAPI spec (default: the pinned copy)")
    ap.add_argument("--iceberg-overlay", default=os.path.join(ROOT, "models", "iceberg-overlay.json"))
    ap.add_argument("--query-model", action="append", default=[], metavar="SERVICE=PATH",
                    help="another model for an awsQuery or awsJson service (%s); default: the pinned one"
                    % ", ".join(s.key for s in query.SERVICES + awsjson.SERVICES))
    ap.add_argument("--engines-doc", default=engine_snippets.DOC,
                    help="the page whose blocks marked for the console the console shows (default: docs/engines.md)")
    args = ap.parse_args(argv)
    overrides = dict(arg.split("=", 1) for arg in args.query_model)

    model = smithy.load(args.model)
    reference = smithy.load(args.reference or pinned_model())
    ov = overlay_mod.Overlay(args.overlay)
    ov.check(model)
    try:
        cm = CModel(model, ov, reference)
        env = make_env()
        overlay_name = os.path.relpath(os.path.abspath(args.overlay), os.path.dirname(HERE)).replace(os.sep, "/")
        ctx = {"c": cm, "model": model, "header": header_line(model, reference, overlay_name)}
        rendered = [(os.path.join(args.out, dst), env.get_template(tpl).render(ctx)) for tpl, dst in OUTPUTS]
        spec, iceberg = render_iceberg(env, args.iceberg_spec or pinned_iceberg_spec(), args.iceberg_overlay,
                                       args.out)
        queried, query_summary, query_models = query.render(env, QueryServiceModel, args.out, overrides)
        jsoned, json_summary, json_models = awsjson.render(env, args.out, overrides)
        smoked = smoke.render([model] + query_models + json_models, args.out)
        snippets = engine_snippets.render(args.out, args.engines_doc)
    except (smithy.ModelError, samples.SampleError, openapi.SpecError, smoke.SmokeError,
            engine_snippets.SnippetError) as exc:
        sys.stderr.write("codegen: %s\n" % exc)
        return 1
    changed = [path for path, text in rendered + iceberg + queried + jsoned + smoked + snippets
               if write_if_changed(path, text)]
    changed += cfn_resource_types.write(args.out, make_env, write_if_changed)
    sys.stdout.write("codegen: %d operations, %d routes, %d shapes; %d Iceberg REST operations; %s; %s; "
                     "%d file(s) updated\n"
                     % (len(cm.operations), len(cm.routes), len(cm.shapes), len(spec.routes), query_summary,
                        json_summary, len(changed)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

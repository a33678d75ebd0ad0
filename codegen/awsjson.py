"""Generates the awsJson1_1 services Floe serves beside S3 Tables: Glue and Athena.

What this is for: for each service that speaks AWS's JSON 1.1 protocol (awsJson1_1), the typed C
API handlers are written against (<prefix>_api.h) and the tables runtime/awsjson/ reads to parse,
validate and serialize any operation of it: one descriptor per shape an operation reaches (its
kind, C size, members with their JSON names and field offsets, enum values, constraints), the
service's errors and its operation table, the capability docs (generated/docs/<service>.md) and
the service list (generated/awsjson_services.def). Glue has 265 operations and about 1,400
shapes; per-shape C functions would be tens of thousands of lines, so the codec is one generic
walker in the runtime over these tables, and the generated code is data.

What it is not for: any behaviour of an operation (handlers/glue/), the protocol's envelope
(X-Amz-Target, the error document, request ids: runtime/awsjson/), the other protocols.

A service may also have a REST-JSON binding (Athena: botocore 1.44.18 and later speak rest-json to
it, older clients awsJson1_1, and AWS answers both). It is read from botocore's service-2.json for
the same operations: each operation's method and URI template and, for each input member, where it
travels (uri label or query string; the rest is the JSON body). The runtime matches a request
without X-Amz-Target against these routes and hands the same handler the same typed input, so one
operation table serves both bindings.

awsJson1_1, as botocore's JSONSerializer and JSONParser implement it (and the Smithy awsJson1_1
spec): POST / with `X-Amz-Target: <ServiceShapeName>.<Operation>` and an
`application/x-amz-json-1.1` body holding the input structure; each member under its member name
(no @jsonName in this protocol); timestamps as epoch seconds unless @timestampFormat says
otherwise; blobs base64. Errors are `{"__type": "<Error>", "message": "..."}` with the status of
the error's @httpError (400 for a client error, 500 for a server one when it has none).
"""

import json
import os
import re

import overlay as overlay_mod
import smithy

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# Errors every awsJson operation may answer besides the ones its model lists: the answer to a
# request that fails the model's constraints, and to a body that is not the input's JSON
# (awsJson's SerializationException, which AWS's JSON services answer with 400).
COMMON_ERRORS = [("SerializationException", 400, False)]
MAX_ERRORS = 64   # an operation's allowed errors are one uint64_t bit mask
MAX_LEVELS = 2   # floe_awsjson_authorize_t.levels: resources under the catalog an operation is decided on

# Each operation's page in AWS's API reference, per service key.
API_REFERENCE = {"glue": "https://docs.aws.amazon.com/glue/latest/webapi/API_{operation}.html",
                 "athena": "https://docs.aws.amazon.com/athena/latest/APIReference/API_{operation}.html"}
# Where a REST-JSON input member travels besides the body (runtime/awsjson/awsjson_service.h).
REST_LOCATIONS = {"uri": "FLOE_AWSJSON_IN_URI", "querystring": "FLOE_AWSJSON_IN_QUERY"}

# One message template per constraint trait, as AWS's validation layer words them (generate.py's).
KINDS = {
    "string": "STRING", "enum": "ENUM", "boolean": "BOOLEAN", "integer": "INTEGER", "long": "LONG",
    "double": "DOUBLE", "timestamp": "TIMESTAMP", "blob": "BLOB", "document": "DOCUMENT",
    "structure": "STRUCTURE", "union": "UNION", "list": "LIST", "map": "MAP",
}

OUTPUTS = [
    ("awsjson_api.h.j2", "{p}_api.h"),
    ("awsjson_tables.c.j2", "{p}_tables.c"),
    ("awsjson_operations.md.j2", "docs/{doc}.md"),
]


class JsonService:
    """One awsJson1_1 service Floe serves: its pinned model, its overlay and its C prefix."""

    def __init__(self, key, model, overlay, prefix, doc, name, rest=None,
                 validation_error="ValidationException", internal_error="InternalServiceException",
                 validation_detail=None, denied_status=403):
        self.key = key
        self.model = os.path.join(ROOT, "models", model)
        self.overlay = os.path.join(ROOT, "models", overlay)
        self.prefix = prefix
        self.doc = doc
        self.name = name          # the README's and docs' name for it
        self.rest = os.path.join(ROOT, "models", rest) if rest else None  # botocore's rest-json binding
        self.validation_error = validation_error  # what the service answers a constraint violation with
        self.internal_error = internal_error
        self.validation_detail = validation_detail  # the detail member a constraint violation carries
        self.denied_status = denied_status  # --enforce-iam's AccessDeniedException, when the model has none


SERVICES = [
    JsonService("glue", "glue/glue-2017-03-31.smithy.json", "glue-overlay.json", "glue", "glue", "Glue"),
    # Athena has no ValidationException: it answers a constraint violation with InvalidRequestException.
    JsonService("athena", "athena/athena-2017-05-18.smithy.json", "athena-overlay.json", "athena", "athena",
                "Athena", rest="athena/botocore/athena/2017-05-18/service-2.json",
                validation_error="InvalidRequestException", internal_error="InternalServerException",
                validation_detail="INVALID_INPUT",
                # Athena answers a refused call AccessDeniedException with 400 (botocore's
                # "Status Code: 400; Error Code: AccessDeniedException"); its model lists no such error.
                denied_status=400),
]


class JsonOverlay(overlay_mod.Overlay):
    """A service's overlay: each operation's status and notes. awsJson has no routes to add."""

    def check(self, model):
        super().check(model)
        if self.raw.get("routes"):
            overlay_mod.fail("%s: awsJson services have no routes to overlay" % self.path)
        names = {op.name for op in model.operations}
        for name in self.raw.get("operations", {}):
            if name not in names:
                overlay_mod.fail("%s: %s is not an operation of the model" % (self.path, name))


class JsonCModel(smithy.CMemberTypes):
    """The C names and tables of one awsJson1_1 service."""

    def __init__(self, svc, model, overlay):
        self.svc = svc
        self.model = model
        self.PREFIX = "floe_%s_" % svc.prefix
        self.MACRO_PREFIX = "FLOE_%s_" % svc.prefix.upper()
        self.operations = sorted(model.operations, key=lambda op: op.name)
        roots = [op.input for op in self.operations] + [op.output for op in self.operations if op.output]
        self.shapes = smithy.reach(roots, lambda s: True)
        self.errors = model.errors()
        failures = overlay.raw.get("failures", {})
        self.failures = {k: v for k, v in failures.items() if k in ("notFound", "exists", "invalid", "denied")}
        self.not_found_messages = failures.get("notFoundMessages", {})
        self.patterns = sorted({s.traits["smithy.api#pattern"] for s in self.shapes
                                if "smithy.api#pattern" in s.traits})
        self.pattern_index = {p: i for i, p in enumerate(self.patterns)}
        for op in self.operations:
            op.status = overlay.status(op)
            op.notes = overlay.notes(op)
            op.claimed = op.status != "not_implemented"
            op.doc_url = API_REFERENCE[svc.key].format(operation=op.name)
            op.authorize = overlay.raw.get("operations", {}).get(op.name, {}).get("authorize", {})
            op.levels = overlay.raw.get("operations", {}).get(op.name, {}).get("authorizeLevels", [])
        self.rest = self.read_rest(svc.rest) if svc.rest else None
        self.stored = self.read_stored(overlay.raw.get("storedShapes", []))
        self.check()

    def read_stored(self, names):
        """The shapes the overlay's "storedShapes" names: a handler keeps one as its JSON text
        (floe_<prefix>_<Shape>_to_json / _from_json), so each must be a structure the tables describe."""
        by_name = {s.name: s for s in self.shapes}
        for name in names:
            if name not in by_name or by_name[name].kind != "structure":
                raise smithy.ModelError("storedShapes: %s is not a structure an operation reaches" % name)
        return [by_name[name] for name in names]

    def read_rest(self, path):
        """Each operation's REST-JSON route from botocore's service-2.json: op.rest_method,
        op.rest_uri and op.rest_params [(member index in the input, location macro, wire name)].
        What the runtime could not bind (headers, payloads, other status codes) stops here."""
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        if data["metadata"].get("protocol") != "rest-json":
            raise smithy.ModelError("%s: not a rest-json binding" % path)
        for op in self.operations:
            bop = data["operations"].get(op.name)
            if bop is None:
                raise smithy.ModelError("%s: %s has no REST binding" % (path, op.name))
            http = bop["http"]
            if "?" in http["requestUri"] or "+}" in http["requestUri"] or http.get("responseCode", 200) != 200:
                raise smithy.ModelError("%s: %s's route %s is not supported" % (path, op.name, http))
            op.rest_method, op.rest_uri, op.rest_params = http["method"], http["requestUri"], []
            shape = data["shapes"][bop["input"]["shape"]] if "input" in bop else {"members": {}}
            if "payload" in shape:
                raise smithy.ModelError("%s: %s has a payload member" % (path, op.name))
            index = {m.name: i for i, m in enumerate(op.input.members)}
            for name, member in shape["members"].items():
                if name not in index:  # newer than the Smithy model (AttributesToGet): not read, as in awsJson
                    continue
                where = member.get("location", "body")
                if where == "body":
                    continue
                if where not in REST_LOCATIONS:
                    raise smithy.ModelError("%s: %s$%s travels in a %s" % (path, op.name, name, where))
                op.rest_params.append((index[name], REST_LOCATIONS[where], member.get("locationName", name)))
            labels = re.findall(r"{([^}]*)}", op.rest_uri)
            bound = {wire for _, loc, wire in op.rest_params if loc == REST_LOCATIONS["uri"]}
            if set(labels) != bound:
                raise smithy.ModelError("%s: %s's labels %s are not its uri members" % (path, op.name, labels))
        return data

    def rest_param_start(self, op):
        """Index of op's first row in the service's REST parameters."""
        at = 0
        for o in self.operations:
            if o is op:
                return at
            at += len(o.rest_params) if self.rest else 0
        raise KeyError(op.name)

    def check(self):
        """What the tables cannot express stops the generator here, naming the shape."""
        for s in self.shapes:
            if s.kind not in KINDS and s.kind != "unit":
                raise smithy.ModelError("%s: a %s is not supported in awsJson" % (s.id, s.kind))
            for m in s.members:
                if "smithy.api#jsonName" in m.traits:
                    raise smithy.ModelError("%s$%s: @jsonName has no meaning in awsJson" % (s.id, m.name))
                fmt = m.timestamp_format or m.target.traits.get("smithy.api#timestampFormat")
                if m.target.kind == "timestamp" and fmt not in (None, "epoch-seconds", "date-time"):
                    raise smithy.ModelError("%s$%s: timestamp format %s" % (s.id, m.name, fmt))
            if s.kind == "list" and s.member.target.kind == "timestamp" and \
                    s.member.target.traits.get("smithy.api#timestampFormat"):
                raise smithy.ModelError("%s: a list of formatted timestamps is not supported" % s.id)
            if "smithy.api#range" in s.traits and s.kind == "double":
                rng = s.traits["smithy.api#range"]
                if any(float(v) != int(float(v)) for v in rng.values()):
                    raise smithy.ModelError("%s: a fractional range is not supported" % s.id)
        if len(self.error_rows()) + 1 > MAX_ERRORS:
            raise smithy.ModelError("%s: too many errors for one 64-bit mask" % self.model.service["id"])

    # -- names and types -------------------------------------------------------------------------

    def type_name(self, shape):
        return self.PREFIX + shape.name

    # -- the tables: indices and offsets, no pointers ---------------------------------------------

    def described(self):
        """The shapes that get a descriptor, in index order."""
        return [s for s in self.shapes if s.kind != "unit"]

    def _index(self):
        if getattr(self, "_indexed", False):
            return
        self._indexed = True
        texts, offsets, at = [], {}, 0
        member_at, value_at = 0, 0
        for i, s in enumerate(self.described()):
            s.shape_index = i
            s.member_start = member_at
            member_at += len(self.members_of(s))
            s.value_start = value_at
            value_at += len(s.members) if s.kind == "enum" else 0
        wanted = [s.name for s in self.described()] + [op.name for op in self.operations]
        if self.rest:
            for op in self.operations:
                wanted += [op.rest_method, op.rest_uri] + [wire for _, _, wire in op.rest_params]
        for s in self.described():
            wanted += [m.name for m in s.members if s.kind in ("structure", "union")]
            wanted += [m.enum_value for m in s.members if s.kind == "enum"]
        for op in self.operations:
            wanted += [text for text in (op.authorize.get("resource"), op.authorize.get("default")) if text not in (None, "any")]
            wanted += op.levels
        for text in wanted:
            if text not in offsets:
                offsets[text] = at
                texts.append(text)
                at += len(text.encode("utf-8")) + 1
        self._texts, self._offsets = texts, offsets

    def name_table(self):
        self._index()
        return self._texts

    def name_offset(self, text):
        self._index()
        return self._offsets[text]

    def shape_index(self, shape):
        self._index()
        return shape.shape_index

    def member_start(self, shape):
        self._index()
        return shape.member_start

    def value_start(self, shape):
        self._index()
        return shape.value_start

    def scalar_ctype(self, shape):
        kind = shape.kind
        if kind in ("string", "document", "blob"):
            return "char *"
        if kind == "enum":
            return self.type_name(shape) + " "
        return {"integer": "int32_t ", "long": "int64_t ", "double": "double ", "boolean": "bool ",
                "timestamp": "floe_timestamp_t "}[kind]

    def enums(self):
        return [s for s in self.shapes if s.kind == "enum"]

    def aggregates(self):
        return [s for s in self.shapes if s.is_aggregate]

    def kind(self, shape):
        return "FLOE_AWSJSON_" + KINDS[shape.kind]

    def member_flags(self, member):
        flags = []
        if member.required:
            flags.append("FLOE_AWSJSON_REQUIRED")
        fmt = member.timestamp_format or member.target.traits.get("smithy.api#timestampFormat")
        if member.target.kind == "timestamp" and fmt == "date-time":
            flags.append("FLOE_AWSJSON_DATE_TIME")
        return " | ".join(flags) or "0"

    @staticmethod
    def pcre_pattern(pattern):
        """The pattern as PCRE2 reads it in UTF mode. The models write code points Java's way:
        \\uD7FF (PCRE2: \\x{D7FF}), and a code point above U+FFFF as its UTF-16 surrogate pair
        (\\uD800\\uDC00-\\uDBFF\\uDFFF is U+10000-U+10FFFF), which PCRE2 refuses: pairs become
        the code point they encode."""
        def pair(m):
            high, low = int(m.group(2), 16), int(m.group(3), 16)
            return "%s\\x{%X}" % (m.group(1), 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
        pattern = re.sub(r"(?<!\\)((?:\\\\)*)\\u(D[89AB][0-9A-Fa-f]{2})\\u(D[C-F][0-9A-Fa-f]{2})", pair, pattern)
        return re.sub(r"(?<!\\)((?:\\\\)*)\\u([0-9A-Fa-f]{4})", r"\1\\x{\2}", pattern)

    def constraint(self, shape):
        """(min, max, pattern index) C initializers of a shape's @length or @range and @pattern."""
        length = shape.traits.get("smithy.api#length") or shape.traits.get("smithy.api#range") or {}
        lo, hi = length.get("min"), length.get("max")
        pattern = shape.traits.get("smithy.api#pattern")
        return {
            "has": lo is not None or hi is not None or pattern is not None,
            "min": "INT64_MIN" if lo is None else "INT64_C(%d)" % int(float(lo)),
            "max": "INT64_MAX" if hi is None else "INT64_C(%d)" % int(float(hi)),
            "pattern": -1 if pattern is None else self.pattern_index[pattern],
        }

    # -- --enforce-iam ---------------------------------------------------------------------------

    # What an overlay's "authorize" may say of an operation (awsjson_service.h): the resource type
    # its "<signing name>:<Op>" action is decided on, named by a string member ("name", with a
    # "default" when the request leaves it out) or as the holder of the stored object each id of a
    # member ("owner": a string or a list of strings) names; or "any" ("*"). Without any rule in
    # the overlay (Glue) every operation is decided on the account's catalog.
    def authorizes(self):
        return any(op.authorize for op in self.operations)

    def owner_shape(self, op):
        """The id shape an "owner" rule's member holds (QueryExecutionId), or None."""
        name = op.authorize.get("owner")
        if name is None:
            return None
        m = next((m for m in op.input.members if m.name == name), None)
        target = m.target.member.target if m is not None and m.target.kind == "list" else (m.target if m else None)
        if target is None or target.kind != "string":
            raise smithy.ModelError("%s: authorize.owner names no string or list of strings of the input (%r)"
                                    % (op.id, name))
        return target

    def owner_shapes(self):
        """The id shapes whose holder the service's handlers find (floe_<prefix>_owner_of_<shape>)."""
        seen = {}
        for op in self.operations:
            shape = self.owner_shape(op)
            if shape is not None:
                seen[shape.name] = shape
        return [seen[k] for k in sorted(seen)]

    def levels_row(self, op):
        """The C initializer of op's authorize levels (the overlay's "authorizeLevels": resources under the
        account's catalog, "database/{DatabaseName}", each {path} a string member of the input, nested
        with dots), checked against the input's members."""
        if len(op.levels) > MAX_LEVELS or (op.levels and self.authorizes()):
            raise smithy.ModelError("%s: authorizeLevels: at most %d, in a service whose operations are decided on "
                                    "its catalog" % (op.id, MAX_LEVELS))
        for level in op.levels:
            for path in re.findall(r"{([^}]*)}", level):
                shape = op.input
                for i, name in enumerate(path.split(".")):
                    member = next((m for m in shape.members if m.name == name), None)
                    last = i == len(path.split(".")) - 1
                    if member is None or (member.target.kind != "string" if last else member.target.kind != "structure"):
                        raise smithy.ModelError("%s: authorizeLevels %r: %s is no string member" % (op.id, level, path))
                    shape = member.target
        offsets = [str(self.name_offset(level)) for level in op.levels]
        return "{%s}" % ", ".join(offsets + ["FLOE_AWSJSON_NO_NAME"] * (MAX_LEVELS - len(offsets)))

    def authorize_row(self, op):
        """The C initializer of op's floe_awsjson_authorize_t."""
        rule, none = op.authorize, "FLOE_AWSJSON_NO_NAME"
        if not rule:
            if self.authorizes() and op.claimed:
                raise smithy.ModelError("%s: a served operation of a service whose overlay authorizes says how "
                                        "(authorize)" % op.id)
            kind = "NOT_EVALUATED" if self.authorizes() else "CATALOG"
            return "{FLOE_AWSJSON_AUTHORIZE_%s, %s, %s, %s, NULL, %s}" % (kind, none, none, none, self.levels_row(op))
        kind = rule.get("resource")
        if kind == "any":
            if set(rule) - {"resource"}:
                raise smithy.ModelError("%s: authorize.resource any takes nothing else" % op.id)
            return "{FLOE_AWSJSON_AUTHORIZE_ANY, %s, %s, %s, NULL, %s}" % (none, none, none, self.levels_row(op))
        if not kind or set(rule) - {"resource", "name", "default", "owner"} or \
                ("name" in rule) == ("owner" in rule) or ("default" in rule and "name" not in rule):
            raise smithy.ModelError("%s: authorize %r: a resource type with a name (and default) or an owner, "
                                    "or resource any" % (op.id, rule))
        members = [m.name for m in op.input.members]
        member = rule.get("name") or rule.get("owner")
        if member not in members:
            raise smithy.ModelError("%s: authorize names no member of the input (%r)" % (op.id, member))
        if "name" in rule and op.input.members[members.index(member)].target.kind != "string":
            raise smithy.ModelError("%s: authorize.name %r is not a string" % (op.id, member))
        owner = self.owner_shape(op)
        return "{FLOE_AWSJSON_AUTHORIZE_%s, %d, %d, %s, %s, %s}" % (
            "OWNER" if owner is not None else "NAMED", self.name_offset(kind), members.index(member),
            self.name_offset(rule["default"]) if "default" in rule else none,
            ("%sowner_of_%s" % (self.PREFIX, owner.name)) if owner is not None else "NULL", self.levels_row(op))

    def members_of(self, shape):
        """The descriptor's member rows: a structure's or union's members, a list's item, a
        map's key and value."""
        if shape.kind in ("structure", "union"):
            return shape.members
        if shape.kind == "list":
            return [shape.member]
        if shape.kind == "map":
            return [shape.key, shape.value]
        return []

    # -- errors ----------------------------------------------------------------------------------

    def error_fields(self, name):
        """(message member, detail member or None) of error `name`: the JSON keys its document
        carries its message under (Athena's `Message`, as the model spells it) and the one other
        string member a handler may set (Athena's AthenaErrorCode, ResourceName)."""
        for e in self.errors:
            if e.name == name:
                msg = next((m.name for m in e.members if m.name.lower() == "message"), "message")
                detail = next((m.name for m in e.members if m.name != msg and m.target.kind in ("string", "enum")),
                              None)
                return msg, detail
        return "message", None

    def error_rows(self):
        """[(name, status, is_server_fault)] in enum order: the model's errors, then the common ones."""
        rows = []
        for e in self.errors:
            server = e.traits.get("smithy.api#error") == "server"
            rows.append((e.name, e.traits.get("smithy.api#httpError", 500 if server else 400), server))
        names = {r[0] for r in rows}
        for name, status, server in COMMON_ERRORS:
            if name not in names:
                rows.append((name, status, server))
        return rows

    def op_error_names(self, op):
        return [e.name for e in op.errors] + [name for name, _, _ in COMMON_ERRORS] + \
            [n for n in (self.validation_error, self.internal_error) if n not in [e.name for e in op.errors]]

    def op_errors_expr(self, op):
        """The C bit mask of the errors `op` may answer."""
        return " | ".join("E(%s)" % name for name in self.op_error_names(op))

    @property
    def validation_error(self):
        return self.svc.validation_error

    @property
    def internal_error(self):
        return self.svc.internal_error

    def failure_error(self, kind):
        """The C error of the service's overlay "failures" entry `kind` (notFound, exists,
        invalid, denied): what a failure of that house code answers; -1 (a 500) when not listed."""
        name = self.failures.get(kind)
        return "%sERR_%s" % (self.MACRO_PREFIX, name) if name else "-1"

    def not_found_messages_init(self):
        """The C initializer of the service's not-found messages by subject (the overlay's
        "failures"."notFoundMessages": subject name -> message with {name})."""
        return "{" + ", ".join("[FLOE_SUBJECT_%s] = %s" % (subject.upper(), json.dumps(text))
                               for subject, text in sorted(self.not_found_messages.items())) + "}"

    def count(self, status):
        return sum(1 for op in self.operations if op.status == status)


def render(env, out, overrides=None):
    """Every awsJson service's outputs and the service list: [(path, text)], a summary, and the
    services' models (for the smoke tests). Raises smithy.ModelError."""
    rendered, summary, models, services = [], [], [], []
    for svc in SERVICES:
        model = smithy.Model((overrides or {}).get(svc.key, svc.model), "awsJson1_1")
        ov = JsonOverlay(svc.overlay)
        ov.check(model)
        cm = JsonCModel(svc, model, ov)
        names = {r[0] for r in cm.error_rows()}
        for needed in [cm.validation_error, cm.internal_error] + list(cm.failures.values()):
            if needed not in names:
                raise smithy.ModelError("%s: the model has no %s" % (model.service["id"], needed))
        overlay_name = os.path.relpath(svc.overlay, ROOT).replace(os.sep, "/")
        header = ("Code generated by codegen/generate.py from %s (sha256 %s) and %s. DO NOT EDIT."
                  % (os.path.basename(model.path), model.sha256[:12], overlay_name))
        ctx = {"c": cm, "model": model, "svc": svc, "header": header}
        for tpl, dst in OUTPUTS:
            rendered.append((os.path.join(out, dst.format(p=svc.prefix, doc=svc.doc)),
                             env.get_template(tpl).render(ctx)))
        services.append(cm)
        models.append(model)
        summary.append("%d %s operations, %d shapes" % (len(cm.operations), model.service["sdk_id"], len(cm.shapes)))
    header = ("Code generated by codegen/generate.py from %s. DO NOT EDIT."
              % " and ".join("%s (sha256 %s)" % (os.path.basename(c.model.path), c.model.sha256[:12])
                             for c in services))
    rendered.append((os.path.join(out, "awsjson_services.def"),
                     env.get_template("awsjson_services.def.j2").render({"services": services, "header": header})))
    return rendered, ", ".join(summary), models

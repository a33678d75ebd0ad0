"""Reads a Smithy 2.0 JSON AST and checks it, producing the small model the templates need.

What this is for: turning an AWS service model into plain Python objects (Shape, Member,
Operation) with every fact the C layer needs already resolved: C names, JSON or query/XML names,
HTTP bindings, constraint traits. Three protocols are understood: restJson1 (S3 Tables),
awsQuery (CloudFormation, STS; codegen/query.py) and awsJson1_1 (Glue; codegen/awsjson.py).
What it is not for: writing files
(generate.py and query.py do that).

The model is checked before anything is written: an unknown trait, shape type or protocol stops
the generator with the shape id, so a model update that needs new generator support cannot pass
silently.
"""

import hashlib
import json
import sys

PRELUDE = "smithy.api#"

# Traits whose meaning the generator implements.
HANDLED_TRAITS = {
    "smithy.api#required", "smithy.api#length", "smithy.api#pattern", "smithy.api#range",
    "smithy.api#http", "smithy.api#httpLabel", "smithy.api#httpQuery", "smithy.api#httpError",
    "smithy.api#error", "smithy.api#jsonName", "smithy.api#timestampFormat", "smithy.api#enumValue",
    "smithy.api#default", "smithy.api#paginated", "smithy.api#readonly", "smithy.api#idempotent",
    "smithy.api#input", "smithy.api#output", "smithy.api#documentation",
    "aws.protocols#restJson1", "aws.auth#sigv4", "aws.protocols#awsJson1_1",
}
# Traits only the awsQuery protocol gives meaning to (query.py implements them); a restJson1 model
# carrying one is refused, since the restJson1 templates would ignore it.
QUERY_TRAITS = {
    "aws.protocols#awsQuery", "aws.protocols#awsQueryError", "smithy.api#xmlNamespace",
    "smithy.api#xmlName", "smithy.api#xmlFlattened",
}
PROTOCOLS = {"aws.protocols#restJson1": "restJson1", "aws.protocols#awsQuery": "awsQuery",
             "aws.protocols#awsJson1_1": "awsJson1_1"}
# Traits that change nothing a server does: client tooling, docs, endpoint resolution, tests
# (smoke tests become e2e cases through smoke.py, not server code).
IGNORED_TRAITS = {
    "smithy.test#smokeTests",
    "smithy.api#title", "smithy.api#cors", "smithy.api#examples", "smithy.api#tags",
    "smithy.api#deprecated", "smithy.api#suppress", "smithy.api#sensitive", "smithy.api#since",
    "smithy.api#externalDocumentation", "smithy.api#unstable", "smithy.api#addedDefault",
    "smithy.api#clientOptional", "smithy.api#sparse", "smithy.api#internal", "smithy.api#recommended",
    "smithy.rules#endpointRuleSet", "smithy.rules#endpointTests", "smithy.rules#contextParam",
    "smithy.rules#staticContextParams", "smithy.rules#clientContextParams",
    "aws.api#arn", "aws.api#arnReference", "aws.api#service",
    "aws.api#dataPlane", "aws.api#controlPlane", "aws.iam#iamAction", "aws.iam#requiredActions",
    "aws.iam#actionPermissionDescription", "aws.iam#conditionKeys", "aws.iam#defineConditionKeys",
    "smithy.api#documentation", "smithy.api#idempotencyToken", "smithy.api#auth",
    "smithy.api#optionalAuth", "smithy.waiters#waitable", "aws.auth#sigv4a",
}
# Traits that would change the wire format in ways the templates do not implement.
UNSUPPORTED_TRAITS = {
    "smithy.api#httpHeader", "smithy.api#httpPayload", "smithy.api#httpPrefixHeaders",
    "smithy.api#httpQueryParams", "smithy.api#httpResponseCode", "smithy.api#streaming",
    "smithy.api#eventStream", "smithy.api#idRef", "smithy.api#uniqueItems", "smithy.api#mediaType",
    "smithy.api#hostLabel", "smithy.api#endpoint", "smithy.api#requiresLength",
}

SHAPE_TYPES = {"structure", "union", "list", "map", "enum", "intEnum", "string", "integer", "long",
               "double", "boolean", "timestamp", "document", "operation", "resource", "service", "blob"}
PRELUDE_TYPES = {
    "String": "string", "Integer": "integer", "Long": "long", "Boolean": "boolean",
    "Timestamp": "timestamp", "Document": "document", "Unit": "unit",
    "PrimitiveInteger": "integer", "PrimitiveLong": "long", "PrimitiveBoolean": "boolean",
    "Double": "double", "PrimitiveDouble": "double", "Blob": "blob",
}
C_KEYWORDS = {
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum",
    "extern", "float", "for", "goto", "if", "inline", "int", "long", "register", "restrict", "return",
    "short", "signed", "sizeof", "static", "struct", "switch", "typedef", "union", "unsigned", "void",
    "volatile", "while", "bool", "true", "false",
}
SCALAR_TYPES = {"integer", "long", "double", "boolean", "timestamp"}
INT_LIMITS = {"integer": (-2 ** 31, 2 ** 31 - 1), "long": (-2 ** 63, 2 ** 63 - 1)}


class ModelError(Exception):
    """A fact about the model the generator refuses to guess about."""


class Shape:
    def __init__(self, sid, kind, traits):
        self.id = sid
        self.name = sid.split("#", 1)[1]
        self.kind = kind
        self.traits = traits
        self.members = []        # structure/union/enum members, model order
        self.member = None       # list element Member
        self.key = None          # map key Member
        self.value = None        # map value Member
        self.prelude = sid.startswith(PRELUDE)

    @property
    def is_aggregate(self):
        return self.kind in ("structure", "union", "list", "map")

    def __repr__(self):
        return "Shape(%s)" % self.id


class Member:
    def __init__(self, owner, name, target, traits):
        self.owner = owner
        self.name = name
        self.target = target
        self.traits = traits
        self.c_name = name + "_" if name in C_KEYWORDS else name
        self.json_name = traits.get("smithy.api#jsonName", name)
        self.required = "smithy.api#required" in traits
        default = traits.get("smithy.api#default")
        self.default = default if default is not None else None
        self.location = "body"
        self.query_key = None
        if "smithy.api#httpLabel" in traits:
            self.location = "label"
        elif "smithy.api#httpQuery" in traits:
            self.location = "query"
            self.query_key = traits["smithy.api#httpQuery"]
        self.timestamp_format = traits.get("smithy.api#timestampFormat")
        # awsQuery: the name of the member's form key and XML element (@xmlName), and whether a
        # list or map is written without its wrapper (@xmlFlattened).
        self.xml_name = traits.get("smithy.api#xmlName", name)
        self.xml_flattened = "smithy.api#xmlFlattened" in traits

    def constraint(self, trait):
        """A constraint trait on the member wins over the same trait on its target."""
        if trait in self.traits:
            return self.traits[trait]
        return self.target.traits.get(trait)

    @property
    def has_presence_flag(self):
        """Scalars carry has_<name>; a member with a non-null default is always present."""
        return self.target.kind in SCALAR_TYPES and self.default is None

    @property
    def own_constraints(self):
        return any(t in self.traits for t in ("smithy.api#length", "smithy.api#pattern", "smithy.api#range"))

    def __repr__(self):
        return "Member(%s.%s)" % (self.owner.name, self.name)


class Operation:
    def __init__(self, shape_id, name, traits):
        self.id = shape_id
        self.name = name
        self.traits = traits
        # awsQuery operations have no @http: every one is POST (or GET) on "/", told apart by Action.
        http = traits.get("smithy.api#http", {"method": "POST", "uri": "/"})
        self.method = http["method"]
        self.uri = http["uri"]
        self.code = http.get("code", 200)
        self.resource = None
        self.input = None
        self.output = None       # None means smithy.api#Unit
        self.errors = []
        self.readonly = "smithy.api#readonly" in traits
        self.idempotent = "smithy.api#idempotent" in traits
        self.paginated = traits.get("smithy.api#paginated")

    def __repr__(self):
        return "Operation(%s)" % self.name


class Model:
    def __init__(self, path, protocol="restJson1", patch=None):
        """`patch`, when given, is called with the JSON AST before it is loaded (an overlay's
        additions to the model); the sha256 stays the pinned file's."""
        with open(path, "rb") as f:
            raw = f.read()
        self.path = path
        self.protocol = protocol
        self.sha256 = hashlib.sha256(raw).hexdigest()
        self.ast = json.loads(raw)
        if patch is not None:
            patch(self.ast)
        self.shapes = {}
        self.operations = []
        self.service = None
        self._load()

    # -- loading -------------------------------------------------------------------------------

    def _load(self):
        if not str(self.ast.get("smithy", "")).startswith("2."):
            raise ModelError("only Smithy 2.0 JSON AST is supported, got %r" % self.ast.get("smithy"))
        raw_shapes = self.ast["shapes"]
        services = [sid for sid, raw in raw_shapes.items() if raw.get("type") == "service"]
        if len(services) != 1:
            raise ModelError("expected exactly one service shape, found %d" % len(services))
        svc_id = services[0]
        svc = raw_shapes[svc_id]
        svc_traits = svc.get("traits", {})
        protocols = [PROTOCOLS[t] for t in svc_traits if t in PROTOCOLS]
        if self.protocol not in protocols:
            raise ModelError("%s: expected protocol %s, the model has %s"
                             % (svc_id, self.protocol, ", ".join(protocols) or "none Floe knows"))
        for sid, raw in raw_shapes.items():
            self._check_traits(sid, raw.get("traits", {}))
            if raw["type"] not in SHAPE_TYPES:
                raise ModelError("%s: unsupported shape type %r" % (sid, raw["type"]))
        self.service = {
            "id": svc_id, "name": svc_id.split("#", 1)[1], "version": svc.get("version", ""),
            "signing_name": svc_traits.get("aws.auth#sigv4", {}).get("name", ""),
            "sdk_id": svc_traits.get("aws.api#service", {}).get("sdkId", svc_id.split("#", 1)[1]),
            "xml_namespace": svc_traits.get("smithy.api#xmlNamespace", {}).get("uri", ""),
        }
        self._raw = raw_shapes
        for ref in svc.get("operations", []):
            self._add_operation(ref["target"], self.service["name"])
        for ref in svc.get("resources", []):
            self._walk_resource(ref["target"])
        self.operations.sort(key=lambda op: (op.resource, op.name))
        names = [op.name for op in self.operations]
        if len(names) != len(set(names)):
            raise ModelError("duplicate operation names: %s" % names)

    def _check_traits(self, sid, traits, member=None):
        where = sid + ("$" + member if member else "")
        for t in traits:
            if t in UNSUPPORTED_TRAITS or (t in QUERY_TRAITS and self.protocol != "awsQuery"):
                raise ModelError("%s: trait %s changes the wire format and is not supported" % (where, t))
            if t in ("smithy.api#http", "smithy.api#httpLabel", "smithy.api#httpQuery") and self.protocol != "restJson1":
                raise ModelError("%s: trait %s has no meaning in %s and is not supported" % (where, t, self.protocol))
            if t not in HANDLED_TRAITS and t not in IGNORED_TRAITS and t not in QUERY_TRAITS:
                raise ModelError("%s: unknown trait %s" % (where, t))

    def _walk_resource(self, rid):
        raw = self._raw[rid]
        name = rid.split("#", 1)[1]
        for key in ("create", "put", "read", "update", "delete", "list"):
            if key in raw:
                self._add_operation(raw[key]["target"], name)
        for key in ("operations", "collectionOperations"):
            for ref in raw.get(key, []):
                self._add_operation(ref["target"], name)
        for ref in raw.get("resources", []):
            self._walk_resource(ref["target"])

    def _add_operation(self, oid, resource):
        raw = self._raw[oid]
        if raw["type"] != "operation":
            raise ModelError("%s: bound as an operation but is a %s" % (oid, raw["type"]))
        if "smithy.api#http" not in raw.get("traits", {}) and self.protocol == "restJson1":
            raise ModelError("%s: operation without @http" % oid)
        op = Operation(oid, oid.split("#", 1)[1], raw.get("traits", {}))
        op.resource = resource
        op.input = self.shape(raw.get("input", {}).get("target", PRELUDE + "Unit"))
        if op.input.kind == "unit" and self.protocol == "awsQuery":
            op.input = self._empty_input(op)
        out = self.shape(raw.get("output", {}).get("target", PRELUDE + "Unit"))
        op.output = None if out.kind == "unit" else out
        op.errors = sorted((self.shape(e["target"]) for e in raw.get("errors", [])), key=lambda s: s.name)
        if op.input.kind == "unit":
            raise ModelError("%s: operations without an input structure are not supported" % oid)
        if self.protocol == "restJson1":
            self._check_bindings(op)
        self.operations.append(op)

    def _empty_input(self, op):
        """An awsQuery operation that takes nothing (IAM's GetAccountSummary) still has a form,
        Action and Version alone: it reads as an empty structure named <Operation>Request."""
        sid = op.id + "Request"
        if sid in self._raw:
            raise ModelError("%s: the model already has a shape named %s" % (op.id, sid))
        self._raw[sid] = {"type": "structure", "members": {}, "traits": {"smithy.api#input": {}}}
        return self.shape(sid)

    def _check_bindings(self, op):
        labels = {m.name for m in op.input.members if m.location == "label"}
        in_uri = set()
        for seg in op.uri.split("?")[0].strip("/").split("/"):
            if seg.startswith("{"):
                if seg.endswith("+}"):
                    raise ModelError("%s: greedy label %s is not supported" % (op.id, seg))
                in_uri.add(seg[1:-1])
        if labels != in_uri:
            raise ModelError("%s: labels %s do not match URI %s" % (op.id, sorted(labels), op.uri))
        if "?" in op.uri:
            raise ModelError("%s: literal query strings in @http uri are not supported" % op.id)

    # -- shapes --------------------------------------------------------------------------------

    def shape(self, sid):
        if sid in self.shapes:
            return self.shapes[sid]
        if sid.startswith(PRELUDE):
            short = sid[len(PRELUDE):]
            if short not in PRELUDE_TYPES:
                raise ModelError("%s: unsupported prelude shape" % sid)
            s = Shape(sid, PRELUDE_TYPES[short], {})
            self.shapes[sid] = s
            return s
        if sid not in self._raw:
            raise ModelError("%s: referenced but not defined" % sid)
        raw = self._raw[sid]
        kind = raw["type"]
        if kind == "intEnum":
            raise ModelError("%s: intEnum is not supported" % sid)
        if kind == "blob" and self.protocol == "awsQuery":
            # awsQuery carries a blob as its base64 text, in a form value or an XML element: to
            # the codec it is a string, which the handler fills (or reads) base64-encoded.
            kind = "string"
        s = Shape(sid, kind, raw.get("traits", {}))
        self.shapes[sid] = s
        if kind in ("structure", "union", "enum"):
            for name, mraw in raw.get("members", {}).items():
                mtraits = mraw.get("traits", {})
                self._check_traits(sid, mtraits, name)
                s.members.append(Member(s, name, self.shape(mraw["target"]), mtraits))
        elif kind == "list":
            s.member = Member(s, "member", self.shape(raw["member"]["target"]), raw["member"].get("traits", {}))
        elif kind == "map":
            s.key = Member(s, "key", self.shape(raw["key"]["target"]), raw["key"].get("traits", {}))
            s.value = Member(s, "value", self.shape(raw["value"]["target"]), raw["value"].get("traits", {}))
            if s.key.target.kind not in ("string", "enum"):
                raise ModelError("%s: map keys must be strings or enums" % sid)
        if kind == "enum":
            for m in s.members:
                m.enum_value = m.traits.get("smithy.api#enumValue", m.name)
        if kind in ("double", "blob") and self.protocol == "restJson1":
            raise ModelError("%s: %s is not supported by the restJson1 templates" % (sid, kind))
        if kind == "timestamp" or any(m.target.kind == "timestamp" for m in s.members):
            for m in s.members:
                fmt = m.timestamp_format or s.traits.get("smithy.api#timestampFormat")
                if m.target.kind == "timestamp" and fmt not in (None, "date-time", "epoch-seconds"):
                    raise ModelError("%s$%s: timestamp format %r is not supported" % (sid, m.name, fmt))
        return s

    def reachable_shapes(self):
        """Every shape an operation's input, output or errors reach, sorted by name."""
        roots = []
        for op in self.operations:
            roots += [op.input] + ([op.output] if op.output is not None else []) + list(op.errors)
        return reach(roots, lambda s: not s.prelude)

    def errors(self):
        found = {}
        for op in self.operations:
            for e in op.errors:
                found[e.name] = e
        result = []
        for name in sorted(found):
            e = found[name]
            # awsJson1_1 answers an error without @httpError 400 (client) or 500 (server)
            if "smithy.api#httpError" not in e.traits and self.protocol != "awsJson1_1" and (
                    self.protocol != "awsQuery" or "aws.protocols#awsQueryError" not in e.traits):
                raise ModelError("%s: error without @httpError" % e.id)
            result.append(e)
        return result


def reach(roots, enter):
    """Every shape reachable from roots through members, list members and map keys and values,
    entering only shapes for which enter(shape) holds; sorted by name. The one shape walk that the
    generators' shape lists (reachable, parsed, serialized) share."""
    seen = {}

    def visit(s):
        if s.id in seen or not enter(s):
            return
        seen[s.id] = s
        for m in s.members:
            visit(m.target)
        for m in (s.member, s.key, s.value):
            if m is not None:
                visit(m.target)

    for r in roots:
        visit(r)
    return sorted(seen.values(), key=lambda s: s.name)


def load(path, protocol="restJson1"):
    try:
        return Model(path, protocol)
    except ModelError as exc:
        sys.stderr.write("codegen: model error: %s\n" % exc)
        sys.exit(1)


class CMemberTypes:
    """The C types of members, shared by every protocol's C model: a subclass gives type_name(shape)
    and scalar_ctype(shape)."""

    def member_ctype(self, member):
        """Type of a structure/union member field: aggregates by pointer, NULL when absent."""
        t = member.target
        if t.is_aggregate:
            return self.type_name(t) + " *"
        return self.scalar_ctype(t)

    def element_ctype(self, member):
        """Type of a list item or map key/value: structures and unions by value."""
        t = member.target
        if t.kind in ("structure", "union"):
            return self.type_name(t) + " "
        if t.kind in ("list", "map"):
            return self.type_name(t) + " *"
        return self.scalar_ctype(t)

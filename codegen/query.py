"""Generates the awsQuery services Floe serves beside S3 Tables: CloudFormation, STS and IAM.

What this is for: the same outputs generate.py makes for S3 Tables' restJson1, for each service
that speaks AWS's query protocol (awsQuery): the typed C API handlers are written against
(<prefix>_api.h), form parsers (form-encoded `Action=...&Member.member.N=...` → typed structs),
the constraint validators (the S3 Tables machinery, with the service's prefix), XML serializers,
the error and operation tables runtime/query/ dispatches through, the capability docs
(generated/docs/<service>.md) and the constraint test rows. Every service has its own C prefix
(floe_cfn_, floe_sts_, floe_iam_), so its shapes never collide with S3 Tables' or another service's.

What it is not for: any behaviour of an operation (handlers/), the protocol's envelope (the
<OpResponse>/<OpResult> wrapper, <ErrorResponse>, request ids: runtime/query/), or restJson1.

awsQuery, as botocore's QuerySerializer and QueryParser implement it (and the Smithy awsQuery
spec): a member is the form key `Name` (or its @xmlName), a nested structure `A.B`, a list
`A.member.N` (1-based; `A.N` when the member is @xmlFlattened; the list member's @xmlName
replaces "member"), an empty list `A=`, a map `A.entry.N.key` / `A.entry.N.value`; booleans are
"true"/"false", timestamps ISO 8601. Responses are XML: each member an element, lists as
<A><member>..</member></A>, maps as <A><entry><key/><value/></entry></A>, timestamps ISO 8601.
Form keys the model does not know are never looked at, so members that newer clients send (the
AWS CDK CLI's DeploymentConfig.Mode on CreateChangeSet) are ignored, not refused.
"""

import os

import overlay as overlay_mod
import smithy

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# Errors every awsQuery operation may answer besides the ones its model lists: AWS's "common
# errors" (https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/CommonErrors.html,
# https://docs.aws.amazon.com/STS/latest/APIReference/CommonErrors.html) that a handler can
# return. ValidationError is also the answer to a request that fails the model's constraints.
# AccessDenied (403) is what IAM and STS answer a caller who may not do what it asks, such as
# assuming a role whose trust policy does not name it (no model lists it).
# (code, HTTP status, is a server fault)
COMMON_ERRORS = [("InternalFailure", 500, True), ("ValidationError", 400, False), ("AccessDenied", 403, False)]
VALIDATION_ERROR = "ValidationError"
INTERNAL_ERROR = "InternalFailure"
MAX_ERRORS = 64   # an operation's allowed errors are one uint64_t bit mask

# Outputs per service: (template, file name with {p} for the service's C prefix).
OUTPUTS = [
    ("query_api.h.j2", "{p}_api.h"),
    ("query_codec.h.j2", "{p}_codec.h"),
    ("shapes.c.j2", "{p}_shapes.c"),
    ("query_parse.c.j2", "{p}_parse.c"),
    ("validate.c.j2", "{p}_validate.c"),
    ("query_serialize.c.j2", "{p}_serialize.c"),
    ("query_operation_table.c.j2", "{p}_operation_table.c"),
    ("query_operations.md.j2", "docs/{doc}.md"),
    ("constraints.def.j2", "tests/{p}_constraints.def"),
]


class QueryService:
    """One awsQuery service Floe serves: its pinned model, its overlay and its C prefix."""

    def __init__(self, key, model, overlay, prefix, doc):
        self.key = key                                       # --query-model KEY=PATH
        self.model = os.path.join(ROOT, "models", model)
        self.overlay = os.path.join(ROOT, "models", overlay)
        self.prefix = prefix                                 # floe_<prefix>_<Shape>
        self.doc = doc                                       # generated/docs/<doc>.md


SERVICES = [
    QueryService("cloudformation", "cloudformation/cloudformation-2010-05-15.smithy.json",
                 "cloudformation-overlay.json", "cfn", "cloudformation"),
    QueryService("sts", "sts/sts-2011-06-15.smithy.json", "sts-overlay.json", "sts", "sts"),
    QueryService("iam", "iam/iam-2010-05-08.smithy.json", "iam-overlay.json", "iam", "iam"),
]


class QueryOverlay(overlay_mod.Overlay):
    """A service's overlay: each operation's status and notes. awsQuery has no routes to add."""

    def check(self, model):
        super().check(model)
        if self.raw.get("routes"):
            overlay_mod.fail("%s: awsQuery services have no routes to overlay" % self.path)

    def routes(self, model):
        return []

    def patch_ast(self, ast):
        """Adds the overlay's "enum_values" to the model's enums before it is loaded: values AWS
        sends that the pinned model lacks. Each entry names an enum shape, the values to add and
        the reason."""
        shapes = ast.get("shapes", {})
        for name, entry in sorted(self.raw.get("enum_values", {}).items()):
            if not entry.get("reason") or not entry.get("add"):
                overlay_mod.fail("%s: enum_values.%s needs \"add\" and a \"reason\"" % (self.path, name))
            sids = [sid for sid in shapes if sid.split("#", 1)[-1] == name]
            if len(sids) != 1 or shapes[sids[0]].get("type") != "enum":
                overlay_mod.fail("%s: enum_values.%s names no enum shape of the model" % (self.path, name))
            members = shapes[sids[0]].setdefault("members", {})
            for value in entry["add"]:
                # A newer model that has the value already keeps its own (one overlay serves every
                # model version, as for operations).
                members.setdefault(value, {"target": "smithy.api#Unit", "traits": {"smithy.api#enumValue": value}})


class QueryCModel:
    """Mixed into generate.CModel (generate.QueryServiceModel): the C names and per-shape facts of
    one awsQuery service. Set `service` (a QueryService) on the class before constructing."""

    service = None

    @property
    def PREFIX(self):
        return "floe_%s_" % self.service.prefix

    @property
    def MACRO_PREFIX(self):
        return "FLOE_%s_" % self.service.prefix.upper()

    @property
    def API_HEADER(self):
        return "%s_api.h" % self.service.prefix

    @property
    def CODEC_HEADER(self):
        return "%s_codec.h" % self.service.prefix

    VIOLATION_ERROR = VALIDATION_ERROR
    INTERNAL_ERROR = INTERNAL_ERROR

    @staticmethod
    def path_name(member):
        """AWS's validation messages name a member lowerCamel ("at 'stackName'")."""
        name = member.xml_name
        return name[:1].lower() + name[1:]

    # -- errors ----------------------------------------------------------------------------------

    def error_rows(self):
        """[(enum name, wire code, status, is_server_fault)] in enum order: the model's errors by
        shape name, then the common errors."""
        rows = []
        for e in self.errors:
            q = e.traits.get("aws.protocols#awsQueryError", {})
            status = q.get("httpResponseCode", e.traits.get("smithy.api#httpError"))
            rows.append((e.name, q.get("code", e.name), status, e.traits.get("smithy.api#error") == "server"))
        names = {r[0] for r in rows}
        for code, status, server in COMMON_ERRORS:
            if code in names:
                raise smithy.ModelError("%s: error %s collides with a common awsQuery error"
                                        % (self.model.service["id"], code))
            rows.append((code, code, status, server))
        if len(rows) + 1 > MAX_ERRORS:
            raise smithy.ModelError("%s: %d errors do not fit one 64-bit mask"
                                    % (self.model.service["id"], len(rows)))
        return rows

    def op_error_names(self, op):
        return [e.name for e in op.errors] + [code for code, _, _ in COMMON_ERRORS]

    # -- which shapes need which functions -------------------------------------------------------

    def parsed_shapes(self):
        """Aggregates reachable from operation inputs, the inputs included: all come from the form."""
        return smithy.reach([op.input for op in self.operations], lambda s: s.is_aggregate)

    def list_item_name(self, shape):
        """The element or key segment of one list item: "member", or the list member's @xmlName."""
        return shape.member.xml_name

    def items_key(self, member):
        """How the items of list or map `member` sit below its own key: ".member" / ".entry", or
        nothing when the member is @xmlFlattened. Returns the segment, or None for none."""
        t = member.target
        if member.xml_flattened:
            return None
        return self.list_item_name(t) if t.kind == "list" else "entry"

    def flattened_element(self, member):
        """The element name of each item of a flattened list or map member: the list member's
        @xmlName when it has one (botocore's _member_key_name), else the member's own name."""
        t = member.target
        if t.kind == "list" and "smithy.api#xmlName" in t.member.traits:
            return t.member.xml_name
        return member.xml_name

    def form_name(self, member):
        """The key segment of a structure member in a request form: its name (or @xmlName); for a
        flattened list whose member has an @xmlName, that name (botocore's QuerySerializer)."""
        return self.flattened_element(member) if member.xml_flattened else member.xml_name

    # -- --enforce-iam ---------------------------------------------------------------------------

    # What an overlay's "authorize" may say of an operation: the resource its "<signing name>:<Op>"
    # action is decided on (user, role, policy: built from the members it names; arn: a member's
    # ARN as given; any: "*"), or that it needs no permission (free) or that its handler decides
    # (handler). {kind: members it must name ("name" or "arn"; "path" is optional)}.
    AUTHORIZE_KINDS = {"user": ("name",), "role": ("name",), "policy": ("name", "arn"), "arn": ("arn",),
                       "any": (), "free": (), "handler": ()}

    def enforces_iam(self):
        """Whether the service's overlay says how each operation is authorized (IAM, STS)."""
        return any("authorize" in e for e in self.overlay.raw.get("operations", {}).values())

    def authorize_row(self, op):
        """The C initializer of the operation's floe_query_authorize_t: its kind and the form keys
        of the members naming the resource (NULL for none)."""
        entry = self.overlay.raw.get("operations", {}).get(op.name, {})
        rule = entry.get("authorize")
        if rule is None:
            if self.enforces_iam() and op.claimed:
                raise smithy.ModelError("%s: a served operation of a service whose overlay authorizes says how "
                                        "(authorize)" % op.id)
            return "{FLOE_QUERY_AUTHORIZE_NOT_EVALUATED, NULL, NULL, NULL}"
        kind = rule.get("resource")
        if kind not in self.AUTHORIZE_KINDS:
            raise smithy.ModelError("%s: authorize.resource %r is not one of %s"
                                    % (op.id, kind, ", ".join(sorted(self.AUTHORIZE_KINDS))))
        members = {m.name: m for m in op.input.members}
        keys = []
        for field in ("name", "arn", "path"):
            member = rule.get(field)
            if member is None:
                keys.append("NULL")
                continue
            if field != "path" and field not in self.AUTHORIZE_KINDS[kind]:
                raise smithy.ModelError("%s: authorize.%s does not go with resource %s" % (op.id, field, kind))
            m = members.get(member)
            if m is None or m.target.kind not in ("string", "enum"):
                raise smithy.ModelError("%s: authorize.%s names no string member of the input (%r)"
                                        % (op.id, field, member))
            keys.append('"%s"' % self.form_name(m))
        if self.AUTHORIZE_KINDS[kind] and all(k == "NULL" for k in keys[:2]):
            raise smithy.ModelError("%s: authorize.resource %s names its resource by %s"
                                    % (op.id, kind, " or ".join(self.AUTHORIZE_KINDS[kind])))
        return "{FLOE_QUERY_AUTHORIZE_%s, %s}" % (kind.upper(), ", ".join(keys))

    def enum_member_macro(self, shape, value):
        for m in shape.members:
            if m.enum_value == value:
                return "%s%s_%s" % (self.MACRO_PREFIX, shape.name, m.name)
        raise smithy.ModelError("%s: default %r is not one of its values" % (shape.id, value))

    def check_query(self):
        """What the query templates cannot express stops the generator here, naming the shape."""
        for s in self.shapes:
            if s.kind == "union":
                raise smithy.ModelError("%s: unions are not supported in awsQuery" % s.id)
            if s.kind == "document":
                raise smithy.ModelError("%s: documents are not supported in awsQuery" % s.id)
            if s.kind == "map" and s.value.target.kind in ("list", "map"):
                raise smithy.ModelError("%s: a map of %ss is not supported in awsQuery" % (s.id, s.value.target.kind))
            for m in s.members:
                if m.xml_flattened and m.target.kind not in ("list", "map"):
                    raise smithy.ModelError("%s$%s: @xmlFlattened on a %s" % (s.id, m.name, m.target.kind))
        for op in self.operations:
            if op.code != 200:
                raise smithy.ModelError("%s: awsQuery answers 200" % op.id)
        self._check_inputs_are_not_recursive()

    def _check_inputs_are_not_recursive(self):
        """The form parsers recurse along the shapes, so a recursive input shape would let a
        request's keys decide how deep the stack goes; none of the models has one."""
        def visit(s, path):
            if s.id in path:
                raise smithy.ModelError("%s: a recursive input shape is not supported in awsQuery" % s.id)
            path.add(s.id)
            for m in list(s.members) + [m for m in (s.member, s.key, s.value) if m is not None]:
                if m.target.is_aggregate:
                    visit(m.target, path)
            path.discard(s.id)

        for op in self.operations:
            visit(op.input, set())


def header_line(model, overlay_path):
    return ("Code generated by codegen/generate.py from %s (sha256 %s) and %s. DO NOT EDIT."
            % (os.path.basename(model.path), model.sha256[:12], overlay_path))


def render(env, model_class, out, overrides):
    """Every awsQuery service's outputs and the service list: [(path, text)], a summary, and the
    services' models (smithy.Model, for the smoke tests).
    `model_class` is generate.QueryServiceModel; `overrides` maps a service key to another
    model file (tests). Raises smithy.ModelError or samples.SampleError."""
    rendered, summary = [], []
    services = []
    for svc in SERVICES:
        ov = QueryOverlay(svc.overlay)
        model = smithy.Model(overrides.get(svc.key, svc.model), "awsQuery", patch=ov.patch_ast)
        ov.check(model)
        cls = type("QueryModel_" + svc.prefix, (model_class,), {"service": svc})
        cm = cls(model, ov, model)
        cm.check_query()
        overlay_name = os.path.relpath(svc.overlay, ROOT).replace(os.sep, "/")
        ctx = {"c": cm, "model": model, "svc": svc, "header": header_line(model, overlay_name)}
        for tpl, dst in OUTPUTS:
            path = os.path.join(out, dst.format(p=svc.prefix, doc=svc.doc))
            rendered.append((path, env.get_template(tpl).render(ctx)))
        services.append(cm)
        summary.append("%d %s operations" % (len(cm.operations), model.service["sdk_id"]))
    header = ("Code generated by codegen/generate.py from %s. DO NOT EDIT."
              % " and ".join("%s (sha256 %s)" % (os.path.basename(c.model.path), c.model.sha256[:12])
                             for c in services))
    rendered.append((os.path.join(out, "query_services.def"),
                     env.get_template("query_services.def.j2").render({"services": services, "header": header})))
    return rendered, ", ".join(summary), [c.model for c in services]

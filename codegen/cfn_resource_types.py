"""Generates generated/cfn_resource_types.{h,c}: the CloudFormation resource types Floe knows
(the five AWS::S3Tables::* types and the seven AWS::IAM::* ones), from
models/cloudformation/s3tables-resource-types.json and iam-resource-types.json (extracts of
@aws-cdk/aws-service-spec; models/SOURCE.md), read as one model.

What this is for: per type, the property table (name, value type, required, whether a change
causes replacement, nested property types, enum values), the attributes Fn::GetAtt may read and
the primary identifier. runtime/cfn_template/resource_types.c validates Properties against these
tables. What it is not for: what a resource does (the stack engine), or template parsing.

Called by generate.py (one hook line); output is deterministic, like the rest of generated/.

The model's value types ("type" objects) are:
  {"type": "string"|"integer"|"number"|"boolean"|"json"|"tag", "allowedValues": [...]?}
  {"type": "ref", "reference": {"$ref": "<id in types>"}}          a property type (structure)
  {"type": "array"|"map", "element": <type>}
  {"type": "union", "types": [<type>, ...]}
Anything else stops the generator with the place it was found.
"""

import hashlib
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
MODEL_PATHS = [os.path.join(ROOT, "models", "cloudformation", name)
               for name in ("s3tables-resource-types.json", "iam-resource-types.json")]

OUTPUTS = [
    ("cfn_resource_types.h.j2", "cfn_resource_types.h"),
    ("cfn_resource_types.c.j2", "cfn_resource_types.c"),
]

SCALARS = {"string": "STRING", "integer": "INTEGER", "number": "NUMBER", "boolean": "BOOLEAN", "json": "JSON"}
REPLACEMENT = {None: "NEVER", "no": "NEVER", "yes": "ALWAYS", "maybe": "CONDITIONAL"}
RESOURCE_KEYS = {"$id", "attributes", "cloudFormationType", "documentation", "name", "primaryIdentifier",
                 "properties", "tagInformation", "arnTemplate", "scrutinizable"}
# relationshipRefs names the resources a value refers to (an IAM policy's Roles are role names) and
# previousTypes the types a property had in older schemas, scrutinizable marks a policy document for
# the CDK's security diff: none changes what the value may be now.
PROPERTY_KEYS = {"type", "required", "causesReplacement", "documentation", "defaultValue", "relationshipRefs",
                 "previousTypes", "scrutinizable"}
TYPE_KEYS = {"type", "allowedValues", "reference", "element", "types"}
STRUCT_KEYS = {"$id", "name", "properties", "documentation"}
ATTRIBUTE_KEYS = {"type", "documentation"}


class ModelError(Exception):
    pass


class Struct:
    """A property type: a named structure of properties."""

    def __init__(self, c_name, title, properties):
        self.c_name = c_name          # C identifier of the floe_cfn_struct_t
        self.title = title            # "AWS::S3Tables::Table.Compaction", for comments
        self.properties = properties  # [Property], model order


class Property:
    def __init__(self, name, type_name, required, replacement):
        self.name = name
        self.type_name = type_name    # C identifier of its floe_cfn_type_t
        self.required = required
        self.replacement = replacement


class ValueType:
    """One distinct floe_cfn_type_t."""

    def __init__(self, c_name, kind, element=None, structure=None, alternatives=(), allowed=()):
        self.c_name = c_name
        self.kind = kind
        self.element = element            # c_name of the element type (ARRAY, MAP)
        self.structure = structure        # c_name of the struct (STRUCT)
        self.alternatives = list(alternatives)
        self.allowed = list(allowed)


class Model:
    """Everything the templates need, computed once and in a fixed order."""

    def __init__(self, paths):
        self.files = []                # [(file name, sha256)]
        self.raw_types = {}
        raw_resources = {}
        for path in paths:
            with open(path, "rb") as f:
                raw = f.read()
            name = os.path.basename(path)
            self.files.append((name, hashlib.sha256(raw).hexdigest()))
            doc = json.loads(raw)
            if not isinstance(doc.get("resources"), dict) or not isinstance(doc.get("types"), dict):
                raise ModelError("%s: expected top-level 'resources' and 'types' objects" % name)
            for key, spec in doc["types"].items():
                # ids come from one database, so the files share them; the same id must mean the same type
                if self.raw_types.get(key, spec) != spec:
                    raise ModelError("%s: type %s differs from another file's" % (name, key))
                self.raw_types[key] = spec
            for key in doc["resources"]:
                if key in raw_resources:
                    raise ModelError("%s: resource type %s is in another file too" % (name, key))
            raw_resources.update(doc["resources"])
        self.types = []                # [ValueType], dependencies first
        self.type_by_key = {}
        self.structs = []              # [Struct], in first-use order
        self.struct_by_id = {}
        self.struct_names = set()
        self.resources = []
        self.namespace = None          # "AWS::S3Tables" while reading a resource of that service
        for name in sorted(raw_resources):
            self.namespace = name.rsplit("::", 1)[0]
            self.resources.append(self.resource(name, raw_resources[name]))

    # -- checks -------------------------------------------------------------------------------------
    @staticmethod
    def check_keys(obj, allowed, where):
        if not isinstance(obj, dict):
            raise ModelError("%s: expected an object" % where)
        unknown = sorted(set(obj) - allowed)
        if unknown:
            raise ModelError("%s: unknown member(s) %s" % (where, ", ".join(unknown)))

    # -- resources ----------------------------------------------------------------------------------
    def resource(self, name, res):
        self.check_keys(res, RESOURCE_KEYS, name)
        if res.get("cloudFormationType") != name:
            raise ModelError("%s: cloudFormationType is %r" % (name, res.get("cloudFormationType")))
        short = res["name"]
        props = self.properties(res.get("properties", {}), name, short)
        attributes = []
        for attr, spec in res.get("attributes", {}).items():
            self.check_keys(spec, ATTRIBUTE_KEYS, "%s attribute %s" % (name, attr))
            attributes.append(attr)
        ident = res.get("primaryIdentifier", [])
        if not isinstance(ident, list) or not all(isinstance(i, str) for i in ident):
            raise ModelError("%s: primaryIdentifier must be a list of names" % name)
        tag_info = res.get("tagInformation")
        tag_property = tag_info.get("tagPropertyName") if tag_info else None
        if tag_property is not None and tag_property not in {p.name for p in props}:
            raise ModelError("%s: tagPropertyName %s is not a property" % (name, tag_property))
        return {"name": name, "c_name": short, "properties": props, "attributes": attributes,
                "primary_identifier": ident, "tag_property": tag_property}

    def properties(self, props, where, owner):
        out = []
        for pname, spec in props.items():
            pwhere = "%s.%s" % (where, pname)
            self.check_keys(spec, PROPERTY_KEYS, pwhere)
            replacement = spec.get("causesReplacement")
            if replacement not in REPLACEMENT:
                raise ModelError("%s: unknown causesReplacement %r" % (pwhere, replacement))
            required = spec.get("required", False)
            if not isinstance(required, bool):
                raise ModelError("%s: required must be true or false" % pwhere)
            vt = self.value_type(spec.get("type"), pwhere, owner, pname)
            out.append(Property(pname, vt.c_name, required, REPLACEMENT[replacement]))
        return out

    # -- value types --------------------------------------------------------------------------------
    def intern(self, key, make):
        if key not in self.type_by_key:
            vt = make()
            self.type_by_key[key] = vt
            self.types.append(vt)
        return self.type_by_key[key]

    def value_type(self, t, where, owner, pname):
        self.check_keys(t, TYPE_KEYS, where)
        kind = t.get("type")
        allowed = t.get("allowedValues")
        if allowed is not None and (kind != "string" or not all(isinstance(v, str) for v in allowed)):
            raise ModelError("%s: allowedValues only on strings, as a list of strings" % where)
        if kind in SCALARS:
            if allowed:
                name = "type_enum_" + "_".join(re.sub(r"[^A-Za-z0-9]", "_", v) for v in allowed)
                return self.intern(("enum", tuple(allowed)),
                                   lambda: ValueType(self.unique_type_name(name), "STRING", allowed=allowed))
            return self.intern((kind,), lambda: ValueType("type_" + kind, SCALARS[kind]))
        if kind == "tag":
            tag = self.tag_struct()
            return self.intern(("tag",), lambda: ValueType("type_tag", "STRUCT", structure=tag.c_name))
        if kind == "ref":
            ref = (t.get("reference") or {}).get("$ref")
            if ref not in self.raw_types:
                raise ModelError("%s: $ref %r is not in types" % (where, ref))
            st = self.struct(ref, owner)
            return self.intern(("ref", ref), lambda: ValueType("type_" + st.c_name, "STRUCT", structure=st.c_name))
        if kind in ("array", "map"):
            el = self.value_type(t.get("element"), where + "[]", owner, pname)
            base = el.c_name[len("type_"):]
            return self.intern((kind, el.c_name),
                               lambda: ValueType("type_%s_of_%s" % (kind, base), kind.upper(), element=el.c_name))
        if kind == "union":
            alts = [self.value_type(a, where + "|", owner, pname) for a in t.get("types") or []]
            if len(alts) < 2:
                raise ModelError("%s: a union needs two or more types" % where)
            names = [a.c_name for a in alts]
            base = "_or_".join(n[len("type_"):] for n in names)
            return self.intern(("union", tuple(names)),
                               lambda: ValueType("type_union_" + base, "UNION", alternatives=names))
        raise ModelError("%s: unknown value type %r" % (where, kind))

    def unique_type_name(self, name):
        taken = {vt.c_name for vt in self.types}
        candidate, n = name, 2
        while candidate in taken:
            candidate, n = "%s_%d" % (name, n), n + 1
        return candidate

    # -- structures ---------------------------------------------------------------------------------
    def struct_c_name(self, owner, name):
        candidate, n = "%s_%s" % (owner, name), 2
        while candidate in self.struct_names:
            candidate, n = "%s_%s_%d" % (owner, name, n), n + 1
        self.struct_names.add(candidate)
        return candidate

    def struct(self, ref, owner):
        if ref in self.struct_by_id:
            return self.struct_by_id[ref]
        spec = self.raw_types[ref]
        self.check_keys(spec, STRUCT_KEYS, "types[%s]" % ref)
        title = "%s::%s.%s" % (self.namespace, owner, spec["name"])
        st = Struct(self.struct_c_name(owner, spec["name"]), title, [])
        self.struct_by_id[ref] = st          # before the members: a type may contain itself
        self.structs.append(st)
        st.properties = self.properties(spec.get("properties", {}), title, owner)
        return st

    def tag_struct(self):
        """CloudFormation's standard tag: {Key, Value}, both required strings."""
        if "tag" not in self.struct_by_id:
            string = self.intern(("string",), lambda: ValueType("type_string", "STRING"))
            st = Struct(self.struct_c_name("Common", "Tag"), "Tag",
                        [Property("Key", string.c_name, True, "NEVER"),
                         Property("Value", string.c_name, True, "NEVER")])
            self.struct_by_id["tag"] = st
            self.structs.append(st)
        return self.struct_by_id["tag"]


def header_line(model):
    return ("Code generated by codegen/generate.py (codegen/cfn_resource_types.py) from %s. DO NOT EDIT."
            % " and ".join("%s (sha256 %s)" % (name, sha[:12]) for name, sha in model.files))


def write(out, make_env, write_if_changed, paths=None):
    """Renders both files into `out`; returns the paths that changed. Exits 1 on a model it does not
    understand, naming the place."""
    paths = paths or MODEL_PATHS
    try:
        model = Model(paths)
    except (ModelError, ValueError, KeyError, TypeError) as exc:
        sys.stderr.write("codegen: %s: %s\n" % (", ".join(os.path.basename(p) for p in paths), exc))
        raise SystemExit(1)
    env = make_env()
    ctx = {"m": model, "header": header_line(model)}
    rendered = [(os.path.join(out, dst), env.get_template(tpl).render(ctx)) for tpl, dst in OUTPUTS]
    return [p for p, text in rendered if write_if_changed(p, text)]

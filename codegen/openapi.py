"""Reads the Apache Iceberg REST catalog's OpenAPI spec and Floe's overlay for it, producing the
routes the templates need.

What this is for: turning `rest-catalog-open-api.yaml` (OpenAPI 3.1) into plain Python objects
(one Route per operation: operationId, method, path template, success code and response schema,
the error statuses the spec documents, the line its operationId is on, which the docs link to)
and joining each with its status and reason from models/iceberg-overlay.json. What it is not
for: request or response bodies. Iceberg JSON is owned by the hand-written Iceberg module in
runtime/, which already knows TableMetadata, requirements and updates far better than a schema
walk could.

The spec is checked before anything is written: an operation without an operationId, a method
or parameter location Floe cannot route, a path parameter the template does not declare, or a
success response the generator cannot name stops the generator with the operation named.
"""

import hashlib
import json
import os
import re
import sys

import yaml

METHODS = ("get", "put", "post", "delete", "head")
PARAM_LOCATIONS = ("path", "query", "header")
STATUSES = ("implemented", "partial", "not_implemented")
NO_CONTENT = "NoContent"   # Floe's name for the empty response of a 204 operation
COMPONENT_PREFIX = "#/components/"
# An operationId on a line of its own, as YAML block style writes it (for the docs' links).
OPERATION_ID_LINE = re.compile(r"^\s*operationId:\s*[\"']?([A-Za-z0-9_-]+)[\"']?\s*$")


class SpecError(Exception):
    """The spec (or the overlay) holds something the generator does not understand."""


class Route:
    """One operation of the spec: a method on a path template."""

    def __init__(self, operation_id, method, path, tag, success_code, response_schema, statuses):
        self.id = operation_id
        self.method = method.upper()
        self.path = path
        self.tag = tag
        self.success_code = success_code
        self.response_schema = response_schema
        self.statuses = statuses          # documented non-success statuses, e.g. "400,404,409"
        self.status = "not_implemented"   # from the overlay
        self.reason = ""
        self.actions = []                 # the IAM actions --enforce-iam requires, from the overlay
        self.glue_actions = []            # the same on AWS Glue's endpoint (signed for glue)
        self.line = None                  # line of its operationId in the spec file, for the docs

    @property
    def served(self):
        return self.status != "not_implemented"

    @property
    def is_catalog_endpoint(self):
        """Routes under the catalog prefix are what /v1/config lists in `endpoints`."""
        return self.path.startswith("/v1/{prefix}/")

    @property
    def endpoint(self):
        return "%s %s" % (self.method, self.path)


class Spec:
    def __init__(self, path):
        with open(path, "rb") as f:
            data = f.read()
        self.path = path
        self.sha256 = hashlib.sha256(data).hexdigest()
        self.doc = yaml.safe_load(data)
        version = str(self.doc.get("openapi", ""))
        if not version.startswith("3."):
            raise SpecError("%s: OpenAPI version %r is not 3.x" % (os.path.basename(path), version))
        self.version = self.doc.get("info", {}).get("version", "")
        self.routes = self._routes()
        lines = operation_id_lines(data.decode("utf-8"))
        for r in self.routes:
            r.line = lines.get(r.id)

    def _resolve(self, node):
        """Follows a local $ref ("#/components/...") to the node it names."""
        seen = 0
        while isinstance(node, dict) and "$ref" in node:
            ref = node["$ref"]
            if not ref.startswith(COMPONENT_PREFIX) or seen > 8:
                raise SpecError("unsupported $ref %r" % ref)
            node = self.doc
            for part in ref[2:].split("/"):
                node = node[part]
            seen += 1
        return node

    def _parameters(self, item, op, op_id):
        params = []
        for p in list(item.get("parameters", [])) + list(op.get("parameters", [])):
            p = self._resolve(p)
            if p.get("in") not in PARAM_LOCATIONS:
                raise SpecError("%s: parameter %r is in %r, which Floe cannot read" % (op_id, p.get("name"), p.get("in")))
            params.append(p)
        return params

    def _response_schema(self, op_id, code, response):
        """The name of the schema a success response carries (NO_CONTENT for none)."""
        if code == 204:
            return NO_CONTENT
        if "$ref" in response and response["$ref"].startswith(COMPONENT_PREFIX + "schemas/"):
            return response["$ref"].rsplit("/", 1)[1]
        response = self._resolve(response)
        schema = response.get("content", {}).get("application/json", {}).get("schema", {})
        ref = schema.get("$ref", "")
        if not ref.startswith(COMPONENT_PREFIX + "schemas/"):
            raise SpecError("%s: the %d response has no named schema" % (op_id, code))
        return ref.rsplit("/", 1)[1]

    def _route(self, path, item, method, op):
        op_id = op.get("operationId")
        if not op_id:
            raise SpecError("%s %s: no operationId" % (method.upper(), path))
        params = self._parameters(item, op, op_id)
        declared = sorted(p["name"] for p in params if p["in"] == "path")
        in_template = sorted(s[1:-1] for s in path.strip("/").split("/") if s.startswith("{"))
        if declared != in_template:
            raise SpecError("%s: path parameters %s do not match the template %s" % (op_id, declared, path))
        codes = sorted(str(c) for c in op.get("responses", {}))
        success = [int(c) for c in codes if c.isdigit() and 200 <= int(c) < 300]
        if len(success) != 1:
            raise SpecError("%s: expected one success response, found %s" % (op_id, success))
        code = success[0]
        schema = self._response_schema(op_id, code, op["responses"][code] if code in op["responses"]
                                       else op["responses"][str(code)])
        statuses = ",".join(c for c in codes if not (c.isdigit() and 200 <= int(c) < 300))
        tags = op.get("tags") or ["Untagged"]
        return Route(op_id, method, path, tags[0], code, schema, statuses)

    def _routes(self):
        routes, ids = [], set()
        for path, item in self.doc.get("paths", {}).items():
            for method, op in item.items():
                if method == "parameters" or method in ("summary", "description", "servers"):
                    continue
                if method not in METHODS:
                    raise SpecError("%s: method %r is not one Floe routes" % (path, method))
                route = self._route(path, item, method, op)
                if route.id in ids:
                    raise SpecError("%s: operationId used twice" % route.id)
                ids.add(route.id)
                routes.append(route)
        routes.sort(key=lambda r: (r.tag, r.id))
        return routes

    def groups(self):
        """Routes grouped by tag, in table order: [(tag, [route, ...]), ...]."""
        out = []
        for r in self.routes:
            if not out or out[-1][0] != r.tag:
                out.append((r.tag, []))
            out[-1][1].append(r)
        return out


def operation_id_lines(text):
    """{operationId: its 1-based line} for the ids written on a line of their own; an id written
    on two lines is left out rather than guessed."""
    found = {}
    for number, line in enumerate(text.split("\n"), 1):
        m = OPERATION_ID_LINE.match(line)
        if m:
            found.setdefault(m.group(1), []).append(number)
    return {op_id: numbers[0] for op_id, numbers in found.items() if len(numbers) == 1}


def apply_overlay(spec, path):
    """Sets each route's status and reason from the overlay. An entry for an operation the spec
    lacks is skipped (one overlay serves several spec versions); an operation without an entry is
    not implemented, with a reason saying so."""
    with open(path, "rb") as f:
        raw = json.loads(f.read())
    entries = raw.get("operations", {})
    for name, entry in entries.items():
        if entry.get("status") not in STATUSES:
            raise SpecError("iceberg overlay: %s: status %r is not one of %s" % (name, entry.get("status"), ", ".join(STATUSES)))
        if not entry.get("reason"):
            raise SpecError("iceberg overlay: %s: missing reason" % name)
        if entry["status"] != "not_implemented" and not isinstance(entry.get("actions"), list):
            raise SpecError("iceberg overlay: %s: a served operation lists the IAM actions it needs (actions)" % name)
        if entry["status"] != "not_implemented" and not isinstance(entry.get("glue_actions"), list):
            raise SpecError("iceberg overlay: %s: a served operation lists the IAM actions it needs on Glue's "
                            "endpoint (glue_actions)" % name)
    for r in spec.routes:
        entry = entries.get(r.id)
        if entry is None:
            r.status, r.reason = "not_implemented", "Not reviewed for Floe yet (new in this spec)."
        else:
            r.status, r.reason = entry["status"], entry["reason"]
            r.actions = entry.get("actions", [])
            r.glue_actions = entry.get("glue_actions", [])
    return spec


def load(spec_path, overlay_path):
    try:
        return apply_overlay(Spec(spec_path), overlay_path)
    except (OSError, yaml.YAMLError, KeyError, TypeError) as exc:
        raise SpecError("%s: %s" % (os.path.basename(spec_path), exc))


if __name__ == "__main__":
    s = load(sys.argv[1], sys.argv[2])
    for r in s.routes:
        print(r.tag, r.id, r.method, r.path, r.success_code, r.response_schema, r.statuses, r.status)

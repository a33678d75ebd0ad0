"""Applies Floe's own overlay (models/overlay.json) to a loaded model.

What this is for: the facts the AWS model does not hold and Floe needs at build time: each
operation's implementation status and notes (the one place status is written; a partial operation
answers normally, and its notes say what it records and what Floe does not do), and extra HTTP
routes such as the pre-2025-06-06 GetTable binding that older SDKs still send. What it is not
for: changing the model's shapes. Every overlay entry carries a reason.

Routes are the unit the router and the parsers work on: a route is (operation, method, URI
template, where each input member comes from). The model gives every operation one route; the
overlay may add more with their own bindings.
"""

import json
import sys

STATUSES = ("implemented", "partial", "not_implemented")
# A partial operation's notes say what is recorded, then after this marker what Floe does not do.
NOT_DONE = "Not done:"


class Route:
    def __init__(self, op, method, uri, bindings, suffix="", reason=None):
        self.op = op
        self.method = method
        self.uri = uri
        self.bindings = bindings           # member name -> ("label", index) | ("query", key) | ("body", json name)
        self.suffix = suffix               # parse function suffix; "" for the model's own route
        self.reason = reason
        self.segments = uri.strip("/").split("/") if uri.strip("/") else []
        self.labels = [s[1:-1] for s in self.segments if s.startswith("{")]
        self.required_query = sorted(
            key for m in op.input.members if m.required
            for (where, key) in [bindings[m.name]] if where == "query")

    @property
    def parse_name(self):
        return "floe_parse_%s%s" % (self.op.input.name, "__" + self.suffix if self.suffix else "")

    @property
    def body_parse_name(self):
        return "parse_body_%s%s" % (self.op.input.name, "__" + self.suffix if self.suffix else "")

    def members_at(self, where):
        """Input members bound to `where` ("label", "query" or "body") on this route, model order."""
        return [m for m in self.op.input.members if self.bindings[m.name][0] == where]

    def binding(self, member):
        return self.bindings[member.name]


def model_route(op):
    labels = [s[1:-1] for s in op.uri.strip("/").split("/") if s.startswith("{")]
    bindings = {}
    for m in op.input.members:
        if m.location == "label":
            bindings[m.name] = ("label", labels.index(m.name))
        elif m.location == "query":
            bindings[m.name] = ("query", m.query_key)
        else:
            bindings[m.name] = ("body", m.json_name)
    return Route(op, op.method, op.uri, bindings)


def fail(msg):
    sys.stderr.write("codegen: overlay error: %s\n" % msg)
    sys.exit(1)


class Overlay:
    def __init__(self, path):
        with open(path, "rb") as f:
            self.raw = json.loads(f.read())
        self.path = path

    def status(self, op):
        entry = self.raw.get("operations", {}).get(op.name, {})
        status = entry.get("status", "not_implemented")
        if status not in STATUSES:
            fail("%s: status %r is not one of %s" % (op.name, status, ", ".join(STATUSES)))
        return status

    def notes(self, op):
        return self.raw.get("operations", {}).get(op.name, {}).get("notes", "")

    def check(self, model):
        """Overlay entries for operations the model lacks are allowed: they are skipped, so one
        overlay serves every model version. Entries must still be well formed."""
        for name, entry in self.raw.get("operations", {}).items():
            if "status" not in entry:
                fail("%s: missing status" % name)
            if entry["status"] == "partial" and NOT_DONE not in entry.get("notes", ""):
                fail("%s: a partial operation's notes must say what is not done (%r)" % (name, NOT_DONE))
        for r in self.raw.get("routes", []):
            for key in ("operation", "method", "uri", "bind", "name", "reason"):
                if key not in r:
                    fail("route %r: missing %s" % (r, key))

    def routes(self, model):
        """The model's routes plus the overlay's extra routes, in operation table order."""
        by_op = {op.name: op for op in model.operations}
        routes = [model_route(op) for op in model.operations]
        for r in self.raw.get("routes", []):
            op = by_op.get(r["operation"])
            if op is None:
                continue
            if op.method == r["method"] and op.uri == r["uri"]:
                continue   # this model already binds the operation there (older models do)
            base = model_route(op)
            labels = [s[1:-1] for s in r["uri"].strip("/").split("/") if s.startswith("{")]
            bindings = dict(base.bindings)
            members = {m.name for m in op.input.members}
            for member, where in r["bind"].items():
                if member not in members:
                    fail("route %s %s binds unknown member %s" % (r["method"], r["uri"], member))
                if where != "label":
                    fail("route %s %s: only label bindings can be overlaid" % (r["method"], r["uri"]))
                bindings[member] = ("label", labels.index(member))
            if sorted(labels) != sorted(r["bind"]):
                fail("route %s %s: labels %s are not all bound" % (r["method"], r["uri"], labels))
            routes.append(Route(op, r["method"], r["uri"], bindings, r["name"], r["reason"]))
        order = {op.name: i for i, op in enumerate(model.operations)}
        routes.sort(key=lambda rt: (order[rt.op.name], rt.suffix))
        return routes

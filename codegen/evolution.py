"""Widens the C types of one model version to cover a reference version (model evolution).

What this is for: letting one set of handlers build against any version of the S3 Tables model.
The generator is given the target model (the one to serve) and a reference model (the pinned
one the handlers are written against). The C types, the modeled errors and the handler
prototypes are made for the union of the two, so every handler compiles whichever version is
the target; the wire (routes, parsers, validators, serializers, operation table, docs) stays the
target's alone. A member, enum value or operation the target lacks therefore exists in C but
never on the wire: the member stays NULL/0/false on input and is left out on output, the enum
value is refused on input and left out on output, the operation has no route.

What it is not for: anything the wire does. Where the two versions give one name two different
C declarations (a member that changed type, an operation whose input changed shape), there is
no union to make, and the generator stops with the shape id.
"""

import smithy


class TypeView:
    """The shapes, operations and errors floe_api.h declares: the target's, widened by the
    reference's. `target` and `reference` are smithy.Model; they may be the same model."""

    def __init__(self, target, reference):
        self.target = target
        self.reference = reference
        self.is_widened = reference.sha256 != target.sha256
        self._wire_shapes = {s.name: s for s in target.reachable_shapes()}
        self._wire_ops = {op.name for op in target.operations}
        self.shapes = self._merge_shapes()
        self.operations = self._merge_operations()
        self.errors = self._merge_errors()
        self.resources = []
        for op in self.operations:
            if not self.resources or self.resources[-1][0] != op.resource:
                self.resources.append((op.resource, []))
            self.resources[-1][1].append(op)

    # -- what the target's wire has ----------------------------------------------------------

    def op_on_wire(self, op):
        return op.name in self._wire_ops

    def shape_on_wire(self, shape):
        return shape.name in self._wire_shapes

    def lacks_member(self, shape, member):
        """Whether the target model has `shape` but not this member of it: a shape it lacks
        altogether is marked once, not member by member."""
        return self.shape_on_wire(shape) and not self.member_on_wire(shape, member)

    def wire_member(self, shape, member):
        """The target model's own `member` of `shape` (a structure, union or enum), or None when
        the target lacks it."""
        wire = self._wire_shapes.get(shape.name)
        return next((m for m in wire.members if m.name == member.name), None) if wire else None

    def member_on_wire(self, shape, member):
        return self.wire_member(shape, member) is not None

    def wire_enum_values(self, shape):
        """For an enum of the target model: None when the target has every C value, else the
        wire value of each C value in C order, None for the values the target lacks."""
        merged = self.shape(shape.name)
        values = [m.enum_value if self.member_on_wire(merged, m) else None for m in merged.members]
        if values == [m.enum_value for m in shape.members]:
            return None
        return values

    def shape(self, name):
        return self._by_name[name]

    def aggregates(self):
        return [s for s in self.shapes if s.is_aggregate]

    # -- merging -------------------------------------------------------------------------------

    def _merge_shapes(self):
        ref = {s.name: s for s in self.reference.reachable_shapes()}
        merged = {}
        for name in sorted(set(ref) | set(self._wire_shapes)):
            a, b = ref.get(name), self._wire_shapes.get(name)
            if a is None or b is None:
                merged[name] = a or b
            else:
                merged[name] = merge_shape(a, b)
        self._by_name = merged
        return [merged[n] for n in sorted(merged)]

    def _merge_operations(self):
        ref = {op.name: op for op in self.reference.operations}
        ops = dict(ref)
        for op in self.target.operations:
            if op.name not in ref:
                ops[op.name] = op
                continue
            r = ref[op.name]
            for what, x, y in (("input", r.input, op.input), ("output", r.output, op.output)):
                if (x and x.name) != (y and y.name):
                    raise smithy.ModelError("%s: %s is %s in the reference model and %s in the target"
                                            % (op.id, what, x and x.name, y and y.name))
        return sorted(ops.values(), key=lambda op: (op.resource, op.name))

    def _merge_errors(self):
        """Every modeled error of either version, the target's definition first (its status
        code is the one on the wire)."""
        found = {e.name: e for e in self.reference.errors()}
        found.update({e.name: e for e in self.target.errors()})
        return [found[n] for n in sorted(found)]


def declaration(member):
    """What a member's C declaration depends on: two versions of a member must agree on it."""
    t = member.target
    named = t.is_aggregate or t.kind == "enum"
    return (t.kind, t.name if named else None, member.has_presence_flag)


def merge_shape(ref, target):
    """One shape as both versions see it: the reference's members in its order, then the ones
    only the target has. The result is a new smithy.Shape; the inputs are not changed."""
    if ref.kind != target.kind:
        raise smithy.ModelError("%s: a %s in the reference model and a %s in the target"
                                % (target.id, ref.kind, target.kind))
    for a, b in ((ref.member, target.member), (ref.key, target.key), (ref.value, target.value)):
        if a is not None and declaration(a) != declaration(b):
            raise smithy.ModelError("%s$%s: element types differ between the reference model and the target"
                                    % (target.id, a.name))
    if ref.kind not in ("structure", "union", "enum"):
        return ref
    ref_members = {m.name: m for m in ref.members}
    for m in target.members:
        r = ref_members.get(m.name)
        if r is None:
            continue
        if ref.kind == "enum" and r.enum_value != m.enum_value:
            raise smithy.ModelError("%s$%s: enum value %r in the reference model and %r in the target"
                                    % (target.id, m.name, r.enum_value, m.enum_value))
        if ref.kind != "enum" and declaration(r) != declaration(m):
            raise smithy.ModelError("%s$%s: C type differs between the reference model and the target"
                                    % (target.id, m.name))
    merged = smithy.Shape(ref.id, ref.kind, ref.traits)
    merged.members = list(ref.members) + [m for m in target.members if m.name not in ref_members]
    return merged

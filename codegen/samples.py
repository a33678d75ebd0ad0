"""Derives one passing and one failing value for each constraint trait, for the C unit tests.

What this is for: generated/tests/constraints.def, where every (shape, trait) pair of the model
gets a row that the unit tests feed to the generated validator. Values come from the traits
themselves: a length bound gives strings at and past the bound, a pattern gives a string built
from the regular expression (checked here with Python's `re`, whose syntax covers the model's
ECMA-262 patterns but for Unicode property classes, which are narrowed to ASCII stand-ins, see
PROPERTY_STAND_INS). What it is not for: anything at run time.
"""

import re

try:
    import re._parser as sre_parse          # Python 3.11+
    import re._constants as sre_constants
except ImportError:                         # pragma: no cover - older Pythons
    import sre_parse
    import sre_constants

MAXREPEAT = sre_constants.MAXREPEAT
PREFERRED = "abc0123456789"

# Python's re has no \p{..}: each class the models use becomes a subset of itself, so a sample
# that matches the stand-in matches the real class (PCRE2 at run time). The violations tried
# (pattern_violation) are "!", " " and "A" first, which no stand-in gets wrong.
PROPERTY_STAND_INS = {r"\p{L}": "a-zA-Z", r"\p{N}": "0-9", r"\p{Z}": " "}


class SampleError(Exception):
    pass


def python_pattern(pattern):
    """The pattern with each Unicode property class replaced by its stand-in."""
    out, in_class, i = [], False, 0
    while i < len(pattern):
        prop = pattern[i:i + 5]
        if prop in PROPERTY_STAND_INS:
            stand_in = PROPERTY_STAND_INS[prop]
            out.append(stand_in if in_class else "[" + stand_in + "]")
            i += 5
            continue
        if pattern[i] == "\\":
            if pattern[i + 1:i + 2] in ("p", "P"):
                raise SampleError("no stand-in for the property class in %r" % pattern)
            out.append(pattern[i:i + 2])
            i += 2
            continue
        if pattern[i] == "[":
            in_class = True
        elif pattern[i] == "]":
            in_class = False
        out.append(pattern[i])
        i += 1
    return "".join(out)


def _class_char(items, negate=False):
    """A character accepted by a character class, preferring plain lowercase letters."""
    def accepts(ch):
        ok = False
        for op, av in items:
            if op == sre_constants.LITERAL and ord(ch) == av:
                ok = True
            elif op == sre_constants.RANGE and av[0] <= ord(ch) <= av[1]:
                ok = True
            elif op == sre_constants.CATEGORY:
                is_word = ch.isalnum() or ch == "_"
                if av == sre_constants.CATEGORY_DIGIT and ch.isdigit():
                    ok = True
                elif av == sre_constants.CATEGORY_WORD and is_word:
                    ok = True
                elif av == sre_constants.CATEGORY_SPACE and ch.isspace():
                    ok = True
                elif av == sre_constants.CATEGORY_NOT_SPACE and not ch.isspace():
                    ok = True
                elif av == sre_constants.CATEGORY_NOT_DIGIT and not ch.isdigit():
                    ok = True
                elif av == sre_constants.CATEGORY_NOT_WORD and not is_word:
                    ok = True
        return ok != negate
    for ch in PREFERRED + "-_:/.ABCXYZ":
        if accepts(ch):
            return ch
    raise SampleError("no sample character for class %r" % (items,))


def _emit(tree, grow):
    """A short string matching the parsed pattern; `grow` extra repeats go to the first open repeat."""
    out = []
    for op, av in tree:
        if op == sre_constants.LITERAL:
            out.append(chr(av))
        elif op == sre_constants.ANY:
            out.append("a")
        elif op == sre_constants.NOT_LITERAL:
            out.append(next(ch for ch in PREFERRED if ord(ch) != av))
        elif op == sre_constants.IN:
            negate = bool(av) and av[0][0] == sre_constants.NEGATE
            out.append(_class_char(av[1:] if negate else av, negate))
        elif op in (sre_constants.MAX_REPEAT, sre_constants.MIN_REPEAT):
            lo, hi, sub = av
            n = lo
            if grow[0] > 0 and (hi == MAXREPEAT or hi > lo):
                room = grow[0] if hi == MAXREPEAT else min(grow[0], hi - lo)
                n += room
                grow[0] -= room
            for _ in range(n):
                out.append(_emit(sub, [0]))
        elif op == sre_constants.SUBPATTERN:
            out.append(_emit(av[-1], grow))
        elif op == sre_constants.BRANCH:
            out.append(_emit(av[1][0], grow))
        elif op == sre_constants.AT:
            pass
        else:
            raise SampleError("unsupported regex construct %s" % op)
    return "".join(out)


def pattern_sample(pattern, min_len=0, max_len=None):
    """A string matching `pattern` whose length lies within [min_len, max_len]."""
    pattern = python_pattern(pattern)
    tree = sre_parse.parse(pattern)
    base = _emit(tree, [0])
    grow = max(0, min_len - len(base))
    value = _emit(tree, [grow]) if grow else base
    if not re.search(pattern, value) or len(value) < min_len or (max_len is not None and len(value) > max_len):
        raise SampleError("could not build a sample for %r within length %s..%s" % (pattern, min_len, max_len))
    return value


def pattern_violation(pattern, valid):
    """`valid` with one character changed so that `pattern` no longer matches, or None."""
    pattern = python_pattern(pattern)
    for bad in ("!", " ", "A", "\u00e9", "\u0001"):
        for i in range(len(valid)):
            cand = valid[:i] + bad + valid[i + 1:]
            if not re.search(pattern, cand):
                return cand
    return None   # the pattern accepts every character tried ("[\\s\\S]+"): only its length can fail


def string_rows(ident, length, pattern):
    """Rows (id, value, expect_ok) for a string constraint with optional length and pattern."""
    lo = (length or {}).get("min", 0)
    hi = (length or {}).get("max")
    if pattern:
        valid = pattern_sample(pattern, lo, hi)
    else:
        valid = "a" * max(lo, 1 if hi is None or hi >= 1 else 0)
    rows = []
    fill = valid[-1] if valid else "a"
    pattern_py = python_pattern(pattern) if pattern else None
    if length is not None:
        if "min" in length:
            at_min = valid[:lo] if len(valid) >= lo else valid
            if pattern and not re.search(pattern_py, at_min):
                at_min = valid   # the pattern needs more than the minimum length
            rows.append((ident + "/length/min", at_min, True))
            if lo > 0:
                rows.append((ident + "/length/min", valid[:lo - 1], False))
        if "max" in length:
            at_max = (valid + fill * hi)[:hi]
            if pattern and not re.search(pattern_py, at_max):
                at_max = valid
            rows.append((ident + "/length/max", at_max, True))
            rows.append((ident + "/length/max", valid + fill * (hi + 1 - len(valid)), False))
    if pattern:
        rows.append((ident + "/pattern", valid, True))
        bad = pattern_violation(pattern, valid)
        if bad is not None:
            rows.append((ident + "/pattern", bad, False))
    return rows


def range_rows(ident, rng, limits):
    rows = []
    if "min" in rng:
        rows.append((ident + "/range/min", int(rng["min"]), True))
        if int(rng["min"]) - 1 >= limits[0]:
            rows.append((ident + "/range/min", int(rng["min"]) - 1, False))
    if "max" in rng:
        rows.append((ident + "/range/max", int(rng["max"]), True))
        if int(rng["max"]) + 1 <= limits[1]:
            rows.append((ident + "/range/max", int(rng["max"]) + 1, False))
    return rows


def count_rows(ident, length):
    rows = []
    if "min" in length:
        rows.append((ident + "/length/min", length["min"], True))
        if length["min"] > 0:
            rows.append((ident + "/length/min", length["min"] - 1, False))
    if "max" in length:
        rows.append((ident + "/length/max", length["max"], True))
        rows.append((ident + "/length/max", length["max"] + 1, False))
    return rows

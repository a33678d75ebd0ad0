/*
 * The bounds check of Avro datums before Avro C decodes them (avro_datum.h). Follows the Avro
 * spec's "Binary Encoding" for each schema type.
 */
#include "iceberg/avro_container.h"
#include "iceberg/avro_datum.h"

/** The longest varint an Avro long takes. */
#define VARINT_MAX_BYTES 10
/** Bytes of an Avro float and double. */
#define FLOAT_BYTES 4
#define DOUBLE_BYTES 8

typedef struct walk {
    const uint8_t *p, *end;
    size_t *items;
    const char *why; /* set on failure */
} walk_t;

static int fail(walk_t *w, const char *why)
{
    w->why = why;
    return -1;
}

static int take_long(walk_t *w, int64_t *out)
{
    uint64_t v = 0;

    for (int shift = 0, i = 0; i < VARINT_MAX_BYTES; i++, shift += 7) {
        if (w->p >= w->end)
            return fail(w, "truncated");
        uint8_t b = *w->p++;
        v |= (uint64_t)(b & 0x7f) << shift;
        if ((b & 0x80) == 0) {
            *out = (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
            return 0;
        }
    }
    return fail(w, "varint longer than 10 bytes");
}

static int take_int(walk_t *w)
{
    int64_t v;

    if (take_long(w, &v) != 0)
        return -1;
    return v < INT32_MIN || v > INT32_MAX ? fail(w, "int out of range") : 0;
}

static int skip(walk_t *w, uint64_t n)
{
    if (n > (uint64_t)(w->end - w->p))
        return fail(w, "truncated");
    w->p += n;
    return 0;
}

static int take_length_and_skip(walk_t *w)
{
    int64_t n;

    if (take_long(w, &n) != 0)
        return -1;
    return n < 0 ? fail(w, "negative length") : skip(w, (uint64_t)n);
}

static int check(walk_t *w, avro_schema_t s, int depth);

/* Arrays and maps: blocks of items, a negative count followed by the block's byte size. */
static int check_blocks(walk_t *w, avro_schema_t items, bool is_map, int depth)
{
    for (;;) {
        int64_t count, size;
        if (take_long(w, &count) != 0)
            return -1;
        if (count == 0)
            return 0;
        if (count < 0) {
            if (count == INT64_MIN || take_long(w, &size) != 0)
                return fail(w, "bad block count");
            count = -count;
        }
        if ((uint64_t)count > *w->items)
            return fail(w, "too many array or map items");
        *w->items -= (size_t)count;
        for (int64_t i = 0; i < count; i++) {
            if (is_map && take_length_and_skip(w) != 0)
                return -1;
            if (check(w, items, depth + 1) != 0)
                return -1;
        }
    }
}

static int check_union(walk_t *w, avro_schema_t s, int depth)
{
    int64_t branch;

    if (take_long(w, &branch) != 0)
        return -1;
    if (branch < 0 || (uint64_t)branch >= avro_schema_union_size(s))
        return fail(w, "union branch out of range");
    return check(w, avro_schema_union_branch(s, (int)branch), depth + 1);
}

static int check_record(walk_t *w, avro_schema_t s, int depth)
{
    size_t n = avro_schema_record_size(s);

    for (size_t i = 0; i < n; i++)
        if (check(w, avro_schema_record_field_get_by_index(s, (int)i), depth + 1) != 0)
            return -1;
    return 0;
}

static int check(walk_t *w, avro_schema_t s, int depth)
{
    int64_t v;

    if (depth > FLOE_AVRO_DEPTH_MAX)
        return fail(w, "nested too deeply");
    if (is_avro_link(s))
        s = avro_schema_link_target(s);
    switch (avro_typeof(s)) {
    case AVRO_NULL:
        return 0;
    case AVRO_BOOLEAN:
        return skip(w, 1);
    case AVRO_INT32:
        return take_int(w);
    case AVRO_INT64:
        return take_long(w, &v);
    case AVRO_FLOAT:
        return skip(w, FLOAT_BYTES);
    case AVRO_DOUBLE:
        return skip(w, DOUBLE_BYTES);
    case AVRO_STRING:
    case AVRO_BYTES:
        return take_length_and_skip(w);
    case AVRO_FIXED:
        return skip(w, (uint64_t)avro_schema_fixed_size(s));
    case AVRO_ENUM:
        if (take_long(w, &v) != 0)
            return -1;
        return v < 0 || v >= avro_schema_enum_number_of_symbols(s) ? fail(w, "enum index out of range") : 0;
    case AVRO_RECORD:
        return check_record(w, s, depth);
    case AVRO_ARRAY:
        return check_blocks(w, avro_schema_array_items(s), false, depth);
    case AVRO_MAP:
        return check_blocks(w, avro_schema_map_values(s), true, depth);
    case AVRO_UNION:
        return check_union(w, s, depth);
    default:
        return fail(w, "unknown schema type");
    }
}

int floe_avro_datum_check(avro_schema_t schema, const uint8_t *data, size_t len, size_t *consumed, size_t *items,
                          char *err, size_t err_size)
{
    walk_t w = {.p = data, .end = data + len, .items = items};

    if (check(&w, schema, 0) != 0)
        return floe_avro_fail(err, err_size, "%s", w.why);
    if (w.p == data)
        return floe_avro_fail(err, err_size, "empty datum");
    *consumed = (size_t)(w.p - data);
    return 0;
}

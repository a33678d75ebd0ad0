/*
 * Finding and decoding Parquet footers (parquet_footer.h).
 *
 * Each Thrift struct has a descriptor: its name, its field names by id (for messages and to tell
 * known fields from unknown ones), the ids it requires, and a function that reads one field into
 * the C struct. read_struct drives them all: it reads field headers, refuses a known field seen
 * twice, hands each field to the descriptor's function, keeps the fields that function does not
 * claim in `extra`, and checks the required ones at the end. Unions are structs with exactly one
 * field. After the bytes, check_tree and check_row_groups check what the format promises.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "iceberg/parquet_arena.h"
#include "iceberg/parquet_footer.h"
#include "iceberg/parquet_thrift.h"

/* An on_field result: the field is not modelled; read_struct keeps it in extra. */
#define NOT_MINE 1
/* Field ids below this have a bit in the seen and required masks. */
#define MASK_IDS 32
#define BIT(id) (UINT32_C(1) << (id))
#define MIB (1024 * 1024)

typedef struct dec dec_t;
typedef int (*field_fn)(dec_t *d, void *obj, int16_t id, uint8_t type);
typedef int (*elem_fn)(dec_t *d, void *item);

typedef struct desc {
    const char *name;
    const char *const *fields; /* names by field id */
    int16_t n_fields;
    uint32_t required; /* BIT(id) of each required field */
    bool is_union;
    field_fn on_field;
} desc_t;

struct dec {
    floe_parquet_thrift_reader_t r;
    floe_parquet_arena_t *arena;
    const desc_t *desc; /* the struct being read, for messages */
    int16_t id;         /* the field being read */
};

/* ---- reading values ---------------------------------------------------------------------- */

static const char *thrift_type_name(uint8_t type)
{
    static const char *const names[] = {"stop", "bool", "bool", "i8",  "i16", "i32",    "i64",
                                        "double", "binary", "list", "set", "map", "struct", "uuid"};
    return type < sizeof(names) / sizeof(names[0]) ? names[type] : "unknown";
}

static const char *field_name(const desc_t *desc, int16_t id)
{
    return id > 0 && id < desc->n_fields && desc->fields[id] != NULL ? desc->fields[id] : "(unknown)";
}

static bool is_known(const desc_t *desc, int16_t id)
{
    return id > 0 && id < desc->n_fields && desc->fields[id] != NULL;
}

static int want(dec_t *d, uint8_t type, uint8_t expected)
{
    if (type == expected || (expected == FLOE_THRIFT_TRUE && type == FLOE_THRIFT_FALSE))
        return FLOE_ICEBERG_OK;
    return floe_parquet_thrift_fail(&d->r, "%s.%s has Thrift type %s, not %s", d->desc->name,
                                    field_name(d->desc, d->id), thrift_type_name(type), thrift_type_name(expected));
}

static void *alloc(dec_t *d, size_t n, size_t size)
{
    void *p = floe_parquet_arena_alloc(d->arena, n, size);

    if (p == NULL)
        floe_parquet_thrift_fail(&d->r, "it needs more than %zu MiB of memory", FLOE_PARQUET_ALLOC_MAX / MIB);
    return p;
}

static int copy_bytes(dec_t *d, const uint8_t *p, size_t n, floe_parquet_bytes_t *out)
{
    uint8_t *copy = alloc(d, n + 1, 1);

    if (copy == NULL)
        return FLOE_ICEBERG_EINVALID;
    memcpy(copy, p, n);
    copy[n] = '\0';
    out->data = copy;
    out->len = (uint32_t)n;
    return FLOE_ICEBERG_OK;
}

/* Any integer type is taken for an integer field when its value fits: hyparquet-writer, for one,
 * writes IntType.bitWidth (an i8) as an i32, and Thrift's compact encoding of i16, i32 and i64
 * is the same varint. */
static int get_int(dec_t *d, uint8_t type, int64_t min, int64_t max, int64_t *out)
{
    uint8_t b;

    if (type == FLOE_THRIFT_I8) {
        if (floe_parquet_thrift_read_byte(&d->r, &b) != 0)
            return FLOE_ICEBERG_EINVALID;
        *out = (int8_t)b;
    } else if (type == FLOE_THRIFT_I16 || type == FLOE_THRIFT_I32 || type == FLOE_THRIFT_I64) {
        if (floe_parquet_thrift_read_i64(&d->r, out) != 0)
            return FLOE_ICEBERG_EINVALID;
    } else {
        return floe_parquet_thrift_fail(&d->r, "%s.%s has Thrift type %s, not an integer", d->desc->name,
                                        field_name(d->desc, d->id), thrift_type_name(type));
    }
    if (*out < min || *out > max)
        return floe_parquet_thrift_fail(&d->r, "%s.%s is out of range", d->desc->name, field_name(d->desc, d->id));
    return FLOE_ICEBERG_OK;
}

static int get_i64(dec_t *d, uint8_t type, int64_t *out)
{
    return get_int(d, type, INT64_MIN, INT64_MAX, out);
}

static int get_i32(dec_t *d, uint8_t type, int32_t *out)
{
    int64_t v;

    if (get_int(d, type, INT32_MIN, INT32_MAX, &v) != 0)
        return FLOE_ICEBERG_EINVALID;
    *out = (int32_t)v;
    return FLOE_ICEBERG_OK;
}

static int get_i16(dec_t *d, uint8_t type, int16_t *out)
{
    int64_t v;

    if (get_int(d, type, INT16_MIN, INT16_MAX, &v) != 0)
        return FLOE_ICEBERG_EINVALID;
    *out = (int16_t)v;
    return FLOE_ICEBERG_OK;
}

static int get_i8(dec_t *d, uint8_t type, int8_t *out)
{
    int64_t v;

    if (get_int(d, type, INT8_MIN, INT8_MAX, &v) != 0)
        return FLOE_ICEBERG_EINVALID;
    *out = (int8_t)v;
    return FLOE_ICEBERG_OK;
}

static int get_bool(dec_t *d, uint8_t type, bool *out)
{
    if (want(d, type, FLOE_THRIFT_TRUE) != 0)
        return FLOE_ICEBERG_EINVALID;
    *out = type == FLOE_THRIFT_TRUE;
    return FLOE_ICEBERG_OK;
}

static int get_bytes(dec_t *d, uint8_t type, floe_parquet_bytes_t *out)
{
    const uint8_t *p;
    uint32_t n;

    if (want(d, type, FLOE_THRIFT_BINARY) != 0 || floe_parquet_thrift_read_binary(&d->r, &p, &n) != 0)
        return FLOE_ICEBERG_EINVALID;
    return copy_bytes(d, p, n, out);
}

/* A list of `elem` values into a new array of *n items of `size` bytes, each read by fn. */
static int get_list(dec_t *d, uint8_t type, uint8_t elem, size_t size, elem_fn fn, void **items, uint32_t *n)
{
    uint8_t got;
    uint8_t *array;
    int rc = FLOE_ICEBERG_OK;

    if (want(d, type, FLOE_THRIFT_LIST) != 0 || floe_parquet_thrift_read_list(&d->r, &got, n) != 0)
        return FLOE_ICEBERG_EINVALID;
    if (got != elem)
        return floe_parquet_thrift_fail(&d->r, "%s.%s is a list of %s, not of %s", d->desc->name,
                                        field_name(d->desc, d->id), thrift_type_name(got), thrift_type_name(elem));
    array = alloc(d, *n, size);
    if (array == NULL || floe_parquet_thrift_enter(&d->r) != 0)
        return FLOE_ICEBERG_EINVALID;
    for (uint32_t i = 0; i < *n && rc == 0; i++)
        rc = fn(d, array + i * size);
    floe_parquet_thrift_leave(&d->r);
    *items = array;
    return rc;
}

static int elem_i32(dec_t *d, void *item)
{
    return floe_parquet_thrift_read_i32(&d->r, item);
}

static int elem_bytes(dec_t *d, void *item)
{
    const uint8_t *p;
    uint32_t n;

    if (floe_parquet_thrift_read_binary(&d->r, &p, &n) != 0)
        return FLOE_ICEBERG_EINVALID;
    return copy_bytes(d, p, n, item);
}

/* ---- the struct driver ------------------------------------------------------------------- */

typedef struct extras {
    floe_parquet_field_t *fields; /* malloc'ed while a struct is read; values point into the input */
    uint32_t n, cap;
} extras_t;

static int remember(dec_t *d, extras_t *ex, int16_t id, uint8_t type, const uint8_t *value)
{
    if (ex->n == FLOE_PARQUET_EXTRA_MAX)
        return floe_parquet_thrift_fail(&d->r, "%s has more than %d unknown fields", d->desc->name,
                                        FLOE_PARQUET_EXTRA_MAX);
    if (ex->n == ex->cap) {
        ex->cap = ex->cap != 0 ? ex->cap * 2 : 4;
        ex->fields = floe_xrealloc(ex->fields, ex->cap * sizeof(*ex->fields));
    }
    ex->fields[ex->n].id = id;
    ex->fields[ex->n].type = type;
    ex->fields[ex->n].value.data = value;
    ex->fields[ex->n].value.len = (uint32_t)(d->r.p - value);
    ex->n++;
    return FLOE_ICEBERG_OK;
}

/* Copies the unknown fields into the arena, stably sorted by id (design note 3). */
static int keep_extras(dec_t *d, const extras_t *ex, floe_parquet_extra_t *extra)
{
    floe_parquet_field_t *fields;

    if (ex->n == 0)
        return FLOE_ICEBERG_OK;
    fields = alloc(d, ex->n, sizeof(*fields));
    if (fields == NULL)
        return FLOE_ICEBERG_EINVALID;
    for (uint32_t i = 0; i < ex->n; i++) {
        uint32_t j = i;
        for (; j > 0 && fields[j - 1].id > ex->fields[i].id; j--)
            fields[j] = fields[j - 1];
        fields[j] = ex->fields[i];
        if (copy_bytes(d, ex->fields[i].value.data, ex->fields[i].value.len, &fields[j].value) != 0)
            return FLOE_ICEBERG_EINVALID;
    }
    extra->fields = fields;
    extra->n_fields = ex->n;
    return FLOE_ICEBERG_OK;
}

/* One field: refuses a known field seen twice, lets the descriptor read it or keeps it. */
static int read_one_field(dec_t *d, void *obj, int16_t id, uint8_t type, uint32_t *seen, extras_t *ex,
                          bool keep_unknown)
{
    const uint8_t *value = d->r.p;
    int rc;

    d->id = id;
    if (is_known(d->desc, id) && id < MASK_IDS) {
        if (*seen & BIT(id))
            return floe_parquet_thrift_fail(&d->r, "%s.%s appears twice", d->desc->name, field_name(d->desc, id));
        *seen |= BIT(id);
    }
    rc = d->desc->on_field(d, obj, id, type);
    if (rc != NOT_MINE)
        return rc;
    if (floe_parquet_thrift_skip(&d->r, type) != 0)
        return FLOE_ICEBERG_EINVALID;
    return keep_unknown ? remember(d, ex, id, type, value) : FLOE_ICEBERG_OK;
}

static int check_struct_end(dec_t *d, uint32_t seen, uint32_t n_members)
{
    uint32_t missing = d->desc->required & ~seen;

    if (missing != 0) {
        int16_t id = (int16_t)__builtin_ctz(missing);
        return floe_parquet_thrift_fail(&d->r, "%s lacks its required field %s", d->desc->name,
                                        field_name(d->desc, id));
    }
    if (d->desc->is_union && n_members != 1)
        return floe_parquet_thrift_fail(&d->r, "the union %s sets %u members, not one", d->desc->name, n_members);
    return FLOE_ICEBERG_OK;
}

/* Reads one struct into obj. Unknown fields go to extra, or are skipped when extra is NULL. */
static int read_struct(dec_t *d, const desc_t *desc, void *obj, floe_parquet_extra_t *extra)
{
    const desc_t *outer = d->desc;
    int16_t outer_id = d->id, last_id = 0, id;
    uint8_t type;
    uint32_t seen = 0, n_members = 0;
    extras_t ex = {0};
    int rc;

    if (floe_parquet_thrift_enter(&d->r) != 0)
        return FLOE_ICEBERG_EINVALID;
    d->desc = desc;
    for (;;) {
        rc = floe_parquet_thrift_read_field(&d->r, &last_id, &id, &type);
        if (rc != 0 || type == FLOE_THRIFT_STOP)
            break;
        n_members++;
        rc = read_one_field(d, obj, id, type, &seen, &ex, extra != NULL);
        if (rc != 0)
            break;
    }
    if (rc == 0)
        rc = check_struct_end(d, seen, n_members);
    if (rc == 0 && extra != NULL)
        rc = keep_extras(d, &ex, extra);
    free(ex.fields);
    floe_parquet_thrift_leave(&d->r);
    d->desc = outer;
    d->id = outer_id;
    return rc;
}

/* ---- unions kept as bytes: LogicalType and ColumnOrder ----------------------------------- */

static int on_decimal(dec_t *d, void *obj, int16_t id, uint8_t type)
{
    floe_parquet_logical_type_t *lt = obj;

    switch (id) {
    case 1:
        return get_i32(d, type, &lt->scale);
    case 2:
        return get_i32(d, type, &lt->precision);
    default:
        return NOT_MINE;
    }
}

static int on_time_unit(dec_t *d, void *obj, int16_t id, uint8_t type)
{
    floe_parquet_logical_type_t *lt = obj;

    lt->unit = id >= FLOE_PARQUET_MILLIS && id <= FLOE_PARQUET_NANOS ? id : 0;
    return NOT_MINE;
}

static const char *const time_unit_fields[] = {NULL, "MILLIS", "MICROS", "NANOS"};
static const desc_t time_unit_desc = {"TimeUnit", time_unit_fields, 4, 0, true, on_time_unit};

static int on_time(dec_t *d, void *obj, int16_t id, uint8_t type)
{
    floe_parquet_logical_type_t *lt = obj;

    switch (id) {
    case 1:
        return get_bool(d, type, &lt->is_adjusted_to_utc);
    case 2:
        if (want(d, type, FLOE_THRIFT_STRUCT) != 0)
            return FLOE_ICEBERG_EINVALID;
        return read_struct(d, &time_unit_desc, lt, NULL);
    default:
        return NOT_MINE;
    }
}

static int on_integer(dec_t *d, void *obj, int16_t id, uint8_t type)
{
    floe_parquet_logical_type_t *lt = obj;

    switch (id) {
    case 1:
        return get_i8(d, type, &lt->bit_width);
    case 2:
        return get_bool(d, type, &lt->is_signed);
    default:
        return NOT_MINE;
    }
}

static const char *const decimal_fields[] = {NULL, "scale", "precision"};
static const desc_t decimal_desc = {"DecimalType", decimal_fields, 3, BIT(1) | BIT(2), false, on_decimal};
static const char *const time_fields[] = {NULL, "isAdjustedToUTC", "unit"};
static const desc_t time_desc = {"TimeType", time_fields, 3, BIT(1) | BIT(2), false, on_time};
static const char *const integer_fields[] = {NULL, "bitWidth", "isSigned"};
static const desc_t integer_desc = {"IntType", integer_fields, 3, BIT(1) | BIT(2), false, on_integer};

static int on_logical_type(dec_t *d, void *obj, int16_t id, uint8_t type)
{
    floe_parquet_logical_type_t *lt = obj;

    lt->kind = id;
    if (is_known(d->desc, id) && want(d, type, FLOE_THRIFT_STRUCT) != 0)
        return FLOE_ICEBERG_EINVALID;
    switch (id) {
    case FLOE_PARQUET_LOGICAL_DECIMAL:
        return read_struct(d, &decimal_desc, lt, NULL);
    case FLOE_PARQUET_LOGICAL_TIME:
    case FLOE_PARQUET_LOGICAL_TIMESTAMP:
        return read_struct(d, &time_desc, lt, NULL);
    case FLOE_PARQUET_LOGICAL_INTEGER:
        return read_struct(d, &integer_desc, lt, NULL);
    default:
        return NOT_MINE;
    }
}

static const char *const logical_type_fields[] = {
    NULL,   "STRING", "MAP",  "LIST", "ENUM", "DECIMAL", "DATE",    "TIME",     "TIMESTAMP", NULL,
    "INTEGER", "UNKNOWN", "JSON", "BSON", "UUID", "FLOAT16", "VARIANT", "GEOMETRY", "GEOGRAPHY", "VECTOR"};
static const desc_t logical_type_desc = {"LogicalType", logical_type_fields, 20, 0, true, on_logical_type};

static int get_logical_type(dec_t *d, uint8_t type, floe_parquet_logical_type_t *lt)
{
    const uint8_t *start = d->r.p;

    if (want(d, type, FLOE_THRIFT_STRUCT) != 0 || read_struct(d, &logical_type_desc, lt, NULL) != 0)
        return FLOE_ICEBERG_EINVALID;
    return copy_bytes(d, start, (size_t)(d->r.p - start), &lt->encoded);
}

static int on_column_order(dec_t *d, void *obj, int16_t id, uint8_t type)
{
    floe_parquet_column_order_t *co = obj;

    co->kind = id;
    return NOT_MINE;
}

static const char *const column_order_fields[] = {NULL, "TYPE_ORDER", "IEEE_754_TOTAL_ORDER",
                                                  "INT96_TIMESTAMP_ORDER"};
static const desc_t column_order_desc = {"ColumnOrder", column_order_fields, 4, 0, true, on_column_order};

static int elem_column_order(dec_t *d, void *item)
{
    floe_parquet_column_order_t *co = item;
    const uint8_t *start = d->r.p;

    if (read_struct(d, &column_order_desc, co, NULL) != 0)
        return FLOE_ICEBERG_EINVALID;
    return copy_bytes(d, start, (size_t)(d->r.p - start), &co->encoded);
}

/* ---- the footer's structs ---------------------------------------------------------------- */

static int on_key_value(dec_t *d, void *obj, int16_t id, uint8_t type)
{
    floe_parquet_key_value_t *kv = obj;

    switch (id) {
    case 1:
        return get_bytes(d, type, &kv->key);
    case 2:
        kv->has_value = true;
        return get_bytes(d, type, &kv->value);
    default:
        return NOT_MINE;
    }
}

static const char *const key_value_fields[] = {NULL, "key", "value"};
static const desc_t key_value_desc = {"KeyValue", key_value_fields, 3, BIT(1), false, on_key_value};

static int elem_key_value(dec_t *d, void *item)
{
    floe_parquet_key_value_t *kv = item;
    return read_struct(d, &key_value_desc, kv, &kv->extra);
}

static int get_key_values(dec_t *d, uint8_t type, floe_parquet_key_value_t **kvs, uint32_t *n)
{
    void *items = NULL;
    int rc = get_list(d, type, FLOE_THRIFT_STRUCT, sizeof(**kvs), elem_key_value, &items, n);

    *kvs = items;
    return rc;
}

static int on_schema_element(dec_t *d, void *obj, int16_t id, uint8_t type)
{
    floe_parquet_schema_element_t *el = obj;

    switch (id) {
    case 1:
        el->has_type = true;
        return get_i32(d, type, &el->type);
    case 2:
        el->has_type_length = true;
        return get_i32(d, type, &el->type_length);
    case 3:
        el->has_repetition_type = true;
        return get_i32(d, type, &el->repetition_type);
    case 4:
        return get_bytes(d, type, &el->name);
    case 5:
        el->has_num_children = true;
        return get_i32(d, type, &el->num_children);
    case 6:
        el->has_converted_type = true;
        return get_i32(d, type, &el->converted_type);
    case 7:
        el->has_scale = true;
        return get_i32(d, type, &el->scale);
    case 8:
        el->has_precision = true;
        return get_i32(d, type, &el->precision);
    case 9:
        el->has_field_id = true;
        return get_i32(d, type, &el->field_id);
    case 10:
        el->has_logical_type = true;
        return get_logical_type(d, type, &el->logical_type);
    default:
        return NOT_MINE;
    }
}

static const char *const schema_element_fields[] = {
    NULL, "type", "type_length", "repetition_type", "name", "num_children", "converted_type", "scale", "precision",
    "field_id", "logicalType"};
static const desc_t schema_element_desc = {"SchemaElement", schema_element_fields, 11, BIT(4), false,
                                           on_schema_element};

static int elem_schema_element(dec_t *d, void *item)
{
    floe_parquet_schema_element_t *el = item;
    return read_struct(d, &schema_element_desc, el, &el->extra);
}

static int on_statistics(dec_t *d, void *obj, int16_t id, uint8_t type)
{
    floe_parquet_statistics_t *st = obj;

    switch (id) {
    case 1:
        st->has_max = true;
        return get_bytes(d, type, &st->max);
    case 2:
        st->has_min = true;
        return get_bytes(d, type, &st->min);
    case 3:
        st->has_null_count = true;
        return get_i64(d, type, &st->null_count);
    case 4:
        st->has_distinct_count = true;
        return get_i64(d, type, &st->distinct_count);
    case 5:
        st->has_max_value = true;
        return get_bytes(d, type, &st->max_value);
    case 6:
        st->has_min_value = true;
        return get_bytes(d, type, &st->min_value);
    case 7:
        st->has_is_max_value_exact = true;
        return get_bool(d, type, &st->is_max_value_exact);
    case 8:
        st->has_is_min_value_exact = true;
        return get_bool(d, type, &st->is_min_value_exact);
    case 9:
        st->has_nan_count = true;
        return get_i64(d, type, &st->nan_count);
    default:
        return NOT_MINE;
    }
}

static const char *const statistics_fields[] = {NULL,        "max",       "min",
                                                "null_count", "distinct_count", "max_value",
                                                "min_value", "is_max_value_exact", "is_min_value_exact",
                                                "nan_count"};
static const desc_t statistics_desc = {"Statistics", statistics_fields, 10, 0, false, on_statistics};

static int on_page_encoding_stats(dec_t *d, void *obj, int16_t id, uint8_t type)
{
    floe_parquet_page_encoding_stats_t *es = obj;

    switch (id) {
    case 1:
        return get_i32(d, type, &es->page_type);
    case 2:
        return get_i32(d, type, &es->encoding);
    case 3:
        return get_i32(d, type, &es->count);
    default:
        return NOT_MINE;
    }
}

static const char *const page_encoding_stats_fields[] = {NULL, "page_type", "encoding", "count"};
static const desc_t page_encoding_stats_desc = {"PageEncodingStats", page_encoding_stats_fields, 4,
                                                BIT(1) | BIT(2) | BIT(3), false, on_page_encoding_stats};

static int elem_page_encoding_stats(dec_t *d, void *item)
{
    floe_parquet_page_encoding_stats_t *es = item;
    return read_struct(d, &page_encoding_stats_desc, es, &es->extra);
}

/* ColumnMetaData's lists. */
static int on_column_meta_data_list(dec_t *d, floe_parquet_column_meta_data_t *m, int16_t id, uint8_t type)
{
    void *items = NULL;
    int rc;

    switch (id) {
    case 2:
        rc = get_list(d, type, FLOE_THRIFT_I32, sizeof(int32_t), elem_i32, &items, &m->n_encodings);
        m->encodings = items;
        return rc;
    case 3:
        rc = get_list(d, type, FLOE_THRIFT_BINARY, sizeof(floe_parquet_bytes_t), elem_bytes, &items,
                      &m->n_path_in_schema);
        m->path_in_schema = items;
        return rc;
    case 8:
        m->has_key_value_metadata = true;
        return get_key_values(d, type, &m->key_value_metadata, &m->n_key_value_metadata);
    default: /* 13 */
        m->has_encoding_stats = true;
        rc = get_list(d, type, FLOE_THRIFT_STRUCT, sizeof(floe_parquet_page_encoding_stats_t),
                      elem_page_encoding_stats, &items, &m->n_encoding_stats);
        m->encoding_stats = items;
        return rc;
    }
}

static int on_column_meta_data(dec_t *d, void *obj, int16_t id, uint8_t type)
{
    floe_parquet_column_meta_data_t *m = obj;

    switch (id) {
    case 1:
        return get_i32(d, type, &m->type);
    case 2:
    case 3:
    case 8:
    case 13:
        return on_column_meta_data_list(d, m, id, type);
    case 4:
        return get_i32(d, type, &m->codec);
    case 5:
        return get_i64(d, type, &m->num_values);
    case 6:
        return get_i64(d, type, &m->total_uncompressed_size);
    case 7:
        return get_i64(d, type, &m->total_compressed_size);
    case 9:
        return get_i64(d, type, &m->data_page_offset);
    case 10:
        m->has_index_page_offset = true;
        return get_i64(d, type, &m->index_page_offset);
    case 11:
        m->has_dictionary_page_offset = true;
        return get_i64(d, type, &m->dictionary_page_offset);
    case 12:
        m->has_statistics = true;
        if (want(d, type, FLOE_THRIFT_STRUCT) != 0)
            return FLOE_ICEBERG_EINVALID;
        return read_struct(d, &statistics_desc, &m->statistics, &m->statistics.extra);
    case 14:
        m->has_bloom_filter_offset = true;
        return get_i64(d, type, &m->bloom_filter_offset);
    case 15:
        m->has_bloom_filter_length = true;
        return get_i32(d, type, &m->bloom_filter_length);
    default:
        return NOT_MINE;
    }
}

static const char *const column_meta_data_fields[] = {
    NULL,         "type",          "encodings",          "path_in_schema",       "codec",
    "num_values", "total_uncompressed_size", "total_compressed_size", "key_value_metadata",
    "data_page_offset", "index_page_offset", "dictionary_page_offset", "statistics", "encoding_stats",
    "bloom_filter_offset", "bloom_filter_length"};
static const desc_t column_meta_data_desc = {
    "ColumnMetaData", column_meta_data_fields, 16,
    BIT(1) | BIT(2) | BIT(3) | BIT(4) | BIT(5) | BIT(6) | BIT(7) | BIT(9), false, on_column_meta_data};

static int on_column_chunk(dec_t *d, void *obj, int16_t id, uint8_t type)
{
    floe_parquet_column_chunk_t *c = obj;

    switch (id) {
    case 1:
        c->has_file_path = true;
        return get_bytes(d, type, &c->file_path);
    case 2:
        return get_i64(d, type, &c->file_offset);
    case 3:
        if (want(d, type, FLOE_THRIFT_STRUCT) != 0)
            return FLOE_ICEBERG_EINVALID;
        return read_struct(d, &column_meta_data_desc, &c->meta_data, &c->meta_data.extra);
    case 4:
        c->has_offset_index_offset = true;
        return get_i64(d, type, &c->offset_index_offset);
    case 5:
        c->has_offset_index_length = true;
        return get_i32(d, type, &c->offset_index_length);
    case 6:
        c->has_column_index_offset = true;
        return get_i64(d, type, &c->column_index_offset);
    case 7:
        c->has_column_index_length = true;
        return get_i32(d, type, &c->column_index_length);
    case 8:
    case 9:
        return floe_iceberg_fail(d->r.err, FLOE_ICEBERG_EINVALID,
                                 "The Parquet file's column chunks are encrypted, which Floe does not support.");
    default:
        return NOT_MINE;
    }
}

/* meta_data is optional in parquet.thrift, but the format says writers must write it and
 * only encrypted columns go without; Floe requires it. */
static const char *const column_chunk_fields[] = {
    NULL,          "file_path",          "file_offset",         "meta_data",          "offset_index_offset",
    "offset_index_length", "column_index_offset", "column_index_length", "crypto_metadata",
    "encrypted_column_metadata"};
static const desc_t column_chunk_desc = {"ColumnChunk", column_chunk_fields, 10, BIT(2) | BIT(3), false,
                                         on_column_chunk};

static int elem_column_chunk(dec_t *d, void *item)
{
    floe_parquet_column_chunk_t *c = item;
    return read_struct(d, &column_chunk_desc, c, &c->extra);
}

static int on_sorting_column(dec_t *d, void *obj, int16_t id, uint8_t type)
{
    floe_parquet_sorting_column_t *sc = obj;

    switch (id) {
    case 1:
        return get_i32(d, type, &sc->column_idx);
    case 2:
        return get_bool(d, type, &sc->descending);
    case 3:
        return get_bool(d, type, &sc->nulls_first);
    default:
        return NOT_MINE;
    }
}

static const char *const sorting_column_fields[] = {NULL, "column_idx", "descending", "nulls_first"};
static const desc_t sorting_column_desc = {"SortingColumn", sorting_column_fields, 4, BIT(1) | BIT(2) | BIT(3),
                                           false, on_sorting_column};

static int elem_sorting_column(dec_t *d, void *item)
{
    floe_parquet_sorting_column_t *sc = item;
    return read_struct(d, &sorting_column_desc, sc, &sc->extra);
}

static int on_row_group(dec_t *d, void *obj, int16_t id, uint8_t type)
{
    floe_parquet_row_group_t *rg = obj;
    void *items = NULL;
    int rc;

    switch (id) {
    case 1:
        rc = get_list(d, type, FLOE_THRIFT_STRUCT, sizeof(*rg->columns), elem_column_chunk, &items, &rg->n_columns);
        rg->columns = items;
        return rc;
    case 2:
        return get_i64(d, type, &rg->total_byte_size);
    case 3:
        return get_i64(d, type, &rg->num_rows);
    case 4:
        rg->has_sorting_columns = true;
        rc = get_list(d, type, FLOE_THRIFT_STRUCT, sizeof(*rg->sorting_columns), elem_sorting_column, &items,
                      &rg->n_sorting_columns);
        rg->sorting_columns = items;
        return rc;
    case 5:
        rg->has_file_offset = true;
        return get_i64(d, type, &rg->file_offset);
    case 6:
        rg->has_total_compressed_size = true;
        return get_i64(d, type, &rg->total_compressed_size);
    case 7:
        rg->has_ordinal = true;
        return get_i16(d, type, &rg->ordinal);
    default:
        return NOT_MINE;
    }
}

static const char *const row_group_fields[] = {NULL,          "columns",     "total_byte_size",
                                               "num_rows",    "sorting_columns", "file_offset",
                                               "total_compressed_size", "ordinal"};
static const desc_t row_group_desc = {"RowGroup", row_group_fields, 8, BIT(1) | BIT(2) | BIT(3), false,
                                      on_row_group};

static int elem_row_group(dec_t *d, void *item)
{
    floe_parquet_row_group_t *rg = item;
    return read_struct(d, &row_group_desc, rg, &rg->extra);
}

static int on_file_metadata(dec_t *d, void *obj, int16_t id, uint8_t type)
{
    floe_parquet_file_metadata_t *md = obj;
    void *items = NULL;
    int rc;

    switch (id) {
    case 1:
        return get_i32(d, type, &md->version);
    case 2:
        rc = get_list(d, type, FLOE_THRIFT_STRUCT, sizeof(*md->schema), elem_schema_element, &items, &md->n_schema);
        md->schema = items;
        return rc;
    case 3:
        return get_i64(d, type, &md->num_rows);
    case 4:
        rc = get_list(d, type, FLOE_THRIFT_STRUCT, sizeof(*md->row_groups), elem_row_group, &items,
                      &md->n_row_groups);
        md->row_groups = items;
        return rc;
    case 5:
        md->has_key_value_metadata = true;
        return get_key_values(d, type, &md->key_value_metadata, &md->n_key_value_metadata);
    case 6:
        md->has_created_by = true;
        return get_bytes(d, type, &md->created_by);
    case 7:
        md->has_column_orders = true;
        rc = get_list(d, type, FLOE_THRIFT_STRUCT, sizeof(*md->column_orders), elem_column_order, &items,
                      &md->n_column_orders);
        md->column_orders = items;
        return rc;
    case 8:
    case 9:
        return floe_iceberg_fail(d->r.err, FLOE_ICEBERG_EINVALID,
                                 "The Parquet file is encrypted, which Floe does not support.");
    default:
        return NOT_MINE;
    }
}

static const char *const file_metadata_fields[] = {
    NULL,         "version",    "schema",        "num_rows",           "row_groups",
    "key_value_metadata", "created_by", "column_orders", "encryption_algorithm", "footer_signing_key_metadata"};
static const desc_t file_metadata_desc = {"FileMetaData", file_metadata_fields, 10,
                                          BIT(1) | BIT(2) | BIT(3) | BIT(4), false, on_file_metadata};

/* ---- what the format promises ------------------------------------------------------------ */

#define MALFORMED "The Parquet footer is malformed: "

typedef struct level {
    uint32_t index; /* the group's element */
    int32_t remaining; /* children not yet seen */
    int32_t def, rep;
} level_t;

static int add_levels(const floe_parquet_schema_element_t *el, uint32_t i, int32_t *def, int32_t *rep,
                      floe_iceberg_error_t *err)
{
    int32_t repetition = el->has_repetition_type ? el->repetition_type : FLOE_PARQUET_REQUIRED;

    if (repetition == FLOE_PARQUET_OPTIONAL) {
        (*def)++;
    } else if (repetition == FLOE_PARQUET_REPEATED) {
        (*def)++;
        (*rep)++;
    } else if (repetition != FLOE_PARQUET_REQUIRED) {
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID,
                                 MALFORMED "schema element %u has the unsupported repetition type %d.", i, repetition);
    }
    return FLOE_ICEBERG_OK;
}

/* Places element i under the group on top of the stack: a group is pushed, a leaf recorded. */
static int place_element(floe_parquet_file_metadata_t *md, uint32_t i, level_t *stack, uint32_t *depth,
                         floe_iceberg_error_t *err)
{
    const floe_parquet_schema_element_t *el = &md->schema[i];
    level_t *top = &stack[*depth - 1];
    int32_t def = top->def, rep = top->rep;

    md->parents[i] = top->index;
    if (add_levels(el, i, &def, &rep, err) != 0)
        return FLOE_ICEBERG_EINVALID;
    if (el->has_num_children && el->num_children < 0)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, MALFORMED "schema element %u has %d children.", i,
                                 el->num_children);
    if (el->has_num_children && el->num_children > 0) {
        if (*depth > FLOE_PARQUET_SCHEMA_DEPTH_MAX)
            return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID,
                                     MALFORMED "the schema nests more than %d groups deep.",
                                     FLOE_PARQUET_SCHEMA_DEPTH_MAX);
        stack[(*depth)++] = (level_t){i, el->num_children, def, rep};
        return FLOE_ICEBERG_OK;
    }
    if (!el->has_type)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID,
                                 MALFORMED "schema element %u is neither a group nor a typed leaf.", i);
    md->leaves[md->n_leaves++] = (floe_parquet_leaf_t){i, *depth, def, rep};
    return FLOE_ICEBERG_OK;
}

/* Walks the depth-first schema list: one tree under schema[0]; finds its leaves. */
static int check_tree(floe_parquet_file_metadata_t *md, floe_iceberg_error_t *err)
{
    level_t stack[FLOE_PARQUET_SCHEMA_DEPTH_MAX + 1];
    uint32_t depth = 1, i = 1;
    const floe_parquet_schema_element_t *root;

    if (md->n_schema == 0)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, MALFORMED "the schema is empty.");
    root = &md->schema[0];
    if (root->has_type || (root->has_num_children && root->num_children < 0))
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, MALFORMED "the schema's root is not a group.");
    md->parents = floe_parquet_arena_alloc(md->arena, md->n_schema, sizeof(*md->parents));
    md->leaves = floe_parquet_arena_alloc(md->arena, md->n_schema, sizeof(*md->leaves));
    if (md->parents == NULL || md->leaves == NULL)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, MALFORMED "it needs more than %zu MiB of memory.",
                                 FLOE_PARQUET_ALLOC_MAX / MIB);
    stack[0] = (level_t){0, root->has_num_children ? root->num_children : 0, 0, 0};
    while (depth > 0) {
        if (stack[depth - 1].remaining == 0) {
            depth--;
            continue;
        }
        stack[depth - 1].remaining--;
        if (i == md->n_schema)
            return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, MALFORMED "the schema ends inside a group.");
        if (place_element(md, i, stack, &depth, err) != 0)
            return FLOE_ICEBERG_EINVALID;
        i++;
    }
    if (i != md->n_schema)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID,
                                 MALFORMED "%u schema elements lie outside the root's tree.", md->n_schema - i);
    return FLOE_ICEBERG_OK;
}

static bool bytes_equal(floe_parquet_bytes_t a, floe_parquet_bytes_t b)
{
    return a.len == b.len && (a.len == 0 || memcmp(a.data, b.data, a.len) == 0);
}

/* path_in_schema names the leaf: the names from the root's child down to it. */
static bool path_matches(const floe_parquet_file_metadata_t *md, const floe_parquet_leaf_t *leaf,
                         const floe_parquet_column_meta_data_t *m)
{
    uint32_t index = leaf->schema_index;

    if (m->n_path_in_schema != leaf->depth)
        return false;
    for (uint32_t k = leaf->depth; k-- > 0;) {
        if (!bytes_equal(md->schema[index].name, m->path_in_schema[k]))
            return false;
        index = md->parents[index];
    }
    return true;
}

static bool meta_data_is_sane(const floe_parquet_column_meta_data_t *m)
{
    return m->num_values >= 0 && m->total_uncompressed_size >= 0 && m->total_compressed_size >= 0 &&
           m->data_page_offset >= 0 && (!m->has_index_page_offset || m->index_page_offset >= 0) &&
           (!m->has_dictionary_page_offset || m->dictionary_page_offset >= 0) &&
           (!m->has_bloom_filter_offset || m->bloom_filter_offset >= 0) &&
           (!m->has_bloom_filter_length || m->bloom_filter_length >= 0);
}

static bool chunk_is_sane(const floe_parquet_column_chunk_t *c)
{
    return c->file_offset >= 0 && (!c->has_offset_index_offset || c->offset_index_offset >= 0) &&
           (!c->has_offset_index_length || c->offset_index_length >= 0) &&
           (!c->has_column_index_offset || c->column_index_offset >= 0) &&
           (!c->has_column_index_length || c->column_index_length >= 0) && meta_data_is_sane(&c->meta_data);
}

static int check_chunk(const floe_parquet_file_metadata_t *md, uint32_t r, uint32_t i, floe_iceberg_error_t *err)
{
    const floe_parquet_column_chunk_t *c = &md->row_groups[r].columns[i];
    const floe_parquet_leaf_t *leaf = &md->leaves[i];

    if (c->meta_data.type != md->schema[leaf->schema_index].type)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID,
                                 MALFORMED "column chunk %u of row group %u is %s but its schema leaf is %s.", i, r,
                                 floe_parquet_type_name(c->meta_data.type),
                                 floe_parquet_type_name(md->schema[leaf->schema_index].type));
    if (!path_matches(md, leaf, &c->meta_data))
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID,
                                 MALFORMED "column chunk %u of row group %u names another column than the schema.",
                                 i, r);
    if (!chunk_is_sane(c))
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID,
                                 MALFORMED "column chunk %u of row group %u has a negative size or offset.", i, r);
    return FLOE_ICEBERG_OK;
}

static int check_row_groups(const floe_parquet_file_metadata_t *md, floe_iceberg_error_t *err)
{
    for (uint32_t r = 0; r < md->n_row_groups; r++) {
        const floe_parquet_row_group_t *rg = &md->row_groups[r];
        if (rg->n_columns != md->n_leaves)
            return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID,
                                     MALFORMED "row group %u has %u column chunks but the schema has %u leaves.", r,
                                     rg->n_columns, md->n_leaves);
        if (rg->num_rows < 0 || rg->total_byte_size < 0 || (rg->has_file_offset && rg->file_offset < 0) ||
            (rg->has_total_compressed_size && rg->total_compressed_size < 0))
            return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID,
                                     MALFORMED "row group %u has a negative size or offset.", r);
        for (uint32_t i = 0; i < rg->n_columns; i++) {
            if (check_chunk(md, r, i, err) != 0)
                return FLOE_ICEBERG_EINVALID;
        }
    }
    return FLOE_ICEBERG_OK;
}

static int check_metadata(floe_parquet_file_metadata_t *md, floe_iceberg_error_t *err)
{
    if (md->num_rows < 0)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, MALFORMED "num_rows is negative.");
    if (check_tree(md, err) != 0 || check_row_groups(md, err) != 0)
        return FLOE_ICEBERG_EINVALID;
    if (md->has_column_orders && md->n_column_orders != md->n_leaves)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID,
                                 MALFORMED "it has %u column orders for %u leaves.", md->n_column_orders,
                                 md->n_leaves);
    return FLOE_ICEBERG_OK;
}

/* ---- public ------------------------------------------------------------------------------ */

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

#define ENCRYPTED_MAGIC "PARE"
/* The smallest file: the leading magic, a footer of at least one byte, the trailer. */
#define SMALLEST_FILE (FLOE_PARQUET_MAGIC_LEN + 1 + FLOE_PARQUET_TRAILER_LEN)

int floe_parquet_footer_locate(const uint8_t *tail, size_t tail_len, uint64_t file_size, floe_parquet_footer_t *out,
                               floe_iceberg_error_t *err)
{
    const uint8_t *magic;
    uint32_t length;

    if (file_size < SMALLEST_FILE || tail_len < FLOE_PARQUET_TRAILER_LEN || tail_len > file_size)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "The file is too short to be Parquet.");
    magic = tail + tail_len - FLOE_PARQUET_MAGIC_LEN;
    if (memcmp(magic, ENCRYPTED_MAGIC, FLOE_PARQUET_MAGIC_LEN) == 0)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID,
                                 "The Parquet file's footer is encrypted, which Floe does not support.");
    if (memcmp(magic, FLOE_PARQUET_MAGIC, FLOE_PARQUET_MAGIC_LEN) != 0 ||
        (tail_len == file_size && memcmp(tail, FLOE_PARQUET_MAGIC, FLOE_PARQUET_MAGIC_LEN) != 0))
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "The file is not Parquet: it lacks the PAR1 magic.");
    length = le32(tail + tail_len - FLOE_PARQUET_TRAILER_LEN);
    if (length == 0 || length > FLOE_PARQUET_FOOTER_MAX ||
        length > file_size - FLOE_PARQUET_MAGIC_LEN - FLOE_PARQUET_TRAILER_LEN)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID,
                                 "The Parquet footer length %u does not fit the file of %llu bytes.", length,
                                 (unsigned long long)file_size);
    out->offset = file_size - FLOE_PARQUET_TRAILER_LEN - length;
    out->length = length;
    out->in_tail = tail_len - FLOE_PARQUET_TRAILER_LEN >= length ? tail + tail_len - FLOE_PARQUET_TRAILER_LEN - length
                                                                  : NULL;
    return FLOE_ICEBERG_OK;
}

int floe_parquet_decode(const uint8_t *data, size_t len, floe_parquet_file_metadata_t *md,
                        floe_iceberg_error_t *err)
{
    dec_t d = {.desc = &file_metadata_desc};

    memset(md, 0, sizeof(*md));
    floe_iceberg_error_clear(err);
    md->arena = d.arena = floe_parquet_arena_new(FLOE_PARQUET_ALLOC_MAX);
    floe_parquet_thrift_reader_init(&d.r, "The Parquet footer", data, len, err);
    if (read_struct(&d, &file_metadata_desc, md, &md->extra) != 0)
        goto Exit;
    if (d.r.p != d.r.end) {
        floe_parquet_thrift_fail(&d.r, "%zu bytes follow the FileMetaData", (size_t)(d.r.end - d.r.p));
        goto Exit;
    }
    if (check_metadata(md, err) != 0)
        goto Exit;
    return FLOE_ICEBERG_OK;

Exit:
    floe_parquet_file_metadata_dispose(md);
    return FLOE_ICEBERG_EINVALID;
}

void floe_parquet_file_metadata_dispose(floe_parquet_file_metadata_t *md)
{
    floe_parquet_arena_free(md->arena);
    memset(md, 0, sizeof(*md));
}

const floe_parquet_schema_element_t *floe_parquet_leaf_element(const floe_parquet_file_metadata_t *md,
                                                               uint32_t leaf)
{
    assert(leaf < md->n_leaves);
    return &md->schema[md->leaves[leaf].schema_index];
}

const char *floe_parquet_type_name(int32_t type)
{
    static const char *const names[] = {"BOOLEAN", "INT32",      "INT64",     "INT96",
                                        "FLOAT",   "DOUBLE",     "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"};
    return type >= 0 && type < (int32_t)(sizeof(names) / sizeof(names[0])) ? names[type] : "unknown";
}

const char *floe_parquet_codec_name(int32_t codec)
{
    static const char *const names[] = {"UNCOMPRESSED", "SNAPPY", "GZIP", "LZO", "BROTLI", "LZ4", "ZSTD", "LZ4_RAW"};
    return codec >= 0 && codec < (int32_t)(sizeof(names) / sizeof(names[0])) ? names[codec] : "unknown";
}

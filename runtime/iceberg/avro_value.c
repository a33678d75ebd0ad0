/*
 * Reading Avro C values for the manifest readers (avro_value.h).
 */
#include <string.h>

#include "iceberg/avro_datum.h"
#include "iceberg/avro_schema.h"
#include "iceberg/avro_value.h"

/** The most array and map items one datum may hold (avro_datum.h): far more than a data file
 * has column statistics, few enough that Avro C's copy of one datum stays small. */
#define DATUM_ITEMS_MAX ((size_t)1 << 20)
/** The longest writer's schema read. */
#define SCHEMA_JSON_MAX ((size_t)4 * 1024 * 1024)

static int parse_schema(floe_avro_reader_t *r, avro_schema_t *schema, char *err, size_t err_size)
{
    const floe_avro_meta_t *text = floe_avro_reader_meta(r, "avro.schema");

    if (text == NULL)
        return floe_avro_fail(err, err_size, "header: no avro.schema");
    if (text->value_len > SCHEMA_JSON_MAX)
        return floe_avro_fail(err, err_size, "header: avro.schema longer than %zu bytes", SCHEMA_JSON_MAX);
    if (floe_avro_schema_check((const char *)text->value, text->value_len, err, err_size) != 0)
        return -1;
    if (avro_schema_from_json_length((const char *)text->value, text->value_len, schema) != 0)
        return floe_avro_fail(err, err_size, "header: invalid avro.schema: %.200s", avro_strerror());
    if (!is_avro_record(*schema)) {
        avro_schema_decref(*schema);
        return floe_avro_fail(err, err_size, "header: avro.schema is not a record");
    }
    return 0;
}

/* Checks then decodes each datum of one block. */
static int each_in_block(const floe_avro_block_t *b, avro_schema_t schema, avro_value_t *value, floe_avro_datum_fn fn,
                         void *arg, size_t n_block, char *err, size_t err_size)
{
    const uint8_t *p = b->data, *end = b->data + b->len;
    char why[256];

    for (int64_t i = 0; i < b->n_objects; i++) {
        size_t len, items = DATUM_ITEMS_MAX;
        if (floe_avro_datum_check(schema, p, (size_t)(end - p), &len, &items, why, sizeof(why)) != 0)
            return floe_avro_fail(err, err_size, "block %zu: object %lld: %s", n_block, (long long)i + 1, why);
        avro_reader_t reader = avro_reader_memory((const char *)p, (int64_t)len);
        int rc = avro_value_read(reader, value);
        avro_reader_free(reader);
        if (rc != 0)
            return floe_avro_fail(err, err_size, "block %zu: object %lld: %.200s", n_block, (long long)i + 1,
                                  avro_strerror());
        if (fn(value, arg, why, sizeof(why)) != 0)
            return floe_avro_fail(err, err_size, "block %zu: object %lld: %s", n_block, (long long)i + 1, why);
        p += len;
    }
    if (p != end)
        return floe_avro_fail(err, err_size, "block %zu: %zu bytes after the last object", n_block, (size_t)(end - p));
    return 0;
}

int floe_avro_each_datum(floe_avro_reader_t *r, floe_avro_datum_fn fn, void *arg, char *err, size_t err_size)
{
    avro_schema_t schema;
    avro_value_iface_t *iface;
    avro_value_t value;
    floe_avro_block_t block;
    int rc;

    if (parse_schema(r, &schema, err, err_size) != 0)
        return -1;
    iface = avro_generic_class_from_schema(schema);
    if (iface == NULL || avro_generic_value_new(iface, &value) != 0) {
        if (iface != NULL)
            avro_value_iface_decref(iface);
        avro_schema_decref(schema);
        return floe_avro_fail(err, err_size, "header: avro.schema: %.200s", avro_strerror());
    }
    while ((rc = floe_avro_reader_next(r, &block, err, err_size)) == 1)
        if (each_in_block(&block, schema, &value, fn, arg, r->n_blocks, err, err_size) != 0) {
            rc = -1;
            break;
        }
    avro_value_decref(&value);
    avro_value_iface_decref(iface);
    avro_schema_decref(schema);
    return rc;
}

bool floe_avro_value_unwrap(const avro_value_t *v, avro_value_t *out)
{
    avro_value_t branch;

    *out = *v;
    if (avro_value_get_type(v) == AVRO_UNION) {
        if (avro_value_get_current_branch(v, &branch) != 0)
            return false;
        *out = branch;
    }
    return avro_value_get_type(out) != AVRO_NULL;
}

bool floe_avro_value_field(const avro_value_t *rec, const char *name, avro_value_t *out)
{
    avro_value_t child;

    if (avro_value_get_type(rec) != AVRO_RECORD || avro_value_get_by_name(rec, name, &child, NULL) != 0)
        return false;
    return floe_avro_value_unwrap(&child, out);
}

int floe_avro_value_long(const avro_value_t *v, int64_t *out)
{
    int32_t i;

    switch (avro_value_get_type(v)) {
    case AVRO_INT64:
        return avro_value_get_long(v, out) == 0 ? 0 : -1;
    case AVRO_INT32:
        if (avro_value_get_int(v, &i) != 0)
            return -1;
        *out = i;
        return 0;
    default:
        return -1;
    }
}

int floe_avro_value_int(const avro_value_t *v, int32_t *out)
{
    int64_t l;

    if (floe_avro_value_long(v, &l) != 0 || l < INT32_MIN || l > INT32_MAX)
        return -1;
    *out = (int32_t)l;
    return 0;
}

int floe_avro_value_bool(const avro_value_t *v, bool *out)
{
    int b;

    if (avro_value_get_type(v) != AVRO_BOOLEAN || avro_value_get_boolean(v, &b) != 0)
        return -1;
    *out = b != 0;
    return 0;
}

int floe_avro_value_bytes(const avro_value_t *v, floe_parquet_arena_t *arena, floe_iceberg_bytes_t *out)
{
    const void *bytes = NULL;
    const char *str = NULL;
    size_t size = 0;
    int rc;

    switch (avro_value_get_type(v)) {
    case AVRO_BYTES:
        rc = avro_value_get_bytes(v, &bytes, &size);
        break;
    case AVRO_FIXED:
        rc = avro_value_get_fixed(v, &bytes, &size);
        break;
    case AVRO_STRING:
        rc = avro_value_get_string(v, &str, &size);
        bytes = str;
        if (rc == 0 && size > 0) /* the size counts the NUL Avro C adds */
            size--;
        break;
    default:
        return -1;
    }
    if (rc != 0)
        return -1;
    out->data = floe_parquet_arena_alloc(arena, size + 1, 1);
    if (out->data == NULL)
        return -1;
    if (size > 0)
        memcpy(out->data, bytes, size);
    out->len = size;
    return 0;
}

int floe_avro_field_long(const avro_value_t *rec, const char *name, int64_t *out)
{
    avro_value_t v;

    return floe_avro_value_field(rec, name, &v) ? floe_avro_value_long(&v, out) : -1;
}

int floe_avro_field_int(const avro_value_t *rec, const char *name, int32_t *out)
{
    avro_value_t v;

    return floe_avro_value_field(rec, name, &v) ? floe_avro_value_int(&v, out) : -1;
}

int floe_avro_field_string(const avro_value_t *rec, const char *name, floe_parquet_arena_t *arena, char **out)
{
    avro_value_t v;
    floe_iceberg_bytes_t b;

    if (!floe_avro_value_field(rec, name, &v) || avro_value_get_type(&v) != AVRO_STRING ||
        floe_avro_value_bytes(&v, arena, &b) != 0)
        return -1;
    *out = (char *)b.data;
    return 0;
}

int floe_avro_field_opt_long(const avro_value_t *rec, const char *name, bool *has, int64_t *out)
{
    avro_value_t v;

    *has = floe_avro_value_field(rec, name, &v);
    return *has ? floe_avro_value_long(&v, out) : 0;
}

int floe_avro_field_opt_int(const avro_value_t *rec, const char *name, bool *has, int32_t *out)
{
    avro_value_t v;

    *has = floe_avro_value_field(rec, name, &v);
    return *has ? floe_avro_value_int(&v, out) : 0;
}

int floe_avro_field_opt_bool(const avro_value_t *rec, const char *name, bool *has, bool *out)
{
    avro_value_t v;

    *has = floe_avro_value_field(rec, name, &v);
    return *has ? floe_avro_value_bool(&v, out) : 0;
}

int floe_avro_field_opt_bytes(const avro_value_t *rec, const char *name, floe_parquet_arena_t *arena, bool *has,
                              floe_iceberg_bytes_t *out)
{
    avro_value_t v;

    *has = floe_avro_value_field(rec, name, &v);
    return *has ? floe_avro_value_bytes(&v, arena, out) : 0;
}

/*
 * Reading Iceberg manifests (manifest.h): the header's Iceberg keys, then each manifest_entry
 * datum into a floe_iceberg_manifest_entry_t. Fields are found by name in the writer's schema, so
 * v1 and v2 files, Java's and avsc's, read the same way; what a v1 file lacks stays absent (or
 * its v1 default: content 0, "data").
 *
 * Partition values become Iceberg's single-value binary form (spec Appendix D) from their Avro
 * type, refined by the Iceberg type when the header's schema and partition-spec can be bound
 * (an int Avro value of a long column widens to 8 bytes; a decimal loses its sign padding).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iceberg/avro_value.h"
#include "iceberg/manifest.h"
#include "iceberg/manifest_binary.h"
#include "iceberg/manifest_schema.h"

/** Room for a reason before a prefix is added. */
#define REASON_MAX 256
/** The first room for entries; doubled as needed. */
#define ENTRIES_INITIAL 16

typedef struct read_ctx {
    floe_iceberg_manifest_t *m;
    size_t cap;
    floe_iceberg_partition_field_t *fields; /* NULL when the header's schema and spec do not bind */
    size_t n_fields;
} read_ctx_t;

/* ---- header ---- */

static int meta_int(const floe_avro_reader_t *r, const char *key, int32_t dflt, int32_t *out)
{
    const floe_avro_meta_t *m = floe_avro_reader_meta(r, key);
    char *end;
    long long v;

    *out = dflt;
    if (m == NULL)
        return 0;
    v = strtoll((const char *)m->value, &end, 10);
    if (end == (const char *)m->value || *end != '\0' || v < INT32_MIN || v > INT32_MAX)
        return -1;
    *out = (int32_t)v;
    return 0;
}

static int read_header(const floe_avro_reader_t *r, floe_iceberg_manifest_t *m, char *err, size_t err_size)
{
    const floe_avro_meta_t *schema = floe_avro_reader_meta(r, "schema");
    const floe_avro_meta_t *spec = floe_avro_reader_meta(r, "partition-spec");
    const floe_avro_meta_t *content = floe_avro_reader_meta(r, "content");

    m->schema_json = schema != NULL ? (char *)schema->value : NULL;
    m->partition_spec_json = spec != NULL ? (char *)spec->value : NULL;
    if (meta_int(r, "schema-id", 0, &m->schema_id) != 0 ||
        meta_int(r, "partition-spec-id", 0, &m->partition_spec_id) != 0 ||
        meta_int(r, "format-version", 1, &m->format_version) != 0)
        return floe_avro_fail(err, err_size, "header: schema-id, partition-spec-id or format-version is not an int");
    if (content == NULL || strcmp((const char *)content->value, "data") == 0)
        m->content = 0;
    else if (strcmp((const char *)content->value, "deletes") == 0)
        m->content = 1;
    else if (meta_int(r, "content", 0, &m->content) != 0)
        return floe_avro_fail(err, err_size, "header: content is neither data nor deletes");
    return 0;
}

/* ---- partition tuple ---- */

static int read_partition(const avro_value_t *df, read_ctx_t *c, floe_iceberg_data_file_t *f)
{
    avro_value_t rec, v;
    size_t n;

    if (!floe_avro_value_field(df, "partition", &rec)) /* an unpartitioned writer may leave it out */
        return 0;
    if (avro_value_get_type(&rec) != AVRO_RECORD || avro_value_get_size(&rec, &n) != 0)
        return -1;
    f->partition = floe_parquet_arena_alloc(c->m->arena, n, sizeof(*f->partition));
    if (n > 0 && f->partition == NULL)
        return -1;
    f->n_partition = n;
    for (size_t i = 0; i < n; i++) {
        avro_value_t child;
        const floe_iceberg_primitive_t *type = c->fields != NULL && c->n_fields == n ? &c->fields[i].type : NULL;
        if (avro_value_get_by_index(&rec, i, &child, NULL) != 0)
            return -1;
        f->partition[i].is_null = !floe_avro_value_unwrap(&child, &v);
        if (!f->partition[i].is_null &&
            floe_iceberg_binary_from_avro(&v, type, c->m->arena, &f->partition[i].value) != 0)
            return -1;
    }
    return 0;
}

/* ---- column statistics maps ---- */

/* One key/value pair of a map: Java's array of {key, value} records, or an Avro map whose keys
 * are the field ids in decimal. */
static int map_item(const avro_value_t *map, size_t i, int32_t *key, avro_value_t *value)
{
    avro_value_t item, k;
    const char *name;
    char *end;

    if (avro_value_get_by_index(map, i, &item, &name) != 0)
        return -1;
    if (avro_value_get_type(map) == AVRO_MAP) {
        long v = strtol(name, &end, 10);
        if (end == name || *end != '\0' || v < INT32_MIN || v > INT32_MAX)
            return -1;
        *key = (int32_t)v;
        return floe_avro_value_unwrap(&item, value) ? 0 : -1;
    }
    if (!floe_avro_value_field(&item, "key", &k) || floe_avro_value_int(&k, key) != 0)
        return -1;
    return floe_avro_value_field(&item, "value", value) ? 0 : -1;
}

/* The map field `name` of the data file: its size, 0 when absent. */
static int map_field(const avro_value_t *df, const char *name, avro_value_t *map, size_t *n)
{
    *n = 0;
    if (!floe_avro_value_field(df, name, map))
        return 0;
    if (avro_value_get_type(map) != AVRO_ARRAY && avro_value_get_type(map) != AVRO_MAP)
        return -1;
    return avro_value_get_size(map, n) == 0 ? 0 : -1;
}

static int read_counts(const avro_value_t *df, const char *name, floe_parquet_arena_t *arena,
                       floe_iceberg_count_t **out, size_t *n_out)
{
    avro_value_t map, v;
    size_t n;

    if (map_field(df, name, &map, &n) != 0)
        return -1;
    *out = floe_parquet_arena_alloc(arena, n, sizeof(**out));
    if (n > 0 && *out == NULL)
        return -1;
    for (size_t i = 0; i < n; i++)
        if (map_item(&map, i, &(*out)[i].field_id, &v) != 0 || floe_avro_value_long(&v, &(*out)[i].value) != 0)
            return -1;
    *n_out = n;
    return 0;
}

static int read_bounds(const avro_value_t *df, const char *name, floe_parquet_arena_t *arena,
                       floe_iceberg_bound_t **out, size_t *n_out)
{
    avro_value_t map, v;
    size_t n;

    if (map_field(df, name, &map, &n) != 0)
        return -1;
    *out = floe_parquet_arena_alloc(arena, n, sizeof(**out));
    if (n > 0 && *out == NULL)
        return -1;
    for (size_t i = 0; i < n; i++)
        if (map_item(&map, i, &(*out)[i].field_id, &v) != 0 ||
            floe_avro_value_bytes(&v, arena, &(*out)[i].value) != 0)
            return -1;
    *n_out = n;
    return 0;
}

/* A list of ints or longs (split_offsets, equality_ids), as longs or ints. */
static int read_list(const avro_value_t *df, const char *name, floe_parquet_arena_t *arena, bool is_long,
                     void **out, size_t *n_out)
{
    avro_value_t list, item, v;
    size_t n;

    *n_out = 0;
    if (!floe_avro_value_field(df, name, &list))
        return 0;
    if (avro_value_get_type(&list) != AVRO_ARRAY || avro_value_get_size(&list, &n) != 0)
        return -1;
    *out = floe_parquet_arena_alloc(arena, n, is_long ? sizeof(int64_t) : sizeof(int32_t));
    if (n > 0 && *out == NULL)
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (avro_value_get_by_index(&list, i, &item, NULL) != 0 || !floe_avro_value_unwrap(&item, &v))
            return -1;
        if (is_long ? floe_avro_value_long(&v, &((int64_t *)*out)[i]) : floe_avro_value_int(&v, &((int32_t *)*out)[i]))
            return -1;
    }
    *n_out = n;
    return 0;
}

/* ---- one entry ---- */

static int read_stats(const avro_value_t *df, floe_parquet_arena_t *a, floe_iceberg_data_file_t *f)
{
    return read_counts(df, "column_sizes", a, &f->column_sizes, &f->n_column_sizes) ||
           read_counts(df, "value_counts", a, &f->value_counts, &f->n_value_counts) ||
           read_counts(df, "null_value_counts", a, &f->null_value_counts, &f->n_null_value_counts) ||
           read_counts(df, "nan_value_counts", a, &f->nan_value_counts, &f->n_nan_value_counts) ||
           read_bounds(df, "lower_bounds", a, &f->lower_bounds, &f->n_lower_bounds) ||
           read_bounds(df, "upper_bounds", a, &f->upper_bounds, &f->n_upper_bounds)
               ? -1
               : 0;
}

/* The v3 members; absent (as in v1 and v2 files) or null is "not set". */
static int read_v3_fields(const avro_value_t *df, floe_parquet_arena_t *a, floe_iceberg_data_file_t *f)
{
    avro_value_t v;

    if (floe_avro_field_opt_long(df, "first_row_id", &f->has_first_row_id, &f->first_row_id) != 0 ||
        floe_avro_field_opt_long(df, "content_offset", &f->has_content_offset, &f->content_offset) != 0 ||
        floe_avro_field_opt_long(df, "content_size_in_bytes", &f->has_content_size_in_bytes,
                                 &f->content_size_in_bytes) != 0)
        return -1;
    if (floe_avro_value_field(df, "referenced_data_file", &v) &&
        floe_avro_field_string(df, "referenced_data_file", a, &f->referenced_data_file) != 0)
        return -1;
    return 0;
}

static int read_data_file(const avro_value_t *entry, read_ctx_t *c, floe_iceberg_data_file_t *f, char *err,
                          size_t err_size)
{
    floe_parquet_arena_t *a = c->m->arena;
    avro_value_t df;
    bool has_content;

    if (!floe_avro_value_field(entry, "data_file", &df) || avro_value_get_type(&df) != AVRO_RECORD)
        return floe_avro_fail(err, err_size, "no data_file");
    if (floe_avro_field_opt_int(&df, "content", &has_content, &f->content) != 0 ||
        floe_avro_field_string(&df, "file_path", a, &f->file_path) != 0 ||
        floe_avro_field_string(&df, "file_format", a, &f->file_format) != 0 ||
        floe_avro_field_long(&df, "record_count", &f->record_count) != 0 ||
        floe_avro_field_long(&df, "file_size_in_bytes", &f->file_size_in_bytes) != 0)
        return floe_avro_fail(err, err_size, "data_file: content, file_path, file_format, record_count or "
                                             "file_size_in_bytes is missing or of the wrong type");
    if (read_partition(&df, c, f) != 0)
        return floe_avro_fail(err, err_size, "data_file: invalid partition");
    if (read_stats(&df, a, f) != 0)
        return floe_avro_fail(err, err_size, "data_file: invalid column statistics");
    if (floe_avro_field_opt_bytes(&df, "key_metadata", a, &f->has_key_metadata, &f->key_metadata) != 0 ||
        read_list(&df, "split_offsets", a, true, (void **)&f->split_offsets, &f->n_split_offsets) != 0 ||
        read_list(&df, "equality_ids", a, false, (void **)&f->equality_ids, &f->n_equality_ids) != 0 ||
        floe_avro_field_opt_int(&df, "sort_order_id", &f->has_sort_order_id, &f->sort_order_id) != 0)
        return floe_avro_fail(err, err_size, "data_file: invalid key_metadata, split_offsets, equality_ids or "
                                             "sort_order_id");
    if (read_v3_fields(&df, a, f) != 0)
        return floe_avro_fail(err, err_size, "data_file: invalid first_row_id, referenced_data_file, "
                                             "content_offset or content_size_in_bytes");
    return 0;
}

static floe_iceberg_manifest_entry_t *next_entry(read_ctx_t *c)
{
    floe_iceberg_manifest_t *m = c->m;

    if (m->n_entries == c->cap) {
        size_t cap = c->cap == 0 ? ENTRIES_INITIAL : c->cap * 2;
        floe_iceberg_manifest_entry_t *grown = floe_parquet_arena_alloc(m->arena, cap, sizeof(*grown));
        if (grown == NULL)
            return NULL;
        if (m->n_entries > 0)
            memcpy(grown, m->entries, m->n_entries * sizeof(*grown));
        m->entries = grown;
        c->cap = cap;
    }
    return &m->entries[m->n_entries++];
}

static int on_entry(avro_value_t *d, void *arg, char *err, size_t err_size)
{
    read_ctx_t *c = arg;
    floe_iceberg_manifest_entry_t *e = next_entry(c);

    if (e == NULL)
        return floe_avro_fail(err, err_size, "out of memory (more than %zu bytes)", FLOE_ICEBERG_MANIFEST_ALLOC_MAX);
    if (floe_avro_field_int(d, "status", &e->status) != 0 || e->status < FLOE_ICEBERG_ENTRY_EXISTING ||
        e->status > FLOE_ICEBERG_ENTRY_DELETED)
        return floe_avro_fail(err, err_size, "status is missing or not 0, 1 or 2");
    if (floe_avro_field_opt_long(d, "snapshot_id", &e->has_snapshot_id, &e->snapshot_id) != 0 ||
        floe_avro_field_opt_long(d, "sequence_number", &e->has_sequence_number, &e->sequence_number) != 0 ||
        floe_avro_field_opt_long(d, "file_sequence_number", &e->has_file_sequence_number,
                                 &e->file_sequence_number) != 0)
        return floe_avro_fail(err, err_size, "snapshot_id or a sequence number is not a long");
    return read_data_file(d, c, &e->file, err, err_size);
}

int floe_iceberg_manifest_read(const uint8_t *data, size_t len, floe_iceberg_manifest_t *out, char *err,
                               size_t err_size)
{
    floe_avro_reader_t r;
    read_ctx_t c = {.m = out};
    char why[REASON_MAX], ignored[REASON_MAX];
    int rc = -1;

    memset(out, 0, sizeof(*out));
    out->arena = floe_parquet_arena_new(FLOE_ICEBERG_MANIFEST_ALLOC_MAX);
    if (floe_avro_reader_open(&r, data, len, out->arena, why, sizeof(why)) != 0 ||
        read_header(&r, out, why, sizeof(why)) != 0)
        goto Exit;
    if (floe_iceberg_partition_fields(out->schema_json, out->partition_spec_json, &c.fields, &c.n_fields, ignored,
                                      sizeof(ignored)) != 0)
        c.fields = NULL; /* types unknown: partition values keep their Avro form */
    rc = floe_avro_each_datum(&r, on_entry, &c, why, sizeof(why));
Exit:
    floe_avro_reader_close(&r);
    floe_iceberg_partition_fields_free(c.fields, c.n_fields);
    if (rc != 0) {
        floe_iceberg_manifest_dispose(out);
        floe_avro_fail(err, err_size, "manifest: %s", why);
    }
    return rc;
}

void floe_iceberg_manifest_dispose(floe_iceberg_manifest_t *m)
{
    floe_parquet_arena_free(m->arena);
    memset(m, 0, sizeof(*m));
}

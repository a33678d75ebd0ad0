/*
 * Writing Iceberg v2 manifests (manifest.h): the manifest_entry schema for the table's partition
 * spec (manifest_schema.h), each entry set into an Avro C value and encoded by Avro C, then the
 * container with the header keys Iceberg Java writes (ManifestWriter.V2Writer): schema,
 * schema-id, partition-spec, partition-spec-id, format-version and content ("data" or
 * "deletes").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "iceberg/avro_container.h"
#include "iceberg/manifest.h"
#include "iceberg/manifest_binary.h"
#include "iceberg/manifest_schema.h"
#include "iceberg/manifest_write.h"

/** Union branches of the ["null", T] fields Floe writes. */
#define BRANCH_NULL 0
#define BRANCH_VALUE 1
#define INT_TEXT_MAX 24

/* ---- setting fields ---- */

static int child(avro_value_t *rec, const char *name, avro_value_t *out)
{
    return avro_value_get_by_name(rec, name, out, NULL) == 0 ? 0 : -1;
}

int floe_manifest_set_null_field(avro_value_t *rec, const char *name)
{
    avro_value_t f, b;

    return child(rec, name, &f) == 0 && avro_value_set_branch(&f, BRANCH_NULL, &b) == 0 &&
                   avro_value_set_null(&b) == 0
               ? 0
               : -1;
}

int floe_manifest_set_opt_field(avro_value_t *rec, const char *name, avro_value_t *value)
{
    avro_value_t f;

    return child(rec, name, &f) == 0 && avro_value_set_branch(&f, BRANCH_VALUE, value) == 0 ? 0 : -1;
}

int floe_manifest_set_int_field(avro_value_t *rec, const char *name, int32_t v)
{
    avro_value_t f;

    return child(rec, name, &f) == 0 && avro_value_set_int(&f, v) == 0 ? 0 : -1;
}

int floe_manifest_set_long_field(avro_value_t *rec, const char *name, int64_t v)
{
    avro_value_t f;

    return child(rec, name, &f) == 0 && avro_value_set_long(&f, v) == 0 ? 0 : -1;
}

int floe_manifest_set_string_field(avro_value_t *rec, const char *name, const char *s)
{
    avro_value_t f;

    return s != NULL && child(rec, name, &f) == 0 && avro_value_set_string(&f, s) == 0 ? 0 : -1;
}

int floe_manifest_set_opt_long_field(avro_value_t *rec, const char *name, bool has, int64_t v)
{
    avro_value_t b;

    if (!has)
        return floe_manifest_set_null_field(rec, name);
    return floe_manifest_set_opt_field(rec, name, &b) == 0 && avro_value_set_long(&b, v) == 0 ? 0 : -1;
}

int floe_manifest_set_opt_int_field(avro_value_t *rec, const char *name, bool has, int32_t v)
{
    avro_value_t b;

    if (!has)
        return floe_manifest_set_null_field(rec, name);
    return floe_manifest_set_opt_field(rec, name, &b) == 0 && avro_value_set_int(&b, v) == 0 ? 0 : -1;
}

int floe_manifest_set_opt_bytes_field(avro_value_t *rec, const char *name, bool has, floe_iceberg_bytes_t v)
{
    avro_value_t b;

    if (!has)
        return floe_manifest_set_null_field(rec, name);
    return floe_manifest_set_opt_field(rec, name, &b) == 0 && avro_value_set_bytes(&b, v.data, v.len) == 0 ? 0 : -1;
}

/* ---- the data file ---- */

static int set_partition(avro_value_t *df, const floe_iceberg_data_file_t *f, const floe_iceberg_partition_field_t *fields,
                         size_t n_fields)
{
    avro_value_t rec, field, b;

    if (f->n_partition != n_fields || child(df, "partition", &rec) != 0)
        return -1;
    for (size_t i = 0; i < n_fields; i++) {
        if (avro_value_get_by_index(&rec, i, &field, NULL) != 0)
            return -1;
        if (f->partition[i].is_null) {
            if (avro_value_set_branch(&field, BRANCH_NULL, &b) != 0 || avro_value_set_null(&b) != 0)
                return -1;
        } else if (avro_value_set_branch(&field, BRANCH_VALUE, &b) != 0 ||
                   floe_iceberg_binary_to_avro(&b, &fields[i].type, f->partition[i].value) != 0) {
            return -1;
        }
    }
    return 0;
}

/* A count or bound map as Java writes it: null when empty, else an array of {key, value}. */
static int set_map(avro_value_t *df, const char *name, size_t n, const floe_iceberg_count_t *counts,
                   const floe_iceberg_bound_t *bounds)
{
    avro_value_t array, item, key, value;

    if (n == 0)
        return floe_manifest_set_null_field(df, name);
    if (floe_manifest_set_opt_field(df, name, &array) != 0)
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (avro_value_append(&array, &item, NULL) != 0 || child(&item, "key", &key) != 0 ||
            child(&item, "value", &value) != 0)
            return -1;
        if (counts != NULL ? avro_value_set_int(&key, counts[i].field_id) != 0 ||
                                 avro_value_set_long(&value, counts[i].value) != 0
                           : avro_value_set_int(&key, bounds[i].field_id) != 0 ||
                                 avro_value_set_bytes(&value, bounds[i].value.data, bounds[i].value.len) != 0)
            return -1;
    }
    return 0;
}

static int set_list(avro_value_t *df, const char *name, size_t n, const int64_t *longs, const int32_t *ints)
{
    avro_value_t array, item;

    if (n == 0)
        return floe_manifest_set_null_field(df, name);
    if (floe_manifest_set_opt_field(df, name, &array) != 0)
        return -1;
    for (size_t i = 0; i < n; i++)
        if (avro_value_append(&array, &item, NULL) != 0 ||
            (longs != NULL ? avro_value_set_long(&item, longs[i]) : avro_value_set_int(&item, ints[i])) != 0)
            return -1;
    return 0;
}

static int set_stats(avro_value_t *df, const floe_iceberg_data_file_t *f)
{
    return set_map(df, "column_sizes", f->n_column_sizes, f->column_sizes, NULL) ||
           set_map(df, "value_counts", f->n_value_counts, f->value_counts, NULL) ||
           set_map(df, "null_value_counts", f->n_null_value_counts, f->null_value_counts, NULL) ||
           set_map(df, "nan_value_counts", f->n_nan_value_counts, f->nan_value_counts, NULL) ||
           set_map(df, "lower_bounds", f->n_lower_bounds, NULL, f->lower_bounds) ||
           set_map(df, "upper_bounds", f->n_upper_bounds, NULL, f->upper_bounds)
               ? -1
               : 0;
}

/* first_row_id, referenced_data_file, content_offset, content_size_in_bytes (v3). */
static int set_v3_fields(avro_value_t *df, const floe_iceberg_data_file_t *f)
{
    avro_value_t b;

    if (floe_manifest_set_opt_long_field(df, "first_row_id", f->has_first_row_id, f->first_row_id) != 0 ||
        floe_manifest_set_opt_long_field(df, "content_offset", f->has_content_offset, f->content_offset) != 0 ||
        floe_manifest_set_opt_long_field(df, "content_size_in_bytes", f->has_content_size_in_bytes,
                                         f->content_size_in_bytes) != 0)
        return -1;
    if (f->referenced_data_file == NULL)
        return floe_manifest_set_null_field(df, "referenced_data_file");
    return floe_manifest_set_opt_field(df, "referenced_data_file", &b) == 0 &&
                   avro_value_set_string(&b, f->referenced_data_file) == 0
               ? 0
               : -1;
}

static int set_entry(avro_value_t *e, const floe_iceberg_manifest_entry_t *entry, int format_version,
                     const floe_iceberg_partition_field_t *fields, size_t n_fields, char *err, size_t err_size)
{
    const floe_iceberg_data_file_t *f = &entry->file;
    avro_value_t df;

    if (floe_manifest_set_int_field(e, "status", entry->status) != 0 ||
        floe_manifest_set_opt_long_field(e, "snapshot_id", entry->has_snapshot_id, entry->snapshot_id) != 0 ||
        floe_manifest_set_opt_long_field(e, "sequence_number", entry->has_sequence_number, entry->sequence_number) != 0 ||
        floe_manifest_set_opt_long_field(e, "file_sequence_number", entry->has_file_sequence_number,
                                     entry->file_sequence_number) != 0 ||
        child(e, "data_file", &df) != 0)
        return floe_avro_fail(err, err_size, "cannot set status, snapshot_id or sequence numbers");
    if (floe_manifest_set_int_field(&df, "content", f->content) != 0 ||
        floe_manifest_set_string_field(&df, "file_path", f->file_path) != 0 ||
        floe_manifest_set_string_field(&df, "file_format", f->file_format) != 0 ||
        floe_manifest_set_long_field(&df, "record_count", f->record_count) != 0 ||
        floe_manifest_set_long_field(&df, "file_size_in_bytes", f->file_size_in_bytes) != 0)
        return floe_avro_fail(err, err_size, "file_path and file_format are required");
    if (set_partition(&df, f, fields, n_fields) != 0)
        return floe_avro_fail(err, err_size, "partition: %zu values for %zu spec fields, or a value that does not "
                                             "fit its type", f->n_partition, n_fields);
    if (set_stats(&df, f) != 0 ||
        floe_manifest_set_opt_bytes_field(&df, "key_metadata", f->has_key_metadata, f->key_metadata) != 0 ||
        set_list(&df, "split_offsets", f->n_split_offsets, f->split_offsets, NULL) != 0 ||
        set_list(&df, "equality_ids", f->n_equality_ids, NULL, f->equality_ids) != 0 ||
        floe_manifest_set_opt_int_field(&df, "sort_order_id", f->has_sort_order_id, f->sort_order_id) != 0)
        return floe_avro_fail(err, err_size, "cannot set column statistics or optional fields");
    if (format_version >= 3 && set_v3_fields(&df, f) != 0)
        return floe_avro_fail(err, err_size, "cannot set the v3 fields");
    return 0;
}

/* ---- the file ---- */

int floe_manifest_encode_all(const char *schema_json, size_t n, floe_manifest_set_fn set, const void *arg,
                         floe_avro_buf_t *datums, size_t *offsets, char *err, size_t err_size)
{
    avro_schema_t schema;
    avro_value_iface_t *iface;
    avro_value_t value;
    char why[256];
    int rc = 0;

    if (avro_schema_from_json_length(schema_json, strlen(schema_json), &schema) != 0)
        return floe_avro_fail(err, err_size, "Avro C refuses the schema: %.200s", avro_strerror());
    iface = avro_generic_class_from_schema(schema);
    if (iface == NULL || avro_generic_value_new(iface, &value) != 0)
        abort(); /* Avro C fails here only when memory runs out */
    offsets[0] = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        size_t size;
        avro_value_reset(&value);
        if (set(&value, arg, i, why, sizeof(why)) != 0 || avro_value_sizeof(&value, &size) != 0) {
            rc = floe_avro_fail(err, err_size, "entry %zu: %s", i + 1, why);
            break;
        }
        uint8_t *buf = floe_xmalloc(size > 0 ? size : 1);
        avro_writer_t w = avro_writer_memory((const char *)buf, (int64_t)size);
        if (avro_value_write(w, &value) != 0)
            rc = floe_avro_fail(err, err_size, "entry %zu: %.200s", i + 1, avro_strerror());
        else
            floe_avro_buf_append(datums, buf, size);
        avro_writer_free(w);
        free(buf);
        offsets[i + 1] = datums->len;
    }
    avro_value_decref(&value);
    avro_value_iface_decref(iface);
    avro_schema_decref(schema);
    return rc;
}

int floe_manifest_write_file(const char *schema_json, floe_avro_meta_t *meta, size_t n_meta, size_t n, floe_manifest_set_fn set,
                         const void *arg, uint8_t **out, size_t *out_len, char *err, size_t err_size)
{
    floe_avro_buf_t datums = {0}, file = {0};
    size_t *offsets = floe_xcalloc(n + 1, sizeof(*offsets));
    int rc;

    meta[n_meta++] = (floe_avro_meta_t){"avro.schema", (uint8_t *)schema_json, strlen(schema_json)};
    meta[n_meta++] = (floe_avro_meta_t){"avro.codec", (uint8_t *)"deflate", strlen("deflate")};
    rc = floe_manifest_encode_all(schema_json, n, set, arg, &datums, offsets, err, err_size);
    if (rc == 0)
        rc = floe_avro_container_write(&file, meta, n_meta, datums.data, offsets, n, true, err, err_size);
    free(offsets);
    floe_avro_buf_dispose(&datums);
    if (rc != 0) {
        floe_avro_buf_dispose(&file);
        return -1;
    }
    *out = file.data;
    *out_len = file.len;
    return 0;
}

typedef struct write_ctx {
    const floe_iceberg_manifest_t *m;
    const floe_iceberg_partition_field_t *fields;
    size_t n_fields;
} write_ctx_t;

static int on_set_entry(avro_value_t *value, const void *arg, size_t i, char *err, size_t err_size)
{
    const write_ctx_t *c = arg;

    return set_entry(value, &c->m->entries[i], c->m->format_version, c->fields, c->n_fields, err, err_size);
}

static floe_avro_meta_t text_meta(const char *key, const char *value)
{
    return (floe_avro_meta_t){(char *)key, (uint8_t *)value, strlen(value)};
}

int floe_iceberg_manifest_write(const floe_iceberg_manifest_t *m, uint8_t **out, size_t *out_len, char *err,
                                size_t err_size)
{
    write_ctx_t c = {.m = m};
    char why[256], schema_id[INT_TEXT_MAX], spec_id[INT_TEXT_MAX];
    floe_avro_meta_t meta[FLOE_ICEBERG_MANIFEST_META_MAX];
    char *avro_schema;
    int rc;

    if (floe_iceberg_partition_fields(m->schema_json, m->partition_spec_json, (floe_iceberg_partition_field_t **)&c.fields,
                                      &c.n_fields, why, sizeof(why)) != 0)
        return floe_avro_fail(err, err_size, "manifest: %s", why);
    snprintf(schema_id, sizeof(schema_id), "%d", m->schema_id);
    snprintf(spec_id, sizeof(spec_id), "%d", m->partition_spec_id);
    meta[0] = text_meta("schema", m->schema_json);
    meta[1] = text_meta("schema-id", schema_id);
    meta[2] = text_meta("partition-spec", m->partition_spec_json);
    meta[3] = text_meta("partition-spec-id", spec_id);
    meta[4] = text_meta("format-version", m->format_version >= 3 ? "3" : "2");
    meta[5] = text_meta("content", m->content == 0 ? "data" : "deletes");
    avro_schema = floe_iceberg_manifest_entry_schema_json(c.fields, c.n_fields, m->format_version);
    rc = floe_manifest_write_file(avro_schema, meta, 6, m->n_entries, on_set_entry, &c, out, out_len, why, sizeof(why));
    free(avro_schema);
    floe_iceberg_partition_fields_free((floe_iceberg_partition_field_t *)c.fields, c.n_fields);
    return rc == 0 ? 0 : floe_avro_fail(err, err_size, "manifest: %s", why);
}

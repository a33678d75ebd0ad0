/*
 * Iceberg manifest lists (manifest.h): a snapshot's manifest_file records, read from v1 or v2
 * files and written as v2 with the header keys of Iceberg Java's ManifestListWriter.V2Writer
 * (snapshot-id, parent-snapshot-id, sequence-number, format-version).
 *
 * v1 lists name the file counts added_data_files_count, existing_data_files_count and
 * deleted_data_files_count and may leave counts null; they have no content or sequence numbers,
 * which read as 0 (the spec's v1 defaults: data manifests, sequence number 0).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iceberg/avro_value.h"
#include "iceberg/manifest.h"
#include "iceberg/manifest_schema.h"
#include "iceberg/manifest_write.h"

#define REASON_MAX 256
#define FILES_INITIAL 16
#define INT_TEXT_MAX 24

/* ---- reading ---- */

typedef struct read_ctx {
    floe_iceberg_manifest_list_t *l;
    size_t cap;
} read_ctx_t;

static int meta_long(const floe_avro_reader_t *r, const char *key, bool *has, int64_t *out)
{
    const floe_avro_meta_t *m = floe_avro_reader_meta(r, key);
    char *end;

    *has = false;
    if (m == NULL || strcmp((const char *)m->value, "null") == 0)
        return 0;
    *out = strtoll((const char *)m->value, &end, 10);
    if (end == (const char *)m->value || *end != '\0')
        return -1;
    *has = true;
    return 0;
}

static int read_header(const floe_avro_reader_t *r, floe_iceberg_manifest_list_t *l, char *err, size_t err_size)
{
    bool has_snapshot, has_seq, has_version;
    int64_t version = 1;

    if (meta_long(r, "snapshot-id", &has_snapshot, &l->snapshot_id) != 0 ||
        meta_long(r, "parent-snapshot-id", &l->has_parent_snapshot_id, &l->parent_snapshot_id) != 0 ||
        meta_long(r, "sequence-number", &has_seq, &l->sequence_number) != 0 ||
        meta_long(r, "format-version", &has_version, &version) != 0 || version < 1 || version > INT32_MAX)
        return floe_avro_fail(err, err_size, "header: snapshot-id, parent-snapshot-id, sequence-number or "
                                             "format-version is not an integer");
    l->format_version = (int32_t)version;
    return 0;
}

/* A count under its v2 name or its v1 name; null or absent is 0. */
static int read_count(const avro_value_t *d, const char *v2, const char *v1, int64_t *out)
{
    bool has;

    *out = 0;
    if (floe_avro_field_opt_long(d, v2, &has, out) != 0)
        return -1;
    return has || v1 == NULL ? 0 : floe_avro_field_opt_long(d, v1, &has, out);
}

static int read_counts(const avro_value_t *d, floe_iceberg_manifest_file_t *f)
{
    int64_t files[3];

    if (read_count(d, "added_files_count", "added_data_files_count", &files[0]) != 0 ||
        read_count(d, "existing_files_count", "existing_data_files_count", &files[1]) != 0 ||
        read_count(d, "deleted_files_count", "deleted_data_files_count", &files[2]) != 0 ||
        read_count(d, "added_rows_count", NULL, &f->added_rows_count) != 0 ||
        read_count(d, "existing_rows_count", NULL, &f->existing_rows_count) != 0 ||
        read_count(d, "deleted_rows_count", NULL, &f->deleted_rows_count) != 0)
        return -1;
    for (int i = 0; i < 3; i++)
        if (files[i] < INT32_MIN || files[i] > INT32_MAX)
            return -1;
    f->added_files_count = (int32_t)files[0];
    f->existing_files_count = (int32_t)files[1];
    f->deleted_files_count = (int32_t)files[2];
    return 0;
}

static int read_summary(const avro_value_t *item, floe_parquet_arena_t *a, floe_iceberg_field_summary_t *s)
{
    avro_value_t v, cn;

    if (!floe_avro_value_unwrap(item, &v) || !floe_avro_value_field(&v, "contains_null", &cn) ||
        floe_avro_value_bool(&cn, &s->contains_null) != 0)
        return -1;
    return floe_avro_field_opt_bool(&v, "contains_nan", &s->has_contains_nan, &s->contains_nan) ||
                   floe_avro_field_opt_bytes(&v, "lower_bound", a, &s->has_lower_bound, &s->lower_bound) ||
                   floe_avro_field_opt_bytes(&v, "upper_bound", a, &s->has_upper_bound, &s->upper_bound)
               ? -1
               : 0;
}

static int read_partitions(const avro_value_t *d, floe_parquet_arena_t *a, floe_iceberg_manifest_file_t *f)
{
    avro_value_t list, item;
    size_t n;

    if (!floe_avro_value_field(d, "partitions", &list))
        return 0;
    if (avro_value_get_type(&list) != AVRO_ARRAY || avro_value_get_size(&list, &n) != 0)
        return -1;
    f->partitions = floe_parquet_arena_alloc(a, n, sizeof(*f->partitions));
    if (n > 0 && f->partitions == NULL)
        return -1;
    f->n_partitions = n;
    for (size_t i = 0; i < n; i++)
        if (avro_value_get_by_index(&list, i, &item, NULL) != 0 || read_summary(&item, a, &f->partitions[i]) != 0)
            return -1;
    return 0;
}

static floe_iceberg_manifest_file_t *next_file(read_ctx_t *c)
{
    floe_iceberg_manifest_list_t *l = c->l;

    if (l->n_files == c->cap) {
        size_t cap = c->cap == 0 ? FILES_INITIAL : c->cap * 2;
        floe_iceberg_manifest_file_t *grown = floe_parquet_arena_alloc(l->arena, cap, sizeof(*grown));
        if (grown == NULL)
            return NULL;
        if (l->n_files > 0)
            memcpy(grown, l->files, l->n_files * sizeof(*grown));
        l->files = grown;
        c->cap = cap;
    }
    return &l->files[l->n_files++];
}

static int on_file(avro_value_t *d, void *arg, char *err, size_t err_size)
{
    read_ctx_t *c = arg;
    floe_parquet_arena_t *a = c->l->arena;
    floe_iceberg_manifest_file_t *f = next_file(c);
    bool has;

    if (f == NULL)
        return floe_avro_fail(err, err_size, "out of memory (more than %zu bytes)", FLOE_ICEBERG_MANIFEST_ALLOC_MAX);
    if (floe_avro_field_string(d, "manifest_path", a, &f->manifest_path) != 0 ||
        floe_avro_field_long(d, "manifest_length", &f->manifest_length) != 0 ||
        floe_avro_field_int(d, "partition_spec_id", &f->partition_spec_id) != 0 ||
        floe_avro_field_long(d, "added_snapshot_id", &f->added_snapshot_id) != 0)
        return floe_avro_fail(err, err_size, "manifest_path, manifest_length, partition_spec_id or added_snapshot_id "
                                             "is missing or of the wrong type");
    if (floe_avro_field_opt_int(d, "content", &has, &f->content) != 0 ||
        floe_avro_field_opt_long(d, "sequence_number", &has, &f->sequence_number) != 0 ||
        floe_avro_field_opt_long(d, "min_sequence_number", &has, &f->min_sequence_number) != 0 ||
        read_counts(d, f) != 0)
        return floe_avro_fail(err, err_size, "content, a sequence number or a count is of the wrong type");
    if (read_partitions(d, a, f) != 0)
        return floe_avro_fail(err, err_size, "invalid partitions field summaries");
    if (floe_avro_field_opt_bytes(d, "key_metadata", a, &f->has_key_metadata, &f->key_metadata) != 0)
        return floe_avro_fail(err, err_size, "key_metadata is not bytes");
    if (floe_avro_field_opt_long(d, "first_row_id", &f->has_first_row_id, &f->first_row_id) != 0)
        return floe_avro_fail(err, err_size, "first_row_id is not a long");
    return 0;
}

int floe_iceberg_manifest_list_read(const uint8_t *data, size_t len, floe_iceberg_manifest_list_t *out, char *err,
                                    size_t err_size)
{
    floe_avro_reader_t r;
    read_ctx_t c = {.l = out};
    char why[REASON_MAX];
    int rc = -1;

    memset(out, 0, sizeof(*out));
    out->arena = floe_parquet_arena_new(FLOE_ICEBERG_MANIFEST_ALLOC_MAX);
    if (floe_avro_reader_open(&r, data, len, out->arena, why, sizeof(why)) == 0 &&
        read_header(&r, out, why, sizeof(why)) == 0)
        rc = floe_avro_each_datum(&r, on_file, &c, why, sizeof(why));
    floe_avro_reader_close(&r);
    if (rc != 0) {
        floe_iceberg_manifest_list_dispose(out);
        floe_avro_fail(err, err_size, "manifest list: %s", why);
    }
    return rc;
}

void floe_iceberg_manifest_list_dispose(floe_iceberg_manifest_list_t *l)
{
    floe_parquet_arena_free(l->arena);
    memset(l, 0, sizeof(*l));
}

/* ---- writing ---- */

static int set_partitions(avro_value_t *d, const floe_iceberg_manifest_file_t *f)
{
    avro_value_t list, item;

    if (f->n_partitions == 0 && f->partitions == NULL)
        return floe_manifest_set_null_field(d, "partitions");
    if (floe_manifest_set_opt_field(d, "partitions", &list) != 0)
        return -1;
    for (size_t i = 0; i < f->n_partitions; i++) {
        const floe_iceberg_field_summary_t *s = &f->partitions[i];
        avro_value_t cn, cnan;
        if (avro_value_append(&list, &item, NULL) != 0 ||
            avro_value_get_by_name(&item, "contains_null", &cn, NULL) != 0 ||
            avro_value_set_boolean(&cn, s->contains_null) != 0)
            return -1;
        if (s->has_contains_nan ? floe_manifest_set_opt_field(&item, "contains_nan", &cnan) != 0 ||
                                      avro_value_set_boolean(&cnan, s->contains_nan) != 0
                                : floe_manifest_set_null_field(&item, "contains_nan") != 0)
            return -1;
        if (floe_manifest_set_opt_bytes_field(&item, "lower_bound", s->has_lower_bound, s->lower_bound) != 0 ||
            floe_manifest_set_opt_bytes_field(&item, "upper_bound", s->has_upper_bound, s->upper_bound) != 0)
            return -1;
    }
    return 0;
}

static int on_set_file(avro_value_t *d, const void *arg, size_t i, char *err, size_t err_size)
{
    const floe_iceberg_manifest_list_t *l = arg;
    const floe_iceberg_manifest_file_t *f = &l->files[i];

    if (floe_manifest_set_string_field(d, "manifest_path", f->manifest_path) != 0 ||
        floe_manifest_set_long_field(d, "manifest_length", f->manifest_length) != 0 ||
        floe_manifest_set_int_field(d, "partition_spec_id", f->partition_spec_id) != 0 ||
        floe_manifest_set_int_field(d, "content", f->content) != 0 ||
        floe_manifest_set_long_field(d, "sequence_number", f->sequence_number) != 0 ||
        floe_manifest_set_long_field(d, "min_sequence_number", f->min_sequence_number) != 0 ||
        floe_manifest_set_long_field(d, "added_snapshot_id", f->added_snapshot_id) != 0)
        return floe_avro_fail(err, err_size, "manifest_path is required");
    if (floe_manifest_set_int_field(d, "added_files_count", f->added_files_count) != 0 ||
        floe_manifest_set_int_field(d, "existing_files_count", f->existing_files_count) != 0 ||
        floe_manifest_set_int_field(d, "deleted_files_count", f->deleted_files_count) != 0 ||
        floe_manifest_set_long_field(d, "added_rows_count", f->added_rows_count) != 0 ||
        floe_manifest_set_long_field(d, "existing_rows_count", f->existing_rows_count) != 0 ||
        floe_manifest_set_long_field(d, "deleted_rows_count", f->deleted_rows_count) != 0 ||
        set_partitions(d, f) != 0 ||
        floe_manifest_set_opt_bytes_field(d, "key_metadata", f->has_key_metadata, f->key_metadata) != 0)
        return floe_avro_fail(err, err_size, "cannot set counts, partitions or key_metadata");
    if (l->format_version >= 3 &&
        floe_manifest_set_opt_long_field(d, "first_row_id", f->has_first_row_id, f->first_row_id) != 0)
        return floe_avro_fail(err, err_size, "cannot set first_row_id");
    return 0;
}

int floe_iceberg_manifest_list_write(const floe_iceberg_manifest_list_t *l, uint8_t **out, size_t *out_len, char *err,
                                     size_t err_size)
{
    char why[REASON_MAX], snapshot[INT_TEXT_MAX], parent[INT_TEXT_MAX], seq[INT_TEXT_MAX];
    floe_avro_meta_t meta[FLOE_ICEBERG_MANIFEST_META_MAX];
    char *schema = floe_iceberg_manifest_file_schema_json(l->format_version);
    int rc;

    snprintf(snapshot, sizeof(snapshot), "%lld", (long long)l->snapshot_id);
    if (l->has_parent_snapshot_id)
        snprintf(parent, sizeof(parent), "%lld", (long long)l->parent_snapshot_id);
    else
        snprintf(parent, sizeof(parent), "null"); /* what Java writes for a first snapshot */
    snprintf(seq, sizeof(seq), "%lld", (long long)l->sequence_number);
    meta[0] = (floe_avro_meta_t){"snapshot-id", (uint8_t *)snapshot, strlen(snapshot)};
    meta[1] = (floe_avro_meta_t){"parent-snapshot-id", (uint8_t *)parent, strlen(parent)};
    meta[2] = (floe_avro_meta_t){"sequence-number", (uint8_t *)seq, strlen(seq)};
    meta[3] = (floe_avro_meta_t){"format-version", (uint8_t *)(l->format_version >= 3 ? "3" : "2"), 1};
    rc = floe_manifest_write_file(schema, meta, 4, l->n_files, on_set_file, l, out, out_len, why, sizeof(why));
    free(schema);
    return rc == 0 ? 0 : floe_avro_fail(err, err_size, "manifest list: %s", why);
}

/*
 * The Avro schemas Floe writes manifests and manifest lists with (manifest_schema.h). Field ids
 * and record names are those of Iceberg Java 1.x (ManifestEntry, DataFile, ManifestFile,
 * AvroSchemaUtil), so Java and PyIceberg readers find every field by id. The numbers in the
 * schema builders below are those field ids, as the spec's tables list them ("Manifests",
 * "Manifest Lists"): data fixed by the format, not tuning.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "base/xalloc.h"
#include "iceberg/avro_container.h"
#include "iceberg/iceberg_json.h"
#include "iceberg/iceberg_schema.h"
#include "iceberg/manifest_schema.h"

/** The most partition fields a spec may have here. */
#define PARTITION_FIELDS_MAX 1024
/** Partition field ids of a v1 spec without field-ids (Iceberg table spec, "Partitioning"). */
#define PARTITION_ID_START 1000
/** Room for an Avro name made from a partition field name (sanitised: each byte may become 4). */
#define AVRO_NAME_MAX 64

/* ---- partition fields ---- */

static int bind_field(const cJSON *f, size_t i, const floe_iceberg_schema_index_t *idx,
                      floe_iceberg_partition_field_t *out, char *err, size_t err_size)
{
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(f, "name");
    const cJSON *transform = cJSON_GetObjectItemCaseSensitive(f, "transform");
    const cJSON *source = cJSON_GetObjectItemCaseSensitive(f, "source-id");
    const cJSON *field_id = cJSON_GetObjectItemCaseSensitive(f, "field-id");
    floe_iceberg_transform_t t;
    int64_t source_id, id = PARTITION_ID_START + (int64_t)i;

    if (source == NULL) /* v3 multi-argument transforms: the first argument */
        source = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(f, "source-ids"), 0);
    if (!cJSON_IsString(name) || !cJSON_IsString(transform) || floe_iceberg_json_int64(source, &source_id) != 0 ||
        (field_id != NULL && floe_iceberg_json_int64(field_id, &id) != 0) || id < INT32_MIN || id > INT32_MAX)
        return floe_avro_fail(err, err_size, "partition-spec: field %zu needs name, transform, source-id", i);
    if (floe_iceberg_transform_parse(transform->valuestring, &t) != 0)
        return floe_avro_fail(err, err_size, "partition-spec: field %zu: unknown transform", i);
    const floe_iceberg_field_t *src =
        source_id < INT32_MIN || source_id > INT32_MAX ? NULL : floe_iceberg_schema_find(idx, (int32_t)source_id);
    if (src == NULL || !src->is_primitive || !floe_iceberg_transform_accepts(&t, &src->primitive))
        return floe_avro_fail(err, err_size, "partition-spec: field %zu: source %lld is not a column the transform applies to",
                              i, (long long)source_id);
    out->name = floe_xstrdup(name->valuestring);
    out->field_id = (int32_t)id;
    out->is_day = t.kind == FLOE_ICEBERG_DAY;
    switch (t.kind) {
    case FLOE_ICEBERG_BUCKET: case FLOE_ICEBERG_YEAR: case FLOE_ICEBERG_MONTH: case FLOE_ICEBERG_HOUR:
        out->type = (floe_iceberg_primitive_t){.kind = FLOE_ICEBERG_INT};
        break;
    case FLOE_ICEBERG_DAY:
        out->type = (floe_iceberg_primitive_t){.kind = FLOE_ICEBERG_DATE};
        break;
    default: /* identity, truncate, void: the source type */
        out->type = src->primitive;
        break;
    }
    return 0;
}

static int bind_fields(const cJSON *schema, const cJSON *fields, floe_iceberg_partition_field_t **out, size_t *n_out,
                       char *err, size_t err_size)
{
    floe_iceberg_schema_index_t idx = {0};
    floe_iceberg_error_t ierr;
    size_t n = (size_t)cJSON_GetArraySize(fields);
    floe_iceberg_partition_field_t *bound = NULL;
    int rc = -1;

    if (floe_iceberg_schema_index(schema, &idx, &ierr) != 0) {
        floe_avro_fail(err, err_size, "schema: %s", ierr.message);
        goto Exit;
    }
    if (n > PARTITION_FIELDS_MAX) {
        floe_avro_fail(err, err_size, "partition-spec: more than %d fields", PARTITION_FIELDS_MAX);
        goto Exit;
    }
    bound = floe_xcalloc(n + 1, sizeof(*bound));
    for (size_t i = 0; i < n; i++)
        if (bind_field(cJSON_GetArrayItem(fields, (int)i), i, &idx, &bound[i], err, err_size) != 0) {
            floe_iceberg_partition_fields_free(bound, i);
            goto Exit;
        }
    *out = bound;
    *n_out = n;
    rc = 0;
Exit:
    floe_iceberg_schema_index_dispose(&idx);
    return rc;
}

int floe_iceberg_partition_fields(const char *schema_json, const char *spec_json,
                                  floe_iceberg_partition_field_t **fields, size_t *n_fields, char *err, size_t err_size)
{
    floe_iceberg_error_t ierr;
    cJSON *schema = NULL, *spec = NULL;
    const cJSON *list;
    int rc = -1;

    if (schema_json == NULL || spec_json == NULL)
        return floe_avro_fail(err, err_size, "schema and partition-spec are required");
    schema = floe_iceberg_json_parse(schema_json, strlen(schema_json), &ierr);
    spec = floe_iceberg_json_parse(spec_json, strlen(spec_json), &ierr);
    list = cJSON_IsObject(spec) ? cJSON_GetObjectItemCaseSensitive(spec, "fields") : spec;
    if (!cJSON_IsObject(schema) || !cJSON_IsArray(list))
        floe_avro_fail(err, err_size, "schema or partition-spec is not valid JSON of the right shape");
    else
        rc = bind_fields(schema, list, fields, n_fields, err, err_size);
    cJSON_Delete(schema);
    cJSON_Delete(spec);
    return rc;
}

void floe_iceberg_partition_fields_free(floe_iceberg_partition_field_t *fields, size_t n_fields)
{
    if (fields == NULL)
        return;
    for (size_t i = 0; i < n_fields; i++)
        free(fields[i].name);
    free(fields);
}

int floe_iceberg_decimal_required_bytes(int32_t precision)
{
    /* Bits for 10^p - 1 plus a sign bit: p * log2(10) + 1, rounded up to bytes. */
    double bits = (double)precision * 3.3219280948873626 + 1.0;
    int bytes = (int)((bits + 7.0) / 8.0);

    return bytes < 1 ? 1 : bytes;
}

/* ---- Avro schema JSON ---- */

static cJSON *field(const char *name, cJSON *type, int32_t id)
{
    cJSON *f = cJSON_CreateObject();

    cJSON_AddStringToObject(f, "name", name);
    cJSON_AddItemToObject(f, "type", type);
    cJSON_AddNumberToObject(f, "field-id", id);
    return f;
}

static cJSON *optional(cJSON *type)
{
    cJSON *u = cJSON_CreateArray();

    cJSON_AddItemToArray(u, cJSON_CreateString("null"));
    cJSON_AddItemToArray(u, type);
    return u;
}

/* An optional field: ["null", type] with default null, as Java writes every optional field. */
static cJSON *optional_field(const char *name, cJSON *type, int32_t id)
{
    cJSON *f = field(name, optional(type), id);

    cJSON_AddNullToObject(f, "default");
    return f;
}

static cJSON *record(const char *name, cJSON *fields)
{
    cJSON *r = cJSON_CreateObject();

    cJSON_AddStringToObject(r, "type", "record");
    cJSON_AddStringToObject(r, "name", name);
    cJSON_AddItemToObject(r, "fields", fields);
    return r;
}

static cJSON *list_of(const char *items, int32_t element_id)
{
    cJSON *a = cJSON_CreateObject();

    cJSON_AddStringToObject(a, "type", "array");
    cJSON_AddStringToObject(a, "items", items);
    cJSON_AddNumberToObject(a, "element-id", element_id);
    return a;
}

/* Java's map with non-string keys: an array of {key, value} records, logicalType "map". */
static cJSON *int_map(int32_t key_id, const char *value_type, int32_t value_id)
{
    char name[AVRO_NAME_MAX];
    cJSON *fields = cJSON_CreateArray(), *a = cJSON_CreateObject();

    snprintf(name, sizeof(name), "k%d_v%d", key_id, value_id);
    cJSON_AddItemToArray(fields, field("key", cJSON_CreateString("int"), key_id));
    cJSON_AddItemToArray(fields, field("value", cJSON_CreateString(value_type), value_id));
    cJSON_AddStringToObject(a, "type", "array");
    cJSON_AddItemToObject(a, "items", record(name, fields));
    cJSON_AddStringToObject(a, "logicalType", "map");
    return a;
}

static cJSON *logical(const char *type, const char *logical_type)
{
    cJSON *t = cJSON_CreateObject();

    cJSON_AddStringToObject(t, "type", type);
    cJSON_AddStringToObject(t, "logicalType", logical_type);
    return t;
}

static cJSON *timestamp(const char *logical_type, bool utc)
{
    cJSON *t = logical("long", logical_type);

    cJSON_AddBoolToObject(t, "adjust-to-utc", utc);
    return t;
}

/* A named fixed type: defined the first time, referred to by name after (Avro forbids
 * redefining a name). `defined` holds the names so far. */
static cJSON *named_fixed(const char *name, int size, const char *logical_type, cJSON *defined)
{
    cJSON *t;

    for (cJSON *d = defined->child; d != NULL; d = d->next)
        if (strcmp(d->valuestring, name) == 0)
            return cJSON_CreateString(name);
    cJSON_AddItemToArray(defined, cJSON_CreateString(name));
    t = cJSON_CreateObject();
    cJSON_AddStringToObject(t, "type", "fixed");
    cJSON_AddStringToObject(t, "name", name);
    cJSON_AddNumberToObject(t, "size", size);
    if (logical_type != NULL)
        cJSON_AddStringToObject(t, "logicalType", logical_type);
    return t;
}

/* The Avro type of an Iceberg primitive (Java's TypeToSchema). */
static cJSON *avro_type(const floe_iceberg_partition_field_t *f, cJSON *defined)
{
    char name[AVRO_NAME_MAX];
    cJSON *t;

    switch (f->type.kind) {
    case FLOE_ICEBERG_BOOLEAN: return cJSON_CreateString("boolean");
    case FLOE_ICEBERG_INT: return cJSON_CreateString("int");
    case FLOE_ICEBERG_LONG: return cJSON_CreateString("long");
    case FLOE_ICEBERG_FLOAT: return cJSON_CreateString("float");
    case FLOE_ICEBERG_DOUBLE: return cJSON_CreateString("double");
    case FLOE_ICEBERG_DATE: return logical("int", "date");
    case FLOE_ICEBERG_TIME: return logical("long", "time-micros");
    case FLOE_ICEBERG_TIMESTAMP: return timestamp("timestamp-micros", false);
    case FLOE_ICEBERG_TIMESTAMPTZ: return timestamp("timestamp-micros", true);
    case FLOE_ICEBERG_TIMESTAMP_NS: return timestamp("timestamp-nanos", false);
    case FLOE_ICEBERG_TIMESTAMPTZ_NS: return timestamp("timestamp-nanos", true);
    case FLOE_ICEBERG_STRING: return cJSON_CreateString("string");
    case FLOE_ICEBERG_BINARY:
    case FLOE_ICEBERG_VARIANT: /* only void (and identity on unknown) take these: values are all null */
    case FLOE_ICEBERG_UNKNOWN:
    case FLOE_ICEBERG_GEOMETRY:
    case FLOE_ICEBERG_GEOGRAPHY: return cJSON_CreateString("bytes");
    case FLOE_ICEBERG_UUID: return named_fixed("uuid_fixed", 16, "uuid", defined);
    case FLOE_ICEBERG_FIXED:
        snprintf(name, sizeof(name), "fixed_%d", f->type.length);
        return named_fixed(name, f->type.length, NULL, defined);
    case FLOE_ICEBERG_DECIMAL:
        snprintf(name, sizeof(name), "decimal_%d_%d", f->type.precision, f->type.scale);
        t = named_fixed(name, floe_iceberg_decimal_required_bytes(f->type.precision), "decimal", defined);
        if (cJSON_IsObject(t)) {
            cJSON_AddNumberToObject(t, "precision", f->type.precision);
            cJSON_AddNumberToObject(t, "scale", f->type.scale);
        }
        return t;
    }
    return cJSON_CreateString("bytes");
}

/* An Avro name from a partition field name (Java's AvroSchemaUtil.makeCompatibleName): a
 * leading digit becomes "_<digit>", any other invalid byte "_x<HEX>". */
static void avro_name(const char *in, char *out, size_t size)
{
    size_t n = 0;

    for (size_t i = 0; in[i] != '\0' && n + 5 < size; i++) {
        unsigned char c = (unsigned char)in[i];
        if (isalpha(c) || c == '_' || (isdigit(c) && i > 0))
            out[n++] = (char)c;
        else if (isdigit(c))
            n += (size_t)snprintf(out + n, size - n, "_%c", c);
        else
            n += (size_t)snprintf(out + n, size - n, "_x%X", c);
    }
    out[n] = '\0';
}

static cJSON *partition_record(const floe_iceberg_partition_field_t *fields, size_t n_fields)
{
    cJSON *list = cJSON_CreateArray(), *defined = cJSON_CreateArray();
    char name[AVRO_NAME_MAX * 4];

    for (size_t i = 0; i < n_fields; i++) {
        avro_name(fields[i].name, name, sizeof(name));
        cJSON_AddItemToArray(list, optional_field(name, avro_type(&fields[i], defined), fields[i].field_id));
    }
    cJSON_Delete(defined);
    return record("r102", list);
}

static cJSON *data_file_record(const floe_iceberg_partition_field_t *fields, size_t n_fields, int format_version)
{
    cJSON *f = cJSON_CreateArray();

    cJSON_AddItemToArray(f, field("content", cJSON_CreateString("int"), 134));
    cJSON_AddItemToArray(f, field("file_path", cJSON_CreateString("string"), 100));
    cJSON_AddItemToArray(f, field("file_format", cJSON_CreateString("string"), 101));
    cJSON_AddItemToArray(f, field("partition", partition_record(fields, n_fields), 102));
    cJSON_AddItemToArray(f, field("record_count", cJSON_CreateString("long"), 103));
    cJSON_AddItemToArray(f, field("file_size_in_bytes", cJSON_CreateString("long"), 104));
    cJSON_AddItemToArray(f, optional_field("column_sizes", int_map(117, "long", 118), 108));
    cJSON_AddItemToArray(f, optional_field("value_counts", int_map(119, "long", 120), 109));
    cJSON_AddItemToArray(f, optional_field("null_value_counts", int_map(121, "long", 122), 110));
    cJSON_AddItemToArray(f, optional_field("nan_value_counts", int_map(138, "long", 139), 137));
    cJSON_AddItemToArray(f, optional_field("lower_bounds", int_map(126, "bytes", 127), 125));
    cJSON_AddItemToArray(f, optional_field("upper_bounds", int_map(129, "bytes", 130), 128));
    cJSON_AddItemToArray(f, optional_field("key_metadata", cJSON_CreateString("bytes"), 131));
    cJSON_AddItemToArray(f, optional_field("split_offsets", list_of("long", 133), 132));
    cJSON_AddItemToArray(f, optional_field("equality_ids", list_of("int", 136), 135));
    cJSON_AddItemToArray(f, optional_field("sort_order_id", cJSON_CreateString("int"), 140));
    if (format_version >= 3) {
        cJSON_AddItemToArray(f, optional_field("first_row_id", cJSON_CreateString("long"), 142));
        cJSON_AddItemToArray(f, optional_field("referenced_data_file", cJSON_CreateString("string"), 143));
        cJSON_AddItemToArray(f, optional_field("content_offset", cJSON_CreateString("long"), 144));
        cJSON_AddItemToArray(f, optional_field("content_size_in_bytes", cJSON_CreateString("long"), 145));
    }
    return record("r2", f);
}

static char *print(cJSON *schema)
{
    char *text = cJSON_PrintUnformatted(schema);

    cJSON_Delete(schema);
    if (text == NULL)
        abort(); /* cJSON fails only when memory runs out: abort, as floe_xmalloc does */
    return text;
}

char *floe_iceberg_manifest_entry_schema_json(const floe_iceberg_partition_field_t *fields, size_t n_fields,
                                              int format_version)
{
    cJSON *f = cJSON_CreateArray();

    cJSON_AddItemToArray(f, field("status", cJSON_CreateString("int"), 0));
    cJSON_AddItemToArray(f, optional_field("snapshot_id", cJSON_CreateString("long"), 1));
    cJSON_AddItemToArray(f, optional_field("sequence_number", cJSON_CreateString("long"), 3));
    cJSON_AddItemToArray(f, optional_field("file_sequence_number", cJSON_CreateString("long"), 4));
    cJSON_AddItemToArray(f, field("data_file", data_file_record(fields, n_fields, format_version), 2));
    return print(record("manifest_entry", f));
}

static cJSON *field_summary_record(void)
{
    cJSON *f = cJSON_CreateArray(), *a = cJSON_CreateObject();

    cJSON_AddItemToArray(f, field("contains_null", cJSON_CreateString("boolean"), 509));
    cJSON_AddItemToArray(f, optional_field("contains_nan", cJSON_CreateString("boolean"), 518));
    cJSON_AddItemToArray(f, optional_field("lower_bound", cJSON_CreateString("bytes"), 510));
    cJSON_AddItemToArray(f, optional_field("upper_bound", cJSON_CreateString("bytes"), 511));
    cJSON_AddStringToObject(a, "type", "array");
    cJSON_AddItemToObject(a, "items", record("r508", f));
    cJSON_AddNumberToObject(a, "element-id", 508);
    return a;
}

char *floe_iceberg_manifest_file_schema_json(int format_version)
{
    cJSON *f = cJSON_CreateArray();

    cJSON_AddItemToArray(f, field("manifest_path", cJSON_CreateString("string"), 500));
    cJSON_AddItemToArray(f, field("manifest_length", cJSON_CreateString("long"), 501));
    cJSON_AddItemToArray(f, field("partition_spec_id", cJSON_CreateString("int"), 502));
    cJSON_AddItemToArray(f, field("content", cJSON_CreateString("int"), 517));
    cJSON_AddItemToArray(f, field("sequence_number", cJSON_CreateString("long"), 515));
    cJSON_AddItemToArray(f, field("min_sequence_number", cJSON_CreateString("long"), 516));
    cJSON_AddItemToArray(f, field("added_snapshot_id", cJSON_CreateString("long"), 503));
    cJSON_AddItemToArray(f, field("added_files_count", cJSON_CreateString("int"), 504));
    cJSON_AddItemToArray(f, field("existing_files_count", cJSON_CreateString("int"), 505));
    cJSON_AddItemToArray(f, field("deleted_files_count", cJSON_CreateString("int"), 506));
    cJSON_AddItemToArray(f, field("added_rows_count", cJSON_CreateString("long"), 512));
    cJSON_AddItemToArray(f, field("existing_rows_count", cJSON_CreateString("long"), 513));
    cJSON_AddItemToArray(f, field("deleted_rows_count", cJSON_CreateString("long"), 514));
    cJSON_AddItemToArray(f, optional_field("partitions", field_summary_record(), 507));
    cJSON_AddItemToArray(f, optional_field("key_metadata", cJSON_CreateString("bytes"), 519));
    if (format_version >= 3)
        cJSON_AddItemToArray(f, optional_field("first_row_id", cJSON_CreateString("long"), 520));
    return print(record("manifest_file", f));
}

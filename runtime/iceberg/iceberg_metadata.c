/*
 * Reading and writing metadata.json (iceberg_metadata.h). Reading detaches each known member from
 * the parsed tree into the model and checks it; whatever is left of the root object becomes
 * `extra`. Writing walks the model in the fixed order of the design notes.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "iceberg/iceberg_json.h"
#include "iceberg/iceberg_metadata.h"
#include "iceberg/iceberg_spec.h"

#define WHERE "metadata.json"
#define WHERE_MAX 96
#define VERSION_DIGITS_MAX 9
/* A file name is the version (5 digits or more), "-", the uuid and ".metadata.json". */
#define FILE_NAME_EXTRA (VERSION_DIGITS_MAX + sizeof("-.metadata.json"))

/* Top-level members the model holds; everything else is kept in `extra`. */
static const char *const known_members[] = {
    "format-version",
    "table-uuid",
    "location",
    "last-sequence-number",
    "next-row-id",
    "last-updated-ms",
    "last-column-id",
    "schema",
    "schemas",
    "current-schema-id",
    "partition-spec",
    "partition-specs",
    "default-spec-id",
    "last-partition-id",
    "sort-orders",
    "default-sort-order-id",
    "properties",
    "current-snapshot-id",
    "snapshots",
    "snapshot-log",
    "metadata-log",
    "refs",
    "statistics",
    "partition-statistics",
    NULL,
};

void floe_iceberg_metadata_init(floe_iceberg_metadata_t *md)
{
    memset(md, 0, sizeof(*md));
    md->format_version = FLOE_ICEBERG_FORMAT_VERSION;
    md->current_schema_id = -1;
    md->default_spec_id = -1;
    md->default_sort_order_id = -1;
    md->last_partition_id = FLOE_ICEBERG_PARTITION_ID_START - 1;
    md->current_snapshot_id = FLOE_ICEBERG_NO_SNAPSHOT;
    md->schemas = cJSON_CreateArray();
    md->partition_specs = cJSON_CreateArray();
    md->sort_orders = cJSON_CreateArray();
    md->properties = cJSON_CreateObject();
    md->snapshots = cJSON_CreateArray();
    md->refs = cJSON_CreateObject();
    md->snapshot_log = cJSON_CreateArray();
    md->metadata_log = cJSON_CreateArray();
    md->statistics = cJSON_CreateArray();
    md->partition_statistics = cJSON_CreateArray();
    md->extra = cJSON_CreateObject();
}

void floe_iceberg_metadata_dispose(floe_iceberg_metadata_t *md)
{
    free(md->table_uuid);
    free(md->location);
    cJSON_Delete(md->schemas);
    cJSON_Delete(md->partition_specs);
    cJSON_Delete(md->sort_orders);
    cJSON_Delete(md->properties);
    cJSON_Delete(md->snapshots);
    cJSON_Delete(md->refs);
    cJSON_Delete(md->snapshot_log);
    cJSON_Delete(md->metadata_log);
    cJSON_Delete(md->statistics);
    cJSON_Delete(md->partition_statistics);
    cJSON_Delete(md->extra);
    memset(md, 0, sizeof(*md));
}

/* ==== lookups ==== */

int64_t floe_iceberg_metadata_int(const cJSON *object, const char *key, int64_t fallback)
{
    int64_t v;
    return floe_iceberg_json_int64(cJSON_GetObjectItemCaseSensitive(object, key), &v) == 0 ? v : fallback;
}

static cJSON *find_by_id(const cJSON *array, const char *key, int64_t id)
{
    for (cJSON *item = array->child; item != NULL; item = item->next) {
        int64_t v;
        if (floe_iceberg_json_int64(cJSON_GetObjectItemCaseSensitive(item, key), &v) == 0 && v == id)
            return item;
    }
    return NULL;
}

cJSON *floe_iceberg_metadata_schema(const floe_iceberg_metadata_t *md, int32_t schema_id)
{
    return find_by_id(md->schemas, "schema-id", schema_id);
}

cJSON *floe_iceberg_metadata_spec(const floe_iceberg_metadata_t *md, int32_t spec_id)
{
    return find_by_id(md->partition_specs, "spec-id", spec_id);
}

cJSON *floe_iceberg_metadata_sort_order(const floe_iceberg_metadata_t *md, int32_t order_id)
{
    return find_by_id(md->sort_orders, "order-id", order_id);
}

cJSON *floe_iceberg_metadata_snapshot(const floe_iceberg_metadata_t *md, int64_t snapshot_id)
{
    return find_by_id(md->snapshots, "snapshot-id", snapshot_id);
}

static int compare_ids(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

void floe_iceberg_id_set_build(floe_iceberg_id_set_t *set, const cJSON *list, const char *key)
{
    set->ids = floe_xmalloc(((size_t)cJSON_GetArraySize(list) + 1) * sizeof(int64_t));
    set->n = 0;
    for (const cJSON *e = list->child; e != NULL; e = e->next) {
        const cJSON *item = key != NULL ? cJSON_GetObjectItemCaseSensitive(e, key) : e;
        if (floe_iceberg_json_int64(item, &set->ids[set->n]) == 0)
            set->n++;
    }
    qsort(set->ids, set->n, sizeof(int64_t), compare_ids);
}

bool floe_iceberg_id_set_has(const floe_iceberg_id_set_t *set, int64_t id)
{
    return set->n > 0 && bsearch(&id, set->ids, set->n, sizeof(int64_t), compare_ids) != NULL;
}

bool floe_iceberg_id_set_duplicate(const floe_iceberg_id_set_t *set, int64_t *dup)
{
    for (size_t i = 1; i < set->n; i++) {
        if (set->ids[i] == set->ids[i - 1]) {
            *dup = set->ids[i];
            return true;
        }
    }
    return false;
}

void floe_iceberg_id_set_dispose(floe_iceberg_id_set_t *set)
{
    free(set->ids);
    memset(set, 0, sizeof(*set));
}

const char *floe_iceberg_metadata_table_uuid(const floe_iceberg_metadata_t *md)
{
    return md->table_uuid;
}

bool floe_iceberg_metadata_current_snapshot_id(const floe_iceberg_metadata_t *md, int64_t *id)
{
    if (md->current_snapshot_id == FLOE_ICEBERG_NO_SNAPSHOT)
        return false;
    *id = md->current_snapshot_id;
    return true;
}

int floe_iceberg_metadata_format_version(const floe_iceberg_metadata_t *md)
{
    return md->format_version;
}

/* ==== reading: members ==== */

static int corrupt(floe_iceberg_error_t *err, const char *fmt, const char *detail)
{
    return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, fmt, detail);
}

/* Detaches root[key] as a container of the given kind; an absent or null member is an error when
 * required, else an empty container. */
static int take_container(cJSON *root, const char *key, bool is_array, bool required, cJSON **out,
                          floe_iceberg_error_t *err)
{
    cJSON *item = cJSON_DetachItemFromObjectCaseSensitive(root, key);

    if (item == NULL || cJSON_IsNull(item)) {
        cJSON_Delete(item);
        if (required)
            return corrupt(err, WHERE ": '%s' is required.", key);
        *out = is_array ? cJSON_CreateArray() : cJSON_CreateObject();
        return 0;
    }
    if (is_array ? !cJSON_IsArray(item) : !cJSON_IsObject(item)) {
        cJSON_Delete(item);
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, WHERE ": '%s' must be %s.", key,
                                 is_array ? "an array" : "an object");
    }
    *out = item;
    return 0;
}

/* Checks every entry of a list is an object with a unique integer `id_key` (sorted, so a file
 * with thousands of snapshots is checked in O(n log n)). */
static int check_entries(const cJSON *list, const char *what, const char *id_key, floe_iceberg_error_t *err)
{
    char where[WHERE_MAX];
    int64_t id;
    floe_iceberg_id_set_t ids;
    bool twice;

    snprintf(where, sizeof(where), WHERE " %s", what);
    for (const cJSON *e = list->child; e != NULL; e = e->next) {
        if (!cJSON_IsObject(e))
            return corrupt(err, WHERE ": every %s must be an object.", what);
        if (floe_iceberg_json_get_int64(e, id_key, where, &id, err) != 0)
            return err->code;
    }
    floe_iceberg_id_set_build(&ids, list, id_key);
    twice = floe_iceberg_id_set_duplicate(&ids, &id);
    floe_iceberg_id_set_dispose(&ids);
    if (twice)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, WHERE ": %s %" PRId64 " appears twice.", what, id);
    return 0;
}

static int read_scalars(const cJSON *root, floe_iceberg_metadata_t *md, floe_iceberg_error_t *err)
{
    int32_t version;
    const char *location, *uuid = NULL;

    if (floe_iceberg_json_get_int32(root, "format-version", WHERE, &version, err) != 0)
        return err->code;
    if (version < 1 || version > FLOE_ICEBERG_FORMAT_VERSION_MAX)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID,
                                 WHERE ": format-version %d is not supported (Floe reads 1, 2 and 3).", (int)version);
    md->format_version = version;
    if ((version > 1 || cJSON_GetObjectItemCaseSensitive(root, "table-uuid") != NULL) &&
        floe_iceberg_json_get_string(root, "table-uuid", WHERE, &uuid, err) != 0)
        return err->code;
    if (floe_iceberg_json_get_string(root, "location", WHERE, &location, err) != 0 ||
        floe_iceberg_json_get_int64(root, "last-updated-ms", WHERE, &md->last_updated_ms, err) != 0 ||
        floe_iceberg_json_get_int32(root, "last-column-id", WHERE, &md->last_column_id, err) != 0)
        return err->code;
    if (version > 1 &&
        floe_iceberg_json_get_int64(root, "last-sequence-number", WHERE, &md->last_sequence_number, err) != 0)
        return err->code;
    if (version == 1 &&
        floe_iceberg_json_get_opt_int64(root, "last-sequence-number", WHERE, &md->last_sequence_number, err) != 0)
        return err->code;
    if (version == 1 && md->last_sequence_number != 0)
        return corrupt(err, WHERE ": %s", "last-sequence-number must be 0 in format version 1.");
    if (version >= FLOE_ICEBERG_ROW_LINEAGE_VERSION &&
        floe_iceberg_json_get_int64(root, "next-row-id", WHERE, &md->next_row_id, err) != 0)
        return err->code;
    if (md->next_row_id < 0)
        return corrupt(err, WHERE ": %s", "next-row-id must not be negative.");
    md->table_uuid = uuid != NULL ? floe_xstrdup(uuid) : NULL;
    md->location = floe_xstrdup(location);
    return 0;
}

/* v1 may carry a single "schema" instead of "schemas". */
static int read_schemas(cJSON *root, floe_iceberg_metadata_t *md, floe_iceberg_error_t *err)
{
    bool has_list = md->format_version > 1 || cJSON_GetObjectItemCaseSensitive(root, "schemas") != NULL;

    if (has_list) {
        if (take_container(root, "schemas", true, true, &md->schemas, err) != 0 ||
            floe_iceberg_json_get_int32(root, "current-schema-id", WHERE, &md->current_schema_id, err) != 0)
            return err->code;
    } else {
        cJSON *schema = cJSON_DetachItemFromObjectCaseSensitive(root, "schema");
        if (!cJSON_IsObject(schema)) {
            cJSON_Delete(schema);
            return corrupt(err, WHERE ": %s", "a format version 1 file needs 'schema' or 'schemas'.");
        }
        if (cJSON_GetObjectItemCaseSensitive(schema, "schema-id") == NULL)
            floe_iceberg_json_set_int(schema, "schema-id", 0);
        md->schemas = cJSON_CreateArray();
        cJSON_AddItemToArray(md->schemas, schema);
        md->current_schema_id = (int32_t)floe_iceberg_metadata_int(schema, "schema-id", 0);
    }
    if (check_entries(md->schemas, "schema", "schema-id", err) != 0)
        return err->code;
    for (const cJSON *s = md->schemas->child; s != NULL; s = s->next) {
        if (!cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(s, "fields")))
            return corrupt(err, WHERE ": %s", "every schema needs a 'fields' array.");
    }
    if (floe_iceberg_metadata_schema(md, md->current_schema_id) == NULL)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, WHERE ": current-schema-id %d is not in 'schemas'.",
                                 (int)md->current_schema_id);
    return 0;
}

/* Partition fields need name, transform and source-id; a v1 field without a field-id gets
 * 1000 + its position, as Java's PartitionSpecParser does for v1 specs. */
static int read_partition_fields(cJSON *fields, int32_t *highest, floe_iceberg_error_t *err)
{
    int32_t position = 0, source_id, field_id;
    const char *text;

    if (!cJSON_IsArray(fields))
        return corrupt(err, WHERE ": %s", "every partition spec needs a 'fields' array.");
    for (cJSON *f = fields->child; f != NULL; f = f->next, position++) {
        if (!cJSON_IsObject(f) || floe_iceberg_json_get_string(f, "name", WHERE " partition field", &text, err) != 0 ||
            floe_iceberg_json_get_string(f, "transform", WHERE " partition field", &text, err) != 0 ||
            floe_iceberg_json_get_int32(f, "source-id", WHERE " partition field", &source_id, err) != 0)
            return cJSON_IsObject(f) ? err->code
                                     : corrupt(err, WHERE ": %s", "every partition field must be an object.");
        if (cJSON_GetObjectItemCaseSensitive(f, "field-id") == NULL)
            floe_iceberg_json_set_int(f, "field-id", FLOE_ICEBERG_PARTITION_ID_START + position);
        if (floe_iceberg_json_get_int32(f, "field-id", WHERE " partition field", &field_id, err) != 0)
            return err->code;
        if (field_id > *highest)
            *highest = field_id;
    }
    return 0;
}

static int read_specs(cJSON *root, floe_iceberg_metadata_t *md, floe_iceberg_error_t *err)
{
    bool has_list = md->format_version > 1 || cJSON_GetObjectItemCaseSensitive(root, "partition-specs") != NULL;
    int32_t highest = FLOE_ICEBERG_PARTITION_ID_START - 1;

    if (has_list) {
        if (take_container(root, "partition-specs", true, true, &md->partition_specs, err) != 0 ||
            floe_iceberg_json_get_int32(root, "default-spec-id", WHERE, &md->default_spec_id, err) != 0)
            return err->code;
    } else {
        cJSON *fields = cJSON_DetachItemFromObjectCaseSensitive(root, "partition-spec"), *spec;
        if (!cJSON_IsArray(fields)) {
            cJSON_Delete(fields);
            return corrupt(err, WHERE ": %s", "a format version 1 file needs 'partition-spec' or 'partition-specs'.");
        }
        spec = cJSON_CreateObject();
        floe_iceberg_json_set_int(spec, "spec-id", 0);
        cJSON_AddItemToObject(spec, "fields", fields);
        md->partition_specs = cJSON_CreateArray();
        cJSON_AddItemToArray(md->partition_specs, spec);
        md->default_spec_id = 0;
    }
    if (check_entries(md->partition_specs, "partition spec", "spec-id", err) != 0)
        return err->code;
    for (cJSON *s = md->partition_specs->child; s != NULL; s = s->next) {
        if (read_partition_fields(cJSON_GetObjectItemCaseSensitive(s, "fields"), &highest, err) != 0)
            return err->code;
    }
    if (floe_iceberg_metadata_spec(md, md->default_spec_id) == NULL)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, WHERE ": default-spec-id %d is not in 'partition-specs'.",
                                 (int)md->default_spec_id);
    md->last_partition_id = highest;
    if (md->format_version > 1 || cJSON_GetObjectItemCaseSensitive(root, "last-partition-id") != NULL)
        return floe_iceberg_json_get_int32(root, "last-partition-id", WHERE, &md->last_partition_id, err);
    return 0;
}

static int read_sort_fields(const cJSON *fields, floe_iceberg_error_t *err)
{
    static const char *const keys[] = {"transform", "direction", "null-order"};
    const char *text;
    int32_t source_id;

    if (!cJSON_IsArray(fields))
        return corrupt(err, WHERE ": %s", "every sort order needs a 'fields' array.");
    for (const cJSON *f = fields->child; f != NULL; f = f->next) {
        if (!cJSON_IsObject(f))
            return corrupt(err, WHERE ": %s", "every sort field must be an object.");
        for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
            if (floe_iceberg_json_get_string(f, keys[i], WHERE " sort field", &text, err) != 0)
                return err->code;
        }
        if (floe_iceberg_json_get_int32(f, "source-id", WHERE " sort field", &source_id, err) != 0)
            return err->code;
    }
    return 0;
}

/* v1 files may lack sort orders: they are unsorted (order 0). */
static int read_sort_orders(cJSON *root, floe_iceberg_metadata_t *md, floe_iceberg_error_t *err)
{
    bool required = md->format_version > 1;

    if (take_container(root, "sort-orders", true, required, &md->sort_orders, err) != 0)
        return err->code;
    if (cJSON_GetArraySize(md->sort_orders) == 0 && !required) {
        cJSON *unsorted = cJSON_CreateObject();
        floe_iceberg_json_set_int(unsorted, "order-id", 0);
        cJSON_AddArrayToObject(unsorted, "fields");
        cJSON_AddItemToArray(md->sort_orders, unsorted);
        md->default_sort_order_id = 0;
    } else if (floe_iceberg_json_get_int32(root, "default-sort-order-id", WHERE, &md->default_sort_order_id, err) !=
               0) {
        return err->code;
    }
    if (check_entries(md->sort_orders, "sort order", "order-id", err) != 0)
        return err->code;
    for (const cJSON *o = md->sort_orders->child; o != NULL; o = o->next) {
        if (read_sort_fields(cJSON_GetObjectItemCaseSensitive(o, "fields"), err) != 0)
            return err->code;
    }
    if (floe_iceberg_metadata_sort_order(md, md->default_sort_order_id) == NULL)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID,
                                 WHERE ": default-sort-order-id %d is not in 'sort-orders'.",
                                 (int)md->default_sort_order_id);
    return 0;
}

static int read_properties(cJSON *root, floe_iceberg_metadata_t *md, floe_iceberg_error_t *err)
{
    if (take_container(root, "properties", false, false, &md->properties, err) != 0)
        return err->code;
    for (const cJSON *p = md->properties->child; p != NULL; p = p->next) {
        if (!cJSON_IsString(p))
            return corrupt(err, WHERE ": property '%s' must be a string.", p->string);
    }
    return 0;
}

static int read_row_lineage(const cJSON *snapshot, floe_iceberg_error_t *err)
{
    int64_t first = 0, added = 0;
    const cJSON *first_item = cJSON_GetObjectItemCaseSensitive(snapshot, "first-row-id");
    const cJSON *added_item = cJSON_GetObjectItemCaseSensitive(snapshot, "added-rows");

    if (floe_iceberg_json_get_opt_int64(snapshot, "first-row-id", WHERE " snapshot", &first, err) != 0 ||
        floe_iceberg_json_get_opt_int64(snapshot, "added-rows", WHERE " snapshot", &added, err) != 0)
        return err->code;
    if (first_item != NULL && !cJSON_IsNull(first_item) && (added_item == NULL || cJSON_IsNull(added_item)))
        return corrupt(err, WHERE ": %s", "a snapshot with first-row-id needs added-rows.");
    if (first < 0 || added < 0)
        return corrupt(err, WHERE ": %s", "a snapshot's first-row-id and added-rows must not be negative.");
    return 0;
}

/* Snapshots need unique ids and a timestamp; in v2 none is newer than last-sequence-number; in v3
 * a snapshot with a first-row-id says how many rows it added (Java's SnapshotParser). */
static int read_snapshots(cJSON *root, floe_iceberg_metadata_t *md, floe_iceberg_error_t *err)
{
    int64_t v;

    if (take_container(root, "snapshots", true, false, &md->snapshots, err) != 0 ||
        check_entries(md->snapshots, "snapshot", "snapshot-id", err) != 0)
        return err->code;
    for (const cJSON *s = md->snapshots->child; s != NULL; s = s->next) {
        if (floe_iceberg_json_get_int64(s, "timestamp-ms", WHERE " snapshot", &v, err) != 0)
            return err->code;
        v = 0;
        if (floe_iceberg_json_get_opt_int64(s, "sequence-number", WHERE " snapshot", &v, err) != 0)
            return err->code;
        if (md->format_version > 1 && v > md->last_sequence_number)
            return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID,
                                     WHERE ": snapshot sequence number %" PRId64
                                           " is greater than last-sequence-number %" PRId64 ".",
                                     v, md->last_sequence_number);
        if (md->format_version >= FLOE_ICEBERG_ROW_LINEAGE_VERSION && read_row_lineage(s, err) != 0)
            return err->code;
    }
    return 0;
}

static int read_current_snapshot(const cJSON *root, floe_iceberg_metadata_t *md, floe_iceberg_error_t *err)
{
    int64_t id = FLOE_ICEBERG_NO_SNAPSHOT;

    if (floe_iceberg_json_get_opt_int64(root, "current-snapshot-id", WHERE, &id, err) != 0)
        return err->code;
    if (id != FLOE_ICEBERG_NO_SNAPSHOT && floe_iceberg_metadata_snapshot(md, id) == NULL)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID,
                                 WHERE ": current-snapshot-id %" PRId64 " is not in 'snapshots'.", id);
    md->current_snapshot_id = id;
    return 0;
}

static cJSON *new_ref(int64_t snapshot_id, const char *type)
{
    cJSON *ref = cJSON_CreateObject();
    floe_iceberg_json_set_int(ref, "snapshot-id", snapshot_id);
    cJSON_AddStringToObject(ref, "type", type);
    return ref;
}

/* Refs name existing snapshots; main and current-snapshot-id agree (a file without refs gets a
 * main branch at the current snapshot, as Java's parser does). */
static int read_refs(cJSON *root, floe_iceberg_metadata_t *md, floe_iceberg_error_t *err)
{
    const cJSON *main_ref;
    const char *type;
    int64_t id;

    if (take_container(root, "refs", false, false, &md->refs, err) != 0)
        return err->code;
    for (const cJSON *r = md->refs->child; r != NULL; r = r->next) {
        if (!cJSON_IsObject(r) || floe_iceberg_json_get_int64(r, "snapshot-id", WHERE " ref", &id, err) != 0 ||
            floe_iceberg_json_get_string(r, "type", WHERE " ref", &type, err) != 0)
            return cJSON_IsObject(r) ? err->code : corrupt(err, WHERE ": ref '%s' must be an object.", r->string);
        if (strcmp(type, "branch") != 0 && strcmp(type, "tag") != 0)
            return corrupt(err, WHERE ": ref '%s' must be a branch or a tag.", r->string);
        if (floe_iceberg_metadata_snapshot(md, id) == NULL)
            return corrupt(err, WHERE ": ref '%s' names a snapshot that is not in 'snapshots'.", r->string);
    }
    main_ref = cJSON_GetObjectItemCaseSensitive(md->refs, FLOE_ICEBERG_MAIN_BRANCH);
    if (main_ref == NULL && md->current_snapshot_id != FLOE_ICEBERG_NO_SNAPSHOT)
        cJSON_AddItemToObject(md->refs, FLOE_ICEBERG_MAIN_BRANCH, new_ref(md->current_snapshot_id, "branch"));
    else if (main_ref != NULL && md->current_snapshot_id == FLOE_ICEBERG_NO_SNAPSHOT)
        md->current_snapshot_id = floe_iceberg_metadata_int(main_ref, "snapshot-id", FLOE_ICEBERG_NO_SNAPSHOT);
    else if (main_ref != NULL && floe_iceberg_metadata_int(main_ref, "snapshot-id", 0) != md->current_snapshot_id)
        return corrupt(err, WHERE ": %s", "current-snapshot-id does not match the main branch.");
    return 0;
}

/* Log and statistics entries: objects with the integer and string members given. */
static int read_list(cJSON *root, const char *key, const char *int_key, const char *string_key, cJSON **out,
                     floe_iceberg_error_t *err)
{
    char where[WHERE_MAX];
    int64_t v;
    const char *s;

    snprintf(where, sizeof(where), WHERE " %s entry", key);
    if (take_container(root, key, true, false, out, err) != 0)
        return err->code;
    for (const cJSON *e = (*out)->child; e != NULL; e = e->next) {
        if (!cJSON_IsObject(e))
            return corrupt(err, WHERE ": every %s entry must be an object.", key);
        if (floe_iceberg_json_get_int64(e, int_key, where, &v, err) != 0 ||
            floe_iceberg_json_get_string(e, string_key, where, &s, err) != 0)
            return err->code;
    }
    return 0;
}

static int read_logs(cJSON *root, floe_iceberg_metadata_t *md, floe_iceberg_error_t *err)
{
    int64_t v;

    if (read_list(root, "metadata-log", "timestamp-ms", "metadata-file", &md->metadata_log, err) != 0 ||
        read_list(root, "statistics", "snapshot-id", "statistics-path", &md->statistics, err) != 0 ||
        read_list(root, "partition-statistics", "snapshot-id", "statistics-path", &md->partition_statistics, err) !=
            0 ||
        take_container(root, "snapshot-log", true, false, &md->snapshot_log, err) != 0)
        return err->code;
    for (const cJSON *e = md->snapshot_log->child; e != NULL; e = e->next) {
        if (!cJSON_IsObject(e) ||
            floe_iceberg_json_get_int64(e, "timestamp-ms", WHERE " snapshot-log entry", &v, err) != 0 ||
            floe_iceberg_json_get_int64(e, "snapshot-id", WHERE " snapshot-log entry", &v, err) != 0)
            return cJSON_IsObject(e) ? err->code
                                     : corrupt(err, WHERE ": %s", "every snapshot-log entry must be an object.");
    }
    return 0;
}

static int read_root(cJSON *root, floe_iceberg_metadata_t *md, floe_iceberg_error_t *err)
{
    if (read_scalars(root, md, err) != 0 || read_schemas(root, md, err) != 0 || read_specs(root, md, err) != 0 ||
        read_sort_orders(root, md, err) != 0 || read_properties(root, md, err) != 0 ||
        read_snapshots(root, md, err) != 0 || read_current_snapshot(root, md, err) != 0 ||
        read_refs(root, md, err) != 0 || read_logs(root, md, err) != 0)
        return err->code;
    for (const char *const *k = known_members; *k != NULL; k++)
        cJSON_DeleteItemFromObjectCaseSensitive(root, *k);
    return 0;
}

int floe_iceberg_metadata_parse(const char *json, size_t len, floe_iceberg_metadata_t *md, floe_iceberg_error_t *err)
{
    cJSON *root;

    memset(md, 0, sizeof(*md));
    root = floe_iceberg_json_parse(json, len, err);
    if (root == NULL)
        return err->code;
    if (!cJSON_IsObject(root)) {
        cJSON_Delete(root);
        return corrupt(err, WHERE ": %s", "the document must be a JSON object.");
    }
    if (read_root(root, md, err) != 0) {
        cJSON_Delete(root);
        floe_iceberg_metadata_dispose(md);
        return err->code;
    }
    md->extra = root; /* what is left: the members Floe does not know */
    return 0;
}

/* ==== writing ==== */

static void write_member(floe_json_t *w, const char *key, const cJSON *value)
{
    floe_json_key(w, key);
    floe_iceberg_json_write(w, value);
}

static void write_int(floe_json_t *w, const char *key, int64_t v)
{
    floe_json_key(w, key);
    floe_json_int(w, v);
}

/* v1 readers expect the current schema and default spec's fields at the top level too. */
static void write_v1_schema(floe_json_t *w, const floe_iceberg_metadata_t *md)
{
    const cJSON *schema = floe_iceberg_metadata_schema(md, md->current_schema_id);
    if (md->format_version == 1 && schema != NULL)
        write_member(w, "schema", schema);
}

static void write_v1_spec(floe_json_t *w, const floe_iceberg_metadata_t *md)
{
    const cJSON *spec = floe_iceberg_metadata_spec(md, md->default_spec_id);
    if (md->format_version == 1 && spec != NULL)
        write_member(w, "partition-spec", cJSON_GetObjectItemCaseSensitive(spec, "fields"));
}

static void write_table_ids(floe_json_t *w, const floe_iceberg_metadata_t *md)
{
    write_int(w, "format-version", md->format_version);
    if (md->table_uuid != NULL) {
        floe_json_key(w, "table-uuid");
        floe_json_string(w, md->table_uuid);
    }
    floe_json_key(w, "location");
    floe_json_string(w, md->location != NULL ? md->location : "");
    if (md->format_version > 1)
        write_int(w, "last-sequence-number", md->last_sequence_number);
    if (md->format_version >= FLOE_ICEBERG_ROW_LINEAGE_VERSION)
        write_int(w, "next-row-id", md->next_row_id);
    write_int(w, "last-updated-ms", md->last_updated_ms);
    write_int(w, "last-column-id", md->last_column_id);
}

static void write_layout(floe_json_t *w, const floe_iceberg_metadata_t *md)
{
    write_v1_schema(w, md);
    write_int(w, "current-schema-id", md->current_schema_id);
    write_member(w, "schemas", md->schemas);
    write_v1_spec(w, md);
    write_int(w, "default-spec-id", md->default_spec_id);
    write_member(w, "partition-specs", md->partition_specs);
    write_int(w, "last-partition-id", md->last_partition_id);
    write_int(w, "default-sort-order-id", md->default_sort_order_id);
    write_member(w, "sort-orders", md->sort_orders);
    write_member(w, "properties", md->properties);
}

static void write_history(floe_json_t *w, const floe_iceberg_metadata_t *md)
{
    write_int(w, "current-snapshot-id", md->current_snapshot_id);
    write_member(w, "refs", md->refs);
    write_member(w, "snapshots", md->snapshots);
    write_member(w, "statistics", md->statistics);
    write_member(w, "partition-statistics", md->partition_statistics);
    write_member(w, "snapshot-log", md->snapshot_log);
    write_member(w, "metadata-log", md->metadata_log);
}

char *floe_iceberg_metadata_serialize(const floe_iceberg_metadata_t *md)
{
    floe_json_t w;

    floe_json_init(&w);
    floe_json_object_begin(&w);
    write_table_ids(&w, md);
    write_layout(&w, md);
    write_history(&w, md);
    for (const cJSON *e = md->extra != NULL ? md->extra->child : NULL; e != NULL; e = e->next)
        write_member(&w, e->string, e);
    floe_json_object_end(&w);
    return w.buf; /* the writer's buffer becomes the caller's */
}

/* ==== locations and file names ==== */

char *floe_iceberg_location_normalize(const char *location)
{
    char *s = floe_xstrdup(location);
    size_t n = strlen(s);

    while (n > 0 && s[n - 1] == '/' && !(n >= 3 && s[n - 2] == '/' && s[n - 3] == ':'))
        s[--n] = '\0';
    return s;
}

/* Java's BaseMetastoreTableOperations.parseVersion: the digits before the first '-' of the file
 * name, or -1. */
static long parse_version(const char *location)
{
    const char *name = strrchr(location, '/'), *dash;
    long v = 0;

    name = name != NULL ? name + 1 : location;
    dash = strchr(name, '-');
    if (dash == NULL || dash == name || dash - name > VERSION_DIGITS_MAX)
        return -1;
    for (const char *p = name; p < dash; p++) {
        if (*p < '0' || *p > '9')
            return -1;
        v = v * 10 + (*p - '0');
    }
    return v;
}

char *floe_iceberg_metadata_next_file_name(const char *prev_location, const char *uuid)
{
    long next = (prev_location != NULL ? parse_version(prev_location) : -1) + 1;
    size_t size = strlen(uuid) + FILE_NAME_EXTRA;
    char *name = floe_xmalloc(size);

    snprintf(name, size, "%05ld-%s.metadata.json", next, uuid);
    return name;
}

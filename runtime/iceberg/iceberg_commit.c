/*
 * The commit engine of iceberg_commit.h: requirements (parsed first, then checked), the update
 * loop (iceberg_update.c), and the finishing steps that keep the logs and timestamps right.
 * Requirement failure messages follow Java's UpdateRequirement wording, which clients log.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/ids.h"
#include "base/xalloc.h"
#include "iceberg/iceberg_commit.h"
#include "iceberg/iceberg_json.h"
#include "iceberg/iceberg_metadata.h"
#include "iceberg/iceberg_spec.h"
#include "iceberg/iceberg_update.h"

#define PREVIOUS_VERSIONS_MAX_PROPERTY "write.metadata.previous-versions-max"
/* How much of the parser's message fits after the corrupt-metadata prefix. */
#define NESTED_MESSAGE_MAX 300

/* ==== requirements ==== */

typedef enum requirement_kind {
    REQ_CREATE = 1,
    REQ_TABLE_UUID,
    REQ_REF_SNAPSHOT_ID,
    REQ_LAST_FIELD_ID,
    REQ_CURRENT_SCHEMA_ID,
    REQ_LAST_PARTITION_ID,
    REQ_DEFAULT_SPEC_ID,
    REQ_DEFAULT_SORT_ORDER_ID,
} requirement_kind_t;

typedef struct requirement_type {
    const char *name;
    requirement_kind_t kind;
    const char *int_key; /* the integer member of the id assertions */
    const char *what;    /* for the message: "<what> changed" */
} requirement_type_t;

static const requirement_type_t requirement_types[] = {
    {"assert-create", REQ_CREATE, NULL, NULL},
    {"assert-table-uuid", REQ_TABLE_UUID, NULL, NULL},
    {"assert-ref-snapshot-id", REQ_REF_SNAPSHOT_ID, NULL, NULL},
    {"assert-last-assigned-field-id", REQ_LAST_FIELD_ID, "last-assigned-field-id", "last assigned field id"},
    {"assert-current-schema-id", REQ_CURRENT_SCHEMA_ID, "current-schema-id", "current schema"},
    {"assert-last-assigned-partition-id", REQ_LAST_PARTITION_ID, "last-assigned-partition-id",
     "last assigned partition id"},
    {"assert-default-spec-id", REQ_DEFAULT_SPEC_ID, "default-spec-id", "default partition spec"},
    {"assert-default-sort-order-id", REQ_DEFAULT_SORT_ORDER_ID, "default-sort-order-id", "default sort order"},
};

/* One parsed requirement; strings point into the request. */
typedef struct requirement {
    const requirement_type_t *type;
    const char *text;   /* uuid, or ref name */
    int64_t value;      /* expected id */
    bool value_is_null; /* assert-ref-snapshot-id with snapshot-id null: the ref must not exist */
} requirement_t;

static const requirement_type_t *find_requirement_type(const char *name)
{
    for (size_t i = 0; i < sizeof(requirement_types) / sizeof(requirement_types[0]); i++) {
        if (strcmp(requirement_types[i].name, name) == 0)
            return &requirement_types[i];
    }
    return NULL;
}

/* assert-ref-snapshot-id: "snapshot-id" is required but may be null. */
static int parse_ref_requirement(const cJSON *j, requirement_t *r, floe_iceberg_error_t *err)
{
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(j, "snapshot-id");

    if (floe_iceberg_json_get_string(j, "ref", r->type->name, &r->text, err) != 0)
        return err->code;
    if (id == NULL)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID,
                                 "%s: 'snapshot-id' is required (null if the ref must not exist).", r->type->name);
    r->value_is_null = cJSON_IsNull(id);
    if (!r->value_is_null && floe_iceberg_json_int64(id, &r->value) != 0)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "%s: 'snapshot-id' must be a 64-bit integer or null.",
                                 r->type->name);
    return 0;
}

static int parse_requirement(const cJSON *j, requirement_t *r, floe_iceberg_error_t *err)
{
    const char *name;
    int32_t value;

    if (!cJSON_IsObject(j))
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "Every requirement must be a JSON object.");
    if (floe_iceberg_json_get_string(j, "type", "requirement", &name, err) != 0)
        return err->code;
    r->type = find_requirement_type(name);
    if (r->type == NULL)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "Unknown requirement type '%s'.", name);
    if (r->type->kind == REQ_TABLE_UUID)
        return floe_iceberg_json_get_string(j, "uuid", name, &r->text, err);
    if (r->type->kind == REQ_REF_SNAPSHOT_ID)
        return parse_ref_requirement(j, r, err);
    if (r->type->int_key != NULL) {
        if (floe_iceberg_json_get_int32(j, r->type->int_key, name, &value, err) != 0)
            return err->code;
        r->value = value;
    }
    return 0;
}

static int parse_requirements(const cJSON *list, requirement_t **out, size_t *n_out, floe_iceberg_error_t *err)
{
    size_t n = 0;

    *out = NULL;
    *n_out = 0;
    if (list == NULL || cJSON_IsNull(list))
        return 0;
    if (!cJSON_IsArray(list))
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "'requirements' must be an array.");
    *out = floe_xcalloc((size_t)cJSON_GetArraySize(list) + 1, sizeof(requirement_t));
    for (const cJSON *j = list->child; j != NULL; j = j->next, n++) {
        if (parse_requirement(j, &(*out)[n], err) != 0)
            return err->code;
    }
    *n_out = n;
    return 0;
}

static int conflict_ids(const requirement_t *r, int64_t actual, floe_iceberg_error_t *err)
{
    return floe_iceberg_fail(err, FLOE_ICEBERG_ECONFLICT,
                             "Requirement failed: %s changed: expected id %" PRId64 " != %" PRId64, r->type->what,
                             r->value, actual);
}

static int check_ref(const floe_iceberg_metadata_t *md, const requirement_t *r, floe_iceberg_error_t *err)
{
    const cJSON *ref = cJSON_GetObjectItemCaseSensitive(md->refs, r->text);
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(ref, "type");
    const char *kind = cJSON_IsString(type) ? type->valuestring : "branch";
    int64_t actual;

    if (ref == NULL && r->value_is_null)
        return 0;
    if (ref != NULL && r->value_is_null)
        return floe_iceberg_fail(err, FLOE_ICEBERG_ECONFLICT, "Requirement failed: %s %s was created concurrently",
                                 kind, r->text);
    if (ref == NULL)
        return floe_iceberg_fail(err, FLOE_ICEBERG_ECONFLICT,
                                 "Requirement failed: branch or tag %s is missing, expected %" PRId64, r->text,
                                 r->value);
    actual = floe_iceberg_metadata_int(ref, "snapshot-id", FLOE_ICEBERG_NO_SNAPSHOT);
    if (actual != r->value)
        return floe_iceberg_fail(err, FLOE_ICEBERG_ECONFLICT,
                                 "Requirement failed: %s %s has changed: expected id %" PRId64 " != %" PRId64, kind,
                                 r->text, r->value, actual);
    return 0;
}

/* Checks one requirement against an existing table. */
static int check_existing(const floe_iceberg_metadata_t *md, const requirement_t *r, floe_iceberg_error_t *err)
{
    int64_t actual = 0;

    switch (r->type->kind) {
    case REQ_CREATE: return floe_iceberg_fail(err, FLOE_ICEBERG_ECONFLICT, "Requirement failed: table already exists");
    case REQ_TABLE_UUID:
        if (md->table_uuid != NULL && strcasecmp(md->table_uuid, r->text) == 0)
            return 0;
        return floe_iceberg_fail(err, FLOE_ICEBERG_ECONFLICT,
                                 "Requirement failed: UUID does not match: expected %s != %s", r->text,
                                 md->table_uuid != NULL ? md->table_uuid : "null");
    case REQ_REF_SNAPSHOT_ID: return check_ref(md, r, err);
    case REQ_LAST_FIELD_ID: actual = md->last_column_id; break;
    case REQ_CURRENT_SCHEMA_ID: actual = md->current_schema_id; break;
    case REQ_LAST_PARTITION_ID: actual = md->last_partition_id; break;
    case REQ_DEFAULT_SPEC_ID: actual = md->default_spec_id; break;
    case REQ_DEFAULT_SORT_ORDER_ID: actual = md->default_sort_order_id; break;
    }
    return actual == r->value ? 0 : conflict_ids(r, actual, err);
}

/* Without a table only assert-create and "this ref must not exist" can hold. */
static int check_requirements(const floe_iceberg_txn_t *txn, const requirement_t *reqs, size_t n,
                              floe_iceberg_error_t *err)
{
    for (size_t i = 0; i < n; i++) {
        const requirement_t *r = &reqs[i];
        if (!txn->is_create) {
            if (check_existing(&txn->md, r, err) != 0)
                return err->code;
        } else if (r->type->kind != REQ_CREATE && !(r->type->kind == REQ_REF_SNAPSHOT_ID && r->value_is_null)) {
            return floe_iceberg_fail(err, FLOE_ICEBERG_ECONFLICT, "Requirement failed: %s: the table does not exist",
                                     r->type->name);
        }
    }
    return 0;
}

/* ==== the base ==== */

/* A create's format version: the first upgrade-format-version update's (1 to 3), else 2. */
static int create_format_version(const cJSON *updates)
{
    for (const cJSON *u = updates != NULL ? updates->child : NULL; u != NULL; u = u->next) {
        const cJSON *action = cJSON_GetObjectItemCaseSensitive(u, "action");
        int64_t v;
        if (cJSON_IsString(action) && strcmp(action->valuestring, "upgrade-format-version") == 0 &&
            floe_iceberg_json_int64(cJSON_GetObjectItemCaseSensitive(u, "format-version"), &v) == 0 && v >= 1 &&
            v <= FLOE_ICEBERG_FORMAT_VERSION_MAX)
            return (int)v;
    }
    return FLOE_ICEBERG_FORMAT_VERSION;
}

static int load_base(const floe_iceberg_commit_input_t *in, floe_iceberg_txn_t *txn, int64_t *base_updated_ms,
                     floe_iceberg_error_t *err)
{
    floe_iceberg_metadata_t md;
    int64_t commit_ms = in->now_ms;

    if (in->current_json == NULL) {
        floe_iceberg_metadata_init(&md);
        md.format_version = create_format_version(in->updates);
        /* Java's Builder leaves these ints at 0, the ids the first schema, spec and order get, so
         * add-spec right after add-schema binds to that schema even before set-current-schema. */
        md.current_schema_id = 0;
        md.default_spec_id = 0;
        md.default_sort_order_id = 0;
        floe_iceberg_txn_init(txn, &md, true, commit_ms);
        *base_updated_ms = commit_ms;
        return 0;
    }
    if (floe_iceberg_metadata_parse(in->current_json, strlen(in->current_json), &md, err) != 0)
        return floe_iceberg_fail(err, FLOE_ICEBERG_ECORRUPT, "The table's current metadata cannot be read: %.*s",
                                 NESTED_MESSAGE_MAX, err->message);
    *base_updated_ms = md.last_updated_ms;
    if (md.last_updated_ms > commit_ms)
        commit_ms = md.last_updated_ms;
    floe_iceberg_txn_init(txn, &md, false, commit_ms);
    return 0;
}

static int apply_updates(floe_iceberg_txn_t *txn, const cJSON *updates, floe_iceberg_error_t *err)
{
    if (updates == NULL || cJSON_IsNull(updates))
        return 0;
    if (!cJSON_IsArray(updates))
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "'updates' must be an array.");
    for (const cJSON *u = updates->child; u != NULL; u = u->next) {
        if (floe_iceberg_update_apply(txn, u, err) != 0)
            return err->code;
    }
    return 0;
}

/* ==== finishing ==== */

/* Design note 4. */
static void finish_snapshot_log(floe_iceberg_txn_t *txn)
{
    cJSON *log = txn->md.snapshot_log, *e = log->child;
    floe_iceberg_id_set_t live = {0};

    if (txn->removed_snapshots)
        floe_iceberg_id_set_build(&live, txn->md.snapshots, "snapshot-id");
    while (e != NULL) {
        cJSON *next = e->next;
        int64_t id = floe_iceberg_metadata_int(e, "snapshot-id", FLOE_ICEBERG_NO_SNAPSHOT);
        if (floe_iceberg_txn_added(txn, id) && id != txn->md.current_snapshot_id) {
            cJSON_Delete(cJSON_DetachItemViaPointer(log, e));
        } else if (txn->removed_snapshots && !floe_iceberg_id_set_has(&live, id)) {
            while (log->child != next) /* drop this entry and all history before it */
                cJSON_DeleteItemFromArray(log, 0);
        }
        e = next;
    }
    floe_iceberg_id_set_dispose(&live);
}

static int64_t previous_versions_max(const floe_iceberg_metadata_t *md)
{
    const cJSON *p = cJSON_GetObjectItemCaseSensitive(md->properties, PREVIOUS_VERSIONS_MAX_PROPERTY);
    long v = cJSON_IsString(p) ? strtol(p->valuestring, NULL, 10) : FLOE_ICEBERG_PREVIOUS_VERSIONS_MAX_DEFAULT;
    return v < 1 ? 1 : v;
}

/* Design note 3: the previous file, stamped with the time it was written. */
static void finish_metadata_log(floe_iceberg_txn_t *txn, const char *previous, int64_t previous_ms)
{
    cJSON *entry;

    if (txn->is_create || previous == NULL)
        return;
    entry = cJSON_CreateObject();
    floe_iceberg_json_set_int(entry, "timestamp-ms", previous_ms);
    cJSON_AddStringToObject(entry, "metadata-file", previous);
    cJSON_AddItemToArray(txn->md.metadata_log, entry);
    while (cJSON_GetArraySize(txn->md.metadata_log) > previous_versions_max(&txn->md))
        cJSON_DeleteItemFromArray(txn->md.metadata_log, 0);
}

static void add_default_layout(floe_iceberg_metadata_t *md)
{
    if (cJSON_GetArraySize(md->partition_specs) == 0) {
        cJSON *spec = cJSON_CreateObject();
        floe_iceberg_json_set_int(spec, "spec-id", 0);
        cJSON_AddArrayToObject(spec, "fields");
        cJSON_AddItemToArray(md->partition_specs, spec);
    }
    if (cJSON_GetArraySize(md->sort_orders) == 0) {
        cJSON *order = cJSON_CreateObject();
        floe_iceberg_json_set_int(order, "order-id", 0);
        cJSON_AddArrayToObject(order, "fields");
        cJSON_AddItemToArray(md->sort_orders, order);
    }
}

/* Design note 5. */
static int finish_create(floe_iceberg_txn_t *txn, const char *create_location, floe_iceberg_error_t *err)
{
    char uuid[FLOE_UUID_LEN + 1];
    floe_iceberg_metadata_t *md = &txn->md;

    if (cJSON_GetArraySize(md->schemas) == 0)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "A new table needs a schema: send an add-schema update.");
    if (md->location == NULL && create_location == NULL)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID,
                                 "A new table needs a location: send a set-location update.");
    if (md->location == NULL)
        md->location = floe_iceberg_location_normalize(create_location);
    if (md->table_uuid == NULL) {
        floe_uuid_v4(uuid);
        md->table_uuid = floe_xstrdup(uuid);
    }
    add_default_layout(md);
    return 0;
}

/* Invariant 2 of iceberg_metadata.h, re-checked before anything is returned. */
static int check_result(const floe_iceberg_metadata_t *md, floe_iceberg_error_t *err)
{
    if (floe_iceberg_metadata_schema(md, md->current_schema_id) == NULL)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "The current schema %d does not exist.",
                                 (int)md->current_schema_id);
    if (floe_iceberg_metadata_spec(md, md->default_spec_id) == NULL)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "The default partition spec %d does not exist.",
                                 (int)md->default_spec_id);
    if (floe_iceberg_metadata_sort_order(md, md->default_sort_order_id) == NULL)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "The default sort order %d does not exist.",
                                 (int)md->default_sort_order_id);
    return 0;
}

static int finish(floe_iceberg_txn_t *txn, const floe_iceberg_commit_input_t *in, int64_t base_updated_ms,
                  floe_iceberg_error_t *err)
{
    if (txn->is_create && finish_create(txn, in->create_location, err) != 0)
        return err->code;
    finish_snapshot_log(txn);
    finish_metadata_log(txn, in->current_location, base_updated_ms);
    txn->md.last_updated_ms = txn->commit_ms;
    return check_result(&txn->md, err);
}

int floe_iceberg_commit(const floe_iceberg_commit_input_t *in, char **json_out, floe_iceberg_error_t *err)
{
    requirement_t *reqs = NULL;
    size_t n_reqs = 0;
    floe_iceberg_txn_t txn;
    int64_t base_updated_ms = 0;
    int rc;

    memset(&txn, 0, sizeof(txn));
    floe_iceberg_error_clear(err);
    if ((rc = parse_requirements(in->requirements, &reqs, &n_reqs, err)) != 0 ||
        (rc = load_base(in, &txn, &base_updated_ms, err)) != 0 ||
        (rc = check_requirements(&txn, reqs, n_reqs, err)) != 0 || (rc = apply_updates(&txn, in->updates, err)) != 0 ||
        (rc = finish(&txn, in, base_updated_ms, err)) != 0)
        goto Exit;
    *json_out = floe_iceberg_metadata_serialize(&txn.md);
Exit:
    free(reqs);
    floe_iceberg_txn_dispose(&txn);
    return rc;
}

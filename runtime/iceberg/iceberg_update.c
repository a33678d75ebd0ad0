/*
 * The TableUpdate actions of iceberg_update.h, one static function per action, dispatched by
 * name from the `actions` table at the bottom. Each reads its payload, checks it against the
 * table, then changes txn->md; the checks come first so a refused update usually changes nothing.
 *
 * "-1 means the last added" (set-current-schema, set-default-spec, set-default-sort-order) names
 * the schema, spec or order that the latest add-* update of this commit resolved to, whether it
 * added a new one or found an identical one already in the table. Java only honours -1 when the
 * add created something new; Floe is more forgiving so a client re-sending an existing schema
 * still gets it made current.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/ids.h"
#include "base/xalloc.h"
#include "iceberg/iceberg_evolve.h"
#include "iceberg/iceberg_json.h"
#include "iceberg/iceberg_schema.h"
#include "iceberg/iceberg_spec.h"
#include "iceberg/iceberg_update.h"

#define LAST_ADDED (-1)
#define UNSORTED_ORDER_ID 0
#define INITIAL_SORT_ORDER_ID 1
#define UUID_TEXT_LEN 36
#define INITIAL_ADDED_SNAPSHOTS 4

typedef int (*apply_fn)(floe_iceberg_txn_t *txn, const cJSON *u, floe_iceberg_error_t *err);

/* ==== transaction ==== */

void floe_iceberg_txn_init(floe_iceberg_txn_t *txn, floe_iceberg_metadata_t *md, bool is_create, int64_t commit_ms)
{
    memset(txn, 0, sizeof(*txn));
    txn->md = *md;
    memset(md, 0, sizeof(*md));
    txn->is_create = is_create;
    txn->commit_ms = commit_ms;
    txn->last_added_schema_id = FLOE_ICEBERG_NONE_ADDED;
    txn->last_added_spec_id = FLOE_ICEBERG_NONE_ADDED;
    txn->last_added_order_id = FLOE_ICEBERG_NONE_ADDED;
}

void floe_iceberg_txn_dispose(floe_iceberg_txn_t *txn)
{
    floe_iceberg_metadata_dispose(&txn->md);
    free(txn->added_snapshots);
    memset(txn, 0, sizeof(*txn));
}

bool floe_iceberg_txn_added(const floe_iceberg_txn_t *txn, int64_t id)
{
    for (size_t i = 0; i < txn->n_added_snapshots; i++) {
        if (txn->added_snapshots[i] == id)
            return true;
    }
    return false;
}

static void remember_added(floe_iceberg_txn_t *txn, int64_t id)
{
    if (txn->n_added_snapshots == txn->cap_added_snapshots) {
        txn->cap_added_snapshots = txn->cap_added_snapshots ? txn->cap_added_snapshots * 2 : INITIAL_ADDED_SNAPSHOTS;
        txn->added_snapshots = floe_xrealloc(txn->added_snapshots, txn->cap_added_snapshots * sizeof(int64_t));
    }
    txn->added_snapshots[txn->n_added_snapshots++] = id;
}

/* ==== helpers ==== */

bool floe_iceberg_uuid_is_valid(const char *text)
{
    if (strlen(text) != UUID_TEXT_LEN)
        return false;
    for (int i = 0; i < UUID_TEXT_LEN; i++) {
        bool dash = i == 8 || i == 13 || i == 18 || i == 23; /* 8-4-4-4-12 */
        if (dash ? text[i] != '-' : !isxdigit((unsigned char)text[i]))
            return false;
    }
    return true;
}

/* The highest `key` in a list of objects, or `none` for an empty list. */
static int64_t highest_id(const cJSON *list, const char *key, int64_t none)
{
    int64_t best = none;
    for (const cJSON *e = list->child; e != NULL; e = e->next) {
        int64_t v = floe_iceberg_metadata_int(e, key, none);
        if (v > best)
            best = v;
    }
    return best;
}

/* Deletes every entry of `list` whose integer `key` equals id; true if one went. */
static bool delete_by_id(cJSON *list, const char *key, int64_t id)
{
    bool deleted = false;
    cJSON *e = list->child;
    while (e != NULL) {
        cJSON *next = e->next;
        if (floe_iceberg_metadata_int(e, key, id + 1) == id) {
            cJSON_Delete(cJSON_DetachItemViaPointer(list, e));
            deleted = true;
        }
        e = next;
    }
    return deleted;
}

/* Resolves -1 to the last added id of this commit. */
static int resolve_last(int32_t *id, int32_t last_added, const char *what, floe_iceberg_error_t *err)
{
    if (*id != LAST_ADDED)
        return 0;
    if (last_added == FLOE_ICEBERG_NONE_ADDED)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID,
                                 "Cannot set the last added %s: no %s was added in this commit.", what, what);
    *id = last_added;
    return 0;
}

/* Index of the current schema, for binding specs and sort orders. */
static int current_schema_index(const floe_iceberg_txn_t *txn, const char *what, floe_iceberg_schema_index_t *idx,
                                floe_iceberg_error_t *err)
{
    const cJSON *schema = floe_iceberg_metadata_schema(&txn->md, txn->md.current_schema_id);
    if (schema == NULL)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "Cannot add a %s before the table has a current schema.",
                                 what);
    return floe_iceberg_schema_index(schema, idx, err);
}

/* ==== identity and format ==== */

/* A table keeps its UUID: reassigning a different one is refused (REST spec: "It is not safe to
 * re-assign the UUID if a table/view already has a UUID assigned"); a create may set it. */
static int apply_assign_uuid(floe_iceberg_txn_t *txn, const cJSON *u, floe_iceberg_error_t *err)
{
    const char *uuid;

    if (floe_iceberg_json_get_string(u, "uuid", "assign-uuid update", &uuid, err) != 0)
        return err->code;
    if (!floe_iceberg_uuid_is_valid(uuid))
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "assign-uuid update: '%s' is not a UUID.", uuid);
    if (!txn->is_create && txn->md.table_uuid != NULL && strcasecmp(txn->md.table_uuid, uuid) != 0)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "Cannot change the UUID of table %s to %s.",
                                 txn->md.table_uuid, uuid);
    free(txn->md.table_uuid);
    txn->md.table_uuid = floe_xstrdup(uuid);
    return 0;
}

/* A snapshot's row-lineage members, in any version (Java's SnapshotParser): a first-row-id comes
 * with added-rows, and neither is negative. Every v3 file Floe writes then reads back. */
static int check_lineage_members(const cJSON *snap, floe_iceberg_error_t *err)
{
    static const char where[] = "snapshot";
    const cJSON *first_item = cJSON_GetObjectItemCaseSensitive(snap, "first-row-id");
    const cJSON *added_item = cJSON_GetObjectItemCaseSensitive(snap, "added-rows");
    int64_t first = 0, added = 0;

    if (floe_iceberg_json_get_opt_int64(snap, "first-row-id", where, &first, err) != 0 ||
        floe_iceberg_json_get_opt_int64(snap, "added-rows", where, &added, err) != 0)
        return err->code;
    if (first_item != NULL && !cJSON_IsNull(first_item) && (added_item == NULL || cJSON_IsNull(added_item)))
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID,
                                 "Invalid added-rows (required when first-row-id is set): null");
    if (first < 0)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "Invalid first-row-id (cannot be negative): %" PRId64,
                                 first);
    if (added < 0)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "Invalid added-rows (cannot be negative): %" PRId64,
                                 added);
    return 0;
}

/* Java's Builder.upgradeFormatVersion, with its messages. A v3 table starts row lineage at
 * next-row-id 0: rows written before the upgrade have no ids until rewritten (spec, "Row Lineage"). */
static int apply_upgrade_format_version(floe_iceberg_txn_t *txn, const cJSON *u, floe_iceberg_error_t *err)
{
    int32_t version;
    char uuid[FLOE_UUID_LEN + 1];

    if (floe_iceberg_json_get_int32(u, "format-version", "upgrade-format-version update", &version, err) != 0)
        return err->code;
    if (version > FLOE_ICEBERG_FORMAT_VERSION_MAX || version < 1)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID,
                                 "Cannot upgrade table to unsupported format version: v%d (supported: v%d)",
                                 (int)version, FLOE_ICEBERG_FORMAT_VERSION_MAX);
    if (version < txn->md.format_version)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "Cannot downgrade v%d table to v%d",
                                 txn->md.format_version, (int)version);
    if (floe_iceberg_schemas_check_version(txn->md.schemas, version, err) != 0)
        return err->code;
    for (const cJSON *s = txn->md.snapshots->child; s != NULL; s = s->next) {
        if (check_lineage_members(s, err) != 0)
            return err->code;
    }
    txn->md.format_version = version;
    if (version > 1 && txn->md.table_uuid == NULL) {
        floe_uuid_v4(uuid); /* v2 requires a UUID; an old v1 table may lack one */
        txn->md.table_uuid = floe_xstrdup(uuid);
    }
    return 0;
}

/* ==== schemas ==== */

/* The stored form of a new schema: "type" and "schema-id" first, then the client's members. */
static cJSON *schema_with_id(const cJSON *schema, int32_t id)
{
    cJSON *out = cJSON_CreateObject();
    cJSON_AddStringToObject(out, "type", "struct");
    floe_iceberg_json_set_int(out, "schema-id", id);
    for (const cJSON *m = schema->child; m != NULL; m = m->next) {
        if (strcmp(m->string, "type") != 0 && strcmp(m->string, "schema-id") != 0)
            cJSON_AddItemToObject(out, m->string, cJSON_Duplicate(m, true));
    }
    return out;
}

static int32_t find_same_schema(const floe_iceberg_metadata_t *md, const cJSON *schema)
{
    for (const cJSON *s = md->schemas->child; s != NULL; s = s->next) {
        if (floe_iceberg_schema_same(s, schema))
            return (int32_t)floe_iceberg_metadata_int(s, "schema-id", 0);
    }
    return FLOE_ICEBERG_NONE_ADDED;
}

/* The v3 rules of iceberg_evolve.h: types and defaults the format version allows, and only
 * allowed changes from the current schema (none to check in a create). */
static int check_new_schema(const floe_iceberg_txn_t *txn, const cJSON *schema, floe_iceberg_error_t *err)
{
    const cJSON *current = floe_iceberg_metadata_schema(&txn->md, txn->md.current_schema_id);

    if (floe_iceberg_schema_check_version(schema, txn->md.format_version, err) != 0)
        return err->code;
    if (txn->is_create || current == NULL)
        return 0;
    return floe_iceberg_schema_check_evolution(current, schema, txn->md.format_version, txn->md.last_column_id,
                                               txn->md.current_snapshot_id != FLOE_ICEBERG_NO_SNAPSHOT, err);
}

/* Java's addSchemaInternal: an identical schema is reused; otherwise the new id is one more than
 * the highest. The table's last-column-id only grows, to the schema's highest field id or a larger
 * one the client sent; the client's "last-column-id" (deprecated in the REST spec) is otherwise
 * ignored, as Java's Builder.addSchema(schema) does since 1.8: a client that drops the newest
 * column sends the new schema's highest id, below the table's. */
static int apply_add_schema(floe_iceberg_txn_t *txn, const cJSON *u, floe_iceberg_error_t *err)
{
    const cJSON *schema;
    floe_iceberg_schema_index_t idx;
    int32_t given = INT32_MIN, new_last, id;

    if (floe_iceberg_json_get_object(u, "schema", "add-schema update", &schema, err) != 0 ||
        floe_iceberg_json_get_opt_int32(u, "last-column-id", "add-schema update", &given, err) != 0 ||
        floe_iceberg_schema_index(schema, &idx, err) != 0)
        return err->code;
    if (check_new_schema(txn, schema, err) != 0) {
        floe_iceberg_schema_index_dispose(&idx);
        return err->code;
    }
    new_last = idx.highest_id > txn->md.last_column_id ? idx.highest_id : txn->md.last_column_id;
    floe_iceberg_schema_index_dispose(&idx);
    if (given > new_last)
        new_last = given;
    id = find_same_schema(&txn->md, schema);
    if (id == FLOE_ICEBERG_NONE_ADDED) {
        id = (int32_t)highest_id(txn->md.schemas, "schema-id", -1) + 1;
        cJSON_AddItemToArray(txn->md.schemas, schema_with_id(schema, id));
    }
    txn->md.last_column_id = new_last;
    txn->last_added_schema_id = id;
    return 0;
}

static int apply_set_current_schema(floe_iceberg_txn_t *txn, const cJSON *u, floe_iceberg_error_t *err)
{
    int32_t id;

    if (floe_iceberg_json_get_int32(u, "schema-id", "set-current-schema update", &id, err) != 0 ||
        resolve_last(&id, txn->last_added_schema_id, "schema", err) != 0)
        return err->code;
    if (floe_iceberg_metadata_schema(&txn->md, id) == NULL)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "Cannot set the current schema to unknown schema %d.",
                                 (int)id);
    txn->md.current_schema_id = id;
    return 0;
}

static bool int_list_has(const cJSON *list, int64_t id)
{
    for (const cJSON *e = list->child; e != NULL; e = e->next) {
        int64_t v;
        if (floe_iceberg_json_int64(e, &v) == 0 && v == id)
            return true;
    }
    return false;
}

/* Reads an array of integers (ids to remove). */
static int get_id_list(const cJSON *u, const char *key, const char *where, const cJSON **out, floe_iceberg_error_t *err)
{
    int64_t v;
    if (floe_iceberg_json_get_array(u, key, where, out, err) != 0)
        return err->code;
    for (const cJSON *e = (*out)->child; e != NULL; e = e->next) {
        if (floe_iceberg_json_int64(e, &v) != 0)
            return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "%s: '%s' must hold integers.", where, key);
    }
    return 0;
}

/* An integer already checked by get_id_list. */
static int64_t id_value(const cJSON *e)
{
    int64_t v = 0;
    floe_iceberg_json_int64(e, &v);
    return v;
}

/* Unknown ids are ignored, as Java's Builder.removeSchemas does: removals are idempotent. */
static int apply_remove_schemas(floe_iceberg_txn_t *txn, const cJSON *u, floe_iceberg_error_t *err)
{
    const cJSON *ids;

    if (get_id_list(u, "schema-ids", "remove-schemas update", &ids, err) != 0)
        return err->code;
    if (int_list_has(ids, txn->md.current_schema_id))
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "Cannot remove the current schema %d.",
                                 (int)txn->md.current_schema_id);
    for (const cJSON *e = ids->child; e != NULL; e = e->next)
        delete_by_id(txn->md.schemas, "schema-id", id_value(e));
    return 0;
}

/* ==== partition specs ==== */

static int32_t find_same_spec(const floe_iceberg_metadata_t *md, const cJSON *fields)
{
    for (const cJSON *s = md->partition_specs->child; s != NULL; s = s->next) {
        if (floe_iceberg_spec_same(cJSON_GetObjectItemCaseSensitive(s, "fields"), fields))
            return (int32_t)floe_iceberg_metadata_int(s, "spec-id", 0);
    }
    return FLOE_ICEBERG_NONE_ADDED;
}

/* Binds the spec to the current schema (Java: UnboundPartitionSpec.bind); a given field-id is
 * kept, a missing one continues from last-partition-id. A spec equal to an existing one (same
 * sources, transforms and names) reuses its id; otherwise the id is one more than the highest. */
static int apply_add_spec(floe_iceberg_txn_t *txn, const cJSON *u, floe_iceberg_error_t *err)
{
    const cJSON *spec, *fields;
    floe_iceberg_schema_index_t idx;
    int32_t last = txn->md.last_partition_id, id;
    cJSON *bound, *out;
    int rc;

    if (floe_iceberg_json_get_object(u, "spec", "add-spec update", &spec, err) != 0 ||
        floe_iceberg_json_get_array(spec, "fields", "add-spec update", &fields, err) != 0 ||
        current_schema_index(txn, "partition spec", &idx, err) != 0)
        return err->code;
    rc = floe_iceberg_spec_bind(fields, &idx, NULL, false, &last, &bound, err);
    floe_iceberg_schema_index_dispose(&idx);
    if (rc != 0)
        return rc;
    id = find_same_spec(&txn->md, bound);
    if (id != FLOE_ICEBERG_NONE_ADDED) {
        cJSON_Delete(bound);
    } else {
        id = (int32_t)highest_id(txn->md.partition_specs, "spec-id", -1) + 1;
        out = cJSON_CreateObject();
        floe_iceberg_json_set_int(out, "spec-id", id);
        cJSON_AddItemToObject(out, "fields", bound);
        cJSON_AddItemToArray(txn->md.partition_specs, out);
        if (last > txn->md.last_partition_id)
            txn->md.last_partition_id = last;
    }
    txn->last_added_spec_id = id;
    return 0;
}

static int apply_set_default_spec(floe_iceberg_txn_t *txn, const cJSON *u, floe_iceberg_error_t *err)
{
    int32_t id;

    if (floe_iceberg_json_get_int32(u, "spec-id", "set-default-spec update", &id, err) != 0 ||
        resolve_last(&id, txn->last_added_spec_id, "partition spec", err) != 0)
        return err->code;
    if (floe_iceberg_metadata_spec(&txn->md, id) == NULL)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID,
                                 "Cannot set the default partition spec to unknown spec %d.", (int)id);
    txn->md.default_spec_id = id;
    return 0;
}

static int apply_remove_partition_specs(floe_iceberg_txn_t *txn, const cJSON *u, floe_iceberg_error_t *err)
{
    const cJSON *ids;

    if (get_id_list(u, "spec-ids", "remove-partition-specs update", &ids, err) != 0)
        return err->code;
    if (int_list_has(ids, txn->md.default_spec_id))
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "Cannot remove the default partition spec %d.",
                                 (int)txn->md.default_spec_id);
    for (const cJSON *e = ids->child; e != NULL; e = e->next)
        delete_by_id(txn->md.partition_specs, "spec-id", id_value(e));
    return 0;
}

/* ==== sort orders ==== */

static int32_t find_same_order(const floe_iceberg_metadata_t *md, const cJSON *fields)
{
    for (const cJSON *o = md->sort_orders->child; o != NULL; o = o->next) {
        if (floe_iceberg_sort_same(cJSON_GetObjectItemCaseSensitive(o, "fields"), fields))
            return (int32_t)floe_iceberg_metadata_int(o, "order-id", 0);
    }
    return FLOE_ICEBERG_NONE_ADDED;
}

static void append_order(floe_iceberg_metadata_t *md, int32_t id, cJSON *fields)
{
    cJSON *out = cJSON_CreateObject();
    floe_iceberg_json_set_int(out, "order-id", id);
    cJSON_AddItemToObject(out, "fields", fields);
    cJSON_AddItemToArray(md->sort_orders, out);
}

/* Java's addSortOrderInternal: the unsorted order is always id 0; an order equal to an existing
 * one reuses its id; otherwise the id is one more than the highest, and at least 1. */
static int apply_add_sort_order(floe_iceberg_txn_t *txn, const cJSON *u, floe_iceberg_error_t *err)
{
    const cJSON *order, *fields;
    floe_iceberg_schema_index_t idx;
    cJSON *bound;
    int32_t id;
    int rc;

    if (floe_iceberg_json_get_object(u, "sort-order", "add-sort-order update", &order, err) != 0 ||
        floe_iceberg_json_get_array(order, "fields", "add-sort-order update", &fields, err) != 0)
        return err->code;
    if (cJSON_GetArraySize(fields) == 0) {
        if (floe_iceberg_metadata_sort_order(&txn->md, UNSORTED_ORDER_ID) == NULL)
            append_order(&txn->md, UNSORTED_ORDER_ID, cJSON_CreateArray());
        txn->last_added_order_id = UNSORTED_ORDER_ID;
        return 0;
    }
    if (current_schema_index(txn, "sort order", &idx, err) != 0)
        return err->code;
    rc = floe_iceberg_sort_bind(fields, &idx, NULL, &bound, err);
    floe_iceberg_schema_index_dispose(&idx);
    if (rc != 0)
        return rc;
    id = find_same_order(&txn->md, bound);
    if (id != FLOE_ICEBERG_NONE_ADDED) {
        cJSON_Delete(bound);
    } else {
        /* highest_id is at least the unsorted order's 0, so a sorted order gets 1 or more */
        id = (int32_t)highest_id(txn->md.sort_orders, "order-id", INITIAL_SORT_ORDER_ID - 1) + 1;
        append_order(&txn->md, id, bound);
    }
    txn->last_added_order_id = id;
    return 0;
}

static int apply_set_default_sort_order(floe_iceberg_txn_t *txn, const cJSON *u, floe_iceberg_error_t *err)
{
    int32_t id;

    if (floe_iceberg_json_get_int32(u, "sort-order-id", "set-default-sort-order update", &id, err) != 0 ||
        resolve_last(&id, txn->last_added_order_id, "sort order", err) != 0)
        return err->code;
    if (floe_iceberg_metadata_sort_order(&txn->md, id) == NULL)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID,
                                 "Cannot set the default sort order to unknown sort order %d.", (int)id);
    txn->md.default_sort_order_id = id;
    return 0;
}

/* ==== snapshots ==== */

static bool is_operation(const char *op)
{
    return strcmp(op, "append") == 0 || strcmp(op, "replace") == 0 || strcmp(op, "overwrite") == 0 ||
           strcmp(op, "delete") == 0;
}

/* The members a snapshot must carry (REST spec Snapshot; table spec "Snapshots"): v2 needs a
 * manifest list and a summary with an operation; v1 may list manifests instead. */
static int check_snapshot(const cJSON *snap, int format_version, floe_iceberg_error_t *err)
{
    static const char where[] = "add-snapshot update: snapshot";
    int64_t v;
    int32_t schema_id;
    const char *text;
    const cJSON *summary = cJSON_GetObjectItemCaseSensitive(snap, "summary");

    if (check_lineage_members(snap, err) != 0 ||
        floe_iceberg_json_get_int64(snap, "timestamp-ms", where, &v, err) != 0 ||
        floe_iceberg_json_get_opt_int64(snap, "parent-snapshot-id", where, &v, err) != 0 ||
        floe_iceberg_json_get_opt_int32(snap, "schema-id", where, &schema_id, err) != 0)
        return err->code;
    if ((format_version > 1 || cJSON_GetObjectItemCaseSensitive(snap, "manifests") == NULL) &&
        floe_iceberg_json_get_string(snap, "manifest-list", where, &text, err) != 0)
        return err->code;
    if (summary == NULL && format_version == 1)
        return 0;
    if (floe_iceberg_json_get_object(snap, "summary", where, &summary, err) != 0 ||
        floe_iceberg_json_get_string(summary, "operation", "add-snapshot update: summary", &text, err) != 0)
        return err->code;
    if (!is_operation(text))
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID,
                                 "add-snapshot update: operation '%s' is not append, replace, overwrite or delete.",
                                 text);
    return 0;
}

/* Row lineage (table spec v3, "Row Lineage"): a snapshot's first-row-id is the table's next-row-id
 * and next-row-id then grows by its added-rows. A snapshot without first-row-id gets it here; one
 * that brings its own (Java's writers do) must not reuse ids already assigned (Java's message), and
 * ids it skips stay unused. added-rows is required: without it the catalog cannot advance
 * (check_lineage_members has already refused negative values). */
static int assign_row_ids(floe_iceberg_txn_t *txn, cJSON *snap, floe_iceberg_error_t *err)
{
    static const char where[] = "add-snapshot update: snapshot";
    int64_t first = txn->md.next_row_id, added;

    if (cJSON_GetObjectItemCaseSensitive(snap, "added-rows") == NULL)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID,
                                 "Cannot add a snapshot to a v%d table without added-rows (row lineage).",
                                 txn->md.format_version);
    if (floe_iceberg_json_get_int64(snap, "added-rows", where, &added, err) != 0 ||
        floe_iceberg_json_get_opt_int64(snap, "first-row-id", where, &first, err) != 0)
        return err->code;
    if (first < txn->md.next_row_id)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID,
                                 "Cannot add a snapshot, first-row-id is behind table next-row-id: %" PRId64
                                 " < %" PRId64,
                                 first, txn->md.next_row_id);
    if (first > INT64_MAX - added)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "%s: first-row-id + added-rows overflows.", where);
    floe_iceberg_json_set(snap, "first-row-id", floe_iceberg_json_new_int(first));
    txn->md.next_row_id = first + added;
    return 0;
}

/* Whether a snapshot names its parent (check_snapshot has checked the member's type). */
static bool has_parent(const cJSON *snap)
{
    const cJSON *parent = cJSON_GetObjectItemCaseSensitive(snap, "parent-snapshot-id");

    return parent != NULL && !cJSON_IsNull(parent);
}

/* In v2 a new snapshot's sequence number must be greater than the table's last, which it then
 * becomes, unless the snapshot has no parent (Java's Builder.addSnapshot): the loser of two
 * concurrent replaces retries with the sequence number the winner already took. Unlike Java, the
 * table's last sequence number never goes back (the spec: the highest assigned). */
static int apply_add_snapshot(floe_iceberg_txn_t *txn, const cJSON *u, floe_iceberg_error_t *err)
{
    const cJSON *snap;
    cJSON *stored;
    int64_t id, seq = 0;

    if (floe_iceberg_json_get_object(u, "snapshot", "add-snapshot update", &snap, err) != 0 ||
        floe_iceberg_json_get_int64(snap, "snapshot-id", "add-snapshot update: snapshot", &id, err) != 0 ||
        check_snapshot(snap, txn->md.format_version, err) != 0)
        return err->code;
    if (cJSON_GetArraySize(txn->md.schemas) == 0)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "Cannot add a snapshot before a schema is added.");
    if (floe_iceberg_metadata_snapshot(&txn->md, id) != NULL)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "Snapshot %" PRId64 " already exists.", id);
    if (txn->md.format_version > 1) {
        if (floe_iceberg_json_get_int64(snap, "sequence-number", "add-snapshot update: snapshot", &seq, err) != 0)
            return err->code;
        if (seq <= txn->md.last_sequence_number && has_parent(snap))
            return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID,
                                     "Cannot add snapshot with sequence number %" PRId64
                                     " older than last sequence number %" PRId64 ".",
                                     seq, txn->md.last_sequence_number);
        if (seq > txn->md.last_sequence_number)
            txn->md.last_sequence_number = seq;
    }
    stored = cJSON_Duplicate(snap, true);
    if (txn->md.format_version >= FLOE_ICEBERG_ROW_LINEAGE_VERSION && assign_row_ids(txn, stored, err) != 0) {
        cJSON_Delete(stored);
        return err->code;
    }
    cJSON_AddItemToArray(txn->md.snapshots, stored);
    txn->added_snapshot_ms = floe_iceberg_metadata_int(snap, "timestamp-ms", 0);
    remember_added(txn, id);
    return 0;
}

/* Optional positive retention settings of a ref; tags take only max-ref-age-ms. */
static int copy_retention(const cJSON *u, bool is_tag, cJSON *ref, floe_iceberg_error_t *err)
{
    static const char *const keys[] = {"min-snapshots-to-keep", "max-snapshot-age-ms", "max-ref-age-ms"};
    int64_t v;

    for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
        const cJSON *item = cJSON_GetObjectItemCaseSensitive(u, keys[i]);
        if (item == NULL || cJSON_IsNull(item))
            continue;
        if (floe_iceberg_json_int64(item, &v) != 0 || v <= 0)
            return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID,
                                     "set-snapshot-ref update: '%s' must be a positive integer.", keys[i]);
        if (is_tag && i < 2)
            return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "set-snapshot-ref update: a tag does not take '%s'.",
                                     keys[i]);
        floe_iceberg_json_set_int(ref, keys[i], v);
    }
    return 0;
}

static void log_current_snapshot(floe_iceberg_txn_t *txn, int64_t id)
{
    cJSON *entry = cJSON_CreateObject();
    int64_t at_ms = txn->added_snapshot_ms > 0 ? txn->added_snapshot_ms : txn->commit_ms;

    floe_iceberg_json_set_int(entry, "timestamp-ms", at_ms);
    floe_iceberg_json_set_int(entry, "snapshot-id", id);
    cJSON_AddItemToArray(txn->md.snapshot_log, entry);
}

/* Java's Builder.setRef: an unchanged ref is a no-op; moving main makes its snapshot current and
 * appends to the snapshot log, stamped with the time of the snapshot this commit added last (Java's
 * lastUpdatedMillis after addSnapshot), else with this commit's time. */
static int apply_set_snapshot_ref(floe_iceberg_txn_t *txn, const cJSON *u, floe_iceberg_error_t *err)
{
    static const char where[] = "set-snapshot-ref update";
    const char *name, *type;
    int64_t id;
    cJSON *ref;
    const cJSON *existing;

    if (floe_iceberg_json_get_string(u, "ref-name", where, &name, err) != 0 ||
        floe_iceberg_json_get_string(u, "type", where, &type, err) != 0 ||
        floe_iceberg_json_get_int64(u, "snapshot-id", where, &id, err) != 0)
        return err->code;
    if (*name == '\0' || (strcmp(type, "branch") != 0 && strcmp(type, "tag") != 0))
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "%s: needs a ref name and a type of branch or tag.",
                                 where);
    if (strcmp(name, FLOE_ICEBERG_MAIN_BRANCH) == 0 && strcmp(type, "branch") != 0)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "%s: main must be a branch.", where);
    if (floe_iceberg_metadata_snapshot(&txn->md, id) == NULL)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "Cannot set %s to unknown snapshot %" PRId64 ".", name,
                                 id);
    ref = cJSON_CreateObject();
    floe_iceberg_json_set_int(ref, "snapshot-id", id);
    cJSON_AddStringToObject(ref, "type", type);
    if (copy_retention(u, strcmp(type, "tag") == 0, ref, err) != 0) {
        cJSON_Delete(ref);
        return err->code;
    }
    existing = cJSON_GetObjectItemCaseSensitive(txn->md.refs, name);
    if (existing != NULL && cJSON_Compare(existing, ref, true)) {
        cJSON_Delete(ref);
        return 0;
    }
    floe_iceberg_json_set(txn->md.refs, name, ref);
    if (strcmp(name, FLOE_ICEBERG_MAIN_BRANCH) == 0) {
        txn->md.current_snapshot_id = id;
        log_current_snapshot(txn, id);
    }
    return 0;
}

/* `name` may be the key of the ref being deleted, so it is read before the delete. */
static void remove_ref(floe_iceberg_txn_t *txn, const char *name)
{
    if (strcmp(name, FLOE_ICEBERG_MAIN_BRANCH) == 0)
        txn->md.current_snapshot_id = FLOE_ICEBERG_NO_SNAPSHOT;
    cJSON_DeleteItemFromObjectCaseSensitive(txn->md.refs, name);
}

/* Refs whose snapshot is gone go too (Java's rewriteSnapshotsInternal, "dangling refs"). */
static void remove_dangling_refs(floe_iceberg_txn_t *txn)
{
    cJSON *r = txn->md.refs->child;
    while (r != NULL) {
        cJSON *next = r->next;
        if (floe_iceberg_metadata_snapshot(&txn->md, floe_iceberg_metadata_int(r, "snapshot-id", 0)) == NULL)
            remove_ref(txn, r->string);
        r = next;
    }
}

/* Deletes the entries of `list` whose `key` is in `ids`; true if one went. One pass, so expiring
 * thousands of snapshots stays linear. */
static bool delete_in_set(cJSON *list, const char *key, const floe_iceberg_id_set_t *ids)
{
    bool deleted = false;
    cJSON *e = list->child;
    while (e != NULL) {
        cJSON *next = e->next;
        int64_t id;
        if (floe_iceberg_json_int64(cJSON_GetObjectItemCaseSensitive(e, key), &id) == 0 &&
            floe_iceberg_id_set_has(ids, id)) {
            cJSON_Delete(cJSON_DetachItemViaPointer(list, e));
            deleted = true;
        }
        e = next;
    }
    return deleted;
}

/* Unknown ids are ignored; a removed snapshot takes its statistics and refs with it. */
static int apply_remove_snapshots(floe_iceberg_txn_t *txn, const cJSON *u, floe_iceberg_error_t *err)
{
    const cJSON *ids;
    floe_iceberg_id_set_t removed;

    if (get_id_list(u, "snapshot-ids", "remove-snapshots update", &ids, err) != 0)
        return err->code;
    floe_iceberg_id_set_build(&removed, ids, NULL);
    if (delete_in_set(txn->md.snapshots, "snapshot-id", &removed)) {
        txn->removed_snapshots = true;
        delete_in_set(txn->md.statistics, "snapshot-id", &removed);
        delete_in_set(txn->md.partition_statistics, "snapshot-id", &removed);
        remove_dangling_refs(txn);
    }
    floe_iceberg_id_set_dispose(&removed);
    return 0;
}

/* An unknown ref is a no-op (Java's Builder.removeRef); removing main clears the current snapshot. */
static int apply_remove_snapshot_ref(floe_iceberg_txn_t *txn, const cJSON *u, floe_iceberg_error_t *err)
{
    const char *name;

    if (floe_iceberg_json_get_string(u, "ref-name", "remove-snapshot-ref update", &name, err) != 0)
        return err->code;
    remove_ref(txn, name);
    return 0;
}

/* ==== location and properties ==== */

static int apply_set_location(floe_iceberg_txn_t *txn, const cJSON *u, floe_iceberg_error_t *err)
{
    const char *location;

    if (floe_iceberg_json_get_string(u, "location", "set-location update", &location, err) != 0)
        return err->code;
    if (*location == '\0')
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "set-location update: the location must not be empty.");
    free(txn->md.location);
    txn->md.location = floe_iceberg_location_normalize(location);
    return 0;
}

static int apply_set_properties(floe_iceberg_txn_t *txn, const cJSON *u, floe_iceberg_error_t *err)
{
    const cJSON *updates;

    if (floe_iceberg_json_get_object(u, "updates", "set-properties update", &updates, err) != 0)
        return err->code;
    for (const cJSON *p = updates->child; p != NULL; p = p->next) {
        if (!cJSON_IsString(p))
            return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID,
                                     "set-properties update: property '%s' must be a string.", p->string);
    }
    for (const cJSON *p = updates->child; p != NULL; p = p->next)
        floe_iceberg_json_set(txn->md.properties, p->string, cJSON_CreateString(p->valuestring));
    return 0;
}

static int apply_remove_properties(floe_iceberg_txn_t *txn, const cJSON *u, floe_iceberg_error_t *err)
{
    const cJSON *removals;

    if (floe_iceberg_json_get_array(u, "removals", "remove-properties update", &removals, err) != 0)
        return err->code;
    for (const cJSON *p = removals->child; p != NULL; p = p->next) {
        if (!cJSON_IsString(p))
            return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID,
                                     "remove-properties update: 'removals' must hold strings.");
    }
    for (const cJSON *p = removals->child; p != NULL; p = p->next)
        cJSON_DeleteItemFromObjectCaseSensitive(txn->md.properties, p->valuestring);
    return 0;
}

/* ==== statistics ==== */

/* Replaces the entry for the same snapshot in place, or appends (one file per snapshot). */
static void put_statistics(cJSON *list, const cJSON *file, int64_t snapshot_id)
{
    for (cJSON *e = list->child; e != NULL; e = e->next) {
        if (floe_iceberg_metadata_int(e, "snapshot-id", snapshot_id + 1) == snapshot_id) {
            cJSON_ReplaceItemViaPointer(list, e, cJSON_Duplicate(file, true));
            return;
        }
    }
    cJSON_AddItemToArray(list, cJSON_Duplicate(file, true));
}

/* StatisticsFile (REST spec): snapshot-id, statistics-path, file-size-in-bytes,
 * file-footer-size-in-bytes, blob-metadata. The deprecated top-level snapshot-id must agree. */
static int apply_set_statistics(floe_iceberg_txn_t *txn, const cJSON *u, floe_iceberg_error_t *err)
{
    static const char where[] = "set-statistics update: statistics";
    const cJSON *file, *blobs;
    const char *path;
    int64_t id, v, outer;

    if (floe_iceberg_json_get_object(u, "statistics", "set-statistics update", &file, err) != 0 ||
        floe_iceberg_json_get_int64(file, "snapshot-id", where, &id, err) != 0 ||
        floe_iceberg_json_get_string(file, "statistics-path", where, &path, err) != 0 ||
        floe_iceberg_json_get_int64(file, "file-size-in-bytes", where, &v, err) != 0 ||
        floe_iceberg_json_get_int64(file, "file-footer-size-in-bytes", where, &v, err) != 0 ||
        floe_iceberg_json_get_array(file, "blob-metadata", where, &blobs, err) != 0)
        return err->code;
    outer = id;
    if (floe_iceberg_json_get_opt_int64(u, "snapshot-id", "set-statistics update", &outer, err) != 0)
        return err->code;
    if (outer != id)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID,
                                 "set-statistics update: snapshot-id %" PRId64
                                 " does not match the statistics file's %" PRId64 ".",
                                 outer, id);
    put_statistics(txn->md.statistics, file, id);
    return 0;
}

static int apply_remove_statistics(floe_iceberg_txn_t *txn, const cJSON *u, floe_iceberg_error_t *err)
{
    int64_t id;

    if (floe_iceberg_json_get_int64(u, "snapshot-id", "remove-statistics update", &id, err) != 0)
        return err->code;
    delete_by_id(txn->md.statistics, "snapshot-id", id);
    return 0;
}

/* PartitionStatisticsFile (REST spec): snapshot-id, statistics-path, file-size-in-bytes. */
static int apply_set_partition_statistics(floe_iceberg_txn_t *txn, const cJSON *u, floe_iceberg_error_t *err)
{
    static const char where[] = "set-partition-statistics update: partition-statistics";
    const cJSON *file;
    const char *path;
    int64_t id, v;

    if (floe_iceberg_json_get_object(u, "partition-statistics", "set-partition-statistics update", &file, err) != 0 ||
        floe_iceberg_json_get_int64(file, "snapshot-id", where, &id, err) != 0 ||
        floe_iceberg_json_get_string(file, "statistics-path", where, &path, err) != 0 ||
        floe_iceberg_json_get_int64(file, "file-size-in-bytes", where, &v, err) != 0)
        return err->code;
    put_statistics(txn->md.partition_statistics, file, id);
    return 0;
}

static int apply_remove_partition_statistics(floe_iceberg_txn_t *txn, const cJSON *u, floe_iceberg_error_t *err)
{
    int64_t id;

    if (floe_iceberg_json_get_int64(u, "snapshot-id", "remove-partition-statistics update", &id, err) != 0)
        return err->code;
    delete_by_id(txn->md.partition_statistics, "snapshot-id", id);
    return 0;
}

/* ==== dispatch ==== */

typedef struct action {
    const char *name;
    apply_fn apply; /* NULL: a known action Floe does not support for tables */
} action_t;

static const action_t actions[] = {
    {"assign-uuid", apply_assign_uuid},
    {"upgrade-format-version", apply_upgrade_format_version},
    {"add-schema", apply_add_schema},
    {"set-current-schema", apply_set_current_schema},
    {"add-spec", apply_add_spec},
    {"set-default-spec", apply_set_default_spec},
    {"add-sort-order", apply_add_sort_order},
    {"set-default-sort-order", apply_set_default_sort_order},
    {"add-snapshot", apply_add_snapshot},
    {"set-snapshot-ref", apply_set_snapshot_ref},
    {"remove-snapshots", apply_remove_snapshots},
    {"remove-snapshot-ref", apply_remove_snapshot_ref},
    {"set-location", apply_set_location},
    {"set-properties", apply_set_properties},
    {"remove-properties", apply_remove_properties},
    {"set-statistics", apply_set_statistics},
    {"remove-statistics", apply_remove_statistics},
    {"set-partition-statistics", apply_set_partition_statistics},
    {"remove-partition-statistics", apply_remove_partition_statistics},
    {"remove-partition-specs", apply_remove_partition_specs},
    {"remove-schemas", apply_remove_schemas},
    /* format v3 (encryption keys) and view updates */
    {"add-encryption-key", NULL},
    {"remove-encryption-key", NULL},
    {"add-view-version", NULL},
    {"set-current-view-version", NULL},
};

int floe_iceberg_update_apply(floe_iceberg_txn_t *txn, const cJSON *update, floe_iceberg_error_t *err)
{
    const char *name;

    if (!cJSON_IsObject(update))
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "Every update must be a JSON object.");
    if (floe_iceberg_json_get_string(update, "action", "update", &name, err) != 0)
        return err->code;
    for (size_t i = 0; i < sizeof(actions) / sizeof(actions[0]); i++) {
        if (strcmp(actions[i].name, name) != 0)
            continue;
        if (actions[i].apply == NULL)
            return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "The update '%s' is not supported for Floe's tables.",
                                     name);
        return actions[i].apply(txn, update, err);
    }
    return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "Unknown update action '%s'.", name);
}

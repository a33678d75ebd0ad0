/*
 * The namespace rows and properties of namespace.h.
 *
 * Design notes:
 *  1. A namespace is unique by (bucket, name): the UNIQUE constraint decides a race between two
 *     inserts, so floe_namespace_insert reports a constraint failure as "taken" rather than
 *     checking first.
 *  2. Tables reference their namespace without ON DELETE CASCADE, so removing a namespace that
 *     still has a table fails the foreign key, atomically with the delete: that is how
 *     floe_namespace_remove knows. Properties go with the namespace (ON DELETE CASCADE).
 */
#include <assert.h>
#include <string.h>

#include "base/ids.h"
#include "call/call_sql.h"
#include "catalog/namespace.h"
#include "db/state.h"

/* The first capacity of a list that grows: enough for most buckets' namespaces at once. */

FLOE_SQL(sql_insert_namespace,
    "INSERT INTO namespace (table_bucket_id, name, namespace_id, created_at, created_by) VALUES (?1, ?2, ?3, ?4, ?5)");

FLOE_SQL(sql_delete_namespace, "DELETE FROM namespace WHERE id = ?1");

FLOE_SQL(sql_list_namespaces,
    "SELECT id, name, namespace_id, created_by, created_at FROM namespace"
    " WHERE table_bucket_id = ?1 AND name > ?2 AND (?3 IS NULL OR substr(name, 1, length(?3)) = ?3)"
    " ORDER BY name LIMIT ?4");

FLOE_SQL(sql_list_properties,
    "SELECT key, value FROM namespace_property WHERE namespace_id = ?1 ORDER BY key");

FLOE_SQL(sql_upsert_property,
    "INSERT INTO namespace_property (namespace_id, key, value) VALUES (?1, ?2, ?3)"
    " ON CONFLICT (namespace_id, key) DO UPDATE SET value = excluded.value");

FLOE_SQL(sql_delete_property, "DELETE FROM namespace_property WHERE namespace_id = ?1 AND key = ?2");

int floe_namespace_insert(floe_call_t *call, int64_t bucket_id, const char *name, floe_namespace_row_t *out,
                          bool *is_taken)
{
    char *namespace_id = floe_call_alloc(call, FLOE_UUID_LEN + 1);
    const char *created_by = floe_call_account(call);
    floe_timestamp_t created_at = floe_call_now(call);
    floe_db_stmt_t *stmt;
    int rc;

    floe_uuid_v4(namespace_id);
    stmt = floe_sql_bind(call, sql_insert_namespace, "ittit", bucket_id, name, namespace_id, (int64_t)created_at,
                         created_by);
    if (stmt == NULL)
        return FLOE_EFAIL;
    rc = floe_sql_step(call, stmt, FLOE_DB_UNIQUE);
    floe_db_reset(stmt);
    if (rc == FLOE_EFAIL)
        return FLOE_EFAIL;
    *is_taken = rc == FLOE_EUNIQUE; /* design note 1 */
    if (*is_taken)
        return FLOE_OK;
    assert(rc == FLOE_DB_DONE);
    out->id = floe_db_last_insert_id(floe_call_state(call));
    out->name = floe_call_strdup(call, name);
    out->namespace_id = namespace_id;
    out->created_by = floe_call_strdup(call, created_by);
    out->created_at = created_at;
    return FLOE_OK;
}

int floe_namespace_remove(floe_call_t *call, int64_t namespace_id, bool *has_tables)
{
    floe_db_stmt_t *stmt = floe_sql_bind(call, sql_delete_namespace, "i", namespace_id);
    int rc;

    if (stmt == NULL)
        return FLOE_EFAIL;
    rc = floe_sql_step(call, stmt, FLOE_DB_FOREIGNKEY);
    floe_db_reset(stmt);
    if (rc == FLOE_EFAIL)
        return FLOE_EFAIL;
    assert(rc == FLOE_DB_DONE || rc == FLOE_EFOREIGNKEY);
    *has_tables = rc == FLOE_EFOREIGNKEY; /* design note 2 */
    return FLOE_OK;
}


int floe_namespace_list(floe_call_t *call, int64_t bucket_id, const char *after, const char *prefix, int limit,
                        floe_namespace_row_t **rows, size_t *n_rows)
{
    floe_db_stmt_t *stmt = floe_sql_bind(call, sql_list_namespaces, "ittn", bucket_id, after, prefix, limit);
    floe_namespace_row_t *list = NULL;
    size_t n = 0, cap = 0;
    int rc;

    assert(after != NULL && limit >= FLOE_NAMESPACE_LIST_ALL);
    if (stmt == NULL)
        return FLOE_EFAIL;
    while ((rc = floe_sql_step(call, stmt, FLOE_DB_NONE)) == FLOE_DB_ROW) {
        floe_namespace_row_t *row;
        list = floe_call_grow(call, list, n, &cap, sizeof(*list));
        row = &list[n++];
        row->id = floe_db_column_int64(stmt, 0);
        row->name = floe_sql_text(call, stmt, 1);
        row->namespace_id = floe_sql_text(call, stmt, 2);
        row->created_by = floe_sql_text(call, stmt, 3);
        row->created_at = floe_db_column_int64(stmt, 4);
    }
    floe_db_reset(stmt);
    if (rc != FLOE_DB_DONE)
        return FLOE_EFAIL;
    assert(limit == FLOE_NAMESPACE_LIST_ALL || n <= (size_t)limit);
    *rows = list;
    *n_rows = n;
    return FLOE_OK;
}

int floe_namespace_read_properties(floe_call_t *call, int64_t namespace_id, floe_namespace_properties_t *out)
{
    floe_db_stmt_t *stmt = floe_sql_bind(call, sql_list_properties, "i", namespace_id);
    const char **keys = NULL, **values = NULL;
    size_t n = 0, cap_keys = 0, cap_values = 0;
    int rc;

    if (stmt == NULL)
        return FLOE_EFAIL;
    while ((rc = floe_sql_step(call, stmt, FLOE_DB_NONE)) == FLOE_DB_ROW) {
        keys = floe_call_grow(call, keys, n, &cap_keys, sizeof(*keys));
        values = floe_call_grow(call, values, n, &cap_values, sizeof(*values));
        keys[n] = floe_sql_text(call, stmt, 0);
        values[n++] = floe_sql_text(call, stmt, 1);
    }
    floe_db_reset(stmt);
    if (rc != FLOE_DB_DONE)
        return FLOE_EFAIL;
    out->n = n;
    out->keys = keys;
    out->values = values;
    return FLOE_OK;
}

int floe_namespace_set_property(floe_call_t *call, int64_t namespace_id, const char *key, const char *value)
{
    assert(key != NULL && value != NULL);
    return floe_sql_exec(call, sql_upsert_property, "itt", namespace_id, key, value);
}

int floe_namespace_unset_property(floe_call_t *call, int64_t namespace_id, const char *key, bool *was_set)
{
    if (floe_sql_exec(call, sql_delete_property, "it", namespace_id, key))
        return FLOE_EFAIL;
    *was_set = floe_db_changes(floe_call_state(call)) > 0;
    return FLOE_OK;
}

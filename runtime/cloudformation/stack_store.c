/*
 * The CloudFormation state of stack_store.h: the cfn_* tables.
 *
 * Design notes:
 *  1. A stack is found by its ARN (any status) or by its name among the live stacks of the call's
 *     account and region: the partial unique index cfn_stack_live_name keeps one live stack per
 *     name, and a DELETE_COMPLETE stack gives its name back.
 *  2. Timestamps that may be absent are stored NULL and bound as 0 through NULLIF(?, 0).
 *  3. The work queue is read in id order by one engine; claiming marks the row started, so after a
 *     restart a row that is already started tells the engine its stack was interrupted.
 */
#include <stdio.h>
#include <string.h>

#include "base/ids.h"
#include "call/call_sql.h"
#include "cloudformation/stack_store.h"
#include "db/state.h"

#define ARN_PREFIX "arn:"

#define STACK_COLUMNS                                                                                          \
    "id, account_id, region, stack_id, name, status, status_reason, description, template_body, parameters,"  \
    " tags, outputs, previous_template_body, previous_parameters, previous_tags, previous_outputs,"            \
    " previous_description, disable_rollback, on_failure, is_delete_requested, retain_resources,"              \
    " change_set_id, created_at, updated_at, deleted_at"

FLOE_SQL(sql_stack_by_arn,
    "SELECT " STACK_COLUMNS " FROM cfn_stack WHERE stack_id = ?1 AND account_id = ?2 AND region = ?3");

FLOE_SQL(sql_stack_by_name,
    "SELECT " STACK_COLUMNS " FROM cfn_stack WHERE name = ?1 AND account_id = ?2 AND region = ?3"
    " AND status <> 'DELETE_COMPLETE'");

FLOE_SQL(sql_stack_by_id, "SELECT " STACK_COLUMNS " FROM cfn_stack WHERE id = ?1");

FLOE_SQL(sql_stack_list,
    "SELECT " STACK_COLUMNS " FROM cfn_stack WHERE account_id = ?1 AND region = ?2"
    " AND (?3 OR status <> 'DELETE_COMPLETE') ORDER BY created_at DESC, id DESC");

FLOE_SQL(sql_stack_insert,
    "INSERT INTO cfn_stack (account_id, region, stack_id, name, status, status_reason, description, template_body,"
    " parameters, tags, outputs, disable_rollback, on_failure, change_set_id, created_at)"
    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)");

FLOE_SQL(sql_stack_save,
    "UPDATE cfn_stack SET status = ?2, status_reason = ?3, description = ?4, template_body = ?5, parameters = ?6,"
    " tags = ?7, outputs = ?8, previous_template_body = ?9, previous_parameters = ?10, previous_tags = ?11,"
    " previous_outputs = ?12, previous_description = ?13, disable_rollback = ?14, on_failure = ?15,"
    " retain_resources = ?16, change_set_id = ?17, updated_at = NULLIF(?18, 0), deleted_at = NULLIF(?19, 0)"
    " WHERE id = ?1");

FLOE_SQL(sql_stack_scopes,
    "SELECT DISTINCT account_id, region FROM cfn_stack WHERE (?1 IS NULL OR account_id = ?1)"
    " ORDER BY account_id, region");

FLOE_SQL(sql_stack_request_delete, "UPDATE cfn_stack SET is_delete_requested = ?2 WHERE id = ?1");

/* An event is at least 1 ms after the stack's previous one: a stack runs in a few milliseconds, and
 * clients that sort events by Timestamp (the CDK CLI's activity display) would otherwise show equal
 * ones out of order, a resource's COMPLETE before its IN_PROGRESS. On AWS no two are that close. */
FLOE_SQL(sql_event_insert,
    "INSERT INTO cfn_stack_event (stack_id, event_id, logical_id, physical_id, resource_type, status, status_reason,"
    " properties, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8,"
    " MAX(?9, COALESCE((SELECT created_at + 1 FROM cfn_stack_event WHERE stack_id = ?1 ORDER BY id DESC LIMIT 1),"
    " 0)))");

FLOE_SQL(sql_event_list,
    "SELECT event_id, logical_id, physical_id, resource_type, status, status_reason, properties, created_at"
    " FROM cfn_stack_event WHERE stack_id = ?1 ORDER BY id DESC");

#define RESOURCE_COLUMNS                                                                                       \
    "logical_id, position, type, physical_id, status, status_reason, properties, attributes, deletion_policy,"  \
    " update_replace_policy, updated_at, update_action, old_type, old_physical_id, old_properties, old_attributes"

FLOE_SQL(sql_resource_list,
    "SELECT " RESOURCE_COLUMNS " FROM cfn_stack_resource WHERE stack_id = ?1 ORDER BY position, logical_id");

FLOE_SQL(sql_resource_put,
    "INSERT OR REPLACE INTO cfn_stack_resource (stack_id, " RESOURCE_COLUMNS ")"
    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)");

FLOE_SQL(sql_resource_delete, "DELETE FROM cfn_stack_resource WHERE stack_id = ?1 AND logical_id = ?2");

FLOE_SQL(sql_stack_by_physical_id,
    "SELECT s.id FROM cfn_stack s JOIN cfn_stack_resource r ON r.stack_id = s.id"
    " WHERE (r.physical_id = ?1 OR r.old_physical_id = ?1) AND s.account_id = ?2 AND s.region = ?3"
    " AND s.status <> 'DELETE_COMPLETE' ORDER BY s.id DESC LIMIT 1");

#define CHANGE_SET_COLUMNS                                                                                     \
    "id, stack_id, change_set_id, name, type, status, status_reason, execution_status, description,"            \
    " template_body, parameters, tags, on_failure, changes, created_at"

FLOE_SQL(sql_change_set_insert,
    "INSERT INTO cfn_change_set (stack_id, change_set_id, name, type, status, status_reason, execution_status,"
    " description, template_body, parameters, tags, on_failure, changes, created_at)"
    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)");

FLOE_SQL(sql_change_set_by_arn,
    "SELECT " CHANGE_SET_COLUMNS " FROM cfn_change_set WHERE change_set_id = ?1 AND stack_id IN"
    " (SELECT id FROM cfn_stack WHERE account_id = ?2 AND region = ?3)");

FLOE_SQL(sql_change_set_by_name,
    "SELECT " CHANGE_SET_COLUMNS " FROM cfn_change_set WHERE stack_id = ?1 AND name = ?2");

FLOE_SQL(sql_change_set_by_id, "SELECT " CHANGE_SET_COLUMNS " FROM cfn_change_set WHERE id = ?1");

FLOE_SQL(sql_change_set_list,
    "SELECT " CHANGE_SET_COLUMNS " FROM cfn_change_set WHERE stack_id = ?1 ORDER BY id");

FLOE_SQL(sql_change_set_save,
    "UPDATE cfn_change_set SET status = ?2, status_reason = ?3, execution_status = ?4, changes = ?5 WHERE id = ?1");

FLOE_SQL(sql_change_set_delete, "DELETE FROM cfn_change_set WHERE id = ?1");

FLOE_SQL(sql_change_set_delete_others, "DELETE FROM cfn_change_set WHERE stack_id = ?1 AND id <> ?2");

FLOE_SQL(sql_change_set_finish,
    "UPDATE cfn_change_set SET execution_status = ?2 WHERE change_set_id = ?1"
    " AND execution_status = 'EXECUTE_IN_PROGRESS'");

FLOE_SQL(sql_export_owner,
    "SELECT e.stack_id, s.name FROM cfn_export e JOIN cfn_stack s ON s.id = e.stack_id"
    " WHERE e.account_id = ?1 AND e.region = ?2 AND e.name = ?3");

FLOE_SQL(sql_export_put,
    "INSERT INTO cfn_export (account_id, region, name, stack_id, value) VALUES (?1, ?2, ?3, ?4, ?5)"
    " ON CONFLICT (account_id, region, name) DO UPDATE SET value = excluded.value WHERE stack_id = excluded.stack_id");

FLOE_SQL(sql_export_names_of_stack, "SELECT name FROM cfn_export WHERE stack_id = ?1");

FLOE_SQL(sql_export_delete, "DELETE FROM cfn_export WHERE stack_id = ?1 AND name = ?2");

FLOE_SQL(sql_export_list,
    "SELECT e.name, e.value, s.stack_id FROM cfn_export e JOIN cfn_stack s ON s.id = e.stack_id"
    " WHERE e.account_id = ?1 AND e.region = ?2 ORDER BY e.name");

FLOE_SQL(sql_importers,
    "SELECT s.name FROM cfn_import i JOIN cfn_stack s ON s.id = i.stack_id"
    " WHERE i.export_name = ?1 AND i.stack_id <> ?2 AND s.account_id = ?3 AND s.region = ?4"
    " AND s.status <> 'DELETE_COMPLETE' ORDER BY s.name");

FLOE_SQL(sql_imports_clear, "DELETE FROM cfn_import WHERE stack_id = ?1");

FLOE_SQL(sql_import_insert, "INSERT OR IGNORE INTO cfn_import (stack_id, export_name) VALUES (?1, ?2)");

FLOE_SQL(sql_work_insert,
    "INSERT INTO cfn_work (stack_id, change_set_id, queued_at, caller_arn) VALUES (?1, NULLIF(?2, 0), ?3, ?4)");

FLOE_SQL(sql_work_next,
    "SELECT w.id, w.stack_id, COALESCE(w.change_set_id, 0), w.is_started, s.account_id, s.region, w.caller_arn"
    " FROM cfn_work w JOIN cfn_stack s ON s.id = w.stack_id ORDER BY w.id LIMIT 1");

FLOE_SQL(sql_work_start, "UPDATE cfn_work SET is_started = 1 WHERE id = ?1");

FLOE_SQL(sql_work_delete, "DELETE FROM cfn_work WHERE id = ?1");

FLOE_SQL(sql_work_of_stack, "SELECT 1 FROM cfn_work WHERE stack_id = ?1 LIMIT 1");

/* ---- reading rows ---- */


static void read_stack(floe_call_t *call, floe_db_stmt_t *s, floe_stack_row_t *r)
{
    int c = 0;

    r->id = floe_db_column_int64(s, c++);
    r->account_id = floe_sql_text(call, s, c++);
    r->region = floe_sql_text(call, s, c++);
    r->stack_id = floe_sql_text(call, s, c++);
    r->name = floe_sql_text(call, s, c++);
    r->status = floe_sql_text(call, s, c++);
    r->status_reason = floe_sql_text(call, s, c++);
    r->description = floe_sql_text(call, s, c++);
    r->template_body = floe_sql_text(call, s, c++);
    r->parameters = floe_sql_text(call, s, c++);
    r->tags = floe_sql_text(call, s, c++);
    r->outputs = floe_sql_text(call, s, c++);
    r->previous_template_body = floe_sql_text(call, s, c++);
    r->previous_parameters = floe_sql_text(call, s, c++);
    r->previous_tags = floe_sql_text(call, s, c++);
    r->previous_outputs = floe_sql_text(call, s, c++);
    r->previous_description = floe_sql_text(call, s, c++);
    r->disable_rollback = floe_db_column_int(s, c++) != 0;
    r->on_failure = floe_sql_text(call, s, c++);
    r->is_delete_requested = floe_db_column_int(s, c++) != 0;
    r->retain_resources = floe_sql_text(call, s, c++);
    r->change_set_id = floe_sql_text(call, s, c++);
    r->created_at = floe_db_column_int64(s, c++);
    r->updated_at = floe_db_column_int64(s, c++);
    r->deleted_at = floe_db_column_int64(s, c++);
}

/* Steps a bound single-row read: 1 with the row read by `read` into `out`, 0 for no row, or
 * FLOE_EFAIL (the call failed). The statement is reset either way. */
static int read_one(floe_call_t *call, floe_db_stmt_t *stmt, void (*read)(floe_call_t *, floe_db_stmt_t *, void *),
                    void *out)
{
    int rc = floe_sql_read_one(call, stmt, read, out);

    return rc == FLOE_OK ? 1 : rc == FLOE_ENOTFOUND ? 0 : FLOE_EFAIL;
}

/* Steps a bound read of many rows into a growing array of `size`-byte elements. */
static int read_all(floe_call_t *call, floe_db_stmt_t *stmt, void (*read)(floe_call_t *, floe_db_stmt_t *, void *),
                    size_t size, void **rows, size_t *n_rows)
{
    size_t n = 0, cap = 0;
    char *items = NULL;
    int rc;

    if (stmt == NULL)
        return FLOE_EFAIL;
    while ((rc = floe_sql_step(call, stmt, FLOE_DB_NONE)) == FLOE_DB_ROW) {
        items = floe_call_grow(call, items, n, &cap, size);
        read(call, stmt, items + n * size);
        n++;
    }
    floe_db_reset(stmt);
    if (rc != FLOE_DB_DONE)
        return FLOE_EFAIL;
    *rows = items;
    *n_rows = n;
    return FLOE_OK;
}

static void read_stack_any(floe_call_t *call, floe_db_stmt_t *s, void *out)
{
    read_stack(call, s, out);
}

/* ---- stacks ---- */

int floe_stack_store_find(floe_call_t *call, const char *name_or_id, floe_stack_row_t *out, bool *found)
{
    bool is_arn = strncmp(name_or_id, ARN_PREFIX, sizeof(ARN_PREFIX) - 1) == 0; /* design note 1 */
    floe_db_stmt_t *stmt = floe_sql_bind(call, is_arn ? sql_stack_by_arn : sql_stack_by_name, "ttt", name_or_id,
                                         floe_call_account(call), floe_call_region(call));
    int rc = read_one(call, stmt, read_stack_any, out);

    if (rc < 0)
        return FLOE_EFAIL;
    *found = rc == 1;
    return FLOE_OK;
}

int floe_stack_store_get(floe_call_t *call, int64_t id, floe_stack_row_t *out)
{
    int rc = read_one(call, floe_sql_bind(call, sql_stack_by_id, "i", id), read_stack_any, out);

    if (rc == 0)
        return floe_fail_internal(call, "a queued stack has no row");
    return rc < 0 ? FLOE_EFAIL : FLOE_OK;
}

int floe_stack_store_insert(floe_call_t *call, floe_stack_row_t *row, bool *is_taken)
{
    floe_db_stmt_t *stmt = floe_sql_bind(call, sql_stack_insert, "tttttttttttntti", row->account_id, row->region,
                                         row->stack_id, row->name, row->status, row->status_reason, row->description,
                                         row->template_body, row->parameters, row->tags,
                                         row->outputs != NULL ? row->outputs : "[]", (int)row->disable_rollback,
                                         row->on_failure, row->change_set_id, (int64_t)row->created_at);
    int rc;

    if (stmt == NULL)
        return FLOE_EFAIL;
    rc = floe_sql_step(call, stmt, FLOE_DB_UNIQUE);
    floe_db_reset(stmt);
    if (rc == FLOE_EFAIL)
        return FLOE_EFAIL;
    *is_taken = rc == FLOE_EUNIQUE; /* design note 1 */
    if (rc == FLOE_DB_DONE)
        row->id = floe_db_last_insert_id(floe_call_state(call));
    return FLOE_OK;
}

int floe_stack_store_save(floe_call_t *call, const floe_stack_row_t *r)
{
    return floe_sql_exec(call, sql_stack_save, "ittttttttttttntttii", r->id, r->status, r->status_reason,
                         r->description, r->template_body, r->parameters, r->tags, r->outputs,
                         r->previous_template_body, r->previous_parameters, r->previous_tags, r->previous_outputs,
                         r->previous_description, (int)r->disable_rollback, r->on_failure, r->retain_resources,
                         r->change_set_id, (int64_t)r->updated_at, (int64_t)r->deleted_at);
}

int floe_stack_store_request_delete(floe_call_t *call, int64_t id, bool is_requested)
{
    return floe_sql_exec(call, sql_stack_request_delete, "in", id, (int)is_requested);
}

int floe_stack_store_list(floe_call_t *call, bool with_deleted, floe_stack_row_t **rows, size_t *n)
{
    floe_db_stmt_t *stmt = floe_sql_bind(call, sql_stack_list, "ttn", floe_call_account(call), floe_call_region(call),
                                         (int)with_deleted);
    return read_all(call, stmt, read_stack_any, sizeof(**rows), (void **)rows, n);
}

static void read_scope(floe_call_t *call, floe_db_stmt_t *s, void *out)
{
    floe_scope_t *scope = out;
    (void)call;

    snprintf(scope->account_id, sizeof(scope->account_id), "%s", floe_db_column_text(s, 0));
    snprintf(scope->region, sizeof(scope->region), "%s", floe_db_column_text(s, 1));
}

int floe_stack_store_scopes(floe_call_t *call, const char *account_id, floe_scope_t **scopes, size_t *n)
{
    floe_db_stmt_t *stmt = floe_sql_bind(call, sql_stack_scopes, "t", account_id);
    return read_all(call, stmt, read_scope, sizeof(**scopes), (void **)scopes, n);
}

/* ---- events ---- */

int floe_stack_store_add_event(floe_call_t *call, int64_t stack_row_id, floe_stack_event_row_t *e)
{
    e->event_id = floe_call_alloc(call, FLOE_UUID_LEN + 1);
    floe_uuid_v4(e->event_id);
    if (e->at == 0)
        e->at = floe_call_now(call);
    return floe_sql_exec(call, sql_event_insert, "ittttttti", stack_row_id, e->event_id, e->logical_id,
                         e->physical_id, e->resource_type, e->status, e->status_reason, e->properties,
                         (int64_t)e->at);
}

static void read_event(floe_call_t *call, floe_db_stmt_t *s, void *out)
{
    floe_stack_event_row_t *e = out;

    e->event_id = floe_sql_text(call, s, 0);
    e->logical_id = floe_sql_text(call, s, 1);
    e->physical_id = floe_sql_text(call, s, 2);
    e->resource_type = floe_sql_text(call, s, 3);
    e->status = floe_sql_text(call, s, 4);
    e->status_reason = floe_sql_text(call, s, 5);
    e->properties = floe_sql_text(call, s, 6);
    e->at = floe_db_column_int64(s, 7);
}

int floe_stack_store_events(floe_call_t *call, int64_t stack_row_id, floe_stack_event_row_t **rows, size_t *n)
{
    return read_all(call, floe_sql_bind(call, sql_event_list, "i", stack_row_id), read_event, sizeof(**rows),
                    (void **)rows, n);
}

/* ---- resources ---- */

static void read_resource(floe_call_t *call, floe_db_stmt_t *s, void *out)
{
    floe_stack_resource_row_t *r = out;
    int c = 0;

    r->logical_id = floe_sql_text(call, s, c++);
    r->position = floe_db_column_int(s, c++);
    r->type = floe_sql_text(call, s, c++);
    r->physical_id = floe_sql_text(call, s, c++);
    r->status = floe_sql_text(call, s, c++);
    r->status_reason = floe_sql_text(call, s, c++);
    r->properties = floe_sql_text(call, s, c++);
    r->attributes = floe_sql_text(call, s, c++);
    r->deletion_policy = floe_sql_text(call, s, c++);
    r->update_replace_policy = floe_sql_text(call, s, c++);
    r->updated_at = floe_db_column_int64(s, c++);
    r->update_action = floe_sql_text(call, s, c++);
    r->old_type = floe_sql_text(call, s, c++);
    r->old_physical_id = floe_sql_text(call, s, c++);
    r->old_properties = floe_sql_text(call, s, c++);
    r->old_attributes = floe_sql_text(call, s, c++);
}

int floe_stack_store_resources(floe_call_t *call, int64_t stack_row_id, floe_stack_resource_row_t **rows, size_t *n)
{
    return read_all(call, floe_sql_bind(call, sql_resource_list, "i", stack_row_id), read_resource, sizeof(**rows),
                    (void **)rows, n);
}

int floe_stack_store_put_resource(floe_call_t *call, int64_t stack_row_id, const floe_stack_resource_row_t *r)
{
    return floe_sql_exec(call, sql_resource_put, "itnttttttttittttt", stack_row_id, r->logical_id, r->position,
                         r->type, r->physical_id, r->status, r->status_reason,
                         r->properties != NULL ? r->properties : "{}", r->attributes != NULL ? r->attributes : "{}",
                         r->deletion_policy, r->update_replace_policy, (int64_t)floe_call_now(call), r->update_action,
                         r->old_type, r->old_physical_id, r->old_properties, r->old_attributes);
}

int floe_stack_store_delete_resource(floe_call_t *call, int64_t stack_row_id, const char *logical_id)
{
    return floe_sql_exec(call, sql_resource_delete, "it", stack_row_id, logical_id);
}

static void read_id(floe_call_t *call, floe_db_stmt_t *s, void *out)
{
    (void)call;
    *(int64_t *)out = floe_db_column_int64(s, 0);
}

int floe_stack_store_find_by_physical_id(floe_call_t *call, const char *physical_id, floe_stack_row_t *out,
                                         bool *found)
{
    int64_t id = 0;
    int rc = read_one(call,
                      floe_sql_bind(call, sql_stack_by_physical_id, "ttt", physical_id, floe_call_account(call),
                                    floe_call_region(call)),
                      read_id, &id);

    if (rc < 0)
        return FLOE_EFAIL;
    *found = rc == 1;
    return rc == 1 ? floe_stack_store_get(call, id, out) : FLOE_OK;
}

/* ---- change sets ---- */

static void read_change_set(floe_call_t *call, floe_db_stmt_t *s, void *out)
{
    floe_change_set_row_t *r = out;
    int c = 0;

    r->id = floe_db_column_int64(s, c++);
    r->stack_row_id = floe_db_column_int64(s, c++);
    r->change_set_id = floe_sql_text(call, s, c++);
    r->name = floe_sql_text(call, s, c++);
    r->type = floe_sql_text(call, s, c++);
    r->status = floe_sql_text(call, s, c++);
    r->status_reason = floe_sql_text(call, s, c++);
    r->execution_status = floe_sql_text(call, s, c++);
    r->description = floe_sql_text(call, s, c++);
    r->template_body = floe_sql_text(call, s, c++);
    r->parameters = floe_sql_text(call, s, c++);
    r->tags = floe_sql_text(call, s, c++);
    r->on_failure = floe_sql_text(call, s, c++);
    r->changes = floe_sql_text(call, s, c++);
    r->created_at = floe_db_column_int64(s, c++);
}

int floe_stack_store_change_set_insert(floe_call_t *call, floe_change_set_row_t *r, bool *is_taken)
{
    floe_db_stmt_t *stmt = floe_sql_bind(call, sql_change_set_insert, "itttttttttttti", r->stack_row_id,
                                         r->change_set_id, r->name, r->type, r->status, r->status_reason,
                                         r->execution_status, r->description, r->template_body, r->parameters, r->tags,
                                         r->on_failure, r->changes != NULL ? r->changes : "[]", (int64_t)r->created_at);
    int rc;

    if (stmt == NULL)
        return FLOE_EFAIL;
    rc = floe_sql_step(call, stmt, FLOE_DB_UNIQUE);
    floe_db_reset(stmt);
    if (rc == FLOE_EFAIL)
        return FLOE_EFAIL;
    *is_taken = rc == FLOE_EUNIQUE;
    if (rc == FLOE_DB_DONE)
        r->id = floe_db_last_insert_id(floe_call_state(call));
    return FLOE_OK;
}

int floe_stack_store_change_set_find(floe_call_t *call, int64_t stack_row_id, const char *name_or_id,
                                     floe_change_set_row_t *out, bool *found)
{
    floe_db_stmt_t *stmt;
    int rc;

    if (strncmp(name_or_id, ARN_PREFIX, sizeof(ARN_PREFIX) - 1) == 0)
        stmt = floe_sql_bind(call, sql_change_set_by_arn, "ttt", name_or_id, floe_call_account(call),
                             floe_call_region(call));
    else if (stack_row_id != 0)
        stmt = floe_sql_bind(call, sql_change_set_by_name, "it", stack_row_id, name_or_id);
    else {
        *found = false;
        return FLOE_OK;
    }
    rc = read_one(call, stmt, read_change_set, out);
    if (rc < 0)
        return FLOE_EFAIL;
    *found = rc == 1 && (stack_row_id == 0 || out->stack_row_id == stack_row_id);
    return FLOE_OK;
}

int floe_stack_store_change_set_get(floe_call_t *call, int64_t id, floe_change_set_row_t *out, bool *found)
{
    int rc = read_one(call, floe_sql_bind(call, sql_change_set_by_id, "i", id), read_change_set, out);

    if (rc < 0)
        return FLOE_EFAIL;
    *found = rc == 1;
    return FLOE_OK;
}

int floe_stack_store_change_set_save(floe_call_t *call, const floe_change_set_row_t *r)
{
    return floe_sql_exec(call, sql_change_set_save, "itttt", r->id, r->status, r->status_reason, r->execution_status,
                         r->changes != NULL ? r->changes : "[]");
}

int floe_stack_store_change_set_delete(floe_call_t *call, int64_t id)
{
    return floe_sql_exec(call, sql_change_set_delete, "i", id);
}

int floe_stack_store_change_set_delete_others(floe_call_t *call, int64_t stack_row_id, int64_t keep_id)
{
    return floe_sql_exec(call, sql_change_set_delete_others, "ii", stack_row_id, keep_id);
}

int floe_stack_store_change_sets(floe_call_t *call, int64_t stack_row_id, floe_change_set_row_t **rows, size_t *n)
{
    return read_all(call, floe_sql_bind(call, sql_change_set_list, "i", stack_row_id), read_change_set,
                    sizeof(**rows), (void **)rows, n);
}

int floe_stack_store_change_set_finish(floe_call_t *call, const char *change_set_arn, const char *status)
{
    return floe_sql_exec(call, sql_change_set_finish, "tt", change_set_arn, status);
}

/* ---- exports and imports ---- */

typedef struct export_owner {
    int64_t stack_row_id;
    char *name;
} export_owner_t;

static void read_export_owner(floe_call_t *call, floe_db_stmt_t *s, void *out)
{
    export_owner_t *o = out;
    o->stack_row_id = floe_db_column_int64(s, 0);
    o->name = floe_sql_text(call, s, 1);
}

int floe_stack_store_export_put(floe_call_t *call, int64_t stack_row_id, const char *name, const char *value,
                                char **owner)
{
    export_owner_t o = {0};
    int rc = read_one(call,
                      floe_sql_bind(call, sql_export_owner, "ttt", floe_call_account(call), floe_call_region(call),
                                    name),
                      read_export_owner, &o);

    if (rc < 0)
        return FLOE_EFAIL;
    *owner = NULL;
    if (rc == 1 && o.stack_row_id != stack_row_id) {
        *owner = o.name;
        return FLOE_OK;
    }
    return floe_sql_exec(call, sql_export_put, "tttit", floe_call_account(call), floe_call_region(call), name,
                         stack_row_id, value);
}

static void read_text(floe_call_t *call, floe_db_stmt_t *s, void *out)
{
    *(char **)out = floe_sql_text(call, s, 0);
}

static bool is_listed(const char *name, char *const *names, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (strcmp(names[i], name) == 0)
            return true;
    }
    return false;
}

int floe_stack_store_exports_keep(floe_call_t *call, int64_t stack_row_id, char *const *names, size_t n)
{
    char **current = NULL;
    size_t n_current = 0;

    if (read_all(call, floe_sql_bind(call, sql_export_names_of_stack, "i", stack_row_id), read_text,
                 sizeof(*current), (void **)&current, &n_current))
        return FLOE_EFAIL;
    for (size_t i = 0; i < n_current; i++) {
        if (!is_listed(current[i], names, n) &&
            floe_sql_exec(call, sql_export_delete, "it", stack_row_id, current[i]))
            return FLOE_EFAIL;
    }
    return FLOE_OK;
}

static void read_export(floe_call_t *call, floe_db_stmt_t *s, void *out)
{
    floe_stack_export_row_t *e = out;
    e->name = floe_sql_text(call, s, 0);
    e->value = floe_sql_text(call, s, 1);
    e->stack_id = floe_sql_text(call, s, 2);
}

int floe_stack_store_exports(floe_call_t *call, floe_stack_export_row_t **rows, size_t *n)
{
    return read_all(call, floe_sql_bind(call, sql_export_list, "tt", floe_call_account(call), floe_call_region(call)),
                    read_export, sizeof(**rows), (void **)rows, n);
}

int floe_stack_store_importers(floe_call_t *call, int64_t stack_row_id, const char *export_name, char ***names,
                               size_t *n)
{
    return read_all(call,
                    floe_sql_bind(call, sql_importers, "titt", export_name, stack_row_id, floe_call_account(call),
                                  floe_call_region(call)),
                    read_text, sizeof(**names), (void **)names, n);
}

int floe_stack_store_imports_set(floe_call_t *call, int64_t stack_row_id, char *const *names, size_t n)
{
    if (floe_sql_exec(call, sql_imports_clear, "i", stack_row_id))
        return FLOE_EFAIL;
    for (size_t i = 0; i < n; i++) {
        if (floe_sql_exec(call, sql_import_insert, "it", stack_row_id, names[i]))
            return FLOE_EFAIL;
    }
    return FLOE_OK;
}

/* ---- the work queue (design note 3) ---- */

int floe_stack_store_work_enqueue(floe_call_t *call, int64_t stack_row_id, int64_t change_set_row_id,
                                  const char *caller_arn)
{
    return floe_sql_exec(call, sql_work_insert, "iiit", stack_row_id, change_set_row_id, (int64_t)floe_call_now(call),
                         caller_arn);
}

static void read_work(floe_call_t *call, floe_db_stmt_t *s, void *out)
{
    floe_stack_work_t *w = out;

    w->id = floe_db_column_int64(s, 0);
    w->stack_row_id = floe_db_column_int64(s, 1);
    w->change_set_row_id = floe_db_column_int64(s, 2);
    w->was_started = floe_db_column_int(s, 3) != 0;
    snprintf(w->scope.account_id, sizeof(w->scope.account_id), "%s", floe_db_column_text(s, 4));
    snprintf(w->scope.region, sizeof(w->scope.region), "%s", floe_db_column_text(s, 5));
    w->caller_arn = floe_sql_text(call, s, 6);
}

int floe_stack_store_work_claim(floe_call_t *call, floe_stack_work_t *out, bool *found)
{
    int rc = read_one(call, floe_sql_bind(call, sql_work_next, ""), read_work, out);

    if (rc < 0)
        return FLOE_EFAIL;
    *found = rc == 1;
    if (rc == 1 && !out->was_started)
        return floe_sql_exec(call, sql_work_start, "i", out->id);
    return FLOE_OK;
}

int floe_stack_store_work_finish(floe_call_t *call, int64_t id)
{
    return floe_sql_exec(call, sql_work_delete, "i", id);
}

static void read_nothing(floe_call_t *call, floe_db_stmt_t *s, void *out)
{
    (void)call, (void)s, (void)out;
}

int floe_stack_store_work_is_queued(floe_call_t *call, int64_t stack_row_id, bool *is_queued)
{
    int rc = read_one(call, floe_sql_bind(call, sql_work_of_stack, "i", stack_row_id), read_nothing, NULL);

    if (rc < 0)
        return FLOE_EFAIL;
    *is_queued = rc == 1;
    return FLOE_OK;
}

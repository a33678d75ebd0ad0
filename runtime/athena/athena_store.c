/*
 * The workgroup, named query and prepared statement rows of athena_store.h (the query
 * executions: athena_query_store.c). Every statement names the call's account and region.
 */
#include <assert.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "athena/athena_store.h"
#include "call/call_sql.h"
#include "call/transaction.h"

#define WORKGROUP_COLUMNS                                                                                      \
    "name, description, state, output_location, expected_bucket_owner, encryption_option, kms_key,"           \
    " enforce_configuration, publish_metrics, requester_pays, bytes_scanned_cutoff, engine_version, created_at"

FLOE_SQL(sql_workgroup_read, "SELECT " WORKGROUP_COLUMNS
         " FROM athena_workgroup WHERE account = ?1 AND region = ?2 AND name = ?3");
FLOE_SQL(sql_workgroup_insert, "INSERT INTO athena_workgroup (account, region, " WORKGROUP_COLUMNS ")"
         " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)"
         " ON CONFLICT (account, region, name) DO NOTHING");
FLOE_SQL(sql_workgroup_update,
         "UPDATE athena_workgroup SET description = ?4, state = ?5, output_location = ?6, expected_bucket_owner = ?7,"
         " encryption_option = ?8, kms_key = ?9, enforce_configuration = ?10, publish_metrics = ?11,"
         " requester_pays = ?12, bytes_scanned_cutoff = ?13, engine_version = ?14"
         " WHERE account = ?1 AND region = ?2 AND name = ?3");
FLOE_SQL(sql_workgroup_remove, "DELETE FROM athena_workgroup WHERE account = ?1 AND region = ?2 AND name = ?3");
FLOE_SQL(sql_workgroup_remove_named, "DELETE FROM athena_named_query WHERE account = ?1 AND region = ?2 AND workgroup = ?3");
FLOE_SQL(sql_workgroup_remove_prepared,
         "DELETE FROM athena_prepared_statement WHERE account = ?1 AND region = ?2 AND workgroup = ?3");
FLOE_SQL(sql_workgroup_remove_queries, "DELETE FROM athena_query WHERE account = ?1 AND region = ?2 AND workgroup = ?3");
FLOE_SQL(sql_workgroup_list, "SELECT " WORKGROUP_COLUMNS " FROM athena_workgroup"
         " WHERE account = ?1 AND region = ?2 AND name > ?3 ORDER BY name LIMIT ?4");

#define NAMED_COLUMNS "seq, id, workgroup, name, description, database_name, query_string"
FLOE_SQL(sql_named_insert, "INSERT INTO athena_named_query (id, account, region, workgroup, name, description,"
         " database_name, query_string) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)");
FLOE_SQL(sql_named_read, "SELECT " NAMED_COLUMNS " FROM athena_named_query WHERE account = ?1 AND region = ?2 AND id = ?3");
FLOE_SQL(sql_named_remove, "DELETE FROM athena_named_query WHERE account = ?1 AND region = ?2 AND id = ?3");
FLOE_SQL(sql_named_list, "SELECT " NAMED_COLUMNS " FROM athena_named_query"
         " WHERE account = ?1 AND region = ?2 AND workgroup = ?3 AND seq > ?4 ORDER BY seq LIMIT ?5");

#define PREPARED_COLUMNS "workgroup, name, query_statement, description, updated_at"
FLOE_SQL(sql_prepared_insert, "INSERT INTO athena_prepared_statement (account, region, " PREPARED_COLUMNS ")"
         " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT (account, region, workgroup, name) DO NOTHING");
FLOE_SQL(sql_prepared_read, "SELECT " PREPARED_COLUMNS " FROM athena_prepared_statement"
         " WHERE account = ?1 AND region = ?2 AND workgroup = ?3 AND name = ?4");
FLOE_SQL(sql_prepared_remove, "DELETE FROM athena_prepared_statement"
         " WHERE account = ?1 AND region = ?2 AND workgroup = ?3 AND name = ?4");
FLOE_SQL(sql_prepared_list, "SELECT " PREPARED_COLUMNS " FROM athena_prepared_statement"
         " WHERE account = ?1 AND region = ?2 AND workgroup = ?3 AND name > ?4 ORDER BY name LIMIT ?5");

#define DEFAULT_ENGINE_VERSION "AUTO"

/* Runs a bound write; *changed (may be NULL) says whether it touched a row. FLOE_OK or FLOE_EFAIL
 * (500 recorded). */
static int run_write(floe_call_t *call, floe_db_stmt_t *stmt, bool *changed)
{
    int rc = floe_sql_write(call, stmt);

    if (rc != FLOE_OK && rc != FLOE_ENOTFOUND)
        return FLOE_EFAIL;
    if (changed != NULL)
        *changed = rc == FLOE_OK;
    return FLOE_OK;
}

static void read_workgroup(floe_call_t *call, floe_db_stmt_t *s, floe_athena_workgroup_row_t *w)
{
    w->name = floe_sql_text(call, s, 0);
    w->description = floe_sql_text(call, s, 1);
    w->state = floe_sql_text(call, s, 2);
    w->output_location = floe_sql_text(call, s, 3);
    w->expected_bucket_owner = floe_sql_text(call, s, 4);
    w->encryption_option = floe_sql_text(call, s, 5);
    w->kms_key = floe_sql_text(call, s, 6);
    w->enforce_configuration = floe_db_column_int(s, 7) != 0;
    w->publish_metrics = floe_db_column_int(s, 8) != 0;
    w->requester_pays = floe_db_column_int(s, 9) != 0;
    w->has_bytes_scanned_cutoff = !floe_db_column_is_null(s, 10);
    w->bytes_scanned_cutoff = floe_db_column_int64(s, 10);
    w->engine_version = floe_sql_text(call, s, 11);
    w->created_at = floe_db_column_int64(s, 12);
}

/* The cutoff as text, so that an absent one binds SQL NULL (the column's affinity makes it a number). */
static const char *cutoff_text(floe_call_t *call, const floe_athena_workgroup_row_t *w)
{
    return w->has_bytes_scanned_cutoff ? floe_call_printf(call, "%lld", (long long)w->bytes_scanned_cutoff) : NULL;
}

int floe_athena_workgroup_ensure_primary(floe_call_t *call)
{
    floe_athena_workgroup_row_t primary = {.name = FLOE_ATHENA_PRIMARY_WORKGROUP,
                                           .state = "ENABLED",
                                           .publish_metrics = true,
                                           .engine_version = DEFAULT_ENGINE_VERSION};
    bool is_taken;

    return floe_athena_workgroup_insert(call, &primary, &is_taken);
}

int floe_athena_workgroup_read(floe_call_t *call, const char *name, bool *found, floe_athena_workgroup_row_t *out)
{
    floe_db_stmt_t *s = floe_sql_bind(call, sql_workgroup_read, "ttt", floe_call_account(call), floe_call_region(call),
                                    name);
    int rc;

    if (s == NULL)
        return FLOE_EFAIL;
    rc = floe_sql_step(call, s, FLOE_DB_NONE);
    if (rc == FLOE_DB_ROW)
        read_workgroup(call, s, out);
    floe_db_reset(s);
    if (rc != FLOE_DB_ROW && rc != FLOE_DB_DONE)
        return FLOE_EFAIL;
    *found = rc == FLOE_DB_ROW;
    return FLOE_OK;
}

int floe_athena_workgroup_insert(floe_call_t *call, const floe_athena_workgroup_row_t *w, bool *is_taken)
{
    bool changed = false;
    int rc = run_write(call,
                       floe_sql_bind(call, sql_workgroup_insert, "tttttttttnnntti", floe_call_account(call),
                                     floe_call_region(call), w->name, w->description, w->state, w->output_location,
                                     w->expected_bucket_owner, w->encryption_option, w->kms_key,
                                     (int)w->enforce_configuration, (int)w->publish_metrics, (int)w->requester_pays,
                                     cutoff_text(call, w), w->engine_version ? w->engine_version : DEFAULT_ENGINE_VERSION,
                                     (int64_t)floe_call_now(call)),
                       &changed);
    *is_taken = !changed;
    return rc;
}

int floe_athena_workgroup_update(floe_call_t *call, const floe_athena_workgroup_row_t *w)
{
    return run_write(call,
                     floe_sql_bind(call, sql_workgroup_update, "tttttttttnnntt", floe_call_account(call),
                                   floe_call_region(call), w->name, w->description, w->state, w->output_location,
                                   w->expected_bucket_owner, w->encryption_option, w->kms_key,
                                   (int)w->enforce_configuration, (int)w->publish_metrics, (int)w->requester_pays,
                                   cutoff_text(call, w), w->engine_version ? w->engine_version : DEFAULT_ENGINE_VERSION),
                     NULL);
}

typedef struct workgroup_removal {
    const char *name;
    bool *was_there;
} workgroup_removal_t;

static int remove_workgroup(floe_call_t *call, void *arg)
{
    const workgroup_removal_t *r = arg;
    const char *account = floe_call_account(call), *region = floe_call_region(call);

    if (run_write(call, floe_sql_bind(call, sql_workgroup_remove, "ttt", account, region, r->name), r->was_there) ||
        run_write(call, floe_sql_bind(call, sql_workgroup_remove_named, "ttt", account, region, r->name), NULL) ||
        run_write(call, floe_sql_bind(call, sql_workgroup_remove_prepared, "ttt", account, region, r->name), NULL) ||
        run_write(call, floe_sql_bind(call, sql_workgroup_remove_queries, "ttt", account, region, r->name), NULL))
        return FLOE_EFAIL;
    return FLOE_OK;
}

int floe_athena_workgroup_remove(floe_call_t *call, const char *name, bool *was_there)
{
    workgroup_removal_t r = {name, was_there};
    return floe_call_in_transaction(call, remove_workgroup, &r);
}

/* Steps `s` (bound; NULL after a failed bind) into at most `limit` rows of `size` bytes, each filled
 * by `read`. FLOE_OK or FLOE_EFAIL. */
static int read_rows(floe_call_t *call, floe_db_stmt_t *s, int limit, size_t size,
                     void (*read)(floe_call_t *, floe_db_stmt_t *, void *), void **rows, size_t *n)
{
    char *out;
    int rc = FLOE_DB_DONE;

    if (s == NULL)
        return FLOE_EFAIL;
    out = floe_call_alloc(call, size * (size_t)(limit > 0 ? limit : 1));
    *n = 0;
    while (*n < (size_t)limit && (rc = floe_sql_step(call, s, FLOE_DB_NONE)) == FLOE_DB_ROW)
        read(call, s, out + size * (*n)++);
    floe_db_reset(s);
    if (rc != FLOE_DB_ROW && rc != FLOE_DB_DONE)
        return FLOE_EFAIL;
    *rows = out;
    return FLOE_OK;
}

static void read_workgroup_any(floe_call_t *call, floe_db_stmt_t *s, void *row)
{
    read_workgroup(call, s, row);
}

int floe_athena_workgroup_list(floe_call_t *call, const char *after, int limit, floe_athena_workgroup_row_t **rows,
                               size_t *n)
{
    return read_rows(call,
                     floe_sql_bind(call, sql_workgroup_list, "tttn", floe_call_account(call), floe_call_region(call),
                                   after, limit),
                     limit, sizeof(**rows), read_workgroup_any, (void **)rows, n);
}

static void read_named(floe_call_t *call, floe_db_stmt_t *s, void *row)
{
    floe_athena_named_query_row_t *q = row;

    q->seq = floe_db_column_int64(s, 0);
    q->id = floe_sql_text(call, s, 1);
    q->workgroup = floe_sql_text(call, s, 2);
    q->name = floe_sql_text(call, s, 3);
    q->description = floe_sql_text(call, s, 4);
    q->database = floe_sql_text(call, s, 5);
    q->query_string = floe_sql_text(call, s, 6);
}

int floe_athena_named_query_insert(floe_call_t *call, const floe_athena_named_query_row_t *q)
{
    return run_write(call,
                     floe_sql_bind(call, sql_named_insert, "tttttttt", q->id, floe_call_account(call),
                                   floe_call_region(call), q->workgroup, q->name, q->description, q->database,
                                   q->query_string),
                     NULL);
}

int floe_athena_named_query_read(floe_call_t *call, const char *id, bool *found, floe_athena_named_query_row_t *out)
{
    floe_athena_named_query_row_t *rows;
    size_t n;

    if (read_rows(call, floe_sql_bind(call, sql_named_read, "ttt", floe_call_account(call), floe_call_region(call), id),
                  1, sizeof(*rows), read_named, (void **)&rows, &n))
        return FLOE_EFAIL;
    if ((*found = n == 1))
        *out = rows[0];
    return FLOE_OK;
}

int floe_athena_named_query_remove(floe_call_t *call, const char *id, bool *was_there)
{
    return run_write(call,
                     floe_sql_bind(call, sql_named_remove, "ttt", floe_call_account(call), floe_call_region(call), id),
                     was_there);
}

int floe_athena_named_query_list(floe_call_t *call, const char *workgroup, int64_t after, int limit,
                                 floe_athena_named_query_row_t **rows, size_t *n)
{
    return read_rows(call,
                     floe_sql_bind(call, sql_named_list, "tttin", floe_call_account(call), floe_call_region(call),
                                   workgroup, after, limit),
                     limit, sizeof(**rows), read_named, (void **)rows, n);
}

static void read_prepared(floe_call_t *call, floe_db_stmt_t *s, void *row)
{
    floe_athena_prepared_row_t *p = row;

    p->workgroup = floe_sql_text(call, s, 0);
    p->name = floe_sql_text(call, s, 1);
    p->query_statement = floe_sql_text(call, s, 2);
    p->description = floe_sql_text(call, s, 3);
    p->updated_at = floe_db_column_int64(s, 4);
}

int floe_athena_prepared_insert(floe_call_t *call, const floe_athena_prepared_row_t *p, bool *is_taken)
{
    bool changed = false;
    int rc = run_write(call,
                       floe_sql_bind(call, sql_prepared_insert, "tttttti", floe_call_account(call),
                                     floe_call_region(call), p->workgroup, p->name, p->query_statement,
                                     p->description, (int64_t)floe_call_now(call)),
                       &changed);
    *is_taken = !changed;
    return rc;
}

int floe_athena_prepared_read(floe_call_t *call, const char *workgroup, const char *name, bool *found,
                              floe_athena_prepared_row_t *out)
{
    floe_athena_prepared_row_t *rows;
    size_t n;

    if (read_rows(call,
                  floe_sql_bind(call, sql_prepared_read, "tttt", floe_call_account(call), floe_call_region(call),
                                workgroup, name),
                  1, sizeof(*rows), read_prepared, (void **)&rows, &n))
        return FLOE_EFAIL;
    if ((*found = n == 1))
        *out = rows[0];
    return FLOE_OK;
}

int floe_athena_prepared_remove(floe_call_t *call, const char *workgroup, const char *name, bool *was_there)
{
    return run_write(call,
                     floe_sql_bind(call, sql_prepared_remove, "tttt", floe_call_account(call), floe_call_region(call),
                                   workgroup, name),
                     was_there);
}

int floe_athena_prepared_list(floe_call_t *call, const char *workgroup, const char *after, int limit,
                              floe_athena_prepared_row_t **rows, size_t *n)
{
    return read_rows(call,
                     floe_sql_bind(call, sql_prepared_list, "ttttn", floe_call_account(call), floe_call_region(call),
                                   workgroup, after, limit),
                     limit, sizeof(**rows), read_prepared, (void **)rows, n);
}

#define QUERY_COLUMNS                                                                                          \
    "seq, id, workgroup, query_string, statement_type, catalog, database_name, output_location,"              \
    " expected_bucket_owner, encryption_option, kms_key, engine_version, state, state_reason, error_category," \
    " error_type, error_message, submitted_at, completed_at, account, region, result_columns, data_scanned,"      \
    " engine_ms, queue_ms, result_rows, caller_key, denial, substatement_type, update_count, execution_parameters"
FLOE_SQL(sql_query_insert, "INSERT INTO athena_query (id, account, region, workgroup, query_string, statement_type,"
         " catalog, database_name, output_location, expected_bucket_owner, encryption_option, kms_key, engine_version,"
         " state, state_reason, error_category, error_type, error_message, submitted_at, completed_at, caller_key,"
         " execution_parameters)"
         " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22)");
FLOE_SQL(sql_query_read, "SELECT " QUERY_COLUMNS " FROM athena_query WHERE account = ?1 AND region = ?2 AND id = ?3");
FLOE_SQL(sql_query_finish, "UPDATE athena_query SET state = ?4, state_reason = ?5, completed_at = ?6"
         " WHERE account = ?1 AND region = ?2 AND id = ?3");
FLOE_SQL(sql_query_next_queued, "SELECT " QUERY_COLUMNS " FROM athena_query WHERE state = 'QUEUED'"
         " ORDER BY seq LIMIT 1");
FLOE_SQL(sql_query_find, "SELECT " QUERY_COLUMNS " FROM athena_query WHERE id = ?1");
FLOE_SQL(sql_query_deny, "UPDATE athena_query SET denial = ?2 WHERE id = ?1 AND denial IS NULL");
FLOE_SQL(sql_query_state, "SELECT state FROM athena_query WHERE id = ?1");
FLOE_SQL(sql_query_claim, "UPDATE athena_query SET state = 'RUNNING', state_reason = NULL"
         " WHERE id = ?1 AND state = 'QUEUED'");
FLOE_SQL(sql_query_any_queued, "SELECT 1 FROM athena_query WHERE state = 'QUEUED' LIMIT 1");
FLOE_SQL(sql_query_hold_queued, "UPDATE athena_query SET state_reason = ?1"
         " WHERE state = 'QUEUED' AND state_reason IS NOT ?1");
FLOE_SQL(sql_query_complete, "UPDATE athena_query SET state = ?2, state_reason = ?3, statement_type = ?4,"
         " result_columns = ?5, error_category = ?6, error_type = ?7, error_message = ?8, data_scanned = ?9,"
         " engine_ms = ?10, queue_ms = ?11, result_rows = ?12, completed_at = ?13, substatement_type = ?14,"
         " update_count = ?15"
         " WHERE id = ?1 AND state IN ('QUEUED', 'RUNNING')");
FLOE_SQL(sql_query_fail_every, "UPDATE athena_query SET state = 'FAILED', state_reason = ?1,"
         " error_category = ?3, error_type = ?4, error_message = ?1, completed_at = ?2 WHERE state = ?5");
FLOE_SQL(sql_query_list, "SELECT " QUERY_COLUMNS " FROM athena_query WHERE account = ?1 AND region = ?2"
         " AND workgroup = ?3 AND (?4 = 0 OR seq < ?4) ORDER BY seq DESC LIMIT ?5");

/* ExecutionParameters as the column keeps them: a JSON array of strings, NULL when there are none. */
static const char *parameters_json(floe_call_t *call, const floe_athena_query_row_t *q)
{
    cJSON *list;
    char *text;
    const char *kept;

    if (q->n_execution_parameters == 0)
        return NULL;
    list = cJSON_CreateStringArray((const char *const *)q->execution_parameters, (int)q->n_execution_parameters);
    text = cJSON_PrintUnformatted(list);
    kept = floe_call_strdup(call, text);
    cJSON_free(text);
    cJSON_Delete(list);
    return kept;
}

static void read_parameters(floe_call_t *call, const char *json, floe_athena_query_row_t *q)
{
    cJSON *list = json != NULL ? cJSON_Parse(json) : NULL;
    const cJSON *item;
    size_t n = 0;

    q->n_execution_parameters = (size_t)cJSON_GetArraySize(list);
    q->execution_parameters = floe_call_alloc(call, sizeof(char *) * (q->n_execution_parameters + 1));
    cJSON_ArrayForEach(item, list)
        if (cJSON_IsString(item))
            q->execution_parameters[n++] = floe_call_strdup(call, item->valuestring);
    q->n_execution_parameters = n;
    cJSON_Delete(list);
}

static void read_query(floe_call_t *call, floe_db_stmt_t *s, void *row)
{
    floe_athena_query_row_t *q = row;

    q->seq = floe_db_column_int64(s, 0);
    q->id = floe_sql_text(call, s, 1);
    q->workgroup = floe_sql_text(call, s, 2);
    q->query_string = floe_sql_text(call, s, 3);
    q->statement_type = floe_sql_text(call, s, 4);
    q->catalog = floe_sql_text(call, s, 5);
    q->database = floe_sql_text(call, s, 6);
    q->output_location = floe_sql_text(call, s, 7);
    q->expected_bucket_owner = floe_sql_text(call, s, 8);
    q->encryption_option = floe_sql_text(call, s, 9);
    q->kms_key = floe_sql_text(call, s, 10);
    q->engine_version = floe_sql_text(call, s, 11);
    q->state = floe_sql_text(call, s, 12);
    q->state_reason = floe_sql_text(call, s, 13);
    q->has_error = !floe_db_column_is_null(s, 14);
    q->error_category = floe_db_column_int(s, 14);
    q->error_type = floe_db_column_int(s, 15);
    q->error_message = floe_sql_text(call, s, 16);
    q->submitted_at = floe_db_column_int64(s, 17);
    q->has_completed_at = !floe_db_column_is_null(s, 18);
    q->completed_at = floe_db_column_int64(s, 18);
    q->account = floe_sql_text(call, s, 19);
    q->region = floe_sql_text(call, s, 20);
    q->result_columns = floe_sql_text(call, s, 21);
    q->has_stats = !floe_db_column_is_null(s, 22);
    q->data_scanned = floe_db_column_int64(s, 22);
    q->engine_ms = floe_db_column_int64(s, 23);
    q->queue_ms = floe_db_column_int64(s, 24);
    q->result_rows = floe_db_column_int64(s, 25);
    q->caller_key = floe_sql_text(call, s, 26);
    q->denial = floe_sql_text(call, s, 27);
    q->substatement_type = floe_sql_text(call, s, 28);
    q->update_count = floe_db_column_int64(s, 29);
    read_parameters(call, floe_db_column_text(s, 30), q);
}

int floe_athena_query_insert(floe_call_t *call, const floe_athena_query_row_t *q)
{
    const char *category = q->has_error ? floe_call_printf(call, "%d", (int)q->error_category) : NULL;
    const char *type = q->has_error ? floe_call_printf(call, "%d", (int)q->error_type) : NULL;
    const char *completed = q->has_completed_at ? floe_call_printf(call, "%lld", (long long)q->completed_at) : NULL;

    return run_write(call,
                     floe_sql_bind(call, sql_query_insert, "ttttttttttttttttttittt", q->id, floe_call_account(call),
                                   floe_call_region(call), q->workgroup, q->query_string, q->statement_type, q->catalog,
                                   q->database, q->output_location, q->expected_bucket_owner, q->encryption_option,
                                   q->kms_key, q->engine_version, q->state, q->state_reason, category, type,
                                   q->error_message, (int64_t)q->submitted_at, completed, q->caller_key,
                                   parameters_json(call, q)),
                     NULL);
}

int floe_athena_query_read(floe_call_t *call, const char *id, bool *found, floe_athena_query_row_t *out)
{
    floe_athena_query_row_t *rows;
    size_t n;

    if (read_rows(call, floe_sql_bind(call, sql_query_read, "ttt", floe_call_account(call), floe_call_region(call), id),
                  1, sizeof(*rows), read_query, (void **)&rows, &n))
        return FLOE_EFAIL;
    if ((*found = n == 1))
        *out = rows[0];
    return FLOE_OK;
}

int floe_athena_query_finish(floe_call_t *call, const char *id, const char *state, const char *reason)
{
    return run_write(call,
                     floe_sql_bind(call, sql_query_finish, "ttttti", floe_call_account(call), floe_call_region(call),
                                   id, state, reason, (int64_t)floe_call_now(call)),
                     NULL);
}

int floe_athena_query_list(floe_call_t *call, const char *workgroup, int64_t before, int limit,
                           floe_athena_query_row_t **rows, size_t *n)
{
    return read_rows(call,
                     floe_sql_bind(call, sql_query_list, "tttin", floe_call_account(call), floe_call_region(call),
                                   workgroup, before, limit),
                     limit, sizeof(**rows), read_query, (void **)rows, n);
}

/* The oldest QUEUED query of any account and region. */
static int next_queued(floe_call_t *call, bool *found, floe_athena_query_row_t *out)
{
    floe_athena_query_row_t *rows;
    size_t n;

    if (read_rows(call, floe_sql_bind(call, sql_query_next_queued, ""), 1, sizeof(*rows), read_query, (void **)&rows,
                  &n))
        return FLOE_EFAIL;
    if ((*found = n == 1))
        *out = rows[0];
    return FLOE_OK;
}

typedef struct claim {
    bool *found;
    floe_athena_query_row_t *out;
} claim_t;

static int claim_body(floe_call_t *call, void *arg)
{
    claim_t *c = arg;
    int rc;

    if (next_queued(call, c->found, c->out) != FLOE_OK || !*c->found)
        return call->failure.code != FLOE_OK ? FLOE_EFAIL : FLOE_OK;
    rc = floe_sql_write(call, floe_sql_bind(call, sql_query_claim, "t", c->out->id));
    assert(rc != FLOE_ENOTFOUND); /* inside BEGIN IMMEDIATE the row just read is still QUEUED */
    if (rc != FLOE_OK)
        return FLOE_EFAIL;
    c->out->state = "RUNNING";
    c->out->state_reason = NULL;
    return FLOE_OK;
}

int floe_athena_query_claim(floe_call_t *call, bool *found, floe_athena_query_row_t *out)
{
    claim_t c = {found, out};

    *found = false;
    return floe_call_in_transaction(call, claim_body, &c);
}

static void read_one(floe_call_t *call, floe_db_stmt_t *s, void *row)
{
    (void)call, (void)s;
    *(bool *)row = true;
}

int floe_athena_query_hold_queued(floe_call_t *call, const char *reason, bool *any)
{
    bool *rows;
    size_t n;

    /* a read first: an idle engine looks every few seconds, and writes nothing then */
    if (read_rows(call, floe_sql_bind(call, sql_query_any_queued, ""), 1, sizeof(*rows), read_one, (void **)&rows, &n))
        return FLOE_EFAIL;
    *any = n == 1;
    return *any ? run_write(call, floe_sql_bind(call, sql_query_hold_queued, "t", reason), NULL) : FLOE_OK;
}

static void read_state(floe_call_t *call, floe_db_stmt_t *s, void *row)
{
    *(char **)row = floe_sql_text(call, s, 0);
}

int floe_athena_query_state(floe_call_t *call, const char *id, char **state)
{
    char **rows;
    size_t n;

    if (read_rows(call, floe_sql_bind(call, sql_query_state, "t", id), 1, sizeof(*rows), read_state, (void **)&rows, &n))
        return FLOE_EFAIL;
    *state = n == 1 ? rows[0] : NULL;
    return FLOE_OK;
}

int floe_athena_query_complete(floe_call_t *call, const char *id, const floe_athena_query_end_t *e)
{
    const char *category = e->has_error ? floe_call_printf(call, "%d", (int)e->error_category) : NULL;
    const char *type = e->has_error ? floe_call_printf(call, "%d", (int)e->error_type) : NULL;

    return run_write(call,
                     floe_sql_bind(call, sql_query_complete, "ttttttttiiiiiti", id, e->state, e->reason,
                                   e->statement_type, e->result_columns, category, type, e->error_message,
                                   e->data_scanned, e->engine_ms, e->queue_ms, e->result_rows,
                                   (int64_t)floe_call_now(call), e->substatement_type, e->update_count),
                     NULL);
}

int floe_athena_query_fail_every(floe_call_t *call, const char *state, int error_category, int error_type,
                                 const char *reason)
{
    return run_write(call,
                     floe_sql_bind(call, sql_query_fail_every, "tiiit", reason, (int64_t)floe_call_now(call),
                                   (int64_t)error_category, (int64_t)error_type, state),
                     NULL);
}
int floe_athena_query_find(floe_call_t *call, const char *id, bool *found, floe_athena_query_row_t *out)
{
    floe_athena_query_row_t *rows;
    size_t n;

    if (read_rows(call, floe_sql_bind(call, sql_query_find, "t", id), 1, sizeof(*rows), read_query, (void **)&rows, &n))
        return FLOE_EFAIL;
    if ((*found = n == 1))
        *out = rows[0];
    return FLOE_OK;
}

int floe_athena_query_deny(floe_call_t *call, const char *id, const char *sentence)
{
    return run_write(call, floe_sql_bind(call, sql_query_deny, "tt", id, sentence), NULL);
}

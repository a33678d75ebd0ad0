/*
 * TableReplicationResource: where one table is to be replicated, set apart from its bucket's
 * replication ("table-level replication independently of bucket-level replication",
 * PutTableReplication in the model), and the status of that replication.
 *
 * A configuration is one table_replication row (IAM role and version token) and its rules'
 * destinations in table_replication_destination, both going with the table (ON DELETE CASCADE).
 * It works as a bucket's does (table_bucket_replication.c). Floe records the configuration and
 * answers for it; no data is copied anywhere, so every destination's status stays pending.
 *
 * Design notes:
 *  1. The version token is a compare-and-swap key. Each write (Put, Delete) runs in one BEGIN
 *     IMMEDIATE transaction that reads the current token, compares it with the caller's, and
 *     writes: two writers holding the same token cannot both succeed.
 *  2. Every successful Put stores a new random token, so a token identifies one version.
 *  3. A Put without a token overwrites whatever is there (the model makes it optional); a Put with
 *     one needs a configuration with that token. Delete always needs the current token (the model
 *     requires it there).
 *  4. Destinations are table bucket ARNs (service s3tables) other than the table's own bucket,
 *     each listed once (check_destinations). Those in Floe's own account and region must exist;
 *     others cannot be seen from here and are kept as given.
 *
 * States of one table's configuration, and the handler making each transition:
 *
 *     (none) ──floe_handle_PutTableReplication, no token──────────────▶ configured(t1)
 *     configured(tN) ──floe_handle_PutTableReplication, tN or none──▶ configured(tN+1)
 *     configured(tN) ──floe_handle_DeleteTableReplication, tN──────▶ (none)
 *     configured(tN) ──Put or Delete with a token other than tN──▶ ConflictException, unchanged
 *     (none) ──Put with any token──▶ ConflictException;  (none) ──Get, Delete or status──▶ NotFoundException
 *     any ──DeleteTable──▶ gone (ON DELETE CASCADE)
 */
#include <string.h>

#include "arn.h"
#include "floe_api.h"
#include "ids.h"
#include "lookup.h"
#include "state.h"

/* The table replication operations came with the same model version; each handler also names its own. */
#ifdef FLOE_HAS_OP_PutTableReplication

/* What PutTableReplication reports: the configuration is in place when it returns. The value is
 * the model's ReplicationStatus wording, as for PutTableBucketReplication. */
#define PUT_STATUS "completed"

/* The service part of a table bucket ARN: arn:<partition>:s3tables:<region>:<account>:bucket/<name>. */
#define TABLE_BUCKET_SERVICE "s3tables"

static const char sql_get_replication[] = "SELECT version_token, role FROM table_replication WHERE table_id = ?1";

static const char sql_put_replication[] =
    "INSERT INTO table_replication (table_id, version_token, role) VALUES (?1, ?2, ?3)"
    " ON CONFLICT (table_id) DO UPDATE SET version_token = excluded.version_token, role = excluded.role";

static const char sql_delete_replication[] = "DELETE FROM table_replication WHERE table_id = ?1";

static const char sql_clear_destinations[] = "DELETE FROM table_replication_destination WHERE table_id = ?1";

static const char sql_insert_destination[] =
    "INSERT INTO table_replication_destination (table_id, rule_index, position, destination_arn)"
    " VALUES (?1, ?2, ?3, ?4)";

static const char sql_count_destinations[] =
    "SELECT rule_index, COUNT(*) FROM table_replication_destination WHERE table_id = ?1"
    " GROUP BY rule_index ORDER BY rule_index";

static const char sql_list_destinations[] =
    "SELECT rule_index, position, destination_arn FROM table_replication_destination"
    " WHERE table_id = ?1 ORDER BY rule_index, position";

/* The configuration's current row, if any. */
typedef struct replication_row {
    bool is_configured;
    char *version_token;
    char *role;
} replication_row_t;

static int read_replication(floe_call_t *call, int64_t table_id, replication_row_t *out)
{
    floe_state_t *st = floe_call_state(call);
    sqlite3_stmt *stmt = floe_state_stmt(st, sql_get_replication);
    int rc;

    if (stmt == NULL)
        return floe_fail_internal(call, floe_state_errmsg(st));
    sqlite3_bind_int64(stmt, 1, table_id);
    rc = sqlite3_step(stmt);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return floe_fail_internal(call, floe_state_errmsg(st));
    out->is_configured = rc == SQLITE_ROW;
    out->version_token = out->is_configured ? floe_column_text(call, stmt, 0) : NULL;
    out->role = out->is_configured ? floe_column_text(call, stmt, 1) : NULL;
    sqlite3_reset(stmt);
    return FLOE_OK;
}

/* The table and its configuration; NotFoundException when the table has none. */
static int lookup_configured(floe_call_t *call, const char *table_arn, floe_table_row_t *table,
                             replication_row_t *current)
{
    if (floe_lookup_table_by_arn(call, table_arn, table) || read_replication(call, table->id, current))
        return FLOE_EFAIL;
    if (!current->is_configured)
        return floe_fail(call, FLOE_ERR_NotFoundException, "The replication configuration was not found.");
    return FLOE_OK;
}

/* Design note 3: a missing token matches anything; a token never matches a missing configuration. */
static int check_version_token(floe_call_t *call, const replication_row_t *current, const char *token)
{
    if (token == NULL || (current->is_configured && strcmp(token, current->version_token) == 0))
        return FLOE_OK;
    return floe_fail(call, FLOE_ERR_ConflictException,
                     "Provided version token does not match the replication configuration version token.");
}

/* Runs `sql`, which takes the table's row id as ?1 and returns no rows. */
static int exec_for_table(floe_call_t *call, const char *sql, int64_t table_id)
{
    floe_state_t *st = floe_call_state(call);
    sqlite3_stmt *stmt = floe_state_stmt(st, sql);

    if (stmt == NULL)
        return floe_fail_internal(call, floe_state_errmsg(st));
    sqlite3_bind_int64(stmt, 1, table_id);
    if (sqlite3_step(stmt) != SQLITE_DONE)
        return floe_fail_internal(call, floe_state_errmsg(st));
    return FLOE_OK;
}

/* ---- writing a configuration ---- */

/* The model's TableBucketARN pattern admits any service name; a table bucket's ARN is an s3tables one. */
static bool arn_is_table_bucket(const char *arn)
{
    const char *partition = strchr(arn, ':');
    const char *service = partition != NULL ? strchr(partition + 1, ':') : NULL;
    size_t n = strlen(TABLE_BUCKET_SERVICE);

    return service != NULL && strncmp(service + 1, TABLE_BUCKET_SERVICE, n) == 0 && service[1 + n] == ':';
}

/* A replica takes its source's namespace and name in the destination bucket; in the table's own
 * bucket those name the table itself, so that bucket is refused (Floe's inference: AWS documents
 * no message for it). A destination in Floe's own account and region must be a bucket that
 * exists (design note 4). */
static int check_destination(floe_call_t *call, const floe_table_row_t *table, const char *arn)
{
    floe_bucket_row_t destination;

    if (!arn_is_table_bucket(arn))
        return floe_fail(call, FLOE_ERR_BadRequestException, "The destination %s is not a table bucket ARN.", arn);
    if (strcmp(arn, table->bucket.arn) == 0)
        return floe_fail(call, FLOE_ERR_BadRequestException, "A table cannot be replicated to its own table bucket.");
    if (floe_arn_parse_table_bucket(call, arn) == NULL || floe_lookup_bucket(call, arn, &destination) == FLOE_OK)
        return FLOE_OK;
    if (call->error != FLOE_ERR_NotFoundException)
        return FLOE_EFAIL;
    return floe_fail(call, FLOE_ERR_NotFoundException, "The destination table bucket %s does not exist.", arn);
}

/* Whether destination i of rule r repeats one listed before it, in that rule or an earlier one. */
static bool destination_is_repeated(const floe_TableReplicationRules *rules, size_t r, size_t i)
{
    const char *arn = rules->items[r].destinations->items[i].destinationTableBucketARN;

    for (size_t r2 = 0; r2 <= r; r2++) {
        const floe_ReplicationDestinations *d = rules->items[r2].destinations;
        size_t n = r2 == r ? i : d->n;
        for (size_t j = 0; j < n; j++) {
            if (strcmp(arn, d->items[j].destinationTableBucketARN) == 0)
                return true;
        }
    }
    return false;
}

/* Each destination once in the whole configuration, and each one allowed. */
static int check_destinations(floe_call_t *call, const floe_table_row_t *table, const floe_TableReplicationRules *rules)
{
    for (size_t r = 0; r < rules->n; r++) {
        const floe_ReplicationDestinations *d = rules->items[r].destinations;
        for (size_t i = 0; i < d->n; i++) {
            const char *arn = d->items[i].destinationTableBucketARN;
            if (destination_is_repeated(rules, r, i))
                return floe_fail(call, FLOE_ERR_BadRequestException,
                                 "The destination table bucket %s is listed more than once.", arn);
            if (check_destination(call, table, arn))
                return FLOE_EFAIL;
        }
    }
    return FLOE_OK;
}

static int insert_destinations(floe_call_t *call, int64_t table_id, const floe_TableReplicationRules *rules)
{
    floe_state_t *st = floe_call_state(call);
    sqlite3_stmt *stmt;

    for (size_t r = 0; r < rules->n; r++) {
        const floe_ReplicationDestinations *d = rules->items[r].destinations;
        for (size_t i = 0; i < d->n; i++) {
            if ((stmt = floe_state_stmt(st, sql_insert_destination)) == NULL)
                return floe_fail_internal(call, floe_state_errmsg(st));
            sqlite3_bind_int64(stmt, 1, table_id);
            sqlite3_bind_int64(stmt, 2, (int64_t)r);
            sqlite3_bind_int64(stmt, 3, (int64_t)i);
            sqlite3_bind_text(stmt, 4, d->items[i].destinationTableBucketARN, -1, SQLITE_STATIC);
            if (sqlite3_step(stmt) != SQLITE_DONE)
                return floe_fail_internal(call, floe_state_errmsg(st));
        }
    }
    return FLOE_OK;
}

/* Replaces the configuration with `config` under a fresh token (design note 2). */
static int write_replication(floe_call_t *call, int64_t table_id, const floe_TableReplicationConfiguration *config,
                             char *token)
{
    floe_state_t *st = floe_call_state(call);
    sqlite3_stmt *stmt = floe_state_stmt(st, sql_put_replication);

    if (stmt == NULL)
        return floe_fail_internal(call, floe_state_errmsg(st));
    floe_uuid_v4(token);
    sqlite3_bind_int64(stmt, 1, table_id);
    sqlite3_bind_text(stmt, 2, token, -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 3, config->role, -1, SQLITE_STATIC);
    if (sqlite3_step(stmt) != SQLITE_DONE)
        return floe_fail_internal(call, floe_state_errmsg(st));
    if (exec_for_table(call, sql_clear_destinations, table_id))
        return FLOE_EFAIL;
    return insert_destinations(call, table_id, config->rules);
}

/* The body of PutTableReplication, inside its transaction (design note 1). */
static int put_replication(floe_call_t *call, const floe_PutTableReplicationRequest *in,
                           floe_PutTableReplicationResponse *out)
{
    char token[FLOE_UUID_LEN + 1];
    floe_table_row_t table;
    replication_row_t current;

    if (floe_lookup_table_by_arn(call, in->tableArn, &table) || read_replication(call, table.id, &current) ||
        check_version_token(call, &current, in->versionToken) ||
        check_destinations(call, &table, in->configuration->rules) ||
        write_replication(call, table.id, in->configuration, token))
        return FLOE_EFAIL;
    out->versionToken = floe_call_strdup(call, token);
    out->status = PUT_STATUS;
    return FLOE_OK;
}

#ifdef FLOE_HAS_OP_PutTableReplication
int floe_handle_PutTableReplication(floe_call_t *call, const floe_PutTableReplicationRequest *in,
                                    floe_PutTableReplicationResponse *out)
{
    floe_state_t *st = floe_call_state(call);

    if (floe_state_begin(st))
        return floe_fail_internal(call, floe_state_errmsg(st));
    if (put_replication(call, in, out)) {
        floe_state_rollback(st);
        return FLOE_EFAIL;
    }
    if (floe_state_commit(st))
        return floe_fail_internal(call, floe_state_errmsg(st));
    return FLOE_OK;
}
#endif

/* ---- reading a configuration ---- */

#ifdef FLOE_HAS_OP_GetTableReplication
/* The rules, each with room for its destinations (sql_count_destinations). */
static int allocate_rules(floe_call_t *call, int64_t table_id, floe_TableReplicationRules **out)
{
    floe_state_t *st = floe_call_state(call);
    sqlite3_stmt *stmt = floe_state_stmt(st, sql_count_destinations);
    floe_TableReplicationRules *rules;
    size_t n = 0;
    int rc;

    if (stmt == NULL)
        return floe_fail_internal(call, floe_state_errmsg(st));
    sqlite3_bind_int64(stmt, 1, table_id);
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW)
        n = (size_t)sqlite3_column_int64(stmt, 0) + 1; /* rule indexes are dense, written by insert_destinations */
    if (rc != SQLITE_DONE)
        return floe_fail_internal(call, floe_state_errmsg(st));
    rules = floe_TableReplicationRules_new(call, n);
    sqlite3_reset(stmt);
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        size_t r = (size_t)sqlite3_column_int64(stmt, 0);
        rules->items[r].destinations = floe_ReplicationDestinations_new(call, (size_t)sqlite3_column_int64(stmt, 1));
    }
    if (rc != SQLITE_DONE)
        return floe_fail_internal(call, floe_state_errmsg(st));
    *out = rules;
    return FLOE_OK;
}

static int read_rules(floe_call_t *call, int64_t table_id, floe_TableReplicationRules **out)
{
    floe_state_t *st = floe_call_state(call);
    floe_TableReplicationRules *rules = NULL;
    sqlite3_stmt *stmt;
    int rc;

    if (allocate_rules(call, table_id, &rules))
        return FLOE_EFAIL;
    if ((stmt = floe_state_stmt(st, sql_list_destinations)) == NULL)
        return floe_fail_internal(call, floe_state_errmsg(st));
    sqlite3_bind_int64(stmt, 1, table_id);
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        size_t r = (size_t)sqlite3_column_int64(stmt, 0), i = (size_t)sqlite3_column_int64(stmt, 1);
        rules->items[r].destinations->items[i].destinationTableBucketARN = floe_column_text(call, stmt, 2);
    }
    if (rc != SQLITE_DONE)
        return floe_fail_internal(call, floe_state_errmsg(st));
    *out = rules;
    return FLOE_OK;
}

int floe_handle_GetTableReplication(floe_call_t *call, const floe_GetTableReplicationRequest *in,
                                    floe_GetTableReplicationResponse *out)
{
    floe_table_row_t table;
    replication_row_t current;

    if (lookup_configured(call, in->tableArn, &table, &current))
        return FLOE_EFAIL;
    out->versionToken = current.version_token;
    out->configuration = floe_TableReplicationConfiguration_new(call);
    out->configuration->role = current.role;
    return read_rules(call, table.id, &out->configuration->rules);
}
#endif

/* ---- replication status ---- */

#ifdef FLOE_HAS_OP_GetTableReplicationStatus
/* One status per destination, in the configuration's order. Nothing is ever copied, so each is
 * pending, with no destination table, last update or failure. */
int floe_handle_GetTableReplicationStatus(floe_call_t *call, const floe_GetTableReplicationStatusRequest *in,
                                          floe_GetTableReplicationStatusResponse *out)
{
    floe_state_t *st = floe_call_state(call);
    floe_ReplicationDestinationStatuses *statuses;
    floe_table_row_t table;
    replication_row_t current;
    sqlite3_stmt *stmt;
    size_t n = 0;
    int rc;

    if (lookup_configured(call, in->tableArn, &table, &current))
        return FLOE_EFAIL;
    if ((stmt = floe_state_stmt(st, sql_list_destinations)) == NULL)
        return floe_fail_internal(call, floe_state_errmsg(st));
    sqlite3_bind_int64(stmt, 1, table.id);
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW)
        n++;
    if (rc != SQLITE_DONE)
        return floe_fail_internal(call, floe_state_errmsg(st));
    statuses = floe_ReplicationDestinationStatuses_new(call, n);
    sqlite3_reset(stmt);
    for (size_t i = 0; i < n && sqlite3_step(stmt) == SQLITE_ROW; i++) {
        statuses->items[i].replicationStatus = FLOE_ReplicationStatus_PENDING;
        statuses->items[i].destinationTableBucketArn = floe_column_text(call, stmt, 2);
    }
    out->sourceTableArn = table.arn;
    out->destinations = statuses;
    return FLOE_OK;
}
#endif

/* ---- deleting a configuration ---- */

#ifdef FLOE_HAS_OP_DeleteTableReplication
/* The body of DeleteTableReplication, inside its transaction (design note 1). */
static int delete_replication(floe_call_t *call, const floe_DeleteTableReplicationRequest *in)
{
    floe_table_row_t table;
    replication_row_t current;

    if (lookup_configured(call, in->tableArn, &table, &current) ||
        check_version_token(call, &current, in->versionToken))
        return FLOE_EFAIL;
    return exec_for_table(call, sql_delete_replication, table.id); /* destinations cascade */
}

int floe_handle_DeleteTableReplication(floe_call_t *call, const floe_DeleteTableReplicationRequest *in,
                                       floe_Unit *out)
{
    floe_state_t *st = floe_call_state(call);
    (void)out;

    if (floe_state_begin(st))
        return floe_fail_internal(call, floe_state_errmsg(st));
    if (delete_replication(call, in)) {
        floe_state_rollback(st);
        return FLOE_EFAIL;
    }
    if (floe_state_commit(st))
        return floe_fail_internal(call, floe_state_errmsg(st));
    return FLOE_OK;
}
#endif

#endif /* FLOE_HAS_OP_PutTableReplication */

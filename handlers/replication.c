/*
 * The shared half of replication configurations (replication.h).
 *
 * Design notes:
 *  1. The version token is a compare-and-swap key: callers read the row, compare the token and
 *     write, all inside floe_call_in_transaction(), so two writers holding one token cannot
 *     both succeed; every write stores a new random token.
 *  2. Rule indexes and positions are dense (floe_replication_write numbers them), so reading
 *     sizes every list from one grouped count, then fills it.
 */
#include <string.h>

#include "catalog/arn.h"
#include "catalog/lookup.h"
#include "owned_row.h"
#include "replication.h"
#include "catalog/state.h"

/* The service part of a table bucket ARN: arn:<partition>:s3tables:<region>:<account>:bucket/<name>. */
#define TABLE_BUCKET_SERVICE "s3tables"

int floe_replication_read(floe_call_t *call, const floe_replication_sql_t *sql, int64_t owner_id,
                          floe_replication_row_t *out)
{
    sqlite3_stmt *stmt;
    int rc = floe_owned_row(call, sql->get, owner_id, &stmt);

    if (rc < 0)
        return FLOE_EFAIL;
    out->is_configured = rc == 1;
    out->version_token = rc == 1 ? floe_column_text(call, stmt, 0) : NULL;
    out->role = rc == 1 ? floe_column_text(call, stmt, 1) : NULL;
    return FLOE_OK;
}

/* A missing token matches anything; a token never matches a missing configuration. */
int floe_replication_check_token(floe_call_t *call, const floe_replication_row_t *current, const char *token)
{
    if (token == NULL || (current->is_configured && strcmp(token, current->version_token) == 0))
        return FLOE_OK;
    return floe_fail(call, FLOE_ERR_ConflictException,
                     "Provided version token does not match the replication configuration version token.");
}

/* The model's TableBucketARN pattern admits any service name; a table bucket's ARN is an s3tables one. */
static bool arn_is_table_bucket(const char *arn)
{
    const char *partition = strchr(arn, ':');
    const char *service = partition != NULL ? strchr(partition + 1, ':') : NULL;
    size_t n = strlen(TABLE_BUCKET_SERVICE);

    return service != NULL && strncmp(service + 1, TABLE_BUCKET_SERVICE, n) == 0 && service[1 + n] == ':';
}

static int check_destination(floe_call_t *call, const char *arn, const char *own_bucket_arn,
                             const char *own_bucket_message)
{
    floe_bucket_row_t destination;

    if (!arn_is_table_bucket(arn))
        return floe_fail(call, FLOE_ERR_BadRequestException, "The destination %s is not a table bucket ARN.", arn);
    if (strcmp(arn, own_bucket_arn) == 0)
        return floe_fail(call, FLOE_ERR_BadRequestException, "%s", own_bucket_message);
    if (floe_arn_parse_table_bucket(call, arn) == NULL || floe_lookup_bucket(call, arn, &destination) == FLOE_OK)
        return FLOE_OK; /* another account's or region's bucket cannot be seen from here */
    if (call->error != FLOE_ERR_NotFoundException)
        return FLOE_EFAIL;
    return floe_fail(call, FLOE_ERR_NotFoundException, "The destination table bucket %s does not exist.", arn);
}

/* Whether destination i of rule r repeats one listed before it, in that rule or an earlier one. */
static bool destination_is_repeated(floe_ReplicationDestinations *const *rules, size_t r, size_t i)
{
    const char *arn = rules[r]->items[i].destinationTableBucketARN;

    for (size_t r2 = 0; r2 <= r; r2++) {
        size_t n = r2 == r ? i : rules[r2]->n;
        for (size_t j = 0; j < n; j++) {
            if (strcmp(arn, rules[r2]->items[j].destinationTableBucketARN) == 0)
                return true;
        }
    }
    return false;
}

int floe_replication_check_destinations(floe_call_t *call, floe_ReplicationDestinations *const *rules, size_t n_rules,
                                        const char *own_bucket_arn, const char *own_bucket_message)
{
    for (size_t r = 0; r < n_rules; r++) {
        for (size_t i = 0; i < rules[r]->n; i++) {
            const char *arn = rules[r]->items[i].destinationTableBucketARN;
            if (destination_is_repeated(rules, r, i))
                return floe_fail(call, FLOE_ERR_BadRequestException,
                                 "The destination table bucket %s is listed more than once.", arn);
            if (check_destination(call, arn, own_bucket_arn, own_bucket_message))
                return FLOE_EFAIL;
        }
    }
    return FLOE_OK;
}

static int insert_destinations(floe_call_t *call, const floe_replication_sql_t *sql, int64_t owner_id,
                               floe_ReplicationDestinations *const *rules, size_t n_rules)
{
    floe_state_t *st = floe_call_state(call);
    sqlite3_stmt *stmt;

    for (size_t r = 0; r < n_rules; r++) {
        for (size_t i = 0; i < rules[r]->n; i++) {
            if ((stmt = floe_state_stmt(st, sql->insert_destination)) == NULL)
                return floe_fail_internal(call, floe_state_errmsg(st));
            sqlite3_bind_int64(stmt, 1, owner_id);
            sqlite3_bind_int64(stmt, 2, (int64_t)r);
            sqlite3_bind_int64(stmt, 3, (int64_t)i);
            sqlite3_bind_text(stmt, 4, rules[r]->items[i].destinationTableBucketARN, -1, SQLITE_STATIC);
            if (sqlite3_step(stmt) != SQLITE_DONE)
                return floe_fail_internal(call, floe_state_errmsg(st));
        }
    }
    return FLOE_OK;
}

int floe_replication_write(floe_call_t *call, const floe_replication_sql_t *sql, int64_t owner_id, const char *role,
                           floe_ReplicationDestinations *const *rules, size_t n_rules, char token[FLOE_UUID_LEN + 1])
{
    floe_state_t *st = floe_call_state(call);
    sqlite3_stmt *stmt = floe_state_stmt(st, sql->put);

    if (stmt == NULL)
        return floe_fail_internal(call, floe_state_errmsg(st));
    floe_uuid_v4(token);
    sqlite3_bind_int64(stmt, 1, owner_id);
    sqlite3_bind_text(stmt, 2, token, -1, SQLITE_STATIC);
    sqlite3_bind_text(stmt, 3, role, -1, SQLITE_STATIC);
    if (sqlite3_step(stmt) != SQLITE_DONE)
        return floe_fail_internal(call, floe_state_errmsg(st));
    if (floe_owned_exec(call, sql->clear_destinations, owner_id))
        return FLOE_EFAIL;
    return insert_destinations(call, sql, owner_id, rules, n_rules);
}

/* One empty list per rule, each with room for its destinations (design note 2). */
static int allocate_rules(floe_call_t *call, const floe_replication_sql_t *sql, int64_t owner_id,
                          floe_ReplicationDestinations ***out, size_t *n_out)
{
    floe_state_t *st = floe_call_state(call);
    sqlite3_stmt *stmt = floe_state_stmt(st, sql->count_destinations);
    floe_ReplicationDestinations **rules;
    size_t n = 0;
    int rc;

    if (stmt == NULL)
        return floe_fail_internal(call, floe_state_errmsg(st));
    sqlite3_bind_int64(stmt, 1, owner_id);
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW)
        n = (size_t)sqlite3_column_int64(stmt, 0) + 1;
    if (rc != SQLITE_DONE)
        return floe_fail_internal(call, floe_state_errmsg(st));
    rules = floe_call_alloc(call, (n ? n : 1) * sizeof(*rules));
    sqlite3_reset(stmt);
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW)
        rules[sqlite3_column_int64(stmt, 0)] = floe_ReplicationDestinations_new(call, (size_t)sqlite3_column_int64(stmt, 1));
    if (rc != SQLITE_DONE)
        return floe_fail_internal(call, floe_state_errmsg(st));
    *out = rules;
    *n_out = n;
    return FLOE_OK;
}

int floe_replication_read_rules(floe_call_t *call, const floe_replication_sql_t *sql, int64_t owner_id,
                                floe_ReplicationDestinations ***rules, size_t *n_rules)
{
    floe_state_t *st = floe_call_state(call);
    sqlite3_stmt *stmt;
    int rc;

    if (allocate_rules(call, sql, owner_id, rules, n_rules))
        return FLOE_EFAIL;
    if ((stmt = floe_state_stmt(st, sql->list_destinations)) == NULL)
        return floe_fail_internal(call, floe_state_errmsg(st));
    sqlite3_bind_int64(stmt, 1, owner_id);
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        size_t r = (size_t)sqlite3_column_int64(stmt, 0), i = (size_t)sqlite3_column_int64(stmt, 1);
        (*rules)[r]->items[i].destinationTableBucketARN = floe_column_text(call, stmt, 2);
    }
    if (rc != SQLITE_DONE)
        return floe_fail_internal(call, floe_state_errmsg(st));
    return FLOE_OK;
}

int floe_replication_remove(floe_call_t *call, const floe_replication_sql_t *sql, int64_t owner_id)
{
    return floe_owned_exec(call, sql->remove, owner_id);
}


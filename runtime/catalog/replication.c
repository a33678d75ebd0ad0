/*
 * The replication configurations of replication.h: one set of statements per owner, on that
 * owner's two tables, chosen by floe_replication_owner_t.
 */
#include <assert.h>

#include "call/call_sql.h"
#include "catalog/replication.h"
#include "db/state.h"

/* Beside each destination: how many its rule has, and how many rules there are (design note 2). */
#define SIZES "COUNT(*) OVER (PARTITION BY rule_index), MAX(rule_index) OVER () + 1"

/* ---- a table bucket's configuration ---- */

FLOE_SQL(sql_bucket_get, "SELECT version_token, role FROM table_bucket_replication WHERE table_bucket_id = ?1");

FLOE_SQL(sql_bucket_put,
    "INSERT INTO table_bucket_replication (table_bucket_id, version_token, role) VALUES (?1, ?2, ?3)"
    " ON CONFLICT (table_bucket_id) DO UPDATE SET version_token = excluded.version_token, role = excluded.role");

FLOE_SQL(sql_bucket_remove, "DELETE FROM table_bucket_replication WHERE table_bucket_id = ?1");

FLOE_SQL(sql_bucket_clear_destinations,
    "DELETE FROM table_bucket_replication_destination WHERE table_bucket_id = ?1");

FLOE_SQL(sql_bucket_insert_destination,
    "INSERT INTO table_bucket_replication_destination (table_bucket_id, rule_index, position, destination_arn)"
    " VALUES (?1, ?2, ?3, ?4)");

FLOE_SQL(sql_bucket_list_destinations,
    "SELECT rule_index, position, destination_arn, " SIZES " FROM table_bucket_replication_destination"
    " WHERE table_bucket_id = ?1 ORDER BY rule_index, position");

/* ---- a table's configuration ---- */

FLOE_SQL(sql_table_get, "SELECT version_token, role FROM table_replication WHERE table_id = ?1");

FLOE_SQL(sql_table_put,
    "INSERT INTO table_replication (table_id, version_token, role) VALUES (?1, ?2, ?3)"
    " ON CONFLICT (table_id) DO UPDATE SET version_token = excluded.version_token, role = excluded.role");

FLOE_SQL(sql_table_remove, "DELETE FROM table_replication WHERE table_id = ?1");

FLOE_SQL(sql_table_clear_destinations, "DELETE FROM table_replication_destination WHERE table_id = ?1");

FLOE_SQL(sql_table_insert_destination,
    "INSERT INTO table_replication_destination (table_id, rule_index, position, destination_arn)"
    " VALUES (?1, ?2, ?3, ?4)");

FLOE_SQL(sql_table_list_destinations,
    "SELECT rule_index, position, destination_arn, " SIZES " FROM table_replication_destination"
    " WHERE table_id = ?1 ORDER BY rule_index, position");

/* The statements on one owner's tables; ?1 is always the owner's row id. */
typedef struct owner_sql {
    const char *get;                /* -> version_token, role */
    const char *put;                /* ?2 token, ?3 role: upsert */
    const char *remove;             /* the configuration; its destinations cascade */
    const char *clear_destinations;
    const char *insert_destination; /* ?2 rule index, ?3 position, ?4 destination ARN */
    const char *list_destinations;  /* -> rule index, position, destination ARN, rule size, rule count */
} owner_sql_t;

static const owner_sql_t owner_sql[] = {
    [FLOE_REPLICATION_OF_BUCKET] = {sql_bucket_get, sql_bucket_put, sql_bucket_remove, sql_bucket_clear_destinations,
                                    sql_bucket_insert_destination, sql_bucket_list_destinations},
    [FLOE_REPLICATION_OF_TABLE] = {sql_table_get, sql_table_put, sql_table_remove, sql_table_clear_destinations,
                                   sql_table_insert_destination, sql_table_list_destinations},
};

static const owner_sql_t *sql_of(floe_replication_owner_t owner)
{
    assert((size_t)owner < sizeof(owner_sql) / sizeof(owner_sql[0]));
    return &owner_sql[owner];
}

int floe_replication_read(floe_call_t *call, floe_replication_owner_t owner, int64_t owner_id,
                          floe_replication_row_t *out)
{
    floe_db_stmt_t *stmt = floe_sql_bind(call, sql_of(owner)->get, "i", owner_id);
    int rc;

    if (stmt == NULL)
        return FLOE_EFAIL;
    rc = floe_sql_step(call, stmt, FLOE_DB_NONE);
    out->is_configured = rc == FLOE_DB_ROW;
    out->version_token = rc == FLOE_DB_ROW ? floe_sql_text(call, stmt, 0) : NULL;
    out->role = rc == FLOE_DB_ROW ? floe_sql_text(call, stmt, 1) : NULL;
    floe_db_reset(stmt);
    return rc == FLOE_DB_ROW || rc == FLOE_DB_DONE ? FLOE_OK : FLOE_EFAIL;
}

/* Files one row of list_destinations into *rules, sizing the rules from the first row and each
 * rule from its first destination (design note 2). */
static void read_destination(floe_call_t *call, floe_db_stmt_t *stmt, floe_replication_rule_t **rules, size_t *n_rules)
{
    size_t r = (size_t)floe_db_column_int64(stmt, 0), i = (size_t)floe_db_column_int64(stmt, 1);

    if (*rules == NULL) {
        *n_rules = (size_t)floe_db_column_int64(stmt, 4);
        *rules = floe_call_alloc(call, *n_rules * sizeof(**rules));
    }
    assert(r < *n_rules);
    if ((*rules)[r].destination_arns == NULL) {
        (*rules)[r].n_destinations = (size_t)floe_db_column_int64(stmt, 3);
        (*rules)[r].destination_arns = floe_call_alloc(call, (*rules)[r].n_destinations * sizeof(char *));
    }
    assert(i < (*rules)[r].n_destinations); /* positions are dense */
    (*rules)[r].destination_arns[i] = floe_sql_text(call, stmt, 2);
}

int floe_replication_read_rules(floe_call_t *call, floe_replication_owner_t owner, int64_t owner_id,
                                floe_replication_rule_t **rules, size_t *n_rules)
{
    floe_db_stmt_t *stmt = floe_sql_bind(call, sql_of(owner)->list_destinations, "i", owner_id);
    floe_replication_rule_t *list = NULL;
    size_t n = 0;
    int rc;

    /* One statement, so one snapshot: the sizes agree with the rows. */
    if (stmt == NULL)
        return FLOE_EFAIL;
    while ((rc = floe_sql_step(call, stmt, FLOE_DB_NONE)) == FLOE_DB_ROW)
        read_destination(call, stmt, &list, &n);
    floe_db_reset(stmt);
    if (rc != FLOE_DB_DONE)
        return FLOE_EFAIL;
    *rules = list;
    *n_rules = n;
    return FLOE_OK;
}

int floe_replication_write(floe_call_t *call, floe_replication_owner_t owner, int64_t owner_id, const char *role,
                           const floe_replication_rule_t *rules, size_t n_rules, char token[FLOE_UUID_LEN + 1])
{
    const owner_sql_t *sql = sql_of(owner);

    floe_uuid_v4(token); /* design note 1 */
    if (floe_sql_exec(call, sql->put, "itt", owner_id, token, role) ||
        floe_sql_exec(call, sql->clear_destinations, "i", owner_id))
        return FLOE_EFAIL;
    for (size_t r = 0; r < n_rules; r++) {
        for (size_t i = 0; i < rules[r].n_destinations; i++) {
            if (floe_sql_exec(call, sql->insert_destination, "iiit", owner_id, (int64_t)r, (int64_t)i,
                              rules[r].destination_arns[i]))
                return FLOE_EFAIL;
        }
    }
    return FLOE_OK;
}

int floe_replication_remove(floe_call_t *call, floe_replication_owner_t owner, int64_t owner_id)
{
    return floe_sql_exec(call, sql_of(owner)->remove, "i", owner_id);
}

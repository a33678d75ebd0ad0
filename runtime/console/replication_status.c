/*
 * What replication is doing, as the console shows it (replication_status.h): on a source table's
 * page, each destination's status; on a table bucket's page, each destination of the bucket's
 * configuration with the statuses of the tables it covers added up; on a replica's page, its source
 * and how replication into it stands. Every status is the one GetTableReplicationStatus
 * (handlers/s3tables/table_replication.c) reports, derived from the same row (design note 3 of
 * catalog/replication_queue.h): failed while the last attempt failed, completed once the replica
 * holds the source's current metadata, else pending.
 *
 * Not for replication configurations (resource.c) nor for the worker (runtime/replication/).
 */
#include <string.h>

#include "catalog/replication.h"
#include "catalog/replication_queue.h"
#include "catalog/table.h"
#include "console/replication_status.h"

#define TABLES_PER_PAGE 1000 /* a bucket's tables are read a page at a time */

/* What a bucket's destination adds up to over its tables. */
typedef struct tally {
    const char *destination;
    int64_t n_completed, n_pending, n_failed;
    const char *failure_message; /* the first failed table's */
    const char *failed_table;    /* its "namespace.name" */
    bool has_replicated;
    floe_timestamp_t last_replicated_at; /* the latest over the tables */
} tally_t;

/* Adds the destinations of `rules` not yet in the list (a table replicates to its own and to its
 * bucket's, each once: GetTableReplicationStatus, handlers/s3tables/table_replication.c). */
static void add_destinations(floe_call_t *call, const floe_replication_rule_t *rules, size_t n_rules, char ***list,
                             size_t *n, size_t *cap)
{
    for (size_t r = 0; r < n_rules; r++) {
        for (size_t i = 0; i < rules[r].n_destinations; i++) {
            size_t k = 0;
            while (k < *n && strcmp((*list)[k], rules[r].destination_arns[i]) != 0)
                k++;
            if (k == *n) {
                *list = floe_call_grow(call, *list, *n, cap, sizeof(char *));
                (*list)[(*n)++] = rules[r].destination_arns[i];
            }
        }
    }
}

/* The destinations `t` replicates to: its own configuration's, then its bucket's. */
static int table_destinations(floe_call_t *call, const floe_table_row_t *t, char ***list, size_t *n)
{
    floe_replication_rule_t *own, *inherited;
    size_t n_own, n_inherited, cap = 0;

    *list = NULL;
    *n = 0;
    if (floe_replication_read_rules(call, FLOE_REPLICATION_OF_TABLE, t->id, &own, &n_own) ||
        floe_replication_read_rules(call, FLOE_REPLICATION_OF_BUCKET, t->bucket.id, &inherited, &n_inherited))
        return FLOE_EFAIL;
    add_destinations(call, own, n_own, list, n, &cap);
    add_destinations(call, inherited, n_inherited, list, n, &cap);
    return FLOE_OK;
}

/* The pair's status as GetTableReplicationStatus derives it, for source `t` and its row. */
static const char *pair_status(const floe_table_row_t *t, const floe_replication_status_row_t *row)
{
    if (row->is_failed)
        return "failed";
    if (row->last_metadata_location != NULL && t->metadata_location != NULL &&
        strcmp(row->last_metadata_location, t->metadata_location) == 0)
        return "completed";
    return "pending";
}

/* The members of one pair's status: replicationStatus, the replica, the failure, the last update. */
static void write_pair(floe_json_t *json, const floe_table_row_t *t, const floe_replication_status_row_t *row)
{
    floe_json_key(json, "replicationStatus");
    floe_json_string(json, pair_status(t, row));
    if (row->replica_table_arn != NULL) {
        floe_json_key(json, "destinationTableArn");
        floe_json_string(json, row->replica_table_arn);
    }
    if (row->failure_message != NULL) {
        floe_json_key(json, "failureMessage");
        floe_json_string(json, row->failure_message);
    }
    if (row->last_metadata_location != NULL) {
        floe_json_key(json, "lastReplicatedMetadataLocation");
        floe_json_string(json, row->last_metadata_location);
        floe_json_key(json, "lastReplicatedAt");
        floe_json_timestamp(json, row->last_replicated_at);
    }
}

int floe_console_write_replication_status(floe_call_t *call, floe_json_t *json, const floe_table_row_t *t)
{
    char **destinations;
    size_t n;

    if (table_destinations(call, t, &destinations, &n))
        return FLOE_EFAIL;
    floe_json_key(json, "replicationStatus");
    floe_json_array_begin(json);
    for (size_t i = 0; i < n; i++) {
        floe_replication_status_row_t row;
        if (floe_replication_status_read(call, t->id, destinations[i], &row))
            return FLOE_EFAIL;
        floe_json_object_begin(json);
        floe_json_key(json, "destinationTableBucketArn");
        floe_json_string(json, destinations[i]);
        write_pair(json, t, &row);
        floe_json_object_end(json);
    }
    floe_json_array_end(json);
    return FLOE_OK;
}

/* ---- a bucket: each destination over the tables it covers ---- */

static int tally_table(floe_call_t *call, const floe_table_row_t *t, tally_t *tally)
{
    floe_replication_status_row_t row;
    const char *status;

    if (floe_replication_status_read(call, t->id, tally->destination, &row))
        return FLOE_EFAIL;
    status = pair_status(t, &row);
    if (strcmp(status, "failed") == 0) {
        tally->n_failed++;
        if (tally->failure_message == NULL) {
            tally->failure_message = row.failure_message;
            tally->failed_table = floe_call_printf(call, "%s.%s", t->ns.name, t->name);
        }
    } else if (strcmp(status, "completed") == 0) {
        tally->n_completed++;
    } else {
        tally->n_pending++;
    }
    if (row.last_metadata_location != NULL &&
        (!tally->has_replicated || row.last_replicated_at > tally->last_replicated_at)) {
        tally->has_replicated = true;
        tally->last_replicated_at = row.last_replicated_at;
    }
    return FLOE_OK;
}

/* Every table of bucket `b`, a page at a time, into each destination's tally. */
static int tally_tables(floe_call_t *call, const floe_bucket_row_t *b, tally_t *tallies, size_t n)
{
    floe_table_list_query_t q = {b, NULL, NULL, NULL, NULL, TABLES_PER_PAGE};
    floe_table_row_t *rows;
    size_t n_rows;

    do {
        if (floe_table_list(call, &q, &rows, &n_rows))
            return FLOE_EFAIL;
        for (size_t i = 0; i < n_rows; i++) {
            for (size_t d = 0; d < n; d++) {
                if (tally_table(call, &rows[i], &tallies[d]))
                    return FLOE_EFAIL;
            }
        }
        if (n_rows > 0) {
            q.after_ns = rows[n_rows - 1].ns.name;
            q.after_name = rows[n_rows - 1].name;
        }
    } while (n_rows == TABLES_PER_PAGE);
    return FLOE_OK;
}

static const char *tally_status(const tally_t *t)
{
    if (t->n_failed > 0)
        return "failed";
    if (t->n_pending > 0)
        return "pending";
    return t->n_completed > 0 ? "completed" : "none";
}

static void write_tally(floe_json_t *json, const tally_t *t)
{
    floe_json_object_begin(json);
    floe_json_key(json, "destinationTableBucketArn");
    floe_json_string(json, t->destination);
    floe_json_key(json, "replicationStatus");
    floe_json_string(json, tally_status(t));
    floe_json_key(json, "tables");
    floe_json_object_begin(json);
    floe_json_key(json, "completed");
    floe_json_int(json, t->n_completed);
    floe_json_key(json, "pending");
    floe_json_int(json, t->n_pending);
    floe_json_key(json, "failed");
    floe_json_int(json, t->n_failed);
    floe_json_object_end(json);
    if (t->failure_message != NULL) {
        floe_json_key(json, "failureMessage");
        floe_json_string(json, t->failure_message);
        floe_json_key(json, "failedTable");
        floe_json_string(json, t->failed_table);
    }
    if (t->has_replicated) {
        floe_json_key(json, "lastReplicatedAt");
        floe_json_timestamp(json, t->last_replicated_at);
    }
    floe_json_object_end(json);
}

int floe_console_write_bucket_replication_status(floe_call_t *call, floe_json_t *json, const floe_bucket_row_t *b)
{
    floe_replication_rule_t *rules;
    size_t n_rules, n = 0, cap = 0;
    char **destinations = NULL;
    tally_t *tallies;

    if (floe_replication_read_rules(call, FLOE_REPLICATION_OF_BUCKET, b->id, &rules, &n_rules))
        return FLOE_EFAIL;
    add_destinations(call, rules, n_rules, &destinations, &n, &cap);
    tallies = floe_call_alloc(call, (n ? n : 1) * sizeof(*tallies));
    for (size_t i = 0; i < n; i++)
        tallies[i].destination = destinations[i];
    if (n > 0 && tally_tables(call, b, tallies, n))
        return FLOE_EFAIL;
    floe_json_key(json, "replicationStatus");
    floe_json_array_begin(json);
    for (size_t i = 0; i < n; i++)
        write_tally(json, &tallies[i]);
    floe_json_array_end(json);
    return FLOE_OK;
}

/* ---- a replica: its source ---- */

/* Looks up the source table by its ARN in the source's own scope (another account or region than
 * the replica's, often). *found is false when the source no longer exists. */
static int find_source(floe_call_t *call, const char *source_arn, floe_table_row_t *source, bool *found)
{
    floe_scope_t replica_scope = call->scope, source_scope;
    int rc;

    floe_scope_from_arn(floe_call_config(call), source_arn, &source_scope);
    floe_call_set_scope(call, &source_scope);
    rc = floe_lookup_table_by_arn(call, source_arn, source);
    floe_call_set_scope(call, &replica_scope);
    *found = rc == FLOE_OK;
    if (rc == FLOE_OK)
        return FLOE_OK;
    if (call->failure.code == FLOE_EFAIL)
        return FLOE_EFAIL;
    floe_call_clear_failure(call); /* a deleted source is an answer, not a failure */
    return FLOE_OK;
}

/* The source's side: its name, whether it still replicates here, and the pair's status. */
static int write_source(floe_call_t *call, floe_json_t *json, const floe_table_row_t *source,
                        const floe_table_row_t *replica)
{
    floe_replication_status_row_t row;
    char **destinations;
    size_t n, i = 0;

    if (table_destinations(call, source, &destinations, &n) ||
        floe_replication_status_read(call, source->id, replica->bucket.arn, &row))
        return FLOE_EFAIL;
    while (i < n && strcmp(destinations[i], replica->bucket.arn) != 0)
        i++;
    floe_json_key(json, "source");
    floe_json_string(json, "present");
    floe_json_key(json, "sourceNamespace");
    floe_json_string(json, source->ns.name);
    floe_json_key(json, "sourceName");
    floe_json_string(json, source->name);
    floe_json_key(json, "isReplicating");
    floe_json_bool(json, i < n);
    write_pair(json, source, &row);
    return FLOE_OK;
}

int floe_console_write_replica_source(floe_console_req_t *r, floe_json_t *json, const floe_table_row_t *t)
{
    floe_call_t *call = &r->call;
    floe_scope_t source_scope;
    floe_table_row_t source;
    char *source_arn;
    bool found;

    if (floe_replication_source_of(call, t->id, &source_arn))
        return FLOE_EFAIL;
    floe_json_key(json, "replicaOf");
    if (source_arn == NULL) {
        floe_json_raw(json, "null");
        return FLOE_OK;
    }
    floe_json_object_begin(json);
    floe_json_key(json, "sourceTableArn");
    floe_json_string(json, source_arn);
    floe_scope_from_arn(floe_call_config(call), source_arn, &source_scope);
    if (!floe_console_may_see(r, source_scope.account_id)) {
        floe_json_key(json, "source");
        floe_json_string(json, "hidden");
    } else {
        if (find_source(call, source_arn, &source, &found))
            return FLOE_EFAIL;
        if (!found) {
            floe_json_key(json, "source");
            floe_json_string(json, "deleted");
        } else if (write_source(call, json, &source, t)) {
            return FLOE_EFAIL;
        }
    }
    floe_json_object_end(json);
    return FLOE_OK;
}

/*
 * TableReplicationResource: where one table is to be replicated, set apart from its bucket's
 * replication ("table-level replication independently of bucket-level replication",
 * PutTableReplication in the model), and the status of that replication.
 *
 * A configuration is one table_replication row (IAM role and version token) and its rules'
 * destinations in table_replication_destination, both going with the table (ON DELETE CASCADE).
 * It works as a bucket's does (table_bucket_replication.c). A Put queues the table's current
 * state for the replication worker (runtime/replication/), which then follows every commit; the
 * status of each destination is what that worker recorded (catalog/replication_queue.h).
 *
 * Design notes (the token check is catalog/replication_rules.c's, the storage catalog/replication.c's, both
 * shared with buckets):
 *  1. Each write (Put, Delete) reads, compares the version token and writes in one transaction.
 *  2. Every successful Put stores a new random token, so a token identifies one version.
 *  3. A Put without a token overwrites whatever is there (the model makes it optional); a Put with
 *     one needs a configuration with that token. Delete always needs the current token (the model
 *     requires it there).
 *  4. Destinations are table bucket ARNs (service s3tables) other than the table's own bucket,
 *     each listed once. Those in the caller's account and region must exist; others are kept as
 *     given, and the replication worker reports one that does not exist as failed.
 *
 * States of one table's configuration, and the handler making each transition:
 *
 *     (none) ──floe_handle_PutTableReplication, no token──────────────▶ configured(t1)
 *     configured(tN) ──floe_handle_PutTableReplication, tN or none──▶ configured(tN+1)
 *     configured(tN) ──floe_handle_DeleteTableReplication, tN──────▶ (none)
 *     configured(tN) ──Put or Delete with a token other than tN──▶ ConflictException, unchanged
 *     (none) ──Put with any token──▶ ConflictException;  (none) ──Get or Delete──▶ NotFoundException
 *     (none, and none on the bucket) ──GetTableReplicationStatus──▶ NotFoundException
 *     any ──DeleteTable──▶ gone (ON DELETE CASCADE)
 */
#include <string.h>

#include "call/transaction.h"
#include "catalog/lookup.h"
#include "catalog/replication.h"
#include "catalog/replication_queue.h"
#include "catalog/replication_rules.h"
#include "floe_api.h"

/* What PutTableReplication reports: the copy runs later, on the replication worker, so "pending"
 * (the model's ReplicationStatus wording); GetTableReplicationStatus tells when it completed. */
#define PUT_STATUS "pending"

/* The table and its configuration; NotFoundException when the table has none. */
static int lookup_configured(floe_call_t *call, const char *table_arn, floe_table_row_t *table,
                             floe_replication_row_t *current)
{
    if (floe_lookup_table_by_arn(call, table_arn, table) ||
        floe_replication_read(call, FLOE_REPLICATION_OF_TABLE, table->id, current))
        return FLOE_EFAIL;
    if (!current->is_configured)
        return floe_fail(call, FLOE_ENOTFOUND, FLOE_SUBJECT_REPLICATION,
                         "The replication configuration was not found.");
    return FLOE_OK;
}

/* The rules as the catalog keeps them: one list of destination ARNs per rule. */
static floe_replication_rule_t *catalog_rules(floe_call_t *call, const floe_TableReplicationRules *rules)
{
    floe_replication_rule_t *list = floe_call_alloc(call, (rules->n ? rules->n : 1) * sizeof(*list));
    for (size_t r = 0; r < rules->n; r++)
        floe_replication_rule_from(call, rules->items[r].destinations, &list[r]);
    return list;
}

/* ---- writing a configuration ---- */

typedef struct put_args {
    const floe_PutTableReplicationRequest *in;
    floe_PutTableReplicationResponse *out;
} put_args_t;

/* The body of PutTableReplication, inside its transaction (design note 1). A replica takes its
 * source's namespace and name in the destination bucket; in the table's own bucket those name the
 * table itself, so that bucket is refused (Floe's inference: AWS documents no message for it). */
static int put_replication(floe_call_t *call, void *arg)
{
    const put_args_t *a = arg;
    const floe_TableReplicationRules *rules = a->in->configuration->rules;
    floe_replication_rule_t *stored = catalog_rules(call, rules);
    char token[FLOE_UUID_LEN + 1];
    floe_table_row_t table;
    floe_replication_row_t current;

    if (floe_lookup_table_by_arn(call, a->in->tableArn, &table) ||
        floe_replication_read(call, FLOE_REPLICATION_OF_TABLE, table.id, &current) ||
        floe_replication_check_token(call, &current, a->in->versionToken) ||
        floe_replication_check_destinations(call, stored, rules->n, table.bucket.arn,
                                            "A table cannot be replicated to its own table bucket.") ||
        floe_replication_write(call, FLOE_REPLICATION_OF_TABLE, table.id, a->in->configuration->role, stored,
                               rules->n, token) ||
        floe_replication_queue_table(call, table.id)) /* the current state goes first */
        return FLOE_EFAIL;
    a->out->versionToken = floe_call_strdup(call, token);
    a->out->status = PUT_STATUS;
    return FLOE_OK;
}

int floe_handle_PutTableReplication(floe_call_t *call, const floe_PutTableReplicationRequest *in,
                                    floe_PutTableReplicationResponse *out)
{
    put_args_t args = {in, out};
    return floe_call_in_transaction(call, put_replication, &args);
}

/* ---- reading a configuration ---- */

int floe_handle_GetTableReplication(floe_call_t *call, const floe_GetTableReplicationRequest *in,
                                    floe_GetTableReplicationResponse *out)
{
    floe_replication_rule_t *stored;
    floe_TableReplicationRules *rules;
    floe_replication_row_t current;
    floe_table_row_t table;
    size_t n;

    if (lookup_configured(call, in->tableArn, &table, &current) ||
        floe_replication_read_rules(call, FLOE_REPLICATION_OF_TABLE, table.id, &stored, &n))
        return FLOE_EFAIL;
    rules = floe_TableReplicationRules_new(call, n);
    for (size_t r = 0; r < n; r++)
        rules->items[r].destinations = floe_replication_destinations_of(call, &stored[r]);
    out->versionToken = current.version_token;
    out->configuration = floe_TableReplicationConfiguration_new(call);
    out->configuration->role = current.role;
    out->configuration->rules = rules;
    return FLOE_OK;
}

/* ---- replication status ---- */

/* Adds one configuration's destinations to `list`, each once. */
static void add_destinations(floe_call_t *call, const floe_replication_rule_t *rules, size_t n_rules, char ***list,
                             size_t *n, size_t *cap)
{
    for (size_t r = 0; r < n_rules; r++) {
        for (size_t i = 0; i < rules[r].n_destinations; i++) {
            size_t k = 0;
            while (k < *n && strcmp((*list)[k], rules[r].destination_arns[i]) != 0)
                k++;
            if (k < *n)
                continue;
            *list = floe_call_grow(call, *list, *n, cap, sizeof(char *));
            (*list)[(*n)++] = rules[r].destination_arns[i];
        }
    }
}

/* One destination's status (design note 3 of catalog/replication_queue.h). */
static int destination_status(floe_call_t *call, const floe_table_row_t *table, const char *destination,
                              floe_ReplicationDestinationStatusModel *out)
{
    floe_replication_status_row_t row;

    if (floe_replication_status_read(call, table->id, destination, &row))
        return FLOE_EFAIL;
    out->destinationTableBucketArn = (char *)destination;
    out->destinationTableArn = row.replica_table_arn;
    out->replicationStatus = FLOE_ReplicationStatus_PENDING;
    if (row.is_failed) {
        out->replicationStatus = FLOE_ReplicationStatus_FAILED;
        out->failureMessage = row.failure_message;
    } else if (row.last_metadata_location != NULL && table->metadata_location != NULL &&
               strcmp(row.last_metadata_location, table->metadata_location) == 0) {
        out->replicationStatus = FLOE_ReplicationStatus_COMPLETED;
    }
    if (row.last_metadata_location != NULL) {
        out->lastSuccessfulReplicatedUpdate = floe_call_alloc(call, sizeof(*out->lastSuccessfulReplicatedUpdate));
        out->lastSuccessfulReplicatedUpdate->metadataLocation = row.last_metadata_location;
        out->lastSuccessfulReplicatedUpdate->timestamp = row.last_replicated_at;
        out->lastSuccessfulReplicatedUpdate->has_timestamp = true;
    }
    return FLOE_OK;
}

/* One status per destination of the table's own configuration and of its bucket's, in that
 * order: the table replicates to both (the model's "independently of bucket-level replication"). */
int floe_handle_GetTableReplicationStatus(floe_call_t *call, const floe_GetTableReplicationStatusRequest *in,
                                          floe_GetTableReplicationStatusResponse *out)
{
    floe_replication_rule_t *table_rules, *bucket_rules;
    floe_replication_row_t own, inherited;
    floe_table_row_t table;
    size_t n_table_rules, n_bucket_rules, n = 0, cap = 0;
    char **destinations = NULL;

    if (floe_lookup_table_by_arn(call, in->tableArn, &table) ||
        floe_replication_read(call, FLOE_REPLICATION_OF_TABLE, table.id, &own) ||
        floe_replication_read(call, FLOE_REPLICATION_OF_BUCKET, table.bucket.id, &inherited))
        return FLOE_EFAIL;
    if (!own.is_configured && !inherited.is_configured)
        return floe_fail(call, FLOE_ENOTFOUND, FLOE_SUBJECT_REPLICATION,
                         "The replication configuration was not found.");
    if (floe_replication_read_rules(call, FLOE_REPLICATION_OF_TABLE, table.id, &table_rules, &n_table_rules) ||
        floe_replication_read_rules(call, FLOE_REPLICATION_OF_BUCKET, table.bucket.id, &bucket_rules, &n_bucket_rules))
        return FLOE_EFAIL;
    add_destinations(call, table_rules, n_table_rules, &destinations, &n, &cap);
    add_destinations(call, bucket_rules, n_bucket_rules, &destinations, &n, &cap);
    out->destinations = floe_ReplicationDestinationStatuses_new(call, n);
    for (size_t i = 0; i < n; i++) {
        if (destination_status(call, &table, destinations[i], &out->destinations->items[i]))
            return FLOE_EFAIL;
    }
    out->sourceTableArn = table.arn;
    return FLOE_OK;
}

/* ---- deleting a configuration ---- */

/* The body of DeleteTableReplication, inside its transaction (design note 1). */
static int delete_replication(floe_call_t *call, void *arg)
{
    const floe_DeleteTableReplicationRequest *in = arg;
    floe_table_row_t table;
    floe_replication_row_t current;

    if (lookup_configured(call, in->tableArn, &table, &current) ||
        floe_replication_check_token(call, &current, in->versionToken))
        return FLOE_EFAIL;
    return floe_replication_remove(call, FLOE_REPLICATION_OF_TABLE, table.id);
}

int floe_handle_DeleteTableReplication(floe_call_t *call, const floe_DeleteTableReplicationRequest *in,
                                       floe_Unit *out)
{
    (void)out;
    return floe_call_in_transaction(call, delete_replication, (void *)in);
}


/*
 * TableBucketReplicationResource: where a table bucket's tables are to be replicated.
 *
 * A configuration is one table_bucket_replication row (IAM role and version token) and its rules'
 * destinations in table_bucket_replication_destination. A Put queues the current state of the
 * bucket's tables for the replication worker (runtime/replication/), which then follows every
 * commit of every table of the bucket.
 *
 * Design notes (the token check is catalog/replication_rules.c's, the storage catalog/replication.c's, both
 * shared with tables):
 *  1. Each write (Put, Delete) reads, compares the version token and writes in one transaction.
 *  2. Every successful Put stores a new random token, so a token identifies one version.
 *  3. A caller that sends no token overwrites (Put) or deletes (Delete) whatever is there; AWS
 *     makes the token optional on both.
 *  4. Destinations are table bucket ARNs other than the source, each listed once. Those in the
 *     caller's account and region must exist; others are kept as given, and the replication
 *     worker reports one that does not exist as failed (GetTableReplicationStatus), as AWS does.
 *
 * States of one bucket's configuration, and the handler making each transition:
 *
 *     (none) ──floe_handle_PutTableBucketReplication, no token──────────────▶ configured(t1)
 *     configured(tN) ──floe_handle_PutTableBucketReplication, tN or none──▶ configured(tN+1)
 *     configured(tN) ──floe_handle_DeleteTableBucketReplication, tN or none─▶ (none)
 *     configured(tN) ──Put or Delete with a token other than tN──▶ ConflictException, unchanged
 *     (none) ──Put with any token──▶ ConflictException;  (none) ──Get or Delete──▶ NotFoundException
 *     any ──DeleteTableBucket──▶ gone (ON DELETE CASCADE)
 */
#include "call/transaction.h"
#include "catalog/lookup.h"
#include "catalog/replication.h"
#include "catalog/replication_queue.h"
#include "catalog/replication_rules.h"
#include "floe_api.h"

/* What PutTableBucketReplication reports: the copy runs later, on the replication worker, so
 * "pending" (the model's ReplicationStatus wording). */
#define PUT_STATUS "pending"

static int fail_not_configured(floe_call_t *call)
{
    return floe_fail(call, FLOE_ENOTFOUND, FLOE_SUBJECT_REPLICATION, "The replication configuration was not found.");
}

/* The rules as the catalog keeps them: one list of destination ARNs per rule. */
static floe_replication_rule_t *catalog_rules(floe_call_t *call, const floe_TableBucketReplicationRules *rules)
{
    floe_replication_rule_t *list = floe_call_alloc(call, (rules->n ? rules->n : 1) * sizeof(*list));
    for (size_t r = 0; r < rules->n; r++)
        floe_replication_rule_from(call, rules->items[r].destinations, &list[r]);
    return list;
}

/* ---- writing a configuration ---- */

typedef struct put_args {
    const floe_PutTableBucketReplicationRequest *in;
    floe_PutTableBucketReplicationResponse *out;
} put_args_t;

/* The body of PutTableBucketReplication, inside its transaction (design note 1). */
static int put_replication(floe_call_t *call, void *arg)
{
    const put_args_t *a = arg;
    const floe_TableBucketReplicationRules *rules = a->in->configuration->rules;
    floe_replication_rule_t *stored = catalog_rules(call, rules);
    char token[FLOE_UUID_LEN + 1];
    floe_bucket_row_t bucket;
    floe_replication_row_t current;

    /* AWS: a table bucket replicates "to other buckets" (GetTableBucketReplication), never to itself. */
    if (floe_lookup_bucket(call, a->in->tableBucketARN, &bucket) ||
        floe_replication_read(call, FLOE_REPLICATION_OF_BUCKET, bucket.id, &current) ||
        floe_replication_check_token(call, &current, a->in->versionToken) ||
        floe_replication_check_destinations(call, stored, rules->n, bucket.arn,
                                            "A table bucket cannot replicate to itself.") ||
        floe_replication_write(call, FLOE_REPLICATION_OF_BUCKET, bucket.id, a->in->configuration->role, stored,
                               rules->n, token) ||
        floe_replication_queue_bucket(call, bucket.id)) /* the tables' current state goes first */
        return FLOE_EFAIL;
    a->out->versionToken = floe_call_strdup(call, token);
    a->out->status = PUT_STATUS;
    return FLOE_OK;
}

int floe_handle_PutTableBucketReplication(floe_call_t *call, const floe_PutTableBucketReplicationRequest *in,
                                          floe_PutTableBucketReplicationResponse *out)
{
    put_args_t args = {in, out};
    return floe_call_in_transaction(call, put_replication, &args);
}

/* ---- reading a configuration ---- */

int floe_handle_GetTableBucketReplication(floe_call_t *call, const floe_GetTableBucketReplicationRequest *in,
                                          floe_GetTableBucketReplicationResponse *out)
{
    floe_replication_rule_t *stored;
    floe_TableBucketReplicationRules *rules;
    floe_replication_row_t current;
    floe_bucket_row_t bucket;
    size_t n;

    if (floe_lookup_bucket(call, in->tableBucketARN, &bucket) ||
        floe_replication_read(call, FLOE_REPLICATION_OF_BUCKET, bucket.id, &current))
        return FLOE_EFAIL;
    if (!current.is_configured)
        return fail_not_configured(call);
    if (floe_replication_read_rules(call, FLOE_REPLICATION_OF_BUCKET, bucket.id, &stored, &n))
        return FLOE_EFAIL;
    rules = floe_TableBucketReplicationRules_new(call, n);
    for (size_t r = 0; r < n; r++)
        rules->items[r].destinations = floe_replication_destinations_of(call, &stored[r]);
    out->versionToken = current.version_token;
    out->configuration = floe_TableBucketReplicationConfiguration_new(call);
    out->configuration->role = current.role;
    out->configuration->rules = rules;
    return FLOE_OK;
}

/* ---- deleting a configuration ---- */

/* The body of DeleteTableBucketReplication, inside its transaction (design note 1). */
static int delete_replication(floe_call_t *call, void *arg)
{
    const floe_DeleteTableBucketReplicationRequest *in = arg;
    floe_bucket_row_t bucket;
    floe_replication_row_t current;

    if (floe_lookup_bucket(call, in->tableBucketARN, &bucket) ||
        floe_replication_read(call, FLOE_REPLICATION_OF_BUCKET, bucket.id, &current))
        return FLOE_EFAIL;
    if (!current.is_configured)
        return fail_not_configured(call);
    if (floe_replication_check_token(call, &current, in->versionToken))
        return FLOE_EFAIL;
    return floe_replication_remove(call, FLOE_REPLICATION_OF_BUCKET, bucket.id);
}

int floe_handle_DeleteTableBucketReplication(floe_call_t *call, const floe_DeleteTableBucketReplicationRequest *in,
                                             floe_Unit *out)
{
    (void)out;
    return floe_call_in_transaction(call, delete_replication, (void *)in);
}


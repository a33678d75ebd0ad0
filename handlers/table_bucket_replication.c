/*
 * TableBucketReplicationResource: where a table bucket's tables are to be replicated.
 *
 * A configuration is one table_bucket_replication row (IAM role and version token) and its rules'
 * destinations in table_bucket_replication_destination. Floe records the configuration and answers
 * for it; no data is copied anywhere.
 *
 * Design notes (the token and storage mechanics are replication.c's, shared with tables):
 *  1. Each write (Put, Delete) reads, compares the version token and writes in one transaction.
 *  2. Every successful Put stores a new random token, so a token identifies one version.
 *  3. A caller that sends no token overwrites (Put) or deletes (Delete) whatever is there; AWS
 *     makes the token optional on both.
 *  4. Destinations are table bucket ARNs other than the source, each listed once. Those in Floe's
 *     own account and region must exist; others cannot be seen from here and are kept as given.
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
#include "floe_api.h"
#include "catalog/lookup.h"
#include "replication.h"

/* The three bucket replication operations came with the same model version; each handler also
 * names its own. */

/* What PutTableBucketReplication reports: the configuration is in place when it returns. The
 * value is the model's ReplicationStatus wording; AWS does not document this member's values. */
#define PUT_STATUS "completed"

static const floe_replication_sql_t bucket_replication_sql = {
    .get = "SELECT version_token, role FROM table_bucket_replication WHERE table_bucket_id = ?1",
    .put = "INSERT INTO table_bucket_replication (table_bucket_id, version_token, role) VALUES (?1, ?2, ?3)"
           " ON CONFLICT (table_bucket_id) DO UPDATE SET version_token = excluded.version_token, role = excluded.role",
    .remove = "DELETE FROM table_bucket_replication WHERE table_bucket_id = ?1",
    .clear_destinations = "DELETE FROM table_bucket_replication_destination WHERE table_bucket_id = ?1",
    .insert_destination = "INSERT INTO table_bucket_replication_destination"
                          " (table_bucket_id, rule_index, position, destination_arn) VALUES (?1, ?2, ?3, ?4)",
    .count_destinations = "SELECT rule_index, COUNT(*) FROM table_bucket_replication_destination"
                          " WHERE table_bucket_id = ?1 GROUP BY rule_index ORDER BY rule_index",
    .list_destinations = "SELECT rule_index, position, destination_arn FROM table_bucket_replication_destination"
                         " WHERE table_bucket_id = ?1 ORDER BY rule_index, position",
};

static int fail_not_configured(floe_call_t *call)
{
    return floe_fail(call, FLOE_ERR_NotFoundException, "The replication configuration was not found.");
}

/* The rules as replication.c takes them: one destination list per rule. */
static floe_ReplicationDestinations **rule_lists(floe_call_t *call, const floe_TableBucketReplicationRules *rules)
{
    floe_ReplicationDestinations **lists = floe_call_alloc(call, (rules->n ? rules->n : 1) * sizeof(*lists));
    for (size_t r = 0; r < rules->n; r++)
        lists[r] = rules->items[r].destinations;
    return lists;
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
    floe_ReplicationDestinations **lists = rule_lists(call, rules);
    char token[FLOE_UUID_LEN + 1];
    floe_bucket_row_t bucket;
    floe_replication_row_t current;

    /* AWS: a table bucket replicates "to other buckets" (GetTableBucketReplication), never to itself. */
    if (floe_lookup_bucket(call, a->in->tableBucketARN, &bucket) ||
        floe_replication_read(call, &bucket_replication_sql, bucket.id, &current) ||
        floe_replication_check_token(call, &current, a->in->versionToken) ||
        floe_replication_check_destinations(call, lists, rules->n, bucket.arn,
                                            "A table bucket cannot replicate to itself.") ||
        floe_replication_write(call, &bucket_replication_sql, bucket.id, a->in->configuration->role, lists, rules->n,
                               token))
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
    floe_ReplicationDestinations **lists;
    floe_TableBucketReplicationRules *rules;
    floe_replication_row_t current;
    floe_bucket_row_t bucket;
    size_t n;

    if (floe_lookup_bucket(call, in->tableBucketARN, &bucket) ||
        floe_replication_read(call, &bucket_replication_sql, bucket.id, &current))
        return FLOE_EFAIL;
    if (!current.is_configured)
        return fail_not_configured(call);
    if (floe_replication_read_rules(call, &bucket_replication_sql, bucket.id, &lists, &n))
        return FLOE_EFAIL;
    rules = floe_TableBucketReplicationRules_new(call, n);
    for (size_t r = 0; r < n; r++)
        rules->items[r].destinations = lists[r];
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
        floe_replication_read(call, &bucket_replication_sql, bucket.id, &current))
        return FLOE_EFAIL;
    if (!current.is_configured)
        return fail_not_configured(call);
    if (floe_replication_check_token(call, &current, in->versionToken))
        return FLOE_EFAIL;
    return floe_replication_remove(call, &bucket_replication_sql, bucket.id);
}

int floe_handle_DeleteTableBucketReplication(floe_call_t *call, const floe_DeleteTableBucketReplicationRequest *in,
                                             floe_Unit *out)
{
    (void)out;
    return floe_call_in_transaction(call, delete_replication, (void *)in);
}


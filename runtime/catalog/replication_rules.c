/*
 * The shared rules of replication configurations (replication_rules.h). The token is a compare-and-swap
 * key (design note 1 of catalog/replication.h): callers read the row, check the token here and
 * write, all in one transaction.
 */
#include <string.h>

#include "catalog/arn.h"
#include "catalog/lookup.h"
#include "catalog/replication_queue.h"
#include "catalog/replication_rules.h"

int floe_replication_refuse_replica(floe_call_t *call, const floe_table_row_t *t)
{
    if (!floe_replication_is_replica(call, t->id))
        return FLOE_OK;
    if (call->failure.code != FLOE_OK)
        return FLOE_EFAIL; /* SQLite failed: already a 500 */
    return floe_fail(call, FLOE_EREADONLY, FLOE_SUBJECT_TABLE, FLOE_REPLICA_READ_ONLY, t->ns.name, t->name);
}

/* A missing token matches anything; a token never matches a missing configuration. */
int floe_replication_check_token(floe_call_t *call, const floe_replication_row_t *current, const char *token)
{
    if (token == NULL || (current->is_configured && strcmp(token, current->version_token) == 0))
        return FLOE_OK;
    return floe_fail(call, FLOE_ECHANGED, FLOE_SUBJECT_REPLICATION,
                     "Provided version token does not match the replication configuration version token.");
}

void floe_replication_rule_from(floe_call_t *call, const floe_ReplicationDestinations *destinations,
                                floe_replication_rule_t *rule)
{
    rule->n_destinations = destinations->n;
    rule->destination_arns = floe_call_alloc(call, (destinations->n ? destinations->n : 1) * sizeof(char *));
    for (size_t i = 0; i < destinations->n; i++)
        rule->destination_arns[i] = destinations->items[i].destinationTableBucketARN;
}

floe_ReplicationDestinations *floe_replication_destinations_of(floe_call_t *call, const floe_replication_rule_t *rule)
{
    floe_ReplicationDestinations *destinations = floe_ReplicationDestinations_new(call, rule->n_destinations);

    for (size_t i = 0; i < rule->n_destinations; i++)
        destinations->items[i].destinationTableBucketARN = rule->destination_arns[i];
    return destinations;
}


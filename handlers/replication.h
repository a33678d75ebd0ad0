/*
 * The rules replication configurations share, a table bucket's (table_bucket_replication.c) and a
 * table's (table_replication.c): the version-token check, the rules every destination must meet,
 * and the passage between the model's destination lists and the catalog's rules
 * (catalog/replication.h, which keeps the configurations). The two owners' rule types differ but
 * both hold a floe_ReplicationDestinations list per rule.
 */
#ifndef FLOE_REPLICATION_H
#define FLOE_REPLICATION_H

#include <stddef.h>

#include "call.h"
#include "catalog/replication.h"
#include "floe_api.h"

/** ConflictException unless `token` is NULL or the configuration's current token. */
int floe_replication_check_token(floe_call_t *call, const floe_replication_row_t *current, const char *token);

/**
 * Checks every destination: a table bucket ARN (service s3tables), not `own_bucket_arn` (refused
 * with `own_bucket_message`), listed once in the whole configuration, and, when it is in Floe's
 * own account and region, a bucket that exists.
 */
int floe_replication_check_destinations(floe_call_t *call, const floe_replication_rule_t *rules, size_t n_rules,
                                        const char *own_bucket_arn, const char *own_bucket_message);

/** One rule's destinations as the catalog keeps them; the ARNs stay `destinations`'. */
void floe_replication_rule_from(floe_call_t *call, const floe_ReplicationDestinations *destinations,
                                floe_replication_rule_t *rule /* OUT */);

/** One stored rule's destinations as the model lists them, in the call's pool. */
floe_ReplicationDestinations *floe_replication_destinations_of(floe_call_t *call, const floe_replication_rule_t *rule);

#endif

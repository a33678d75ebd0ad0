/*
 * The rules replication configurations share, a table bucket's (handlers/s3tables/table_bucket_replication.c) and a
 * table's (table_replication.c): the version-token check, the rules every destination must meet,
 * and the passage between the model's destination lists and the catalog's rules
 * (catalog/replication.h, which keeps the configurations). The two owners' rule types differ but
 * both hold a floe_ReplicationDestinations list per rule.
 */
#ifndef FLOE_CATALOG_REPLICATION_RULES_H
#define FLOE_CATALOG_REPLICATION_RULES_H

#include <stddef.h>

#include "call/call.h"
#include "catalog/lookup.h"
#include "catalog/replication.h"
#include "floe_api.h"

/* What a client hears when it writes to a replica (ForbiddenException in S3 Tables, 403
 * NotAuthorizedException in Iceberg REST): AWS documents replicas as read-only without a message. */
#define FLOE_REPLICA_READ_ONLY "The table %s.%s is a replica maintained by S3 Tables replication and is read-only."

/** Fails FLOE_EREADONLY (ForbiddenException in S3 Tables) when table `t` is a replica; FLOE_OK when
 * clients may write to it. */
int floe_replication_refuse_replica(floe_call_t *call, const floe_table_row_t *t);

/** FLOE_ECHANGED unless `token` is NULL or the configuration's current token. */
int floe_replication_check_token(floe_call_t *call, const floe_replication_row_t *current, const char *token);

/** One rule's destinations as the catalog keeps them; the ARNs stay `destinations`'. */
void floe_replication_rule_from(floe_call_t *call, const floe_ReplicationDestinations *destinations,
                                floe_replication_rule_t *rule /* OUT */);

/** One stored rule's destinations as the model lists them, in the call's pool. */
floe_ReplicationDestinations *floe_replication_destinations_of(floe_call_t *call, const floe_replication_rule_t *rule);

#endif

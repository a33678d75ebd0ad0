/*
 * Replication configurations, a table bucket's and a table's: the configuration row (IAM role and
 * version token) and its rules' destinations, as the API records them and as a replication worker
 * reads them to know where to copy what.
 *
 * This is state only: the version-token check, the rules a destination must meet and their
 * messages are the API's (handlers/s3tables/replication.c). The two owners keep the same columns in their
 * own tables (table_bucket_replication*, table_replication*), so every function takes the owner's
 * kind and row id. The types hold no shape of the model, so they read the same whatever the model.
 * Every function fails the call with a failure inside (FLOE_EFAIL) (a 500) when SQLite fails, and
 * with nothing else.
 *
 * Design notes:
 *  1. The version token is a compare-and-swap key: the API reads the row, compares the token and
 *     writes, all inside one floe_call_in_transaction(), so two writers holding one token cannot
 *     both succeed; every floe_replication_write stores a new random token.
 *  2. Rule indexes and positions are dense (floe_replication_write numbers them from 0), so one
 *     query that also counts the rules and each rule's destinations sizes every list as it fills
 *     it. A rule has at least one destination (the model's ReplicationDestinations @length).
 *  3. A configuration goes with its owner (ON DELETE CASCADE), and its destinations with it.
 */
#ifndef FLOE_CATALOG_REPLICATION_H
#define FLOE_CATALOG_REPLICATION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/ids.h"
#include "call/call.h"

/** Whose replication a configuration is. */
typedef enum floe_replication_owner {
    FLOE_REPLICATION_OF_BUCKET, /* owner id: the table bucket's row id (floe_bucket_row_t.id) */
    FLOE_REPLICATION_OF_TABLE,  /* owner id: the table's row id (floe_table_row_t.id) */
} floe_replication_owner_t;

/** A configuration's row. */
typedef struct floe_replication_row {
    bool is_configured; /* false: the owner has no configuration, and the rest is NULL */
    char *version_token;
    char *role; /* the IAM role ARN replication acts as */
} floe_replication_row_t;

/** One rule: the table buckets it replicates to, in the configuration's order. */
typedef struct floe_replication_rule {
    size_t n_destinations;
    char **destination_arns; /* in the call's pool, or borrowed from the request */
} floe_replication_rule_t;

/** The owner's configuration row (strings in the call's pool); is_configured false when it has none. */
int floe_replication_read(floe_call_t *call, floe_replication_owner_t owner, int64_t owner_id,
                          floe_replication_row_t *out /* OUT */);

/** The owner's rules, in order: an array of *n_rules rules in the call's pool (none without a
 * configuration). */
int floe_replication_read_rules(floe_call_t *call, floe_replication_owner_t owner, int64_t owner_id,
                                floe_replication_rule_t **rules /* OUT */, size_t *n_rules /* OUT */);

/**
 * Replaces the owner's configuration with `role` and `rules` under a fresh version token, written
 * to `token`. Callers run it in the transaction that checked the current token (design note 1).
 */
int floe_replication_write(floe_call_t *call, floe_replication_owner_t owner, int64_t owner_id, const char *role,
                           const floe_replication_rule_t *rules, size_t n_rules,
                           char token[FLOE_UUID_LEN + 1] /* OUT */);

/** Deletes the owner's configuration and its destinations; nothing happens when it has none. */
int floe_replication_remove(floe_call_t *call, floe_replication_owner_t owner, int64_t owner_id);

/**
 * Checks every destination: a table bucket ARN (service s3tables), not `own_bucket_arn` (refused
 * with `own_bucket_message`), listed once in the whole configuration, and, when it is in the
 * caller's account and region, a bucket that exists (others are checked when replicating).
 */
int floe_replication_check_destinations(floe_call_t *call, const floe_replication_rule_t *rules, size_t n_rules,
                                        const char *own_bucket_arn, const char *own_bucket_message);

#endif

/*
 * Versioned replication configurations, shared by a table bucket's (table_bucket_replication.c)
 * and a table's (table_replication.c): reading and writing the configuration row and its
 * destinations, the version-token check, and the rules every destination must meet. The two
 * owners differ only in their tables (floe_replication_sql_t) and their rule types, which both
 * hold a floe_ReplicationDestinations list; callers hand the rules over as an array of those lists.
 */
#ifndef FLOE_REPLICATION_H
#define FLOE_REPLICATION_H

#include <stdbool.h>
#include <stdint.h>

#include "call.h"
#include "floe_api.h"
#include "ids.h"

/** The statements on one owner's tables; ?1 is always the owner's row id. */
typedef struct floe_replication_sql {
    const char *get;                /* -> version_token, role */
    const char *put;                /* ?2 token, ?3 role: upsert */
    const char *remove;             /* the configuration; its destinations cascade */
    const char *clear_destinations;
    const char *insert_destination; /* ?2 rule index, ?3 position, ?4 destination ARN */
    const char *count_destinations; /* -> rule index, count, grouped and ordered by rule index */
    const char *list_destinations;  /* -> rule index, position, destination ARN, in order */
} floe_replication_sql_t;

/** The configuration's current row. */
typedef struct floe_replication_row {
    bool is_configured;
    char *version_token;
    char *role;
} floe_replication_row_t;

/** Reads the owner's configuration row into *out (is_configured false when there is none). */
int floe_replication_read(floe_call_t *call, const floe_replication_sql_t *sql, int64_t owner_id,
                          floe_replication_row_t *out /* OUT */);

/** ConflictException unless `token` is NULL or the configuration's current token. */
int floe_replication_check_token(floe_call_t *call, const floe_replication_row_t *current, const char *token);

/**
 * Checks every destination: a table bucket ARN (service s3tables), not `own_bucket_arn` (refused
 * with `own_bucket_message`), listed once in the whole configuration, and, when it is in Floe's
 * own account and region, a bucket that exists.
 */
int floe_replication_check_destinations(floe_call_t *call, floe_ReplicationDestinations *const *rules, size_t n_rules,
                                        const char *own_bucket_arn, const char *own_bucket_message);

/** Replaces the configuration with `role` and `rules` under a fresh version token, written to `token`. */
int floe_replication_write(floe_call_t *call, const floe_replication_sql_t *sql, int64_t owner_id, const char *role,
                           floe_ReplicationDestinations *const *rules, size_t n_rules,
                           char token[FLOE_UUID_LEN + 1] /* OUT */);

/** Reads the destinations back as one list per rule, in the call's pool. */
int floe_replication_read_rules(floe_call_t *call, const floe_replication_sql_t *sql, int64_t owner_id,
                                floe_ReplicationDestinations ***rules /* OUT */, size_t *n_rules /* OUT */);

/** Deletes the configuration (its destinations cascade). */
int floe_replication_remove(floe_call_t *call, const floe_replication_sql_t *sql, int64_t owner_id);

#endif

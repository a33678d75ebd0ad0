/*
 * Athena's control-plane state as the database keeps it, scoped by the call's account and region:
 * workgroups (with `primary`, which every account and region has), named queries, prepared
 * statements and query executions. State only: Athena's rules and messages are in
 * handlers/athena/. A SQLite failure fails the call (500) and returns FLOE_EFAIL; what the API
 * answers with a modeled error (a name taken, a row missing) comes back as an OUT flag.
 */
#ifndef FLOE_ATHENA_STORE_H
#define FLOE_ATHENA_STORE_H

#include <stdbool.h>
#include <stdint.h>

#include "call/call.h"

/** The workgroup every account and region has, which cannot be deleted. */
#define FLOE_ATHENA_PRIMARY_WORKGROUP "primary"

/** A workgroup and the settings of its WorkGroupConfiguration Floe keeps; strings in the pool. */
typedef struct floe_athena_workgroup_row {
    char *name;
    char *description;
    char *state; /* ENABLED or DISABLED */
    char *output_location, *expected_bucket_owner, *encryption_option, *kms_key; /* ResultConfiguration */
    bool enforce_configuration, publish_metrics, requester_pays;
    bool has_bytes_scanned_cutoff;
    int64_t bytes_scanned_cutoff;
    char *engine_version; /* SelectedEngineVersion */
    floe_timestamp_t created_at;
} floe_athena_workgroup_row_t;

/** Writes `primary` for the call's account and region unless it is there. FLOE_OK or FLOE_EFAIL. */
int floe_athena_workgroup_ensure_primary(floe_call_t *call);

/** The workgroup `name`: FLOE_OK with *found set (and *out filled when found), or FLOE_EFAIL. */
int floe_athena_workgroup_read(floe_call_t *call, const char *name, bool *found /* OUT */,
                               floe_athena_workgroup_row_t *out /* OUT */);

/** Stores a new workgroup, created now. *is_taken: one of that name exists (nothing written). */
int floe_athena_workgroup_insert(floe_call_t *call, const floe_athena_workgroup_row_t *row, bool *is_taken /* OUT */);

/** Replaces the stored settings of workgroup row->name (its creation time stays). */
int floe_athena_workgroup_update(floe_call_t *call, const floe_athena_workgroup_row_t *row);

/** Removes workgroup `name` with its named queries, prepared statements and queries. */
int floe_athena_workgroup_remove(floe_call_t *call, const char *name, bool *was_there /* OUT */);

/** Workgroups named after `after` ("" from the start), in name order, at most `limit`. */
int floe_athena_workgroup_list(floe_call_t *call, const char *after, int limit,
                               floe_athena_workgroup_row_t **rows /* OUT */, size_t *n /* OUT */);

/** A named query; strings in the pool. */
typedef struct floe_athena_named_query_row {
    int64_t seq; /* creation order, the listing's cursor */
    char *id;    /* NamedQueryId, a UUID */
    char *workgroup, *name, *description, *database, *query_string;
} floe_athena_named_query_row_t;

/** Stores a named query under row->id (a new UUID the caller made). */
int floe_athena_named_query_insert(floe_call_t *call, const floe_athena_named_query_row_t *row);

/** The named query `id` of the account and region: FLOE_OK with *found set, or FLOE_EFAIL. */
int floe_athena_named_query_read(floe_call_t *call, const char *id, bool *found /* OUT */,
                                 floe_athena_named_query_row_t *out /* OUT */);

int floe_athena_named_query_remove(floe_call_t *call, const char *id, bool *was_there /* OUT */);

/** Named queries of `workgroup` created after seq `after` (0 from the start), oldest first. */
int floe_athena_named_query_list(floe_call_t *call, const char *workgroup, int64_t after, int limit,
                                 floe_athena_named_query_row_t **rows /* OUT */, size_t *n /* OUT */);

/** A prepared statement; strings in the pool. */
typedef struct floe_athena_prepared_row {
    char *workgroup, *name, *query_statement, *description;
    floe_timestamp_t updated_at;
} floe_athena_prepared_row_t;

/** Stores a prepared statement, updated now. *is_taken: the workgroup has one of that name. */
int floe_athena_prepared_insert(floe_call_t *call, const floe_athena_prepared_row_t *row, bool *is_taken /* OUT */);

int floe_athena_prepared_read(floe_call_t *call, const char *workgroup, const char *name, bool *found /* OUT */,
                              floe_athena_prepared_row_t *out /* OUT */);

int floe_athena_prepared_remove(floe_call_t *call, const char *workgroup, const char *name,
                                bool *was_there /* OUT */);

/** Prepared statements of `workgroup` named after `after` ("" from the start), in name order. */
int floe_athena_prepared_list(floe_call_t *call, const char *workgroup, const char *after, int limit,
                              floe_athena_prepared_row_t **rows /* OUT */, size_t *n /* OUT */);

/** A query execution; strings in the pool. */
typedef struct floe_athena_query_row {
    int64_t seq; /* submission order, the history's cursor */
    char *id;    /* QueryExecutionId, a UUID */
    char *account, *region; /* filled by reads */
    char *caller_key;       /* the access key that started it (NULL: unsigned) */
    char *denial;           /* why --enforce-iam refused one of its table accesses, or NULL */
    char *workgroup, *query_string, *statement_type, *catalog, *database;
    char *output_location, *expected_bucket_owner, *encryption_option, *kms_key;
    char *engine_version;
    char *state; /* QUEUED, RUNNING, SUCCEEDED, FAILED, CANCELLED */
    char *state_reason;
    bool has_error;
    int32_t error_category, error_type; /* AthenaError, when has_error */
    char *error_message;
    floe_timestamp_t submitted_at;
    bool has_completed_at;
    floe_timestamp_t completed_at;
    /* what the engine's run left (floe_athena_query_complete) */
    char *result_columns; /* JSON array of {name, type, precision, scale}, NULL before a result */
    bool has_stats;
    int64_t data_scanned, engine_ms, queue_ms, result_rows;
    char *substatement_type; /* Athena's (INSERT, CREATE_TABLE_AS_SELECT ...), NULL when unknown */
    int64_t update_count;    /* the rows a write changed; 0 otherwise */
    char **execution_parameters; /* ExecutionParameters: SQL literals for the query's `?`s, in order */
    size_t n_execution_parameters;
} floe_athena_query_row_t;

/** Stores a query execution under row->id (a new UUID the caller made). */
int floe_athena_query_insert(floe_call_t *call, const floe_athena_query_row_t *row);

/** The query `id` of the account and region: FLOE_OK with *found set, or FLOE_EFAIL. */
int floe_athena_query_read(floe_call_t *call, const char *id, bool *found /* OUT */,
                           floe_athena_query_row_t *out /* OUT */);

/** Moves query `id` to `state` with `reason`, completed now. */
int floe_athena_query_finish(floe_call_t *call, const char *id, const char *state, const char *reason);

/** How a run ended, for floe_athena_query_complete; strings borrowed. */
typedef struct floe_athena_query_end {
    const char *state; /* SUCCEEDED or FAILED */
    const char *reason, *statement_type, *result_columns;
    bool has_error;
    int32_t error_category, error_type;
    const char *error_message;
    int64_t data_scanned, engine_ms, queue_ms, result_rows;
    const char *substatement_type; /* NULL when Floe does not know Athena's name for it */
    int64_t update_count;
} floe_athena_query_end_t;

/* The engine's own steps (athena_engine/): by id, in whichever account and region the query is. */

/**
 * Claims the oldest QUEUED query of any account and region for an engine worker: moves it to
 * RUNNING in the same transaction that found it, so no two workers run one query, and a restart
 * finds it RUNNING (floe_athena_query_fail_every), never QUEUED again. FLOE_OK with *found (and *out).
 */
int floe_athena_query_claim(floe_call_t *call, bool *found /* OUT */, floe_athena_query_row_t *out /* OUT */);

/** Gives every QUEUED query `reason` (why it waits); *any says whether one is queued. */
int floe_athena_query_hold_queued(floe_call_t *call, const char *reason, bool *any /* OUT */);

/** The state of query `id` (in the pool), NULL when it is gone. */
int floe_athena_query_state(floe_call_t *call, const char *id, char **state /* OUT */);

/** Finishes query `id` as `end` says, completed now, unless it was finished meanwhile (stopped). */
int floe_athena_query_complete(floe_call_t *call, const char *id, const floe_athena_query_end_t *end);

/** The query `id` of whichever account and region: FLOE_OK with *found (and *out). */
int floe_athena_query_find(floe_call_t *call, const char *id, bool *found /* OUT */, floe_athena_query_row_t *out /* OUT */);

/** Records why an access of query `id` was refused (the first refusal stays). */
int floe_athena_query_deny(floe_call_t *call, const char *id, const char *sentence);

/** Every query in `state` FAILED with `reason` and the AthenaError: at start, those RUNNING when
 * Floe stopped; those QUEUED when Trino cannot start. */
int floe_athena_query_fail_every(floe_call_t *call, const char *state, int error_category, int error_type,
                                 const char *reason);

/** Queries of `workgroup` submitted before seq `before` (0: from the newest), newest first. */
int floe_athena_query_list(floe_call_t *call, const char *workgroup, int64_t before, int limit,
                           floe_athena_query_row_t **rows /* OUT */, size_t *n /* OUT */);

#endif

/*
 * One statement through Trino's client protocol (POST /v1/statement, then each nextUri until none
 * is left): the columns once they are known, the rows page by page to a sink, and how it ended
 * (Trino's statistics, or its error). Blocking: only the Athena engine's workers call it, never a
 * serving thread; several at once, each with its own statement.
 */
#ifndef FLOE_TRINO_QUERY_H
#define FLOE_TRINO_QUERY_H

#include <stdbool.h>
#include <stdint.h>

#include <cjson/cJSON.h>

/** Where and as whom a statement runs; every pointer is borrowed, and may be NULL but url and user. */
typedef struct floe_trino_session {
    const char *url;     /* http://host:port of the coordinator */
    const char *user;    /* X-Trino-User */
    const char *catalog; /* X-Trino-Catalog, the default catalog */
    const char *schema;  /* X-Trino-Schema */
    const char *prepared_name, *prepared_sql; /* X-Trino-Prepared-Statement, for EXECUTE */
} floe_trino_session_t;

/** What receives the result as it arrives: each callback returns FLOE_OK, or FLOE_EFAIL to cancel. */
typedef struct floe_trino_sink {
    int (*on_columns)(void *arg, const cJSON *columns); /* Trino's "columns" array, once */
    int (*on_rows)(void *arg, const cJSON *data);       /* one page's "data" array of row arrays */
    bool (*is_cancelled)(void *arg);                    /* asked between pages */
    void *arg;
} floe_trino_sink_t;

/** A sink that keeps nothing, for Floe's own statements (readiness, catalogs). */
extern const floe_trino_sink_t floe_trino_discard;

typedef enum floe_trino_end {
    FLOE_TRINO_FINISHED,
    FLOE_TRINO_FAILED,    /* Trino's error: error_name, error_type, message */
    FLOE_TRINO_CANCELLED, /* the sink asked */
    FLOE_TRINO_SINK_FAILED,
} floe_trino_end_t;

typedef struct floe_trino_outcome {
    floe_trino_end_t end;
    char query_id[64];
    char update_type[64]; /* "INSERT", "CREATE TABLE", ...; "" for a query that returns rows */
    bool has_update_count;
    int64_t update_count;
    int64_t elapsed_ms, queued_ms, cpu_ms, processed_bytes, processed_rows;
    char error_name[128]; /* TABLE_NOT_FOUND, SYNTAX_ERROR, ... */
    char error_type[64];  /* USER_ERROR, INTERNAL_ERROR, INSUFFICIENT_RESOURCES, EXTERNAL */
    char message[2048];
} floe_trino_outcome_t;

/**
 * Runs `sql` in session `s`, feeding `sink`. FLOE_OK when Trino took the statement (out->end says
 * how it ended), or FLOE_EFAIL when Trino could not be reached or answered what is not its
 * protocol (out->message says which).
 */
int floe_trino_run(const floe_trino_session_t *s, const char *sql, const floe_trino_sink_t *sink,
                   floe_trino_outcome_t *out /* OUT */);

/**
 * One of Trino's QueryResults documents, parsed (the caller deletes it), or NULL when it is no
 * JSON: an integer of more than 15 digits (a bigint, which a double would round) becomes a string
 * of its exact digits; a double, fraction and exponent included, stays a number.
 */
cJSON *floe_trino_parse_results(const char *json, size_t len);

#endif

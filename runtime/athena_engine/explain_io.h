/*
 * What Trino's own plan says a statement reads and writes: the answer of `EXPLAIN (TYPE IO,
 * FORMAT JSON) <statement>`, one value holding
 *   {"inputTableColumnInfos": [{"table": {"catalog": c, "schemaTable": {"schema": s, "table": t}},
 *                               "constraint": ..., "estimate": ...}, ...],
 *    "outputTable": {"catalog": c, "schemaTable": {"schema": s, "table": t}}, "estimate": ...}
 * where outputTable is there for INSERT, UPDATE, DELETE, MERGE and CREATE TABLE AS (Trino 476; an
 * EXPLAIN of a CREATE TABLE AS makes the table, its Iceberg connector beginning the create while
 * planning, so Floe never sends one).
 * A data definition statement (CREATE TABLE without AS, ALTER, DROP ...) has no IO plan: its
 * EXPLAIN answers the statement's own text. Pure: no I/O, so it is unit-tested and fuzzed.
 */
#ifndef FLOE_ATHENA_ENGINE_EXPLAIN_IO_H
#define FLOE_ATHENA_ENGINE_EXPLAIN_IO_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

/** One table of the plan; the strings are the plan's (borrowed from floe_explain_io_t.doc). */
typedef struct floe_explain_table {
    const char *catalog, *schema, *table;
} floe_explain_table_t;

typedef struct floe_explain_io {
    floe_explain_table_t *inputs; /* malloc'ed, n_inputs of them */
    size_t n_inputs;
    bool has_output;
    floe_explain_table_t output;
    cJSON *doc; /* the parsed answer, which owns the strings */
} floe_explain_io_t;

/**
 * Reads `text`, EXPLAIN IO's answer: FLOE_OK with *out (floe_explain_io_dispose frees it), or
 * FLOE_EINVAL when it is no IO plan (a statement's text, or a table without catalog, schema or
 * name), *out then empty.
 */
int floe_explain_io_read(const char *text, floe_explain_io_t *out /* OUT */);

void floe_explain_io_dispose(floe_explain_io_t *io);

#endif

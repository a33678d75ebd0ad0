/*
 * Glue databases of an account's default catalog (CatalogId absent or the account's id), which
 * Glue's CreateDatabase and Athena's `CREATE SCHEMA` in AwsDataCatalog make: rows of
 * glue_database, keyed by (account, region, name). A table bucket's databases are its namespaces
 * (namespace.h), not these.
 *
 * This is state only: the Glue API's rules and messages are in handlers/glue/, Athena's in
 * handlers/athena/. A SQLite failure fails the call with a failure inside (FLOE_EFAIL); what the API
 * answers with a modeled error (the name is taken, or unknown) comes back as a house code.
 */
#ifndef FLOE_CATALOG_GLUE_DATABASE_H
#define FLOE_CATALOG_GLUE_DATABASE_H

#include <stddef.h>

#include "call/call.h"

/** A database as stored; strings in the call's pool. */
typedef struct floe_glue_database_row {
    char *name;
    char *description;  /* NULL when none */
    char *location_uri; /* NULL when none */
    size_t n_parameters; /* Parameters: parallel arrays, in the order given */
    char **keys;
    char **values;
    floe_timestamp_t created_at;
} floe_glue_database_row_t;

/** `name` as Glue keeps a database's name, whichever case it was given in: in lower case, in the
 * call's pool. Names given to the functions below are taken as they are. */
char *floe_glue_database_name(floe_call_t *call, const char *name);

/** Stores `row` (its created_at ignored: now) in the call's account and region. FLOE_OK, FLOE_EEXISTS
 * when the name is taken (nothing written), or FLOE_EFAIL. */
int floe_glue_database_insert(floe_call_t *call, const floe_glue_database_row_t *row);

/** The database `name`: FLOE_OK with *out filled, FLOE_ENOTFOUND, or FLOE_EFAIL. */
int floe_glue_database_read(floe_call_t *call, const char *name, floe_glue_database_row_t *out /* OUT */);

/** The databases whose names sort after `after` ("" from the start), in name order, at most `limit`;
 * *rows is an array of *n rows in the call's pool. */
int floe_glue_database_list(floe_call_t *call, const char *after, int limit, floe_glue_database_row_t **rows /* OUT */,
                            size_t *n /* OUT */);

/** Removes the database row `name` alone: FLOE_OK, FLOE_ENOTFOUND, or FLOE_EFAIL. A database is dropped
 * with its tables by floe_glue_table_drop_database (glue_table.h). */
int floe_glue_database_remove(floe_call_t *call, const char *name);

#endif

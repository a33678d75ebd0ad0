/*
 * What table.c lends the other ways of changing a table, so that the S3 Tables API and the Iceberg
 * REST catalog (handlers/iceberg_*.c) follow the same rules: the one compare-and-swap on a table's
 * metadata pointer (UpdateTableMetadataLocation and REST commits interleave correctly), the steps
 * that create a table (design note 2 in table.c), delete and rename.
 */
#ifndef FLOE_TABLE_H
#define FLOE_TABLE_H

#include <stdint.h>

#include "call.h"
#include "ids.h"
#include "catalog/lookup.h"

typedef enum floe_table_swap_rc {
    FLOE_TABLE_SWAPPED = 0,
    FLOE_TABLE_STALE,   /* the table's version token is no longer `expected_token` */
    FLOE_TABLE_GONE,    /* the table was deleted */
    FLOE_TABLE_FAILED,  /* SQLite failed (logged) */
} floe_table_swap_rc_t;

/**
 * Points table `table_row_id` at `metadata_location` if and only if its version token is still
 * `expected_token`, in one statement (one SQLite transaction): of K callers racing on one token,
 * exactly one swaps. On FLOE_TABLE_SWAPPED, *new_token (in the call's pool) is the token that
 * now guards the table.
 */
floe_table_swap_rc_t floe_table_swap_metadata(floe_call_t *call, int64_t table_row_id, const char *expected_token,
                                              const char *metadata_location, char **new_token /* OUT */);

/** A table about to be created; strings in the call's pool. */
typedef struct floe_table_draft {
    floe_bucket_row_t bucket;
    floe_namespace_row_t ns;
    const char *name;
    const char *format;               /* OpenTableFormat wire value ("ICEBERG") */
    char table_id[FLOE_UUID_LEN + 1]; /* the UUID in the table ARN, and the Iceberg table-uuid */
    char *warehouse;                  /* the warehouse bucket's name */
    char *metadata_location;          /* set by floe_table_store_first_metadata; NULL without metadata */
    char *version_token;
} floe_table_draft_t;

/** What a creator sets on the new table inside the row's transaction (CreateTable's tags); the
 * new row is sqlite3_last_insert_rowid. FLOE_OK, or a failed call. */
typedef int (*floe_table_settings_fn)(floe_call_t *call, const void *ctx);

/**
 * Starts creating table `name` of `format` in namespace `ns` of `bucket`: checks AWS's name rule
 * (BadRequestException) and that the name is free (ConflictException), then picks a table id,
 * warehouse bucket name and version token. Nothing is stored yet.
 */
int floe_table_draft(floe_call_t *call, const floe_bucket_row_t *bucket, const floe_namespace_row_t *ns,
                     const char *name, const char *format, floe_table_draft_t *out /* OUT */);

/**
 * Adopts the ids a REST create transaction already chose: `table_uuid` (the assign-uuid update's,
 * NULL to keep the draft's) becomes the table id, and `location` (the staged set-location, NULL for
 * none) must be "s3://<a warehouse name this table could have been given>", which becomes the
 * warehouse. BadRequestException otherwise: S3 Tables chooses table locations.
 */
int floe_table_draft_adopt(floe_call_t *call, floe_table_draft_t *t, const char *table_uuid, const char *location);

/** Creates the draft's warehouse bucket and writes `json` as metadata/00000-<uuid>.metadata.json
 * (fsynced; never inside a transaction). Sets t->metadata_location. */
int floe_table_store_first_metadata(floe_call_t *call, floe_table_draft_t *t, const char *json);

/** Inserts the draft's row (and, without metadata, its warehouse bucket) in one transaction with
 * `settings` (may be NULL). ConflictException if the name was taken meanwhile; the warehouse then
 * goes to the janitor. */
int floe_table_insert(floe_call_t *call, const floe_table_draft_t *t, floe_table_settings_fn settings,
                      const void *settings_ctx);

/**
 * Deletes table `t` if its version token is still `token` (NULL: any) and it still has the name it
 * was looked up by, and queues its warehouse for the janitor, in one transaction. Returns 1 when
 * deleted, 0 when that guard matched nothing (a racer changed the table first), -1 on an error.
 */
int floe_table_delete(floe_call_t *call, const floe_table_row_t *t, const char *token);

/**
 * Moves table `t` to namespace `dest` (of the same bucket) under `new_name`, if its version token is
 * still `token` (NULL: any). BadRequestException for a name AWS refuses, ConflictException when
 * the name is taken or the token is stale.
 */
int floe_table_rename(floe_call_t *call, const floe_table_row_t *t, const floe_namespace_row_t *dest,
                      const char *new_name, const char *token);

/** True when `location` lies inside the table's warehouse ("s3://<warehouse bucket>/..."). */
int floe_table_location_is_inside(const floe_table_row_t *table, const char *location);

/** "s3://<warehouse bucket>", the table's warehouse location, in the call's pool. */
char *floe_table_warehouse_location(floe_call_t *call, const floe_table_row_t *table);

#endif

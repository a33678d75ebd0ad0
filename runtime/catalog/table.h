/*
 * The table catalog: every change to a table's state and every table query, shared by the S3
 * Tables handlers (handlers/s3tables/table.c) and the Iceberg REST catalog (handlers/iceberg_rest/iceberg_*.c), so both
 * APIs see one table with one warehouse bucket, one metadata pointer and one version token. The
 * SQL lives in table.c; lookups by name or ARN are in lookup.h.
 *
 * Not for the rules of either API: a table name's syntax, a metadata location a request may give,
 * and the errors and messages each outcome becomes belong to the handlers. A function that can end
 * in more than one way a client must hear about returns a int and leaves the call
 * untouched unless it returns FLOE_EFAIL; SQLite failing (anything but "no row") fails the
 * call as a failure inside (FLOE_EFAIL) (a 500 in the service's shape) and returns
 * FLOE_EFAIL.
 */
#ifndef FLOE_CATALOG_TABLE_H
#define FLOE_CATALOG_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/ids.h"
#include "call/call.h"
#include "catalog/lookup.h"

/*
 * How a change of table state ends, in the house codes (failure.h); only FLOE_EFAIL fails the call:
 *   FLOE_OK          done
 *   FLOE_ECHANGED    the table's version token is no longer the one the caller gave
 *   FLOE_ENOTFOUND   the table was deleted, or renamed away from the name it was looked up by
 *   FLOE_EEXISTS     another table of the namespace has the name
 *   FLOE_EFAIL       the call failed and holds its error (500 when SQLite failed)
 */

/* ---- creating a table (design note 2 in table.c) ---- */

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
    bool is_staged;                   /* the warehouse is a staged create's (floe_table_draft_adopt) */
} floe_table_draft_t;

/**
 * What a creator sets on the new table inside the row's transaction (CreateTable's encryption,
 * storage class and tags): `table_row_id` is the new s3table row, `bucket_row_id` its bucket's.
 * FLOE_OK, or FLOE_EFAIL with the call failed (the table is then not created).
 */
typedef int (*floe_table_settings_fn)(floe_call_t *call, int64_t table_row_id, int64_t bucket_row_id,
                                      const void *ctx);

/**
 * Starts creating table `name` (whose syntax the caller has checked) of `format` in namespace `ns`
 * of `bucket`: FLOE_EEXISTS if a table has the name, else FLOE_OK with a table id,
 * warehouse bucket name and version token picked in *out. Nothing is stored yet.
 */
int floe_table_draft(floe_call_t *call, const floe_bucket_row_t *bucket, const floe_namespace_row_t *ns,
                     const char *name, const char *format, floe_table_draft_t *out /* OUT */);

/**
 * Reserves the draft's warehouse for a staged create (the Iceberg REST catalog's stage-create):
 * makes its empty warehouse bucket, and no table row, so that an engine can write the table's
 * data files into the location the staged metadata names before the create commit that adopts it
 * (floe_table_draft_adopt). A reservation never committed is queued for the janitor at the next
 * start (floe_janitor_recover). FLOE_OK, or FLOE_EFAIL with the call failed (500).
 */
int floe_table_reserve_warehouse(floe_call_t *call, const floe_table_draft_t *t);

/**
 * Adopts the ids a REST create transaction already chose: `table_uuid` (the assign-uuid update's,
 * NULL to keep the draft's) becomes the table id, and `location` (the staged set-location, NULL for
 * none) must be "s3://<a warehouse name this table could have been given>", which becomes the
 * warehouse; the draft then takes the warehouse as a staged create reserved it (is_staged), and no
 * table may have it. FLOE_OK, or FLOE_EINVAL: S3 Tables chooses table locations.
 */
int floe_table_draft_adopt(floe_call_t *call, floe_table_draft_t *t, const char *table_uuid, const char *location);

/** Creates the draft's warehouse bucket (unless a staged create reserved it) and writes `json` as
 * metadata/00000-<uuid>.metadata.json (fsynced; never inside a transaction). Sets
 * t->metadata_location. FLOE_OK, or FLOE_EFAIL with the call failed (500); a warehouse already
 * made then goes to the janitor (a staged one waits for the next start's recovery). */
int floe_table_store_first_metadata(floe_call_t *call, floe_table_draft_t *t, const char *json);

/**
 * Inserts the draft's row (and, without metadata, its warehouse bucket) in one transaction with
 * `settings` (may be NULL). FLOE_EEXISTS if the name was taken meanwhile; a warehouse
 * that floe_table_store_first_metadata made then goes to the janitor, as it does when `settings`
 * fails (FLOE_EFAIL, the call holding the settings' error).
 */
int floe_table_insert(floe_call_t *call, const floe_table_draft_t *t, floe_table_settings_fn settings,
                      const void *settings_ctx);

/* ---- the metadata pointer (design note 3) ---- */

/**
 * Points table `t` at `metadata_location` (inside its warehouse) if and only if its version token
 * is still `expected_token`, in one statement: of K callers racing on one token, exactly one
 * swaps. FLOE_OK with *new_token (in the call's pool) the token that now guards the table,
 * FLOE_ECHANGED, FLOE_ENOTFOUND (the row was deleted) or FLOE_EFAIL.
 */
int floe_table_swap_metadata(floe_call_t *call, const floe_table_row_t *t, const char *expected_token,
                             const char *metadata_location, char **new_token /* OUT */);

/** One pointer move of floe_table_swap_metadata_all. */
typedef struct floe_table_swap {
    const floe_table_row_t *table;
    const char *expected_token;
    const char *metadata_location; /* inside the table's warehouse */
    char *new_token;               /* OUT: set when the swaps commit */
} floe_table_swap_t;

/**
 * The swaps of swaps[0..n) in one SQLite transaction: every pointer moves, or none. Returns
 * FLOE_OK; FLOE_ECHANGED or FLOE_ENOTFOUND for the first swap that could not happen,
 * with *failed its index (nothing moved); or FLOE_EFAIL.
 */
int floe_table_swap_metadata_all(floe_call_t *call, floe_table_swap_t *swaps, size_t n,
                                 size_t *failed /* OUT */);

/* ---- deleting and renaming (design note 5) ---- */

/**
 * Deletes table `t` if its version token is still `token` (NULL: any) and it still has the name it
 * was looked up by, and queues its warehouse for the janitor, in one transaction. FLOE_OK,
 * FLOE_ENOTFOUND (the name no longer names the table), FLOE_ECHANGED or FLOE_EFAIL.
 */
int floe_table_delete(floe_call_t *call, const floe_table_row_t *t, const char *token);

/**
 * Moves table `t` to namespace `dest` (of the same bucket) under `new_name` (whose syntax the
 * caller has checked), if its version token is still `token` (NULL: any) and it still has the
 * name it was looked up by. FLOE_OK, FLOE_EEXISTS, FLOE_ENOTFOUND,
 * FLOE_ECHANGED or FLOE_EFAIL.
 */
int floe_table_rename(floe_call_t *call, const floe_table_row_t *t, const floe_namespace_row_t *dest,
                      const char *new_name, const char *token);

/* ---- listing ---- */

/** Which tables floe_table_list answers, in (namespace name, table name) order. */
typedef struct floe_table_list_query {
    const floe_bucket_row_t *bucket;
    const floe_namespace_row_t *ns; /* NULL: every namespace of the bucket */
    const char *prefix;             /* NULL: any name */
    const char *after_ns;           /* the cursor: only tables after (after_ns, after_name); */
    const char *after_name;         /* NULL for "" (from the start) */
    int limit;                      /* at least 0 */
} floe_table_list_query_t;

/** The tables `q` asks for, at most q->limit, as rows (in the call's pool) in *rows. FLOE_OK, or
 * FLOE_EFAIL with the call failed (500). */
int floe_table_list(floe_call_t *call, const floe_table_list_query_t *q, floe_table_row_t **rows /* OUT */,
                    size_t *n /* OUT */);

/** The names (in the call's pool) of namespace `ns`'s tables after `after`, in order, at most
 * `limit` of them (-1: all). FLOE_OK, or FLOE_EFAIL with the call failed (500). */
int floe_table_list_names(floe_call_t *call, const floe_namespace_row_t *ns, const char *after, int limit,
                          char ***names /* OUT */, size_t *n /* OUT */);

/* ---- the warehouse ---- */

/** True when `location` lies inside the table's warehouse ("s3://<warehouse bucket>/..."). */
int floe_table_location_is_inside(const floe_table_row_t *table, const char *location);

/** "s3://<warehouse bucket>", the table's warehouse location, in the call's pool. */
char *floe_table_warehouse_location(floe_call_t *call, const floe_table_row_t *table);

#endif

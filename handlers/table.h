/*
 * What table.c lends the other ways of changing a table: the one compare-and-swap on a table's
 * metadata pointer, shared by UpdateTableMetadataLocation and the Iceberg REST catalog's commits,
 * so that the two interleave correctly.
 */
#ifndef FLOE_TABLE_H
#define FLOE_TABLE_H

#include <stdint.h>

#include "call.h"
#include "lookup.h"

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

/** True when `location` lies inside the table's warehouse ("s3://<warehouse bucket>/..."). */
int floe_table_location_is_inside(const floe_table_row_t *table, const char *location);

/** "s3://<warehouse bucket>", the table's warehouse location, in the call's pool. */
char *floe_table_warehouse_location(floe_call_t *call, const floe_table_row_t *table);

#endif

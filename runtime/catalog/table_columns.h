/*
 * How the catalog's own files read a table row: the columns of s3table `t` joined with its
 * namespace `n` that fill a floe_table_row_t, and the reader for them (lookup.c). Not for
 * handlers: they get rows from catalog/lookup.h and catalog/table.h.
 */
#ifndef FLOE_CATALOG_TABLE_COLUMNS_H
#define FLOE_CATALOG_TABLE_COLUMNS_H

#include "call/call.h"
#include "catalog/rows.h"

/** The select list floe_table_columns_read reads, from column 0 on. */
#define FLOE_TABLE_COLUMNS                                                                                     \
    "t.id, t.table_id, t.name, t.type, t.format, t.version_token, t.metadata_location, t.warehouse_bucket,"   \
    " t.created_at, t.created_by, t.modified_at, t.modified_by, n.id, n.name, n.namespace_id, n.created_by,"  \
    " n.created_at"

/** The number of columns in FLOE_TABLE_COLUMNS: a statement's further columns start here. */
#define FLOE_TABLE_N_COLUMNS 17

/** Fills *t (strings in the call's pool) from the current row of `stmt`, except t->bucket, which
 * must already be filled (the ARN is made from its name). */
void floe_table_columns_read(floe_call_t *call, floe_db_stmt_t *stmt, floe_table_row_t *t /* OUT */);

#endif

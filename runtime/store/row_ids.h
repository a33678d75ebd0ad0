/*
 * File ids read out of the store's rows: the column copy every row file uses and the collection a
 * deletion makes of the files to remove after it commits (blob.h). SQL runs through db/sql.h.
 */
#ifndef FLOE_STORE_ROW_IDS_H
#define FLOE_STORE_ROW_IDS_H

#include "db/sql.h"
#include "store/blob.h"

/** Steps a bound statement whose column 0 is a file id to its end, adding every id to `files`,
 * then resets it. FLOE_OK or FLOE_EFAIL (logged). */
int floe_store_collect_ids(floe_state_t *st, floe_db_stmt_t *stmt, floe_store_ids_t *files);

/** Copies a file-id column into a fixed buffer ("" for SQL NULL: a LEFT JOIN that found nothing). */
void floe_store_column_id(floe_db_stmt_t *stmt, int col, char out[FLOE_STORE_ID_LEN + 1] /* OUT */);

#endif

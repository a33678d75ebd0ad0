/*
 * File ids read out of the store's rows: the column copy every row file uses, the collection a
 * deletion makes of the files to remove after it commits (blob.h), and the check that keeps a file
 * while another row still names it (a replica's, share.h). SQL runs through db/sql.h.
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

/** Inside the caller's transaction, after its row changes: FLOE_OK when an object or part row
 * names file `file_id`, FLOE_ENOTFOUND when none does (it may go after COMMIT), FLOE_EFAIL when
 * SQLite fails (logged). */
int floe_store_file_lookup_name(floe_state_t *st, const char *file_id);

/** Inside the caller's transaction, after its row changes: drops from `list` every file that a row
 * still names, so that only files no row names are removed after COMMIT. FLOE_OK or FLOE_EFAIL (logged). */
int floe_store_ids_drop_named(floe_state_t *st, floe_store_ids_t *list);

#endif

/*
 * File ids read out of the store's rows (row_ids.h).
 */
#include <assert.h>
#include <string.h>

#include "store/row_ids.h"

int floe_store_collect_ids(floe_state_t *st, floe_db_stmt_t *stmt, floe_store_ids_t *files)
{
    char id[FLOE_STORE_ID_LEN + 1];
    int rc;

    while ((rc = floe_db_step(st, stmt, FLOE_DB_NONE)) == FLOE_DB_ROW) {
        floe_store_column_id(stmt, 0, id);
        floe_store_ids_add(files, id);
    }
    floe_db_reset(stmt);
    return rc == FLOE_DB_DONE ? FLOE_OK : FLOE_EFAIL;
}

void floe_store_column_id(floe_db_stmt_t *stmt, int col, char out[FLOE_STORE_ID_LEN + 1])
{
    const char *text = floe_db_column_text(stmt, col);
    size_t n = text != NULL ? floe_db_column_bytes(stmt, col) : 0;

    assert(text == NULL || n == FLOE_STORE_ID_LEN); /* a row names only ids blob.c made */
    if (n > FLOE_STORE_ID_LEN)
        n = FLOE_STORE_ID_LEN;
    memcpy(out, text != NULL ? text : "", n);
    out[n] = '\0';
}

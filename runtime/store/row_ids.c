/*
 * File ids read out of the store's rows (row_ids.h).
 */
#include <assert.h>
#include <string.h>

#include "store/row_ids.h"

int floe_store_collect_ids(floe_state_t *st, sqlite3_stmt *stmt, floe_store_ids_t *files)
{
    char id[FLOE_STORE_ID_LEN + 1];
    int rc;

    while ((rc = floe_db_step(st, stmt, FLOE_DB_NONE)) == SQLITE_ROW) {
        floe_store_column_id(stmt, 0, id);
        floe_store_ids_add(files, id);
    }
    sqlite3_reset(stmt);
    return rc == SQLITE_DONE ? FLOE_OK : FLOE_EFAIL;
}

void floe_store_column_id(sqlite3_stmt *stmt, int col, char out[FLOE_STORE_ID_LEN + 1])
{
    const unsigned char *text = sqlite3_column_text(stmt, col);
    size_t n = text != NULL ? (size_t)sqlite3_column_bytes(stmt, col) : 0;

    assert(text == NULL || n == FLOE_STORE_ID_LEN); /* a row names only ids blob.c made */
    if (n > FLOE_STORE_ID_LEN)
        n = FLOE_STORE_ID_LEN;
    memcpy(out, text != NULL ? (const char *)text : "", n);
    out[n] = '\0';
}

/*
 * File ids read out of the store's rows (row_ids.h).
 */
#include <assert.h>
#include <string.h>

#include "base/failure.h"
#include "store/row_ids.h"

FLOE_SQL(sql_file_is_named,
    "SELECT 1 FROM s3_object WHERE file_id = ?1 UNION ALL SELECT 1 FROM s3_part WHERE file_id = ?1 LIMIT 1");

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

int floe_store_file_lookup_name(floe_state_t *st, const char *file_id)
{
    return floe_db_probe(st, sql_file_is_named, "t", file_id);
}

int floe_store_ids_drop_named(floe_state_t *st, floe_store_ids_t *list)
{
    size_t kept = 0;

    for (size_t i = 0; i < list->n; i++) {
        int named = floe_store_file_lookup_name(st, list->ids[i]);
        bool is_unnamed = named == FLOE_ENOTFOUND;
        if (named == FLOE_EFAIL)
            return FLOE_EFAIL;
        if (is_unnamed && kept != i)
            memcpy(list->ids[kept], list->ids[i], sizeof(list->ids[i]));
        kept += (size_t)is_unnamed;
    }
    list->n = kept;
    return FLOE_OK;
}

/*
 * The statement steps of rows.h.
 */
#include <string.h>

#include "iam/rows.h"

int floe_iam_one_row(floe_call_t *call, floe_db_stmt_t *stmt, floe_iam_row_fn read, void *item)
{
    return floe_sql_read_one(call, stmt, read, item);
}

int floe_iam_all_rows(floe_call_t *call, floe_db_stmt_t *stmt, floe_iam_row_fn read, size_t size, void **items,
                      size_t *n)
{
    size_t cap = 0;
    int rc;

    *items = NULL;
    *n = 0;
    if (stmt == NULL)
        return FLOE_EFAIL;
    while ((rc = floe_sql_step(call, stmt, FLOE_DB_NONE)) == FLOE_DB_ROW) {
        *items = floe_call_grow(call, *items, *n, &cap, size);
        memset((char *)*items + *n * size, 0, size);
        read(call, stmt, (char *)*items + (*n)++ * size);
    }
    floe_db_reset(stmt);
    return rc == FLOE_DB_DONE ? FLOE_OK : FLOE_EFAIL;
}

/*
 * How runtime/iam/ steps its statements (call/call_sql.h underneath): one row, every row, or a
 * write that must change a row. Private to runtime/iam/.
 */
#ifndef FLOE_IAM_ROWS_H
#define FLOE_IAM_ROWS_H

#include <stddef.h>

#include "call/call_sql.h"

/** Reads the current row of `stmt` into `item`. */
typedef void (*floe_iam_row_fn)(floe_call_t *call, floe_db_stmt_t *stmt, void *item);

/** Steps the bound `stmt` (NULL: the bind failed) once and resets it: FLOE_OK with `item` read,
 * FLOE_ENOTFOUND for no row, FLOE_EFAIL (the call failed). `read` may be NULL (a probe). */
int floe_iam_one_row(floe_call_t *call, floe_db_stmt_t *stmt, floe_iam_row_fn read, void *item);

/** Every row of the bound `stmt`, each read into a new item of `size` bytes of *items (in the pool). */
int floe_iam_all_rows(floe_call_t *call, floe_db_stmt_t *stmt, floe_iam_row_fn read, size_t size, void **items,
                      size_t *n);

#endif

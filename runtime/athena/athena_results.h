/*
 * Reading a finished query's result back for GetQueryResults: its CSV file, from the S3 bucket of
 * its output location in Floe's own store, as Athena reads it from S3 (a file deleted there is a
 * result gone).
 */
#ifndef FLOE_ATHENA_RESULTS_H
#define FLOE_ATHENA_RESULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "athena/athena_csv.h"
#include "athena/athena_store.h"
#include "call/call.h"

/**
 * Up to max records of query q's result file from byte offset (0: the header, record 0) into *rows
 * (free with floe_athena_csv_records_free); *next is the offset of the record after them, 0 when
 * none follows. FLOE_OK; FLOE_ENOTFOUND when the file is gone; FLOE_EINVAL when it is not a result
 * file; FLOE_EFAIL when the store failed (recorded on the call).
 */
int floe_athena_result_read(floe_call_t *call, const floe_athena_query_row_t *q, uint64_t offset, size_t max,
                            floe_athena_csv_record_t **rows /* OUT */, size_t *n /* OUT */, uint64_t *next /* OUT */);

/**
 * Writes query q's result as a statement without rows leaves it: an empty `<id>.csv` and its
 * `.csv.metadata` (no columns) in the output location, for a statement Floe answers itself (a
 * schema's CREATE or DROP, athena_schema_ddl.h). FLOE_OK; FLOE_ENOTFOUND when the output bucket does not
 * exist; FLOE_EFAIL when the store failed (recorded on the call).
 */
int floe_athena_result_write_empty(floe_call_t *call, const floe_athena_query_row_t *q);

/** One column of a result as Athena describes it (ColumnInfo); strings in the pool. */
typedef struct floe_athena_column {
    char *name, *type;
    int precision, scale;
} floe_athena_column_t;

/** The columns the engine recorded for query q (none before a result). FLOE_OK or FLOE_EINVAL. */
int floe_athena_result_columns(floe_call_t *call, const floe_athena_query_row_t *q, floe_athena_column_t **cols /* OUT */,
                               size_t *n /* OUT */);

#endif

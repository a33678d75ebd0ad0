/*
 * Reading a file of a table's warehouse for the console: its metadata.json, the manifests the
 * table page counts (computed_summary.h) and the objects the browser reads (the object route).
 */
#ifndef FLOE_CONSOLE_TABLE_FILE_H
#define FLOE_CONSOLE_TABLE_FILE_H

#include <stddef.h>

#include "catalog/table.h"
#include "console/request.h"

/**
 * Reads the object at `location` ("s3://<warehouse>/<key>") into the request's pool: FLOE_OK with
 * *data and *len; FLOE_EINVAL when the location is not inside the table's warehouse; FLOE_ENOTFOUND
 * when there is no such object; FLOE_ESTATE when it is larger than `max` bytes (*len is then its
 * size); FLOE_EFAIL when the store failed (logged).
 */
int floe_console_read_table_file(floe_console_req_t *r, const floe_table_row_t *table, const char *location,
                                 size_t max, char **data /* OUT */, size_t *len /* OUT */);

#endif

/*
 * A table's maintenance and replication status, written as members of the table page's JSON
 * object (table.c). See status.c.
 */
#ifndef FLOE_CONSOLE_STATUS_H
#define FLOE_CONSOLE_STATUS_H

#include "call.h"
#include "catalog/lookup.h"
#include "json.h"

/**
 * Writes "maintenance": per job type (icebergCompaction, icebergSnapshotManagement,
 * icebergUnreferencedFileRemoval, recordExpiration) its status, settings, jobStatus and lastRun.
 * FLOE_OK, or FLOE_EFAIL with the call failed.
 */
int floe_console_write_maintenance(floe_call_t *call, floe_json_t *json, const floe_table_row_t *t);

/**
 * Writes "replicationStatus": one entry per destination of the table's and its bucket's
 * replication configurations, with its status, replica and last replicated update.
 */
int floe_console_write_replication_status(floe_call_t *call, floe_json_t *json, const floe_table_row_t *t);

#endif

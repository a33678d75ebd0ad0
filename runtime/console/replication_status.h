/*
 * What replication is doing, written as members of the table page's and the bucket page's JSON
 * objects (table.c, buckets.c): a source table's status per destination, a table bucket's status
 * per destination over the tables it covers, and a replica's source. See replication_status.c.
 */
#ifndef FLOE_CONSOLE_REPLICATION_STATUS_H
#define FLOE_CONSOLE_REPLICATION_STATUS_H

#include "base/json.h"
#include "catalog/lookup.h"
#include "console/request.h"

/**
 * Writes "replicationStatus": one entry per destination of the table's and its bucket's
 * replication configurations, with its status, replica and last replicated update, as
 * GetTableReplicationStatus reports them. FLOE_OK, or FLOE_EFAIL with the call failed.
 */
int floe_console_write_replication_status(floe_call_t *call, floe_json_t *json, const floe_table_row_t *t);

/**
 * Writes "replicationStatus" for table bucket `b`: one entry per destination of its replication
 * configuration (none without one), with how many of its tables GetTableReplicationStatus reports
 * completed, pending and failed for that destination, the status they add up to (failed if any
 * failed, else pending if any is pending, else completed; "none" without tables), the latest
 * replicated update and a failure message. FLOE_OK, or FLOE_EFAIL with the call failed.
 */
int floe_console_write_bucket_replication_status(floe_call_t *call, floe_json_t *json, const floe_bucket_row_t *b);

/**
 * Writes "replicaOf": null when table `t` is no replica; else its source's ARN (what GetTable
 * reports as replicationInformation.sourceTableARN) and "source": "deleted" when the source no
 * longer exists, "hidden" when the request may not look at the source's account (strict
 * signatures), else "present" with the source's namespace and name, whether the source still
 * replicates to `t`'s bucket, and the status of that (source, destination) pair as the source's
 * GetTableReplicationStatus reports it. The call's scope is left as it was. FLOE_OK, or FLOE_EFAIL
 * with the call failed.
 */
int floe_console_write_replica_source(floe_console_req_t *r, floe_json_t *json, const floe_table_row_t *t);

#endif

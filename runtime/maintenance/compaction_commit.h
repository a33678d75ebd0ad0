/*
 * Phase 2 of the compaction job (compaction.c design notes 1, 3 and 4): one commit attempt on the
 * metadata floe_job_commit read. It keeps the new files whose inputs are still as phase 1 saw
 * them, and writes the `replace` snapshot that swaps them in through the snapshot writer
 * (snapshot_writer.h).
 */
#ifndef FLOE_MAINTENANCE_COMPACTION_COMMIT_H
#define FLOE_MAINTENANCE_COMPACTION_COMMIT_H

#include <cjson/cJSON.h>

#include "maintenance/job.h"

/** floe_job_plan_fn for floe_job_commit, with the job's floe_compaction_t as `arg`: *updates stays
 * NULL when no new file can be kept. Marks the kept outputs committed. */
int floe_compaction_plan_commit(floe_job_t *job, const char *json, const char *location, cJSON **updates,
                                cJSON **requirements, void *arg);

#endif

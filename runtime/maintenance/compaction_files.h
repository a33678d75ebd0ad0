/*
 * Phase 1 of the compaction job (compaction.c design note 1), its writes: each bin of the plan
 * becomes one new data file, its inputs' column chunks copied by the kernel and the row groups
 * their deletes touch written again (iceberg/compact.h lays the file out).
 */
#ifndef FLOE_MAINTENANCE_COMPACTION_FILES_H
#define FLOE_MAINTENANCE_COMPACTION_FILES_H

#include "maintenance/compaction_plan.h"

/** Writes one new file per bin of c->plan into c->outputs. FLOE_EFAIL with the job's message set;
 * the files written so far stay in c->outputs, for the job to delete. */
int floe_compaction_write_outputs(floe_compaction_t *c);

#endif

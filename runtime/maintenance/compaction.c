/*
 * The compaction job (icebergCompaction, issue #12): a placeholder until the compaction planner
 * and stitcher land (iceberg/compact.h). It fails the job with a clear message, so the job status
 * and POST /_floe/maintenance/run report that compaction does not run yet rather than pretending
 * it succeeded.
 */
#include "maintenance/job.h"

int floe_maintenance_compaction_run(floe_job_t *job)
{
    return floe_job_fail(job, "compaction is not built yet");
}

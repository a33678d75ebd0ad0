/*
 * The status predicates of stack_status.h.
 */
#include <string.h>

#include "cloudformation/stack_status.h"

#define IN_PROGRESS_SUFFIX "_IN_PROGRESS"

bool floe_stack_status_is_in_progress(const char *status)
{
    size_t n = strlen(status), k = sizeof(IN_PROGRESS_SUFFIX) - 1;
    return n >= k && strcmp(status + n - k, IN_PROGRESS_SUFFIX) == 0;
}

bool floe_stack_status_is_updatable(const char *status)
{
    return strcmp(status, FLOE_CREATE_COMPLETE) == 0 || strcmp(status, FLOE_UPDATE_COMPLETE) == 0 ||
           strcmp(status, FLOE_UPDATE_ROLLBACK_COMPLETE) == 0;
}

/*
 * The namespace creation and deletion of namespace_rules.h, which both API families apply: AWS's
 * name rule (catalog/rules.h) and messages around the rows of catalog/namespace.h.
 */
#include <stdbool.h>

#include "catalog/namespace.h"
#include "catalog/namespace_rules.h"
#include "catalog/rules.h"
#include "floe_api.h"

int floe_namespace_create(floe_call_t *call, const floe_bucket_row_t *bucket, const char *name,
                          floe_namespace_row_t *out)
{
    bool is_taken;

    if (!floe_rules_namespace_name_is_allowed(name))
        return floe_fail(call, FLOE_EINVAL, FLOE_SUBJECT_NAMESPACE, FLOE_RULES_MESSAGE_NAMESPACE_NAME);
    if (floe_namespace_insert(call, bucket->id, name, out, &is_taken))
        return FLOE_EFAIL;
    if (is_taken)
        return floe_fail(call, FLOE_EEXISTS, FLOE_SUBJECT_NAMESPACE,
                         "A namespace with an identical name already exists in the bucket.");
    return FLOE_OK;
}

int floe_namespace_delete(floe_call_t *call, const floe_namespace_row_t *ns)
{
    bool has_tables;

    if (floe_namespace_remove(call, ns->id, &has_tables))
        return FLOE_EFAIL;
    if (has_tables)
        return floe_fail(call, FLOE_EINUSE, FLOE_SUBJECT_NAMESPACE,
                         "The namespace that you tried to delete is not empty.");
    return FLOE_OK;
}

/*
 * TablePolicyResource: the resource policy attached to a table.
 *
 * The same rules as a table bucket's policy (table_bucket_policy.c): the document is stored as the
 * client sent it (catalog/settings.h) and given back byte for byte; catalog/policy.c checks that
 * it is shaped like an AWS policy; nothing evaluates it, so in Floe a policy grants and denies
 * nothing. The model limits it to 20480 characters (ResourcePolicy). It goes with the table.
 */
#include "catalog/lookup.h"
#include "catalog/policy.h"
#include "catalog/settings.h"
#include "floe_api.h"

#define POLICY_REASON_MAX 160

int floe_handle_PutTablePolicy(floe_call_t *call, const floe_PutTablePolicyRequest *in, floe_Unit *out)
{
    char why[POLICY_REASON_MAX];
    floe_table_row_t table;
    (void)out;

    if (floe_lookup_table(call, in->tableBucketARN, in->namespace, in->name, &table))
        return FLOE_EFAIL;
    if (floe_policy_check(in->resourcePolicy, why, sizeof(why)))
        return floe_fail(call, FLOE_EINVAL, FLOE_SUBJECT_REQUEST, "%s", why);
    floe_resource_t owner = {FLOE_RESOURCE_TABLE, table.id};
    return floe_settings_policy_put(call, &owner, in->resourcePolicy);
}

int floe_handle_GetTablePolicy(floe_call_t *call, const floe_GetTablePolicyRequest *in,
                               floe_GetTablePolicyResponse *out)
{
    floe_table_row_t table;

    if (floe_lookup_table(call, in->tableBucketARN, in->namespace, in->name, &table))
        return FLOE_EFAIL;
    floe_resource_t owner = {FLOE_RESOURCE_TABLE, table.id};
    if (floe_settings_policy_get(call, &owner, &out->resourcePolicy))
        return FLOE_EFAIL;
    if (out->resourcePolicy == NULL)
        return floe_fail(call, FLOE_ENOTFOUND, FLOE_SUBJECT_POLICY, "The specified table policy does not exist.");
    return FLOE_OK;
}

/* Deleting a policy that is not there succeeds, as for a bucket: the table ends up without one
 * either way. */
int floe_handle_DeleteTablePolicy(floe_call_t *call, const floe_DeleteTablePolicyRequest *in, floe_Unit *out)
{
    floe_table_row_t table;
    (void)out;

    if (floe_lookup_table(call, in->tableBucketARN, in->namespace, in->name, &table))
        return FLOE_EFAIL;
    floe_resource_t owner = {FLOE_RESOURCE_TABLE, table.id};
    return floe_settings_policy_delete(call, &owner);
}


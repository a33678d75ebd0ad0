/*
 * TableBucketPolicyResource: the resource policy attached to a table bucket.
 *
 * The document is stored as the client sent it (catalog/settings.h) and given back byte for byte.
 * catalog/policy.c checks that it is shaped like an AWS policy; nothing evaluates it, so in Floe a
 * policy grants and denies nothing. The model limits it to 20480 characters (ResourcePolicy).
 */
#include "catalog/lookup.h"
#include "catalog/policy.h"
#include "catalog/settings.h"
#include "floe_api.h"

#define POLICY_REASON_MAX 160

int floe_handle_PutTableBucketPolicy(floe_call_t *call, const floe_PutTableBucketPolicyRequest *in, floe_Unit *out)
{
    char why[POLICY_REASON_MAX];
    floe_bucket_row_t bucket;
    (void)out;

    if (floe_lookup_bucket(call, in->tableBucketARN, &bucket))
        return FLOE_EFAIL;
    if (floe_policy_check(in->resourcePolicy, why, sizeof(why)))
        return floe_fail(call, FLOE_EINVAL, FLOE_SUBJECT_REQUEST, "%s", why);
    floe_resource_t owner = {FLOE_RESOURCE_TABLE_BUCKET, bucket.id};
    return floe_settings_policy_put(call, &owner, in->resourcePolicy);
}

int floe_handle_GetTableBucketPolicy(floe_call_t *call, const floe_GetTableBucketPolicyRequest *in,
                                     floe_GetTableBucketPolicyResponse *out)
{
    floe_bucket_row_t bucket;

    if (floe_lookup_bucket(call, in->tableBucketARN, &bucket))
        return FLOE_EFAIL;
    floe_resource_t owner = {FLOE_RESOURCE_TABLE_BUCKET, bucket.id};
    if (floe_settings_policy_get(call, &owner, &out->resourcePolicy))
        return FLOE_EFAIL;
    if (out->resourcePolicy == NULL)
        return floe_fail(call, FLOE_ENOTFOUND, FLOE_SUBJECT_POLICY, "The specified bucket policy does not exist.");
    return FLOE_OK;
}

/* Deleting a policy that is not there succeeds: the bucket ends up without one either way. */
int floe_handle_DeleteTableBucketPolicy(floe_call_t *call, const floe_DeleteTableBucketPolicyRequest *in,
                                        floe_Unit *out)
{
    floe_bucket_row_t bucket;
    (void)out;

    if (floe_lookup_bucket(call, in->tableBucketARN, &bucket))
        return FLOE_EFAIL;
    floe_resource_t owner = {FLOE_RESOURCE_TABLE_BUCKET, bucket.id};
    return floe_settings_policy_delete(call, &owner);
}


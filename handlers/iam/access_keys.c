/*
 * IAM access keys: CreateAccessKey, ListAccessKeys, DeleteAccessKey. A key works for strict
 * signatures from the moment it is created and stops the moment it is deleted (the signature check
 * reads iam/credential.h on every request). Without a UserName, the signing user's keys.
 */
#include <string.h>

#include "iam/credential.h"
#include "iam_common.h"

/* The user a request names, or the signing user when it names none. */
static int user_of(floe_query_call_t *call, const char *name, floe_iam_entity_t *e)
{
    return name != NULL ? floe_iam_find(call, FLOE_IAM_USER, name, e) : floe_iam_caller_user(call, e);
}

int floe_iam_handle_CreateAccessKey(floe_query_call_t *call, const floe_iam_CreateAccessKeyRequest *in,
                                    floe_iam_CreateAccessKeyResponse *out)
{
    floe_iam_entity_t e;
    floe_iam_access_key_t key;
    int rc;

    if ((rc = user_of(call, in->UserName, &e)) != FLOE_OK)
        return rc;
    rc = floe_iam_access_key_create(&call->super, e.row, &key);
    if (rc == FLOE_ESTATE)
        return floe_iam_fail(call, FLOE_IAM_ERR_LimitExceededException, "Cannot exceed quota for AccessKeysPerUser: %d",
                             FLOE_IAM_MAX_ACCESS_KEYS);
    if (rc != FLOE_OK)
        return rc;
    out->AccessKey = floe_call_alloc(&call->super, sizeof(*out->AccessKey));
    out->AccessKey->UserName = e.name;
    out->AccessKey->AccessKeyId = key.id;
    out->AccessKey->SecretAccessKey = key.secret;
    out->AccessKey->Status = FLOE_IAM_statusType_Active;
    out->AccessKey->CreateDate = key.created_at;
    out->AccessKey->has_CreateDate = true;
    return FLOE_OK;
}

int floe_iam_handle_ListAccessKeys(floe_query_call_t *call, const floe_iam_ListAccessKeysRequest *in,
                                   floe_iam_ListAccessKeysResponse *out)
{
    floe_iam_entity_t e;
    floe_iam_access_key_t *keys;
    size_t n, start, end;
    int rc;

    if ((rc = user_of(call, in->UserName, &e)) != FLOE_OK ||
        (rc = floe_iam_access_key_list(&call->super, e.row, &keys, &n)) != FLOE_OK ||
        (rc = floe_iam_page(call, in->Marker, in->has_MaxItems, in->MaxItems, n, &start, &end, &out->Marker,
                            &out->IsTruncated)) != FLOE_OK)
        return rc;
    out->AccessKeyMetadata = floe_call_alloc(&call->super, sizeof(*out->AccessKeyMetadata));
    out->AccessKeyMetadata->items =
        floe_call_alloc(&call->super, sizeof(*out->AccessKeyMetadata->items) * (end - start + 1));
    for (size_t i = start; i < end; i++) {
        floe_iam_AccessKeyMetadata *m = &out->AccessKeyMetadata->items[out->AccessKeyMetadata->n++];
        m->UserName = e.name;
        m->AccessKeyId = keys[i].id;
        m->Status = strcmp(keys[i].status, "Active") == 0 ? FLOE_IAM_statusType_Active : FLOE_IAM_statusType_Inactive;
        m->CreateDate = keys[i].created_at;
        m->has_CreateDate = true;
    }
    return FLOE_OK;
}

int floe_iam_handle_DeleteAccessKey(floe_query_call_t *call, const floe_iam_DeleteAccessKeyRequest *in, floe_Unit *out)
{
    floe_iam_entity_t e;
    int rc;

    (void)out;
    if ((rc = user_of(call, in->UserName, &e)) != FLOE_OK)
        return rc;
    rc = floe_iam_access_key_delete(&call->super, e.row, in->AccessKeyId);
    if (rc == FLOE_ENOTFOUND)
        return floe_iam_fail(call, FLOE_IAM_ERR_NoSuchEntityException, "The Access Key with id %s cannot be found.",
                             in->AccessKeyId);
    return rc;
}

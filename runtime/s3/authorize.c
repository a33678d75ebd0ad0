/*
 * The S3 side of --enforce-iam (authorize.h): a call on a warehouse bucket is decided as the table's
 * action by authz/table_access.h, and refused in S3's AccessDenied XML with AWS's sentence.
 */
#include <string.h>

#include "authz/table_access.h"
#include "catalog/resource_policy.h"
#include "http/peer.h"
#include "http/sigv4.h"
#include "s3/authorize.h"
#include "s3/error.h"

/* What each table storage operation needs (the S3 Tables guide, "S3 Tables actions"). */
static const struct {
    const char *op, *action;
} table_data_actions[] = {
    {"GetObject", "s3tables:GetTableData"},        {"HeadObject", "s3tables:GetTableData"},
    {"ListParts", "s3tables:GetTableData"},        {"PutObject", "s3tables:PutTableData"},
    {"CreateMultipartUpload", "s3tables:PutTableData"}, {"UploadPart", "s3tables:PutTableData"},
    {"CompleteMultipartUpload", "s3tables:PutTableData"}, {"AbortMultipartUpload", "s3tables:PutTableData"},
};

static const char *action_of(const char *op)
{
    for (size_t i = 0; i < sizeof(table_data_actions) / sizeof(table_data_actions[0]); i++) {
        if (strcmp(op, table_data_actions[i].op) == 0)
            return table_data_actions[i].action;
    }
    return NULL;
}

/* The access key that signed `r`: SigV4 (header or presigned), SigV2 presigned, or none. */
static const char *access_key_of(floe_s3_req_t *r)
{
    floe_sigv4_scope_t scope;

    if (floe_sigv4_request_scope(r->req, &scope) == 0)
        return h2o_strdup(&r->req->pool, scope.access_key.base, scope.access_key.len).base;
    return floe_s3_query(r, "AWSAccessKeyId");
}

int floe_s3_authorize(floe_s3_req_t *r)
{
    const char *action = r->bucket != NULL && r->key != NULL ? action_of(r->op) : NULL;
    floe_warehouse_table_t table;
    floe_authz_decision_t decision;
    floe_call_t call;

    if (action == NULL)
        return FLOE_OK;
    floe_call_init(&call, &r->req->pool, r->st, r->w->config);
    floe_call_set_scope(&call, &r->scope);
    switch (floe_resource_table_of_warehouse(&call, r->bucket, &table)) {
    case FLOE_OK: break;
    case FLOE_ENOTFOUND: return FLOE_OK; /* not a table's storage */
    default: return floe_s3_fail_internal(r, "cannot look the warehouse's table up");
    }
    floe_authz_target_t target = {table.arn, table.namespace_, table.name};
    if (floe_authz_table_access(&call, access_key_of(r), floe_http_peer_address(r->req), action, &target, &decision))
        return floe_s3_fail_internal(r, "cannot authorize the call");
    if (!decision.is_allowed)
        return floe_s3_fail(r, FLOE_S3_AccessDenied, floe_authz_message(&call, &decision), NULL);
    return FLOE_OK;
}

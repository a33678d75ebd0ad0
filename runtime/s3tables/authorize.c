/*
 * The S3 Tables side of --enforce-iam (authorize.h). What a call names is read from its route's
 * labels and its query, by the model's member names (tableBucketARN, namespace, name, tableArn,
 * resourceArn), so no operation is named here. A call that names no ARN (ListTableBuckets,
 * CreateTableBucket) acts on the caller's "arn:aws:s3tables:<region>:<account>:bucket/" followed by
 * a star, which a policy's "bucket/" and star and a lone star both match.
 */
#include <string.h>

#include "authz/authz.h"
#include "catalog/resource_policy.h"
#include "iam/principal.h"
#include "s3tables/authorize.h"

#define BUCKET_PART ":bucket/"
#define TABLE_PART "/table/"

/* What the call names, each NULL when it does not. */
typedef struct named {
    const char *arn; /* the bucket or table ARN given */
    const char *namespace_;
    const char *name;
} named_t;

/* The name of label `index` in `uri` ("/tables/{tableBucketARN}/{namespace}" → "namespace" for 1). */
static bool label_is(const char *uri, size_t index, const char *name)
{
    const char *open = uri;
    size_t len = strlen(name);

    for (size_t i = 0; (open = strchr(open, '{')) != NULL; i++, open++) {
        if (i == index)
            return strncmp(open + 1, name, len) == 0 && (open[1 + len] == '}' || open[1 + len] == '+');
    }
    return false;
}

static const char *member(const floe_route_match_t *match, const floe_http_input_t *http, const char *name)
{
    for (size_t i = 0; i < http->n_labels; i++) {
        if (label_is(match->route->uri, i, name))
            return http->labels[i];
    }
    for (size_t i = 0; i < http->n_query; i++) {
        if (strcmp(http->query[i].key, name) == 0)
            return http->query[i].value;
    }
    return NULL;
}

static named_t named_of(const floe_route_match_t *match, const floe_http_input_t *http)
{
    named_t n = {member(match, http, "tableBucketARN"), member(match, http, "namespace"), member(match, http, "name")};

    if (n.arn == NULL)
        n.arn = member(match, http, "tableArn");
    if (n.arn == NULL)
        n.arn = member(match, http, "resourceArn");
    return n;
}

/* The bucket name and, for a table ARN, the table id an S3 Tables ARN names; false for another ARN. */
static bool arn_parts(floe_call_t *call, const char *arn, char **bucket, char **table_id)
{
    const char *b = strstr(arn, BUCKET_PART), *t;

    if (strncmp(arn, "arn:aws:s3tables:", 17) != 0 || b == NULL)
        return false;
    b += strlen(BUCKET_PART);
    t = strstr(b, TABLE_PART);
    *bucket = floe_call_strdup(call, b);
    (*bucket)[t ? (size_t)(t - b) : strlen(b)] = '\0';
    *table_id = t ? floe_call_strdup(call, t + strlen(TABLE_PART)) : NULL;
    return **bucket != '\0';
}

/* The request of a call that names a bucket (or its table): the owner's policies, the table's ARN when it exists. */
static int request_on_bucket(floe_call_t *call, const named_t *n, floe_authz_request_t *r)
{
    floe_resource_policies_t policies;
    char *bucket, *table_id;
    size_t prefix_len;

    if (!arn_parts(call, n->arn, &bucket, &table_id)) {
        r->resource = n->arn; /* not an S3 Tables ARN: the handler refuses it */
        return FLOE_OK;
    }
    if (floe_resource_policies_get(call, bucket, n->namespace_, n->name, table_id, &policies))
        return FLOE_EFAIL;
    r->bucket_policy = policies.bucket_policy;
    r->table_policy = policies.table_policy;
    prefix_len = (size_t)(strstr(n->arn, BUCKET_PART) - n->arn) + strlen(BUCKET_PART);
    r->resource = policies.has_table ? floe_call_printf(call, "%.*s%s" TABLE_PART "%s", (int)prefix_len, n->arn, bucket,
                                                        policies.table_id)
                                     : floe_call_printf(call, "%.*s%s", (int)prefix_len, n->arn, bucket);
    return FLOE_OK;
}

int floe_s3tables_authorize(floe_call_t *call, const floe_route_match_t *match, const floe_http_input_t *http,
                            const char *access_key, const char *source_ip)
{
    named_t n = named_of(match, http);
    floe_authz_request_t r = {0};
    floe_authz_decision_t decision;
    floe_principal_t *principal;
    floe_scope_t owner;

    if (floe_principal_of_key(call, access_key, &principal))
        return floe_fail(call, FLOE_ERR_AccessDeniedException, "The security token included in the request is invalid.");
    r.action = floe_call_printf(call, "s3tables:%s", call->operation);
    r.namespace_ = n.namespace_;
    r.table_name = n.name;
    r.source_ip = source_ip;
    owner = call->scope;
    if (n.arn != NULL) {
        floe_scope_t named;
        floe_scope_from_arn(call->config, n.arn, &named);
        /* the owner's bucket is found in the owner's account; the region stays the endpoint's */
        memcpy(owner.account_id, named.account_id, sizeof(owner.account_id));
        floe_call_set_scope(call, &owner);
        if (request_on_bucket(call, &n, &r))
            return FLOE_EFAIL;
    } else {
        r.resource = floe_call_printf(call, "%s*", call->arn_bucket_prefix);
    }
    r.owner = owner.account_id;
    floe_authz_decide(call, principal, &r, &decision);
    if (!decision.is_allowed)
        return floe_fail(call, FLOE_ERR_AccessDeniedException, "%s", floe_authz_message(call, &decision));
    return FLOE_OK;
}

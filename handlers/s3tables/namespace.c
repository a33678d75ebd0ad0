/*
 * NamespaceResource: create, read, list and delete namespaces inside a table bucket.
 *
 * A namespace is a row of namespace, unique by (bucket, name), kept by catalog/namespace.c.
 * floe_namespace_create and floe_namespace_delete (catalog/namespace_rules.h) are shared with the
 * Iceberg REST catalog, which adds properties (handlers/iceberg_rest/iceberg_namespace.c). Names follow AWS's rules
 * (https://docs.aws.amazon.com/AmazonS3/latest/userguide/s3-tables-buckets-naming.html#naming-rules-namespace):
 * the model checks length and characters, namespace_name_is_allowed() the rest.
 */
#include <string.h>

#include "catalog/lookup.h"
#include "catalog/namespace.h"
#include "catalog/namespace_rules.h"
#include "catalog/page_token.h"
#include "catalog/rules.h"
#include "floe_api.h"

#define DEFAULT_PAGE_SIZE 1000

/* AWS: a namespace name begins and ends with a letter or number and must not start with the
 * reserved prefix aws (catalog/rules.h, shared with CloudFormation). */
static bool namespace_name_is_allowed(const char *name)
{
    return floe_rules_namespace_name_is_allowed(name);
}

/* A one-element NamespaceList, as the API returns namespaces. */
static floe_NamespaceList *namespace_list(floe_call_t *call, char *name)
{
    floe_NamespaceList *list = floe_NamespaceList_new(call, 1);
    list->items[0] = name;
    return list;
}

int floe_handle_CreateNamespace(floe_call_t *call, const floe_CreateNamespaceRequest *in,
                                floe_CreateNamespaceResponse *out)
{
    floe_bucket_row_t bucket;
    floe_namespace_row_t ns;

    if (!namespace_name_is_allowed(in->namespace->items[0]))
        return floe_fail(call, FLOE_EINVAL, FLOE_SUBJECT_NAMESPACE, "The specified namespace name is not valid.");
    if (floe_lookup_bucket(call, in->tableBucketARN, &bucket) ||
        floe_namespace_create(call, &bucket, in->namespace->items[0], &ns))
        return FLOE_EFAIL;
    out->tableBucketARN = bucket.arn;
    out->namespace = namespace_list(call, ns.name);
    return FLOE_OK;
}

int floe_handle_GetNamespace(floe_call_t *call, const floe_GetNamespaceRequest *in, floe_GetNamespaceResponse *out)
{
    floe_bucket_row_t bucket;
    floe_namespace_row_t ns;

    if (floe_lookup_bucket(call, in->tableBucketARN, &bucket) || floe_lookup_namespace(call, &bucket, in->namespace, &ns))
        return FLOE_EFAIL;
    out->namespace = namespace_list(call, ns.name);
    out->createdAt = ns.created_at;
    out->has_createdAt = true;
    out->createdBy = ns.created_by;
    out->ownerAccountId = floe_call_account(call);
    out->namespaceId = ns.namespace_id;
    out->tableBucketId = bucket.bucket_id;
    return FLOE_OK;
}

/* One listed namespace as the API summarizes it. */
static void fill_namespace_summary(floe_call_t *call, const floe_namespace_row_t *ns, const floe_bucket_row_t *bucket,
                                   floe_NamespaceSummary *s)
{
    s->namespace = namespace_list(call, ns->name);
    s->createdBy = ns->created_by;
    s->createdAt = ns->created_at;
    s->has_createdAt = true;
    s->ownerAccountId = floe_call_account(call);
    s->namespaceId = ns->namespace_id;
    s->tableBucketId = bucket->bucket_id;
}

int floe_handle_ListNamespaces(floe_call_t *call, const floe_ListNamespacesRequest *in,
                               floe_ListNamespacesResponse *out)
{
    int page_size = in->has_maxNamespaces ? in->maxNamespaces : DEFAULT_PAGE_SIZE;
    const char *listing, *after = "";
    floe_namespace_row_t *rows;
    floe_bucket_row_t bucket;
    size_t n;

    if (floe_lookup_bucket(call, in->tableBucketARN, &bucket))
        return FLOE_EFAIL;
    listing = floe_call_printf(call, "ListNamespaces|%s|%s", bucket.bucket_id, in->prefix ? in->prefix : "");
    if (in->continuationToken != NULL && (after = floe_page_token_decode(call, listing, in->continuationToken)) == NULL)
        return floe_fail(call, FLOE_EINVAL, FLOE_SUBJECT_REQUEST, "The continuation token is not valid.");
    /* One more row than the page tells whether another page follows. */
    if (floe_namespace_list(call, bucket.id, after, in->prefix, page_size + 1, &rows, &n))
        return FLOE_EFAIL;
    if (n > (size_t)page_size) {
        n = (size_t)page_size;
        out->continuationToken = floe_page_token_encode(call, listing, rows[n - 1].name);
    }
    out->namespaces = floe_NamespaceSummaryList_new(call, n);
    for (size_t i = 0; i < n; i++)
        fill_namespace_summary(call, &rows[i], &bucket, &out->namespaces->items[i]);
    return FLOE_OK;
}

int floe_handle_DeleteNamespace(floe_call_t *call, const floe_DeleteNamespaceRequest *in, floe_Unit *out)
{
    floe_bucket_row_t bucket;
    floe_namespace_row_t ns;
    (void)out;

    if (floe_lookup_bucket(call, in->tableBucketARN, &bucket) || floe_lookup_namespace(call, &bucket, in->namespace, &ns))
        return FLOE_EFAIL;
    return floe_namespace_delete(call, &ns);
}

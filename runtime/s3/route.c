/*
 * The S3 router of route.h: a decision over (method, bucket?, key?, sub-resource), in the order
 * S3's own API reference lists the operations. Query parameters that are not sub-resources
 * (x-id, which the JS SDK appends, presigned-URL X-Amz-* parameters, response-* overrides,
 * prefix, ...) never change the operation.
 */
#include <assert.h>
#include <string.h>

#include "base/log.h"
#include "http/uri.h"
#include "s3/error.h"
#include "s3/ops.h"
#include "s3/route.h"

/* Sub-resources of S3 operations Floe does not implement, with the noun of their names. */
static const struct {
    const char *param;
    const char *noun;
} unsupported[] = {
    {"accelerate", "Accelerate"},
    {"acl", "Acl"},
    {"analytics", "AnalyticsConfiguration"},
    {"attributes", "Attributes"},
    {"cors", "Cors"},
    {"encryption", "Encryption"},
    {"intelligent-tiering", "IntelligentTieringConfiguration"},
    {"inventory", "InventoryConfiguration"},
    {"legal-hold", "LegalHold"},
    {"lifecycle", "LifecycleConfiguration"},
    {"logging", "Logging"},
    {"metadataTable", "MetadataTableConfiguration"},
    {"metrics", "MetricsConfiguration"},
    {"notification", "NotificationConfiguration"},
    {"object-lock", "ObjectLockConfiguration"},
    {"ownershipControls", "OwnershipControls"},
    {"policy", "Policy"},
    {"policyStatus", "PolicyStatus"},
    {"publicAccessBlock", "PublicAccessBlock"},
    {"replication", "Replication"},
    {"requestPayment", "RequestPayment"},
    {"restore", "Restore"},
    {"retention", "Retention"},
    {"select", "Select"},
    {"session", "Session"},
    {"tagging", "Tagging"},
    {"torrent", "Torrent"},
    {"versioning", "Versioning"},
    {"website", "Website"},
};

/* A table's warehouse bucket: S3 reserves the suffix, so no general purpose bucket has it
 * (bucket.c refuses it on CreateBucket). */
#define WAREHOUSE_SUFFIX "--table-s3"

/* The object operations AWS serves on table storage ("Supported Amazon S3 object-level API
 * operations for S3 Tables", S3 user guide); everything else on a warehouse answers 405. */
static const char *const warehouse_operations[] = {
    "GetObject", "HeadObject", "PutObject", "CreateMultipartUpload", "UploadPart", "CompleteMultipartUpload",
    "AbortMultipartUpload", "ListParts",
};

static floe_s3_route_t route(const char *op, floe_s3_handler_fn handle)
{
    floe_s3_route_t rt = {op, handle};
    return rt;
}

static bool has(const floe_s3_req_t *r, const char *param)
{
    return floe_s3_query(r, param) != NULL;
}

static const char *verb_of(const floe_s3_req_t *r)
{
    static const char *const verbs[][2] = {{"GET", "Get"}, {"PUT", "Put"}, {"DELETE", "Delete"},
                                           {"POST", "Post"}, {"HEAD", "Head"}};
    for (size_t i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++) {
        if (floe_s3_method_is(r, verbs[i][0]))
            return verbs[i][1];
    }
    return "Unknown";
}

/* A route to 501 if the request names an unsupported sub-resource, else {NULL, NULL}. */
static floe_s3_route_t unsupported_route(floe_s3_req_t *r)
{
    for (size_t i = 0; i < sizeof(unsupported) / sizeof(unsupported[0]); i++) {
        if (has(r, unsupported[i].param))
            return route(floe_s3_printf(r, "%s%s%s", verb_of(r), r->key ? "Object" : "Bucket", unsupported[i].noun),
                         floe_s3_not_implemented);
    }
    return route(NULL, NULL);
}

static floe_s3_route_t route_service(floe_s3_req_t *r)
{
    if (floe_s3_method_is(r, "GET"))
        return route("ListBuckets", floe_s3_list_buckets);
    return route("-", floe_s3_method_not_allowed);
}

static floe_s3_route_t route_bucket(floe_s3_req_t *r)
{
    if (floe_s3_method_is(r, "GET")) {
        if (has(r, "location"))
            return route("GetBucketLocation", floe_s3_get_bucket_location);
        if (has(r, "uploads"))
            return route("ListMultipartUploads", floe_s3_list_multipart_uploads);
        if (has(r, "versions"))
            return route("ListObjectVersions", floe_s3_not_implemented);
        if (has(r, "list-type"))
            return route("ListObjectsV2", floe_s3_list_objects_v2);
        return route("ListObjects", floe_s3_list_objects);
    }
    if (floe_s3_method_is(r, "HEAD"))
        return route("HeadBucket", floe_s3_head_bucket);
    if (floe_s3_method_is(r, "PUT"))
        return route("CreateBucket", floe_s3_create_bucket);
    if (floe_s3_method_is(r, "DELETE"))
        return route("DeleteBucket", floe_s3_delete_bucket);
    if (floe_s3_method_is(r, "POST"))
        return has(r, "delete") ? route("DeleteObjects", floe_s3_delete_objects)
                                : route("PostObject", floe_s3_not_implemented);
    return route("-", floe_s3_method_not_allowed);
}

static floe_s3_route_t route_object(floe_s3_req_t *r)
{
    bool is_copy = h2o_find_header_by_str(&r->req->headers, H2O_STRLIT("x-amz-copy-source"), -1) >= 0;

    if (floe_s3_method_is(r, "GET"))
        return has(r, "uploadId") ? route("ListParts", floe_s3_list_parts) : route("GetObject", floe_s3_get_object);
    if (floe_s3_method_is(r, "HEAD"))
        return route("HeadObject", floe_s3_head_object);
    if (floe_s3_method_is(r, "PUT")) {
        if (has(r, "uploadId") || has(r, "partNumber"))
            return is_copy ? route("UploadPartCopy", floe_s3_not_implemented) : route("UploadPart", floe_s3_upload_part);
        return is_copy ? route("CopyObject", floe_s3_copy_object) : route("PutObject", floe_s3_put_object);
    }
    if (floe_s3_method_is(r, "DELETE"))
        return has(r, "uploadId") ? route("AbortMultipartUpload", floe_s3_abort_multipart_upload)
                                  : route("DeleteObject", floe_s3_delete_object);
    if (floe_s3_method_is(r, "POST")) {
        if (has(r, "uploads"))
            return route("CreateMultipartUpload", floe_s3_create_multipart_upload);
        if (has(r, "uploadId"))
            return route("CompleteMultipartUpload", floe_s3_complete_multipart_upload);
        return route("PostObject", floe_s3_not_implemented);
    }
    return route("-", floe_s3_method_not_allowed);
}

static bool is_warehouse(const char *bucket)
{
    size_t n = strlen(bucket), suffix = strlen(WAREHOUSE_SUFFIX);
    return n > suffix && memcmp(bucket + n - suffix, WAREHOUSE_SUFFIX, suffix) == 0;
}

static bool warehouse_serves(const char *op)
{
    for (size_t i = 0; i < sizeof(warehouse_operations) / sizeof(warehouse_operations[0]); i++) {
        if (strcmp(op, warehouse_operations[i]) == 0)
            return true;
    }
    return false;
}

/* The bucket x-amz-copy-source ("[/]bucket/key", URL-encoded) names when it is a warehouse, else NULL. */
static const char *warehouse_copy_source(floe_s3_req_t *r)
{
    char *source = floe_s3_header(r, "x-amz-copy-source"), *decoded, *slash;

    if (source == NULL || (decoded = floe_percent_decode(&r->req->pool, source, strlen(source), 0)) == NULL)
        return NULL;
    if (*decoded == '/')
        decoded++;
    if ((slash = strchr(decoded, '/')) != NULL)
        *slash = '\0';
    return is_warehouse(decoded) ? decoded : NULL;
}

/* AWS serves only warehouse_operations on a table's storage: anything else addressed to a
 * warehouse, and a copy out of one (CopyObject is not among them), is refused. CreateBucket goes
 * on, to be refused for its reserved name (InvalidBucketName). */
static bool warehouse_refuses(floe_s3_req_t *r, const char *op)
{
    if (r->w->config->warehouse_s3_full)
        return false;
    if (is_warehouse(r->bucket))
        return !warehouse_serves(op) && strcmp(op, "CreateBucket") != 0;
    return r->key != NULL && warehouse_copy_source(r) != NULL;
}

floe_s3_route_t floe_s3_route(floe_s3_req_t *r)
{
    floe_s3_route_t rt;

    if (r->bucket == NULL)
        return route_service(r);
    if ((rt = unsupported_route(r)).op == NULL)
        rt = r->key == NULL ? route_bucket(r) : route_object(r);
    if (warehouse_refuses(r, rt.op))
        rt.handle = floe_s3_warehouse_refused;
    return rt;
}

/* The warehouse a refused request involves: the bucket it addresses, or the one it copies from. */
static const char *refused_warehouse(floe_s3_req_t *r)
{
    return is_warehouse(r->bucket) ? r->bucket : warehouse_copy_source(r);
}

/* A deleted table's warehouse is no bucket at all (the janitor retired its name), so every
 * operation on it answers NoSuchBucket, as on AWS; only a live warehouse refuses with 405, in
 * S3's own words ("The specified method is not allowed against this resource.", with <Method> and
 * <ResourceType>), which clients match. Floe's hint goes to the server's log. */
int floe_s3_warehouse_refused(floe_s3_req_t *r)
{
    const char *warehouse = refused_warehouse(r);
    floe_store_bucket_t b;

    assert(warehouse != NULL); /* warehouse_refuses routed here only for one */
    switch (floe_store_bucket_get(r->st, &r->req->pool, warehouse, &b)) {
    case FLOE_OK: break;
    case FLOE_ENOTFOUND: return floe_s3_fail(r, FLOE_S3_NoSuchBucket, NULL, NULL);
    default: return floe_s3_fail_internal(r, "cannot look the warehouse up");
    }
    if (!r->w->config->quiet)
        floe_log("%s on table storage %s refused with 405: S3 Tables serves only GetObject, HeadObject, PutObject "
                 "and the multipart upload operations there (floe serve --warehouse-s3 full lifts this for debugging)",
                 strcmp(r->op, "-") == 0 ? "this method" : r->op, warehouse);
    return floe_s3_fail(r, FLOE_S3_MethodNotAllowed, NULL, "Method",
                             floe_s3_strndup(r, r->req->input.method.base, r->req->input.method.len), "ResourceType",
                             r->key != NULL ? "OBJECT" : "BUCKET", NULL);
}

int floe_s3_not_implemented(floe_s3_req_t *r)
{
    return floe_s3_fail(r, FLOE_S3_NotImplemented,
                        floe_s3_printf(r, "Floe does not implement %s; see docs/s3.md for what it serves.", r->op), NULL);
}

int floe_s3_method_not_allowed(floe_s3_req_t *r)
{
    const char *method = floe_s3_strndup(r, r->req->input.method.base, r->req->input.method.len);

    if (r->bucket == NULL)
        return floe_s3_fail(r, FLOE_S3_MethodNotAllowed, NULL, "Method", method, NULL);
    return floe_s3_fail(r, FLOE_S3_MethodNotAllowed, NULL, "Method", method, "ResourceType",
                             r->key != NULL ? "OBJECT" : "BUCKET", NULL);
}

/*
 * Bucket operations: CreateBucket, HeadBucket, DeleteBucket, ListBuckets, GetBucketLocation.
 *
 * Names follow S3's general purpose bucket rules
 * (https://docs.aws.amazon.com/AmazonS3/latest/userguide/bucketnamingrules.html), which
 * bucket_name.c writes once for both kinds of bucket. Warehouse buckets (created by S3 Tables for
 * each table) are served like any bucket but never listed and never deleted over S3, as on AWS.
 */
#include <string.h>

#include "base/bucket_name.h"
#include "base/failure.h"
#include "s3/body.h"
#include "s3/error.h"
#include "s3/ops.h"
#include "s3/xml.h"
#include "s3/xml_body.h"

#define US_EAST_1 "us-east-1"
#define REGION_MAX_LEN 32

int floe_s3_bucket_lookup(floe_s3_req_t *r, floe_store_bucket_t *out)
{
    switch (floe_store_bucket_get(r->st, &r->req->pool, r->bucket, out)) {
    case FLOE_OK: return 0;
    case FLOE_ENOTFOUND: return floe_s3_fail(r, FLOE_S3_NoSuchBucket, NULL, NULL);
    default: return floe_s3_fail_internal(r, "cannot look the bucket up");
    }
}

/* The LocationConstraint of an optional CreateBucketConfiguration body ("" when absent). Returns
 * NULL after answering MalformedXML or InvalidLocationConstraint. */
static const char *location_constraint(floe_s3_req_t *r)
{
    const char *region;
    floe_s3_xml_body_rc_t rc = floe_s3_xml_read_location(&r->req->pool, r->req->entity.base, r->req->entity.len,
                                                         &region);

    if (!rc.is_ok) {
        floe_s3_fail(r, rc.error, NULL, NULL);
        return NULL;
    }
    /* S3 refuses "us-east-1" spelled out: it is the default, and has no constraint. */
    if (strcmp(region, US_EAST_1) == 0 || strlen(region) > REGION_MAX_LEN ||
        strspn(region, "abcdefghijklmnopqrstuvwxyzEU0123456789-") != strlen(region)) {
        floe_s3_fail(r, FLOE_S3_InvalidLocationConstraint, NULL, NULL);
        return NULL;
    }
    return region;
}

/* S3 bucket names are one name space for every account: the requester's own bucket is
 * BucketAlreadyOwnedByYou, anyone else's BucketAlreadyExists (both 409). */
static int refuse_taken_name(floe_s3_req_t *r)
{
    floe_store_bucket_t b;

    switch (floe_store_bucket_get(r->st, &r->req->pool, r->bucket, &b)) {
    case FLOE_OK:
        return floe_s3_fail(r, strcmp(b.owner, r->scope.account_id) == 0 ? FLOE_S3_BucketAlreadyOwnedByYou
                                                                           : FLOE_S3_BucketAlreadyExists,
                            NULL, NULL);
    default: return floe_s3_fail_internal(r, "cannot read the bucket that holds the name");
    }
}

int floe_s3_create_bucket(floe_s3_req_t *r)
{
    const char *region;

    if (!floe_bucket_name_is_valid(r->bucket, FLOE_BUCKET_NAME_GENERAL_PURPOSE))
        return floe_s3_fail(r, FLOE_S3_InvalidBucketName, NULL, NULL);
    if ((region = location_constraint(r)) == NULL)
        return FLOE_EFAIL;
    switch (floe_store_bucket_create(r->st, r->bucket, false, region, r->scope.account_id, r->now_ms)) {
    case FLOE_OK: break;
    case FLOE_EEXISTS: return refuse_taken_name(r);
    default: return floe_s3_fail_internal(r, "cannot create the bucket");
    }
    floe_s3_add_header(r, "Location", floe_s3_printf(r, "/%s", r->bucket));
    floe_s3_reply(r, 200, NULL, 0);
    return FLOE_OK;
}

static const char *region_of(const floe_store_bucket_t *b)
{
    return b->region != NULL && *b->region ? b->region : US_EAST_1;
}

int floe_s3_head_bucket(floe_s3_req_t *r)
{
    floe_store_bucket_t b;

    if (floe_s3_bucket_lookup(r, &b) != 0)
        return FLOE_EFAIL;
    floe_s3_add_header(r, "x-amz-bucket-region", region_of(&b));
    floe_s3_reply(r, 200, NULL, 0);
    return FLOE_OK;
}

int floe_s3_delete_bucket(floe_s3_req_t *r)
{
    floe_store_bucket_t b;

    if (floe_s3_bucket_lookup(r, &b) != 0)
        return FLOE_EFAIL;
    /* A table's warehouse goes with its table (DeleteTable), never over S3: AWS denies it too. */
    if (b.is_warehouse)
        return floe_s3_fail(r, FLOE_S3_AccessDenied, NULL, NULL);
    switch (floe_store_bucket_delete(r->st, r->data_dir, b.id)) {
    case FLOE_OK: break;
    case FLOE_EEXISTS: return floe_s3_fail(r, FLOE_S3_BucketNotEmpty, NULL, NULL);
    default: return floe_s3_fail_internal(r, "cannot delete the bucket");
    }
    floe_s3_reply(r, 204, NULL, 0);
    return FLOE_OK;
}

int floe_s3_list_buckets(floe_s3_req_t *r)
{
    floe_store_bucket_entry_t *buckets;
    floe_s3_xml_t x;
    size_t n;

    if (floe_store_bucket_list(r->st, &r->req->pool, r->scope.account_id, &buckets, &n) != FLOE_OK)
        return floe_s3_fail_internal(r, "cannot list buckets");
    floe_s3_xml_begin(&x, "ListAllMyBucketsResult");
    floe_s3_xml_owner(&x, "Owner");
    floe_s3_xml_open(&x, "Buckets");
    for (size_t i = 0; i < n; i++) {
        floe_s3_xml_open(&x, "Bucket");
        floe_s3_xml_elem(&x, "Name", buckets[i].name);
        floe_s3_xml_elem_time(&x, "CreationDate", buckets[i].created_ms);
        floe_s3_xml_close(&x, "Bucket");
    }
    floe_s3_xml_close(&x, "Buckets");
    floe_s3_xml_close(&x, "ListAllMyBucketsResult");
    floe_s3_reply(r, 200, x.buf, x.len);
    floe_s3_xml_dispose(&x);
    return 0;
}

int floe_s3_get_bucket_location(floe_s3_req_t *r)
{
    floe_store_bucket_t b;
    floe_s3_xml_t x;

    if (floe_s3_bucket_lookup(r, &b) != 0)
        return FLOE_EFAIL;
    /* us-east-1 answers an empty LocationConstraint (a null LocationConstraint in the SDKs). */
    floe_s3_xml_begin(&x, "LocationConstraint");
    floe_s3_xml_text(&x, b.region, strlen(b.region));
    floe_s3_xml_close(&x, "LocationConstraint");
    floe_s3_reply(r, 200, x.buf, x.len);
    floe_s3_xml_dispose(&x);
    return FLOE_OK;
}

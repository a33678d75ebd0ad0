/*
 * The S3 operations Floe serves, one function each, grouped by file: bucket.c (buckets),
 * object.c (PutObject, DeleteObject), get.c (GetObject, HeadObject), copy.c (CopyObject),
 * list.c (ListObjects, ListObjectsV2), delete_objects.c (DeleteObjects), multipart.c and
 * multipart_list.c (multipart uploads). route.c picks one per request. Each answers the request
 * itself (success or S3 error) and returns 0, or -1 when it answered an error.
 */
#ifndef FLOE_S3_OPS_H
#define FLOE_S3_OPS_H

#include "s3/request.h"
#include "store/store.h"

int floe_s3_list_buckets(floe_s3_req_t *r);
int floe_s3_create_bucket(floe_s3_req_t *r);
int floe_s3_head_bucket(floe_s3_req_t *r);
int floe_s3_delete_bucket(floe_s3_req_t *r);
int floe_s3_get_bucket_location(floe_s3_req_t *r);

int floe_s3_put_object(floe_s3_req_t *r);
int floe_s3_delete_object(floe_s3_req_t *r);
int floe_s3_get_object(floe_s3_req_t *r);
int floe_s3_head_object(floe_s3_req_t *r);
int floe_s3_copy_object(floe_s3_req_t *r);
int floe_s3_delete_objects(floe_s3_req_t *r);

int floe_s3_list_objects(floe_s3_req_t *r);
int floe_s3_list_objects_v2(floe_s3_req_t *r);

int floe_s3_create_multipart_upload(floe_s3_req_t *r);
int floe_s3_upload_part(floe_s3_req_t *r);
int floe_s3_complete_multipart_upload(floe_s3_req_t *r);
int floe_s3_abort_multipart_upload(floe_s3_req_t *r);
int floe_s3_list_parts(floe_s3_req_t *r);
int floe_s3_list_multipart_uploads(floe_s3_req_t *r);

/** Answers 501 NotImplemented naming r->op. */
int floe_s3_not_implemented(floe_s3_req_t *r);
/** Refuses an operation AWS does not serve on a table's warehouse: 405 MethodNotAllowed in S3's words
 * (naming r->op in the server log) while the warehouse exists, NoSuchBucket once its table is deleted. */
int floe_s3_warehouse_refused(floe_s3_req_t *r);
/** Answers 405 MethodNotAllowed. */
int floe_s3_method_not_allowed(floe_s3_req_t *r);

/** Looks r->bucket up; answers NoSuchBucket (or InternalError) and returns -1 when it cannot. */
int floe_s3_bucket_lookup(floe_s3_req_t *r, floe_store_bucket_t *out /* OUT */);

/** Looks the object `key` of bucket `bucket` up in one read; answers NoSuchBucket, NoSuchKey or
 * InternalError (naming r's bucket and key) and returns -1 when it cannot. */
int floe_s3_object_lookup(floe_s3_req_t *r, const char *bucket, const char *key, floe_store_object_t *obj /* OUT */);

/**
 * As floe_s3_object_lookup, then opens the object's file for reading, re-reading the row when a
 * concurrent overwrite removed the file in between (store.c, design note 4). Returns the
 * descriptor, or FLOE_EFAIL after answering.
 */
int floe_s3_object_open(floe_s3_req_t *r, const char *bucket, const char *key, floe_store_object_t *obj /* OUT */);

#endif

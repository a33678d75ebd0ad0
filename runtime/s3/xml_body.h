/*
 * The XML request bodies S3 operations read: CompleteMultipartUpload's part list, DeleteObjects'
 * key list and CreateBucket's CreateBucketConfiguration, read into plain values with S3's limits
 * checked. These are pure functions of the bytes: they never answer a request, so a fuzzer
 * (tests/fuzz/fuzz_s3_xml.c) drives exactly the code the operations run. The operations
 * (multipart.c, delete_objects.c, bucket.c) turn a refusal into S3's error reply.
 *
 * Not for parsing XML itself (xml_read.c) nor for checking what the values name (whether a part
 * exists, a key is valid, a region is known).
 */
#ifndef FLOE_S3_XML_BODY_H
#define FLOE_S3_XML_BODY_H

#include <stdbool.h>
#include <stddef.h>

#include <h2o/memory.h>

#include "s3/error.h"

/* S3's limits on the bodies (https://docs.aws.amazon.com/AmazonS3/latest/API/). */
#define FLOE_S3_MIN_PART_NUMBER 1
#define FLOE_S3_MAX_PART_NUMBER 10000
#define FLOE_S3_MAX_DELETE_KEYS 1000

/** What a body reader concluded: the body is usable, or the S3 error to answer. */
typedef struct floe_s3_xml_body_rc {
    bool is_ok;
    floe_s3_error_t error; /* when !is_ok: MalformedXML or InvalidPartOrder */
} floe_s3_xml_body_rc_t;

/** One <Part> of a CompleteMultipartUpload body. */
typedef struct floe_s3_listed_part {
    int number; /* 1..10,000 */
    char *etag; /* without the quotes clients put around it */
} floe_s3_listed_part_t;

/** Parses a part number: 0 when s is not a decimal integer in 1..10,000. */
int floe_s3_part_number_parse(const char *s);

/**
 * Reads <CompleteMultipartUpload><Part><PartNumber/><ETag/></Part>...: at least one and at most
 * 10,000 parts, each with both members, numbers strictly ascending (else InvalidPartOrder).
 * On success *parts (an array in pool) and *n_parts are set.
 */
floe_s3_xml_body_rc_t floe_s3_xml_read_complete(h2o_mem_pool_t *pool, const char *body, size_t len,
                                                floe_s3_listed_part_t **parts /* OUT */, size_t *n_parts /* OUT */);

/**
 * Reads <Delete><Quiet/><Object><Key/></Object>...</Delete>: at least one and at most 1,000
 * objects, each with a <Key>. On success *keys (an array of strings in pool), *n_keys and
 * *is_quiet (<Quiet>true</Quiet>) are set. The keys are as written: they may be empty or too long.
 */
floe_s3_xml_body_rc_t floe_s3_xml_read_delete(h2o_mem_pool_t *pool, const char *body, size_t len,
                                              char ***keys /* OUT */, size_t *n_keys /* OUT */,
                                              bool *is_quiet /* OUT */);

/**
 * Reads an optional <CreateBucketConfiguration><LocationConstraint/>: an empty body, or one
 * without the member, gives "". On success *region (in pool, or a literal) is set.
 */
floe_s3_xml_body_rc_t floe_s3_xml_read_location(h2o_mem_pool_t *pool, const char *body, size_t len,
                                                const char **region /* OUT */);

#endif

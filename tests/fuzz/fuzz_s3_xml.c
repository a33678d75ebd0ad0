/*
 * libFuzzer harness for the S3 XML request-body readers (runtime/s3/xml_body.h): every input is
 * read as a CompleteMultipartUpload, a DeleteObjects and a CreateBucketConfiguration body, which
 * also drives the expat-based reader of runtime/s3/xml.h. Besides the sanitizers it checks what the
 * operations rely on: part numbers in 1..10,000 and strictly ascending, every ETag and key
 * present, no more parts or keys than S3 allows, a region string whenever a body is accepted.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "s3/xml_body.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void expect(int cond)
{
    if (!cond)
        abort();
}

static void read_complete(h2o_mem_pool_t *pool, const char *body, size_t len)
{
    floe_s3_listed_part_t *parts = NULL;
    size_t n = 0;
    floe_s3_xml_body_rc_t rc = floe_s3_xml_read_complete(pool, body, len, &parts, &n);

    if (!rc.is_ok) {
        expect(rc.error == FLOE_S3_MalformedXML || rc.error == FLOE_S3_InvalidPartOrder);
        return;
    }
    expect(n >= 1 && n <= FLOE_S3_MAX_PART_NUMBER && parts != NULL);
    for (size_t i = 0; i < n; i++) {
        expect(parts[i].number >= FLOE_S3_MIN_PART_NUMBER && parts[i].number <= FLOE_S3_MAX_PART_NUMBER);
        expect(i == 0 || parts[i].number > parts[i - 1].number);
        expect(parts[i].etag != NULL);
        (void)strlen(parts[i].etag);
    }
}

static void read_delete(h2o_mem_pool_t *pool, const char *body, size_t len)
{
    char **keys = NULL;
    size_t n = 0;
    bool is_quiet = false;
    floe_s3_xml_body_rc_t rc = floe_s3_xml_read_delete(pool, body, len, &keys, &n, &is_quiet);

    if (!rc.is_ok) {
        expect(rc.error == FLOE_S3_MalformedXML);
        return;
    }
    expect(n >= 1 && n <= FLOE_S3_MAX_DELETE_KEYS && keys != NULL);
    for (size_t i = 0; i < n; i++) {
        expect(keys[i] != NULL);
        (void)strlen(keys[i]);
    }
}

static void read_location(h2o_mem_pool_t *pool, const char *body, size_t len)
{
    const char *region = NULL;
    floe_s3_xml_body_rc_t rc = floe_s3_xml_read_location(pool, body, len, &region);

    if (!rc.is_ok) {
        expect(rc.error == FLOE_S3_MalformedXML);
        return;
    }
    expect(region != NULL);
    (void)strlen(region);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    h2o_mem_pool_t pool;

    h2o_mem_init_pool(&pool);
    read_complete(&pool, (const char *)data, size);
    read_delete(&pool, (const char *)data, size);
    read_location(&pool, (const char *)data, size);
    h2o_mem_clear_pool(&pool);
    return 0;
}

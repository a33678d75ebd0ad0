/*
 * DeleteObjects: up to 1,000 keys named in an XML body, deleted in one transaction (then their
 * files). Missing keys count as deleted, as on S3. Quiet mode reports errors only.
 * https://docs.aws.amazon.com/AmazonS3/latest/API/API_DeleteObjects.html
 */
#include <string.h>

#include "base/failure.h"
#include "http/codec.h"
#include "s3/body.h"
#include "s3/error.h"
#include "s3/ops.h"
#include "s3/xml.h"
#include "s3/xml_body.h"

typedef struct delete_item {
    const char *key;
    const char *error_code; /* NULL: deleted */
    const char *error_message;
} delete_item_t;

/* Reads the body's key list (xml_body.h) into items. Returns their number, or -1 after answering
 * MalformedXML. */
static long read_request(floe_s3_req_t *r, bool *is_quiet, delete_item_t **items)
{
    char **keys;
    size_t n;
    floe_s3_xml_body_rc_t rc = floe_s3_xml_read_delete(&r->req->pool, r->req->entity.base, r->req->entity.len, &keys,
                                                       &n, is_quiet);

    if (!rc.is_ok)
        return floe_s3_fail(r, rc.error, NULL, NULL);
    *items = h2o_mem_alloc_pool(&r->req->pool, n * sizeof(**items));
    for (size_t i = 0; i < n; i++)
        (*items)[i] = (delete_item_t){keys[i], NULL, NULL};
    return (long)n;
}

/* Marks keys S3 would refuse one by one; returns the keys to delete (pool). */
static const char **keys_to_delete(floe_s3_req_t *r, delete_item_t *items, long n, size_t *n_keys)
{
    const char **keys = h2o_mem_alloc_pool(&r->req->pool, (size_t)n * sizeof(*keys));

    *n_keys = 0;
    for (long i = 0; i < n; i++) {
        size_t len = strlen(items[i].key);
        if (len == 0 || !floe_codec_utf8_valid(items[i].key, len)) {
            items[i].error_code = "InvalidArgument";
            items[i].error_message = "Invalid key";
        } else if (len > FLOE_S3_MAX_KEY_BYTES) {
            items[i].error_code = "KeyTooLongError";
            items[i].error_message = floe_s3_error_message(FLOE_S3_KeyTooLongError);
        } else {
            keys[(*n_keys)++] = items[i].key;
        }
    }
    return keys;
}

static void write_result(floe_s3_req_t *r, const delete_item_t *items, long n, bool is_quiet)
{
    floe_s3_xml_t x;

    floe_s3_xml_begin(&x, "DeleteResult");
    for (long i = 0; i < n; i++) {
        if (items[i].error_code != NULL) {
            floe_s3_xml_open(&x, "Error");
            floe_s3_xml_elem(&x, "Key", items[i].key);
            floe_s3_xml_elem(&x, "Code", items[i].error_code);
            floe_s3_xml_elem(&x, "Message", items[i].error_message);
            floe_s3_xml_close(&x, "Error");
        } else if (!is_quiet) {
            floe_s3_xml_open(&x, "Deleted");
            floe_s3_xml_elem(&x, "Key", items[i].key);
            floe_s3_xml_close(&x, "Deleted");
        }
    }
    floe_s3_xml_close(&x, "DeleteResult");
    floe_s3_reply(r, 200, x.buf, x.len);
    floe_s3_xml_dispose(&x);
}

int floe_s3_delete_objects(floe_s3_req_t *r)
{
    floe_store_bucket_t b;
    delete_item_t *items = NULL;
    const char **keys;
    size_t n_keys;
    bool is_quiet = false;
    long n;

    if (floe_s3_bucket_lookup(r, &b) != 0 || floe_s3_body_verify_small(r, false) != 0 ||
        (n = read_request(r, &is_quiet, &items)) < 0)
        return FLOE_EFAIL;
    keys = keys_to_delete(r, items, n, &n_keys);
    if (floe_store_object_delete_many(r->st, r->data_dir, b.id, keys, n_keys) != FLOE_OK)
        return floe_s3_fail_internal(r, "cannot delete the objects");
    write_result(r, items, n, is_quiet);
    return FLOE_OK;
}

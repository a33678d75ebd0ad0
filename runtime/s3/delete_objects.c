/*
 * DeleteObjects: up to 1,000 keys named in an XML body, deleted in one transaction (then their
 * files). Missing keys count as deleted, as on S3. Quiet mode reports errors only.
 * https://docs.aws.amazon.com/AmazonS3/latest/API/API_DeleteObjects.html
 */
#include <string.h>

#include "codec.h"
#include "s3/body.h"
#include "s3/error.h"
#include "s3/ops.h"
#include "s3/xml.h"

#define MAX_DELETE_KEYS 1000

typedef struct delete_item {
    const char *key;
    const char *error_code; /* NULL: deleted */
    const char *error_message;
} delete_item_t;

/* Reads <Delete><Quiet/><Object><Key/></Object>...</Delete>. Returns the number of items, or -1
 * after answering MalformedXML. */
static long read_request(floe_s3_req_t *r, bool *is_quiet, delete_item_t **items)
{
    xmlDocPtr doc = floe_s3_xml_parse(r->req->entity.base, r->req->entity.len);
    xmlNodePtr root = doc != NULL ? floe_s3_xml_root(doc, "Delete") : NULL, obj;
    char *quiet;
    long n = 0;

    if (root == NULL)
        goto Malformed;
    quiet = floe_s3_xml_child_text(&r->req->pool, root, "Quiet");
    *is_quiet = quiet != NULL && strcmp(quiet, "true") == 0;
    *items = h2o_mem_alloc_pool(&r->req->pool, (MAX_DELETE_KEYS + 1) * sizeof(**items));
    for (obj = floe_s3_xml_child(root, "Object"); obj != NULL; obj = floe_s3_xml_next(obj, "Object")) {
        char *key = floe_s3_xml_child_text(&r->req->pool, obj, "Key");
        if (key == NULL || n == MAX_DELETE_KEYS)
            goto Malformed;
        (*items)[n++] = (delete_item_t){key, NULL, NULL};
    }
    if (n == 0)
        goto Malformed;
    xmlFreeDoc(doc);
    return n;
Malformed:
    if (doc != NULL)
        xmlFreeDoc(doc);
    return floe_s3_fail(r, FLOE_S3_MalformedXML, NULL);
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

    if (floe_s3_bucket_lookup(r, &b) != 0 || floe_s3_body_verify_small(r) != 0 ||
        (n = read_request(r, &is_quiet, &items)) < 0)
        return -1;
    keys = keys_to_delete(r, items, n, &n_keys);
    if (floe_store_object_delete_many(r->st, r->data_dir, b.id, keys, n_keys) != FLOE_STORE_OK)
        return floe_s3_fail_internal(r, "cannot delete the objects");
    write_result(r, items, n, is_quiet);
    return 0;
}

/*
 * ListObjects (v1) and ListObjectsV2: one walk over the bucket's key index in key order
 * (store cursor), rolling keys that contain the delimiter after the prefix up into
 * CommonPrefixes. After a common prefix the cursor seeks past every key under it, so a listing
 * costs O(items returned), not O(keys under the prefixes).
 *
 * Paging: max-keys counts keys and common prefixes together. A page resumes strictly after the
 * last item it returned: the v2 continuation token is that item (base64), v1's NextMarker is
 * that item. A common prefix equal to the resume point is never repeated.
 */
#include <stdlib.h>
#include <string.h>

#include "base/failure.h"
#include "http/codec.h"
#include "s3/checksum.h"
#include "s3/error.h"
#include "s3/ops.h"
#include "s3/xml.h"

#define MAX_KEYS_LIMIT 1000
#define KEY_UPPER_BYTE "\xff" /* as in store/object.c: above every byte of a UTF-8 key */

typedef struct list_params {
    bool is_v2;
    const char *prefix;
    const char *delimiter;
    const char *after;        /* resume strictly after this key or common prefix (NULL: start) */
    const char *marker;       /* v1 */
    const char *start_after;  /* v2 */
    const char *token;        /* v2, as sent */
    long max_keys;
    bool is_url;
    bool fetch_owner;
} list_params_t;

typedef struct list_page {
    floe_store_object_t *objects;
    size_t n_objects;
    char **prefixes;
    size_t n_prefixes;
    bool is_truncated;
    const char *last; /* the last item returned */
} list_page_t;

/* max-keys: 0..2^31-1, capped at 1000 (S3 never returns more). -1 when invalid. */
static long parse_max_keys(const char *s)
{
    char *end;
    long v;

    if (s == NULL)
        return MAX_KEYS_LIMIT;
    v = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v < 0 || v > INT32_MAX)
        return -1;
    return v > MAX_KEYS_LIMIT ? MAX_KEYS_LIMIT : v;
}

static char *token_encode(floe_s3_req_t *r, const char *last)
{
    size_t n = strlen(last);
    char *out = h2o_mem_alloc_pool(&r->req->pool, 4 * (n / 3 + 1) + 1);
    floe_s3_base64_encode((const unsigned char *)last, n, out);
    return out;
}

static char *token_decode(floe_s3_req_t *r, const char *token)
{
    size_t n = strlen(token);
    unsigned char *out = h2o_mem_alloc_pool(&r->req->pool, n + 1);
    long len = floe_s3_base64_decode(token, n, out, n);

    if (len <= 0 || memchr(out, '\0', (size_t)len) != NULL || !floe_codec_utf8_valid((char *)out, (size_t)len))
        return NULL;
    out[len] = '\0';
    return (char *)out;
}

static int read_params(floe_s3_req_t *r, bool is_v2, list_params_t *p)
{
    const char *encoding = floe_s3_query(r, "encoding-type"), *owner = floe_s3_query(r, "fetch-owner");

    memset(p, 0, sizeof(*p));
    p->is_v2 = is_v2;
    p->prefix = floe_s3_query(r, "prefix");
    p->delimiter = floe_s3_query(r, "delimiter");
    if (p->delimiter != NULL && *p->delimiter == '\0')
        p->delimiter = NULL;
    if ((p->max_keys = parse_max_keys(floe_s3_query(r, "max-keys"))) < 0)
        return floe_s3_fail(r, FLOE_S3_InvalidArgument, "Provided max-keys not an integer or within integer range",
                                 "ArgumentName", "max-keys", NULL);
    if (encoding != NULL && strcmp(encoding, "url") != 0)
        return floe_s3_fail(r, FLOE_S3_InvalidArgument, "Invalid Encoding Method specified in Request",
                                 "ArgumentName", "encoding-type", NULL);
    p->is_url = encoding != NULL;
    if (!is_v2) {
        p->after = p->marker = floe_s3_query(r, "marker");
        p->fetch_owner = true; /* v1 always names the owner */
        return 0;
    }
    p->fetch_owner = owner != NULL && strcmp(owner, "true") == 0;
    p->after = p->start_after = floe_s3_query(r, "start-after");
    if ((p->token = floe_s3_query(r, "continuation-token")) != NULL &&
        (p->after = token_decode(r, p->token)) == NULL)
        return floe_s3_fail(r, FLOE_S3_InvalidArgument, "The continuation token provided is incorrect",
                                 "ArgumentName", "continuation-token", NULL);
    return 0;
}

/* The common prefix `key` rolls up into (pool copy), or NULL when it has no delimiter after the prefix. */
static char *common_prefix_of(floe_s3_req_t *r, const list_params_t *p, const char *key)
{
    size_t skip = p->prefix != NULL ? strlen(p->prefix) : 0;
    const char *d;

    if (p->delimiter == NULL || (d = strstr(key + skip, p->delimiter)) == NULL)
        return NULL;
    return floe_s3_strndup(r, key, (size_t)(d - key) + strlen(p->delimiter));
}

static void page_add_prefix(list_page_t *page, char *cp)
{
    page->prefixes[page->n_prefixes++] = cp;
    page->last = cp;
}

/* Moves the cursor past every key starting with cp. */
static int skip_prefix(floe_s3_req_t *r, floe_store_cursor_t *c, const char *cp)
{
    return floe_store_cursor_seek(c, floe_s3_printf(r, "%s" KEY_UPPER_BYTE, cp));
}

/* Walks the index into one page. FLOE_OK, or FLOE_EFAIL on a store error (logged there). */
static int walk(floe_s3_req_t *r, int64_t bucket_id, const list_params_t *p, list_page_t *page)
{
    floe_store_cursor_t c;
    floe_store_object_t obj;
    int rc;
    size_t n = 0;

    page->objects = h2o_mem_alloc_pool(&r->req->pool, ((size_t)p->max_keys + 1) * sizeof(*page->objects));
    page->prefixes = h2o_mem_alloc_pool(&r->req->pool, ((size_t)p->max_keys + 1) * sizeof(*page->prefixes));
    if (p->max_keys == 0)
        return FLOE_OK;
    if (floe_store_cursor_open(&c, r->st, &r->req->pool, bucket_id, p->prefix, p->after) != FLOE_OK)
        return FLOE_EFAIL;
    while ((rc = floe_store_cursor_next(&c, &r->req->pool, &obj)) == FLOE_OK) {
        char *cp = common_prefix_of(r, p, obj.key);
        /* The resume point is this very prefix: the previous page returned it. (A resume point
         * inside a prefix, e.g. marker "photos/2024/x", still returns "photos/", as S3 does.) */
        bool is_old_prefix = cp != NULL && p->after != NULL && strcmp(cp, p->after) == 0;
        if (!is_old_prefix && n == (size_t)p->max_keys) {
            page->is_truncated = true;
            break;
        }
        if (cp != NULL) {
            if (!is_old_prefix) {
                page_add_prefix(page, cp);
                n++;
            }
            if ((rc = skip_prefix(r, &c, cp)) != FLOE_OK)
                break;
            continue;
        }
        page->objects[page->n_objects++] = obj;
        page->last = obj.key;
        n++;
    }
    floe_store_cursor_close(&c);
    return rc == FLOE_EFAIL ? FLOE_EFAIL : FLOE_OK;
}

/* Writes text, URL-encoded when the request asked for encoding-type=url. */
static void elem_maybe_encoded(floe_s3_req_t *r, floe_s3_xml_t *x, const list_params_t *p, const char *name,
                               const char *text)
{
    floe_s3_xml_elem(x, name, text != NULL && p->is_url ? floe_s3_url_encode(&r->req->pool, text) : text);
}

static void write_object(floe_s3_req_t *r, floe_s3_xml_t *x, const list_params_t *p, const floe_store_object_t *o)
{
    floe_s3_xml_open(x, "Contents");
    elem_maybe_encoded(r, x, p, "Key", o->key);
    floe_s3_xml_elem_time(x, "LastModified", o->last_modified_ms);
    floe_s3_xml_elem_etag(x, "ETag", o->etag);
    floe_s3_xml_elem(x, "ChecksumAlgorithm", o->checksum_algorithm);
    if (o->checksum != NULL)
        floe_s3_xml_elem(x, "ChecksumType", floe_s3_checksum_type(o->checksum));
    floe_s3_xml_elem_int(x, "Size", o->size);
    floe_s3_xml_elem(x, "StorageClass", "STANDARD");
    if (p->fetch_owner)
        floe_s3_xml_owner(x, "Owner");
    floe_s3_xml_close(x, "Contents");
}

/* The elements before the items, in S3's order for each version. */
static void write_header(floe_s3_req_t *r, floe_s3_xml_t *x, const list_params_t *p, const list_page_t *page)
{
    floe_s3_xml_elem(x, "Name", r->bucket);
    elem_maybe_encoded(r, x, p, "Prefix", p->prefix != NULL ? p->prefix : "");
    if (p->is_v2) {
        floe_s3_xml_elem(x, "ContinuationToken", p->token);
        if (page->is_truncated)
            floe_s3_xml_elem(x, "NextContinuationToken", token_encode(r, page->last));
        elem_maybe_encoded(r, x, p, "StartAfter", p->start_after);
        floe_s3_xml_elem_int(x, "KeyCount", (int64_t)(page->n_objects + page->n_prefixes));
    } else {
        elem_maybe_encoded(r, x, p, "Marker", p->marker != NULL ? p->marker : "");
        if (page->is_truncated && p->delimiter != NULL) /* S3 sends NextMarker only with a delimiter */
            elem_maybe_encoded(r, x, p, "NextMarker", page->last);
    }
    floe_s3_xml_elem_int(x, "MaxKeys", p->max_keys);
    elem_maybe_encoded(r, x, p, "Delimiter", p->delimiter);
    floe_s3_xml_elem(x, "EncodingType", p->is_url ? "url" : NULL);
    floe_s3_xml_elem_bool(x, "IsTruncated", page->is_truncated);
}

static int list(floe_s3_req_t *r, bool is_v2)
{
    floe_store_bucket_t b;
    list_params_t p;
    list_page_t page = {0};
    floe_s3_xml_t x;

    if (floe_s3_bucket_lookup(r, &b) != 0 || read_params(r, is_v2, &p) != 0)
        return FLOE_EFAIL;
    if (walk(r, b.id, &p, &page) != FLOE_OK)
        return floe_s3_fail_internal(r, "cannot list the bucket");
    floe_s3_xml_begin(&x, "ListBucketResult");
    write_header(r, &x, &p, &page);
    for (size_t i = 0; i < page.n_objects; i++)
        write_object(r, &x, &p, &page.objects[i]);
    for (size_t i = 0; i < page.n_prefixes; i++) {
        floe_s3_xml_open(&x, "CommonPrefixes");
        elem_maybe_encoded(r, &x, &p, "Prefix", page.prefixes[i]);
        floe_s3_xml_close(&x, "CommonPrefixes");
    }
    floe_s3_xml_close(&x, "ListBucketResult");
    floe_s3_reply(r, 200, x.buf, x.len);
    floe_s3_xml_dispose(&x);
    return FLOE_OK;
}

int floe_s3_list_objects(floe_s3_req_t *r)
{
    return list(r, false);
}

int floe_s3_list_objects_v2(floe_s3_req_t *r)
{
    const char *type = floe_s3_query(r, "list-type");
    if (strcmp(type, "2") != 0)
        return floe_s3_fail(r, FLOE_S3_InvalidArgument, "Invalid List Type specified in Request", "ArgumentName",
                                 "list-type", NULL);
    return list(r, true);
}

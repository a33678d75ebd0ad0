/*
 * GetObject and HeadObject: conditional headers, Range, the stored metadata headers, and the body
 * streamed from the object's file. The body is never read whole into memory: an h2o generator
 * reads one SEND_CHUNK slice per `proceed` (h2o calls it when the previous slice has been
 * written to the socket), so a slow client holds one slice, not the object.
 *
 * The file stays open from the first slice to the end of the response, so an overwrite that
 * unlinks it meanwhile does not cut the download short (store.c, design note 4).
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "base/failure.h"
#include "s3/checksum.h"
#include "s3/conditional.h"
#include "s3/error.h"
#include "s3/meta.h"
#include "s3/ops.h"

#define SEND_CHUNK ((size_t)256 << 10)

typedef struct object_sender {
    h2o_generator_t super;
    int fd;
    uint64_t offset;
    uint64_t remaining;
    char *buf;
    size_t buf_size;
} object_sender_t;

/* The request pool releases the sender when the response is done or abandoned. */
static void on_sender_dispose(void *p)
{
    object_sender_t *s = p;
    if (s->fd >= 0)
        close(s->fd);
}

static void do_send_slice(object_sender_t *s, h2o_req_t *req)
{
    size_t want = s->remaining < s->buf_size ? (size_t)s->remaining : s->buf_size, got = 0;
    h2o_iovec_t buf;

    while (got < want) {
        ssize_t n = pread(s->fd, s->buf + got, want - got, (off_t)(s->offset + got));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            h2o_send(req, NULL, 0, H2O_SEND_STATE_ERROR);
            return;
        }
        got += (size_t)n;
    }
    s->offset += got;
    s->remaining -= got;
    buf = h2o_iovec_init(s->buf, got);
    h2o_send(req, &buf, 1, s->remaining > 0 ? H2O_SEND_STATE_IN_PROGRESS : H2O_SEND_STATE_FINAL);
}

static void on_proceed(h2o_generator_t *self, h2o_req_t *req)
{
    do_send_slice((object_sender_t *)self, req);
}

static void on_stop(h2o_generator_t *self, h2o_req_t *req)
{
    (void)self;
    (void)req; /* the pool's dispose callback closes the file */
}

/* Starts streaming bytes [offset, offset + len) of fd, which the sender now owns. */
static void stream_file(floe_s3_req_t *r, int fd, uint64_t offset, uint64_t len)
{
    object_sender_t *s = h2o_mem_alloc_shared(&r->req->pool, sizeof(*s), on_sender_dispose);

    s->super.proceed = on_proceed;
    s->super.stop = on_stop;
    s->fd = fd;
    s->offset = offset;
    s->remaining = len;
    s->buf_size = len < SEND_CHUNK ? (size_t)len : SEND_CHUNK;
    s->buf = s->buf_size ? h2o_mem_alloc_pool(&r->req->pool, s->buf_size) : NULL;
    r->req->res.content_length = len;
    h2o_start_response(r->req, &s->super);
    if (len == 0)
        h2o_send(r->req, NULL, 0, H2O_SEND_STATE_FINAL);
    else
        do_send_slice(s, r->req);
}

/* The response-* query parameters that override stored headers on GetObject. */
static const struct {
    const char *param;
    const char *header;
} overrides[] = {
    {"response-cache-control", "cache-control"},
    {"response-content-disposition", "content-disposition"},
    {"response-content-encoding", "content-encoding"},
    {"response-content-language", "content-language"},
    {"response-expires", "expires"},
};

static void delete_header(floe_s3_req_t *r, const char *name)
{
    ssize_t i;
    while ((i = h2o_find_header_by_str(&r->req->res.headers, name, strlen(name), -1)) >= 0)
        h2o_delete_header(&r->req->res.headers, i);
}

/* The headers describing the object: type, ETag, dates, stored metadata, checksum. */
static void add_object_headers(floe_s3_req_t *r, const floe_store_object_t *obj, bool is_whole)
{
    const char *type = floe_s3_query(r, "response-content-type"), *mode = floe_s3_header(r, "x-amz-checksum-mode");
    char date[40];

    floe_s3_http_date(obj->last_modified_ms, date, sizeof(date));
    floe_s3_add_header(r, "Content-Type", type != NULL ? type : obj->content_type ? obj->content_type : "");
    floe_s3_add_header(r, "ETag", floe_s3_quoted_etag(r, obj->etag));
    floe_s3_add_header(r, "Last-Modified", date);
    floe_s3_add_header(r, "Accept-Ranges", "bytes");
    floe_s3_meta_add_headers(r, obj->headers);
    for (size_t i = 0; i < sizeof(overrides) / sizeof(overrides[0]); i++) {
        const char *value = floe_s3_query(r, overrides[i].param);
        if (value != NULL) {
            delete_header(r, overrides[i].header);
            floe_s3_add_header(r, overrides[i].header, value);
        }
    }
    /* S3 returns the checksum when asked (x-amz-checksum-mode: ENABLED) and the whole object is sent. */
    if (is_whole && mode != NULL && strcasecmp(mode, "ENABLED") == 0 && obj->checksum != NULL &&
        obj->checksum_algorithm != NULL) {
        char *header = floe_s3_printf(r, "x-amz-checksum-%s", obj->checksum_algorithm);
        for (char *p = header; *p; p++)
            *p = (char)(*p >= 'A' && *p <= 'Z' ? *p + 32 : *p);
        floe_s3_add_header(r, header, obj->checksum);
        floe_s3_add_header(r, "x-amz-checksum-type", floe_s3_checksum_type(obj->checksum));
    }
}

/* Checks versionId and partNumber, which Floe's unversioned single-part view allows only trivially. */
static int check_subresources(floe_s3_req_t *r)
{
    const char *version = floe_s3_query(r, "versionId"), *part = floe_s3_query(r, "partNumber");

    if (version != NULL && strcmp(version, "null") != 0)
        return floe_s3_fail(r, FLOE_S3_InvalidArgument, "Invalid version id specified", "ArgumentName",
                                 "versionId", "ArgumentValue", version, NULL);
    if (part != NULL && strcmp(part, "1") != 0)
        return floe_s3_fail(r, FLOE_S3_NotImplemented, "Floe serves GetObject with partNumber=1 only.", NULL);
    return 0;
}

/* Applies If-* headers: 0 to go on, -1 after answering 304 or 412. */
static int check_conditions(floe_s3_req_t *r, const floe_store_object_t *obj)
{
    floe_s3_cond_headers_t h = {floe_s3_header(r, "if-match"), floe_s3_header(r, "if-none-match"),
                                floe_s3_header(r, "if-modified-since"), floe_s3_header(r, "if-unmodified-since")};
    const char *failed = NULL;
    char date[40];

    switch (floe_s3_conditional_evaluate(&h, obj->etag, obj->last_modified_ms, &failed)) {
    case FLOE_S3_COND_PASS: return 0;
    case FLOE_S3_COND_NOT_MODIFIED:
        floe_s3_http_date(obj->last_modified_ms, date, sizeof(date));
        floe_s3_add_header(r, "ETag", floe_s3_quoted_etag(r, obj->etag));
        floe_s3_add_header(r, "Last-Modified", date);
        return floe_s3_fail(r, FLOE_S3_NotModified, NULL, NULL);
    default: return floe_s3_fail(r, FLOE_S3_PreconditionFailed, NULL, "Condition", failed, NULL);
    }
}

/* Decides the status and byte range. 0, or -1 after answering 416. */
static int choose_range(floe_s3_req_t *r, const floe_store_object_t *obj, int *status, uint64_t *first, uint64_t *len)
{
    const char *range = floe_s3_header(r, "range");
    uint64_t size = (uint64_t)obj->size, last;

    *status = 200;
    *first = 0;
    *len = size;
    switch (floe_s3_range_parse(range, size, first, &last)) {
    case FLOE_S3_RANGE_NONE: return 0;
    case FLOE_S3_RANGE_PARTIAL:
        *status = 206;
        *len = last - *first + 1;
        floe_s3_add_header(r, "Content-Range", floe_s3_printf(r, "bytes %" PRIu64 "-%" PRIu64 "/%" PRIu64, *first, last,
                                                              size));
        return 0;
    default:
        floe_s3_add_header(r, "Content-Range", floe_s3_printf(r, "bytes */%" PRIu64, size));
        return floe_s3_fail(r, FLOE_S3_InvalidRange, NULL, "RangeRequested", range, "ActualObjectSize",
                                 floe_s3_printf(r, "%" PRIu64, size), NULL);
    }
}

/* GetObject and HeadObject: the same checks and headers; only GET opens the file and sends it. */
static int serve(floe_s3_req_t *r, bool with_body)
{
    floe_store_object_t obj;
    uint64_t first, len;
    int status, fd = -1;

    if (check_subresources(r) != 0)
        return FLOE_EFAIL;
    if (with_body ? (fd = floe_s3_object_open(r, r->bucket, r->key, &obj)) < 0
                  : floe_s3_object_lookup(r, r->bucket, r->key, &obj) != 0)
        return FLOE_EFAIL;
    if (check_conditions(r, &obj) != 0 || choose_range(r, &obj, &status, &first, &len) != 0) {
        if (fd >= 0)
            close(fd);
        return FLOE_EFAIL;
    }
    add_object_headers(r, &obj, status == 200);
    floe_s3_begin_reply(r, status);
    if (!with_body) {
        static h2o_generator_t no_body = {NULL, NULL};
        r->req->res.content_length = len;
        h2o_start_response(r->req, &no_body);
        h2o_send(r->req, NULL, 0, H2O_SEND_STATE_FINAL);
        return FLOE_OK;
    }
    stream_file(r, fd, first, len);
    return FLOE_OK;
}

int floe_s3_get_object(floe_s3_req_t *r)
{
    return serve(r, true);
}

int floe_s3_head_object(floe_s3_req_t *r)
{
    return serve(r, false);
}

/*
 * The aws-chunked decoder of chunked.h: a state machine over an in-memory body,
 *
 *   HEADER ──size > 0──▶ DATA ──chunk consumed, "\r\n"──▶ HEADER
 *   HEADER ──size = 0──▶ TRAILER ──empty line or end of body──▶ DONE
 *   any ──malformed──▶ ERROR
 *
 * Lines are searched for within MAX_LINE bytes, so garbage cannot make it scan
 * a large body for a line end.
 */
#include <string.h>
#include <strings.h>

#include "base/failure.h"
#include "s3/chunked.h"

#define MAX_LINE 4096          /* a size line with a signature is ~90 bytes; a trailer ~60 */
#define MAX_SIZE_DIGITS 16     /* a uint64_t in hex */
#define CHECKSUM_TRAILER_PREFIX "x-amz-checksum-"

void floe_s3_chunked_init(floe_s3_chunked_t *d, const char *body, size_t len)
{
    memset(d, 0, sizeof(*d));
    d->p = body != NULL ? body : "";
    d->end = d->p + (body != NULL ? len : 0);
    d->state = FLOE_S3_CHUNKED_HEADER;
}

static int fail(floe_s3_chunked_t *d, const char *why)
{
    d->state = FLOE_S3_CHUNKED_ERROR;
    d->error = why;
    return FLOE_EFAIL;
}

/* Finds the "\r\n" that ends the line at d->p; sets *len to the line's length without it. */
static bool find_line(const floe_s3_chunked_t *d, size_t *len)
{
    size_t avail = (size_t)(d->end - d->p), scan = avail < MAX_LINE ? avail : MAX_LINE;
    const char *lf = memchr(d->p, '\n', scan);

    if (lf == NULL || lf == d->p || lf[-1] != '\r')
        return false;
    *len = (size_t)(lf - 1 - d->p);
    return true;
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c = (char)(c | 0x20);
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* "<hex>[;extensions]": the size, or -1. */
static int parse_size_line(const char *line, size_t len, uint64_t *size)
{
    size_t i = 0;
    uint64_t v = 0;

    for (; i < len && line[i] != ';'; i++) {
        int h = hex_digit(line[i]);
        if (h < 0 || i >= MAX_SIZE_DIGITS)
            return FLOE_EFAIL;
        v = v << 4 | (uint64_t)h;
    }
    if (i == 0)
        return FLOE_EFAIL;
    *size = v;
    return FLOE_OK;
}

static int do_header(floe_s3_chunked_t *d)
{
    size_t len;
    uint64_t size;

    if (!find_line(d, &len))
        return fail(d, d->p == d->end ? "the body ends before its final zero-length chunk"
                                      : "a chunk header is not terminated by CRLF");
    if (parse_size_line(d->p, len, &size) != 0)
        return fail(d, "a chunk size is not hexadecimal");
    d->p += len + 2;
    if (size == 0) {
        d->state = FLOE_S3_CHUNKED_TRAILER;
        return 0;
    }
    if (size > (uint64_t)(d->end - d->p))
        return fail(d, "a chunk is longer than the rest of the body");
    d->chunk_left = size;
    d->state = FLOE_S3_CHUNKED_DATA;
    return 0;
}

/* Hands out up to max bytes of the current chunk; at its end, consumes the CRLF after it. The
 * CRLF is checked before the last slice is handed out, so a refused body never counts in
 * `decoded` (or reaches the caller) a slice the caller did not get. */
static int do_data(floe_s3_chunked_t *d, h2o_iovec_t *out, size_t max)
{
    size_t n = d->chunk_left < max ? (size_t)d->chunk_left : max;
    const char *after = d->p + n;

    if (n == d->chunk_left && (d->end - after < 2 || after[0] != '\r' || after[1] != '\n'))
        return fail(d, "chunk data is not followed by CRLF");
    *out = h2o_iovec_init(d->p, n);
    d->p += n;
    d->chunk_left -= n;
    d->decoded += n;
    if (d->chunk_left == 0) {
        d->p += 2;
        d->state = FLOE_S3_CHUNKED_HEADER;
    }
    return 1;
}

/* Keeps an x-amz-checksum-* trailer; other trailers (x-amz-trailer-signature) are skipped. */
static int take_trailer(floe_s3_chunked_t *d, const char *line, size_t len)
{
    const char *colon = memchr(line, ':', len);
    size_t name_len, value_len;
    const char *value;

    if (colon == NULL)
        return fail(d, "a trailer line has no ':'");
    name_len = (size_t)(colon - line);
    value = colon + 1;
    value_len = len - name_len - 1;
    while (value_len > 0 && (*value == ' ' || *value == '\t')) {
        value++;
        value_len--;
    }
    if (name_len >= sizeof(CHECKSUM_TRAILER_PREFIX) - 1 &&
        strncasecmp(line, CHECKSUM_TRAILER_PREFIX, sizeof(CHECKSUM_TRAILER_PREFIX) - 1) == 0) {
        if (name_len >= sizeof(d->checksum_name) || value_len >= sizeof(d->checksum_value))
            return fail(d, "a checksum trailer is too long");
        for (size_t i = 0; i < name_len; i++)
            d->checksum_name[i] = (char)(line[i] | 0x20);
        d->checksum_name[name_len] = '\0';
        memcpy(d->checksum_value, value, value_len);
        d->checksum_value[value_len] = '\0';
    }
    return 0;
}

static int do_trailer(floe_s3_chunked_t *d)
{
    size_t len;

    if (d->p == d->end) { /* some writers stop right after the last trailer line */
        d->state = FLOE_S3_CHUNKED_DONE;
        return 0;
    }
    if (!find_line(d, &len))
        return fail(d, "a trailer line is not terminated by CRLF");
    if (len == 0) {
        d->p += 2;
        d->state = FLOE_S3_CHUNKED_DONE;
        return d->p == d->end ? 0 : fail(d, "the body continues after its final chunk and trailers");
    }
    if (take_trailer(d, d->p, len) != 0)
        return FLOE_EFAIL;
    d->p += len + 2;
    return FLOE_OK;
}

int floe_s3_chunked_next(floe_s3_chunked_t *d, h2o_iovec_t *out, size_t max)
{
    int rc;

    for (;;) {
        switch (d->state) {
        case FLOE_S3_CHUNKED_HEADER: rc = do_header(d); break;
        case FLOE_S3_CHUNKED_DATA: return do_data(d, out, max);
        case FLOE_S3_CHUNKED_TRAILER: rc = do_trailer(d); break;
        case FLOE_S3_CHUNKED_DONE: return 0;
        default: rc = FLOE_EFAIL; /* a failed body stays failed (d->error) */
        }
        if (rc != FLOE_OK)
            return -1;
    }
}

/*
 * The XML writer of xml.h. Escaping covers the five markup characters and every control
 * character (as numeric references, so "\r" and "\t" in a key survive a parser's newline and
 * whitespace normalisation); valid UTF-8 is copied as is, and a byte that is not part of a valid
 * UTF-8 sequence becomes U+FFFD, so a document stays well-formed even when it echoes a request's
 * bytes (the key of an error about a key that is not UTF-8).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "codec.h"
#include "s3/request.h"
#include "s3/xml.h"
#include "xalloc.h"

#define XML_DECLARATION "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
#define UTF8_REPLACEMENT_CHARACTER "\xEF\xBF\xBD" /* U+FFFD */
#define INITIAL_CAP 1024

static void reserve(floe_s3_xml_t *x, size_t more)
{
    if (x->len + more + 1 <= x->cap)
        return;
    while (x->len + more + 1 > x->cap)
        x->cap = x->cap ? x->cap * 2 : INITIAL_CAP;
    x->buf = floe_xrealloc(x->buf, x->cap);
}

static void append(floe_s3_xml_t *x, const char *s, size_t n)
{
    reserve(x, n);
    memcpy(x->buf + x->len, s, n);
    x->len += n;
    x->buf[x->len] = '\0';
}

static void append_str(floe_s3_xml_t *x, const char *s)
{
    append(x, s, strlen(s));
}

void floe_s3_xml_begin_plain(floe_s3_xml_t *x, const char *root)
{
    memset(x, 0, sizeof(*x));
    append_str(x, XML_DECLARATION);
    floe_s3_xml_open(x, root);
}

void floe_s3_xml_begin(floe_s3_xml_t *x, const char *root)
{
    memset(x, 0, sizeof(*x));
    append_str(x, XML_DECLARATION "<");
    append_str(x, root);
    append_str(x, " xmlns=\"" FLOE_S3_XMLNS "\">");
}

void floe_s3_xml_dispose(floe_s3_xml_t *x)
{
    free(x->buf);
    memset(x, 0, sizeof(*x));
}

void floe_s3_xml_open(floe_s3_xml_t *x, const char *name)
{
    append(x, "<", 1);
    append_str(x, name);
    append(x, ">", 1);
}

void floe_s3_xml_close(floe_s3_xml_t *x, const char *name)
{
    append(x, "</", 2);
    append_str(x, name);
    append(x, ">", 1);
}

/* The escape for one byte, or NULL when it goes out as is. */
static const char *escape_of(unsigned char c, char scratch[8])
{
    switch (c) {
    case '<': return "&lt;";
    case '>': return "&gt;";
    case '&': return "&amp;";
    case '"': return "&quot;";
    case '\'': return "&apos;";
    default:
        if (c < 0x20 || c == 0x7f) {
            snprintf(scratch, 8, "&#x%X;", c);
            return scratch;
        }
        return NULL;
    }
}

/* The length of the valid UTF-8 sequence of two or more bytes at s[0], or 0 if there is none. */
static size_t utf8_sequence_len(const char *s, size_t avail)
{
    unsigned char c = (unsigned char)s[0];
    size_t len = (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
    return len != 0 && len <= avail && floe_codec_utf8_valid(s, len) ? len : 0;
}

void floe_s3_xml_text(floe_s3_xml_t *x, const char *s, size_t n)
{
    size_t start = 0, len;
    char scratch[8];

    for (size_t i = 0; i < n; i++) {
        const char *esc;
        if ((unsigned char)s[i] >= 0x80) {
            if ((len = utf8_sequence_len(s + i, n - i)) > 0) {
                i += len - 1;
                continue;
            }
            esc = UTF8_REPLACEMENT_CHARACTER;
        } else if ((esc = escape_of((unsigned char)s[i], scratch)) == NULL) {
            continue;
        }
        append(x, s + start, i - start);
        append_str(x, esc);
        start = i + 1;
    }
    append(x, s + start, n - start);
}

void floe_s3_xml_elem(floe_s3_xml_t *x, const char *name, const char *text)
{
    if (text == NULL)
        return;
    floe_s3_xml_open(x, name);
    floe_s3_xml_text(x, text, strlen(text));
    floe_s3_xml_close(x, name);
}

void floe_s3_xml_elem_int(floe_s3_xml_t *x, const char *name, int64_t v)
{
    char buf[24];
    snprintf(buf, sizeof(buf), "%" PRId64, v);
    floe_s3_xml_elem(x, name, buf);
}

void floe_s3_xml_elem_bool(floe_s3_xml_t *x, const char *name, bool v)
{
    floe_s3_xml_elem(x, name, v ? "true" : "false");
}

void floe_s3_iso8601(int64_t ms, char *buf, size_t size)
{
    time_t secs = (time_t)(ms / 1000);
    struct tm tm;
    gmtime_r(&secs, &tm);
    strftime(buf, size, "%Y-%m-%dT%H:%M:%S.000Z", &tm);
}

void floe_s3_xml_elem_time(floe_s3_xml_t *x, const char *name, int64_t ms)
{
    char buf[40];
    floe_s3_iso8601(ms, buf, sizeof(buf));
    floe_s3_xml_elem(x, name, buf);
}

void floe_s3_xml_elem_etag(floe_s3_xml_t *x, const char *name, const char *etag)
{
    floe_s3_xml_open(x, name);
    append_str(x, "&quot;");
    floe_s3_xml_text(x, etag, strlen(etag));
    append_str(x, "&quot;");
    floe_s3_xml_close(x, name);
}

void floe_s3_xml_owner(floe_s3_xml_t *x, const char *element)
{
    floe_s3_xml_open(x, element);
    floe_s3_xml_elem(x, "ID", FLOE_S3_OWNER_ID);
    floe_s3_xml_elem(x, "DisplayName", FLOE_S3_OWNER_NAME);
    floe_s3_xml_close(x, element);
}

static bool is_unreserved(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
           c == '.' || c == '~' || c == '/';
}

char *floe_s3_url_encode(h2o_mem_pool_t *pool, const char *s)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t n = strlen(s), o = 0;
    char *out = h2o_mem_alloc_pool(pool, 3 * n + 1);

    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (is_unreserved(c)) {
            out[o++] = (char)c;
        } else {
            out[o++] = '%';
            out[o++] = hex[c >> 4];
            out[o++] = hex[c & 15];
        }
    }
    out[o] = '\0';
    return out;
}

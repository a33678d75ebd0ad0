/*
 * The XML writer of xml_writer.h. Escaping covers the five markup characters and every control
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

#include "base/xalloc.h"
#include "http/codec.h"
#include "http/xml_writer.h"

#define XML_DECLARATION "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
#define UTF8_REPLACEMENT_CHARACTER "\xEF\xBF\xBD" /* U+FFFD */
#define INITIAL_CAP 1024
#define DOUBLE_SHORT_DIGITS 15 /* enough for most doubles; 17 always round-trips */
#define DOUBLE_ROUND_TRIP_DIGITS 17

static void reserve(floe_xml_t *x, size_t more)
{
    if (x->len + more + 1 <= x->cap)
        return;
    while (x->len + more + 1 > x->cap)
        x->cap = x->cap ? x->cap * 2 : INITIAL_CAP;
    x->buf = floe_xrealloc(x->buf, x->cap);
}

void floe_xml_raw(floe_xml_t *x, const char *s, size_t n)
{
    reserve(x, n);
    memcpy(x->buf + x->len, s, n);
    x->len += n;
    x->buf[x->len] = '\0';
}

static void append_str(floe_xml_t *x, const char *s)
{
    floe_xml_raw(x, s, strlen(s));
}

void floe_xml_begin(floe_xml_t *x)
{
    memset(x, 0, sizeof(*x));
    append_str(x, XML_DECLARATION);
}

void floe_xml_dispose(floe_xml_t *x)
{
    free(x->buf);
    memset(x, 0, sizeof(*x));
}

void floe_xml_open(floe_xml_t *x, const char *name)
{
    floe_xml_raw(x, "<", 1);
    append_str(x, name);
    floe_xml_raw(x, ">", 1);
}

void floe_xml_open_ns(floe_xml_t *x, const char *name, const char *xmlns)
{
    floe_xml_raw(x, "<", 1);
    append_str(x, name);
    append_str(x, " xmlns=\"");
    floe_xml_text(x, xmlns, strlen(xmlns));
    append_str(x, "\">");
}

void floe_xml_close(floe_xml_t *x, const char *name)
{
    floe_xml_raw(x, "</", 2);
    append_str(x, name);
    floe_xml_raw(x, ">", 1);
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

void floe_xml_text(floe_xml_t *x, const char *s, size_t n)
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
        floe_xml_raw(x, s + start, i - start);
        append_str(x, esc);
        start = i + 1;
    }
    floe_xml_raw(x, s + start, n - start);
}

void floe_xml_elem(floe_xml_t *x, const char *name, const char *text)
{
    if (text == NULL)
        return;
    floe_xml_open(x, name);
    floe_xml_text(x, text, strlen(text));
    floe_xml_close(x, name);
}

void floe_xml_elem_int(floe_xml_t *x, const char *name, int64_t v)
{
    char buf[24];
    snprintf(buf, sizeof(buf), "%" PRId64, v);
    floe_xml_elem(x, name, buf);
}

void floe_xml_elem_bool(floe_xml_t *x, const char *name, bool v)
{
    floe_xml_elem(x, name, v ? "true" : "false");
}

void floe_xml_elem_double(floe_xml_t *x, const char *name, double v)
{
    char buf[40];
    snprintf(buf, sizeof(buf), "%.*g", DOUBLE_SHORT_DIGITS, v);
    if (strtod(buf, NULL) != v)
        snprintf(buf, sizeof(buf), "%.*g", DOUBLE_ROUND_TRIP_DIGITS, v);
    floe_xml_elem(x, name, buf);
}

void floe_xml_elem_time(floe_xml_t *x, const char *name, int64_t ms)
{
    time_t secs = (time_t)(ms >= 0 ? ms / 1000 : (ms - 999) / 1000);
    char buf[48], date[32];
    struct tm tm;

    gmtime_r(&secs, &tm);
    strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(buf, sizeof(buf), "%s.%03dZ", date, (int)(ms - (int64_t)secs * 1000));
    floe_xml_elem(x, name, buf);
}

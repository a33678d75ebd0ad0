/*
 * The streaming JSON writer declared in json.h. One buffer grows by doubling; the caller copies
 * the finished text where it needs it (the request pool) and may keep the buffer for the next
 * response. Escaping follows RFC 8259: quotes, backslashes and control characters; other bytes
 * pass through, since every string reaching here was checked as UTF-8 on the way in.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/json.h"
#include "base/xalloc.h"

#define INITIAL_CAPACITY 1024

void floe_json_init(floe_json_t *w)
{
    memset(w, 0, sizeof(*w));
}

void floe_json_dispose(floe_json_t *w)
{
    free(w->buf);
    memset(w, 0, sizeof(*w));
}

void floe_json_reset(floe_json_t *w)
{
    w->len = 0;
    w->depth = 0;
    w->need_comma[0] = false;
    w->after_key = false;
}

static void reserve(floe_json_t *w, size_t extra)
{
    if (w->len + extra + 1 <= w->cap)
        return;
    size_t cap = w->cap ? w->cap : INITIAL_CAPACITY;
    while (cap < w->len + extra + 1)
        cap *= 2;
    w->buf = floe_xrealloc(w->buf, cap);
    w->cap = cap;
}

static void append(floe_json_t *w, const char *s, size_t n)
{
    reserve(w, n);
    memcpy(w->buf + w->len, s, n);
    w->len += n;
    w->buf[w->len] = '\0';
}

static void append_char(floe_json_t *w, char c)
{
    reserve(w, 1);
    w->buf[w->len++] = c;
    w->buf[w->len] = '\0';
}

/* Called before every value: separates array elements, and nothing after a key. */
static void before_value(floe_json_t *w)
{
    if (w->after_key) {
        w->after_key = false;
        return;
    }
    if (w->need_comma[w->depth])
        append_char(w, ',');
    w->need_comma[w->depth] = true;
}

static void open_container(floe_json_t *w, char c)
{
    before_value(w);
    append_char(w, c);
    if (w->depth + 1 < FLOE_JSON_MAX_DEPTH)
        w->depth++;
    w->need_comma[w->depth] = false;
}

static void close_container(floe_json_t *w, char c)
{
    append_char(w, c);
    if (w->depth > 0)
        w->depth--;
}

void floe_json_object_begin(floe_json_t *w)
{
    open_container(w, '{');
}

void floe_json_object_end(floe_json_t *w)
{
    close_container(w, '}');
}

void floe_json_array_begin(floe_json_t *w)
{
    open_container(w, '[');
}

void floe_json_array_end(floe_json_t *w)
{
    close_container(w, ']');
}

/* 1 for the bytes RFC 8259 requires escaping in a string: control characters, '"' and '\\'. */
static const unsigned char needs_escape[256] = {
    [0x00 ... 0x1F] = 1,
    ['"'] = 1,
    ['\\'] = 1,
};

static void write_escape(floe_json_t *w, unsigned char c)
{
    static const char hex[] = "0123456789abcdef";
    switch (c) {
    case '"': append(w, "\\\"", 2); break;
    case '\\': append(w, "\\\\", 2); break;
    case '\n': append(w, "\\n", 2); break;
    case '\r': append(w, "\\r", 2); break;
    case '\t': append(w, "\\t", 2); break;
    default: {
        char esc[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
        append(w, esc, sizeof(esc));
    }
    }
}

/* Copies runs of plain bytes in one go; the table keeps the scan to one load and test a byte. */
static void write_escaped(floe_json_t *w, const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s, *end = p + n, *run = p;

    reserve(w, n + 2);
    w->buf[w->len++] = '"';
    for (; p < end; p++) {
        if (!needs_escape[*p])
            continue;
        append(w, (const char *)run, (size_t)(p - run));
        write_escape(w, *p);
        run = p + 1;
    }
    append(w, (const char *)run, (size_t)(end - run));
    append_char(w, '"');
}

void floe_json_key(floe_json_t *w, const char *key)
{
    before_value(w);
    write_escaped(w, key, strlen(key));
    append_char(w, ':');
    w->after_key = true;
}

void floe_json_string(floe_json_t *w, const char *s)
{
    floe_json_string_n(w, s, strlen(s));
}

void floe_json_string_n(floe_json_t *w, const char *s, size_t n)
{
    before_value(w);
    write_escaped(w, s, n);
}

void floe_json_int(floe_json_t *w, int64_t v)
{
    char buf[24], *p = buf + sizeof(buf);
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;

    do {
        *--p = (char)('0' + u % 10);
        u /= 10;
    } while (u != 0);
    if (v < 0)
        *--p = '-';
    before_value(w);
    append(w, p, (size_t)(buf + sizeof(buf) - p));
}

void floe_json_bool(floe_json_t *w, bool v)
{
    before_value(w);
    if (v)
        append(w, "true", 4);
    else
        append(w, "false", 5);
}

void floe_json_raw(floe_json_t *w, const char *json)
{
    before_value(w);
    append(w, json, strlen(json));
}

/* Writes v as exactly `width` decimal digits (v >= 0). */
static char *put_digits(char *p, int v, int width)
{
    for (int i = width - 1; i >= 0; i--, v /= 10)
        p[i] = (char)('0' + v % 10);
    return p + width;
}

void floe_format_rfc3339(int64_t ms, char *buf, size_t size)
{
    time_t secs = (time_t)(ms / 1000);
    int millis = (int)(ms % 1000);
    struct tm tm;
    char text[32], *p = text;
    size_t n;

    if (millis < 0) {
        millis += 1000;
        secs -= 1;
    }
    gmtime_r(&secs, &tm);
    if (tm.tm_year + 1900 < 0 || tm.tm_year + 1900 > 9999) {
        snprintf(buf, size, "%s", "0000-01-01T00:00:00.000Z"); /* outside RFC 3339's four-digit years */
        return;
    }
    /* By hand: snprintf with seven conversions was a tenth of a small API call's instructions. */
    p = put_digits(p, tm.tm_year + 1900, 4);
    *p++ = '-';
    p = put_digits(p, tm.tm_mon + 1, 2);
    *p++ = '-';
    p = put_digits(p, tm.tm_mday, 2);
    *p++ = 'T';
    p = put_digits(p, tm.tm_hour, 2);
    *p++ = ':';
    p = put_digits(p, tm.tm_min, 2);
    *p++ = ':';
    p = put_digits(p, tm.tm_sec, 2);
    *p++ = '.';
    p = put_digits(p, millis, 3);
    *p++ = 'Z';
    n = (size_t)(p - text) < size ? (size_t)(p - text) : size - 1;
    memcpy(buf, text, n);
    buf[n] = '\0';
}

void floe_json_timestamp(floe_json_t *w, int64_t ms)
{
    char buf[40];
    floe_format_rfc3339(ms, buf, sizeof(buf));
    floe_json_string(w, buf);
}

void floe_json_epoch_seconds(floe_json_t *w, int64_t ms)
{
    char buf[32];
    int n = snprintf(buf, sizeof(buf), "%" PRId64 ".%03d", ms / 1000, (int)(ms % 1000 < 0 ? -(ms % 1000) : ms % 1000));
    before_value(w);
    append(w, buf, (size_t)n);
}

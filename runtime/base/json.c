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

/* Writes the escape of c at out, which has room for six bytes; returns the end. */
static char *put_escape(char *out, unsigned char c)
{
    static const char hex[] = "0123456789abcdef";
    char second;
    switch (c) {
    case '"': second = '"'; break;
    case '\\': second = '\\'; break;
    case '\n': second = 'n'; break;
    case '\r': second = 'r'; break;
    case '\t': second = 't'; break;
    default:
        memcpy(out, "\\u00", 4);
        out[4] = hex[c >> 4];
        out[5] = hex[c & 15];
        return out + 6;
    }
    out[0] = '\\';
    out[1] = second;
    return out + 2;
}

/* Nonzero when one of the eight bytes at p needs escaping: a byte below 0x20 or equal to '"' or
 * '\\' sets its high bit in one of the differences (a borrow can mark a byte above a marked one,
 * never a word with none); bytes of 0x80 and more are masked out by ~v. */
static uint64_t word_needs_escape(const unsigned char *p)
{
    const uint64_t ones = UINT64_C(0x0101010101010101), highs = UINT64_C(0x8080808080808080);
    uint64_t v;

    memcpy(&v, p, sizeof(v));
    return ((v - ones * 0x20) | ((v ^ (ones * '"')) - ones) | ((v ^ (ones * '\\')) - ones)) & ~v & highs;
}

/* True when one of the n bytes at p needs escaping: eight at a time, the last eight overlapping
 * the word before them rather than byte by byte (a short string is scanned byte by byte). */
static bool span_needs_escape(const unsigned char *p, size_t n)
{
    size_t i;

    if (n < 8) {
        for (i = 0; i < n; i++) {
            if (needs_escape[p[i]])
                return true;
        }
        return false;
    }
    for (i = 0; i + 8 <= n; i += 8) {
        if (word_needs_escape(p + i))
            return true;
    }
    return i < n && word_needs_escape(p + n - 8);
}

/* Writes the n bytes at s quoted, as they are (none needs escaping), then `suffix` (a byte, or 0
 * for none), and the closing NUL. */
static void write_plain(floe_json_t *w, const char *s, size_t n, char suffix)
{
    reserve(w, n + 3);
    w->buf[w->len++] = '"';
    memcpy(w->buf + w->len, s, n);
    w->len += n;
    w->buf[w->len++] = '"';
    if (suffix != 0)
        w->buf[w->len++] = suffix;
    w->buf[w->len] = '\0';
}

/* Writes s quoted, then `suffix` (a byte, or 0 for none), straight into the buffer: one reserve
 * for the common case of nothing to escape, another only at an escape, and the closing NUL once.
 * Runs of plain bytes are copied whole, and scanned eight bytes at a time where they can be. */
static void write_escaped(floe_json_t *w, const char *s, size_t n, char suffix)
{
    const unsigned char *p = (const unsigned char *)s, *end = p + n, *run = p;

    if (!span_needs_escape(p, n)) {
        write_plain(w, s, n, suffix);
        return;
    }
    reserve(w, n + 3);
    w->buf[w->len++] = '"';
    for (; p < end; p++) {
        if (end - p >= 8 && !word_needs_escape(p)) {
            p += 7;
            continue;
        }
        if (!needs_escape[*p])
            continue;
        memcpy(w->buf + w->len, run, (size_t)(p - run));
        w->len += (size_t)(p - run);
        reserve(w, 6 + (size_t)(end - p) + 2);
        w->len = (size_t)(put_escape(w->buf + w->len, *p) - w->buf);
        run = p + 1;
    }
    memcpy(w->buf + w->len, run, (size_t)(end - run));
    w->len += (size_t)(end - run);
    w->buf[w->len++] = '"';
    if (suffix != 0)
        w->buf[w->len++] = suffix;
    w->buf[w->len] = '\0';
}

void floe_json_key(floe_json_t *w, const char *key)
{
    before_value(w);
    write_escaped(w, key, strlen(key), ':');
    w->after_key = true;
}

void floe_json_name(floe_json_t *w, const char *name, size_t n)
{
    before_value(w);
    write_plain(w, name, n, ':');
    w->after_key = true;
}

void floe_json_string(floe_json_t *w, const char *s)
{
    floe_json_string_n(w, s, strlen(s));
}

void floe_json_string_n(floe_json_t *w, const char *s, size_t n)
{
    before_value(w);
    write_escaped(w, s, n, 0);
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

/* The proleptic Gregorian date of a day counted from 1970-01-01 (H. Hinnant's civil_from_days):
 * plain arithmetic where gmtime_r took glibc's time zone lock and a table walk per timestamp. */
static void civil_from_days(int64_t days, int64_t *year, int *month, int *day)
{
    int64_t z = days + 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    int64_t doe = z - era * 146097;                                    /* [0, 146096] */
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365; /* [0, 399] */
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);             /* [0, 365], from March 1st */
    int64_t mp = (5 * doy + 2) / 153;                                  /* [0, 11], March is 0 */

    *day = (int)(doy - (153 * mp + 2) / 5 + 1);
    *month = (int)(mp < 10 ? mp + 3 : mp - 9);
    *year = yoe + era * 400 + (*month <= 2);
}

void floe_format_rfc3339(int64_t ms, char *buf, size_t size)
{
    int64_t secs = ms / 1000, days, year, second_of_day;
    int millis = (int)(ms % 1000), month, day;
    char text[32], *p = text;
    size_t n;

    if (millis < 0) {
        millis += 1000;
        secs -= 1;
    }
    days = secs / 86400;
    second_of_day = secs % 86400;
    if (second_of_day < 0) {
        second_of_day += 86400;
        days -= 1;
    }
    civil_from_days(days, &year, &month, &day);
    if (year < 0 || year > 9999) {
        snprintf(buf, size, "%s", "0000-01-01T00:00:00.000Z"); /* outside RFC 3339's four-digit years */
        return;
    }
    /* By hand: snprintf with seven conversions was a tenth of a small API call's instructions. */
    p = put_digits(p, (int)year, 4);
    *p++ = '-';
    p = put_digits(p, month, 2);
    *p++ = '-';
    p = put_digits(p, day, 2);
    *p++ = 'T';
    p = put_digits(p, (int)(second_of_day / 3600), 2);
    *p++ = ':';
    p = put_digits(p, (int)(second_of_day / 60 % 60), 2);
    *p++ = ':';
    p = put_digits(p, (int)(second_of_day % 60), 2);
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

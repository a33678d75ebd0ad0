/*
 * The readers and checks declared in codec.h, shared by every generated parser and validator.
 *
 * Design notes:
 *  1. A reader either fills *out and returns 0, or sets the violation and returns -1; it never
 *     does both, so a parser can stop at the first -1.
 *  2. Every string handed to a handler is valid UTF-8 without NUL bytes: JSON strings, label and
 *     query text are checked here, so handlers and serializers need not.
 *  3. Numbers must be integral and in range for their C type; 1.5 is not an Integer.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <cjson/cJSON.h>
#include <pcre2.h>

#include "base/failure.h"
#include "http/codec.h"

#define VALUE_SHOWN_MAX 128 /* longer values are cut in messages */

/* ---- paths and violations ---- */

static size_t format_path(const floe_path_t *path, char *buf, size_t size)
{
    size_t len = 0;
    if (path == NULL)
        return 0;
    if (path->parent != NULL)
        len = format_path(path->parent, buf, size);
    if (len >= size)
        return len;
    if (path->name != NULL)
        len += (size_t)snprintf(buf + len, size - len, "%s%s", len ? "." : "", path->name);
    else
        len += (size_t)snprintf(buf + len, size - len, "[%ld]", path->index);
    return len;
}

char *floe_path_format(const floe_path_t *path, char *buf, size_t size)
{
    buf[0] = '\0';
    format_path(path, buf, size);
    return buf;
}

void floe_violation_set(floe_violation_t *v, const floe_path_t *path, const char *value, const char *constraint)
{
    char where[160];
    floe_path_format(path, where, sizeof(where));
    if (value == NULL) {
        snprintf(v->message, sizeof(v->message),
                 "1 validation error detected: Value null at '%s' failed to satisfy constraint: %s", where, constraint);
    } else {
        int shown = (int)strnlen(value, VALUE_SHOWN_MAX);
        /* Cut between characters, not inside one: the message is UTF-8 text wherever it goes. */
        while (value[shown] != '\0' && shown > 0 && ((unsigned char)value[shown] & 0xC0) == 0x80)
            shown--;
        snprintf(v->message, sizeof(v->message),
                 "1 validation error detected: Value '%.*s%s' at '%s' failed to satisfy constraint: %s", shown, value,
                 value[shown] ? "..." : "", where, constraint);
    }
}

void floe_violation_set_int(floe_violation_t *v, const floe_path_t *path, int64_t value, const char *constraint)
{
    char text[VALUE_SHOWN_MAX + 1]; /* floe_violation_set reads up to VALUE_SHOWN_MAX bytes */
    snprintf(text, sizeof(text), "%" PRId64, value);
    floe_violation_set(v, path, text, constraint);
}

void floe_violation_type(floe_violation_t *v, const floe_path_t *path, const char *expected)
{
    char where[160];
    if (path == NULL)
        snprintf(v->message, sizeof(v->message), "The request body must be %s", expected);
    else
        snprintf(v->message, sizeof(v->message), "The value at '%s' must be %s",
                 floe_path_format(path, where, sizeof(where)), expected);
}

/* ---- query ---- */

const char *floe_http_query_first(const floe_http_input_t *http, const char *key)
{
    for (size_t i = 0; i < http->n_query; i++) {
        if (strcmp(http->query[i].key, key) == 0)
            return http->query[i].value;
    }
    return NULL;
}

size_t floe_http_query_count(const floe_http_input_t *http, const char *key)
{
    size_t n = 0;
    for (size_t i = 0; i < http->n_query; i++)
        n += strcmp(http->query[i].key, key) == 0;
    return n;
}

const char *floe_http_query_nth(const floe_http_input_t *http, const char *key, size_t nth)
{
    for (size_t i = 0; i < http->n_query; i++) {
        if (strcmp(http->query[i].key, key) == 0 && nth-- == 0)
            return http->query[i].value;
    }
    return NULL;
}

/* ---- JSON ---- */

/* True when a JSON text holds the escape \u0000 (not an escaped backslash followed by "u0000"):
 * cJSON decodes it into a NUL that would silently cut the string. */
static bool has_escaped_nul(const char *s, size_t n)
{
    for (size_t i = 0; i + 6 <= n; i++) {
        if (s[i] != '\\')
            continue;
        if (s[i + 1] == 'u' && memcmp(s + i + 2, "0000", 4) == 0)
            return true;
        i++; /* skip the escaped character, so "\\\\u0000" is not read as an escape */
    }
    return false;
}

/* True when [p, end) holds only JSON whitespace. */
static bool is_blank(const char *p, const char *end)
{
    for (; p < end; p++) {
        if (*p != ' ' && *p != '\t' && *p != '\r' && *p != '\n')
            return false;
    }
    return true;
}

int floe_codec_body(const floe_http_input_t *http, cJSON **out, floe_violation_t *v)
{
    const char *end = NULL;
    size_t start = 0;

    *out = NULL;
    if (http->body == NULL)
        return FLOE_OK;
    while (start < http->body_len && strchr(" \t\r\n", http->body[start]) != NULL)
        start++;
    if (start == http->body_len)
        return FLOE_OK;
    if (!floe_codec_utf8_valid(http->body, http->body_len)) {
        snprintf(v->message, sizeof(v->message), "The request body is not valid UTF-8 JSON");
        return FLOE_EFAIL;
    }
    if (has_escaped_nul(http->body, http->body_len)) {
        snprintf(v->message, sizeof(v->message), "The request body must not contain NUL characters (\\u0000)");
        return FLOE_EFAIL;
    }
    *out = cJSON_ParseWithLengthOpts(http->body, http->body_len, &end, false);
    /* cJSON stops after the first value: anything but whitespace after it makes the body not JSON */
    if (*out != NULL && !is_blank(end, http->body + http->body_len)) {
        cJSON_Delete(*out);
        *out = NULL;
    }
    if (*out == NULL) {
        snprintf(v->message, sizeof(v->message), "The request body is not valid JSON (at byte %zu)",
                 end != NULL && end >= http->body ? (size_t)(end - http->body) : (size_t)0);
        return FLOE_EFAIL;
    }
    return FLOE_OK;
}

bool floe_codec_is_absent(const cJSON *item)
{
    return item == NULL || cJSON_IsNull(item);
}

int floe_codec_expect_object(const cJSON *j, const floe_path_t *path, floe_violation_t *v)
{
    if (cJSON_IsObject(j))
        return FLOE_OK;
    floe_violation_type(v, path, "a JSON object");
    return FLOE_EFAIL;
}

int floe_codec_expect_array(const cJSON *j, const floe_path_t *path, floe_violation_t *v)
{
    if (cJSON_IsArray(j))
        return FLOE_OK;
    floe_violation_type(v, path, "a JSON array");
    return FLOE_EFAIL;
}

/* A copy of s in the pool (the call's: codec.h's readers live as long as the call). */
static char *pool_strdup(h2o_mem_pool_t *pool, const char *s)
{
    size_t n = strlen(s);
    char *copy = h2o_mem_alloc_pool(pool, n + 1);

    memcpy(copy, s, n + 1);
    return copy;
}

int floe_codec_string(h2o_mem_pool_t *pool, const cJSON *j, const floe_path_t *path, char **out, floe_violation_t *v)
{
    if (!cJSON_IsString(j) || j->valuestring == NULL) {
        floe_violation_type(v, path, "a string");
        return FLOE_EFAIL;
    }
    return floe_codec_text_string(pool, j->valuestring, path, out, v);
}

int floe_codec_document(h2o_mem_pool_t *pool, const cJSON *j, const floe_path_t *path, char **out, floe_violation_t *v)
{
    char *text = cJSON_PrintUnformatted(j);
    (void)path;
    (void)v;
    *out = pool_strdup(pool, text != NULL ? text : "null");
    cJSON_free(text);
    return 0;
}

static int read_integer(const cJSON *j, const floe_path_t *path, double lo, double hi, const char *what, int64_t *out,
                        floe_violation_t *v)
{
    if (!cJSON_IsNumber(j) || !isfinite(j->valuedouble) || floor(j->valuedouble) != j->valuedouble ||
        j->valuedouble < lo || j->valuedouble > hi) {
        floe_violation_type(v, path, what);
        return FLOE_EFAIL;
    }
    *out = (int64_t)j->valuedouble;
    return FLOE_OK;
}

int floe_codec_int32(const cJSON *j, const floe_path_t *path, int32_t *out, floe_violation_t *v)
{
    int64_t value;
    if (read_integer(j, path, INT32_MIN, INT32_MAX, "an integer", &value, v))
        return FLOE_EFAIL;
    *out = (int32_t)value;
    return FLOE_OK;
}

int floe_codec_int64(const cJSON *j, const floe_path_t *path, int64_t *out, floe_violation_t *v)
{
    /* 2^63 is exactly representable as a double and already out of range. */
    return read_integer(j, path, -9223372036854775808.0, 9223372036854774784.0, "a long integer", out, v);
}

int floe_codec_bool(const cJSON *j, const floe_path_t *path, bool *out, floe_violation_t *v)
{
    if (!cJSON_IsBool(j)) {
        floe_violation_type(v, path, "a boolean");
        return FLOE_EFAIL;
    }
    *out = cJSON_IsTrue(j);
    return FLOE_OK;
}

static int parse_rfc3339(const char *s, int64_t *out_ms)
{
    int y, mo, d, h, mi, sec, n = 0;
    int64_t millis = 0;
    struct tm tm = {0};

    if (sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d%n", &y, &mo, &d, &h, &mi, &sec, &n) != 6)
        return FLOE_EFAIL;
    s += n;
    if (*s == '.') {
        int digits = 0;
        for (s++; *s >= '0' && *s <= '9'; s++, digits++) {
            if (digits < 3)
                millis = millis * 10 + (*s - '0');
        }
        for (; digits < 3; digits++)
            millis *= 10;
    }
    if (strcmp(s, "Z") != 0 && strcmp(s, "+00:00") != 0)
        return FLOE_EFAIL;
    tm.tm_year = y - 1900;
    tm.tm_mon = mo - 1;
    tm.tm_mday = d;
    tm.tm_hour = h;
    tm.tm_min = mi;
    tm.tm_sec = sec;
    *out_ms = (int64_t)timegm(&tm) * 1000 + millis;
    return FLOE_OK;
}

/* The largest epoch-seconds value whose milliseconds fit a floe_timestamp_t (int64_t), rounded
 * down: a larger number would overflow the conversion (undefined behaviour), so it is refused. */
#define MAX_EPOCH_SECONDS 9.2e15

int floe_codec_timestamp(const cJSON *j, const floe_path_t *path, floe_timestamp_t *out, floe_violation_t *v)
{
    if (cJSON_IsNumber(j) && isfinite(j->valuedouble) && fabs(j->valuedouble) <= MAX_EPOCH_SECONDS) {
        *out = (floe_timestamp_t)(j->valuedouble * 1000.0);
        return FLOE_OK;
    }
    if (cJSON_IsString(j) && parse_rfc3339(j->valuestring, out) == 0)
        return FLOE_OK;
    floe_violation_type(v, path, "an RFC 3339 timestamp");
    return FLOE_EFAIL;
}

static int lookup_enum(const char *text, const floe_path_t *path, const char *const *values, int count,
                       const char *message, int *out, floe_violation_t *v)
{
    for (int i = 1; i <= count; i++) {
        if (values[i] != NULL && strcmp(text, values[i]) == 0) { /* NULL: not in this model version */
            *out = i;
            return FLOE_OK;
        }
    }
    floe_violation_set(v, path, text, message);
    return FLOE_EFAIL;
}

int floe_codec_enum(const cJSON *j, const floe_path_t *path, const char *const *values, int count,
                    const char *message, int *out, floe_violation_t *v)
{
    if (!cJSON_IsString(j) || j->valuestring == NULL) {
        floe_violation_type(v, path, "a string");
        return FLOE_EFAIL;
    }
    return lookup_enum(j->valuestring, path, values, count, message, out, v);
}

/* ---- label and query text ---- */

int floe_codec_text_string(h2o_mem_pool_t *pool, const char *text, const floe_path_t *path, char **out, floe_violation_t *v)
{
    if (!floe_codec_utf8_valid(text, strlen(text))) {
        floe_violation_type(v, path, "valid UTF-8");
        return FLOE_EFAIL;
    }
    *out = pool_strdup(pool, text);
    return FLOE_OK;
}

static int text_integer(const char *text, const floe_path_t *path, int64_t lo, int64_t hi, const char *what,
                        int64_t *out, floe_violation_t *v)
{
    char *end = NULL;
    long long value;

    errno = 0;
    value = strtoll(text, &end, 10);
    if (*text == '\0' || *end != '\0' || errno != 0 || value < lo || value > hi || text[0] == ' ' || text[0] == '+') {
        floe_violation_type(v, path, what);
        return FLOE_EFAIL;
    }
    *out = value;
    return FLOE_OK;
}

int floe_codec_text_int32(const char *text, const floe_path_t *path, int32_t *out, floe_violation_t *v)
{
    int64_t value;
    if (text_integer(text, path, INT32_MIN, INT32_MAX, "an integer", &value, v))
        return FLOE_EFAIL;
    *out = (int32_t)value;
    return FLOE_OK;
}

int floe_codec_text_int64(const char *text, const floe_path_t *path, int64_t *out, floe_violation_t *v)
{
    return text_integer(text, path, INT64_MIN, INT64_MAX, "a long integer", out, v);
}

int floe_codec_text_bool(const char *text, const floe_path_t *path, bool *out, floe_violation_t *v)
{
    if (strcmp(text, "true") == 0 || strcmp(text, "false") == 0) {
        *out = text[0] == 't';
        return FLOE_OK;
    }
    floe_violation_type(v, path, "true or false");
    return FLOE_EFAIL;
}

int floe_codec_text_enum(const char *text, const floe_path_t *path, const char *const *values, int count,
                         const char *message, int *out, floe_violation_t *v)
{
    return lookup_enum(text, path, values, count, message, out, v);
}

/* ---- UTF-8 ---- */

size_t floe_codec_utf8_length(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

/* True when the eight bytes at p are ASCII and none is NUL (then no byte borrows in v - ones):
 * the common case, taken a word at a time. */
static bool word_is_plain_ascii(const unsigned char *p)
{
    const uint64_t ones = UINT64_C(0x0101010101010101), highs = UINT64_C(0x8080808080808080);
    uint64_t v;

    memcpy(&v, p, sizeof(v));
    return ((v | (v - ones)) & highs) == 0;
}

bool floe_codec_utf8_valid(const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s, *end = p + n;
    while (p < end) {
        unsigned char c = *p;
        size_t extra;
        uint32_t cp;
        if (end - p >= 8 && word_is_plain_ascii(p)) {
            p += 8;
            continue;
        }
        if (c == 0)
            return false;
        if (c < 0x80) {
            p++;
            continue;
        } else if ((c & 0xE0) == 0xC0) {
            extra = 1;
            cp = c & 0x1F;
        } else if ((c & 0xF0) == 0xE0) {
            extra = 2;
            cp = c & 0x0F;
        } else if ((c & 0xF8) == 0xF0) {
            extra = 3;
            cp = c & 0x07;
        } else {
            return false;
        }
        if ((size_t)(end - p) <= extra)
            return false;
        for (size_t i = 1; i <= extra; i++) {
            if ((p[i] & 0xC0) != 0x80)
                return false;
            cp = (cp << 6) | (p[i] & 0x3F);
        }
        /* overlong forms, surrogates and values past U+10FFFF are not UTF-8 */
        if ((extra == 1 && cp < 0x80) || (extra == 2 && cp < 0x800) || (extra == 3 && cp < 0x10000) ||
            (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF)
            return false;
        p += extra + 1;
    }
    return true;
}

/* ---- patterns ---- */

void *floe_codec_regex_compile(const char *pattern)
{
    int err;
    PCRE2_SIZE offset;
    pcre2_code *code = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED, PCRE2_UTF | PCRE2_DOLLAR_ENDONLY,
                                     &err, &offset, NULL);
    if (code == NULL) {
        PCRE2_UCHAR msg[256];
        pcre2_get_error_message(err, msg, sizeof(msg));
        fprintf(stderr, "floe: pattern %s does not compile at %zu: %s\n", pattern, (size_t)offset, (char *)msg);
        return NULL;
    }
    pcre2_jit_compile(code, PCRE2_JIT_COMPLETE); /* best effort: the interpreter is the fallback */
    return code;
}

/* The compiled code of p, compiling it if no thread has. Two threads may both compile on a first
 * use; the first to publish wins and the other frees its copy, so no lock is held on any use. */
static pcre2_code *pattern_code(floe_codec_pattern_t *p)
{
    void *code = atomic_load_explicit(&p->compiled, memory_order_acquire);
    void *published = NULL;

    if (code != NULL)
        return code;
    if ((code = floe_codec_regex_compile(p->source)) == NULL)
        return NULL;
    if (!atomic_compare_exchange_strong_explicit(&p->compiled, &published, code, memory_order_acq_rel,
                                                 memory_order_acquire)) {
        pcre2_code_free(code);
        code = published;
    }
    return code;
}

int floe_codec_pattern_prepare(floe_codec_pattern_t *p)
{
    return pattern_code(p) != NULL ? FLOE_OK : FLOE_EFAIL;
}

bool floe_codec_pattern_match(floe_codec_pattern_t *p, const char *s)
{
    pcre2_code *code = pattern_code(p);
    return code != NULL && floe_codec_regex_match(code, s);
}

void floe_codec_regex_free(void *compiled)
{
    pcre2_code_free(compiled);
}

/* One match-data block per thread: pcre2_code is shareable, match data is not. */
static __thread pcre2_match_data *thread_match_data;

/* Straight into the JIT code when the pattern has it (pcre2_match checks its arguments first, a
 * tenth of a short match); the interpreter when JIT compiling failed. */
bool floe_codec_regex_match(void *compiled, const char *s)
{
    size_t n = strlen(s);
    int rc;

    if (thread_match_data == NULL)
        thread_match_data = pcre2_match_data_create(1, NULL);
    rc = pcre2_jit_match(compiled, (PCRE2_SPTR)s, n, 0, 0, thread_match_data, NULL);
    if (rc == PCRE2_ERROR_JIT_BADOPTION)
        rc = pcre2_match(compiled, (PCRE2_SPTR)s, n, 0, PCRE2_NO_UTF_CHECK, thread_match_data, NULL);
    return rc >= 0;
}

void floe_codec_thread_exit(void)
{
    pcre2_match_data_free(thread_match_data);
    thread_match_data = NULL;
}

/*
 * The conditional-request and Range logic of conditional.h.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "s3/conditional.h"

static const char *const http_date_formats[] = {
    "%a, %d %b %Y %H:%M:%S GMT", /* IMF-fixdate */
    "%A, %d-%b-%y %H:%M:%S GMT", /* RFC 850 */
    "%a %b %e %H:%M:%S %Y",      /* asctime */
};

int64_t floe_s3_parse_http_date(const char *s)
{
    for (size_t i = 0; s != NULL && i < sizeof(http_date_formats) / sizeof(http_date_formats[0]); i++) {
        struct tm tm;
        const char *end;
        memset(&tm, 0, sizeof(tm));
        if ((end = strptime(s, http_date_formats[i], &tm)) != NULL && *end == '\0')
            return (int64_t)timegm(&tm);
    }
    return -1;
}

/* Compares one list member (trimmed, maybe W/-prefixed, maybe quoted) with etag. */
static bool member_matches(const char *p, size_t n, const char *etag)
{
    size_t etag_len = strlen(etag);

    if (n >= 2 && p[0] == 'W' && p[1] == '/') {
        p += 2;
        n -= 2;
    }
    if (n >= 2 && p[0] == '"' && p[n - 1] == '"') {
        p++;
        n -= 2;
    }
    return n == etag_len && memcmp(p, etag, n) == 0;
}

bool floe_s3_etag_list_matches(const char *list, const char *etag)
{
    for (const char *p = list; p != NULL && *p;) {
        while (*p == ' ' || *p == ',')
            p++;
        const char *end = p;
        while (*end && *end != ',')
            end++;
        const char *trim = end;
        while (trim > p && trim[-1] == ' ')
            trim--;
        if ((trim - p == 1 && *p == '*') || (trim > p && member_matches(p, (size_t)(trim - p), etag)))
            return true;
        p = end;
    }
    return false;
}

/* Whether the date parses and the object changed after it (HTTP dates have whole seconds). A date
 * that does not parse is ignored: it is neither before nor after. */
static bool is_modified_since(const char *date, int64_t last_modified_ms)
{
    int64_t since = floe_s3_parse_http_date(date);
    return since >= 0 && last_modified_ms / 1000 > since;
}

static bool is_unmodified_since(const char *date, int64_t last_modified_ms)
{
    int64_t since = floe_s3_parse_http_date(date);
    return since >= 0 && last_modified_ms / 1000 <= since;
}

floe_s3_cond_t floe_s3_conditional_evaluate(const floe_s3_cond_headers_t *h, const char *etag, int64_t last_modified_ms,
                                            const char **failed)
{
    if (h->if_match != NULL) {
        if (!floe_s3_etag_list_matches(h->if_match, etag)) {
            *failed = "If-Match";
            return FLOE_S3_COND_FAILED;
        }
    } else if (h->if_unmodified_since != NULL && is_modified_since(h->if_unmodified_since, last_modified_ms)) {
        *failed = "If-Unmodified-Since";
        return FLOE_S3_COND_FAILED;
    }
    if (h->if_none_match != NULL)
        return floe_s3_etag_list_matches(h->if_none_match, etag) ? FLOE_S3_COND_NOT_MODIFIED : FLOE_S3_COND_PASS;
    if (h->if_modified_since != NULL && is_unmodified_since(h->if_modified_since, last_modified_ms))
        return FLOE_S3_COND_NOT_MODIFIED;
    return FLOE_S3_COND_PASS;
}

/* Parses digits at *p into *v (advancing *p); false if there are none or they overflow. */
static bool parse_u64(const char **p, uint64_t *v)
{
    const char *s = *p;
    uint64_t x = 0;

    if (!isdigit((unsigned char)*s))
        return false;
    for (; isdigit((unsigned char)*s); s++) {
        if (x > (UINT64_MAX - 9) / 10)
            return false;
        x = x * 10 + (uint64_t)(*s - '0');
    }
    *p = s;
    *v = x;
    return true;
}

floe_s3_range_t floe_s3_range_parse(const char *header, uint64_t size, uint64_t *first, uint64_t *last)
{
    static const char unit[] = "bytes=";
    const char *p = header;
    uint64_t a = 0, b = 0;
    bool has_a, has_b;

    if (p == NULL || strncmp(p, unit, sizeof(unit) - 1) != 0)
        return FLOE_S3_RANGE_NONE;
    p += sizeof(unit) - 1;
    has_a = parse_u64(&p, &a);
    if (*p++ != '-')
        return FLOE_S3_RANGE_NONE;
    has_b = parse_u64(&p, &b);
    if (*p != '\0' || (!has_a && !has_b) || (has_a && has_b && b < a))
        return FLOE_S3_RANGE_NONE; /* malformed, or several ranges: S3 sends the whole object */
    if (!has_a) { /* the last b bytes */
        if (b == 0 || size == 0)
            return FLOE_S3_RANGE_UNSATISFIABLE;
        *first = b >= size ? 0 : size - b;
        *last = size - 1;
        return FLOE_S3_RANGE_PARTIAL;
    }
    if (a >= size)
        return FLOE_S3_RANGE_UNSATISFIABLE;
    *first = a;
    *last = has_b && b < size ? b : size - 1;
    return FLOE_S3_RANGE_PARTIAL;
}

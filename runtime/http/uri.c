/*
 * The URI text every protocol reads: percent-decoding, query strings as decoded pairs, and raw
 * paths split on '/'. Shared by the S3 Tables and Iceberg REST routers, S3's addressing, the query
 * protocol's form, the signature checks and the console. Knows nothing of routes or operations.
 */
#include <string.h>

#include "http/uri.h"

static int hex_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* The first byte at or after `from` that decoding changes: '%', or '+' when it is a space. */
static const char *next_special(const char *from, const char *end, int plus_is_space)
{
    const char *pct = memchr(from, '%', (size_t)(end - from)), *plus;

    if (!plus_is_space)
        return pct != NULL ? pct : end;
    plus = memchr(from, '+', (size_t)((pct != NULL ? pct : end) - from));
    return plus != NULL ? plus : pct != NULL ? pct : end;
}

/* Runs between escapes are copied whole: an ARN in a path is mostly plain bytes. */
char *floe_percent_decode(h2o_mem_pool_t *pool, const char *src, size_t n, int plus_is_space)
{
    char *out = h2o_mem_alloc_pool(pool, n + 1), *o = out;
    const char *p = src, *end = src + n;

    while (p < end) {
        const char *special = next_special(p, end, plus_is_space);
        int hi, lo;
        memcpy(o, p, (size_t)(special - p));
        o += special - p;
        if (special == end)
            break;
        if (*special == '+') {
            *o++ = ' ';
            p = special + 1;
            continue;
        }
        if (end - special <= 2 || (hi = hex_value(special[1])) < 0 || (lo = hex_value(special[2])) < 0 ||
            (hi | lo) == 0)
            return NULL;
        *o++ = (char)(hi << 4 | lo);
        p = special + 3;
    }
    *o = '\0';
    return out;
}

long floe_query_parse(h2o_mem_pool_t *pool, const char *query, size_t n, floe_query_param_t **out)
{
    size_t count = 0, cap = 1;
    floe_query_param_t *pairs;

    for (size_t i = 0; i < n; i++)
        cap += query[i] == '&';
    pairs = h2o_mem_alloc_pool(pool, cap * sizeof(*pairs));
    for (size_t start = 0; start < n;) {
        const char *amp = memchr(query + start, '&', n - start);
        size_t end = amp ? (size_t)(amp - query) : n;
        const char *eq = memchr(query + start, '=', end - start);
        size_t key_end = eq ? (size_t)(eq - query) : end;
        if (end > start) {
            pairs[count].key = floe_percent_decode(pool, query + start, key_end - start, 1);
            pairs[count].value = eq ? floe_percent_decode(pool, eq + 1, end - key_end - 1, 1) : "";
            if (pairs[count].key == NULL || pairs[count].value == NULL)
                return -1;
            count++;
        }
        start = end + 1;
    }
    *out = pairs;
    return (long)count;
}

size_t floe_path_split(const char *path, size_t len, size_t max, const char **seg, size_t *seg_len)
{
    size_t n = 0, i = (len > 0 && path[0] == '/') ? 1 : 0;
    if (i >= len)
        return 0;
    while (n <= max) {
        const char *slash = memchr(path + i, '/', len - i);
        size_t end = slash ? (size_t)(slash - path) : len;
        seg[n] = path + i;
        seg_len[n] = end - i;
        n++;
        if (!slash)
            break;
        i = end + 1;
    }
    return n;
}

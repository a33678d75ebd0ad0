/*
 * The route table and matcher of iceberg_rest_router.h.
 *
 * Design notes:
 *  1. The table is built from iceberg_routes.def and is read-only after
 *     floe_iceberg_rest_router_init(), so every thread matches against it without locks.
 *  2. Matching works on the raw path: split on '/', compare literal segments byte for byte, and
 *     percent-decode only parameter segments (h2o's path_normalized would turn an encoded ARN's
 *     %2F into a separator). A parameter is never empty. Templates are compiled and compared by
 *     route_template.c, as the S3 Tables router's are.
 *  3. Each served row gets three small wrappers that turn the table's untyped pointers back into the
 *     operation's own types, so parsers, handlers and serializers keep typed signatures.
 */
#include <stdio.h>
#include <string.h>

#include "base/failure.h"
#include "base/percent.h"
#include "http/uri.h"
#include "iceberg_rest/iceberg_rest_request.h"
#include "iceberg_rest/iceberg_rest_response.h"
#include "iceberg_rest/iceberg_rest_router.h"

#define FLOE_ICEBERG_ROUTE(op, method, path, code, response, statuses, parse, handle)                          \
    static int parse_##op(floe_iceberg_call_t *call, const floe_iceberg_input_t *http, void *in)              \
    {                                                                                                       \
        return parse(call, http, in);                                                                       \
    }                                                                                                       \
    static int handle_##op(floe_iceberg_call_t *call, const void *in, void *out)                             \
    {                                                                                                       \
        return handle(call, in, out);                                                                       \
    }                                                                                                       \
    static void serialize_##op(const void *out, floe_json_t *w)                                              \
    {                                                                                                       \
        floe_iceberg_serialize_##response(out, w);                                                          \
    }
#include "iceberg_routes.def"

static floe_iceberg_route_t routes[] = {
#define FLOE_ICEBERG_ROUTE(op, method, path, code, response, statuses, parse, handle)                          \
    {#op, #method, path, true, code, statuses, sizeof(floe_iceberg_##op##_in), sizeof(floe_iceberg_##response),  \
     parse_##op, handle_##op, serialize_##op, {0}, {0}},
#define FLOE_ICEBERG_UNSERVED(op, method, path) {#op, #method, path, false, 0, "", 0, 0, NULL, NULL, NULL, {0}, {0}},
#include "iceberg_routes.def"
};

#define N_ROUTES (sizeof(routes) / sizeof(routes[0]))

static const char *const endpoints[] = {
#define FLOE_ICEBERG_ENDPOINT(endpoint) endpoint,
#include "iceberg_routes.def"
};

const char *const *floe_iceberg_rest_endpoints(size_t *n)
{
    *n = sizeof(endpoints) / sizeof(endpoints[0]);
    return endpoints;
}

static floe_iceberg_param_t param_of(const floe_route_segment_t *s)
{
    if (s->len == 8 && memcmp(s->text, "{prefix}", s->len) == 0)
        return FLOE_ICEBERG_PARAM_PREFIX;
    if (s->len == 11 && memcmp(s->text, "{namespace}", s->len) == 0)
        return FLOE_ICEBERG_PARAM_NAMESPACE;
    if (s->len == 7 && memcmp(s->text, "{table}", s->len) == 0)
        return FLOE_ICEBERG_PARAM_TABLE;
    return FLOE_ICEBERG_PARAM_OTHER;
}

int floe_iceberg_rest_router_init(void)
{
    for (size_t i = 0; i < N_ROUTES; i++) {
        floe_iceberg_route_t *r = &routes[i];
        if (floe_route_template_compile(&r->template, r->path) != 0)
            return FLOE_EFAIL;
        for (size_t s = 0; s < r->template.n_segments; s++) {
            const floe_route_segment_t *seg = &r->template.segments[s];
            r->params[s] = seg->is_label ? param_of(seg) : FLOE_ICEBERG_PARAM_NONE;
        }
    }
    return FLOE_OK;
}

const floe_iceberg_route_t *floe_iceberg_rest_routes(size_t *n)
{
    *n = N_ROUTES;
    return routes;
}

/* Decodes the best route's parameters into out; -1 on bad percent-encoding. */
static int decode_params(h2o_mem_pool_t *pool, const floe_iceberg_route_t *r, const char **seg, const size_t *seg_len,
                         floe_iceberg_route_match_t *out)
{
    out->route = r;
    out->prefix = out->namespace = out->table = NULL;
    for (size_t i = 0; i < r->template.n_segments; i++) {
        const char *value;
        if (!r->template.segments[i].is_label)
            continue;
        if ((value = floe_percent_decode(pool, seg[i], seg_len[i], 0)) == NULL)
            return FLOE_EFAIL;
        switch (r->params[i]) {
        case FLOE_ICEBERG_PARAM_PREFIX: out->prefix = value; break;
        case FLOE_ICEBERG_PARAM_NAMESPACE: out->namespace = value; break;
        case FLOE_ICEBERG_PARAM_TABLE: out->table = value; break;
        default: break;
        }
    }
    return FLOE_OK;
}

floe_iceberg_route_result_t floe_iceberg_rest_route(h2o_mem_pool_t *pool, const char *method, size_t method_len,
                                                    const char *path, size_t path_len, floe_iceberg_route_match_t *out)
{
    const char *seg[FLOE_ROUTE_TEMPLATE_MAX_SEGMENTS + 1];
    size_t seg_len[FLOE_ROUTE_TEMPLATE_MAX_SEGMENTS + 1];
    size_t n = floe_path_split(path, path_len, FLOE_ROUTE_TEMPLATE_MAX_SEGMENTS, seg, seg_len);
    const floe_iceberg_route_t *best = NULL;
    bool path_seen = false;

    if (n > FLOE_ROUTE_TEMPLATE_MAX_SEGMENTS)
        return FLOE_ICEBERG_ROUTE_NO_PATH;
    for (size_t i = 0; i < N_ROUTES; i++) {
        const floe_iceberg_route_t *r = &routes[i];
        if (!floe_route_template_matches(&r->template, seg, seg_len, n))
            continue;
        path_seen = true;
        if (strlen(r->method) != method_len || memcmp(r->method, method, method_len) != 0)
            continue;
        if (best == NULL || r->template.n_literals > best->template.n_literals)
            best = r;
    }
    if (best == NULL)
        return path_seen ? FLOE_ICEBERG_ROUTE_NO_METHOD : FLOE_ICEBERG_ROUTE_NO_PATH;
    return decode_params(pool, best, seg, seg_len, out) == 0 ? FLOE_ICEBERG_ROUTE_FOUND : FLOE_ICEBERG_ROUTE_BAD_ENCODING;
}

bool floe_iceberg_route_documents(const floe_iceberg_route_t *route, int status)
{
    char code[8];
    size_t len = (size_t)snprintf(code, sizeof(code), "%d", status);

    for (const char *p = route->statuses; *p;) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        if ((n == len && memcmp(p, code, n) == 0) || (status >= 500 && n == 3 && memcmp(p, "5XX", 3) == 0))
            return true;
        p += n + (comma ? 1 : 0);
    }
    return false;
}

char *floe_iceberg_rest_encode_segment(floe_call_t *call, const char *value)
{
    size_t n = strlen(value);
    char *out = floe_call_alloc(call, FLOE_PERCENT_ENCODED_MAX(n));

    floe_percent_encode(out, value, n, false);
    return out;
}

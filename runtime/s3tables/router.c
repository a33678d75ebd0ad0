/*
 * The route table and matcher of router.h.
 *
 * Design notes:
 *  1. The table is built from operations.def and is read-only after floe_router_init(), so every
 *     thread matches against it without locks.
 *  2. Matching works on the raw path: split on '/', compare literal segments byte for byte, and
 *     percent-decode only the label segments. A label is never empty. Templates are compiled and
 *     compared by route_template.c, which the Iceberg REST router shares.
 *  3. When several routes match path and method, the one with the most literal segments wins,
 *     then the one whose required query keys are all present, then the one requiring more keys
 *     (as LocalStack's op_router breaks ties).
 *  4. Only a template of as many segments as the path can match it, so floe_router_init orders
 *     the routes by segment count (keeping the table's order within a count, which the ties
 *     above depend on) and a match scans only its path's group, not all of the table.
 */
#include <stdio.h>
#include <string.h>

#include "base/failure.h"
#include "http/uri.h"
#include "s3tables/router.h"

static floe_route_t routes[] = {
#define FLOE_ROUTE(name, method, uri, required_query, parse) {FLOE_OP_##name, #method, uri, required_query, parse, {0}},
#include "operations.def"
};

#define N_ROUTES (sizeof(routes) / sizeof(routes[0]))

/* The routes by segment count: those of n segments are by_length[group_start[n] .. group_start[n + 1]). */
static const floe_route_t *by_length[N_ROUTES];
static size_t group_start[FLOE_ROUTE_TEMPLATE_MAX_SEGMENTS + 2];

/* A counting sort, stable so that each group keeps the table's order. */
static void group_by_length(void)
{
    size_t next[FLOE_ROUTE_TEMPLATE_MAX_SEGMENTS + 1] = {0};

    memset(group_start, 0, sizeof(group_start));
    for (size_t i = 0; i < N_ROUTES; i++)
        group_start[routes[i].template.n_segments + 1]++;
    for (size_t n = 1; n < FLOE_ROUTE_TEMPLATE_MAX_SEGMENTS + 2; n++)
        group_start[n] += group_start[n - 1];
    for (size_t i = 0; i < N_ROUTES; i++) {
        size_t n = routes[i].template.n_segments;
        by_length[group_start[n] + next[n]++] = &routes[i];
    }
}

int floe_router_init(void)
{
    for (size_t i = 0; i < N_ROUTES; i++) {
        floe_route_t *r = &routes[i];
        if (floe_route_template_compile(&r->template, r->uri) != 0)
            return FLOE_EFAIL;
        if (r->template.n_segments - r->template.n_literals > FLOE_ROUTE_MAX_LABELS) {
            fprintf(stderr, "floe: route %s has more labels than the router holds\n", r->uri);
            return FLOE_EFAIL;
        }
    }
    group_by_length();
    return FLOE_OK;
}

const floe_route_t *floe_router_routes(size_t *n)
{
    *n = N_ROUTES;
    return routes;
}

static int has_query_key(const floe_query_param_t *query, size_t n_query, const char *key, size_t key_len)
{
    for (size_t i = 0; i < n_query; i++) {
        if (strlen(query[i].key) == key_len && memcmp(query[i].key, key, key_len) == 0)
            return 1;
    }
    return 0;
}

/* How well the query satisfies a route's required keys: (all present, number required). */
static int query_score(const floe_route_t *r, const floe_query_param_t *query, size_t n_query)
{
    int n_required = 0, all_present = 1;
    for (const char *p = r->required_query; *p;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        n_required++;
        all_present &= has_query_key(query, n_query, p, len);
        p += len + (comma ? 1 : 0);
    }
    return all_present * 1000 + n_required;
}

floe_route_result_t floe_router_match(h2o_mem_pool_t *pool, const char *method, size_t method_len, const char *path,
                                      size_t path_len, const floe_query_param_t *query, size_t n_query,
                                      floe_route_match_t *out)
{
    const char *seg[FLOE_ROUTE_TEMPLATE_MAX_SEGMENTS + 1];
    size_t seg_len[FLOE_ROUTE_TEMPLATE_MAX_SEGMENTS + 1];
    size_t n = floe_path_split(path, path_len, FLOE_ROUTE_TEMPLATE_MAX_SEGMENTS, seg, seg_len);
    const floe_route_t *best = NULL;
    int best_score = -1, path_seen = 0;

    if (n > FLOE_ROUTE_TEMPLATE_MAX_SEGMENTS)
        return FLOE_ROUTE_NO_PATH;
    for (size_t i = group_start[n]; i < group_start[n + 1]; i++) {
        const floe_route_t *r = by_length[i];
        int score;
        if (!floe_route_template_matches(&r->template, seg, seg_len, n))
            continue;
        path_seen = 1;
        if (strlen(r->method) != method_len || memcmp(r->method, method, method_len) != 0)
            continue;
        score = (int)r->template.n_literals * 100000 + query_score(r, query, n_query);
        if (score > best_score) {
            best = r;
            best_score = score;
        }
    }
    if (best == NULL)
        return path_seen ? FLOE_ROUTE_NO_METHOD : FLOE_ROUTE_NO_PATH;
    out->route = best;
    out->n_labels = 0;
    for (size_t i = 0; i < n; i++) {
        if (!best->template.segments[i].is_label)
            continue;
        if ((out->labels[out->n_labels++] = floe_percent_decode(pool, seg[i], seg_len[i], 0)) == NULL)
            return FLOE_ROUTE_BAD_ENCODING;
    }
    return FLOE_ROUTE_FOUND;
}

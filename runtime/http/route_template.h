/*
 * Route templates shared by Floe's two routers: a URI template from a generated route table
 * ("/buckets/{tableBucketARN}/policy" from operations.def, "/v1/{prefix}/namespaces/{namespace}"
 * from iceberg_routes.def) compiled once into segments, and the test of a split raw path against
 * it. Each router keeps its own table, its own tie-breaking and what its labels mean (router.c,
 * iceberg_rest/iceberg_rest_router.c); this file knows nothing of operations.
 */
#ifndef FLOE_HTTP_ROUTE_TEMPLATE_H
#define FLOE_HTTP_ROUTE_TEMPLATE_H

#include <stdbool.h>
#include <stddef.h>

#define FLOE_ROUTE_TEMPLATE_MAX_SEGMENTS 10 /* the deepest template of either table, with room to spare */

/** One segment of a template: a literal, or a label with its braces ("{prefix}"). */
typedef struct floe_route_segment {
    const char *text; /* points into the template string, not NUL-terminated at len */
    size_t len;
    bool is_label;
} floe_route_segment_t;

typedef struct floe_route_template {
    size_t n_segments;
    size_t n_literals;
    floe_route_segment_t segments[FLOE_ROUTE_TEMPLATE_MAX_SEGMENTS];
} floe_route_template_t;

/**
 * Compiles `uri` ("/a/{b}/c"), which must outlive t (the segments point into it: the generated
 * tables' string literals do). Returns 0, or -1 with a message naming the template on stderr
 * when it has more than FLOE_ROUTE_TEMPLATE_MAX_SEGMENTS segments.
 */
int floe_route_template_compile(floe_route_template_t *t, const char *uri);

/**
 * True when a raw path split into seg[0..n) (floe_path_split, still percent-encoded) fits t: as
 * many segments, each literal equal byte for byte, each label non-empty.
 */
bool floe_route_template_matches(const floe_route_template_t *t, const char *const *seg, const size_t *seg_len,
                                 size_t n);

#endif

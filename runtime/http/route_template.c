/*
 * Compiling and matching the route templates of route_template.h. Matching compares raw path
 * segments before any percent-decoding, so an encoded '/' (%2F) inside a label never splits it.
 */
#include <stdio.h>
#include <string.h>

#include "base/failure.h"
#include "http/route_template.h"

int floe_route_template_compile(floe_route_template_t *t, const char *uri)
{
    const char *p = uri[0] == '/' ? uri + 1 : uri;

    memset(t, 0, sizeof(*t));
    while (*p != '\0') {
        const char *end = strchr(p, '/');
        size_t len = end != NULL ? (size_t)(end - p) : strlen(p);
        floe_route_segment_t *s = &t->segments[t->n_segments];
        if (t->n_segments == FLOE_ROUTE_TEMPLATE_MAX_SEGMENTS) {
            fprintf(stderr, "floe: route %s has more segments than the router holds\n", uri);
            return FLOE_EFAIL;
        }
        s->text = p;
        s->len = len;
        s->is_label = len >= 2 && p[0] == '{' && p[len - 1] == '}';
        t->n_literals += !s->is_label;
        t->n_segments++;
        p += len + (end != NULL ? 1 : 0);
    }
    return FLOE_OK;
}

bool floe_route_template_matches(const floe_route_template_t *t, const char *const *seg, const size_t *seg_len,
                                 size_t n)
{
    if (t->n_segments != n)
        return false;
    for (size_t i = 0; i < n; i++) {
        const floe_route_segment_t *s = &t->segments[i];
        if (s->is_label ? seg_len[i] == 0 : (s->len != seg_len[i] || memcmp(s->text, seg[i], seg_len[i]) != 0))
            return false;
    }
    return true;
}

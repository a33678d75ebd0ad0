/*
 * The REST-JSON binding of awsjson_rest.h. A route's labels and query parameters become JSON
 * members ahead of the body's, so a value in the URI means what it would mean in awsJson1_1's
 * body, and a malformed one (MaxResults=abc) fails in the codec as a body of the wrong type would.
 */
#include <string.h>

#include "awsjson/awsjson_rest.h"
#include "base/json.h"
#include "http/route_template.h"
#include "http/uri.h"

static size_t path_len(h2o_req_t *req)
{
    return req->input.query_at != SIZE_MAX ? req->input.query_at : req->input.path.len;
}

const floe_awsjson_operation_t *floe_awsjson_rest_find(const floe_awsjson_service_t *svc, h2o_req_t *req)
{
    const char *seg[FLOE_ROUTE_TEMPLATE_MAX_SEGMENTS + 1];
    size_t seg_len[FLOE_ROUTE_TEMPLATE_MAX_SEGMENTS + 1], best_literals = 0;
    size_t n = floe_path_split(req->input.path.base, path_len(req), FLOE_ROUTE_TEMPLATE_MAX_SEGMENTS, seg, seg_len);
    const floe_awsjson_operation_t *best = NULL;
    floe_route_template_t t;

    if (!floe_awsjson_has_rest(svc) || n > FLOE_ROUTE_TEMPLATE_MAX_SEGMENTS)
        return NULL;
    for (size_t i = 0; i < svc->n_operations; i++) {
        const floe_awsjson_operation_t *op = &svc->operations[i];
        const char *method = floe_awsjson_name(svc, op->rest.method);
        if (op->rest.method == FLOE_AWSJSON_NO_NAME ||
            !h2o_memis(req->input.method.base, req->input.method.len, method, strlen(method)))
            continue;
        if (floe_route_template_compile(&t, floe_awsjson_name(svc, op->rest.uri)) != 0 ||
            !floe_route_template_matches(&t, seg, seg_len, n))
            continue;
        if (best == NULL || t.n_literals > best_literals) {
            best = op;
            best_literals = t.n_literals;
        }
    }
    return best;
}

/* The raw (encoded) text of label `wire` ("{WorkGroup}") in the request path, as a slice. */
static int label_value(const floe_awsjson_service_t *svc, const floe_awsjson_operation_t *op, h2o_req_t *req,
                       const char *wire, const char **value, size_t *len)
{
    const char *seg[FLOE_ROUTE_TEMPLATE_MAX_SEGMENTS + 1];
    size_t seg_len[FLOE_ROUTE_TEMPLATE_MAX_SEGMENTS + 1], wire_len = strlen(wire);
    size_t n = floe_path_split(req->input.path.base, path_len(req), FLOE_ROUTE_TEMPLATE_MAX_SEGMENTS, seg, seg_len);
    floe_route_template_t t;

    if (floe_route_template_compile(&t, floe_awsjson_name(svc, op->rest.uri)) != 0 || n != t.n_segments)
        return FLOE_EINVAL;
    for (size_t i = 0; i < n; i++) {
        const floe_route_segment_t *s = &t.segments[i];
        if (s->is_label && s->len == wire_len + 2 && memcmp(s->text + 1, wire, wire_len) == 0) {
            *value = seg[i];
            *len = seg_len[i];
            return FLOE_OK;
        }
    }
    return FLOE_EINVAL;
}

/* True when `s` is an integer JSON takes as a number. */
static bool is_integer(const char *s)
{
    size_t i = s[0] == '-' ? 1 : 0, digits = strspn(s + i, "0123456789");
    return digits > 0 && digits <= 18 && s[i + digits] == '\0';
}

/* Writes one text value as a member of kind `kind`: numbers and booleans bare when they are
 * ones, anything else as a string (which the codec refuses for a number, as AWS does). */
static void write_value(floe_json_t *w, uint8_t kind, const char *value)
{
    if ((kind == FLOE_AWSJSON_INTEGER || kind == FLOE_AWSJSON_LONG) && is_integer(value))
        floe_json_raw(w, value);
    else if (kind == FLOE_AWSJSON_BOOLEAN && (strcmp(value, "true") == 0 || strcmp(value, "false") == 0))
        floe_json_raw(w, value);
    else
        floe_json_string(w, value);
}

/* Writes the query parameters named `wire` as member `key`: a list's items, or the first one. */
static void write_query(floe_json_t *w, const floe_awsjson_service_t *svc, const floe_awsjson_shape_t *target,
                        const char *key, const floe_query_param_t *q, long n, const char *wire)
{
    bool is_list = target->kind == FLOE_AWSJSON_LIST, found = false;
    const floe_awsjson_shape_t *item =
        is_list ? floe_awsjson_shape(svc, floe_awsjson_member(svc, target, 0)->target) : target;

    for (long i = 0; i < n && (is_list || !found); i++) {
        if (strcmp(q[i].key, wire) != 0)
            continue;
        if (!found) {
            floe_json_key(w, key);
            if (is_list)
                floe_json_array_begin(w);
        }
        found = true;
        write_value(w, item->kind, q[i].value);
    }
    if (found && is_list)
        floe_json_array_end(w);
}

/* Writes the members the URI and query carry into `w` as one object. FLOE_OK or FLOE_EINVAL. */
static int write_params(h2o_mem_pool_t *pool, const floe_awsjson_service_t *svc, const floe_awsjson_operation_t *op,
                        h2o_req_t *req, floe_json_t *w)
{
    const floe_awsjson_shape_t *input = floe_awsjson_shape(svc, op->input);
    floe_query_param_t *q = NULL;
    long n_q = 0;

    if (req->input.query_at != SIZE_MAX &&
        (n_q = floe_query_parse(pool, req->input.path.base + req->input.query_at + 1,
                                req->input.path.len - req->input.query_at - 1, &q)) < 0)
        return FLOE_EINVAL;
    floe_json_object_begin(w);
    for (uint32_t i = 0; i < op->rest.n_params; i++) {
        const floe_awsjson_rest_param_t *p = &svc->rest_params[op->rest.params + i];
        const floe_awsjson_member_t *m = floe_awsjson_member(svc, input, p->member);
        const floe_awsjson_shape_t *target = floe_awsjson_shape(svc, m->target);
        const char *wire = floe_awsjson_name(svc, p->wire), *raw, *value;
        size_t len;

        if (p->location == FLOE_AWSJSON_IN_QUERY) {
            write_query(w, svc, target, floe_awsjson_name(svc, m->name), q, n_q, wire);
            continue;
        }
        if (label_value(svc, op, req, wire, &raw, &len) != FLOE_OK ||
            (value = floe_percent_decode(pool, raw, len, 0)) == NULL)
            return FLOE_EINVAL;
        floe_json_key(w, floe_awsjson_name(svc, m->name));
        write_value(w, target->kind, value);
    }
    floe_json_object_end(w);
    return FLOE_OK;
}

/* The body after its opening brace when it is an object with members; "" when it is empty or
 * `{}`; NULL when it is something else (left whole to the codec, which refuses it). */
static const char *body_members(const char *body, size_t n, size_t *rest)
{
    size_t i = 0;

    while (i < n && strchr(" \t\r\n", body[i]) != NULL)
        i++;
    if (i == n) {
        *rest = 0;
        return "";
    }
    if (body[i] != '{')
        return NULL;
    for (i++; i < n && strchr(" \t\r\n", body[i]) != NULL; i++)
        ;
    if (i < n && body[i] == '}') {
        *rest = 0;
        return "";
    }
    *rest = n - i;
    return body + i;
}

int floe_awsjson_rest_input(h2o_mem_pool_t *pool, const floe_awsjson_service_t *svc, const floe_awsjson_operation_t *op,
                            h2o_req_t *req, const char **text, size_t *n)
{
    const char *members;
    size_t rest = 0;
    char *out;
    floe_json_t w;
    int rc;

    members = body_members(req->entity.base, req->entity.len, &rest);
    floe_json_init(&w);
    if ((rc = write_params(pool, svc, op, req, &w)) != FLOE_OK || members == NULL || w.len <= 2) {
        *text = req->entity.base; /* no parameters, or a body the codec is to refuse */
        *n = req->entity.len;
        floe_json_dispose(&w);
        return rc;
    }
    /* "{params" + ("," + body members incl. its closing brace | "}") */
    out = h2o_mem_alloc_pool(pool, w.len + rest + 2);
    memcpy(out, w.buf, w.len - 1);
    *n = w.len - 1;
    if (rest > 0) {
        out[(*n)++] = ',';
        memcpy(out + *n, members, rest);
        *n += rest;
    } else {
        out[(*n)++] = '}';
    }
    out[*n] = '\0';
    *text = out;
    floe_json_dispose(&w);
    return FLOE_OK;
}

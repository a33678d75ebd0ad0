/*
 * libFuzzer harness for the S3 Tables request path below HTTP: query parsing, the router, the
 * generated request parsers and validators, for every operation. Input: a method index byte, a
 * raw path with an optional query, a newline, then the body.
 */
#include <stdint.h>
#include <string.h>

#include "call/call.h"
#include "floe_codec.h"
#include "http/uri.h"
#include "s3tables/router.h"

static const char *const methods[] = {"GET", "PUT", "POST", "DELETE", "HEAD", "PATCH"};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void run(h2o_mem_pool_t *pool, const char *method, const char *target, size_t target_len, const char *body,
                size_t body_len)
{
    const char *q = memchr(target, '?', target_len);
    size_t path_len = q ? (size_t)(q - target) : target_len;
    floe_query_param_t *query = NULL;
    long n_query = 0;
    floe_route_match_t match;
    floe_http_input_t http = {0};
    floe_violation_t v;
    floe_call_t call;
    void *in;

    if (q != NULL && (n_query = floe_query_parse(pool, q + 1, target_len - path_len - 1, &query)) < 0)
        return;
    if (floe_router_match(pool, method, strlen(method), target, path_len, query, (size_t)n_query, &match) !=
        FLOE_ROUTE_FOUND)
        return;
    floe_call_init(&call, pool, NULL, NULL);
    http.labels = match.labels;
    http.n_labels = match.n_labels;
    http.query = query;
    http.n_query = (size_t)n_query;
    http.body = body;
    http.body_len = body_len;
    in = floe_call_alloc(&call, floe_operations[match.route->op].request_size);
    if (match.route->parse(&call, &http, in, &v) == 0)
        floe_operations[match.route->op].validate(in, &v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int initialised;
    const char *text = (const char *)data, *nl;
    h2o_mem_pool_t pool;

    if (!initialised) {
        floe_codec_init();
        floe_router_init();
        initialised = 1;
    }
    if (size < 2)
        return 0;
    nl = memchr(text + 1, '\n', size - 1);
    h2o_mem_init_pool(&pool);
    run(&pool, methods[data[0] % (sizeof(methods) / sizeof(methods[0]))], text + 1,
        nl ? (size_t)(nl - text - 1) : size - 1, nl ? nl + 1 : NULL, nl ? size - (size_t)(nl - text) - 1 : 0);
    h2o_mem_clear_pool(&pool);
    floe_codec_thread_exit();
    return 0;
}

/*
 * libFuzzer harness for the Iceberg REST catalog's request path below HTTP: query parsing, the
 * router over generated/iceberg_routes.def, the exact-integer JSON parser and every served
 * operation's request parser. Input: a method index byte, a raw path (below /iceberg) with an
 * optional query, a newline, then the body.
 */
#include <stdint.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "floe_codec.h"
#include "http/uri.h"
#include "iceberg/iceberg_json.h"
#include "iceberg_rest/iceberg_rest_call.h"
#include "iceberg_rest/iceberg_rest_request.h"
#include "iceberg_rest/iceberg_rest_router.h"

static const char *const methods[] = {"GET", "PUT", "POST", "DELETE", "HEAD", "PATCH"};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void run(h2o_mem_pool_t *pool, const char *method, const char *target, size_t target_len, const char *body,
                size_t body_len)
{
    const char *q = memchr(target, '?', target_len);
    size_t path_len = q ? (size_t)(q - target) : target_len;
    floe_query_param_t *query = NULL;
    long n_query = 0;
    floe_iceberg_route_match_t match;
    floe_iceberg_error_t err;
    floe_iceberg_call_t call;
    cJSON *tree = NULL;

    if (q != NULL && (n_query = floe_query_parse(pool, q + 1, target_len - path_len - 1, &query)) < 0)
        return;
    if (floe_iceberg_rest_route(pool, method, strlen(method), target, path_len, &match) != FLOE_ICEBERG_ROUTE_FOUND ||
        !match.route->is_served)
        return;
    if (body != NULL && body_len > 0 && (tree = floe_iceberg_json_parse(body, body_len, &err)) == NULL)
        return;
    floe_iceberg_rest_call_init(&call, pool, NULL, NULL, "http://fuzz");
    {
        floe_iceberg_input_t http = {match.prefix, match.namespace, match.table, query, (size_t)n_query, tree, NULL};
        match.route->parse(&call, &http, floe_call_alloc(&call.super, match.route->in_size));
    }
    cJSON_Delete(tree);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int initialised;
    const char *text = (const char *)data, *nl;
    h2o_mem_pool_t pool;

    if (!initialised) {
        floe_codec_init();
        floe_iceberg_rest_router_init();
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

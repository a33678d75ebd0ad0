/* Tests of runtime/iceberg_rest/iceberg_rest_router.c (matching on the raw path, parameter decoding, the
 * statuses the spec documents) and of the request parsers in iceberg_rest_request.c. */
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "harness.h"
#include "iceberg/iceberg_json.h"
#include "iceberg_rest/iceberg_rest_call.h"
#include "iceberg_rest/iceberg_rest_request.h"
#include "iceberg_rest/iceberg_rest_router.h"

static floe_iceberg_route_result_t route(h2o_mem_pool_t *pool, const char *method, const char *path,
                                         floe_iceberg_route_match_t *m)
{
    return floe_iceberg_rest_route(pool, method, strlen(method), path, strlen(path), m);
}

/* Fills each {parameter} of a template with "x" and expects the route back. */
TEST(iceberg_rest_router_every_route_matches_its_template)
{
    size_t n;
    const floe_iceberg_route_t *routes = floe_iceberg_rest_routes(&n);
    h2o_mem_pool_t pool;
    h2o_mem_init_pool(&pool);
    CHECK(n > 0, "the route table has rows");
    for (size_t i = 0; i < n; i++) {
        char path[256] = "";
        floe_iceberg_route_match_t m;
        for (size_t s = 0; s < routes[i].template.n_segments; s++) {
            const floe_route_segment_t *seg = &routes[i].template.segments[s];
            sprintf(path + strlen(path), "/%.*s", seg->is_label ? 1 : (int)seg->len, seg->is_label ? "x" : seg->text);
        }
        CHECK(route(&pool, routes[i].method, path, &m) == FLOE_ICEBERG_ROUTE_FOUND && m.route == &routes[i],
              "a path built from a route's template routes to that route");
        CHECK(routes[i].is_served == (routes[i].handle != NULL), "exactly the served routes have a handler");
    }
    h2o_mem_clear_pool(&pool);
}

TEST(iceberg_rest_router_encoded_prefix_and_namespace_are_one_segment_each)
{
    h2o_mem_pool_t pool;
    floe_iceberg_route_match_t m;
    h2o_mem_init_pool(&pool);
    CHECK(route(&pool, "GET", "/v1/arn%3Aaws%3As3tables%3Aus-east-1%3A111122223333%3Abucket%2Fdemo/namespaces/sa%5Fles/tables/t1",
                &m) == FLOE_ICEBERG_ROUTE_FOUND,
          "a table path with an encoded ARN routes");
    CHECK(strcmp(m.route->operation, "loadTable") == 0, "GET .../tables/{table} is loadTable");
    CHECK(strcmp(m.prefix, "arn:aws:s3tables:us-east-1:111122223333:bucket/demo") == 0,
          "the prefix is the whole ARN, decoded after splitting, with its '/' intact");
    CHECK(strcmp(m.namespace, "sa_les") == 0 && strcmp(m.table, "t1") == 0, "namespace and table are decoded");
    CHECK(route(&pool, "GET", "/v1/p/namespaces/a%1Fb", &m) == FLOE_ICEBERG_ROUTE_FOUND && strcmp(m.namespace, "a\x1f" "b") == 0,
          "a multi-level namespace decodes to its 0x1F-separated form (the dispatcher refuses it)");
    h2o_mem_clear_pool(&pool);
}

TEST(iceberg_rest_router_misses_are_told_apart)
{
    h2o_mem_pool_t pool;
    floe_iceberg_route_match_t m;
    h2o_mem_init_pool(&pool);
    CHECK(route(&pool, "GET", "/v1/p/nothing-here", &m) == FLOE_ICEBERG_ROUTE_NO_PATH, "an unknown path is no path");
    CHECK(route(&pool, "PUT", "/v1/p/namespaces", &m) == FLOE_ICEBERG_ROUTE_NO_METHOD, "a known path, wrong method");
    CHECK(route(&pool, "GET", "/v1/p%zz/namespaces", &m) == FLOE_ICEBERG_ROUTE_BAD_ENCODING, "bad percent-encoding");
    CHECK(route(&pool, "GET", "/v1//namespaces", &m) == FLOE_ICEBERG_ROUTE_NO_PATH, "an empty parameter matches nothing");
    CHECK(route(&pool, "POST", "/v1/p/tables/rename", &m) == FLOE_ICEBERG_ROUTE_FOUND &&
              strcmp(m.route->operation, "renameTable") == 0,
          "the literal 'tables/rename' routes to renameTable");
    CHECK(route(&pool, "GET", "/v1/p/namespaces/n/views", &m) == FLOE_ICEBERG_ROUTE_FOUND && !m.route->is_served,
          "views route to an unserved row (501)");
    h2o_mem_clear_pool(&pool);
}

TEST(iceberg_rest_router_documents_the_spec_statuses)
{
    h2o_mem_pool_t pool;
    floe_iceberg_route_match_t m;
    h2o_mem_init_pool(&pool);
    route(&pool, "POST", "/v1/p/namespaces/n/tables/t", &m);
    CHECK(floe_iceberg_route_documents(m.route, 409), "updateTable documents 409");
    CHECK(floe_iceberg_route_documents(m.route, 503) && floe_iceberg_route_documents(m.route, 507),
          "a 5XX entry covers every 5xx");
    route(&pool, "DELETE", "/v1/p/namespaces/n/tables/t", &m);
    CHECK(!floe_iceberg_route_documents(m.route, 409), "dropTable does not document 409");
    h2o_mem_clear_pool(&pool);
}

TEST(iceberg_rest_encode_segment_encodes_an_arn)
{
    h2o_mem_pool_t pool;
    floe_call_t call;
    h2o_mem_init_pool(&pool);
    floe_call_init(&call, &pool, NULL, NULL);
    CHECK(strcmp(floe_iceberg_rest_encode_segment(&call, "arn:aws:s3tables:us-east-1:0:bucket/b-1_x.y~"),
                 "arn%3Aaws%3As3tables%3Aus-east-1%3A0%3Abucket%2Fb-1_x.y~") == 0,
          "':' and '/' are encoded, unreserved characters are not");
    h2o_mem_clear_pool(&pool);
}

/* Parses `body` as an updateTable request. */
static int parse_commit(floe_iceberg_call_t *call, const char *body, cJSON **tree, floe_iceberg_updateTable_in *in)
{
    floe_iceberg_error_t err;
    floe_iceberg_input_t http = {"arn", "ns", "t", NULL, 0, NULL, NULL};
    *tree = floe_iceberg_json_parse(body, strlen(body), &err);
    http.body = *tree;
    memset(in, 0, sizeof(*in));
    return floe_iceberg_parse_updateTable(call, &http, in);
}

TEST(iceberg_rest_request_commit_facts_are_read_from_the_updates)
{
    h2o_mem_pool_t pool;
    floe_iceberg_call_t call;
    floe_iceberg_updateTable_in in;
    cJSON *tree;
    h2o_mem_init_pool(&pool);
    floe_iceberg_rest_call_init(&call, &pool, NULL, NULL, "http://h");
    CHECK(parse_commit(&call,
                       "{\"requirements\":[{\"type\":\"assert-create\"}],\"updates\":["
                       "{\"action\":\"assign-uuid\",\"uuid\":\"u1\"},{\"action\":\"set-location\",\"location\":\"s3://a\"},"
                       "{\"action\":\"set-location\",\"location\":\"s3://b\"}]}",
                       &tree, &in) == FLOE_OK,
          "a create transaction's commit parses");
    CHECK(in.change.asserts_create, "assert-create is noticed");
    CHECK(strcmp(in.change.assigned_uuid, "u1") == 0, "the assigned uuid is read");
    CHECK(strcmp(in.change.new_location, "s3://b") == 0, "the last set-location wins, as it does when applied");
    cJSON_Delete(tree);
    CHECK(parse_commit(&call, "{\"updates\":{}}", &tree, &in) != FLOE_OK &&
              call.error == FLOE_ICEBERG_ERR_BadRequestException,
          "updates that are not an array are a bad request");
    cJSON_Delete(tree);
    h2o_mem_clear_pool(&pool);
}

TEST(iceberg_rest_request_namespaces_have_one_level)
{
    h2o_mem_pool_t pool;
    floe_iceberg_call_t call;
    floe_iceberg_createNamespace_in in;
    floe_iceberg_error_t err;
    const char *body = "{\"namespace\":[\"a\",\"b\"]}";
    cJSON *tree = floe_iceberg_json_parse(body, strlen(body), &err);
    floe_iceberg_input_t http = {"arn", NULL, NULL, NULL, 0, tree, NULL};
    h2o_mem_init_pool(&pool);
    floe_iceberg_rest_call_init(&call, &pool, NULL, NULL, "http://h");
    CHECK(floe_iceberg_parse_createNamespace(&call, &http, &in) != FLOE_OK &&
              call.error == FLOE_ICEBERG_ERR_BadRequestException,
          "a two-level namespace is a bad request");
    cJSON_Delete(tree);
    h2o_mem_clear_pool(&pool);
}

/* Tests of runtime/s3tables/router.c (matching on the raw path, label decoding, ties and misses) and of
 * runtime/http/route_template.c, which it shares with the Iceberg REST router. */
#include <stdio.h>
#include <string.h>

#include "floe_codec.h"
#include "harness.h"
#include "http/uri.h"
#include "s3tables/router.h"

static floe_route_result_t match(h2o_mem_pool_t *pool, const char *method, const char *path, floe_route_match_t *m)
{
    return floe_router_match(pool, method, strlen(method), path, strlen(path), NULL, 0, m);
}

TEST(router_encoded_arn_is_one_label)
{
    h2o_mem_pool_t pool;
    floe_route_match_t m;
    h2o_mem_init_pool(&pool);
    CHECK(match(&pool, "GET", "/buckets/arn%3Aaws%3As3tables%3Aus-east-1%3A111122223333%3Abucket%2Fdemo-bucket", &m) ==
              FLOE_ROUTE_FOUND,
          "an ARN percent-encoded into one segment routes");
    CHECK(m.route->op == FLOE_OP_GetTableBucket, "GET /buckets/{arn} is GetTableBucket");
    CHECK(m.n_labels == 1 && strcmp(m.labels[0], "arn:aws:s3tables:us-east-1:111122223333:bucket/demo-bucket") == 0,
          "the label is the whole ARN, decoded after splitting, with its '/' intact");
    h2o_mem_clear_pool(&pool);
}

/* Writes the path a template describes into path, with "x" for each {label}. */
static void fill_template(const floe_route_template_t *t, char *path)
{
    for (size_t s = 0; s < t->n_segments; s++)
        sprintf(path + strlen(path), "/%.*s", t->segments[s].is_label ? 1 : (int)t->segments[s].len,
                t->segments[s].is_label ? "x" : t->segments[s].text);
}

/* Fills each {label} of a template with "x" and expects the route back. */
TEST(router_every_model_route_matches_its_template)
{
    size_t n;
    const floe_route_t *routes = floe_router_routes(&n);
    h2o_mem_pool_t pool;
    h2o_mem_init_pool(&pool);
    CHECK(n >= FLOE_OP__COUNT, "every operation has at least one route");
    for (size_t i = 0; i < n; i++) {
        char path[256] = "";
        floe_route_match_t m;
        floe_query_param_t query[4];
        size_t n_query = 0;
        fill_template(&routes[i].template, path);
        for (const char *p = routes[i].required_query; *p && n_query < 4;) {
            const char *comma = strchr(p, ',');
            size_t len = comma ? (size_t)(comma - p) : strlen(p);
            query[n_query].key = h2o_mem_alloc_pool(&pool, len + 1);
            memcpy((char *)query[n_query].key, p, len);
            ((char *)query[n_query].key)[len] = '\0';
            query[n_query++].value = "v";
            p += len + (comma ? 1 : 0);
        }
        CHECK(floe_router_match(&pool, routes[i].method, strlen(routes[i].method), path, strlen(path), query, n_query,
                                &m) == FLOE_ROUTE_FOUND && m.route->op == routes[i].op,
              "a path built from a route's template routes to that route's operation");
    }
    h2o_mem_clear_pool(&pool);
}

TEST(router_unknown_path_is_no_path)
{
    h2o_mem_pool_t pool;
    floe_route_match_t m;
    h2o_mem_init_pool(&pool);
    CHECK(match(&pool, "GET", "/no-such-thing", &m) == FLOE_ROUTE_NO_PATH, "an unknown path is a 404");
    CHECK(match(&pool, "GET", "/buckets/", &m) == FLOE_ROUTE_NO_PATH, "an empty label does not match");
    CHECK(match(&pool, "GET", "/a/b/c/d/e/f/g/h/i/j/k", &m) == FLOE_ROUTE_NO_PATH, "a very deep path is a 404");
    h2o_mem_clear_pool(&pool);
}

TEST(router_wrong_method_is_no_method)
{
    h2o_mem_pool_t pool;
    floe_route_match_t m;
    h2o_mem_init_pool(&pool);
    CHECK(match(&pool, "PATCH", "/buckets", &m) == FLOE_ROUTE_NO_METHOD, "PATCH /buckets is a 405");
    h2o_mem_clear_pool(&pool);
}

TEST(router_legacy_get_table_path_routes_to_get_table)
{
    h2o_mem_pool_t pool;
    floe_route_match_t m;
    h2o_mem_init_pool(&pool);
#ifdef FLOE_HAS_OP_GetTable
    CHECK(match(&pool, "GET", "/tables/arn%3Aaws%3As3tables%3Aus-east-1%3A000000000000%3Abucket%2Fb/ns/t", &m) ==
              FLOE_ROUTE_FOUND && m.route->op == FLOE_OP_GetTable,
          "the pre-2025-06 GetTable path still reaches GetTable");
    CHECK(m.n_labels == 3 && strcmp(m.labels[1], "ns") == 0 && strcmp(m.labels[2], "t") == 0,
          "its labels are bucket ARN, namespace and name");
    CHECK(match(&pool, "DELETE", "/tables/arn/ns/t", &m) == FLOE_ROUTE_FOUND && m.route->op != FLOE_OP_GetTable,
          "DELETE on the same path is not GetTable");
#endif
    h2o_mem_clear_pool(&pool);
}

TEST(router_malformed_percent_encoding_is_refused)
{
    h2o_mem_pool_t pool;
    floe_route_match_t m;
    h2o_mem_init_pool(&pool);
    CHECK(match(&pool, "GET", "/buckets/arn%3", &m) == FLOE_ROUTE_BAD_ENCODING, "a cut escape is refused");
    CHECK(match(&pool, "GET", "/buckets/arn%zz", &m) == FLOE_ROUTE_BAD_ENCODING, "a non-hex escape is refused");
    CHECK(match(&pool, "GET", "/buckets/a%00b", &m) == FLOE_ROUTE_BAD_ENCODING, "an encoded NUL is refused");
    h2o_mem_clear_pool(&pool);
}

TEST(router_query_pairs_are_decoded)
{
    h2o_mem_pool_t pool;
    floe_query_param_t *q;
    const char raw[] = "tagKeys=a%20b&tagKeys=c+d&empty&x=";
    long n;
    h2o_mem_init_pool(&pool);
    n = floe_query_parse(&pool, raw, strlen(raw), &q);
    CHECK(n == 4, "four pairs are read");
    CHECK(n == 4 && strcmp(q[0].value, "a b") == 0 && strcmp(q[1].value, "c d") == 0, "%20 and + decode to a space");
    CHECK(n == 4 && strcmp(q[2].key, "empty") == 0 && strcmp(q[2].value, "") == 0, "a key without '=' has an empty value");
    CHECK(floe_query_parse(&pool, "a=%G1", 5, &q) < 0, "a malformed escape in the query is refused");
    CHECK(floe_query_parse(&pool, "a=x+%2B+y%2", 11, &q) < 0, "an escape cut at the end is refused");
    n = floe_query_parse(&pool, "a=x+%2B+y%41%62c+", 17, &q);
    CHECK(n == 1 && strcmp(q[0].value, "x + yAbc ") == 0, "'+' is a space, an escaped '+' is a '+', escapes in a row");
    h2o_mem_clear_pool(&pool);
}

TEST(route_template_compiles_literals_and_labels)
{
    floe_route_template_t t;
    const char *seg[] = {"buckets", "arn%3Ax", "policy"};
    size_t seg_len[] = {7, 7, 6};
    const char *other[] = {"buckets", "arn%3Ax", "encryption"};
    size_t other_len[] = {7, 7, 10};
    size_t empty_len[] = {7, 0, 6};

    CHECK(floe_route_template_compile(&t, "/buckets/{tableBucketARN}/policy") == 0, "a template compiles");
    CHECK(t.n_segments == 3 && t.n_literals == 2, "it has three segments, two of them literal");
    CHECK(t.segments[1].is_label && t.segments[1].len == 16 && memcmp(t.segments[1].text, "{tableBucketARN}", 16) == 0,
          "the label keeps its name and braces");
    CHECK(floe_route_template_matches(&t, seg, seg_len, 3), "a path with the same literals matches");
    CHECK(!floe_route_template_matches(&t, other, other_len, 3), "a different literal does not match");
    CHECK(!floe_route_template_matches(&t, seg, seg_len, 2), "a shorter path does not match");
    CHECK(!floe_route_template_matches(&t, seg, empty_len, 3), "an empty label does not match");
    CHECK(floe_route_template_compile(&t, "/a/b/c/d/e/f/g/h/i/j/k") != 0, "a template deeper than the limit is refused");
}

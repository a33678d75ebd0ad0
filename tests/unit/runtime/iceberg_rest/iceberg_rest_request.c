/* Tests of runtime/iceberg_rest/iceberg_rest_request.c: typed input from a REST catalog request. */
#include "harness.h"
#include "iceberg_rest/iceberg_rest_request.h"

static int parse_drop(const char *purge, floe_iceberg_dropTable_in *in)
{
    floe_query_param_t q = {"purgeRequested", purge};
    floe_iceberg_input_t http = {.prefix = "arn", .namespace = "ns", .table = "t", .query = &q, .n_query = 1};
    return floe_iceberg_parse_dropTable(NULL, &http, in);
}

TEST(iceberg_rest_drop_table_reads_purge_requested_in_any_case)
{
    floe_iceberg_dropTable_in in = {0};
    /* PyIceberg's purge_table sends purgeRequested=True (Python's spelling). */
    CHECK(parse_drop("True", &in) == FLOE_OK && in.purge_requested, "purgeRequested=True asks for a purge");
    CHECK(parse_drop("true", &in) == FLOE_OK && in.purge_requested, "purgeRequested=true asks for a purge");
    CHECK(parse_drop("False", &in) == FLOE_OK && !in.purge_requested, "purgeRequested=False asks for none");
}

/*
 * The unit-test runner: `floe_unit <test>` runs one test from test_list.h and exits non-zero if
 * any CHECK failed; `floe_unit` alone runs them all. The test files are included here so they can
 * reach static functions of the code under test.
 */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "query/query.h"

int floe_test_failures;

/* The test files, in this order: a file that uses another's fixture comes after it (store/store.c
 * before store/share.c and background/object_door.c, catalog/table.c before
 * catalog/replication_queue.c and athena/query_claim.c). */
#include "generated/constraints.c"
#include "generated/parse.c"
#include "generated/query.c"
#include "runtime/base/json.c"
#include "runtime/base/percent.c"
#include "runtime/athena/results.c"
#include "runtime/athena/explain_io.c"
#include "runtime/athena/hive_ddl.c"
#include "runtime/athena/schema_ddl.c"
#include "runtime/trino/results.c"
#include "runtime/catalog/page_token.c"
#include "runtime/catalog/policy.c"
#include "runtime/authz/authz.c"
#include "runtime/authz/glue_access.c"
#include "runtime/s3tables/router.c"
#include "runtime/iceberg_rest/iceberg_rest_router.c"
#include "runtime/iceberg_rest/iceberg_rest_response.c"
#include "runtime/iceberg_rest/iceberg_rest_request.c"
#include "runtime/http/sigv4.c"
#include "runtime/http/sigv4_sign.c"
#include "runtime/http/sigv4_verify.c"
#include "runtime/http/codec.c"
#include "runtime/iceberg_rest/iceberg_rest_glue.c"
#include "runtime/iceberg_rest/iceberg_rest_error_of.c"
#include "runtime/catalog/iceberg_create.c"
#include "runtime/s3/address.c"
#include "runtime/s3/checksum.c"
#include "runtime/s3/chunked.c"
#include "runtime/s3/conditional.c"
#include "runtime/s3/xml.c"
#include "runtime/s3/sigv2.c"
#include "runtime/query/query_form.c"
#include "runtime/awsjson/awsjson_codec.c"
#include "runtime/store/store.c"
#include "runtime/store/share.c"
#include "runtime/catalog/janitor.c"
#include "runtime/background/object_door.c"
#include "runtime/background/loop.c"
#include "runtime/replication/rewrite.c"
#include "runtime/db/statements.c"
#include "runtime/db/sql.c"
#include "runtime/db/checkpoint.c"
#include "runtime/catalog/table.c"
#include "runtime/catalog/replication_queue.c"
#include "runtime/athena/query_claim.c"
#include "runtime/catalog/configuration.c"
#include "runtime/catalog/glue_table.c"
#include "runtime/iam/iam_state.c"
#include "runtime/authz/input_cache.c"
#include "runtime/cloudformation/stack.c"
#include "runtime/cloudformation/template_url.c"
#include "runtime/maintenance/snapshot_select.c"
#include "runtime/maintenance/runner.c"
#include "runtime/maintenance/reach.c"

static const floe_test_entry_t tests[] = {
#define TEST_ENTRY(name) {#name, test_##name},
#include "test_list.h"
#undef TEST_ENTRY
};

int main(int argc, char **argv)
{
    int rc;

    if (floe_codec_init() != 0 || floe_router_init() != 0 || floe_iceberg_rest_router_init() != 0 ||
        floe_query_init() != 0) {
        fprintf(stderr, "cannot initialise the codec or the router\n");
        return 1;
    }
    rc = floe_test_run(tests, sizeof(tests) / sizeof(tests[0]), argc, argv);
    floe_codec_thread_exit();
    return rc;
}

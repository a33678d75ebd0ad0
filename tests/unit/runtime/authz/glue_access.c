/* Tests of runtime/authz/glue_access.c: the Glue resources a call on S3 Tables' federated catalog names. */
#include <string.h>

#include "authz/glue_access.h"
#include "harness.h"

#define GLUE_HEAD "arn:aws:glue:us-east-1:111122223333:"

TEST(authz_glue_resources_are_every_level_from_the_catalog_down)
{
    h2o_mem_pool_t pool;
    floe_call_t call;
    floe_scope_t scope = {"111122223333", "us-east-1"};
    floe_authz_glue_target_t table = {"111122223333", "shared", "sales", "orders"};
    floe_authz_glue_target_t schema = {"111122223333", "shared", "sales", NULL};
    floe_authz_glue_target_t account = {"111122223333", NULL, NULL, NULL};
    floe_authz_glue_target_t default_database = {"111122223333", NULL, "sales", NULL};
    static const char *const want[] = {GLUE_HEAD "catalog", GLUE_HEAD "catalog/s3tablescatalog",
                                       GLUE_HEAD "catalog/s3tablescatalog/shared",
                                       GLUE_HEAD "database/s3tablescatalog/shared/sales",
                                       GLUE_HEAD "table/s3tablescatalog/shared/sales/orders"};
    const char *got[FLOE_AUTHZ_GLUE_LEVELS];
    size_t n;

    h2o_mem_init_pool(&pool);
    floe_call_init(&call, &pool, NULL, NULL);
    floe_call_set_scope(&call, &scope);
    n = floe_authz_glue_resources(&call, &table, got);
    CHECK(n == 5, "a table names five levels");
    for (size_t i = 0; i < n; i++)
        CHECK(strcmp(got[i], want[i]) == 0, "each level is the ARN AWS's guides write for it");
    CHECK(floe_authz_glue_resources(&call, &schema, got) == 4 && strcmp(got[3], want[3]) == 0,
          "a namespace stops at its database");
    CHECK(floe_authz_glue_resources(&call, &account, got) == 1 && strcmp(got[0], want[0]) == 0,
          "no bucket: the account's catalog alone");
    CHECK(floe_authz_glue_resources(&call, &default_database, got) == 2 && strcmp(got[0], want[0]) == 0 &&
              strcmp(got[1], GLUE_HEAD "database/sales") == 0,
          "a database of the default catalog: the catalog, then the database");
    h2o_mem_clear_pool(&pool);
}

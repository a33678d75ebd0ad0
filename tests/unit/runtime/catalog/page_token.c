/* Tests of runtime/catalog/page_token.c: tokens round-trip and foreign tokens are refused. */
#include <string.h>

#include "call/call.h"
#include "catalog/page_token.h"
#include "harness.h"

TEST(page_token_round_trips)
{
    h2o_mem_pool_t pool;
    floe_call_t call;
    const char *keys[] = {"a", "ab", "abc", "my-bucket-0042", ""};
    h2o_mem_init_pool(&pool);
    floe_call_init(&call, &pool, NULL, NULL);
    for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
        char *token = floe_page_token_encode(&call, "ListTableBuckets|p", keys[i]);
        char *back = floe_page_token_decode(&call, "ListTableBuckets|p", token);
        CHECK(back != NULL && strcmp(back, keys[i]) == 0, "a token decodes to the key it was made from");
        CHECK(strspn(token, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") == strlen(token),
              "tokens are URL-safe");
    }
    h2o_mem_clear_pool(&pool);
}

TEST(page_token_garbage_is_refused)
{
    h2o_mem_pool_t pool;
    floe_call_t call;
    h2o_mem_init_pool(&pool);
    floe_call_init(&call, &pool, NULL, NULL);
    CHECK(floe_page_token_decode(&call, "L", "not a token!") == NULL, "characters outside base64url are refused");
    CHECK(floe_page_token_decode(&call, "L", "aGVsbG8") == NULL, "valid base64url without Floe's tag is refused");
    CHECK(floe_page_token_decode(&call, "ListNamespaces|b1|", floe_page_token_encode(&call, "ListNamespaces|b2|", "k")) ==
              NULL,
          "a token issued for another listing (another bucket, prefix or operation) is refused");
    h2o_mem_clear_pool(&pool);
}

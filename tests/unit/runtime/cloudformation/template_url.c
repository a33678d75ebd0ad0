/*
 * Tests of runtime/cloudformation/template_url.c: which TemplateURLs name an object of Floe's own
 * S3, and which bucket and key each names, in every form the SDKs and the CLI write.
 */
#include <string.h>

#include <h2o/memory.h>

#include "call/call.h"
#include "cloudformation/template_url.h"
#include "harness.h"

/* true when `url` parses to exactly `bucket` and `key`. */
static bool url_names(floe_call_t *call, const char *url, const char *bucket, const char *key)
{
    char *b = NULL, *k = NULL;

    if (!floe_template_url_parse(call, url, &b, &k))
        return false;
    return strcmp(b, bucket) == 0 && strcmp(k, key) == 0;
}

TEST(template_url_reads_every_s3_url_form)
{
    h2o_mem_pool_t pool;
    floe_call_t call;

    h2o_mem_init_pool(&pool);
    floe_call_init(&call, &pool, NULL, NULL);
    CHECK(url_names(&call, "http://127.0.0.1:4566/tpl/big.yaml", "tpl", "big.yaml"),
          "the CLI's path-style URL on its endpoint names bucket and key");
    CHECK(url_names(&call, "http://localhost:4566/tpl/dir/a%20b.yaml?versionId=3", "tpl", "dir/a b.yaml"),
          "a path-style key is percent-decoded and the query string is ignored");
    CHECK(url_names(&call, "http://floe:4566/tpl/t.json", "tpl", "t.json"), "a one-label host is Floe itself");
    CHECK(url_names(&call, "http://[::1]:4566/tpl/t.json", "tpl", "t.json"), "an IPv6 literal is Floe itself");
    CHECK(url_names(&call, "https://s3.amazonaws.com/tpl/k/t.yaml", "tpl", "k/t.yaml"), "s3.amazonaws.com path-style");
    CHECK(url_names(&call, "https://s3.eu-west-1.amazonaws.com/tpl/t.yaml", "tpl", "t.yaml"),
          "s3.REGION.amazonaws.com path-style");
    CHECK(url_names(&call, "https://s3-eu-west-1.amazonaws.com/tpl/t.yaml", "tpl", "t.yaml"), "s3-REGION path-style");
    CHECK(url_names(&call, "https://s3.dualstack.us-east-2.amazonaws.com/tpl/t.yaml", "tpl", "t.yaml"),
          "dualstack path-style");
    CHECK(url_names(&call, "https://tpl.s3.amazonaws.com/t.yaml", "tpl", "t.yaml"), "virtual-hosted on s3.amazonaws.com");
    CHECK(url_names(&call, "https://my.tpl.s3.us-east-1.amazonaws.com/a/t.yaml#x", "my.tpl", "a/t.yaml"),
          "virtual-hosted with a region, a dotted bucket and a fragment");
    CHECK(url_names(&call, "HTTPS://TPL.S3-US-WEST-2.AMAZONAWS.COM/t.yaml", "tpl", "t.yaml"),
          "scheme and host are case-insensitive");
    CHECK(url_names(&call, "https://tpl.s3.cn-north-1.amazonaws.com.cn/t.yaml", "tpl", "t.yaml"), "China's domain");
    CHECK(url_names(&call, "http://tpl.localhost:4566/t%2By.yaml", "tpl", "t+y.yaml"), "virtual-hosted on localhost");
    CHECK(url_names(&call, "http://tpl.s3.localhost:4566/t.yaml", "tpl", "t.yaml"), "virtual-hosted on s3.localhost");
    CHECK(url_names(&call, "http://s3.localhost:4566/tpl/t.yaml", "tpl", "t.yaml"), "path-style on s3.localhost");
    h2o_mem_clear_pool(&pool);
}

TEST(template_url_refuses_what_is_not_floes_s3)
{
    h2o_mem_pool_t pool;
    floe_call_t call;
    char *b, *k;
    static const char *const refused[] = {
        "s3://tpl/t.yaml",                               /* not a URL CloudFormation reads */
        "https://example.com/tpl/t.yaml",                /* another service */
        "https://raw.githubusercontent.com/o/r/t.yaml",  /* another service */
        "https://tpl.s3-website-us-east-1.amazonaws.com/t.yaml", /* a static website */
        "https://ec2.amazonaws.com/tpl/t.yaml",          /* another AWS service */
        "http://127.0.0.1:4566/tpl",                     /* no key */
        "http://127.0.0.1:4566/tpl/",                    /* an empty key */
        "http://127.0.0.1:4566/",                        /* no bucket */
        "https://tpl.s3.amazonaws.com/",                 /* no key */
        "http://127.0.0.1:4566/tpl/a%zz",                /* a bad escape */
        "http://127.0.0.1:4566/tpl/a%00b",               /* a NUL */
        "http://user@127.0.0.1:4566/tpl/t.yaml",         /* user info */
    };

    h2o_mem_init_pool(&pool);
    floe_call_init(&call, &pool, NULL, NULL);
    for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
        bool ok = floe_template_url_parse(&call, refused[i], &b, &k);
        if (ok)
            fprintf(stderr, "    read as S3: %s\n", refused[i]);
        CHECK(!ok, "a URL that is not an object of Floe's S3 is refused");
    }
    h2o_mem_clear_pool(&pool);
}

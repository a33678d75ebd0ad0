/* Tests of runtime/maintenance/reach.c's location sets. */
#include <stdio.h>

#include "harness.h"
#include "maintenance/reach.h"

TEST(reach_set_finds_what_was_added_sorted_or_not)
{
    floe_reach_set_t set = {0};
    char path[64];

    for (int i = 0; i < 500; i++) {
        snprintf(path, sizeof(path), "s3://w/data/%03d.parquet", (i * 37) % 500);
        floe_reach_set_add(&set, path);
        floe_reach_set_add(&set, path); /* duplicates are dropped */
    }
    CHECK(floe_reach_set_has(&set, "s3://w/data/123.parquet"), "an added path is found before sealing");
    floe_reach_set_seal(&set);
    CHECK(set.n == 500, "sealing drops duplicates");
    CHECK(floe_reach_set_has(&set, "s3://w/data/000.parquet") && floe_reach_set_has(&set, "s3://w/data/499.parquet"),
          "every added path is found");
    CHECK(!floe_reach_set_has(&set, "s3://w/data/500.parquet"), "a path never added is not");
    floe_reach_set_add(&set, "s3://w/late");
    CHECK(floe_reach_set_has(&set, "s3://w/late"), "a path added after sealing is found too");
    floe_reach_set_dispose(&set);
}

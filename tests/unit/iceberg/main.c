/*
 * The Iceberg library's unit-test runner: `floe_iceberg_unit <test>` runs one test from
 * test_list.h beside this file; alone it runs them all. It links runtime/iceberg/ and the pure
 * utilities it uses, nothing else (see tests/CMakeLists.txt).
 */
#include <stdio.h>
#include <string.h>

#include "harness.h"

int floe_test_failures;

#include "iceberg_commit.c"
#include "iceberg_json.c"
#include "iceberg_metadata.c"
#include "iceberg_schema.c"
#include "iceberg_spec.c"
#include "iceberg_types.c"
#include "parquet_footer.c"
#include "parquet_stats.c"
#include "parquet_stitch.c"

typedef struct test_entry {
    const char *name;
    void (*fn)(void);
} test_entry_t;

static const test_entry_t tests[] = {
#define TEST_ENTRY(name) {#name, test_##name},
#include "test_list.h"
#undef TEST_ENTRY
};

int main(int argc, char **argv)
{
    size_t n = sizeof(tests) / sizeof(tests[0]);
    int ran = 0;

    for (size_t i = 0; i < n; i++) {
        if (argc > 1 && strcmp(argv[1], tests[i].name) != 0)
            continue;
        tests[i].fn();
        ran++;
    }
    if (ran == 0) {
        fprintf(stderr, "no test named %s\n", argc > 1 ? argv[1] : "(none)");
        return 2;
    }
    if (floe_test_failures)
        fprintf(stderr, "%d check(s) failed\n", floe_test_failures);
    return floe_test_failures ? 1 : 0;
}

/*
 * The policy library's unit-test runner: `floe_policy_unit <test>` runs one test from test_list.h
 * beside this file; alone it runs them all. It links runtime/policy/ and the allocator, nothing
 * else (see tests/CMakeLists.txt), so the library stays pure.
 */
#include <stdio.h>
#include <string.h>

#include "harness.h"

int floe_test_failures;

#include "policy_eval.c"
#include "policy_match.c"
#include "policy_parse.c"

static const floe_test_entry_t tests[] = {
#define TEST_ENTRY(name) {#name, test_##name},
#include "test_list.h"
#undef TEST_ENTRY
};

int main(int argc, char **argv)
{
    return floe_test_run(tests, sizeof(tests) / sizeof(tests[0]), argc, argv);
}

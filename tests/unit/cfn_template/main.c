/*
 * The CloudFormation template library's unit-test runner: `floe_cfn_template_unit <test>` runs one
 * test from test_list.h beside this file; alone it runs them all. It links runtime/cfn_template/
 * and the pure utilities it uses, nothing else (see tests/CMakeLists.txt).
 */
#include <stdio.h>
#include <string.h>

#include "harness.h"

int floe_test_failures;

#include "intrinsic.c"
#include "plan.c"
#include "resource_types.c"
#include "template.c"
#include "yaml.c"

static const floe_test_entry_t tests[] = {
#define TEST_ENTRY(name) {#name, test_##name},
#include "test_list.h"
#undef TEST_ENTRY
};

int main(int argc, char **argv)
{
    return floe_test_run(tests, sizeof(tests) / sizeof(tests[0]), argc, argv);
}

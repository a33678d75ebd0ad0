/*
 * The Iceberg library's unit-test runner: `floe_iceberg_unit <test>` runs one test from
 * test_list.h beside this file; alone it runs them all. It links runtime/iceberg/ and the pure
 * utilities it uses, nothing else (see tests/CMakeLists.txt).
 */
#include <stdio.h>
#include <string.h>

#include "harness.h"

int floe_test_failures;

#include "avro_container.c"
#include "compact.c"
#include "hive_type.c"
#include "iceberg_commit.c"
#include "iceberg_json.c"
#include "iceberg_metadata.c"
#include "iceberg_schema.c"
#include "iceberg_spec.c"
#include "iceberg_types.c"
#include "iceberg_value.c"
#include "manifest.c"
#include "parquet_filter.c"
#include "parquet_map.c"
#include "parquet_footer.c"
#include "parquet_stats.c"
#include "parquet_stitch.c"
#include "puffin.c"
#include "row_lineage.c"
#include "snapshot_counts.c"

static const floe_test_entry_t tests[] = {
#define TEST_ENTRY(name) {#name, test_##name},
#include "test_list.h"
#undef TEST_ENTRY
};

int main(int argc, char **argv)
{
    return floe_test_run(tests, sizeof(tests) / sizeof(tests[0]), argc, argv);
}

/*
 * libFuzzer harness for the AWS Glue Iceberg REST endpoint's catalog ids (iceberg_rest/iceberg_rest_glue.h):
 * any bytes, as a NUL-terminated catalog id, through the parser and the warehouse it becomes. A
 * table bucket it accepts must come back as an ARN and a prefix that fit and name that bucket.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "iceberg_rest/iceberg_rest_glue.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const floe_scope_t scope = {"111122223333", "us-east-1"};
    char *id = malloc(size + 1);
    floe_glue_catalog_t c;
    floe_glue_warehouse_t wh;

    memcpy(id, data, size);
    id[size] = '\0';
    if (floe_glue_catalog_parse(id, &c) == FLOE_GLUE_CATALOG_TABLE_BUCKET &&
        floe_glue_warehouse_of(id, &scope, &wh) == FLOE_GLUE_WAREHOUSE_OK) {
        size_t n = strlen(wh.arn), b = strlen(c.bucket);
        if (n + 1 >= sizeof(wh.arn) || n < b || strcmp(wh.arn + n - b, c.bucket) != 0 ||
            strlen(wh.prefix) + 1 >= sizeof(wh.prefix))
            abort(); /* an accepted bucket must come back whole */
    }
    free(id);
    return 0;
}

/*
 * libFuzzer harness for Iceberg metadata.json (runtime/iceberg_metadata.h): parse, serialize,
 * parse the output again and serialize it again. Besides the sanitizers it checks the module's
 * promises: what it writes it can read, the canonical text is a fixed point (parse then
 * serialize of canonical text gives the same bytes), a refusal carries a reason and leaves the
 * metadata zeroed, and the file-name and location helpers accept whatever the file holds.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "iceberg/iceberg_metadata.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void expect(int cond)
{
    if (!cond)
        abort();
}

static void exercise_helpers(const floe_iceberg_metadata_t *md)
{
    int64_t id;
    char *name = floe_iceberg_metadata_next_file_name(md->location, "00000000-0000-4000-8000-000000000000");
    char *location = floe_iceberg_location_normalize(md->location);

    expect(name != NULL && location != NULL);
    free(name);
    free(location);
    if (floe_iceberg_metadata_current_snapshot_id(md, &id))
        expect(floe_iceberg_metadata_snapshot(md, id) != NULL);
    expect(floe_iceberg_metadata_schema(md, md->current_schema_id) != NULL);
    expect(floe_iceberg_metadata_spec(md, md->default_spec_id) != NULL);
    expect(floe_iceberg_metadata_sort_order(md, md->default_sort_order_id) != NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    floe_iceberg_metadata_t md, again;
    floe_iceberg_error_t err;
    char *first, *second;

    if (floe_iceberg_metadata_parse((const char *)data, size, &md, &err) != 0) {
        expect(err.code == FLOE_ICEBERG_EINVALID && err.message[0] != '\0' && md.schemas == NULL);
        return 0;
    }
    exercise_helpers(&md);
    first = floe_iceberg_metadata_serialize(&md);
    if (floe_iceberg_metadata_parse(first, strlen(first), &again, &err) != 0)
        abort(); /* Floe wrote a metadata.json it cannot read back */
    second = floe_iceberg_metadata_serialize(&again);
    expect(strcmp(first, second) == 0);
    free(first);
    free(second);
    floe_iceberg_metadata_dispose(&again);
    floe_iceberg_metadata_dispose(&md);
    return 0;
}

/*
 * libFuzzer harness for Glue (Hive) column types as Iceberg types (iceberg/hive_type.h): any
 * bytes, as a NUL-terminated type. A refusal carries a message and no output; an accepted type
 * is a string or an object whose list, map and struct members are all there.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "iceberg/hive_type.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Whether an accepted type holds what an Iceberg type of its kind must. */
static int well_formed(const cJSON *t)
{
    const cJSON *kind = cJSON_GetObjectItemCaseSensitive(t, "type"), *f;

    if (cJSON_IsString(t))
        return 1;
    if (!cJSON_IsString(kind))
        return 0;
    if (strcmp(kind->valuestring, "list") == 0)
        return well_formed(cJSON_GetObjectItemCaseSensitive(t, "element"));
    if (strcmp(kind->valuestring, "map") == 0)
        return well_formed(cJSON_GetObjectItemCaseSensitive(t, "key")) &&
               well_formed(cJSON_GetObjectItemCaseSensitive(t, "value"));
    if (strcmp(kind->valuestring, "struct") != 0 || !cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(t, "fields")))
        return 0;
    cJSON_ArrayForEach(f, cJSON_GetObjectItemCaseSensitive(t, "fields"))
    {
        if (!cJSON_IsString(cJSON_GetObjectItemCaseSensitive(f, "name")) ||
            !well_formed(cJSON_GetObjectItemCaseSensitive(f, "type")))
            return 0;
    }
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    floe_iceberg_error_t err;
    cJSON *type = NULL;

    memcpy(text, data, size);
    text[size] = '\0';
    if (floe_iceberg_type_from_hive(text, &type, &err) == FLOE_ICEBERG_OK) {
        if (type == NULL || !well_formed(type))
            abort();
    } else if (type != NULL || err.message[0] == '\0') {
        abort(); /* a refusal carries a reason and no output */
    }
    cJSON_Delete(type);
    free(text);
    return 0;
}

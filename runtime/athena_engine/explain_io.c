/* Trino's EXPLAIN IO answer, read (explain_io.h). */
#include <stdlib.h>

#include "athena_engine/explain_io.h"
#include "base/failure.h"
#include "base/xalloc.h"

static const char *string_of(const cJSON *obj, const char *name)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, name);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* {"catalog": c, "schemaTable": {"schema": s, "table": t}} into *out: true when all three are strings. */
static bool table_of(const cJSON *obj, floe_explain_table_t *out)
{
    const cJSON *named = cJSON_GetObjectItemCaseSensitive(obj, "schemaTable");

    out->catalog = string_of(obj, "catalog");
    out->schema = string_of(named, "schema");
    out->table = string_of(named, "table");
    return out->catalog != NULL && out->schema != NULL && out->table != NULL;
}

int floe_explain_io_read(const char *text, floe_explain_io_t *out)
{
    const cJSON *inputs, *input, *output;
    size_t i = 0;

    *out = (floe_explain_io_t){0};
    out->doc = cJSON_Parse(text);
    inputs = cJSON_GetObjectItemCaseSensitive(out->doc, "inputTableColumnInfos");
    if (!cJSON_IsObject(out->doc) || !cJSON_IsArray(inputs))
        goto Invalid;
    out->n_inputs = (size_t)cJSON_GetArraySize(inputs);
    out->inputs = floe_xcalloc(out->n_inputs + 1, sizeof(*out->inputs));
    cJSON_ArrayForEach(input, inputs)
    {
        if (!table_of(cJSON_GetObjectItemCaseSensitive(input, "table"), &out->inputs[i++]))
            goto Invalid;
    }
    output = cJSON_GetObjectItemCaseSensitive(out->doc, "outputTable");
    out->has_output = output != NULL && !cJSON_IsNull(output);
    if (out->has_output && !table_of(output, &out->output))
        goto Invalid;
    return FLOE_OK;
Invalid:
    floe_explain_io_dispose(out);
    return FLOE_EINVAL;
}

void floe_explain_io_dispose(floe_explain_io_t *io)
{
    free(io->inputs);
    cJSON_Delete(io->doc);
    *io = (floe_explain_io_t){0};
}

/* A query's result file read back (athena_results.h). */
#include <stdlib.h>

#include <cjson/cJSON.h>

#include "athena/athena_results.h"
#include "base/failure.h"
#include "store/store.h"

#define BUCKET_MAX 256
#define KEY_MAX 2048

int floe_athena_result_read(floe_call_t *call, const floe_athena_query_row_t *q, size_t skip, size_t max,
                            floe_athena_csv_record_t **rows, size_t *n, bool *more)
{
    char bucket[BUCKET_MAX], key[KEY_MAX], *data = NULL;
    size_t len = 0;
    int rc;

    *rows = NULL;
    *n = 0;
    *more = false;
    if (floe_athena_result_place(q->output_location, q->id, ".csv", bucket, sizeof(bucket), key, sizeof(key)) != FLOE_OK)
        return FLOE_EINVAL;
    rc = floe_store_read_object(floe_call_state(call), floe_call_config(call)->data_dir, bucket, key, &data, &len);
    if (rc == FLOE_ENOTFOUND)
        return FLOE_ENOTFOUND;
    if (rc != FLOE_OK)
        return floe_fail(call, FLOE_EFAIL, FLOE_SUBJECT_OBJECT, "reading the result file s3://%s/%s", bucket, key);
    rc = floe_athena_csv_read(data, len, skip, max, rows, n, more);
    free(data);
    return rc;
}

int floe_athena_result_columns(floe_call_t *call, const floe_athena_query_row_t *q, floe_athena_column_t **cols,
                               size_t *n)
{
    cJSON *doc = q->result_columns != NULL ? cJSON_Parse(q->result_columns) : cJSON_CreateArray();
    const cJSON *c;

    *n = 0;
    *cols = NULL;
    if (!cJSON_IsArray(doc)) {
        cJSON_Delete(doc);
        return FLOE_EINVAL;
    }
    *cols = floe_call_alloc(call, sizeof(**cols) * ((size_t)cJSON_GetArraySize(doc) + 1));
    cJSON_ArrayForEach(c, doc)
    {
        floe_athena_column_t *col = &(*cols)[(*n)++];
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(c, "name");
        const cJSON *type = cJSON_GetObjectItemCaseSensitive(c, "type");

        col->name = floe_call_strdup(call, cJSON_IsString(name) ? name->valuestring : "");
        col->type = floe_call_strdup(call, cJSON_IsString(type) ? type->valuestring : "varchar");
        col->precision = (int)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(c, "precision"));
        col->scale = (int)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(c, "scale"));
    }
    cJSON_Delete(doc);
    return FLOE_OK;
}

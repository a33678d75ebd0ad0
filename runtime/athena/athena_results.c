/* A query's result file read back (athena_results.h). */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "athena/athena_results.h"
#include "base/failure.h"
#include "base/xalloc.h"
#include "store/store.h"

#define BUCKET_MAX 256
#define KEY_MAX 2048

#define PAGE_WINDOW (256 * 1024) /* bytes read for a page at first: a page of 1,000 modest rows */

/* Appends src's n records to *rows. */
static void append_records(floe_athena_csv_record_t **rows, size_t *n, floe_athena_csv_record_t *src, size_t k)
{
    if (k > 0) {
        *rows = floe_xrealloc(*rows, (*n + k) * sizeof(**rows));
        memcpy(*rows + *n, src, k * sizeof(*src));
        *n += k;
    }
    free(src);
}

int floe_athena_result_read(floe_call_t *call, const floe_athena_query_row_t *q, uint64_t offset, size_t max,
                            floe_athena_csv_record_t **rows, size_t *n, uint64_t *next)
{
    char bucket[BUCKET_MAX], key[KEY_MAX];
    size_t window = PAGE_WINDOW;
    uint64_t size = 0;

    *rows = NULL;
    *n = 0;
    *next = 0;
    if (floe_athena_result_place(q->output_location, q->id, ".csv", bucket, sizeof(bucket), key, sizeof(key)) != FLOE_OK)
        return FLOE_EINVAL;
    /* only this page's bytes are read, so a long result's pages cost the same from first to last */
    while (*n < max) {
        floe_athena_csv_record_t *got;
        char *data = NULL;
        size_t len = 0, k, used;
        int rc = floe_store_read_object_range(floe_call_state(call), floe_call_config(call)->data_dir, bucket, key,
                                              offset, window, &data, &len, &size);

        if (rc == FLOE_ENOTFOUND)
            return FLOE_ENOTFOUND;
        if (rc != FLOE_OK)
            return floe_fail(call, FLOE_EFAIL, FLOE_SUBJECT_OBJECT, "reading the result file s3://%s/%s", bucket, key);
        rc = floe_athena_csv_read(data, len, offset + len >= size, max - *n, &got, &k, &used);
        free(data);
        if (rc != FLOE_OK) {
            floe_athena_csv_records_free(*rows, *n);
            *rows = NULL;
            *n = 0;
            return rc;
        }
        append_records(rows, n, got, k);
        offset += used;
        if (offset >= size)
            break;
        if (k == 0)
            window *= 2; /* one record longer than the window */
    }
    *next = offset < size ? offset : 0;
    return FLOE_OK;
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

int floe_athena_result_write_empty(floe_call_t *call, const floe_athena_query_row_t *q)
{
    const char *suffixes[] = {".csv", ".csv.metadata"}, *contents[] = {"", "[]"};
    const char *data_dir = floe_call_config(call)->data_dir;

    for (size_t i = 0; i < 2; i++) {
        char bucket[BUCKET_MAX], key[KEY_MAX], md5[33];
        floe_store_object_t obj = {.key = key, .content_type = i == 0 ? "text/csv" : "application/octet-stream",
                                   .etag = md5, .last_modified_ms = (int64_t)floe_call_now(call)};
        floe_store_bucket_t b;
        floe_store_blob_t blob;
        int rc;

        if (floe_athena_result_place(q->output_location, q->id, suffixes[i], bucket, sizeof(bucket), key,
                                     sizeof(key)) != FLOE_OK ||
            floe_store_bucket_get(floe_call_state(call), call->pool, bucket, &b) != FLOE_OK)
            return FLOE_ENOTFOUND;
        if (floe_store_blob_put(data_dir, contents[i], strlen(contents[i]), &blob, md5) != FLOE_OK)
            return floe_fail(call, FLOE_EFAIL, FLOE_SUBJECT_OBJECT, "writing the result file s3://%s/%s", bucket, key);
        memcpy(obj.file_id, blob.id, sizeof(obj.file_id));
        obj.size = (int64_t)strlen(contents[i]);
        rc = floe_store_object_commit(floe_call_state(call), data_dir, b.id, &obj, NULL);
        if (rc != FLOE_OK) {
            floe_store_blob_discard(&blob);
            if (rc == FLOE_ENOTFOUND)
                return FLOE_ENOTFOUND;
            return floe_fail(call, FLOE_EFAIL, FLOE_SUBJECT_OBJECT, "writing the result file s3://%s/%s", bucket, key);
        }
    }
    return FLOE_OK;
}

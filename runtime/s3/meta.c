/*
 * The metadata round trip of meta.h. Header names arrive lower-cased from h2o and are kept that
 * way, as S3 returns user metadata names (seen with boto3: {"Metadata": {"color": "blue"}}).
 */
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "s3/body.h"
#include "s3/error.h"
#include "s3/meta.h"

#define USER_META_PREFIX "x-amz-meta-"

/* The representation headers S3 stores with an object and returns on GET and HEAD. */
static const char *const stored_headers[] = {
    "cache-control", "content-disposition", "content-language", "expires", "x-amz-website-redirect-location",
};

static bool is_user_meta(const h2o_iovec_t *name)
{
    return name->len > sizeof(USER_META_PREFIX) - 1 &&
           memcmp(name->base, USER_META_PREFIX, sizeof(USER_META_PREFIX) - 1) == 0;
}

/* Adds the x-amz-meta-* headers; returns their size in bytes (names without the prefix). */
static size_t add_user_meta(floe_s3_req_t *r, cJSON *json)
{
    size_t total = 0;

    for (size_t i = 0; i < r->req->headers.size; i++) {
        const h2o_header_t *h = &r->req->headers.entries[i];
        if (!is_user_meta(h->name))
            continue;
        char *name = floe_s3_strndup(r, h->name->base, h->name->len);
        char *value = floe_s3_strndup(r, h->value.base, h->value.len);
        cJSON_DeleteItemFromObjectCaseSensitive(json, name); /* a repeated header: the last one wins */
        cJSON_AddStringToObject(json, name, value);
        total += h->name->len - (sizeof(USER_META_PREFIX) - 1) + h->value.len;
    }
    return total;
}

int floe_s3_meta_from_request(floe_s3_req_t *r, floe_s3_meta_t *out)
{
    cJSON *json = cJSON_CreateObject();
    char *value, *text;
    size_t user_bytes;

    out->content_type = floe_s3_header(r, "content-type");
    if (out->content_type == NULL || *out->content_type == '\0')
        out->content_type = FLOE_S3_DEFAULT_CONTENT_TYPE;
    for (size_t i = 0; i < sizeof(stored_headers) / sizeof(stored_headers[0]); i++) {
        if ((value = floe_s3_header(r, stored_headers[i])) != NULL)
            cJSON_AddStringToObject(json, stored_headers[i], value);
    }
    if ((value = floe_s3_body_content_encoding(r)) != NULL)
        cJSON_AddStringToObject(json, "content-encoding", value);
    user_bytes = add_user_meta(r, json);
    out->headers = NULL;
    if (json->child != NULL && (text = cJSON_PrintUnformatted(json)) != NULL) {
        out->headers = floe_s3_strndup(r, text, strlen(text));
        free(text);
    }
    cJSON_Delete(json);
    if (user_bytes > FLOE_S3_MAX_USER_METADATA)
        return floe_s3_fail(r, FLOE_S3_MetadataTooLarge, NULL, NULL);
    return 0;
}

void floe_s3_meta_add_headers(floe_s3_req_t *r, const char *headers_json)
{
    cJSON *json, *item;

    if (headers_json == NULL || (json = cJSON_Parse(headers_json)) == NULL)
        return;
    cJSON_ArrayForEach(item, json)
    {
        if (cJSON_IsString(item))
            floe_s3_add_header(r, item->string, item->valuestring);
    }
    cJSON_Delete(json);
}

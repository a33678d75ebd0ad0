/*
 * The console's namespace and table lists (api_routes.h), a page at a time, and the search over table
 * names (the `prefix` of the table list). A continuation token (catalog/page_token.h) carries the
 * last item's sort key and is good only for the listing (bucket, namespace, prefix) it came from.
 */
#include <string.h>

#include "catalog/namespace.h"
#include "catalog/page_token.h"
#include "catalog/table.h"
#include "console/api_routes.h"

/* The key a token resumes after ("" from the start), or NULL after answering 400. */
static const char *resume_after(floe_console_req_t *r, const char *listing)
{
    const char *token = floe_console_param(r, "token");
    const char *after;

    if (token == NULL)
        return "";
    if ((after = floe_page_token_decode(&r->call, listing, token)) == NULL)
        floe_console_fail(r, 400, "The continuation token is not one of this listing.");
    return after;
}

static void write_next(floe_json_t *json, const char *token)
{
    floe_json_key(json, "nextToken");
    if (token != NULL)
        floe_json_string(json, token);
    else
        floe_json_raw(json, "null");
}

/* The bucket ?arn names, in the scope it names. FLOE_OK, or FLOE_EFAIL after answering. */
static int enter_bucket(floe_console_req_t *r, floe_bucket_row_t *bucket)
{
    const char *arn = floe_console_required(r, "arn");

    if (arn == NULL || floe_console_scope_from_arn(r, arn))
        return FLOE_EFAIL;
    if (floe_lookup_bucket(&r->call, arn, bucket))
        return floe_console_fail_call(r);
    return FLOE_OK;
}

int floe_console_namespaces(floe_console_req_t *r)
{
    const char *prefix = floe_console_param(r, "prefix"), *after;
    floe_bucket_row_t bucket;
    floe_namespace_row_t *rows;
    size_t n;
    char *listing, *next = NULL;
    floe_json_t *json;
    int page_size;

    if (floe_console_page_size(r, &page_size) || enter_bucket(r, &bucket))
        return FLOE_EFAIL;
    listing = floe_call_printf(&r->call, "console-namespaces|%s|%s", bucket.arn, prefix ? prefix : "");
    if ((after = resume_after(r, listing)) == NULL)
        return FLOE_EFAIL;
    if (floe_namespace_list(&r->call, bucket.id, after, prefix, page_size + 1, &rows, &n))
        return floe_console_fail_call(r);
    if (n > (size_t)page_size) /* the extra row only says that another page follows */
        next = floe_page_token_encode(&r->call, listing, rows[(n = (size_t)page_size) - 1].name);
    json = floe_console_json(r);
    floe_json_object_begin(json);
    floe_json_key(json, "items");
    floe_json_array_begin(json);
    for (size_t i = 0; i < n; i++) {
        floe_json_object_begin(json);
        floe_json_key(json, "name");
        floe_json_string(json, rows[i].name);
        floe_json_key(json, "namespaceId");
        floe_json_string(json, rows[i].namespace_id);
        floe_json_key(json, "createdAt");
        floe_json_timestamp(json, rows[i].created_at);
        floe_json_key(json, "createdBy");
        floe_json_string(json, rows[i].created_by);
        floe_json_object_end(json);
    }
    floe_json_array_end(json);
    write_next(json, next);
    floe_json_object_end(json);
    return floe_console_send_json(r);
}

void floe_console_write_table_summary(floe_json_t *json, const floe_table_row_t *t)
{
    floe_json_key(json, "name");
    floe_json_string(json, t->name);
    floe_json_key(json, "namespace");
    floe_json_string(json, t->ns.name);
    floe_json_key(json, "arn");
    floe_json_string(json, t->arn);
    floe_json_key(json, "format");
    floe_json_string(json, t->format);
    floe_json_key(json, "type");
    floe_json_string(json, t->type);
    floe_json_key(json, "createdAt");
    floe_json_timestamp(json, t->created_at);
    floe_json_key(json, "modifiedAt");
    floe_json_timestamp(json, t->modified_at);
}

/* Splits a table cursor "namespace/name" (a namespace name has no '/') into q's after_* fields. */
static void set_cursor(floe_call_t *call, const char *after, floe_table_list_query_t *q)
{
    const char *slash = strchr(after, '/');

    if (slash == NULL)
        return;
    q->after_ns = floe_call_strndup(call, after, (size_t)(slash - after));
    q->after_name = slash + 1;
}

int floe_console_tables(floe_console_req_t *r)
{
    const char *ns_name = floe_console_param(r, "namespace"), *prefix = floe_console_param(r, "prefix"), *after;
    floe_table_list_query_t q = {0};
    floe_bucket_row_t bucket;
    floe_namespace_row_t ns;
    floe_table_row_t *rows;
    size_t n;
    char *listing, *next = NULL;
    floe_json_t *json;
    int page_size;

    if (floe_console_page_size(r, &page_size) || enter_bucket(r, &bucket))
        return FLOE_EFAIL;
    if (ns_name != NULL && floe_lookup_namespace(&r->call, &bucket, ns_name, &ns))
        return floe_console_fail_call(r);
    listing = floe_call_printf(&r->call, "console-tables|%s|%s|%s", bucket.arn, ns_name ? ns_name : "",
                               prefix ? prefix : "");
    if ((after = resume_after(r, listing)) == NULL)
        return FLOE_EFAIL;
    q = (floe_table_list_query_t){&bucket, ns_name ? &ns : NULL, prefix, NULL, NULL, page_size + 1};
    set_cursor(&r->call, after, &q);
    if (floe_table_list(&r->call, &q, &rows, &n))
        return floe_console_fail_call(r);
    if (n > (size_t)page_size) {
        n = (size_t)page_size;
        next = floe_page_token_encode(&r->call, listing,
                                      floe_call_printf(&r->call, "%s/%s", rows[n - 1].ns.name, rows[n - 1].name));
    }
    json = floe_console_json(r);
    floe_json_object_begin(json);
    floe_json_key(json, "items");
    floe_json_array_begin(json);
    for (size_t i = 0; i < n; i++) {
        floe_json_object_begin(json);
        floe_console_write_table_summary(json, &rows[i]);
        floe_json_object_end(json);
    }
    floe_json_array_end(json);
    write_next(json, next);
    floe_json_object_end(json);
    return floe_console_send_json(r);
}

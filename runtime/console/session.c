/*
 * The console's session and scopes routes (api_routes.h): what the account and region picker offers.
 * A scope "holds state" when it has a table bucket or a CloudFormation stack.
 */
#include <string.h>

#include "catalog/table_bucket.h"
#include "cloudformation/stack_store.h"
#include "console/api_routes.h"

int floe_console_session(floe_console_req_t *r)
{
    const floe_config_t *config = r->w->config;
    floe_json_t *json = floe_console_json(r);

    floe_json_object_begin(json);
    floe_json_key(json, "strictSignatures");
    floe_json_bool(json, config->strict_signatures);
    floe_json_key(json, "account");
    if (r->is_signed_account)
        floe_json_string(json, r->account);
    else
        floe_json_raw(json, "null");
    floe_json_key(json, "defaultAccount");
    floe_json_string(json, config->account_id);
    floe_json_key(json, "defaultRegion");
    floe_json_string(json, config->region);
    floe_json_key(json, "version");
    floe_json_string(json, FLOE_VERSION);
    floe_json_object_end(json);
    return floe_console_send_json(r);
}

static int compare_scopes(const floe_scope_t *a, const floe_scope_t *b)
{
    int c = strcmp(a->account_id, b->account_id);
    return c != 0 ? c : strcmp(a->region, b->region);
}

static void write_scope(floe_json_t *json, const floe_scope_t *s, bool has_buckets, bool has_stacks)
{
    floe_json_object_begin(json);
    floe_json_key(json, "account");
    floe_json_string(json, s->account_id);
    floe_json_key(json, "region");
    floe_json_string(json, s->region);
    floe_json_key(json, "hasTableBuckets");
    floe_json_bool(json, has_buckets);
    floe_json_key(json, "hasStacks");
    floe_json_bool(json, has_stacks);
    floe_json_object_end(json);
}

/* Writes the union of two sorted scope lists, each scope once. */
static void write_union(floe_json_t *json, const floe_scope_t *a, size_t n_a, const floe_scope_t *b, size_t n_b)
{
    size_t i = 0, j = 0;

    while (i < n_a || j < n_b) {
        int c = i == n_a ? 1 : j == n_b ? -1 : compare_scopes(&a[i], &b[j]);
        write_scope(json, c <= 0 ? &a[i] : &b[j], c <= 0, c >= 0);
        i += c <= 0;
        j += c >= 0;
    }
}

int floe_console_scopes(floe_console_req_t *r)
{
    const char *account = r->is_signed_account ? r->account : NULL;
    floe_scope_t *buckets, *stacks;
    size_t n_buckets, n_stacks;
    floe_json_t *json;

    if (floe_table_bucket_scopes(&r->call, account, &buckets, &n_buckets) ||
        floe_stack_store_scopes(&r->call, account, &stacks, &n_stacks))
        return floe_console_fail_call(r);
    json = floe_console_json(r);
    floe_json_object_begin(json);
    floe_json_key(json, "scopes");
    floe_json_array_begin(json);
    write_union(json, buckets, n_buckets, stacks, n_stacks);
    floe_json_array_end(json);
    floe_json_object_end(json);
    return floe_console_send_json(r);
}

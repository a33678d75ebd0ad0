/* Trino's access control questions, answered as --enforce-iam decides (authorize.h). */
#include <string.h>

#include <cjson/cJSON.h>

#include "athena/athena_store.h"
#include "athena_engine/authorize.h"
#include "athena_engine/catalogs.h"
#include "authz/table_access.h"
#include "base/failure.h"
#include "base/log.h"
#include "http/response.h"

static const struct {
    const char *operation, *action;
} actions[] = {
    {"SelectFromColumns", "s3tables:GetTableData"},
    {"InsertIntoTable", "s3tables:PutTableData"},
    {"DeleteFromTable", "s3tables:PutTableData"},
    {"UpdateTableColumns", "s3tables:PutTableData"},
    {"TruncateTable", "s3tables:PutTableData"},
    {"CreateTable", "s3tables:CreateTable"},
    {"DropTable", "s3tables:DeleteTable"},
    {"RenameTable", "s3tables:RenameTable"},
    {"SetTableProperties", "s3tables:UpdateTableMetadataLocation"},
    {"AddColumn", "s3tables:UpdateTableMetadataLocation"},
    {"DropColumn", "s3tables:UpdateTableMetadataLocation"},
    {"RenameColumn", "s3tables:UpdateTableMetadataLocation"},
    {"AlterColumn", "s3tables:UpdateTableMetadataLocation"},
    {"SetTableComment", "s3tables:UpdateTableMetadataLocation"},
    {"SetColumnComment", "s3tables:UpdateTableMetadataLocation"},
    {"CreateSchema", "s3tables:CreateNamespace"},
    {"DropSchema", "s3tables:DeleteNamespace"},
};

static void answer(h2o_req_t *req, bool allowed)
{
    const char *body = allowed ? "{\"result\":true}" : "{\"result\":false}";
    floe_response_send(req, 200, "application/json", body, strlen(body));
}

static const char *string_at(const cJSON *obj, const char *a, const char *b)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, a);
    if (b != NULL)
        v = cJSON_GetObjectItemCaseSensitive(v, b);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static const char *action_of(const char *operation)
{
    for (size_t i = 0; operation != NULL && i < sizeof(actions) / sizeof(actions[0]); i++) {
        if (strcmp(actions[i].operation, operation) == 0)
            return actions[i].action;
    }
    return NULL;
}

/* The decision for query `id` on `resource` (Trino's {table: ...} or {schema: ...}). */
static bool decide(floe_call_t *call, const char *id, const char *action, const cJSON *resource)
{
    const cJSON *object = cJSON_GetObjectItemCaseSensitive(resource, "table");
    const char *catalog, *table_name = NULL;
    char account[FLOE_TRINO_CATALOG_MAX], region[FLOE_TRINO_CATALOG_MAX], bucket[FLOE_TRINO_CATALOG_MAX];
    floe_athena_query_row_t q;
    floe_authz_decision_t decision;
    floe_authz_target_t target;
    floe_scope_t scope;
    bool found;

    if (object != NULL)
        table_name = string_at(object, "tableName", NULL);
    else
        object = cJSON_GetObjectItemCaseSensitive(resource, "schema");
    catalog = string_at(object, "catalogName", NULL);
    if (floe_athena_query_find(call, id, &found, &q) != FLOE_OK || !found || catalog == NULL)
        return false;
    if (!floe_trino_catalog_parts(catalog, account, region, bucket))
        return true; /* Trino's own catalogs (system): nothing of S3 Tables */
    snprintf(scope.account_id, sizeof(scope.account_id), "%s", q.account);
    snprintf(scope.region, sizeof(scope.region), "%s", q.region);
    floe_call_set_scope(call, &scope);
    target.arn = floe_call_printf(call, "arn:aws:s3tables:%s:%s:bucket/%s", region, account, bucket);
    target.namespace_ = (char *)string_at(object, "schemaName", NULL);
    target.name = table_name;
    if (floe_authz_table_access(call, q.caller_key, NULL, action, &target, &decision) != FLOE_OK)
        return false;
    if (!decision.is_allowed)
        floe_athena_query_deny(call, id, floe_authz_message(call, &decision));
    return decision.is_allowed;
}

void floe_engine_authorize_handle(floe_worker_t *w, h2o_req_t *req)
{
    size_t base = strlen(FLOE_ENGINE_AUTHORIZE_BASE "/"), secret = strlen(w->config->engine_secret);
    const char *user, *action;
    cJSON *body, *input;
    floe_call_t call;
    bool allowed = true;

    if (req->input.path.len != base + secret ||
        memcmp(req->input.path.base + base, w->config->engine_secret, secret) != 0) {
        floe_response_send(req, 403, "text/plain", "forbidden\n", 10);
        return;
    }
    body = cJSON_ParseWithLength(req->entity.base, req->entity.len);
    input = cJSON_GetObjectItemCaseSensitive(body, "input");
    user = string_at(cJSON_GetObjectItemCaseSensitive(input, "context"), "identity", "user");
    action = action_of(string_at(input, "action", "operation"));
    /* Floe's own statements (user "floe") and what maps to no S3 Tables action are allowed */
    if (user != NULL && action != NULL && strncmp(user, FLOE_ENGINE_USER_PREFIX, strlen(FLOE_ENGINE_USER_PREFIX)) == 0) {
        floe_call_init(&call, &req->pool, w->state, w->config);
        allowed = decide(&call, user + strlen(FLOE_ENGINE_USER_PREFIX), action,
                         cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(input, "action"), "resource"));
    } else if (body == NULL) {
        allowed = false;
    }
    cJSON_Delete(body);
    answer(req, allowed);
}

/* Trino's access control questions, answered as --enforce-iam decides (authorize.h). */
#include <string.h>

#include <cjson/cJSON.h>

#include "athena/athena_store.h"
#include "athena_engine/authorize.h"
#include "athena_engine/catalogs.h"
#include "authz/glue_access.h"
#include "authz/input_cache.h"
#include "authz/table_access.h"
#include "base/failure.h"
#include "base/log.h"
#include "http/response.h"

/* Each Trino operation's S3 Tables action, and the Glue Data Catalog actions (comma-separated)
 * Athena needs on the table's or schema's Glue resources (authorize.h). */
typedef struct access_actions {
    const char *operation, *action, *glue;
} access_actions_t;

static const access_actions_t actions[] = {
    {"SelectFromColumns", "s3tables:GetTableData", "glue:GetTable"},
    {"InsertIntoTable", "s3tables:PutTableData", "glue:GetTable,glue:UpdateTable"},
    {"DeleteFromTable", "s3tables:PutTableData", "glue:GetTable,glue:UpdateTable"},
    {"UpdateTableColumns", "s3tables:PutTableData", "glue:GetTable,glue:UpdateTable"},
    {"TruncateTable", "s3tables:PutTableData", "glue:GetTable,glue:UpdateTable"},
    {"CreateTable", "s3tables:CreateTable", "glue:CreateTable"},
    {"DropTable", "s3tables:DeleteTable", "glue:GetTable,glue:DeleteTable"},
    {"RenameTable", "s3tables:RenameTable", "glue:GetTable,glue:UpdateTable"},
    {"SetTableProperties", "s3tables:UpdateTableMetadataLocation", "glue:GetTable,glue:UpdateTable"},
    {"AddColumn", "s3tables:UpdateTableMetadataLocation", "glue:GetTable,glue:UpdateTable"},
    {"DropColumn", "s3tables:UpdateTableMetadataLocation", "glue:GetTable,glue:UpdateTable"},
    {"RenameColumn", "s3tables:UpdateTableMetadataLocation", "glue:GetTable,glue:UpdateTable"},
    {"AlterColumn", "s3tables:UpdateTableMetadataLocation", "glue:GetTable,glue:UpdateTable"},
    {"SetTableComment", "s3tables:UpdateTableMetadataLocation", "glue:GetTable,glue:UpdateTable"},
    {"SetColumnComment", "s3tables:UpdateTableMetadataLocation", "glue:GetTable,glue:UpdateTable"},
    {"CreateSchema", "s3tables:CreateNamespace", "glue:CreateDatabase"},
    {"DropSchema", "s3tables:DeleteNamespace", "glue:GetDatabase,glue:DeleteDatabase"},
};

#define GLUE_ACTION_MAX 32

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

static const access_actions_t *actions_of(const char *operation)
{
    for (size_t i = 0; operation != NULL && i < sizeof(actions) / sizeof(actions[0]); i++) {
        if (strcmp(actions[i].operation, operation) == 0)
            return &actions[i];
    }
    return NULL;
}

/* Decides each Glue action of `glue` (comma-separated) for query `q`'s caller on every level of
 * `target`: FLOE_OK with *out the first refusal, or the last allowance; FLOE_EFAIL when the caller's
 * key is no one's. */
static int glue_decide(floe_call_t *call, const floe_athena_query_row_t *q, const char *glue,
                       const floe_authz_glue_target_t *target, floe_authz_decision_t *out)
{
    char action[GLUE_ACTION_MAX];

    while (*glue != '\0') {
        size_t len = strcspn(glue, ",");

        snprintf(action, sizeof(action), "%.*s", (int)len, glue);
        glue += len + (glue[len] == ',');
        if (floe_authz_glue_access(call, q->caller_key, NULL, action, target, out) != FLOE_OK)
            return FLOE_EFAIL;
        if (!out->is_allowed)
            break;
    }
    return FLOE_OK;
}

/* The decision of `op` for query `id` on table `table` (NULL for a schema's) of `schema` in Trino catalog
 * `catalog`: the S3 Tables action, then each Glue action, the first refusal recorded on the query. */
static int decide_access(floe_call_t *call, const char *id, const access_actions_t *op, const char *catalog,
                         const char *schema, const char *table, bool *allowed)
{
    char account[FLOE_TRINO_CATALOG_MAX], region[FLOE_TRINO_CATALOG_MAX], bucket[FLOE_TRINO_CATALOG_MAX];
    floe_athena_query_row_t q;
    floe_authz_decision_t decision;
    floe_authz_target_t target;
    floe_authz_glue_target_t glue;
    floe_scope_t scope;
    bool found, in_default;

    *allowed = false;
    if (floe_athena_query_find(call, id, &found, &q) != FLOE_OK)
        return FLOE_EFAIL;
    if (!found || catalog == NULL)
        return FLOE_OK;
    in_default = floe_trino_default_catalog_parts(catalog, account, region);
    if (!in_default && !floe_trino_catalog_parts(catalog, account, region, bucket)) {
        *allowed = true; /* Trino's own catalogs (system): nothing of S3 Tables */
        return FLOE_OK;
    }
    snprintf(scope.account_id, sizeof(scope.account_id), "%s", q.account);
    snprintf(scope.region, sizeof(scope.region), "%s", q.region);
    floe_call_set_scope(call, &scope);
    target.namespace_ = schema;
    target.name = table;
    /* a table of Glue's default catalog is Glue's alone: its actions on catalog, database/<db> and
     * table/<db>/<table> decide, as Athena asks Glue */
    glue = (floe_authz_glue_target_t){floe_call_printf(call, "%s", account),
                                      in_default ? NULL : floe_call_printf(call, "%s", bucket), schema, table};
    decision = (floe_authz_decision_t){.is_allowed = true};
    if (!in_default) {
        target.arn = floe_call_printf(call, "arn:aws:s3tables:%s:%s:bucket/%s", region, account, bucket);
        if (floe_authz_table_access(call, q.caller_key, NULL, op->action, &target, &decision) != FLOE_OK)
            return FLOE_EFAIL;
    }
    if (decision.is_allowed && glue_decide(call, &q, op->glue, &glue, &decision) != FLOE_OK)
        return FLOE_EFAIL;
    if (!decision.is_allowed)
        floe_athena_query_deny(call, id, floe_authz_message(call, &decision));
    *allowed = decision.is_allowed;
    return FLOE_OK;
}

/* The decision for query `id` on `resource`, Trino's {table: ...} or {schema: ...}; false when it
 * cannot be made. */
static bool decide(floe_call_t *call, const char *id, const access_actions_t *op, const cJSON *resource)
{
    const cJSON *object = cJSON_GetObjectItemCaseSensitive(resource, "table");
    const char *table_name = NULL;
    bool allowed;

    if (object != NULL)
        table_name = string_at(object, "tableName", NULL);
    else
        object = cJSON_GetObjectItemCaseSensitive(resource, "schema");
    return decide_access(call, id, op, string_at(object, "catalogName", NULL), string_at(object, "schemaName", NULL),
                         table_name, &allowed) == FLOE_OK &&
           allowed;
}

int floe_engine_decide_table(floe_call_t *call, const char *id, const char *operation, const char *catalog,
                             const char *schema, const char *table, bool *allowed)
{
    const access_actions_t *op = actions_of(operation);

    *allowed = false;
    if (op == NULL)
        return FLOE_EINVAL;
    return decide_access(call, id, op, catalog, schema, table, allowed);
}

int floe_engine_caller_is_root(floe_call_t *call, const char *id, bool *is_root)
{
    floe_athena_query_row_t q;
    floe_principal_t *principal;
    floe_scope_t scope;
    bool found;

    *is_root = false;
    if (floe_athena_query_find(call, id, &found, &q) != FLOE_OK)
        return FLOE_EFAIL;
    if (!found || q.caller_key == NULL)
        return FLOE_OK;
    snprintf(scope.account_id, sizeof(scope.account_id), "%s", q.account); /* a root key's account */
    snprintf(scope.region, sizeof(scope.region), "%s", q.region);
    floe_call_set_scope(call, &scope);
    if (floe_authz_principal_of_key(call, q.caller_key, &principal) != FLOE_OK)
        return FLOE_EFAIL;
    *is_root = principal->kind == FLOE_PRINCIPAL_ROOT && strcmp(principal->account_id, q.account) == 0;
    return FLOE_OK;
}

void floe_engine_authorize_handle(floe_worker_t *w, h2o_req_t *req)
{
    size_t base = strlen(FLOE_ENGINE_AUTHORIZE_BASE "/"), secret = strlen(w->config->engine_secret);
    const access_actions_t *op;
    const char *user;
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
    op = actions_of(string_at(input, "action", "operation"));
    /* Floe's own statements (user "floe") and what maps to no S3 Tables action are allowed */
    if (user != NULL && op != NULL && strncmp(user, FLOE_ENGINE_USER_PREFIX, strlen(FLOE_ENGINE_USER_PREFIX)) == 0) {
        floe_call_init(&call, &req->pool, w->state, w->config);
        allowed = decide(&call, user + strlen(FLOE_ENGINE_USER_PREFIX), op,
                         cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(input, "action"), "resource"));
    } else if (body == NULL) {
        allowed = false;
    }
    cJSON_Delete(body);
    answer(req, allowed);
}

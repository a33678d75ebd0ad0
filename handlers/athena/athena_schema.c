/*
 * A database's CREATE and DROP in AwsDataCatalog (athena/athena_schema_ddl.h), which Athena runs
 * against Glue's default catalog, not in its engine: the Glue database is made or removed here
 * (catalog/glue_database.h) and the query recorded already ended, SUCCEEDED as a DDL statement
 * with an empty result, or FAILED with Hive's reason, so no engine (Trino) is asked.
 */
#include <string.h>
#include <strings.h>

#include "athena/athena_results.h"
#include "athena_common.h"
#include "authz/glue_access.h"
#include "catalog/glue_database.h"
#include "catalog/glue_table.h"

#define AWS_DATA_CATALOG "AwsDataCatalog"
#define ERROR_CATEGORY_USER 2         /* AWS's Athena error catalog */
#define ERROR_TYPE_USER_QUERY 1301
#define ERROR_TYPE_OUTPUT 1302
#define ERROR_TYPE_ACCESS_DENIED 1100 /* a permission the caller lacks */

bool athena_is_schema_ddl(const char *catalog, const char *sql, floe_schema_ddl_t *out)
{
    return (catalog == NULL || strcasecmp(catalog, AWS_DATA_CATALOG) == 0) && floe_schema_ddl_parse(sql, out);
}

static void failed(floe_awsjson_call_t *call, floe_athena_query_row_t *q, int type, const char *reason)
{
    q->state = "FAILED";
    q->state_reason = floe_call_strdup(&call->super, reason);
    q->has_error = true;
    q->error_category = ERROR_CATEGORY_USER;
    q->error_type = type;
    q->error_message = q->state_reason;
}

/* Whether a DROP without CASCADE meets a database that holds tables, which Hive's RESTRICT
 * refuses: FLOE_OK when it does, FLOE_ENOTFOUND when the DROP may go on, or FLOE_EFAIL. */
static int holds_tables(floe_awsjson_call_t *call, const floe_schema_ddl_t *ddl, const char *name)
{
    floe_glue_table_row_t *rows;
    size_t n;

    if (ddl->is_cascade)
        return FLOE_ENOTFOUND;
    if (floe_glue_table_list(&call->super, name, "", 1, &rows, &n))
        return FLOE_EFAIL;
    return n > 0 ? FLOE_OK : FLOE_ENOTFOUND;
}

/* The Glue database's change: FLOE_OK (q FAILED when Hive refuses it), or FLOE_EFAIL. */
static int change_database(floe_awsjson_call_t *call, const floe_schema_ddl_t *ddl, floe_athena_query_row_t *q)
{
    floe_glue_database_row_t row = {.name = floe_glue_database_name(&call->super, ddl->name)};
    int rc;

    if (ddl->is_drop) {
        if ((rc = holds_tables(call, ddl, row.name)) != FLOE_ENOTFOUND) {
            if (rc == FLOE_OK)
                failed(call, q, ERROR_TYPE_USER_QUERY,
                       floe_call_printf(&call->super,
                                        "FAILED: Execution Error, return code 1 from org.apache.hadoop.hive.ql.exec."
                                        "DDLTask. InvalidOperationException(message:Database %s is not empty. One or "
                                        "more tables exist.)",
                                        row.name));
            return rc == FLOE_EFAIL ? FLOE_EFAIL : FLOE_OK;
        }
        rc = floe_glue_table_drop_database(&call->super, row.name);
        if (rc == FLOE_ENOTFOUND && !ddl->has_if)
            failed(call, q, ERROR_TYPE_USER_QUERY,
                   floe_call_printf(&call->super, "FAILED: SemanticException [Error 10072]: Database does not exist: %s",
                                    row.name));
        return rc == FLOE_EFAIL ? FLOE_EFAIL : FLOE_OK;
    }
    row.description = ddl->has_comment ? floe_call_strdup(&call->super, ddl->comment) : NULL;
    row.location_uri = ddl->has_location ? floe_call_strdup(&call->super, ddl->location) : NULL;
    rc = floe_glue_database_insert(&call->super, &row);
    if (rc == FLOE_EEXISTS && !ddl->has_if)
        failed(call, q, ERROR_TYPE_USER_QUERY,
               floe_call_printf(&call->super,
                                "FAILED: Execution Error, return code 1 from org.apache.hadoop.hive.ql.exec.DDLTask. "
                                "AlreadyExistsException(message:Database %s already exists)",
                                row.name));
    return rc == FLOE_EFAIL ? FLOE_EFAIL : FLOE_OK;
}

/* Under --enforce-iam, the Glue action the statement is (glue:CreateDatabase or DeleteDatabase) on
 * the default catalog and the database, as Athena asks Glue: FLOE_OK, with q FAILED when refused. */
static int authorize(floe_awsjson_call_t *call, const floe_schema_ddl_t *ddl, floe_athena_query_row_t *q,
                     bool *is_allowed)
{
    floe_authz_glue_target_t target = {call->super.scope.account_id, NULL, floe_glue_database_name(&call->super, ddl->name), NULL};
    floe_authz_decision_t decision;

    *is_allowed = true;
    if (!floe_call_config(&call->super)->enforce_iam)
        return FLOE_OK;
    if (floe_authz_glue_access(&call->super, call->super.access_key, NULL,
                               ddl->is_drop ? "glue:DeleteDatabase" : "glue:CreateDatabase", &target, &decision))
        return FLOE_EFAIL;
    *is_allowed = decision.is_allowed;
    if (!decision.is_allowed)
        failed(call, q, ERROR_TYPE_ACCESS_DENIED,
               floe_call_printf(&call->super, "AccessDeniedException: %s", floe_authz_message(&call->super, &decision)));
    return FLOE_OK;
}

int athena_run_schema_ddl(floe_awsjson_call_t *call, const floe_schema_ddl_t *ddl, floe_athena_query_row_t *q)
{
    bool is_allowed;
    int rc;

    q->state = "SUCCEEDED";
    q->statement_type = "DDL";
    if (authorize(call, ddl, q, &is_allowed))
        return floe_athena_fail_internal(call, "authorizing a Glue database's change");
    if (is_allowed && change_database(call, ddl, q))
        return floe_athena_fail_internal(call, "changing a Glue database");
    if (strcmp(q->state, "SUCCEEDED") == 0 && (rc = floe_athena_result_write_empty(&call->super, q)) != FLOE_OK) {
        if (rc != FLOE_ENOTFOUND)
            return floe_athena_fail_internal(call, "writing a query's result file");
        failed(call, q, ERROR_TYPE_OUTPUT, "Unable to verify/create output bucket");
    }
    q->completed_at = floe_call_now(&call->super);
    q->has_completed_at = true;
    if (floe_athena_query_insert(&call->super, q))
        return floe_athena_fail_internal(call, "recording an Athena query");
    return FLOE_OK;
}

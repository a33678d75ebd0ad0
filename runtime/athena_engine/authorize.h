/*
 * --enforce-iam for Athena's queries: the access control Floe's Trino asks before every access it
 * plans (Trino's Open Policy Agent plugin, `access-control.name=opa`, pointed at this route), so
 * the tables a query reads and writes come from Trino's own analysis of it, never from parsing its
 * SQL. Each table access is decided, for the caller who started the query, as the S3 Tables action
 * AWS requires of it (authz/table_access.h), then as the Glue Data Catalog actions Athena needs on
 * S3 Tables' federated catalog (authz/glue_access.h: each on the account's catalog,
 * s3tablescatalog, the bucket's catalog, the database and the table); a refusal is recorded on the
 * query, whose failure then gives AWS's sentence.
 *
 *   Trino's operation                                   S3 Tables action            Glue actions
 *   SelectFromColumns                                   s3tables:GetTableData       GetTable
 *   InsertIntoTable, DeleteFromTable, UpdateTableColumns,
 *   TruncateTable                                       s3tables:PutTableData       GetTable, UpdateTable
 *   CreateTable (and CTAS)                              s3tables:CreateTable        CreateTable
 *   DropTable                                           s3tables:DeleteTable        GetTable, DeleteTable
 *   RenameTable                                         s3tables:RenameTable        GetTable, UpdateTable
 *   SetTableProperties, AddColumn, DropColumn, RenameColumn,
 *   AlterColumn, SetTableComment, SetColumnComment      s3tables:UpdateTableMetadataLocation
 *                                                                                   GetTable, UpdateTable
 *   CreateSchema / DropSchema                           s3tables:CreateNamespace /  CreateDatabase /
 *                                                       DeleteNamespace             GetDatabase, DeleteDatabase
 * Listing (catalogs, schemas, tables, columns) and the rest are allowed: Trino only shows what the
 * REST catalog lists.
 *
 * The route is Floe's engine's alone: its path carries the process's engine secret. A Trino Floe
 * did not start (--athena-trino-url) asks nothing: there Floe asks that Trino for its plan's tables
 * first (EXPLAIN IO, explain_io.h) and decides each as the same operation (floe_engine_decide_table),
 * and a statement without such a plan runs only for its account's root (floe_engine_caller_is_root).
 */
#ifndef FLOE_ATHENA_ENGINE_AUTHORIZE_H
#define FLOE_ATHENA_ENGINE_AUTHORIZE_H

#include <h2o.h>

#include "call/call.h"
#include "call/worker.h"

#define FLOE_ENGINE_AUTHORIZE_BASE "/_floe/engine/authorize" /* then "/<engine secret>" */
#define FLOE_ENGINE_USER_PREFIX "athena-" /* Trino's user for a query: this, then the query's id */

/** Whether query `id` was started by its account's root: FLOE_OK with *is_root, else FLOE_EFAIL
 * (the call's failure says why; a query without a caller's key is no root's). */
int floe_engine_caller_is_root(floe_call_t *call, const char *id, bool *is_root /* OUT */);

/**
 * Decides Trino's `operation` (SelectFromColumns, InsertIntoTable, CreateTable ...: the table above)
 * of query `id` on table `table` (NULL for a schema's operation) of `schema` in Trino catalog
 * `catalog`, for the query's caller, as Trino's access control asks it: FLOE_OK with *allowed (a
 * refusal recorded on the query, floe_athena_query_deny; a catalog not Floe's is allowed), FLOE_EINVAL
 * for an operation not in the table, else FLOE_EFAIL.
 */
int floe_engine_decide_table(floe_call_t *call, const char *id, const char *operation, const char *catalog,
                             const char *schema, const char *table, bool *allowed /* OUT */);

/** Answers one decision request of Trino's OPA plugin: {"result": true|false}. */
void floe_engine_authorize_handle(floe_worker_t *w, h2o_req_t *req);

#endif

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
 * did not start (--athena-trino-url) asks nothing, so there only a caller who may do everything
 * in its account, its root, has queries run (floe_engine_caller_is_root).
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

/** Answers one decision request of Trino's OPA plugin: {"result": true|false}. */
void floe_engine_authorize_handle(floe_worker_t *w, h2o_req_t *req);

#endif

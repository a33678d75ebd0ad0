/*
 * Athena's query executions: StartQueryExecution records the query QUEUED (its context, its result
 * configuration from the request or the workgroup, its workgroup), and the engine
 * (runtime/athena_engine/) runs it on Trino and records how it ended. GetQueryExecution,
 * BatchGetQueryExecution, ListQueryExecutions (newest first), StopQueryExecution, GetQueryResults
 * (from the result file in S3) and GetQueryRuntimeStatistics answer from what is recorded.
 */
#include <stdlib.h>
#include <string.h>

#include "athena/athena_results.h"
#include "athena_common.h"
#include "base/ids.h"

#define LIST_DEFAULT_PAGE 50 /* AWS: MaxResults 0..50 */
#define RESULTS_DEFAULT_PAGE 1000 /* GetQueryResults: MaxResults up to 1000 */
#define LIST_MAX_PAGE 50
#define ENGINE_VERSION "Athena engine version 3"
#define NO_OUTPUT_LOCATION                                                                                     \
    "No output location provided. An output location is required either through the Workgroup result "      \
    "configuration setting or as an API input."

static const char *const states[] = {NULL, "QUEUED", "RUNNING", "SUCCEEDED", "FAILED", "CANCELLED"};
static const char *const statement_types[] = {NULL, "DDL", "DML", "UTILITY"};

static int query_not_found(floe_awsjson_call_t *call, const char *id)
{
    return floe_athena_fail_detail(call, FLOE_ATHENA_ERR_InvalidRequestException, "QUERY_EXECUTION_NOT_FOUND",
                                   "QueryExecution %s was not found", id);
}

static int enum_of(const char *const *names, size_t n, const char *text)
{
    for (size_t i = 1; text != NULL && i < n; i++) {
        if (strcmp(text, names[i]) == 0)
            return (int)i;
    }
    return 0;
}

/* The result configuration a query runs with: the workgroup's when it enforces its own, else the
 * request's, with the workgroup's filling what the request leaves out (AWS's rule). */
static void choose_results(floe_athena_query_row_t *q, const floe_athena_ResultConfiguration *r,
                           const floe_athena_workgroup_row_t *w)
{
    bool use_request = r != NULL && !w->enforce_configuration;

    q->output_location = use_request && r->OutputLocation ? r->OutputLocation : w->output_location;
    q->expected_bucket_owner = use_request && r->ExpectedBucketOwner ? r->ExpectedBucketOwner : w->expected_bucket_owner;
    q->encryption_option = w->encryption_option;
    q->kms_key = w->kms_key;
    if (use_request && r->EncryptionConfiguration != NULL) {
        q->encryption_option = (char *)athena_encryption_text(r->EncryptionConfiguration->EncryptionOption);
        q->kms_key = r->EncryptionConfiguration->KmsKey;
    }
}

int floe_athena_handle_StartQueryExecution(floe_awsjson_call_t *call, const floe_athena_StartQueryExecutionInput *in,
                                           floe_athena_StartQueryExecutionOutput *out)
{
    floe_athena_query_row_t q = {.query_string = in->QueryString, .state = "QUEUED",
                                 .caller_key = (char *)call->super.access_key};
    floe_athena_workgroup_row_t w;
    char id[FLOE_UUID_LEN + 1];
    floe_schema_ddl_t ddl;

    q.workgroup = (char *)athena_workgroup_or_primary(in->WorkGroup);
    if (athena_workgroup_require(call, q.workgroup, &w))
        return FLOE_EFAIL;
    choose_results(&q, in->ResultConfiguration, &w);
    if (q.output_location == NULL)
        return floe_athena_fail_detail(call, FLOE_ATHENA_ERR_InvalidRequestException, "INVALID_INPUT",
                                       NO_OUTPUT_LOCATION);
    if (in->QueryExecutionContext != NULL) {
        q.catalog = in->QueryExecutionContext->Catalog;
        q.database = in->QueryExecutionContext->Database;
    }
    if (in->ExecutionParameters != NULL) {
        q.execution_parameters = in->ExecutionParameters->items;
        q.n_execution_parameters = in->ExecutionParameters->n;
    }
    q.engine_version = w.engine_version;
    q.submitted_at = floe_call_now(&call->super);
    floe_uuid_v4(id);
    q.id = floe_call_strdup(&call->super, id);
    out->QueryExecutionId = q.id;
    if (athena_is_schema_ddl(q.catalog, q.query_string, &ddl)) /* Glue's, not the engine's */
        return athena_run_schema_ddl(call, &ddl, &q);
    if (floe_athena_query_insert(&call->super, &q))
        return floe_athena_fail_internal(call, "recording an Athena query");
    out->QueryExecutionId = q.id;
    return FLOE_OK;
}

static floe_athena_ResultConfiguration *results_of(floe_awsjson_call_t *call, const floe_athena_query_row_t *q)
{
    floe_athena_ResultConfiguration *r = FLOE_ATHENA_NEW(call, ResultConfiguration);
    size_t n = strlen(q->output_location);

    /* where Athena writes a SELECT's result: <location>/<id>.csv */
    r->OutputLocation = floe_call_printf(&call->super, "%s%s%s.csv", q->output_location,
                                         n > 0 && q->output_location[n - 1] == '/' ? "" : "/", q->id);
    r->ExpectedBucketOwner = q->expected_bucket_owner;
    if (q->encryption_option != NULL) {
        r->EncryptionConfiguration = FLOE_ATHENA_NEW(call, EncryptionConfiguration);
        r->EncryptionConfiguration->EncryptionOption = athena_encryption_enum(q->encryption_option);
        r->EncryptionConfiguration->KmsKey = q->kms_key;
    }
    return r;
}

static floe_athena_QueryExecutionStatus *status_of(floe_awsjson_call_t *call, const floe_athena_query_row_t *q)
{
    floe_athena_QueryExecutionStatus *s = FLOE_ATHENA_NEW(call, QueryExecutionStatus);

    s->State = (floe_athena_QueryExecutionState)enum_of(states, sizeof(states) / sizeof(states[0]), q->state);
    s->StateChangeReason = q->state_reason;
    s->SubmissionDateTime = q->submitted_at;
    s->has_SubmissionDateTime = true;
    s->CompletionDateTime = q->completed_at;
    s->has_CompletionDateTime = q->has_completed_at;
    if (q->has_error) {
        s->AthenaError = FLOE_ATHENA_NEW(call, AthenaError);
        s->AthenaError->ErrorCategory = q->error_category;
        s->AthenaError->has_ErrorCategory = true;
        s->AthenaError->ErrorType = q->error_type;
        s->AthenaError->has_ErrorType = true;
        s->AthenaError->Retryable = false;
        s->AthenaError->ErrorMessage = q->error_message;
    }
    return s;
}

static int64_t elapsed_ms(const floe_athena_query_row_t *q)
{
    return q->has_completed_at ? q->completed_at - q->submitted_at : 0;
}

static void fill_execution(floe_awsjson_call_t *call, const floe_athena_query_row_t *q, floe_athena_QueryExecution *e)
{
    e->QueryExecutionId = q->id;
    e->Query = q->query_string;
    e->WorkGroup = q->workgroup;
    e->ResultConfiguration = results_of(call, q);
    e->QueryExecutionContext = FLOE_ATHENA_NEW(call, QueryExecutionContext);
    e->QueryExecutionContext->Catalog = q->catalog;
    e->QueryExecutionContext->Database = q->database;
    e->Status = status_of(call, q);
    e->StatementType = (floe_athena_StatementType)enum_of(statement_types, 4, q->statement_type);
    e->SubstatementType = q->substatement_type;
    if (q->n_execution_parameters > 0) {
        e->ExecutionParameters = FLOE_ATHENA_NEW(call, ExecutionParameters);
        e->ExecutionParameters->items = q->execution_parameters;
        e->ExecutionParameters->n = q->n_execution_parameters;
    }
    e->Statistics = FLOE_ATHENA_NEW(call, QueryExecutionStatistics);
    e->Statistics->EngineExecutionTimeInMillis = q->engine_ms;
    e->Statistics->has_EngineExecutionTimeInMillis = true;
    e->Statistics->DataScannedInBytes = q->data_scanned;
    e->Statistics->has_DataScannedInBytes = true;
    e->Statistics->TotalExecutionTimeInMillis = elapsed_ms(q);
    e->Statistics->has_TotalExecutionTimeInMillis = true;
    e->Statistics->QueryQueueTimeInMillis = q->queue_ms;
    e->Statistics->has_QueryQueueTimeInMillis = q->has_stats;
    e->EngineVersion = FLOE_ATHENA_NEW(call, EngineVersion);
    e->EngineVersion->SelectedEngineVersion = q->engine_version;
    e->EngineVersion->EffectiveEngineVersion = ENGINE_VERSION;
}

/* The query `id`, or InvalidRequestException naming it. */
static int require_query(floe_awsjson_call_t *call, const char *id, floe_athena_query_row_t *q)
{
    bool found;

    if (floe_athena_query_read(&call->super, id, &found, q))
        return floe_athena_fail_internal(call, "reading an Athena query");
    return found ? FLOE_OK : query_not_found(call, id);
}

int floe_athena_handle_GetQueryExecution(floe_awsjson_call_t *call, const floe_athena_GetQueryExecutionInput *in,
                                         floe_athena_GetQueryExecutionOutput *out)
{
    floe_athena_query_row_t q;

    if (require_query(call, in->QueryExecutionId, &q))
        return FLOE_EFAIL;
    out->QueryExecution = FLOE_ATHENA_NEW(call, QueryExecution);
    fill_execution(call, &q, out->QueryExecution);
    return FLOE_OK;
}

int floe_athena_handle_BatchGetQueryExecution(floe_awsjson_call_t *call,
                                              const floe_athena_BatchGetQueryExecutionInput *in,
                                              floe_athena_BatchGetQueryExecutionOutput *out)
{
    size_t n = in->QueryExecutionIds->n;

    out->QueryExecutions = FLOE_ATHENA_NEW(call, QueryExecutionList);
    out->QueryExecutions->items = floe_call_alloc(&call->super, sizeof(floe_athena_QueryExecution) * (n + 1));
    out->UnprocessedQueryExecutionIds = FLOE_ATHENA_NEW(call, UnprocessedQueryExecutionIdList);
    out->UnprocessedQueryExecutionIds->items =
        floe_call_alloc(&call->super, sizeof(floe_athena_UnprocessedQueryExecutionId) * (n + 1));
    for (size_t i = 0; i < n; i++) {
        const char *id = in->QueryExecutionIds->items[i];
        floe_athena_UnprocessedQueryExecutionId *miss;
        floe_athena_query_row_t q;
        bool found;

        if (floe_athena_query_read(&call->super, id, &found, &q))
            return floe_athena_fail_internal(call, "reading Athena queries");
        if (found) {
            fill_execution(call, &q, &out->QueryExecutions->items[out->QueryExecutions->n++]);
            continue;
        }
        miss = &out->UnprocessedQueryExecutionIds->items[out->UnprocessedQueryExecutionIds->n++];
        miss->QueryExecutionId = (char *)id;
        miss->ErrorCode = "QUERY_EXECUTION_NOT_FOUND";
        miss->ErrorMessage = floe_call_printf(&call->super, "QueryExecution %s was not found", id);
    }
    return FLOE_OK;
}

int floe_athena_handle_ListQueryExecutions(floe_awsjson_call_t *call, const floe_athena_ListQueryExecutionsInput *in,
                                           floe_athena_ListQueryExecutionsOutput *out)
{
    int page = athena_page_size(in->has_MaxResults, in->MaxResults, LIST_DEFAULT_PAGE, LIST_MAX_PAGE);
    const char *workgroup = athena_workgroup_or_primary(in->WorkGroup);
    const char *listing = floe_call_printf(&call->super, "ListQueryExecutions|%s", workgroup);
    const char *after = athena_page_after(call, listing, in->NextToken);
    floe_athena_workgroup_row_t w;
    floe_athena_query_row_t *rows;
    size_t n;

    if (after == NULL || athena_workgroup_require(call, workgroup, &w))
        return FLOE_EFAIL;
    if (floe_athena_query_list(&call->super, workgroup, strtoll(after, NULL, 10), page + 1, &rows, &n))
        return floe_athena_fail_internal(call, "listing Athena queries");
    if (n > (size_t)page) {
        n = (size_t)page;
        out->NextToken = athena_page_token_seq(call, listing, rows[n - 1].seq);
    }
    out->QueryExecutionIds = FLOE_ATHENA_NEW(call, QueryExecutionIdList);
    out->QueryExecutionIds->n = n;
    out->QueryExecutionIds->items = floe_call_alloc(&call->super, sizeof(char *) * (n + 1));
    for (size_t i = 0; i < n; i++)
        out->QueryExecutionIds->items[i] = rows[i].id;
    return FLOE_OK;
}

int floe_athena_handle_StopQueryExecution(floe_awsjson_call_t *call, const floe_athena_StopQueryExecutionInput *in,
                                          floe_athena_StopQueryExecutionOutput *out)
{
    floe_athena_query_row_t q;
    (void)out;

    if (require_query(call, in->QueryExecutionId, &q))
        return FLOE_EFAIL;
    /* a query that has finished stays as it is; one queued or running is cancelled */
    if ((strcmp(q.state, "QUEUED") == 0 || strcmp(q.state, "RUNNING") == 0) &&
        floe_athena_query_finish(&call->super, q.id, "CANCELLED", "Query cancelled by user"))
        return floe_athena_fail_internal(call, "cancelling an Athena query");
    return FLOE_OK;
}

/* ResultSetMetadata from the columns the engine recorded, as Athena describes them. */
static floe_athena_ResultSetMetadata *metadata_of(floe_awsjson_call_t *call, const floe_athena_column_t *cols, size_t n)
{
    floe_athena_ResultSetMetadata *m = FLOE_ATHENA_NEW(call, ResultSetMetadata);

    m->ColumnInfo = FLOE_ATHENA_NEW(call, ColumnInfoList);
    m->ColumnInfo->items = floe_call_alloc(&call->super, sizeof(floe_athena_ColumnInfo) * (n + 1));
    m->ColumnInfo->n = n;
    for (size_t i = 0; i < n; i++) {
        floe_athena_ColumnInfo *c = &m->ColumnInfo->items[i];

        memset(c, 0, sizeof(*c));
        c->CatalogName = "hive";
        c->SchemaName = "";
        c->TableName = "";
        c->Name = c->Label = cols[i].name;
        c->Type = cols[i].type;
        c->Precision = cols[i].precision;
        c->Scale = cols[i].scale;
        c->Nullable = FLOE_ATHENA_ColumnNullable_UNKNOWN;
        c->CaseSensitive = strcmp(cols[i].type, "varchar") == 0 || strcmp(cols[i].type, "char") == 0;
    }
    return m;
}

static floe_athena_RowList *rows_of(floe_awsjson_call_t *call, const floe_athena_csv_record_t *records, size_t n)
{
    floe_athena_RowList *rows = FLOE_ATHENA_NEW(call, RowList);

    rows->items = floe_call_alloc(&call->super, sizeof(floe_athena_Row) * (n + 1));
    rows->n = n;
    for (size_t i = 0; i < n; i++) {
        floe_athena_datumList *data = FLOE_ATHENA_NEW(call, datumList);

        data->items = floe_call_alloc(&call->super, sizeof(floe_athena_Datum) * (records[i].n + 1));
        data->n = records[i].n;
        for (size_t j = 0; j < records[i].n; j++) /* NULL: a Datum without VarCharValue, as Athena's */
            data->items[j].VarCharValue =
                records[i].fields[j] != NULL ? floe_call_strdup(&call->super, records[i].fields[j]) : NULL;
        rows->items[i].Data = data;
    }
    return rows;
}

int floe_athena_handle_GetQueryResults(floe_awsjson_call_t *call, const floe_athena_GetQueryResultsInput *in,
                                       floe_athena_GetQueryResultsOutput *out)
{
    int page = athena_page_size(in->has_MaxResults, in->MaxResults, RESULTS_DEFAULT_PAGE, RESULTS_DEFAULT_PAGE);
    const char *listing = floe_call_printf(&call->super, "GetQueryResults|%s", in->QueryExecutionId);
    floe_athena_csv_record_t *records;
    floe_athena_column_t *cols;
    floe_athena_query_row_t q;
    const char *after;
    size_t n, n_cols;
    uint64_t next;
    int rc;

    if (require_query(call, in->QueryExecutionId, &q))
        return FLOE_EFAIL;
    if (strcmp(q.state, "CANCELLED") == 0)
        return floe_athena_fail_detail(call, FLOE_ATHENA_ERR_InvalidRequestException, "RESULT_NOT_FOUND",
                                       "Could not find results");
    if (strcmp(q.state, "FAILED") == 0)
        return floe_athena_fail_detail(call, FLOE_ATHENA_ERR_InvalidRequestException, "INVALID_QUERY_EXECUTION_STATE",
                                       "Query did not finish successfully. Final query state: FAILED");
    if (strcmp(q.state, "SUCCEEDED") != 0)
        return floe_athena_fail_detail(call, FLOE_ATHENA_ERR_InvalidRequestException, "INVALID_QUERY_EXECUTION_STATE",
                                       "Query has not yet finished. Current state: %s", q.state);
    if ((after = athena_page_after(call, listing, in->NextToken)) == NULL)
        return FLOE_EFAIL;
    if (floe_athena_result_columns(&call->super, &q, &cols, &n_cols) != FLOE_OK)
        return floe_athena_fail_internal(call, "reading a query's result columns");
    rc = floe_athena_result_read(&call->super, &q, strtoull(after, NULL, 10), (size_t)page, &records, &n, &next);
    if (rc == FLOE_ENOTFOUND)
        return floe_athena_fail_detail(call, FLOE_ATHENA_ERR_InvalidRequestException, "RESULT_NOT_FOUND",
                                       "Could not find results");
    if (rc == FLOE_EINVAL && in->NextToken != NULL) /* a token made up to land inside a record */
        return floe_athena_fail_detail(call, FLOE_ATHENA_ERR_InvalidRequestException, "INVALID_INPUT",
                                       "Malformed nextPageToken %s", in->NextToken);
    if (rc != FLOE_OK)
        return floe_athena_fail_internal(call, "reading a query's result file");
    out->ResultSet = FLOE_ATHENA_NEW(call, ResultSet);
    out->ResultSet->Rows = rows_of(call, records, n);
    out->ResultSet->ResultSetMetadata = metadata_of(call, cols, n_cols);
    out->UpdateCount = q.update_count; /* 0 for a query, as Athena's */
    out->has_UpdateCount = true;
    if (next != 0)
        out->NextToken = athena_page_token_seq(call, listing, (int64_t)next);
    floe_athena_csv_records_free(records, n);
    return FLOE_OK;
}

int floe_athena_handle_GetQueryRuntimeStatistics(floe_awsjson_call_t *call,
                                                 const floe_athena_GetQueryRuntimeStatisticsInput *in,
                                                 floe_athena_GetQueryRuntimeStatisticsOutput *out)
{
    floe_athena_QueryRuntimeStatisticsTimeline *t;
    floe_athena_query_row_t q;

    if (require_query(call, in->QueryExecutionId, &q))
        return FLOE_EFAIL;
    out->QueryRuntimeStatistics = FLOE_ATHENA_NEW(call, QueryRuntimeStatistics);
    t = out->QueryRuntimeStatistics->Timeline = FLOE_ATHENA_NEW(call, QueryRuntimeStatisticsTimeline);
    t->QueryQueueTimeInMillis = q.queue_ms;
    t->has_QueryQueueTimeInMillis = true;
    t->QueryPlanningTimeInMillis = 0;
    t->has_QueryPlanningTimeInMillis = true;
    t->EngineExecutionTimeInMillis = q.engine_ms;
    t->has_EngineExecutionTimeInMillis = true;
    t->TotalExecutionTimeInMillis = elapsed_ms(&q);
    t->has_TotalExecutionTimeInMillis = true;
    return FLOE_OK;
}

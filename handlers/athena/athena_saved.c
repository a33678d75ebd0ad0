/*
 * Athena's saved SQL: named queries (CreateNamedQuery, GetNamedQuery, ListNamedQueries,
 * DeleteNamedQuery, BatchGetNamedQuery) and prepared statements (CreatePreparedStatement,
 * GetPreparedStatement, ListPreparedStatements, DeletePreparedStatement), each in a workgroup.
 */
#include <stdio.h>
#include <stdlib.h>

#include "athena_common.h"
#include "base/ids.h"

#define NAMED_DEFAULT_PAGE 50 /* AWS: MaxResults 0..50 */
#define NAMED_MAX_PAGE 50
#define PREPARED_DEFAULT_PAGE 50 /* AWS: MaxResults 1..50 */
#define PREPARED_MAX_PAGE 50

static int named_query_not_found(floe_awsjson_call_t *call, const char *id)
{
    return floe_athena_fail(call, FLOE_ATHENA_ERR_InvalidRequestException, "NamedQuery %s was not found", id);
}

static void fill_named(const floe_athena_named_query_row_t *row, floe_athena_NamedQuery *q)
{
    q->NamedQueryId = row->id;
    q->Name = row->name;
    q->Description = row->description;
    q->Database = row->database;
    q->QueryString = row->query_string;
    q->WorkGroup = row->workgroup;
}

int floe_athena_handle_CreateNamedQuery(floe_awsjson_call_t *call, const floe_athena_CreateNamedQueryInput *in,
                                        floe_athena_CreateNamedQueryOutput *out)
{
    floe_athena_named_query_row_t row = {.name = in->Name, .description = in->Description, .database = in->Database,
                                         .query_string = in->QueryString};
    floe_athena_workgroup_row_t w;
    char id[FLOE_UUID_LEN + 1];

    row.workgroup = (char *)athena_workgroup_or_primary(in->WorkGroup);
    if (athena_workgroup_require(call, row.workgroup, &w))
        return FLOE_EFAIL;
    floe_uuid_v4(id);
    row.id = floe_call_strdup(&call->super, id);
    if (floe_athena_named_query_insert(&call->super, &row))
        return floe_athena_fail_internal(call, "saving an Athena named query");
    out->NamedQueryId = row.id;
    return FLOE_OK;
}

int floe_athena_handle_GetNamedQuery(floe_awsjson_call_t *call, const floe_athena_GetNamedQueryInput *in,
                                     floe_athena_GetNamedQueryOutput *out)
{
    floe_athena_named_query_row_t row;
    bool found;

    if (floe_athena_named_query_read(&call->super, in->NamedQueryId, &found, &row))
        return floe_athena_fail_internal(call, "reading an Athena named query");
    if (!found)
        return named_query_not_found(call, in->NamedQueryId);
    out->NamedQuery = FLOE_ATHENA_NEW(call, NamedQuery);
    fill_named(&row, out->NamedQuery);
    return FLOE_OK;
}

int floe_athena_handle_DeleteNamedQuery(floe_awsjson_call_t *call, const floe_athena_DeleteNamedQueryInput *in,
                                        floe_athena_DeleteNamedQueryOutput *out)
{
    bool was_there;
    (void)out;

    if (floe_athena_named_query_remove(&call->super, in->NamedQueryId, &was_there))
        return floe_athena_fail_internal(call, "deleting an Athena named query");
    return was_there ? FLOE_OK : named_query_not_found(call, in->NamedQueryId);
}

int floe_athena_handle_ListNamedQueries(floe_awsjson_call_t *call, const floe_athena_ListNamedQueriesInput *in,
                                        floe_athena_ListNamedQueriesOutput *out)
{
    int page = athena_page_size(in->has_MaxResults, in->MaxResults, NAMED_DEFAULT_PAGE, NAMED_MAX_PAGE);
    const char *workgroup = athena_workgroup_or_primary(in->WorkGroup);
    const char *listing = floe_call_printf(&call->super, "ListNamedQueries|%s", workgroup);
    const char *after = athena_page_after(call, listing, in->NextToken);
    floe_athena_named_query_row_t *rows;
    floe_athena_workgroup_row_t w;
    size_t n;

    if (after == NULL || athena_workgroup_require(call, workgroup, &w))
        return FLOE_EFAIL;
    if (floe_athena_named_query_list(&call->super, workgroup, strtoll(after, NULL, 10), page + 1, &rows, &n))
        return floe_athena_fail_internal(call, "listing Athena named queries");
    if (n > (size_t)page) {
        n = (size_t)page;
        out->NextToken = athena_page_token_seq(call, listing, rows[n - 1].seq);
    }
    out->NamedQueryIds = FLOE_ATHENA_NEW(call, NamedQueryIdList);
    out->NamedQueryIds->n = n;
    out->NamedQueryIds->items = floe_call_alloc(&call->super, sizeof(char *) * (n + 1));
    for (size_t i = 0; i < n; i++)
        out->NamedQueryIds->items[i] = rows[i].id;
    return FLOE_OK;
}

int floe_athena_handle_BatchGetNamedQuery(floe_awsjson_call_t *call, const floe_athena_BatchGetNamedQueryInput *in,
                                          floe_athena_BatchGetNamedQueryOutput *out)
{
    size_t n = in->NamedQueryIds->n;

    out->NamedQueries = FLOE_ATHENA_NEW(call, NamedQueryList);
    out->NamedQueries->items = floe_call_alloc(&call->super, sizeof(floe_athena_NamedQuery) * (n + 1));
    out->UnprocessedNamedQueryIds = FLOE_ATHENA_NEW(call, UnprocessedNamedQueryIdList);
    out->UnprocessedNamedQueryIds->items =
        floe_call_alloc(&call->super, sizeof(floe_athena_UnprocessedNamedQueryId) * (n + 1));
    for (size_t i = 0; i < n; i++) {
        const char *id = in->NamedQueryIds->items[i];
        floe_athena_named_query_row_t row;
        floe_athena_UnprocessedNamedQueryId *miss;
        bool found;

        if (floe_athena_named_query_read(&call->super, id, &found, &row))
            return floe_athena_fail_internal(call, "reading Athena named queries");
        if (found) {
            fill_named(&row, &out->NamedQueries->items[out->NamedQueries->n++]);
            continue;
        }
        miss = &out->UnprocessedNamedQueryIds->items[out->UnprocessedNamedQueryIds->n++];
        miss->NamedQueryId = (char *)id;
        miss->ErrorCode = "INVALID_INPUT";
        miss->ErrorMessage = floe_call_printf(&call->super, "NamedQuery %s was not found", id);
    }
    return FLOE_OK;
}

static int statement_not_found(floe_awsjson_call_t *call, const char *name, const char *workgroup)
{
    return floe_athena_fail_detail(call, FLOE_ATHENA_ERR_ResourceNotFoundException, name,
                                   "Prepared statement %s was not found in workgroup %s.", name, workgroup);
}

int floe_athena_handle_CreatePreparedStatement(floe_awsjson_call_t *call,
                                               const floe_athena_CreatePreparedStatementInput *in,
                                               floe_athena_CreatePreparedStatementOutput *out)
{
    floe_athena_prepared_row_t row = {.workgroup = in->WorkGroup, .name = in->StatementName,
                                      .query_statement = in->QueryStatement, .description = in->Description};
    floe_athena_workgroup_row_t w;
    bool is_taken;
    (void)out;

    if (athena_workgroup_require(call, in->WorkGroup, &w))
        return FLOE_EFAIL;
    if (floe_athena_prepared_insert(&call->super, &row, &is_taken))
        return floe_athena_fail_internal(call, "saving an Athena prepared statement");
    if (is_taken)
        return floe_athena_fail_detail(call, FLOE_ATHENA_ERR_InvalidRequestException, "INVALID_INPUT",
                                       "Prepared statement %s already exists in workgroup %s.", in->StatementName,
                                       in->WorkGroup);
    return FLOE_OK;
}

int floe_athena_handle_GetPreparedStatement(floe_awsjson_call_t *call, const floe_athena_GetPreparedStatementInput *in,
                                            floe_athena_GetPreparedStatementOutput *out)
{
    floe_athena_prepared_row_t row;
    floe_athena_workgroup_row_t w;
    bool found;

    if (athena_workgroup_require(call, in->WorkGroup, &w))
        return FLOE_EFAIL;
    if (floe_athena_prepared_read(&call->super, in->WorkGroup, in->StatementName, &found, &row))
        return floe_athena_fail_internal(call, "reading an Athena prepared statement");
    if (!found)
        return statement_not_found(call, in->StatementName, in->WorkGroup);
    out->PreparedStatement = FLOE_ATHENA_NEW(call, PreparedStatement);
    out->PreparedStatement->StatementName = row.name;
    out->PreparedStatement->QueryStatement = row.query_statement;
    out->PreparedStatement->WorkGroupName = row.workgroup;
    out->PreparedStatement->Description = row.description;
    out->PreparedStatement->LastModifiedTime = row.updated_at;
    out->PreparedStatement->has_LastModifiedTime = true;
    return FLOE_OK;
}

int floe_athena_handle_DeletePreparedStatement(floe_awsjson_call_t *call,
                                               const floe_athena_DeletePreparedStatementInput *in,
                                               floe_athena_DeletePreparedStatementOutput *out)
{
    floe_athena_workgroup_row_t w;
    bool was_there;
    (void)out;

    if (athena_workgroup_require(call, in->WorkGroup, &w))
        return FLOE_EFAIL;
    if (floe_athena_prepared_remove(&call->super, in->WorkGroup, in->StatementName, &was_there))
        return floe_athena_fail_internal(call, "deleting an Athena prepared statement");
    return was_there ? FLOE_OK : statement_not_found(call, in->StatementName, in->WorkGroup);
}

int floe_athena_handle_ListPreparedStatements(floe_awsjson_call_t *call,
                                              const floe_athena_ListPreparedStatementsInput *in,
                                              floe_athena_ListPreparedStatementsOutput *out)
{
    int page = athena_page_size(in->has_MaxResults, in->MaxResults, PREPARED_DEFAULT_PAGE, PREPARED_MAX_PAGE);
    const char *listing = floe_call_printf(&call->super, "ListPreparedStatements|%s", in->WorkGroup);
    const char *after = athena_page_after(call, listing, in->NextToken);
    floe_athena_prepared_row_t *rows;
    floe_athena_workgroup_row_t w;
    size_t n;

    if (after == NULL || athena_workgroup_require(call, in->WorkGroup, &w))
        return FLOE_EFAIL;
    if (floe_athena_prepared_list(&call->super, in->WorkGroup, after, page + 1, &rows, &n))
        return floe_athena_fail_internal(call, "listing Athena prepared statements");
    if (n > (size_t)page) {
        n = (size_t)page;
        out->NextToken = athena_page_token(call, listing, rows[n - 1].name);
    }
    out->PreparedStatements = FLOE_ATHENA_NEW(call, PreparedStatementsList);
    out->PreparedStatements->n = n;
    out->PreparedStatements->items = floe_call_alloc(&call->super, sizeof(floe_athena_PreparedStatementSummary) * (n + 1));
    for (size_t i = 0; i < n; i++) {
        out->PreparedStatements->items[i].StatementName = rows[i].name;
        out->PreparedStatements->items[i].LastModifiedTime = rows[i].updated_at;
        out->PreparedStatements->items[i].has_LastModifiedTime = true;
    }
    return FLOE_OK;
}

/*
 * Column statistics of the default catalog's tables: GetColumnStatisticsForTable,
 * UpdateColumnStatisticsForTable and DeleteColumnStatisticsForTable, which Trino's Hive Glue
 * metastore calls to plan a query (any error but EntityNotFoundException fails it) and after a
 * write. Each column's ColumnStatistics is kept whole (catalog/glue_table.h) and goes with its
 * table. As AWS answers: a column without statistics is an Errors entry of Get (ErrorCode
 * EntityNotFoundException), and deleting statistics a column does not have succeeds.
 */
#include "catalog/glue_database.h"
#include "catalog/glue_table.h"
#include "glue_names.h"
#include "glue_table_default.h"

/* The default catalog's table a request names, as Glue keeps its name, and its database's in
 * *database; NULL with the call failed when the catalog is another or either does not exist. */
static const char *table_of(floe_awsjson_call_t *call, const char *catalog_id, const char *database_name,
                            const char *table, const char **database)
{
    floe_glue_table_row_t row;
    glue_catalog_ref_t ref;
    const char *name;
    int rc;

    glue_catalog_ref_parse(call, catalog_id, &ref);
    if (ref.kind != GLUE_CATALOG_DEFAULT) {
        floe_glue_fail(call, FLOE_GLUE_ERR_InvalidInputException,
                       "Floe keeps column statistics only for the default catalog's tables.");
        return NULL;
    }
    if ((*database = glue_default_database(call, database_name)) == NULL)
        return NULL;
    name = floe_glue_database_name(&call->super, table);
    if ((rc = floe_glue_table_read(&call->super, *database, name, &row)) == FLOE_ENOTFOUND)
        floe_glue_fail(call, FLOE_GLUE_ERR_EntityNotFoundException, "Table %s not found.", table);
    return rc == FLOE_OK ? name : NULL;
}

static void add_missing(floe_awsjson_call_t *call, floe_glue_ColumnErrors *errors, const char *column)
{
    floe_glue_ColumnError *e = &errors->items[errors->n++];

    e->ColumnName = (char *)column;
    e->Error = FLOE_GLUE_NEW(call, ErrorDetail);
    e->Error->ErrorCode = "EntityNotFoundException";
    e->Error->ErrorMessage = floe_call_printf(&call->super, "Column statistics not found for column %s.", column);
}

int floe_glue_handle_GetColumnStatisticsForTable(floe_awsjson_call_t *call,
                                                 const floe_glue_GetColumnStatisticsForTableRequest *in,
                                                 floe_glue_GetColumnStatisticsForTableResponse *out)
{
    const floe_glue_GetColumnNamesList *names = in->ColumnNames;
    const char *database, *table = table_of(call, in->CatalogId, in->DatabaseName, in->TableName, &database);

    out->ColumnStatisticsList = FLOE_GLUE_NEW(call, ColumnStatisticsList);
    out->Errors = FLOE_GLUE_NEW(call, ColumnErrors);
    if (table == NULL)
        return FLOE_EFAIL;
    out->ColumnStatisticsList->items = floe_call_alloc(&call->super, sizeof(floe_glue_ColumnStatistics) * (names->n + 1));
    out->Errors->items = floe_call_alloc(&call->super, sizeof(floe_glue_ColumnError) * (names->n + 1));
    for (size_t i = 0; i < names->n; i++) {
        char *document;
        int rc = floe_glue_table_statistics_read(&call->super, database, table, names->items[i], &document);

        if (rc == FLOE_ENOTFOUND) {
            add_missing(call, out->Errors, names->items[i]);
            continue;
        }
        if (rc != FLOE_OK || floe_glue_ColumnStatistics_from_json(
                                 call, document, &out->ColumnStatisticsList->items[out->ColumnStatisticsList->n++]))
            return FLOE_EFAIL;
    }
    return FLOE_OK;
}

int floe_glue_handle_UpdateColumnStatisticsForTable(floe_awsjson_call_t *call,
                                                    const floe_glue_UpdateColumnStatisticsForTableRequest *in,
                                                    floe_glue_UpdateColumnStatisticsForTableResponse *out)
{
    const char *database, *table = table_of(call, in->CatalogId, in->DatabaseName, in->TableName, &database);

    out->Errors = FLOE_GLUE_NEW(call, ColumnStatisticsErrors);
    if (table == NULL)
        return FLOE_EFAIL;
    for (size_t i = 0; i < in->ColumnStatisticsList->n; i++) {
        const floe_glue_ColumnStatistics *s = &in->ColumnStatisticsList->items[i];
        int rc = floe_glue_table_statistics_put(&call->super, database, table, s->ColumnName,
                                                floe_glue_ColumnStatistics_to_json(call, s));

        if (rc == FLOE_ENOTFOUND) /* the table went meanwhile */
            return floe_glue_fail(call, FLOE_GLUE_ERR_EntityNotFoundException, "Table %s not found.", in->TableName);
        if (rc != FLOE_OK)
            return FLOE_EFAIL;
    }
    return FLOE_OK;
}

int floe_glue_handle_DeleteColumnStatisticsForTable(floe_awsjson_call_t *call,
                                                    const floe_glue_DeleteColumnStatisticsForTableRequest *in,
                                                    floe_glue_DeleteColumnStatisticsForTableResponse *out)
{
    const char *database, *table = table_of(call, in->CatalogId, in->DatabaseName, in->TableName, &database);
    (void)out;

    if (table == NULL)
        return FLOE_EFAIL;
    return floe_glue_table_statistics_remove(&call->super, database, table, in->ColumnName);
}

/*
 * The columns of glue_columns.h: the current schema's fields (catalog/table_schema.h) as Glue's
 * Column, with the parameters Apache Iceberg's Glue catalog writes.
 */
#include <string.h>
#include <strings.h>

#include "catalog/table_schema.h"
#include "glue_columns.h"

static void fill_column(floe_awsjson_call_t *call, const floe_table_column_t *col, floe_glue_Column *c)
{
    floe_glue_ParametersMap *p = FLOE_GLUE_NEW(call, ParametersMap);

    c->Name = col->name;
    c->Type = col->type;
    c->Comment = col->comment;
    p->n = 3;
    p->keys = floe_call_alloc(&call->super, 3 * sizeof(char *));
    p->values = floe_call_alloc(&call->super, 3 * sizeof(char *));
    p->keys[0] = "iceberg.field.current";
    p->values[0] = "true";
    p->keys[1] = "iceberg.field.id";
    p->values[1] = floe_call_printf(&call->super, "%d", col->id);
    p->keys[2] = "iceberg.field.optional";
    p->values[2] = col->required ? "false" : "true";
    c->Parameters = p;
}

/* The list of n columns, in the call's pool. */
static floe_glue_ColumnList *list_of(floe_awsjson_call_t *call, const floe_table_column_t *columns, size_t n)
{
    floe_glue_ColumnList *list = FLOE_GLUE_NEW(call, ColumnList);

    list->items = floe_call_alloc(&call->super, sizeof(floe_glue_Column) * (n + 1));
    for (size_t i = 0; i < n; i++)
        fill_column(call, &columns[i], &list->items[i]);
    list->n = n;
    return list;
}

int glue_columns_of(floe_awsjson_call_t *call, const floe_table_row_t *t, floe_glue_ColumnList **out)
{
    floe_table_column_t *columns;
    size_t n;

    *out = FLOE_GLUE_NEW(call, ColumnList);
    if (floe_table_schema_columns(&call->super, t, &columns, &n))
        return floe_glue_fail_internal(call, "reading a table's schema");
    *out = list_of(call, columns, n);
    return FLOE_OK;
}

void glue_columns_as_athena_writes(floe_awsjson_call_t *call, floe_glue_TableInput *table)
{
    const floe_glue_ParametersMap *p = table->Parameters;
    const char *type = NULL, *location = NULL;
    floe_table_column_t *columns;
    size_t n;

    for (size_t i = 0; p != NULL && i < p->n; i++) {
        if (strcmp(p->keys[i], "table_type") == 0)
            type = p->values[i];
        else if (strcmp(p->keys[i], "metadata_location") == 0)
            location = p->values[i];
    }
    if (!call->super.by_engine || type == NULL || strcasecmp(type, "ICEBERG") != 0 || location == NULL ||
        table->StorageDescriptor == NULL)
        return;
    floe_table_schema_columns_at(&call->super, location, &columns, &n);
    if (n > 0)
        table->StorageDescriptor->Columns = list_of(call, columns, n);
}

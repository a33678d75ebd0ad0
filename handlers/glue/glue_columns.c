/*
 * The columns of glue_columns.h: the current schema's fields (catalog/table_schema.h) as Glue's
 * Column, with the parameters Apache Iceberg's Glue catalog writes.
 */
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

int glue_columns_of(floe_awsjson_call_t *call, const floe_table_row_t *t, floe_glue_ColumnList **out)
{
    floe_glue_ColumnList *list = FLOE_GLUE_NEW(call, ColumnList);
    floe_table_column_t *columns;
    size_t n;

    *out = list;
    if (floe_table_schema_columns(&call->super, t, &columns, &n))
        return floe_glue_fail_internal(call, "reading a table's schema");
    list->items = floe_call_alloc(&call->super, sizeof(floe_glue_Column) * (n + 1));
    for (size_t i = 0; i < n; i++)
        fill_column(call, &columns[i], &list->items[i]);
    list->n = n;
    return FLOE_OK;
}

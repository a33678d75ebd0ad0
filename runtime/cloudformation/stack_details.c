/*
 * What DescribeStackResource and DescribeStackResources add to a resource beyond its row: its
 * Metadata, resolved as AWS resolves it (Ref, Fn::GetAtt, Fn::Sub, Fn::ImportValue ... over the
 * stack's parameters, its resources' physical ids and attributes, and the exports), and its
 * Description, both read from the stack's template. Not for the rows themselves (stack_read.c).
 *
 * The template is parsed and validated again here, on the serving thread, as the engine did when
 * it made the resources; a template that no longer validates (an import whose export is gone)
 * leaves the details absent rather than failing the read. A value that cannot be known (a
 * resource not created yet) is left out of the Metadata with its key, as AWS::NoValue would be.
 */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "base/log.h"
#include "base/xalloc.h"
#include "cloudformation/stack_api.h"
#include "cloudformation/stack_template.h"

typedef struct details_ctx {
    floe_call_t *call;
    const floe_stack_resource_row_t *rows;
    size_t n_rows;
    cJSON **attrs; /* each row's attributes, parsed when first read */
    floe_stack_export_row_t *exports;
    size_t n_exports;
    bool has_exports;
} details_ctx_t;

static const floe_stack_resource_row_t *row_of(details_ctx_t *c, const char *logical_id, size_t *i)
{
    for (*i = 0; *i < c->n_rows; (*i)++) {
        if (strcmp(c->rows[*i].logical_id, logical_id) == 0)
            return c->rows[*i].physical_id != NULL ? &c->rows[*i] : NULL;
    }
    return NULL;
}

static int on_ref(void *ctx, const char *logical_id, const char **value, floe_stack_error_t *err)
{
    const floe_stack_resource_row_t *r;
    size_t i;

    (void)err;
    r = row_of(ctx, logical_id, &i);
    *value = r != NULL ? r->physical_id : NULL;
    return 0;
}

static int on_get_att(void *ctx, const char *logical_id, const char *attribute, const char **value,
                      floe_stack_error_t *err)
{
    details_ctx_t *c = ctx;
    size_t i;
    const floe_stack_resource_row_t *r = row_of(c, logical_id, &i);

    (void)err;
    *value = NULL;
    if (r == NULL || r->attributes == NULL)
        return 0;
    if (c->attrs[i] == NULL)
        c->attrs[i] = cJSON_Parse(r->attributes);
    *value = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c->attrs[i], attribute));
    return 0;
}

static int on_import(void *ctx, const char *export_name, const char **value, floe_stack_error_t *err)
{
    details_ctx_t *c = ctx;

    (void)err;
    *value = NULL;
    if (!c->has_exports && floe_stack_store_exports(c->call, &c->exports, &c->n_exports) == FLOE_OK)
        c->has_exports = true;
    for (size_t i = 0; c->has_exports && i < c->n_exports; i++) {
        if (strcmp(c->exports[i].name, export_name) == 0)
            *value = c->exports[i].value;
    }
    return 0;
}

/* The stack's template parsed and validated with its parameters; NULL (logged) when it fails. */
static floe_stack_template_t *stack_template(const floe_stack_template_ops_t *ops, const floe_stack_row_t *s)
{
    floe_stack_pseudo_t pseudo = {s->account_id, s->region, s->name, s->stack_id};
    cJSON *list = cJSON_Parse(s->parameters != NULL ? s->parameters : "[]"), *item;
    floe_stack_param_value_t *values = floe_xcalloc((size_t)cJSON_GetArraySize(list) + 1, sizeof(*values));
    floe_stack_template_t *t = NULL;
    floe_stack_error_t err;
    size_t n = 0;

    cJSON_ArrayForEach(item, list)
    {
        values[n].key = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(item, "ParameterKey"));
        values[n++].value = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(item, "ParameterValue"));
    }
    if (ops->parse(s->template_body, strlen(s->template_body), &t, &err) != 0 ||
        ops->validate(t, &pseudo, values, n, &err) != 0) {
        floe_log("stack %s: its template no longer validates, so resources show no Metadata: %s", s->name,
                 err.message);
        if (t != NULL)
            ops->free(t);
        t = NULL;
    }
    free(values);
    cJSON_Delete(list);
    return t;
}

/* Removes what the resolver left unknown, with its key or list slot. */
static void drop_unknown(const floe_stack_template_ops_t *ops, cJSON *node)
{
    cJSON *child = node->child, *next;

    while (child != NULL) {
        next = child->next;
        if (ops->is_unknown(child))
            cJSON_Delete(cJSON_DetachItemViaPointer(node, child));
        else
            drop_unknown(ops, child);
        child = next;
    }
}

void floe_stack_resource_details(floe_call_t *call, const floe_stack_row_t *s, const floe_stack_resource_row_t *rows,
                                 size_t n_rows, floe_stack_resource_t *resources, size_t n)
{
    const floe_stack_template_ops_t *ops = floe_stack_template_ops();
    details_ctx_t c = {call, rows, n_rows, floe_xcalloc(n_rows + 1, sizeof(cJSON *)), NULL, 0, false};
    floe_stack_resolver_t resolver = {on_ref, on_get_att, on_import, &c};
    floe_stack_template_t *t;

    if (ops == NULL || ops->resource_details == NULL || s->template_body == NULL || s->template_body[0] == '\0' ||
        (t = stack_template(ops, s)) == NULL)
        goto Exit;
    for (size_t i = 0; i < n; i++) {
        cJSON *metadata = NULL;
        const char *description = NULL;
        floe_stack_error_t err;

        if (ops->resource_details(t, resources[i].logical_id, &resolver, &metadata, &description, &err) != 0)
            continue; /* not in the template: a resource being deleted */
        if (metadata != NULL && !ops->is_unknown(metadata)) {
            drop_unknown(ops, metadata);
            resources[i].metadata = floe_call_keep(call, cJSON_PrintUnformatted(metadata));
        }
        resources[i].description = floe_call_strdup(call, description);
        cJSON_Delete(metadata);
    }
    ops->free(t);
Exit:
    for (size_t i = 0; i < n_rows; i++)
        cJSON_Delete(c.attrs[i]);
    free(c.attrs);
}

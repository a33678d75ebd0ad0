/*
 * The reading half of the stack API (stack.h): DescribeStacks, ListStacks, DescribeStackEvents,
 * DescribeStackResource(s), ListStackResources, GetTemplate, ListExports, DescribeChangeSet and
 * ListChangeSets, from the rows of stack_store.h into the API's structures, in the call's pool.
 */
#include <string.h>

#include <cjson/cJSON.h>

#include "cloudformation/stack.h"
#include "cloudformation/stack_api.h"
#include "cloudformation/stack_status.h"
#include "cloudformation/stack_store.h"

static bool eq(const char *a, const char *b)
{
    return a != NULL && b != NULL && strcmp(a, b) == 0;
}

static char *json_string(floe_call_t *call, const cJSON *object, const char *name)
{
    return floe_call_strdup(call, cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(object, name)));
}

/* ---- stacks ---- */

static void read_outputs(floe_call_t *call, const char *json, floe_stack_info_t *out)
{
    cJSON *list = cJSON_Parse(json != NULL ? json : "[]"), *item;
    size_t i = 0;

    out->outputs = floe_call_alloc(call, ((size_t)cJSON_GetArraySize(list) + 1) * sizeof(*out->outputs));
    cJSON_ArrayForEach(item, list)
    {
        floe_stack_output_t *o = &out->outputs[i++];
        o->key = json_string(call, item, "OutputKey");
        o->value = json_string(call, item, "OutputValue");
        o->description = json_string(call, item, "Description");
        o->export_name = json_string(call, item, "ExportName");
    }
    out->n_outputs = i;
    cJSON_Delete(list);
}

/* A stack as the API shows it; `is_summary` leaves out parameters, outputs and tags. */
static void stack_info(floe_call_t *call, const floe_stack_row_t *s, bool is_summary, floe_stack_info_t *out)
{
    memset(out, 0, sizeof(*out));
    out->stack_id = s->stack_id;
    out->name = s->name;
    out->status = s->status;
    out->status_reason = s->status_reason;
    out->description = s->description;
    out->change_set_id = s->change_set_id;
    out->created_at = s->created_at;
    out->updated_at = s->updated_at;
    out->deleted_at = s->deleted_at;
    out->disable_rollback = s->disable_rollback;
    if (is_summary)
        return;
    floe_stack_read_parameters(call, s->parameters, &out->parameters, &out->n_parameters);
    read_outputs(call, s->outputs, out);
    floe_stack_read_tags(call, s->tags, &out->tags, &out->n_tags);
}

int floe_stack_describe(floe_call_t *call, const char *stack_name, floe_stack_info_t **stacks, size_t *n,
                        char **why)
{
    floe_stack_row_t *rows, one;
    int rc;
    size_t n_rows = 1;

    if (stack_name != NULL) {
        if ((rc = floe_stack_find(call, stack_name, true, &one, why)) != FLOE_OK)
            return rc;
        rows = &one;
    } else if (floe_stack_store_list(call, false, &rows, &n_rows))
        return FLOE_EFAIL;
    *stacks = floe_call_alloc(call, (n_rows + 1) * sizeof(**stacks));
    for (size_t i = 0; i < n_rows; i++)
        stack_info(call, &rows[i], false, &(*stacks)[i]);
    *n = n_rows;
    return FLOE_OK;
}

static bool is_listed(const char *status, const char *const *statuses, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (eq(statuses[i], status))
            return true;
    }
    return n == 0;
}

int floe_stack_list(floe_call_t *call, const char *const *statuses, size_t n_statuses,
                    floe_stack_info_t **stacks, size_t *n)
{
    floe_stack_row_t *rows;
    size_t n_rows, k = 0;

    if (floe_stack_store_list(call, true, &rows, &n_rows))
        return FLOE_EFAIL;
    *stacks = floe_call_alloc(call, (n_rows + 1) * sizeof(**stacks));
    for (size_t i = 0; i < n_rows; i++) {
        if (is_listed(rows[i].status, statuses, n_statuses))
            stack_info(call, &rows[i], true, &(*stacks)[k++]);
    }
    *n = k;
    return FLOE_OK;
}

int floe_stack_events(floe_call_t *call, const char *stack_name, floe_stack_event_t **events, size_t *n,
                      char **why)
{
    floe_stack_event_row_t *rows;
    floe_stack_row_t s;
    int rc;
    size_t n_rows;

    if ((rc = floe_stack_find(call, stack_name, true, &s, why)) != FLOE_OK)
        return rc;
    if (floe_stack_store_events(call, s.id, &rows, &n_rows))
        return FLOE_EFAIL;
    *events = floe_call_alloc(call, (n_rows + 1) * sizeof(**events));
    for (size_t i = 0; i < n_rows; i++) {
        floe_stack_event_t *e = &(*events)[i];
        e->stack_id = s.stack_id;
        e->stack_name = s.name;
        e->event_id = rows[i].event_id;
        e->logical_id = rows[i].logical_id;
        e->physical_id = rows[i].physical_id;
        e->resource_type = rows[i].resource_type;
        e->status = rows[i].status;
        e->status_reason = rows[i].status_reason;
        e->properties = rows[i].properties;
        e->at = rows[i].at;
    }
    *n = n_rows;
    return FLOE_OK;
}

/* ---- resources ---- */

static void resource_info(const floe_stack_row_t *s, const floe_stack_resource_row_t *r, floe_stack_resource_t *out)
{
    out->stack_id = s->stack_id;
    out->stack_name = s->name;
    out->logical_id = r->logical_id;
    out->physical_id = r->physical_id;
    out->type = r->type;
    out->status = r->status;
    out->status_reason = r->status_reason;
    out->updated_at = r->updated_at;
}

/* The stack `stack_name` names, or the one holding `physical_id`. */
static int resources_stack(floe_call_t *call, const char *stack_name, const char *physical_id,
                           floe_stack_row_t *s, char **why)
{
    bool found;

    if (stack_name != NULL)
        return floe_stack_find(call, stack_name, true, s, why);
    if (physical_id == NULL)
        return floe_stack_refuse(call, FLOE_EINVAL, why,
                                 "Either StackName or PhysicalResourceId must be specified.");
    if (floe_stack_store_find_by_physical_id(call, physical_id, s, &found))
        return FLOE_EFAIL;
    if (!found)
        return floe_stack_refuse(call, FLOE_EINVAL, why, "Stack for %s does not exist", physical_id);
    return FLOE_OK;
}

bool floe_stack_is_settled(floe_call_t *call, const char *stack_id)
{
    floe_stack_row_t s;
    bool found, is_queued;

    if (floe_stack_store_find(call, stack_id, &s, &found))
        return false;
    if (!found)
        return true;
    return floe_stack_store_work_is_queued(call, s.id, &is_queued) == FLOE_OK && !is_queued;
}

/* floe_stack_resources, with the resources' Metadata and Description when `with_details`. */
static int list_resources(floe_call_t *call, const char *stack_name, const char *logical_id,
                          const char *physical_id, bool with_details, floe_stack_resource_t **resources,
                          size_t *n, char **why)
{
    floe_stack_resource_row_t *rows;
    floe_stack_row_t s;
    int rc;
    size_t n_rows, k = 0;

    if ((rc = resources_stack(call, stack_name, physical_id, &s, why)) != FLOE_OK)
        return rc;
    if (floe_stack_store_resources(call, s.id, &rows, &n_rows))
        return FLOE_EFAIL;
    *resources = floe_call_alloc(call, (n_rows + 1) * sizeof(**resources));
    for (size_t i = 0; i < n_rows; i++) {
        bool is_gone = eq(rows[i].status, FLOE_DELETE_COMPLETE) && !eq(s.status, FLOE_DELETE_COMPLETE);
        if (is_gone || (logical_id != NULL && !eq(rows[i].logical_id, logical_id)))
            continue;
        resource_info(&s, &rows[i], &(*resources)[k++]);
    }
    if (with_details && k > 0)
        floe_stack_resource_details(call, &s, rows, n_rows, *resources, k);
    *n = k;
    return FLOE_OK;
}

int floe_stack_resources(floe_call_t *call, const char *stack_name, const char *logical_id,
                         const char *physical_id, floe_stack_resource_t **resources, size_t *n,
                         char **why)
{
    return list_resources(call, stack_name, logical_id, physical_id, false, resources, n, why);
}

int floe_stack_describe_resources(floe_call_t *call, const char *stack_name, const char *logical_id,
                                  const char *physical_id, floe_stack_resource_t **resources, size_t *n,
                                  char **why)
{
    return list_resources(call, stack_name, logical_id, physical_id, true, resources, n, why);
}

int floe_stack_resource(floe_call_t *call, const char *stack_name, const char *logical_id,
                        floe_stack_resource_t *out, char **why)
{
    floe_stack_resource_t *list;
    int rc;
    size_t n;

    if ((rc = list_resources(call, stack_name, logical_id, NULL, true, &list, &n, why)) != FLOE_OK)
        return rc;
    if (n == 0)
        return floe_stack_refuse(call, FLOE_EINVAL, why, "Resource %s does not exist for stack %s", logical_id,
                                 stack_name);
    *out = list[0];
    return FLOE_OK;
}

int floe_stack_template(floe_call_t *call, const char *stack_name, const char *change_set_name, char **body,
                        char **why)
{
    floe_change_set_row_t cs;
    floe_stack_row_t s;
    int rc;

    if (change_set_name != NULL) {
        if ((rc = floe_stack_find_change_set(call, change_set_name, stack_name, &cs, why)) != FLOE_OK)
            return rc;
        *body = cs.template_body;
        return FLOE_OK;
    }
    if ((rc = floe_stack_find(call, stack_name, true, &s, why)) != FLOE_OK)
        return rc;
    *body = s.template_body;
    return FLOE_OK;
}

int floe_stack_exports(floe_call_t *call, floe_stack_export_t **exports, size_t *n)
{
    floe_stack_export_row_t *rows;
    size_t n_rows;

    if (floe_stack_store_exports(call, &rows, &n_rows))
        return FLOE_EFAIL;
    *exports = floe_call_alloc(call, (n_rows + 1) * sizeof(**exports));
    for (size_t i = 0; i < n_rows; i++)
        (*exports)[i] = (floe_stack_export_t){rows[i].name, rows[i].value, rows[i].stack_id};
    *n = n_rows;
    return FLOE_OK;
}

/* ---- change sets ---- */

static void read_detail(floe_call_t *call, const cJSON *item, floe_stack_change_detail_t *d)
{
    const cJSON *target = cJSON_GetObjectItemCaseSensitive(item, "Target");

    d->attribute = json_string(call, target, "Attribute");
    d->name = json_string(call, target, "Name");
    d->requires_recreation = json_string(call, target, "RequiresRecreation");
    d->evaluation = json_string(call, item, "Evaluation");
    d->change_source = json_string(call, item, "ChangeSource");
    d->causing_entity = json_string(call, item, "CausingEntity");
}

static void read_change(floe_call_t *call, const cJSON *item, floe_stack_change_t *c)
{
    const cJSON *scope = cJSON_GetObjectItemCaseSensitive(item, "Scope");
    const cJSON *details = cJSON_GetObjectItemCaseSensitive(item, "Details"), *each;
    size_t i = 0;

    c->action = json_string(call, item, "Action");
    c->logical_id = json_string(call, item, "LogicalResourceId");
    c->physical_id = json_string(call, item, "PhysicalResourceId");
    c->type = json_string(call, item, "ResourceType");
    c->replacement = json_string(call, item, "Replacement");
    c->scope = floe_call_alloc(call, ((size_t)cJSON_GetArraySize(scope) + 1) * sizeof(char *));
    cJSON_ArrayForEach(each, scope) c->scope[i++] = floe_call_strdup(call, cJSON_GetStringValue(each));
    c->n_scope = i;
    i = 0;
    c->details = floe_call_alloc(call, ((size_t)cJSON_GetArraySize(details) + 1) * sizeof(*c->details));
    cJSON_ArrayForEach(each, details) read_detail(call, each, &c->details[i++]);
    c->n_details = i;
}

static void read_changes(floe_call_t *call, const char *json, floe_stack_change_set_t *out)
{
    cJSON *list = cJSON_Parse(json != NULL ? json : "[]"), *item;
    size_t i = 0;

    out->changes = floe_call_alloc(call, ((size_t)cJSON_GetArraySize(list) + 1) * sizeof(*out->changes));
    cJSON_ArrayForEach(item, list) read_change(call, item, &out->changes[i++]);
    out->n_changes = i;
    cJSON_Delete(list);
}

static void change_set_info(floe_call_t *call, const floe_change_set_row_t *cs, const floe_stack_row_t *s,
                            bool with_changes, floe_stack_change_set_t *out)
{
    memset(out, 0, sizeof(*out));
    out->change_set_id = cs->change_set_id;
    out->name = cs->name;
    out->stack_id = s->stack_id;
    out->stack_name = s->name;
    out->type = cs->type;
    out->description = cs->description;
    out->status = cs->status;
    out->status_reason = cs->status_reason;
    out->execution_status = cs->execution_status;
    out->created_at = cs->created_at;
    if (!with_changes)
        return;
    floe_stack_read_parameters(call, cs->parameters, &out->parameters, &out->n_parameters);
    floe_stack_read_tags(call, cs->tags, &out->tags, &out->n_tags);
    read_changes(call, cs->changes, out);
}

int floe_stack_change_set_describe(floe_call_t *call, const char *change_set, const char *stack_name,
                                   floe_stack_change_set_t *out, char **why)
{
    floe_change_set_row_t cs;
    floe_stack_row_t s;
    int rc;

    if ((rc = floe_stack_find_change_set(call, change_set, stack_name, &cs, why)) != FLOE_OK)
        return rc;
    if (floe_stack_store_get(call, cs.stack_row_id, &s))
        return FLOE_EFAIL;
    change_set_info(call, &cs, &s, true, out);
    return FLOE_OK;
}

int floe_stack_change_set_list(floe_call_t *call, const char *stack_name,
                               floe_stack_change_set_t **change_sets, size_t *n, char **why)
{
    floe_change_set_row_t *rows;
    floe_stack_row_t s;
    int rc;
    size_t n_rows;

    if ((rc = floe_stack_find(call, stack_name, false, &s, why)) != FLOE_OK)
        return rc;
    if (floe_stack_store_change_sets(call, s.id, &rows, &n_rows))
        return FLOE_EFAIL;
    *change_sets = floe_call_alloc(call, (n_rows + 1) * sizeof(**change_sets));
    for (size_t i = 0; i < n_rows; i++)
        change_set_info(call, &rows[i], &s, false, &(*change_sets)[i]);
    *n = n_rows;
    return FLOE_OK;
}

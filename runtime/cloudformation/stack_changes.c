/*
 * What a template would change in a stack (stack_run.h): the comparison an update makes for each
 * resource, and the change set's preview of it, listed as DescribeChangeSet lists Changes.
 *
 * Design notes:
 *  1. Properties are compared as resolved JSON, member by member. A changed member replaces the
 *     resource when the resource type says so (provision.h); so does a change of type.
 *  2. In a preview nothing is created, so a resource the change set adds or replaces has no
 *     physical id or attributes yet: the template library resolves a reference to it as unknown,
 *     and a member that holds an unknown value is a Dynamic change caused by a ResourceReference
 *     (Ref) or a ResourceAttribute (Fn::GetAtt), whose Replacement is Conditional when the member
 *     replaces the resource. Its CausingEntity is the first unknown reference the resource's
 *     properties read (floe_run_t.unknown_cause): exact when one reference causes the change.
 *  3. A change set with no change to any resource, to the outputs, the tags or the description
 *     ends FAILED with AWS's exact reason (FLOE_CHANGE_SET_NO_CHANGES), which
 *     `aws cloudformation deploy` reads as "No changes to deploy".
 *  4. A static change whose member reads a parameter (Ref, ${Name}) with a new value is caused
 *     by a ParameterReference naming that parameter, as AWS reports it; any other static change
 *     is a DirectModification.
 */
#include <stdlib.h>
#include <string.h>

#include "base/failure.h"
#include "base/xalloc.h"
#include "call/transaction.h"
#include "cloudformation/provision.h"
#include "cloudformation/stack_run.h"
#include "cloudformation/stack_status.h"

#define ATTRIBUTE_PROPERTIES "Properties"
#define ATTRIBUTE_TAGS "Tags"
#define TAGS_PROPERTY "Tags"

static bool eq(const char *a, const char *b)
{
    return a != NULL && b != NULL && strcmp(a, b) == 0;
}

/* Calls fn for every member name of old_props or new_props that differs (design note 1). */
static void each_change(const cJSON *old_props, const cJSON *new_props, void (*fn)(void *arg, const char *name),
                        void *arg)
{
    const cJSON *item;

    cJSON_ArrayForEach(item, new_props)
    {
        if (floe_provision_member_differs(old_props, new_props, item->string))
            fn(arg, item->string);
    }
    cJSON_ArrayForEach(item, old_props)
    {
        if (cJSON_GetObjectItemCaseSensitive(new_props, item->string) == NULL)
            fn(arg, item->string);
    }
}

typedef struct comparison {
    const char *type;
    bool is_changed, is_replaced;
} comparison_t;

static void on_compared(void *arg, const char *name)
{
    comparison_t *c = arg;
    c->is_changed = true;
    c->is_replaced |= floe_provision_causes_replacement(c->type, name);
}

void floe_run_compare(const floe_run_t *run, const floe_run_res_t *r, const char *type, const cJSON *props,
                      bool *is_changed, bool *is_replaced)
{
    comparison_t c = {type, false, false};
    cJSON *old_props;
    (void)run;

    if (!eq(r->type, type)) {
        *is_changed = *is_replaced = true;
        return;
    }
    old_props = cJSON_Parse(r->props != NULL ? r->props : "{}");
    each_change(old_props, props, on_compared, &c);
    cJSON_Delete(old_props);
    *is_changed = c.is_changed;
    *is_replaced = c.is_replaced;
}

/* ---- the preview ---- */

typedef struct detailing {
    const floe_run_t *run;
    const char *logical_id, *type;
    const cJSON *new_props;
    cJSON *details;           /* ResourceChangeDetail list */
    bool has_tags, has_props; /* the Scope */
    bool is_replaced, is_maybe_replaced;
} detailing_t;

/* The value parameter `key` has in a stored parameter list, or NULL. */
static const char *parameter_value(const cJSON *parameters, const char *key)
{
    const cJSON *p;

    cJSON_ArrayForEach(p, parameters)
    {
        if (eq(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(p, "ParameterKey")), key))
            return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(p, "ParameterValue"));
    }
    return NULL;
}

typedef struct parameter_cause {
    const floe_run_t *run;
    const char *name; /* the first parameter read whose value changes */
} parameter_cause_t;

static void on_parameter(void *arg, const char *name)
{
    parameter_cause_t *c = arg;
    const char *before = parameter_value(c->run->previous_parameters, name);
    const char *after = parameter_value(c->run->parameters, name);

    if (c->name == NULL && (before == NULL || after == NULL || strcmp(before, after) != 0))
        c->name = name;
}

/* The parameter whose new value changes member `name`, or NULL (design note 4). */
static const char *changed_parameter(const detailing_t *d, const char *name)
{
    parameter_cause_t c = {d->run, NULL};

    if (d->run->ops->property_parameters == NULL || d->run->parameters == NULL)
        return NULL;
    d->run->ops->property_parameters(d->run->tmpl, d->logical_id, name, on_parameter, &c);
    return c.name;
}

/* One ResourceChangeDetail for changed member `name` (design notes 2 and 4). */
static void on_detail(void *arg, const char *name)
{
    detailing_t *d = arg;
    bool is_replacing = floe_provision_causes_replacement(d->type, name);
    bool is_dynamic = floe_run_has_unknown(d->run, cJSON_GetObjectItemCaseSensitive(d->new_props, name));
    bool is_tags = strcmp(name, TAGS_PROPERTY) == 0;
    cJSON *detail = cJSON_CreateObject(), *target = cJSON_AddObjectToObject(detail, "Target");
    const char *parameter;

    cJSON_AddStringToObject(target, "Attribute", is_tags ? ATTRIBUTE_TAGS : ATTRIBUTE_PROPERTIES);
    if (!is_tags) /* AWS names the property, never the tag */
        cJSON_AddStringToObject(target, "Name", name);
    cJSON_AddStringToObject(target, "RequiresRecreation", is_replacing ? "Always" : "Never");
    cJSON_AddStringToObject(detail, "Evaluation", is_dynamic ? "Dynamic" : "Static");
    if (is_dynamic) {
        cJSON_AddStringToObject(detail, "ChangeSource",
                                d->run->is_unknown_attribute ? "ResourceAttribute" : "ResourceReference");
        if (d->run->unknown_cause != NULL)
            cJSON_AddStringToObject(detail, "CausingEntity", d->run->unknown_cause);
    } else if ((parameter = changed_parameter(d, name)) != NULL) {
        cJSON_AddStringToObject(detail, "ChangeSource", "ParameterReference");
        cJSON_AddStringToObject(detail, "CausingEntity", parameter);
    } else {
        cJSON_AddStringToObject(detail, "ChangeSource", "DirectModification");
    }
    cJSON_AddItemToArray(d->details, detail);
    d->has_tags |= is_tags;
    d->has_props |= !is_tags;
    d->is_replaced |= is_replacing && !is_dynamic;
    d->is_maybe_replaced |= is_replacing && is_dynamic;
}

static cJSON *change_of(const char *action, const char *logical_id, const char *physical_id, const char *type)
{
    cJSON *c = cJSON_CreateObject();

    cJSON_AddStringToObject(c, "Action", action);
    cJSON_AddStringToObject(c, "LogicalResourceId", logical_id);
    if (physical_id != NULL)
        cJSON_AddStringToObject(c, "PhysicalResourceId", physical_id);
    cJSON_AddStringToObject(c, "ResourceType", type);
    return c;
}

/* The Modify change of `r` towards `props`, or NULL when nothing changes; marks r unknown when it
 * may be replaced (design note 2). */
static cJSON *modify_change(floe_run_t *run, floe_run_res_t *r, const char *type, const cJSON *props)
{
    cJSON *old_props = cJSON_Parse(r->props != NULL ? r->props : "{}"), *change, *scope;
    detailing_t d = {run, r->logical_id, type, props, cJSON_CreateArray(), false, false, !eq(r->type, type), false};

    if (eq(r->type, type))
        each_change(old_props, props, on_detail, &d);
    cJSON_Delete(old_props);
    if (cJSON_GetArraySize(d.details) == 0 && !d.is_replaced) {
        cJSON_Delete(d.details);
        return NULL;
    }
    change = change_of("Modify", r->logical_id, r->physical_id, type);
    cJSON_AddStringToObject(change, "Replacement", d.is_replaced ? "True" : d.is_maybe_replaced ? "Conditional" : "False");
    scope = cJSON_AddArrayToObject(change, "Scope");
    if (d.has_props)
        cJSON_AddItemToArray(scope, cJSON_CreateString(ATTRIBUTE_PROPERTIES));
    if (d.has_tags)
        cJSON_AddItemToArray(scope, cJSON_CreateString(ATTRIBUTE_TAGS));
    cJSON_AddItemToObject(change, "Details", d.details);
    r->is_unknown = d.is_replaced || d.is_maybe_replaced;
    return change;
}

/* The change template resource `tr` makes: NULL for none, or NULL with *reason malloc'ed when its
 * properties cannot be resolved. */
static cJSON *resource_change(floe_run_t *run, const floe_stack_template_resource_t *tr, char **reason)
{
    floe_run_res_t *r = floe_run_find(run, tr->logical_id);
    floe_stack_resolver_t resolver;
    floe_stack_error_t err;
    cJSON *props = NULL, *change;

    if (r == NULL || eq(r->status, FLOE_DELETE_COMPLETE)) {
        change = change_of("Add", tr->logical_id, NULL, tr->type);
        cJSON_AddArrayToObject(change, "Scope");
        cJSON_AddArrayToObject(change, "Details");
        return change;
    }
    floe_run_resolver(run, &resolver);
    err.message[0] = '\0';
    free(run->unknown_cause); /* design note 2: the reference this resource's unknown values come from */
    run->unknown_cause = NULL;
    run->is_unknown_attribute = false;
    if (run->ops->resource_properties(run->tmpl, tr->logical_id, &resolver, &props, &err) != 0) {
        *reason = floe_xstrdup(err.message);
        return NULL;
    }
    floe_run_add_stack_tags(tr->type, run->stack.tags, props);
    change = modify_change(run, r, tr->type, props);
    cJSON_Delete(props);
    return change;
}

static bool is_in_template(const floe_run_t *run, const char *logical_id)
{
    for (size_t i = 0; i < run->ops->n_resources(run->tmpl); i++) {
        floe_stack_template_resource_t tr;
        run->ops->resource(run->tmpl, i, &tr);
        if (strcmp(tr.logical_id, logical_id) == 0)
            return true;
    }
    return false;
}

char *floe_run_changes(floe_run_t *run, size_t *n_changes, char **reason)
{
    cJSON *list = cJSON_CreateArray(), *change;
    char *text;

    *reason = NULL;
    for (size_t i = 0; i < run->ops->n_resources(run->tmpl); i++) {
        floe_stack_template_resource_t tr;
        run->ops->resource(run->tmpl, i, &tr);
        if ((change = resource_change(run, &tr, reason)) != NULL)
            cJSON_AddItemToArray(list, change);
        else if (*reason != NULL) {
            cJSON_Delete(list);
            return NULL;
        }
    }
    for (size_t i = 0; i < run->n_res; i++) {
        floe_run_res_t *r = &run->res[i];
        if (eq(r->status, FLOE_DELETE_COMPLETE) || is_in_template(run, r->logical_id))
            continue;
        change = change_of("Remove", r->logical_id, r->physical_id, r->type);
        cJSON_AddArrayToObject(change, "Scope");
        cJSON_AddArrayToObject(change, "Details");
        cJSON_AddItemToArray(list, change);
    }
    *n_changes = (size_t)cJSON_GetArraySize(list);
    text = cJSON_PrintUnformatted(list);
    cJSON_Delete(list);
    return text;
}

/* ---- the change set's run ---- */

/* The change set as the run holds it (malloc'ed copies). */
typedef struct change_set {
    floe_change_set_row_t row;
    bool is_found;
} change_set_t;

typedef struct load_args {
    floe_run_t *run;
    change_set_t *cs;
} load_args_t;

static int step_load(floe_call_t *call, void *arg)
{
    load_args_t *a = arg;
    floe_change_set_row_t row;

    if (floe_stack_store_change_set_get(call, a->run->work.change_set_row_id, &row, &a->cs->is_found))
        return FLOE_EFAIL;
    if (!a->cs->is_found)
        return FLOE_OK;
    a->cs->row = row;
    a->cs->row.change_set_id = floe_run_dup(row.change_set_id);
    a->cs->row.name = floe_run_dup(row.name);
    a->cs->row.type = floe_run_dup(row.type);
    a->cs->row.template_body = floe_run_dup(row.template_body);
    a->cs->row.parameters = floe_run_dup(row.parameters);
    a->cs->row.tags = floe_run_dup(row.tags);
    a->cs->row.description = NULL;
    a->cs->row.status = a->cs->row.status_reason = a->cs->row.execution_status = NULL;
    a->cs->row.on_failure = NULL;
    a->cs->row.changes = NULL;
    return FLOE_OK;
}

static void change_set_dispose(change_set_t *cs)
{
    free(cs->row.change_set_id);
    free(cs->row.name);
    free(cs->row.type);
    free(cs->row.template_body);
    free(cs->row.parameters);
    free(cs->row.tags);
    free(cs->row.changes);
    free(cs->row.status_reason);
}

typedef struct save_args {
    const floe_change_set_row_t *row;
    bool is_found; /* OUT: the change set was still there */
} save_args_t;

static int save_body(floe_call_t *call, void *arg)
{
    save_args_t *a = arg;
    floe_change_set_row_t current;

    if (floe_stack_store_change_set_get(call, a->row->id, &current, &a->is_found))
        return FLOE_EFAIL;
    return a->is_found ? floe_stack_store_change_set_save(call, a->row) : FLOE_OK;
}

static int step_save(floe_call_t *call, void *arg)
{
    return floe_call_in_transaction(call, save_body, arg);
}

/* Stores the change set's status (and execution status, reason, changes). -1 when aborted. */
static int save_change_set(floe_run_t *run, change_set_t *cs, const char *status, const char *execution)
{
    save_args_t a = {&cs->row, false};
    floe_background_error_t err;

    cs->row.status = (char *)status;
    cs->row.execution_status = (char *)execution;
    if (floe_background_call(run->bg, &run->work.scope, step_save, &a, &err) != FLOE_OK) {
        run->is_aborted = true;
        return FLOE_EFAIL;
    }
    return FLOE_OK;
}

/* Whether the outputs, tags and description stay as the stack has them (design note 3). */
static bool is_rest_unchanged(floe_run_t *run, const change_set_t *cs, char **reason)
{
    char *outputs = NULL;
    cJSON *a, *b;
    bool is_same;

    if (floe_run_output_list(run, &outputs, reason) != 0)
        return false;
    a = cJSON_Parse(outputs);
    b = cJSON_Parse(run->stack.outputs != NULL ? run->stack.outputs : "[]");
    is_same = cJSON_Compare(a, b, true);
    cJSON_Delete(a);
    cJSON_Delete(b);
    free(outputs);
    a = cJSON_Parse(cs->row.tags != NULL ? cs->row.tags : "[]");
    b = cJSON_Parse(run->stack.tags != NULL ? run->stack.tags : "[]");
    is_same = is_same && cJSON_Compare(a, b, true);
    cJSON_Delete(a);
    cJSON_Delete(b);
    const char *description = run->ops->description(run->tmpl);
    return is_same && ((description == NULL && run->stack.description == NULL) ||
                       (description != NULL && eq(description, run->stack.description)));
}

/* Computes the change set's Changes, or the reason it fails. */
static void compute(floe_run_t *run, change_set_t *cs)
{
    floe_stack_error_t err;
    char *reason = NULL;
    size_t n = 0;

    err.message[0] = '\0';
    if (floe_run_template(run, cs->row.template_body, cs->row.parameters, &err) != 0) {
        cs->row.status_reason = floe_xstrdup(err.message);
        return;
    }
    /* The change set's stack tags are those its resources would take (stack_run.h); its
     * parameters against the stack's say which changes a parameter causes (design note 4). */
    char *stack_tags = run->stack.tags;
    run->stack.tags = cs->row.tags;
    run->previous_parameters = cJSON_Parse(run->stack.parameters != NULL ? run->stack.parameters : "[]");
    run->parameters = cJSON_Parse(cs->row.parameters != NULL ? cs->row.parameters : "[]");
    cs->row.changes = floe_run_changes(run, &n, &reason);
    run->stack.tags = stack_tags;
    cJSON_Delete(run->previous_parameters);
    cJSON_Delete(run->parameters);
    run->previous_parameters = run->parameters = NULL;
    if (cs->row.changes == NULL) {
        cs->row.status_reason = reason;
        return;
    }
    for (size_t i = 0; i < run->n_res; i++)
        run->res[i].is_unknown = false; /* outputs read what is there now */
    if (n == 0 && eq(cs->row.type, FLOE_CHANGE_SET_TYPE_UPDATE) && is_rest_unchanged(run, cs, &reason))
        cs->row.status_reason = floe_xstrdup(FLOE_CHANGE_SET_NO_CHANGES);
    else if (reason != NULL)
        cs->row.status_reason = reason;
}

void floe_run_change_set(floe_run_t *run)
{
    change_set_t cs = {0};
    load_args_t a = {run, &cs};
    floe_background_error_t err;

    if (floe_background_call(run->bg, &run->work.scope, step_load, &a, &err) != FLOE_OK) {
        run->is_aborted = true;
        return;
    }
    if (cs.is_found && save_change_set(run, &cs, FLOE_CHANGE_SET_CREATE_IN_PROGRESS, FLOE_EXECUTION_UNAVAILABLE) == 0) {
        compute(run, &cs);
        if (cs.row.status_reason != NULL)
            save_change_set(run, &cs, FLOE_CHANGE_SET_FAILED, FLOE_EXECUTION_UNAVAILABLE);
        else
            save_change_set(run, &cs, FLOE_CHANGE_SET_CREATE_COMPLETE, FLOE_EXECUTION_AVAILABLE);
    }
    if (!run->is_aborted)
        floe_run_finish(run, NULL);
    change_set_dispose(&cs);
}

/*
 * A run's plumbing (stack_run.h): taking the next queued piece of work, loading it, the steps
 * that write back, and the resolver over the run's resources. The engine's thread is
 * stack_thread.c's, the phases of a stack stack_run.c's, the changes of a change set
 * stack_changes.c's; this file calls none of them.
 *
 * Design notes:
 *  1. One thread takes the queue in order, so two operations on one stack never overlap, and a
 *     stack's operations run in the order they were asked for.
 *  2. Every step is one background call and, where the catalog allows, one transaction: a
 *     resource's change, its row and its events commit together (provision.h), so after a crash
 *     the stack's record never claims a resource that does not exist.
 *  3. A step that fails because the door is closing (or SQLite fails) aborts the run: nothing more
 *     is written, the work stays queued and started, and the next start takes it again (see the
 *     restart note in stack_thread.h).
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/ids.h"
#include "base/log.h"
#include "base/xalloc.h"
#include "call/call_sql.h"
#include "call/transaction.h"
#include "cloudformation/provision.h"
#include "cloudformation/provision_authorize.h"
#include "cloudformation/stack_run.h"
#include "cloudformation/stack_status.h"
#include "floe_codec.h"

#define INITIAL_CAPACITY 8
#define REQUEST_ID_LEN 16
#define IAM_TYPE_PREFIX "AWS::IAM::"

/* ---- small helpers (stack_run.h) ---- */

char *floe_run_dup(const char *s)
{
    return s != NULL ? floe_xstrdup(s) : NULL;
}

void floe_run_set(char **field, const char *value)
{
    char *copy = floe_run_dup(value);
    free(*field);
    *field = copy;
}

floe_run_res_t *floe_run_find(floe_run_t *run, const char *logical_id)
{
    for (size_t i = 0; i < run->n_res; i++) {
        if (strcmp(run->res[i].logical_id, logical_id) == 0)
            return &run->res[i];
    }
    return NULL;
}

floe_run_res_t *floe_run_add(floe_run_t *run, const char *logical_id)
{
    floe_run_res_t *r;

    if (run->n_res == run->cap_res) {
        run->cap_res = run->cap_res ? run->cap_res * 2 : INITIAL_CAPACITY;
        run->res = floe_xrealloc(run->res, run->cap_res * sizeof(*run->res));
    }
    r = &run->res[run->n_res++];
    memset(r, 0, sizeof(*r));
    r->logical_id = floe_xstrdup(logical_id);
    return r;
}

void floe_run_res_copy(floe_run_res_t *dst, const floe_run_res_t *src)
{
    dst->logical_id = floe_run_dup(src->logical_id);
    dst->type = floe_run_dup(src->type);
    dst->physical_id = floe_run_dup(src->physical_id);
    dst->status = floe_run_dup(src->status);
    dst->status_reason = floe_run_dup(src->status_reason);
    dst->props = floe_run_dup(src->props);
    dst->attrs = floe_run_dup(src->attrs);
    dst->deletion_policy = floe_run_dup(src->deletion_policy);
    dst->update_replace_policy = floe_run_dup(src->update_replace_policy);
    dst->position = src->position;
    dst->update_action = floe_run_dup(src->update_action);
    dst->old_type = floe_run_dup(src->old_type);
    dst->old_physical_id = floe_run_dup(src->old_physical_id);
    dst->old_props = floe_run_dup(src->old_props);
    dst->old_attrs = floe_run_dup(src->old_attrs);
    dst->attrs_tree = NULL;
    dst->is_unknown = src->is_unknown;
}

void floe_run_res_dispose(floe_run_res_t *r)
{
    char **fields[] = {&r->logical_id, &r->type, &r->physical_id, &r->status, &r->status_reason, &r->props,
                       &r->attrs, &r->deletion_policy, &r->update_replace_policy, &r->update_action, &r->old_type,
                       &r->old_physical_id, &r->old_props, &r->old_attrs};

    for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
        free(*fields[i]);
        *fields[i] = NULL;
    }
    cJSON_Delete(r->attrs_tree);
    r->attrs_tree = NULL;
}

/* The stack row's strings, malloc'ed (the step's pool dies with it). */
static void stack_copy(floe_stack_row_t *dst, const floe_stack_row_t *src)
{
    *dst = *src;
    char **fields[] = {&dst->account_id, &dst->region, &dst->stack_id, &dst->name, &dst->status,
                       &dst->status_reason, &dst->description, &dst->template_body, &dst->parameters, &dst->tags,
                       &dst->outputs, &dst->previous_template_body, &dst->previous_parameters, &dst->previous_tags,
                       &dst->previous_outputs, &dst->previous_description, &dst->on_failure,
                       &dst->retain_resources, &dst->change_set_id};
    for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
        *fields[i] = floe_run_dup(*fields[i]);
}

static void stack_dispose(floe_stack_row_t *s)
{
    char *fields[] = {s->account_id, s->region, s->stack_id, s->name, s->status, s->status_reason, s->description,
                      s->template_body, s->parameters, s->tags, s->outputs, s->previous_template_body,
                      s->previous_parameters, s->previous_tags, s->previous_outputs, s->previous_description,
                      s->on_failure, s->retain_resources, s->change_set_id};
    for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
        free(fields[i]);
}

static void free_list(char **items, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(items[i]);
    free(items);
}

static void run_free(floe_run_t *run)
{
    for (size_t i = 0; i < run->n_res; i++)
        floe_run_res_dispose(&run->res[i]);
    free(run->res);
    free_list(run->export_names, run->n_exports);
    free_list(run->export_values, run->n_exports);
    free_list(run->imports, run->n_imports);
    free(run->unknown_cause);
    free(run->work.caller_arn);
    stack_dispose(&run->stack);
    if (run->tmpl != NULL)
        run->ops->free(run->tmpl);
}

/* ---- calling a step ---- */

/* Runs fn in the run's scope. FLOE_OK; 1 when fn failed with a message for the client (*err);
 * FLOE_EFAIL when the run is aborted (design note 3). */
static int call_step(floe_run_t *run, floe_background_fn fn, void *arg, floe_background_error_t *err)
{
    floe_background_error_t local;

    if (err == NULL)
        err = &local;
    if (floe_background_call(run->bg, &run->work.scope, fn, arg, err) == FLOE_OK)
        return FLOE_OK;
    if (floe_background_is_stopping(run->bg) || err->code == FLOE_EFAIL) {
        if (!floe_background_is_stopping(run->bg))
            floe_log("stack %s: a step failed: %s", run->stack.name != NULL ? run->stack.name : "?", err->message);
        run->is_aborted = true;
        return FLOE_EFAIL;
    }
    return 1;
}

/* ---- loading a run ---- */

static int step_claim(floe_call_t *call, void *arg)
{
    floe_run_t *run = arg;
    bool found;

    if (floe_stack_store_work_claim(call, &run->work, &found))
        return FLOE_EFAIL;
    if (!found)
        return floe_fail(call, FLOE_ENOTFOUND, FLOE_SUBJECT_REQUEST, "no work");
    run->work.caller_arn = floe_run_dup(run->work.caller_arn); /* the call's pool dies with the step */
    return FLOE_OK;
}

static void load_resource(floe_run_t *run, const floe_stack_resource_row_t *row)
{
    floe_run_res_t *r = floe_run_add(run, row->logical_id);

    r->type = floe_run_dup(row->type);
    r->physical_id = floe_run_dup(row->physical_id);
    r->status = floe_run_dup(row->status);
    r->status_reason = floe_run_dup(row->status_reason);
    r->props = floe_run_dup(row->properties);
    r->attrs = floe_run_dup(row->attributes);
    r->deletion_policy = floe_run_dup(row->deletion_policy);
    r->update_replace_policy = floe_run_dup(row->update_replace_policy);
    r->position = row->position;
    r->update_action = floe_run_dup(row->update_action);
    r->old_type = floe_run_dup(row->old_type);
    r->old_physical_id = floe_run_dup(row->old_physical_id);
    r->old_props = floe_run_dup(row->old_properties);
    r->old_attrs = floe_run_dup(row->old_attributes);
}

static int step_load(floe_call_t *call, void *arg)
{
    floe_run_t *run = arg;
    floe_stack_row_t stack;
    floe_stack_resource_row_t *rows;
    floe_stack_export_row_t *exports;
    size_t n, n_exports;

    if (floe_stack_store_get(call, run->work.stack_row_id, &stack) ||
        floe_stack_store_resources(call, stack.id, &rows, &n) || floe_stack_store_exports(call, &exports, &n_exports))
        return FLOE_EFAIL;
    stack_copy(&run->stack, &stack);
    for (size_t i = 0; i < n; i++)
        load_resource(run, &rows[i]);
    run->export_names = floe_xcalloc(n_exports + 1, sizeof(char *));
    run->export_values = floe_xcalloc(n_exports + 1, sizeof(char *));
    for (size_t i = 0; i < n_exports; i++) {
        run->export_names[i] = floe_xstrdup(exports[i].name);
        run->export_values[i] = floe_xstrdup(exports[i].value);
    }
    run->n_exports = n_exports;
    return FLOE_OK;
}

/* ---- the template and the resolver ---- */

int floe_run_template(floe_run_t *run, const char *template_body, const char *parameters, floe_stack_error_t *err)
{
    floe_stack_pseudo_t pseudo = {run->stack.account_id, run->stack.region, run->stack.name, run->stack.stack_id};
    cJSON *list = cJSON_Parse(parameters != NULL ? parameters : "[]"), *item;
    floe_stack_param_value_t *values = floe_xcalloc((size_t)cJSON_GetArraySize(list) + 1, sizeof(*values));
    size_t n = 0;
    int rc;

    if (run->tmpl != NULL)
        run->ops->free(run->tmpl);
    run->tmpl = NULL;
    cJSON_ArrayForEach(item, list)
    {
        values[n].key = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(item, "ParameterKey"));
        values[n++].value = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(item, "ParameterValue"));
    }
    rc = run->ops->parse(template_body, strlen(template_body), &run->tmpl, err);
    if (rc == 0)
        rc = run->ops->validate(run->tmpl, &pseudo, values, n, err);
    free(values);
    cJSON_Delete(list);
    return rc;
}

/* A resource whose value Ref or Fn::GetAtt may read: it exists and is not being previewed away. */
static floe_run_res_t *readable(floe_run_t *run, const char *logical_id)
{
    floe_run_res_t *r = floe_run_find(run, logical_id);
    return r != NULL && !r->is_unknown && r->physical_id != NULL ? r : NULL;
}

/* A preview's first unknown reference, the CausingEntity of the change it makes (stack_changes.c). */
static void note_unknown(floe_run_t *run, const char *logical_id, const char *attribute)
{
    floe_run_res_t *r = floe_run_find(run, logical_id);

    if (r == NULL || !r->is_unknown || run->unknown_cause != NULL)
        return;
    if (attribute == NULL) {
        run->unknown_cause = floe_xstrdup(logical_id);
    } else {
        size_t n = strlen(logical_id) + 1 + strlen(attribute) + 1;
        run->unknown_cause = floe_xmalloc(n);
        snprintf(run->unknown_cause, n, "%s.%s", logical_id, attribute);
    }
    run->is_unknown_attribute = attribute != NULL;
}

static int resolve_ref(void *ctx, const char *logical_id, const char **value, floe_stack_error_t *err)
{
    floe_run_res_t *r = readable(ctx, logical_id);
    (void)err;
    *value = r != NULL ? r->physical_id : NULL;
    if (r == NULL)
        note_unknown(ctx, logical_id, NULL);
    return 0;
}

static int resolve_get_att(void *ctx, const char *logical_id, const char *attribute, const char **value,
                           floe_stack_error_t *err)
{
    floe_run_res_t *r = readable(ctx, logical_id);
    (void)err;

    *value = NULL;
    if (r == NULL) {
        note_unknown(ctx, logical_id, attribute);
        return 0;
    }
    if (r->attrs_tree == NULL)
        r->attrs_tree = cJSON_Parse(r->attrs != NULL ? r->attrs : "{}");
    *value = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r->attrs_tree, attribute));
    return 0;
}

static void note_import(floe_run_t *run, const char *name)
{
    for (size_t i = 0; i < run->n_imports; i++) {
        if (strcmp(run->imports[i], name) == 0)
            return;
    }
    run->imports = floe_xrealloc(run->imports, (run->n_imports + 1) * sizeof(char *));
    run->imports[run->n_imports++] = floe_xstrdup(name);
}

static int resolve_import(void *ctx, const char *export_name, const char **value, floe_stack_error_t *err)
{
    floe_run_t *run = ctx;

    for (size_t i = 0; i < run->n_exports; i++) {
        if (strcmp(run->export_names[i], export_name) == 0) {
            note_import(run, export_name);
            *value = run->export_values[i];
            return FLOE_OK;
        }
    }
    snprintf(err->message, sizeof(err->message), "No export named %s found.", export_name);
    return FLOE_EFAIL;
}

void floe_run_resolver(floe_run_t *run, floe_stack_resolver_t *out)
{
    out->ref = resolve_ref;
    out->get_att = resolve_get_att;
    out->import_value = resolve_import;
    out->ctx = run;
}

static bool has_tag_key(const cJSON *tags, const char *key)
{
    const cJSON *tag;

    cJSON_ArrayForEach(tag, tags)
    {
        const char *k = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(tag, "Key"));
        if (k != NULL && strcmp(k, key) == 0)
            return true;
    }
    return false;
}

void floe_run_add_stack_tags(const char *type, const char *stack_tags, cJSON *props)
{
    cJSON *given, *tags, *tag;

    if (stack_tags == NULL || !floe_provision_takes_tags(type) || !cJSON_IsObject(props))
        return;
    given = cJSON_Parse(stack_tags);
    if (cJSON_GetArraySize(given) > 0) {
        tags = cJSON_GetObjectItemCaseSensitive(props, "Tags");
        if (!cJSON_IsArray(tags)) {
            cJSON_DeleteItemFromObjectCaseSensitive(props, "Tags");
            tags = cJSON_AddArrayToObject(props, "Tags");
        }
        cJSON_ArrayForEach(tag, given)
        {
            const char *key = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(tag, "Key"));
            if (key != NULL && !has_tag_key(tags, key))
                cJSON_AddItemToArray(tags, cJSON_Duplicate(tag, true));
        }
    }
    cJSON_Delete(given);
}

bool floe_run_has_unknown(const floe_run_t *run, const cJSON *node)
{
    const cJSON *child;

    if (node == NULL)
        return false;
    if (run->ops->is_unknown(node))
        return true;
    cJSON_ArrayForEach(child, node)
    {
        if (floe_run_has_unknown(run, child))
            return true;
    }
    return false;
}

/* ---- writing back ---- */

static floe_stack_resource_row_t res_row(const floe_run_res_t *r)
{
    floe_stack_resource_row_t row = {
        .logical_id = r->logical_id,
        .position = r->position,
        .type = r->type,
        .physical_id = r->physical_id,
        .status = r->status,
        .status_reason = r->status_reason,
        .properties = r->props,
        .attributes = r->attrs,
        .deletion_policy = r->deletion_policy != NULL ? r->deletion_policy : FLOE_POLICY_DELETE,
        .update_replace_policy = r->update_replace_policy != NULL ? r->update_replace_policy : FLOE_POLICY_DELETE,
        .update_action = r->update_action,
        .old_type = r->old_type,
        .old_physical_id = r->old_physical_id,
        .old_properties = r->old_props,
        .old_attributes = r->old_attrs,
    };
    return row;
}

static int add_events(floe_call_t *call, int64_t stack_row_id, const floe_run_event_t *events, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        floe_stack_event_row_t e = {
            .logical_id = (char *)events[i].logical_id,
            .physical_id = (char *)events[i].physical_id,
            .resource_type = (char *)events[i].type,
            .status = (char *)events[i].status,
            .status_reason = (char *)events[i].reason,
            .properties = (char *)events[i].props,
        };
        if (floe_stack_store_add_event(call, stack_row_id, &e))
            return FLOE_EFAIL;
    }
    return FLOE_OK;
}

/* Writes (or deletes) a resource's row with its events. */
static int write_res(floe_call_t *call, floe_run_t *run, const floe_run_res_t *r, bool is_deleted,
                     const floe_run_event_t *events, size_t n_events)
{
    floe_stack_resource_row_t row = res_row(r);

    if (is_deleted ? floe_stack_store_delete_resource(call, run->stack.id, r->logical_id)
                   : floe_stack_store_put_resource(call, run->stack.id, &row))
        return FLOE_EFAIL;
    return add_events(call, run->stack.id, events, n_events);
}

typedef struct write_step {
    floe_run_t *run;
    bool is_stack_saved;
    const floe_run_res_t *res;
    bool is_res_deleted;
    const floe_run_event_t *events;
    size_t n_events;
    bool is_delete_request_taken; /* clears is_delete_requested */
    const char *execution;        /* ends the executing change set's execution with this status */
} write_step_t;

static int write_body(floe_call_t *call, void *arg)
{
    write_step_t *w = arg;

    if (w->is_stack_saved && floe_stack_store_save(call, &w->run->stack))
        return FLOE_EFAIL;
    if (w->is_delete_request_taken && floe_stack_store_request_delete(call, w->run->stack.id, false))
        return FLOE_EFAIL;
    if (w->execution != NULL && w->run->stack.change_set_id != NULL &&
        floe_stack_store_change_set_finish(call, w->run->stack.change_set_id, w->execution))
        return FLOE_EFAIL;
    if (w->res != NULL)
        return write_res(call, w->run, w->res, w->is_res_deleted, w->events, w->n_events);
    return add_events(call, w->run->stack.id, w->events, w->n_events);
}

static int step_write(floe_call_t *call, void *arg)
{
    return floe_call_in_transaction(call, write_body, arg);
}

/* Sets the stack's status with its event; `is_delete_request_taken` also clears the request. A
 * stable status reached while a DeleteStack waits goes on to DELETE_IN_PROGRESS in the same step,
 * so no client sees the stack resting between the two. */
static int stack_status(floe_run_t *run, const char *status, const char *reason, bool is_delete_request_taken)
{
    floe_run_event_t e[2] = {
        {run->stack.name, run->stack.stack_id, FLOE_STACK_RESOURCE_TYPE, status, reason, NULL},
        {run->stack.name, run->stack.stack_id, FLOE_STACK_RESOURCE_TYPE, FLOE_DELETE_IN_PROGRESS, "User Initiated",
         NULL},
    };
    write_step_t w = {run, true, NULL, false, e, 1, is_delete_request_taken, NULL};

    if (run->stack.is_delete_requested && !floe_stack_status_is_in_progress(status) &&
        strcmp(status, FLOE_DELETE_COMPLETE) != 0) {
        run->stack.is_delete_requested = false;
        w.n_events = 2;
        w.is_delete_request_taken = true;
        status = FLOE_DELETE_IN_PROGRESS;
        reason = NULL;
    }
    if (!floe_stack_status_is_in_progress(status)) /* the executing change set ends with the operation */
        w.execution = floe_run_execution_status(run, status);
    floe_run_set(&run->stack.status, status);
    floe_run_set(&run->stack.status_reason, reason);
    return call_step(run, step_write, &w, NULL) == 0 ? FLOE_OK : FLOE_EFAIL;
}

const char *floe_run_execution_status(const floe_run_t *run, const char *status)
{
    if (run->execution != NULL)
        return run->execution;
    if (strcmp(status, FLOE_CREATE_COMPLETE) == 0 || strcmp(status, FLOE_UPDATE_COMPLETE) == 0 ||
        strcmp(status, FLOE_DELETE_COMPLETE) == 0)
        return FLOE_EXECUTION_COMPLETE;
    return FLOE_EXECUTION_FAILED;
}

int floe_run_stack_status(floe_run_t *run, const char *status, const char *reason)
{
    return stack_status(run, status, reason, false);
}

int floe_run_stack_status_via(floe_run_t *run, const char *passed, const char *passed_reason, const char *status)
{
    floe_run_event_t e[2] = {
        {run->stack.name, run->stack.stack_id, FLOE_STACK_RESOURCE_TYPE, passed, passed_reason, NULL},
        {run->stack.name, run->stack.stack_id, FLOE_STACK_RESOURCE_TYPE, status, NULL, NULL},
    };
    write_step_t w = {run, true, NULL, false, e, 2, false, NULL};

    floe_run_set(&run->stack.status, status);
    floe_run_set(&run->stack.status_reason, NULL);
    return call_step(run, step_write, &w, NULL) == 0 ? FLOE_OK : FLOE_EFAIL;
}

int floe_run_begin_delete(floe_run_t *run)
{
    run->stack.is_delete_requested = false;
    return stack_status(run, FLOE_DELETE_IN_PROGRESS, "User Initiated", true);
}

int floe_run_save_stack(floe_run_t *run)
{
    write_step_t w = {run, true, NULL, false, NULL, 0, false, NULL};
    return call_step(run, step_write, &w, NULL) == 0 ? FLOE_OK : FLOE_EFAIL;
}

int floe_run_write_res(floe_run_t *run, floe_run_res_t *r, floe_run_res_t *next, bool is_deleted,
                       const floe_run_event_t *events, size_t n_events)
{
    write_step_t w = {run, false, next, is_deleted, events, n_events, false, NULL};

    if (call_step(run, step_write, &w, NULL) != 0) {
        floe_run_res_dispose(next);
        return FLOE_EFAIL;
    }
    floe_run_res_dispose(r);
    *r = *next;
    return FLOE_OK;
}

/* ---- provisioning ---- */

typedef struct provision_step {
    floe_run_t *run;
    floe_run_res_t *next;
    const floe_run_change_t *change;
} provision_step_t;

/* Inside the change's transaction (provision.h): the resource's row and its events. */
static int on_record(floe_call_t *call, const floe_provision_outcome_t *outcome, void *arg)
{
    provision_step_t *p = arg;
    floe_run_event_t events[2];

    if (!p->change->keeps_physical_id) {
        floe_run_set(&p->next->physical_id, outcome->physical_id);
        free(p->next->attrs);
        p->next->attrs = cJSON_PrintUnformatted(outcome->attributes);
    }
    memcpy(events, p->change->events, sizeof(events));
    if (events[1].physical_id == NULL)
        events[1].physical_id = outcome->physical_id;
    return write_res(call, p->run, p->next, p->change->is_row_deleted, events, 2);
}

/* The change a step makes, as authorization names it. */
static const floe_provision_step_t step_of[] = {
    [FLOE_RUN_CREATE] = FLOE_PROVISION_STEP_CREATE,
    [FLOE_RUN_UPDATE] = FLOE_PROVISION_STEP_UPDATE,
    [FLOE_RUN_DELETE] = FLOE_PROVISION_STEP_DELETE,
};

static int step_provision(floe_call_t *call, void *arg)
{
    provision_step_t *p = arg;
    const floe_run_change_t *c = p->change;
    cJSON *props = cJSON_Parse(p->next->props != NULL ? p->next->props : "{}");
    cJSON *old_props = c->old_props != NULL ? cJSON_Parse(c->old_props) : NULL;
    int rc = floe_provision_authorize(call, p->run->work.caller_arn, step_of[c->action], c->type, c->physical_id,
                                      old_props, props);

    if (rc == FLOE_OK) { /* a denied change is not made */
        switch (c->action) {
        case FLOE_RUN_CREATE: rc = floe_provision_create(call, c->type, props, on_record, p); break;
        case FLOE_RUN_UPDATE:
            rc = floe_provision_update(call, c->type, c->physical_id, old_props, props, on_record, p);
            break;
        default: rc = floe_provision_delete(call, c->type, c->physical_id, props, on_record, p); break;
        }
    }
    cJSON_Delete(props);
    cJSON_Delete(old_props);
    return rc;
}

/* How CloudFormation's S3 Tables resource handler reports a failure of a house code: the S3 Tables
 * error it got back (its name and status) and the resource provider contract's HandlerErrorCode.
 * CloudFormation's one mapper for a provisioning step's failure. */
typedef struct {
    const char *error;
    int status;
    const char *handler_code;
} handler_failure_t;

static handler_failure_t handler_failure(int code, floe_run_action_t action)
{
    switch (code) {
    case FLOE_EEXISTS:
    case FLOE_EINUSE:
    case FLOE_ECHANGED:
    case FLOE_ESTATE:
        return (handler_failure_t){"ConflictException", 409,
                                   action == FLOE_RUN_CREATE ? "AlreadyExists" : "ResourceConflict"};
    case FLOE_ENOTFOUND: return (handler_failure_t){"NotFoundException", 404, "NotFound"};
    case FLOE_EINVAL: return (handler_failure_t){"BadRequestException", 400, "InvalidRequest"};
    case FLOE_EDENIED: return (handler_failure_t){"AccessDeniedException", 403, "AccessDenied"};
    case FLOE_EREADONLY: return (handler_failure_t){"ForbiddenException", 403, "AccessDenied"};
    default: return (handler_failure_t){"InternalServerErrorException", 500, "ServiceInternalError"};
    }
}

/* The service a resource type's handler calls, as the AWS SDK names it in an error's message. */
static const char *service_of(const char *type)
{
    return strncmp(type, IAM_TYPE_PREFIX, strlen(IAM_TYPE_PREFIX)) == 0 ? "Iam" : "S3Tables";
}

/* The ResourceStatusReason of a failed change, as CloudFormation words a resource handler's
 * failure, with the service error's name and message. A denial is the SDK's message alone (AWS's
 * sentence, which names the action), as CloudFormation reports a handler's AccessDenied. */
static char *failure_reason(const floe_background_error_t *err, const floe_run_change_t *change)
{
    handler_failure_t f = handler_failure(err->code, change->action);
    char request_id[REQUEST_ID_LEN + 1], *reason = NULL;
    bool is_denial = err->code == FLOE_EDENIED;

    floe_request_id(request_id);
    if (asprintf(&reason,
                 "Resource handler returned message: \"%s%s%s (Service: %s, Status Code: %d, Request ID: %s)\" "
                 "(HandlerErrorCode: %s)",
                 is_denial ? "" : f.error, is_denial ? "" : ": ", err->message, service_of(change->type), f.status,
                 request_id, f.handler_code) < 0)
        abort();
    return reason;
}

int floe_run_provision(floe_run_t *run, floe_run_res_t *r, floe_run_res_t *next, const floe_run_change_t *change,
                       char **reason)
{
    provision_step_t p = {run, next, change};
    floe_background_error_t err;
    int rc = call_step(run, step_provision, &p, &err);

    *reason = NULL;
    if (rc != 0) {
        floe_run_res_dispose(next);
        if (rc > 0)
            *reason = failure_reason(&err, change);
        return rc;
    }
    floe_run_res_dispose(r);
    *r = *next;
    return 0;
}

/* ---- outputs, exports and imports ---- */

typedef struct outputs_step {
    floe_run_t *run;
    char **names, **values; /* the exports the outputs make */
    size_t n;
} outputs_step_t;

/* The first other live stack that imports `name`, or NULL. */
static const char *importer(floe_call_t *call, const floe_run_t *run, const char *name)
{
    char **names;
    size_t n;

    if (floe_stack_store_importers(call, run->stack.id, name, &names, &n))
        return NULL;
    return n > 0 ? names[0] : NULL;
}

/* An export the stack had that the new outputs drop or change must not be in use. */
static int check_own_exports(floe_call_t *call, const outputs_step_t *o)
{
    floe_stack_export_row_t *rows;
    const char *user;
    size_t n;

    if (floe_stack_store_exports(call, &rows, &n))
        return FLOE_EFAIL;
    for (size_t i = 0; i < n; i++) {
        size_t j = 0;
        if (strcmp(rows[i].stack_id, o->run->stack.stack_id) != 0)
            continue;
        while (j < o->n && strcmp(o->names[j], rows[i].name) != 0)
            j++;
        if (j < o->n && strcmp(o->values[j], rows[i].value) == 0)
            continue;
        if ((user = importer(call, o->run, rows[i].name)) != NULL)
            return floe_fail(call, FLOE_EINVAL, FLOE_SUBJECT_STACK, "Cannot %s export %s as it is in use by %s.",
                             j < o->n ? "update" : "delete", rows[i].name, user);
        if (call->failure.code != FLOE_OK)
            return FLOE_EFAIL;
    }
    return FLOE_OK;
}

static int outputs_body(floe_call_t *call, void *arg)
{
    outputs_step_t *o = arg;
    char *owner;

    if (check_own_exports(call, o))
        return FLOE_EFAIL;
    for (size_t i = 0; i < o->n; i++) {
        if (floe_stack_store_export_put(call, o->run->stack.id, o->names[i], o->values[i], &owner))
            return FLOE_EFAIL;
        if (owner != NULL)
            return floe_fail(call, FLOE_EINVAL, FLOE_SUBJECT_STACK,
                             "Export with name %s is already exported by stack %s.",
                             o->names[i], owner);
    }
    if (floe_stack_store_exports_keep(call, o->run->stack.id, o->names, o->n) ||
        floe_stack_store_imports_set(call, o->run->stack.id, o->run->imports, o->run->n_imports))
        return FLOE_EFAIL;
    return floe_stack_store_save(call, &o->run->stack);
}

static int step_outputs(floe_call_t *call, void *arg)
{
    return floe_call_in_transaction(call, outputs_body, arg);
}

/* Resolves the template's outputs into *json (malloc'ed: the stack's Outputs list) and, when `o`
 * is not NULL, the export lists of `o`. 0, or 1 with *reason malloc'ed. */
static int resolve_outputs(floe_run_t *run, outputs_step_t *o, char **json, char **reason)
{
    outputs_step_t scratch = {run, NULL, NULL, 0};
    size_t n = run->ops->n_outputs(run->tmpl);
    cJSON *list = cJSON_CreateArray();
    floe_stack_resolver_t resolver;
    floe_stack_error_t err;

    if (o == NULL)
        o = &scratch;
    floe_run_resolver(run, &resolver);
    o->names = floe_xcalloc(n + 1, sizeof(char *));
    o->values = floe_xcalloc(n + 1, sizeof(char *));
    for (size_t i = 0; i < n; i++) {
        floe_stack_template_output_t out = {0};
        cJSON *item;
        err.message[0] = '\0';
        if (run->ops->output(run->tmpl, i, &resolver, &out, &err) != 0 || out.value == NULL) {
            *reason = floe_xstrdup(out.value == NULL && err.message[0] == '\0' ? "An output could not be resolved."
                                                                               : err.message);
            free(out.value);
            free(out.export_name);
            cJSON_Delete(list);
            free_list(scratch.names, scratch.n);
            free_list(scratch.values, scratch.n);
            return 1;
        }
        item = cJSON_CreateObject();
        cJSON_AddStringToObject(item, "OutputKey", out.name);
        cJSON_AddStringToObject(item, "OutputValue", out.value);
        if (out.description != NULL)
            cJSON_AddStringToObject(item, "Description", out.description);
        if (out.export_name != NULL) {
            cJSON_AddStringToObject(item, "ExportName", out.export_name);
            o->names[o->n] = out.export_name;
            o->values[o->n++] = floe_xstrdup(out.value);
        }
        free(out.value);
        cJSON_AddItemToArray(list, item);
    }
    *json = cJSON_PrintUnformatted(list);
    cJSON_Delete(list);
    free_list(scratch.names, scratch.n);
    free_list(scratch.values, scratch.n);
    return 0;
}

int floe_run_output_list(floe_run_t *run, char **json, char **reason)
{
    *reason = NULL;
    return resolve_outputs(run, NULL, json, reason);
}

int floe_run_outputs(floe_run_t *run, char **reason)
{
    outputs_step_t o = {run, NULL, NULL, 0};
    floe_background_error_t err;
    char *json;
    int rc;

    *reason = NULL;
    err.message[0] = '\0';
    rc = resolve_outputs(run, &o, &json, reason);
    if (rc == 0) {
        free(run->stack.outputs);
        run->stack.outputs = json;
    }
    if (rc == 0 && (rc = call_step(run, step_outputs, &o, &err)) > 0)
        *reason = floe_xstrdup(err.message);
    free_list(o.names, o.n);
    free_list(o.values, o.n);
    return rc;
}

/* ---- deleting a stack ---- */

typedef struct in_use_step {
    floe_run_t *run;
    char *reason; /* malloc'ed */
} in_use_step_t;

static int step_exports_in_use(floe_call_t *call, void *arg)
{
    in_use_step_t *u = arg;
    floe_stack_export_row_t *rows;
    const char *user;
    size_t n;

    if (floe_stack_store_exports(call, &rows, &n))
        return FLOE_EFAIL;
    for (size_t i = 0; i < n && u->reason == NULL; i++) {
        if (strcmp(rows[i].stack_id, u->run->stack.stack_id) != 0)
            continue;
        if ((user = importer(call, u->run, rows[i].name)) != NULL &&
            asprintf(&u->reason, "Export %s cannot be deleted as it is in use by %s", rows[i].name, user) < 0)
            abort();
        if (call->failure.code != FLOE_OK)
            return FLOE_EFAIL;
    }
    return FLOE_OK;
}

int floe_run_exports_in_use(floe_run_t *run, char **reason)
{
    in_use_step_t u = {run, NULL};

    *reason = NULL;
    if (call_step(run, step_exports_in_use, &u, NULL) != FLOE_OK) {
        free(u.reason);
        return FLOE_EFAIL;
    }
    *reason = u.reason;
    return u.reason != NULL ? 1 : FLOE_OK;
}

static int deleted_body(floe_call_t *call, void *arg)
{
    floe_run_t *run = arg;
    floe_run_event_t e = {run->stack.name, run->stack.stack_id, FLOE_STACK_RESOURCE_TYPE, FLOE_DELETE_COMPLETE, NULL,
                          NULL};

    if (floe_stack_store_exports_keep(call, run->stack.id, NULL, 0) ||
        floe_stack_store_imports_set(call, run->stack.id, NULL, 0) ||
        floe_stack_store_change_set_delete_others(call, run->stack.id, 0))
        return FLOE_EFAIL;
    run->stack.deleted_at = floe_call_now(call);
    if (floe_stack_store_save(call, &run->stack))
        return FLOE_EFAIL;
    return add_events(call, run->stack.id, &e, 1);
}

static int step_deleted(floe_call_t *call, void *arg)
{
    return floe_call_in_transaction(call, deleted_body, arg);
}

int floe_run_stack_deleted(floe_run_t *run)
{
    floe_run_set(&run->stack.status, FLOE_DELETE_COMPLETE);
    floe_run_set(&run->stack.status_reason, NULL);
    return call_step(run, step_deleted, run, NULL) == 0 ? FLOE_OK : FLOE_EFAIL;
}

/* ---- finishing ---- */

typedef struct finish_step {
    floe_run_t *run;
    const char *execution_status;
} finish_step_t;

static int finish_body(floe_call_t *call, void *arg)
{
    finish_step_t *f = arg;

    if (f->execution_status != NULL && f->run->stack.change_set_id != NULL &&
        floe_stack_store_change_set_finish(call, f->run->stack.change_set_id, f->execution_status))
        return FLOE_EFAIL;
    return floe_stack_store_work_finish(call, f->run->work.id);
}

static int step_finish(floe_call_t *call, void *arg)
{
    return floe_call_in_transaction(call, finish_body, arg);
}

int floe_run_finish(floe_run_t *run, const char *execution_status)
{
    finish_step_t f = {run, execution_status};
    return call_step(run, step_finish, &f, NULL) == 0 ? FLOE_OK : FLOE_EFAIL;
}

/* ---- taking work ---- */

int floe_run_take_one(floe_background_t *bg, void (*run_work)(floe_run_t *run))
{
    floe_run_t run = {.bg = bg, .ops = floe_stack_template_ops()};
    floe_background_error_t err;
    int rc;

    if (run.ops == NULL) /* no template library: nothing can run (and the API queues nothing) */
        return 0;
    if (floe_background_call(bg, NULL, step_claim, &run, &err) != FLOE_OK)
        return err.code == FLOE_ENOTFOUND ? 0 : -1;
    rc = call_step(&run, step_load, &run, NULL);
    if (rc == 0)
        run_work(&run);
    rc = run.is_aborted ? -1 : 1;
    run_free(&run);
    return rc;
}

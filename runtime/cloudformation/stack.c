/*
 * The changing half of the stack API (stack.h): CreateStack, UpdateStack, DeleteStack,
 * CreateChangeSet, ExecuteChangeSet and DeleteChangeSet. Each checks the request against the
 * stack's state and the template, then records it and queues the engine's work in one
 * transaction, and wakes the engine. AWS's messages are quoted as seen from the service (aws-cli
 * 2.x).
 *
 * Design notes:
 *  1. A template is parsed and validated here, before anything is written, so every
 *     ValidationError the template library can find is answered at once and changes nothing.
 *     The engine parses it again from the stored text when it runs.
 *  2. The stack's ARN is chosen before the template is validated, since AWS::StackId is one of the
 *     pseudo parameters.
 *  3. Parameters are stored as every declared parameter with the value in effect (given, previous
 *     or default) and its NoEcho flag, which is what DescribeStacks lists and what the engine
 *     validates the template with again.
 *  4. A DeleteStack that arrives while an operation runs sets is_delete_requested and queues work:
 *     the engine deletes the stack once the operation is over, as AWS does after a creation.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "base/ids.h"
#include "call/transaction.h"
#include "cloudformation/stack.h"
#include "cloudformation/stack_api.h"
#include "cloudformation/stack_status.h"
#include "cloudformation/stack_store.h"
#include "cloudformation/stack_template.h"
#include "cloudformation/stack_thread.h"

#define USER_INITIATED "User Initiated"
#define NO_ECHO_MASK "****"

static bool eq(const char *a, const char *b)
{
    return a != NULL && b != NULL && strcmp(a, b) == 0;
}

/* ---- shared with stack_read.c (stack_api.h) ---- */

int floe_stack_refuse(floe_call_t *call, int rc, char **why, const char *fmt, ...)
{
    va_list ap;
    char buf[FLOE_STACK_MESSAGE_MAX];

    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    *why = floe_call_strdup(call, buf);
    return rc;
}

int floe_stack_find(floe_call_t *call, const char *stack_name, bool may_be_deleted, floe_stack_row_t *out,
                    char **why)
{
    bool found;

    if (floe_stack_store_find(call, stack_name, out, &found))
        return FLOE_EFAIL;
    if (!found || (!may_be_deleted && eq(out->status, FLOE_DELETE_COMPLETE)))
        return floe_stack_refuse(call, FLOE_EINVAL, why, "Stack with id %s does not exist", stack_name);
    return FLOE_OK;
}

void floe_stack_read_parameters(floe_call_t *call, const char *json, floe_stack_parameter_t **out, size_t *n)
{
    cJSON *list = cJSON_Parse(json != NULL ? json : "[]"), *item;
    size_t i = 0;

    *out = floe_call_alloc(call, ((size_t)cJSON_GetArraySize(list) + 1) * sizeof(**out));
    cJSON_ArrayForEach(item, list)
    {
        const char *value = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(item, "ParameterValue"));
        (*out)[i].key = floe_call_strdup(call, cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(item, "ParameterKey")));
        (*out)[i++].value = floe_call_strdup(
            call, cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(item, "NoEcho")) ? NO_ECHO_MASK : value);
    }
    *n = i;
    cJSON_Delete(list);
}

void floe_stack_read_tags(floe_call_t *call, const char *json, floe_stack_pair_t **out, size_t *n)
{
    cJSON *list = cJSON_Parse(json != NULL ? json : "[]"), *item;
    size_t i = 0;

    *out = floe_call_alloc(call, ((size_t)cJSON_GetArraySize(list) + 1) * sizeof(**out));
    cJSON_ArrayForEach(item, list)
    {
        (*out)[i].key = floe_call_strdup(call, cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(item, "Key")));
        (*out)[i++].value = floe_call_strdup(call, cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(item, "Value")));
    }
    *n = i;
    cJSON_Delete(list);
}

/* A tree's JSON text, in the call's pool; the tree is deleted. */
static char *print_json(floe_call_t *call, cJSON *tree)
{
    char *text = floe_call_keep(call, cJSON_PrintUnformatted(tree));
    cJSON_Delete(tree);
    return text;
}

/* ---- names and ids ---- */

static bool is_letter(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* AWS: "[a-zA-Z][-a-zA-Z0-9]*", at most 128 characters; for stack and change set names alike. */
static int check_name(floe_call_t *call, const char *name, const char *member, char **why)
{
    size_t n = strlen(name);
    bool is_valid = n > 0 && is_letter(name[0]);

    for (size_t i = 1; i < n && is_valid; i++)
        is_valid = is_letter(name[i]) || (name[i] >= '0' && name[i] <= '9') || name[i] == '-';
    if (n > FLOE_STACK_NAME_MAX)
        return floe_stack_refuse(call, FLOE_EINVAL, why,
                                 "1 validation error detected: Value '%s' at '%s' failed to satisfy constraint: Member "
                                 "must have length less than or equal to %d",
                                 name, member, FLOE_STACK_NAME_MAX);
    if (!is_valid)
        return floe_stack_refuse(call, FLOE_EINVAL, why,
                                 "1 validation error detected: Value '%s' at '%s' failed to satisfy constraint: Member "
                                 "must satisfy regular expression pattern: [a-zA-Z][-a-zA-Z0-9]*",
                                 name, member);
    return FLOE_OK;
}

/* arn:aws:cloudformation:<region>:<account>:<kind>/<name>/<uuid> */
static char *new_arn(floe_call_t *call, const char *kind, const char *name)
{
    char uuid[FLOE_UUID_LEN + 1];

    floe_uuid_v4(uuid);
    return floe_call_printf(call, "arn:aws:cloudformation:%s:%s:%s/%s/%s", floe_call_region(call),
                            floe_call_account(call), kind, name, uuid);
}

/* ---- the template of a request (design notes 1 to 3) ---- */

typedef struct prepared {
    const char *template_body;
    char *parameters, *tags; /* JSON, in the pool */
    char *description;
} prepared_t;

/* The value a UsePreviousValue parameter had. */
static const char *previous_value(floe_call_t *call, const floe_stack_row_t *previous, const char *key)
{
    cJSON *list, *item;
    const char *value = NULL;

    if (previous == NULL)
        return NULL;
    list = cJSON_Parse(previous->parameters != NULL ? previous->parameters : "[]");
    cJSON_ArrayForEach(item, list)
    {
        if (eq(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(item, "ParameterKey")), key))
            value = floe_call_strdup(call, cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(item, "ParameterValue")));
    }
    cJSON_Delete(list);
    return value;
}

/* The parameter values of the request, previous values taken in. */
static int given_values(floe_call_t *call, const floe_stack_template_input_t *in,
                        const floe_stack_row_t *previous, floe_stack_param_value_t **out, char **why)
{
    floe_stack_param_value_t *values = floe_call_alloc(call, (in->n_parameters + 1) * sizeof(*values));

    for (size_t i = 0; i < in->n_parameters; i++) {
        const floe_stack_parameter_input_t *p = &in->parameters[i];
        values[i].key = p->key;
        values[i].value = p->use_previous_value ? previous_value(call, previous, p->key) : p->value;
        if (values[i].value == NULL)
            return floe_stack_refuse(call, FLOE_EINVAL, why,
                                     p->use_previous_value
                                         ? "Invalid input for parameter key %s. Cannot specify usePreviousValue as "
                                           "true for a parameter key not in the previous template"
                                         : "Invalid input for parameter key %s. Need to specify either usePreviousValue "
                                           "as true or a value for the parameter",
                                     p->key);
    }
    *out = values;
    return FLOE_OK;
}

/* Every declared parameter of the validated template as stored (design note 3). */
static char *parameters_json(floe_call_t *call, const floe_stack_template_ops_t *ops, const floe_stack_template_t *t)
{
    cJSON *list = cJSON_CreateArray();

    for (size_t i = 0; i < ops->n_parameters(t); i++) {
        floe_stack_template_parameter_t p;
        cJSON *item = cJSON_CreateObject();
        ops->parameter(t, i, &p);
        cJSON_AddStringToObject(item, "ParameterKey", p.name);
        cJSON_AddStringToObject(item, "ParameterValue", p.value != NULL ? p.value : "");
        if (p.is_no_echo)
            cJSON_AddBoolToObject(item, "NoEcho", true);
        cJSON_AddItemToArray(list, item);
    }
    return print_json(call, list);
}

static char *tags_json(floe_call_t *call, const floe_stack_template_input_t *in, const floe_stack_row_t *previous)
{
    cJSON *list;

    if (!in->has_tags)
        return floe_call_strdup(call, previous != NULL && previous->tags != NULL ? previous->tags : "[]");
    list = cJSON_CreateArray();
    for (size_t i = 0; i < in->n_tags; i++) {
        cJSON *item = cJSON_CreateObject();
        cJSON_AddStringToObject(item, "Key", in->tags[i].key);
        cJSON_AddStringToObject(item, "Value", in->tags[i].value != NULL ? in->tags[i].value : "");
        cJSON_AddItemToArray(list, item);
    }
    return print_json(call, list);
}

/* The template body the request names: its own, or the stack's with UsePreviousTemplate. Only
 * an inline body is held to 51,200 bytes; one read from TemplateURL may reach 1 MB. */
static int template_body(floe_call_t *call, const floe_stack_template_input_t *in,
                         const floe_stack_row_t *previous, const char **body, char **why)
{
    if (in->use_previous_template && in->template_body != NULL)
        return floe_stack_refuse(call, FLOE_EINVAL, why,
                                 "You cannot specify both usePreviousTemplate and Template Body/Template URL.");
    if (in->use_previous_template && previous == NULL)
        return floe_stack_refuse(call, FLOE_EINVAL, why, "UsePreviousTemplate can only be used with an existing stack.");
    *body = in->use_previous_template ? previous->template_body : in->template_body;
    if (*body == NULL || (*body)[0] == '\0')
        return floe_stack_refuse(call, FLOE_EINVAL, why, "Either Template URL or Template Body must be specified.");
    if (!in->use_previous_template && !in->is_from_url && strlen(*body) > FLOE_STACK_TEMPLATE_BODY_MAX)
        return floe_stack_refuse(call, FLOE_EINVAL, why,
                                 "1 validation error detected: Value '%.64s...' at 'templateBody' failed to satisfy "
                                 "constraint: Member must have length less than or equal to %d",
                                 *body, FLOE_STACK_TEMPLATE_BODY_MAX);
    return FLOE_OK;
}

/* Parses and validates the request's template for stack `name` / `stack_id` (design note 1). */
static int prepare(floe_call_t *call, const floe_stack_template_input_t *in,
                   const floe_stack_row_t *previous, const char *name, const char *stack_id,
                   prepared_t *out, char **why)
{
    const floe_stack_template_ops_t *ops = floe_stack_template_ops();
    floe_stack_pseudo_t pseudo = {floe_call_account(call), floe_call_region(call), name, stack_id};
    floe_stack_param_value_t *values = NULL;
    floe_stack_template_t *t = NULL;
    floe_stack_error_t err;
    int rc;

    if (ops == NULL)
        return floe_stack_refuse(call, FLOE_EINVAL, why, "This build of Floe cannot read templates.");
    if ((rc = template_body(call, in, previous, &out->template_body, why)) != FLOE_OK ||
        (rc = given_values(call, in, previous, &values, why)) != FLOE_OK)
        return rc;
    err.message[0] = '\0';
    if (ops->parse(out->template_body, strlen(out->template_body), &t, &err) != 0 ||
        ops->validate(t, &pseudo, values, in->n_parameters, &err) != 0) {
        if (t != NULL)
            ops->free(t);
        return floe_stack_refuse(call, FLOE_EINVAL, why, "%s", err.message);
    }
    out->parameters = parameters_json(call, ops, t);
    out->tags = tags_json(call, in, previous);
    out->description = floe_call_strdup(call, ops->description(t));
    ops->free(t);
    return FLOE_OK;
}

/* ---- writing ---- */

static int add_stack_event(floe_call_t *call, const floe_stack_row_t *s, const char *status, const char *reason)
{
    floe_stack_event_row_t e = {.logical_id = s->name, .physical_id = s->stack_id,
                                .resource_type = FLOE_STACK_RESOURCE_TYPE, .status = (char *)status,
                                .status_reason = (char *)reason};
    return floe_stack_store_add_event(call, s->id, &e);
}

/* Saves `s` with its new status, the event of it, and queues the engine's work for `caller`. */
static int save_and_queue(floe_call_t *call, const floe_stack_row_t *s, const char *caller)
{
    if (floe_stack_store_save(call, s) || add_stack_event(call, s, s->status, USER_INITIATED))
        return FLOE_EFAIL;
    return floe_stack_store_work_enqueue(call, s->id, 0, caller);
}

/* Runs body in a transaction; the refusal it returns, or FLOE_EFAIL, or DONE. */
typedef struct txn {
    int (*body)(floe_call_t *call, void *arg);
    void *arg;
    int rc;
} txn_t;

static int txn_body(floe_call_t *call, void *arg)
{
    txn_t *t = arg;
    t->rc = t->body(call, t->arg);
    return t->rc == FLOE_OK ? FLOE_OK : FLOE_EFAIL;
}

static int in_transaction(floe_call_t *call, int (*body)(floe_call_t *, void *), void *arg)
{
    txn_t t = {body, arg, FLOE_EFAIL};

    if (floe_call_in_transaction(call, txn_body, &t) != FLOE_OK)
        return call->failure.code != FLOE_OK ? FLOE_EFAIL : t.rc;
    floe_stack_engine_kick();
    return FLOE_OK;
}

/* ---- CreateStack ---- */

typedef struct create_args {
    const floe_stack_create_input_t *in;
    char **stack_id, **why;
} create_args_t;

static const char *on_failure_of(const char *given)
{
    return given != NULL ? given : FLOE_ON_FAILURE_ROLLBACK;
}

static bool is_on_failure(const char *value)
{
    return eq(value, FLOE_ON_FAILURE_ROLLBACK) || eq(value, FLOE_ON_FAILURE_DELETE) ||
           eq(value, FLOE_ON_FAILURE_DO_NOTHING);
}

static int create_body(floe_call_t *call, void *arg)
{
    create_args_t *a = arg;
    const floe_stack_create_input_t *in = a->in;
    floe_stack_row_t s = {0};
    prepared_t p;
    int rc;
    bool is_taken;

    s.stack_id = new_arn(call, "stack", in->stack_name); /* design note 2 */
    if ((rc = prepare(call, &in->template_, NULL, in->stack_name, s.stack_id, &p, a->why)) != FLOE_OK)
        return rc;
    s.account_id = floe_call_account(call);
    s.region = floe_call_region(call);
    s.name = (char *)in->stack_name;
    s.status = FLOE_CREATE_IN_PROGRESS;
    s.status_reason = USER_INITIATED;
    s.description = p.description;
    s.template_body = (char *)p.template_body;
    s.parameters = p.parameters;
    s.tags = p.tags;
    s.disable_rollback = in->disable_rollback;
    s.on_failure = (char *)on_failure_of(in->on_failure);
    s.created_at = floe_call_now(call);
    if (floe_stack_store_insert(call, &s, &is_taken))
        return FLOE_EFAIL;
    if (is_taken)
        return floe_stack_refuse(call, FLOE_EEXISTS, a->why, "Stack [%s] already exists", in->stack_name);
    if (add_stack_event(call, &s, FLOE_CREATE_IN_PROGRESS, USER_INITIATED) ||
        floe_stack_store_work_enqueue(call, s.id, 0, in->caller))
        return FLOE_EFAIL;
    *a->stack_id = s.stack_id;
    return FLOE_OK;
}

int floe_stack_create(floe_call_t *call, const floe_stack_create_input_t *in, char **stack_id, char **why)
{
    create_args_t a = {in, stack_id, why};
    int rc;

    if ((rc = check_name(call, in->stack_name, "stackName", why)) != FLOE_OK)
        return rc;
    if (in->on_failure != NULL && !is_on_failure(in->on_failure))
        return floe_stack_refuse(call, FLOE_EINVAL, why,
                                 "1 validation error detected: Value '%s' at 'onFailure' failed to satisfy constraint: "
                                 "Member must satisfy enum value set: [DO_NOTHING, ROLLBACK, DELETE]",
                                 in->on_failure);
    if (in->on_failure != NULL && in->disable_rollback)
        return floe_stack_refuse(call, FLOE_EINVAL, why,
                                 "You cannot specify both DisableRollback and OnFailure.");
    return in_transaction(call, create_body, &a);
}

/* ---- UpdateStack ---- */

typedef struct update_args {
    const floe_stack_update_input_t *in;
    char **stack_id, **why;
} update_args_t;

/* AWS's refusal for an update of a stack that is not in an updatable state. */
static int refuse_state(floe_call_t *call, const floe_stack_row_t *s, char **why)
{
    return floe_stack_refuse(call, FLOE_EINVAL, why, "Stack:%s is in %s state and can not be updated.",
                             s->stack_id, s->status);
}

/* Moves stack `s` into `status` with the prepared template, keeping the current one as previous. */
static void begin_update(floe_call_t *call, floe_stack_row_t *s, const prepared_t *p, const char *status)
{
    s->previous_template_body = s->template_body;
    s->previous_parameters = s->parameters;
    s->previous_tags = s->tags;
    s->previous_outputs = s->outputs;
    s->previous_description = s->description;
    s->template_body = (char *)p->template_body;
    s->parameters = p->parameters;
    s->tags = p->tags;
    s->description = p->description;
    s->status = (char *)status;
    s->status_reason = USER_INITIATED;
    s->updated_at = floe_call_now(call);
}

static int update_body(floe_call_t *call, void *arg)
{
    update_args_t *a = arg;
    floe_stack_row_t s;
    prepared_t p;
    int rc;

    if (floe_stack_find(call, a->in->stack_name, false, &s, a->why) != FLOE_OK)
        return call->failure.code != FLOE_OK
                   ? FLOE_EFAIL
                   : floe_stack_refuse(call, FLOE_EINVAL, a->why, "Stack [%s] does not exist", a->in->stack_name);
    if (!floe_stack_status_is_updatable(s.status))
        return refuse_state(call, &s, a->why);
    if ((rc = prepare(call, &a->in->template_, &s, s.name, s.stack_id, &p, a->why)) != FLOE_OK)
        return rc;
    if (eq(p.template_body, s.template_body) && eq(p.parameters, s.parameters) && eq(p.tags, s.tags))
        return floe_stack_refuse(call, FLOE_EINVAL, a->why, "No updates are to be performed.");
    begin_update(call, &s, &p, FLOE_UPDATE_IN_PROGRESS);
    s.disable_rollback = a->in->disable_rollback;
    s.change_set_id = NULL;
    if (save_and_queue(call, &s, a->in->caller))
        return FLOE_EFAIL;
    *a->stack_id = s.stack_id;
    return FLOE_OK;
}

int floe_stack_update(floe_call_t *call, const floe_stack_update_input_t *in, char **stack_id, char **why)
{
    update_args_t a = {in, stack_id, why};
    return in_transaction(call, update_body, &a);
}

/* ---- DeleteStack ---- */

typedef struct delete_args {
    const char *stack_name;
    const char *const *retain;
    size_t n_retain;
    const char *caller;
    char **stack_id, **why;
} delete_args_t;

static char *retain_json(floe_call_t *call, const char *const *retain, size_t n)
{
    cJSON *list;

    if (n == 0)
        return NULL;
    list = cJSON_CreateArray();
    for (size_t i = 0; i < n; i++)
        cJSON_AddItemToArray(list, cJSON_CreateString(retain[i]));
    return print_json(call, list);
}

static int delete_body(floe_call_t *call, void *arg)
{
    delete_args_t *a = arg;
    floe_stack_row_t s;
    bool found;

    if (floe_stack_store_find(call, a->stack_name, &s, &found))
        return FLOE_EFAIL;
    if (!found || eq(s.status, FLOE_DELETE_COMPLETE) || eq(s.status, FLOE_DELETE_IN_PROGRESS))
        return FLOE_OK; /* AWS answers a DeleteStack of a stack it does not have with success */
    if (a->n_retain > 0 && !eq(s.status, FLOE_DELETE_FAILED))
        return floe_stack_refuse(call, FLOE_EINVAL, a->why,
                                 "Invalid operation on stack [%s]: RetainResources can only be specified when the "
                                 "stack is in the DELETE_FAILED state",
                                 s.stack_id);
    if (a->stack_id != NULL)
        *a->stack_id = s.stack_id;
    if (floe_stack_status_is_in_progress(s.status) && !eq(s.status, FLOE_REVIEW_IN_PROGRESS)) /* design note 4 */
        return floe_stack_store_request_delete(call, s.id, true) ||
                       floe_stack_store_work_enqueue(call, s.id, 0, a->caller)
                   ? FLOE_EFAIL
                   : FLOE_OK;
    s.status = FLOE_DELETE_IN_PROGRESS;
    s.status_reason = USER_INITIATED;
    s.retain_resources = retain_json(call, a->retain, a->n_retain);
    return save_and_queue(call, &s, a->caller) ? FLOE_EFAIL : FLOE_OK;
}

int floe_stack_delete(floe_call_t *call, const char *stack_name, const char *const *retain, size_t n_retain,
                      const char *caller, char **stack_id, char **why)
{
    delete_args_t a = {stack_name, retain, n_retain, caller, stack_id, why};
    return in_transaction(call, delete_body, &a);
}

/* ---- CreateChangeSet ---- */

typedef struct change_set_args {
    const floe_stack_change_set_input_t *in;
    char **change_set_id, **stack_id, **why;
} change_set_args_t;

/* The stack a CREATE change set goes to: one in REVIEW_IN_PROGRESS, or a new one. */
static int review_stack(floe_call_t *call, const change_set_args_t *a, floe_stack_row_t *s)
{
    const floe_stack_change_set_input_t *in = a->in;
    bool found, is_taken;

    if (floe_stack_store_find(call, in->stack_name, s, &found))
        return FLOE_EFAIL;
    if (found && eq(s->status, FLOE_REVIEW_IN_PROGRESS))
        return FLOE_OK;
    if (found && !eq(s->status, FLOE_DELETE_COMPLETE))
        return floe_stack_refuse(call, FLOE_EINVAL, a->why,
                                 "Stack [%s] already exists and cannot be created again with the changeSet [%s].",
                                 in->stack_name, in->change_set_name);
    if (check_name(call, in->stack_name, "stackName", a->why) != FLOE_OK)
        return FLOE_EINVAL;
    memset(s, 0, sizeof(*s));
    s->stack_id = new_arn(call, "stack", in->stack_name);
    s->account_id = floe_call_account(call);
    s->region = floe_call_region(call);
    s->name = (char *)in->stack_name;
    s->status = FLOE_REVIEW_IN_PROGRESS;
    s->status_reason = USER_INITIATED;
    s->template_body = "";
    s->parameters = "[]";
    s->tags = "[]";
    s->on_failure = FLOE_ON_FAILURE_ROLLBACK;
    s->created_at = floe_call_now(call);
    if (floe_stack_store_insert(call, s, &is_taken))
        return FLOE_EFAIL;
    if (is_taken)
        return floe_stack_refuse(call, FLOE_EEXISTS, a->why, "Stack [%s] already exists", in->stack_name);
    return add_stack_event(call, s, FLOE_REVIEW_IN_PROGRESS, USER_INITIATED) ? FLOE_EFAIL : FLOE_OK;
}

/* The stack an UPDATE change set goes to: one that exists and can be updated. */
static int updated_stack(floe_call_t *call, const change_set_args_t *a, floe_stack_row_t *s)
{
    if (floe_stack_find(call, a->in->stack_name, false, s, a->why) != FLOE_OK)
        return call->failure.code != FLOE_OK
                   ? FLOE_EFAIL
                   : floe_stack_refuse(call, FLOE_EINVAL, a->why, "Stack [%s] does not exist", a->in->stack_name);
    if (!floe_stack_status_is_updatable(s->status))
        return refuse_state(call, s, a->why);
    return FLOE_OK;
}

static int change_set_body(floe_call_t *call, void *arg)
{
    change_set_args_t *a = arg;
    const floe_stack_change_set_input_t *in = a->in;
    bool is_create = eq(in->change_set_type, FLOE_CHANGE_SET_TYPE_CREATE), is_taken;
    floe_change_set_row_t cs = {0};
    floe_stack_row_t s;
    prepared_t p;
    int rc;

    if ((rc = is_create ? review_stack(call, a, &s) : updated_stack(call, a, &s)) != FLOE_OK ||
        (rc = prepare(call, &in->template_, is_create ? NULL : &s, s.name, s.stack_id, &p, a->why)) != FLOE_OK)
        return rc;
    cs.stack_row_id = s.id;
    cs.change_set_id = new_arn(call, "changeSet", in->change_set_name);
    cs.name = (char *)in->change_set_name;
    cs.type = is_create ? FLOE_CHANGE_SET_TYPE_CREATE : FLOE_CHANGE_SET_TYPE_UPDATE;
    cs.status = FLOE_CHANGE_SET_CREATE_PENDING;
    cs.execution_status = FLOE_EXECUTION_UNAVAILABLE;
    cs.description = (char *)in->description;
    cs.template_body = (char *)p.template_body;
    cs.parameters = p.parameters;
    cs.tags = p.tags;
    cs.on_failure = (char *)on_failure_of(in->on_stack_failure);
    cs.created_at = floe_call_now(call);
    if (floe_stack_store_change_set_insert(call, &cs, &is_taken))
        return FLOE_EFAIL;
    if (is_taken)
        return floe_stack_refuse(call, FLOE_EEXISTS, a->why, "ChangeSet [%s] already exists",
                                 in->change_set_name);
    if (floe_stack_store_work_enqueue(call, s.id, cs.id, NULL)) /* computing changes acts on nothing */
        return FLOE_EFAIL;
    *a->change_set_id = cs.change_set_id;
    *a->stack_id = s.stack_id;
    return FLOE_OK;
}

int floe_stack_change_set_create(floe_call_t *call, const floe_stack_change_set_input_t *in,
                                 char **change_set_id, char **stack_id, char **why)
{
    change_set_args_t a = {in, change_set_id, stack_id, why};
    int rc;

    if ((rc = check_name(call, in->change_set_name, "changeSetName", why)) != FLOE_OK)
        return rc;
    if (in->change_set_type != NULL && !eq(in->change_set_type, FLOE_CHANGE_SET_TYPE_CREATE) &&
        !eq(in->change_set_type, FLOE_CHANGE_SET_TYPE_UPDATE))
        return floe_stack_refuse(call, FLOE_EINVAL, why, "ChangeSetType %s is not supported.",
                                 in->change_set_type);
    if (in->on_stack_failure != NULL && !is_on_failure(in->on_stack_failure))
        return floe_stack_refuse(call, FLOE_EINVAL, why,
                                 "1 validation error detected: Value '%s' at 'onStackFailure' failed to satisfy "
                                 "constraint: Member must satisfy enum value set: [DO_NOTHING, ROLLBACK, DELETE]",
                                 in->on_stack_failure);
    return in_transaction(call, change_set_body, &a);
}

/* ---- finding a change set ---- */

int floe_stack_find_change_set(floe_call_t *call, const char *change_set, const char *stack_name,
                               floe_change_set_row_t *out, char **why)
{
    bool is_arn = strncmp(change_set, "arn:", 4) == 0, found;
    floe_stack_row_t s = {0};

    if (!is_arn && stack_name == NULL)
        return floe_stack_refuse(call, FLOE_EINVAL, why,
                                 "StackName must be specified if ChangeSetName is not specified as an ARN.");
    if (!is_arn && floe_stack_store_find(call, stack_name, &s, &found))
        return FLOE_EFAIL;
    if (!is_arn && !found)
        return floe_stack_refuse(call, FLOE_ENOTFOUND, why, "ChangeSet [%s] does not exist",
                                 change_set);
    if (floe_stack_store_change_set_find(call, s.id, change_set, out, &found))
        return FLOE_EFAIL;
    if (!found)
        return floe_stack_refuse(call, FLOE_ENOTFOUND, why, "ChangeSet [%s] does not exist",
                                 change_set);
    return FLOE_OK;
}

/* ---- ExecuteChangeSet ---- */

typedef struct execute_args {
    const char *change_set, *stack_name;
    bool has_disable_rollback, disable_rollback;
    const char *caller;
    char **stack_id, **why;
} execute_args_t;

/* Moves the change set's stack into CREATE_IN_PROGRESS or UPDATE_IN_PROGRESS with its template. */
static int begin_execution(floe_call_t *call, execute_args_t *a, const floe_change_set_row_t *cs,
                           floe_stack_row_t *s)
{
    prepared_t p = {cs->template_body, cs->parameters, cs->tags, NULL};
    const char *description = s->description;

    if (eq(cs->type, FLOE_CHANGE_SET_TYPE_CREATE)) {
        if (!eq(s->status, FLOE_REVIEW_IN_PROGRESS))
            return refuse_state(call, s, a->why);
        s->status = FLOE_CREATE_IN_PROGRESS;
        s->template_body = cs->template_body;
        s->parameters = cs->parameters;
        s->tags = cs->tags;
        s->on_failure = cs->on_failure;
    } else {
        if (!floe_stack_status_is_updatable(s->status))
            return refuse_state(call, s, a->why);
        begin_update(call, s, &p, FLOE_UPDATE_IN_PROGRESS);
        s->description = (char *)description; /* the engine sets the new one from the template */
    }
    s->status_reason = USER_INITIATED;
    s->disable_rollback = a->has_disable_rollback && a->disable_rollback;
    s->change_set_id = cs->change_set_id;
    return FLOE_OK;
}

static int execute_body(floe_call_t *call, void *arg)
{
    execute_args_t *a = arg;
    floe_change_set_row_t cs;
    floe_stack_row_t s;
    int rc;

    if ((rc = floe_stack_find_change_set(call, a->change_set, a->stack_name, &cs, a->why)) != FLOE_OK)
        return rc;
    if (!eq(cs.status, FLOE_CHANGE_SET_CREATE_COMPLETE) || !eq(cs.execution_status, FLOE_EXECUTION_AVAILABLE))
        return floe_stack_refuse(call, FLOE_ESTATE, a->why,
                                 "ChangeSet [%s] cannot be executed in its current execution status of [%s]",
                                 cs.change_set_id, cs.execution_status);
    if (floe_stack_store_get(call, cs.stack_row_id, &s))
        return FLOE_EFAIL;
    if ((rc = begin_execution(call, a, &cs, &s)) != FLOE_OK)
        return rc;
    cs.execution_status = FLOE_EXECUTION_IN_PROGRESS;
    if (floe_stack_store_change_set_save(call, &cs) || floe_stack_store_change_set_delete_others(call, s.id, cs.id) ||
        save_and_queue(call, &s, a->caller))
        return FLOE_EFAIL;
    if (a->stack_id != NULL)
        *a->stack_id = s.stack_id;
    return FLOE_OK;
}

int floe_stack_change_set_execute(floe_call_t *call, const char *change_set, const char *stack_name,
                                  bool has_disable_rollback, bool disable_rollback, const char *caller,
                                  char **stack_id, char **why)
{
    execute_args_t a = {change_set, stack_name, has_disable_rollback, disable_rollback, caller, stack_id, why};
    return in_transaction(call, execute_body, &a);
}

/* ---- DeleteChangeSet ---- */

typedef struct delete_change_set_args {
    const char *change_set, *stack_name;
    char **why;
} delete_change_set_args_t;

/* DeleteChangeSet of a change set that is not there succeeds while its stack exists, as on AWS:
 * the AWS CDK CLI deletes its `cdk-deploy-change-set` before every deploy to an existing stack,
 * whether or not it is there (cleanupOldChangeset, deploy-stack.ts, aws-cdk 2.1148), and a deploy
 * that found no changes has already deleted it, so the next deploy would otherwise fail. */
static int change_set_already_gone(floe_call_t *call, delete_change_set_args_t *a)
{
    floe_stack_row_t s;

    if (strncmp(a->change_set, "arn:", 4) == 0)
        return FLOE_OK;
    return floe_stack_find(call, a->stack_name, false, &s, a->why);
}

static int delete_change_set_body(floe_call_t *call, void *arg)
{
    delete_change_set_args_t *a = arg;
    floe_change_set_row_t cs;
    int rc;

    rc = floe_stack_find_change_set(call, a->change_set, a->stack_name, &cs, a->why);
    if (rc == FLOE_ENOTFOUND)
        return change_set_already_gone(call, a);
    if (rc != FLOE_OK)
        return rc;
    if (eq(cs.execution_status, FLOE_EXECUTION_IN_PROGRESS))
        return floe_stack_refuse(call, FLOE_ESTATE, a->why,
                                 "ChangeSet [%s] cannot be deleted in its current execution status of [%s]",
                                 cs.change_set_id, cs.execution_status);
    return floe_stack_store_change_set_delete(call, cs.id) ? FLOE_EFAIL : FLOE_OK;
}

int floe_stack_change_set_delete(floe_call_t *call, const char *change_set, const char *stack_name,
                                 char **why)
{
    delete_change_set_args_t a = {change_set, stack_name, why};
    return in_transaction(call, delete_change_set_body, &a);
}

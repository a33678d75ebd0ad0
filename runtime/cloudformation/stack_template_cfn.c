/*
 * The template library (cfn_template/template.h) as the stack engine's table (stack_template.h):
 * a thin bridge, which stack_template.c registers as the process's library. floe_stack_template_t
 * is the library's floe_cfn_template_t; messages and resolvers pass through unchanged.
 */
#include <stdio.h>
#include <string.h>

#include "base/failure.h"
#include "cfn_template/references.h"
#include "cfn_template/template.h"
#include "cloudformation/stack_template.h"

/* The library's handle behind the engine's opaque one. */
static floe_cfn_template_t *lib(const floe_stack_template_t *t)
{
    return (floe_cfn_template_t *)t;
}

static int pass_error(int rc, const floe_cfn_template_error_t *from, floe_stack_error_t *to)
{
    if (rc != 0 && to != NULL)
        snprintf(to->message, sizeof(to->message), "%s", from->message);
    return rc == 0 ? FLOE_OK : FLOE_EFAIL;
}

/* ---- the engine's resolver, seen through the library's ---- */

static int back_error(int rc, const floe_stack_error_t *from, floe_cfn_template_error_t *to)
{
    if (rc != 0 && to != NULL)
        snprintf(to->message, sizeof(to->message), "%s", from->message);
    return rc == 0 ? FLOE_OK : FLOE_EFAIL;
}

static int on_ref(void *ctx, const char *logical_id, const char **value, floe_cfn_template_error_t *err)
{
    const floe_stack_resolver_t *r = ctx;
    floe_stack_error_t e = {""};

    *value = NULL;
    return r->ref == NULL ? FLOE_OK : back_error(r->ref(r->ctx, logical_id, value, &e), &e, err);
}

static int on_get_att(void *ctx, const char *logical_id, const char *attribute, const char **value,
                      floe_cfn_template_error_t *err)
{
    const floe_stack_resolver_t *r = ctx;
    floe_stack_error_t e = {""};

    *value = NULL;
    return r->get_att == NULL ? FLOE_OK : back_error(r->get_att(r->ctx, logical_id, attribute, value, &e), &e, err);
}

static int on_import_value(void *ctx, const char *export_name, const char **value, floe_cfn_template_error_t *err)
{
    const floe_stack_resolver_t *r = ctx;
    floe_stack_error_t e = {""};

    *value = NULL;
    return r->import_value == NULL ? FLOE_OK
                                   : back_error(r->import_value(r->ctx, export_name, value, &e), &e, err);
}

static floe_cfn_resolver_t library_resolver(const floe_stack_resolver_t *r)
{
    floe_cfn_resolver_t out = {on_ref, on_get_att, on_import_value, (void *)r};
    return out;
}

/* ---- the table ---- */

static int cfn_parse(const char *text, size_t len, floe_stack_template_t **out, floe_stack_error_t *err)
{
    floe_cfn_template_t *t = NULL;
    floe_cfn_template_error_t e;
    int rc = floe_cfn_template_parse(text, len, &t, &e);

    *out = (floe_stack_template_t *)t;
    return pass_error(rc, &e, err);
}

static void cfn_free(floe_stack_template_t *t)
{
    floe_cfn_template_free(lib(t));
}

static int cfn_validate(floe_stack_template_t *t, const floe_stack_pseudo_t *pseudo,
                        const floe_stack_param_value_t *params, size_t n_params, floe_stack_error_t *err)
{
    floe_cfn_stack_info_t stack = {pseudo->account_id, pseudo->region, pseudo->stack_name, pseudo->stack_id};
    floe_cfn_template_error_t e;

    /* floe_stack_param_value_t and floe_cfn_param_value_t are both {key, value}. */
    return pass_error(floe_cfn_template_validate(lib(t), &stack, (const floe_cfn_param_value_t *)params, n_params, &e),
                      &e, err);
}

static const char *cfn_description(const floe_stack_template_t *t)
{
    return lib(t)->description;
}

static size_t cfn_n_parameters(const floe_stack_template_t *t)
{
    return lib(t)->n_parameters;
}

static void cfn_parameter(const floe_stack_template_t *t, size_t i, floe_stack_template_parameter_t *out)
{
    const floe_cfn_parameter_t *p = &lib(t)->parameters[i];
    out->name = p->name;
    out->value = p->value;
    out->is_no_echo = p->is_no_echo;
}

static size_t cfn_n_resources(const floe_stack_template_t *t)
{
    return lib(t)->n_order;
}

static floe_stack_policy_t policy(floe_cfn_policy_t p)
{
    switch (p) {
    case FLOE_CFN_POLICY_RETAIN: return FLOE_STACK_POLICY_RETAIN;
    case FLOE_CFN_POLICY_RETAIN_EXCEPT_ON_CREATE: return FLOE_STACK_POLICY_RETAIN_EXCEPT_ON_CREATE;
    default: return FLOE_STACK_POLICY_DELETE;
    }
}

static void cfn_resource(const floe_stack_template_t *t, size_t i, floe_stack_template_resource_t *out)
{
    const floe_cfn_resource_t *r = lib(t)->order[i];
    out->logical_id = r->logical_id;
    out->type = r->type;
    out->deletion_policy = policy(r->deletion_policy);
    out->update_replace_policy = policy(r->update_replace_policy);
}

static int cfn_resource_properties(const floe_stack_template_t *t, const char *logical_id,
                                   const floe_stack_resolver_t *resolver, cJSON **out, floe_stack_error_t *err)
{
    floe_cfn_resolver_t r = library_resolver(resolver);
    floe_cfn_template_error_t e;

    return pass_error(floe_cfn_resource_properties(lib(t), floe_cfn_template_resource(lib(t), logical_id), &r, out, &e),
                      &e, err);
}

static int cfn_resource_details(const floe_stack_template_t *t, const char *logical_id,
                                const floe_stack_resolver_t *resolver, cJSON **metadata, const char **description,
                                floe_stack_error_t *err)
{
    floe_cfn_resource_t *res = floe_cfn_template_resource(lib(t), logical_id);
    floe_cfn_resolver_t r = library_resolver(resolver);
    floe_cfn_template_error_t e;

    if (res == NULL || !res->is_active) {
        snprintf(err->message, sizeof(err->message), "Resource %s is not in the template.", logical_id);
        return FLOE_EFAIL;
    }
    *description = res->description;
    return pass_error(floe_cfn_resource_metadata(lib(t), res, &r, metadata, &e), &e, err);
}

/* The i-th active output. */
static const floe_cfn_output_t *active_output(const floe_cfn_template_t *t, size_t i)
{
    for (size_t j = 0; j < t->n_outputs; j++) {
        if (t->outputs[j].is_active && i-- == 0)
            return &t->outputs[j];
    }
    return NULL;
}

static size_t cfn_n_outputs(const floe_stack_template_t *t)
{
    size_t n = 0;
    for (size_t j = 0; j < lib(t)->n_outputs; j++)
        n += lib(t)->outputs[j].is_active;
    return n;
}

static int cfn_output(const floe_stack_template_t *t, size_t i, const floe_stack_resolver_t *resolver,
                      floe_stack_template_output_t *out, floe_stack_error_t *err)
{
    const floe_cfn_output_t *o = active_output(lib(t), i);
    floe_cfn_resolver_t r = library_resolver(resolver);
    floe_cfn_template_error_t e;

    out->name = o->name;
    out->description = o->description;
    return pass_error(floe_cfn_output_value(lib(t), o, &r, &out->value, &out->export_name, &e), &e, err);
}

typedef struct parameter_walk {
    const floe_cfn_template_t *t;
    void (*on_parameter)(void *arg, const char *name);
    void *arg;
} parameter_walk_t;

static void on_parameter_reference(void *arg, const char *name, const char *attribute)
{
    parameter_walk_t *w = arg;

    if (attribute == NULL && floe_cfn_template_parameter(w->t, name) != NULL)
        w->on_parameter(w->arg, name);
}

static void cfn_property_parameters(const floe_stack_template_t *t, const char *logical_id, const char *property,
                                    void (*on_parameter)(void *arg, const char *name), void *arg)
{
    const floe_cfn_resource_t *r = floe_cfn_template_resource(lib(t), logical_id);
    parameter_walk_t w = {lib(t), on_parameter, arg};
    floe_cfn_template_error_t err;
    const cJSON *node;

    if (r == NULL || (node = cJSON_GetObjectItemCaseSensitive(r->properties, property)) == NULL)
        return;
    /* A validated template walks without error; a walk that stops reports what it saw. */
    (void)floe_cfn_walk_references(lib(t), node, false, true, on_parameter_reference, &w, &err);
}

const floe_stack_template_ops_t floe_stack_template_cfn = {
    .parse = cfn_parse,
    .free = cfn_free,
    .validate = cfn_validate,
    .description = cfn_description,
    .n_parameters = cfn_n_parameters,
    .parameter = cfn_parameter,
    .n_resources = cfn_n_resources,
    .resource = cfn_resource,
    .resource_properties = cfn_resource_properties,
    .resource_details = cfn_resource_details,
    .n_outputs = cfn_n_outputs,
    .output = cfn_output,
    .is_unknown = floe_cfn_is_unknown,
    .property_parameters = cfn_property_parameters,
};

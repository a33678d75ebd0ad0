/*
 * The glue every CloudFormation handler shares (cloudformation.h): outcome codes to errors, and
 * template, parameter and tag members between the generated shapes and the stack API.
 */
#include <string.h>

#include "catalog/page_token.h"
#include "cloudformation.h"
#include "cloudformation/template_url.h"

int floe_cfnh_answer(floe_query_call_t *call, int rc, char *const *why_set)
{
    /* Read only now: `why` is filled by the engine call that is this function's own argument. */
    const char *why = why_set != NULL && *why_set != NULL ? *why_set : "The request was refused.";
    switch (rc) {
    case FLOE_OK:
        return FLOE_OK;
    case FLOE_EFAIL:
        return FLOE_EFAIL;
    case FLOE_EINVAL:
        return floe_cfn_fail(call, FLOE_CFN_ERR_ValidationError, "%s", why);
    case FLOE_EEXISTS:
        return floe_cfn_fail(call, FLOE_CFN_ERR_AlreadyExistsException, "%s", why);
    case FLOE_ENOTFOUND:
        return floe_cfn_fail(call, FLOE_CFN_ERR_ChangeSetNotFoundException, "%s", why);
    case FLOE_ESTATE:
        return floe_cfn_fail(call, FLOE_CFN_ERR_InvalidChangeSetStatusException, "%s", why);
    case FLOE_EDENIED:
        return floe_cfn_fail(call, FLOE_CFN_ERR_AccessDenied, "%s", why);
    }
    return floe_cfn_fail_internal(call, "stack API answered an unknown outcome");
}

int floe_cfnh_authorize(floe_query_call_t *call, const char *stack_name, const char **caller)
{
    const char *acting_for = NULL;
    char *why = NULL;

    if (floe_cfnh_answer(call, floe_stack_authorize(&call->super, call->access_key, call->action, stack_name,
                                                    &acting_for, &why),
                         &why) != FLOE_OK)
        return FLOE_EFAIL;
    if (caller != NULL)
        *caller = acting_for;
    return FLOE_OK;
}

static bool stack_is_settled(floe_query_call_t *call, void *stack_id)
{
    return floe_stack_is_settled(&call->super, stack_id);
}

int floe_cfnh_answer_settled(floe_query_call_t *call, int rc, char *const *stack_id, char *const *why)
{
    if (floe_cfnh_answer(call, rc, why) != FLOE_OK)
        return FLOE_EFAIL;
    if (*stack_id != NULL)
        floe_query_call_hold(call, stack_is_settled, *stack_id);
    return FLOE_OK;
}

int floe_cfnh_template_input(floe_query_call_t *call, const char *template_body, const char *template_url,
                             bool use_previous_template, const floe_cfn_Parameters *parameters,
                             const floe_cfn_Tags *tags, floe_stack_template_input_t *out)
{
    char *why = NULL, *fetched = NULL;

    *out = (floe_stack_template_input_t){0};
    if (template_url != NULL && template_body != NULL)
        return floe_cfn_fail(call, FLOE_CFN_ERR_ValidationError, "You cannot specify both Template URL and Template Body");
    if (template_url != NULL) {
        if (floe_cfnh_answer(call, floe_stack_template_from_url(&call->super, template_url, &fetched, &why), &why) !=
            FLOE_OK)
            return FLOE_EFAIL;
        template_body = fetched;
        out->is_from_url = true;
    }
    out->template_body = template_body;
    out->use_previous_template = use_previous_template;
    if (parameters != NULL && parameters->n > 0) {
        floe_stack_parameter_input_t *p = floe_call_alloc(&call->super, parameters->n * sizeof(*p));
        for (size_t i = 0; i < parameters->n; i++) {
            p[i].key = parameters->items[i].ParameterKey;
            p[i].value = parameters->items[i].ParameterValue;
            p[i].use_previous_value = parameters->items[i].has_UsePreviousValue && parameters->items[i].UsePreviousValue;
        }
        out->parameters = p;
        out->n_parameters = parameters->n;
    }
    if (tags != NULL) {
        floe_stack_tag_t *t = tags->n > 0 ? floe_call_alloc(&call->super, tags->n * sizeof(*t)) : NULL;
        for (size_t i = 0; i < tags->n; i++) {
            t[i].key = tags->items[i].Key;
            t[i].value = tags->items[i].Value;
        }
        out->tags = t;
        out->n_tags = tags->n;
        out->has_tags = true;
    }
    return FLOE_OK;
}

floe_cfn_Parameters *floe_cfnh_parameters(floe_query_call_t *call, const floe_stack_parameter_t *p, size_t n)
{
    floe_cfn_Parameters *out;

    if (n == 0)
        return NULL;
    out = floe_call_alloc(&call->super, sizeof(*out));
    out->items = floe_call_alloc(&call->super, n * sizeof(*out->items));
    out->n = n;
    for (size_t i = 0; i < n; i++) {
        out->items[i].ParameterKey = p[i].key;
        out->items[i].ParameterValue = p[i].value;
    }
    return out;
}

floe_cfn_Tags *floe_cfnh_tags(floe_query_call_t *call, const floe_stack_pair_t *p, size_t n)
{
    floe_cfn_Tags *out;

    if (n == 0)
        return NULL;
    out = floe_call_alloc(&call->super, sizeof(*out));
    out->items = floe_call_alloc(&call->super, n * sizeof(*out->items));
    out->n = n;
    for (size_t i = 0; i < n; i++) {
        out->items[i].Key = p[i].key;
        out->items[i].Value = p[i].value;
    }
    return out;
}

int floe_cfnh_page(floe_query_call_t *call, const char *listing, const char *next_token, const void *items, size_t n,
                   floe_cfnh_key_fn key_of, size_t *start, size_t *end, char **next)
{
    const char *after;
    size_t i = 0;

    if (next_token != NULL) {
        if ((after = floe_page_token_decode(&call->super, listing, next_token)) == NULL)
            return floe_cfn_fail(call, FLOE_CFN_ERR_ValidationError, "Invalid NextToken: %s", next_token);
        while (i < n && strcmp(key_of(items, i), after) != 0)
            i++;
        if (i == n) /* the item the page ended on is gone (a stack deleted meanwhile, say) */
            return floe_cfn_fail(call, FLOE_CFN_ERR_ValidationError, "Invalid NextToken: %s", next_token);
        i++;
    }
    *start = i;
    *end = n - i > FLOE_CFNH_PAGE_SIZE ? i + FLOE_CFNH_PAGE_SIZE : n;
    *next = *end < n ? floe_page_token_encode(&call->super, listing, key_of(items, *end - 1)) : NULL;
    return FLOE_OK;
}

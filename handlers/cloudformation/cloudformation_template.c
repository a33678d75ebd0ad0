/*
 * CloudFormation templates without a stack change: GetTemplate (a stack's or change set's template
 * as given), GetTemplateSummary and ValidateTemplate (a template read by the template library,
 * cfn_template/template.h, which finds the same errors CreateStack would before binding
 * parameters). Everything handed back is copied into the call's pool before the template is freed.
 */
#include <string.h>

#include "cfn_template/template.h"
#include "cloudformation.h"
#include "cloudformation/template_url.h"

int floe_cfn_handle_GetTemplate(floe_query_call_t *call, const floe_cfn_GetTemplateInput *in,
                                floe_cfn_GetTemplateOutput *out)
{
    char *why = NULL;

    if (floe_cfnh_authorize(call, in->StackName, NULL) != FLOE_OK)
        return FLOE_EFAIL;
    if (in->StackName == NULL && in->ChangeSetName == NULL)
        return floe_cfn_fail(call, FLOE_CFN_ERR_ValidationError, "Either StackName or ChangeSetName must be specified.");
    return floe_cfnh_answer(call,
                            floe_stack_template(&call->super, in->StackName, in->ChangeSetName, &out->TemplateBody, &why), &why);
}

/* Parses the request's template: TemplateBody, TemplateURL (read from Floe's own S3), or the
 * template of the stack StackName names.
 * FLOE_OK with *t (the caller frees it), or FLOE_EFAIL with the call failed. */
static int parse_template(floe_query_call_t *call, const char *body, const char *url, const char *stack_name,
                          floe_cfn_template_t **t)
{
    floe_cfn_template_error_t err;
    int given = (body != NULL) + (url != NULL) + (stack_name != NULL);

    if (given != 1)
        return floe_cfn_fail(call, FLOE_CFN_ERR_ValidationError,
                             stack_name != NULL || given > 1
                                 ? "Exactly one of TemplateBody, TemplateUrl, StackName or StackSetName must be specified."
                                 : "Either Template URL or Template Body must be specified.");
    if (url != NULL) {
        char *why = NULL, *fetched = NULL;

        if (floe_cfnh_answer(call, floe_stack_template_from_url(&call->super, url, &fetched, &why), &why) != FLOE_OK)
            return FLOE_EFAIL;
        body = fetched;
    }
    if (stack_name != NULL) {
        char *why = NULL;
        char *stored = NULL;

        if (floe_cfnh_answer(call, floe_stack_template(&call->super, stack_name, NULL, &stored, &why), &why) != FLOE_OK)
            return FLOE_EFAIL;
        body = stored;
    }
    if (url == NULL && strlen(body) > FLOE_STACK_TEMPLATE_BODY_MAX)
        return floe_cfn_fail(call, FLOE_CFN_ERR_ValidationError,
                             "1 validation error detected: Value at 'templateBody' failed to satisfy constraint: Member "
                             "must have length less than or equal to %d",
                             FLOE_STACK_TEMPLATE_BODY_MAX);
    if (floe_cfn_template_parse(body, strlen(body), t, &err) != FLOE_OK)
        return floe_cfn_fail(call, FLOE_CFN_ERR_ValidationError, "%s", err.message);
    return FLOE_OK;
}

/* A JSON value as text in the call's pool: a string as itself, anything else as JSON. */
static char *json_text(floe_query_call_t *call, const cJSON *v)
{
    if (v == NULL)
        return NULL;
    if (cJSON_IsString(v))
        return floe_call_strdup(&call->super, v->valuestring);
    return floe_call_keep(&call->super, cJSON_PrintUnformatted(v));
}

int floe_cfn_handle_GetTemplateSummary(floe_query_call_t *call, const floe_cfn_GetTemplateSummaryInput *in,
                                       floe_cfn_GetTemplateSummaryOutput *out)
{
    floe_cfn_template_t *t = NULL;
    const char **types;
    size_t n_types;

    if (floe_cfnh_authorize(call, in->StackName, NULL) != FLOE_OK)
        return FLOE_EFAIL;
    if (in->StackSetName != NULL)
        return floe_cfn_fail(call, FLOE_CFN_ERR_ValidationError, "Floe has no stack sets.");
    if (parse_template(call, in->TemplateBody, in->TemplateURL, in->StackName, &t) != FLOE_OK)
        return FLOE_EFAIL;
    out->Description = floe_call_strdup(&call->super, t->description);
    out->Version = floe_call_strdup(&call->super, t->format_version != NULL ? t->format_version : FLOE_CFN_FORMAT_VERSION);
    out->Metadata = json_text(call, t->metadata);
    if (t->n_parameters > 0) {
        out->Parameters = floe_call_alloc(&call->super, sizeof(*out->Parameters));
        out->Parameters->items = floe_call_alloc(&call->super, t->n_parameters * sizeof(*out->Parameters->items));
        out->Parameters->n = t->n_parameters;
    }
    for (size_t i = 0; i < t->n_parameters; i++) {
        const floe_cfn_parameter_t *p = &t->parameters[i];
        floe_cfn_ParameterDeclaration *o = &out->Parameters->items[i];

        o->ParameterKey = floe_call_strdup(&call->super, p->name);
        o->DefaultValue = floe_call_strdup(&call->super, p->default_value);
        o->ParameterType = floe_call_strdup(&call->super, p->type);
        o->NoEcho = p->is_no_echo;
        o->has_NoEcho = true;
        o->Description = floe_call_strdup(&call->super, p->description);
        o->ParameterConstraints = floe_call_alloc(&call->super, sizeof(*o->ParameterConstraints));
        if (cJSON_IsArray(p->allowed_values)) {
            int n = cJSON_GetArraySize(p->allowed_values);
            floe_cfn_AllowedValues *av = floe_call_alloc(&call->super, sizeof(*av));
            const cJSON *v;
            size_t j = 0;

            av->items = n > 0 ? floe_call_alloc(&call->super, (size_t)n * sizeof(*av->items)) : NULL;
            cJSON_ArrayForEach(v, p->allowed_values) av->items[j++] = json_text(call, v);
            av->n = j;
            o->ParameterConstraints->AllowedValues = av;
        }
    }
    types = floe_call_alloc(&call->super, (t->n_resources + 1) * sizeof(*types));
    n_types = floe_cfn_template_resource_types(t, types);
    out->ResourceTypes = floe_call_alloc(&call->super, sizeof(*out->ResourceTypes));
    out->ResourceTypes->items = floe_call_alloc(&call->super, (n_types + 1) * sizeof(char *));
    out->ResourceTypes->n = n_types;
    for (size_t i = 0; i < n_types; i++)
        out->ResourceTypes->items[i] = floe_call_strdup(&call->super, types[i]);
    floe_cfn_template_free(t);
    return FLOE_OK;
}

int floe_cfn_handle_ValidateTemplate(floe_query_call_t *call, const floe_cfn_ValidateTemplateInput *in,
                                     floe_cfn_ValidateTemplateOutput *out)
{
    floe_cfn_template_t *t = NULL;

    if (floe_cfnh_authorize(call, NULL, NULL) != FLOE_OK)
        return FLOE_EFAIL;
    if (parse_template(call, in->TemplateBody, in->TemplateURL, NULL, &t) != FLOE_OK)
        return FLOE_EFAIL;
    out->Description = floe_call_strdup(&call->super, t->description);
    out->Parameters = floe_call_alloc(&call->super, sizeof(*out->Parameters));
    out->Parameters->items =
        t->n_parameters > 0 ? floe_call_alloc(&call->super, t->n_parameters * sizeof(*out->Parameters->items)) : NULL;
    out->Parameters->n = t->n_parameters;
    for (size_t i = 0; i < t->n_parameters; i++) {
        const floe_cfn_parameter_t *p = &t->parameters[i];
        floe_cfn_TemplateParameter *o = &out->Parameters->items[i];

        o->ParameterKey = floe_call_strdup(&call->super, p->name);
        o->DefaultValue = floe_call_strdup(&call->super, p->default_value);
        o->NoEcho = p->is_no_echo;
        o->has_NoEcho = true;
        o->Description = floe_call_strdup(&call->super, p->description);
    }
    floe_cfn_template_free(t);
    return FLOE_OK;
}

/*
 * The look-ups of template_model.h: a resource, a parameter or a condition of a template by name.
 */
#include <string.h>

#include "cfn_template/template_model.h"

floe_cfn_resource_t *floe_cfn_template_resource(const floe_cfn_template_t *t, const char *logical_id)
{
    for (size_t i = 0; i < t->n_resources; i++)
        if (strcmp(t->resources[i].logical_id, logical_id) == 0)
            return &t->resources[i];
    return NULL;
}

floe_cfn_parameter_t *floe_cfn_template_parameter(const floe_cfn_template_t *t, const char *name)
{
    for (size_t i = 0; i < t->n_parameters; i++)
        if (strcmp(t->parameters[i].name, name) == 0)
            return &t->parameters[i];
    return NULL;
}

int floe_cfn_condition_index(const floe_cfn_template_t *t, const char *name)
{
    for (size_t i = 0; i < t->n_conditions; i++)
        if (strcmp(t->condition_names[i], name) == 0)
            return (int)i;
    return -1;
}

int floe_cfn_template_condition(const floe_cfn_template_t *t, const char *name, bool *value)
{
    int i = floe_cfn_condition_index(t, name);

    if (i < 0 || t->condition_state[i] < FLOE_CFN_CONDITION_FALSE)
        return FLOE_EFAIL;
    *value = t->condition_state[i] == FLOE_CFN_CONDITION_TRUE;
    return FLOE_OK;
}

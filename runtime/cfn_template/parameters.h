/*
 * The Parameters section: parameter definitions read at parse (types, Default, AllowedValues,
 * AllowedPattern, MinLength/MaxLength, MinValue/MaxValue, NoEcho, descriptions), and the values a
 * stack gives them bound and checked at validate, with AWS's messages ("Parameters: [Env] must
 * have values", "Parameter 'Env' must be one of AllowedValues"). Wing-internal: template.c calls
 * these; the engine reads the results in floe_cfn_template_t.parameters.
 */
#ifndef FLOE_CFN_TEMPLATE_PARAMETERS_H
#define FLOE_CFN_TEMPLATE_PARAMETERS_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "cfn_template/error.h"
#include "cfn_template/template_model.h"

/** Reads the Parameters section (NULL when absent) into t->parameters. FLOE_OK or FLOE_EFAIL. */
int floe_cfn_parameters_parse(floe_cfn_template_t *t, const cJSON *section, floe_cfn_template_error_t *err /* OUT */);

/** Gives every parameter its value (the request's, else its Default) and checks it against the
 * parameter's constraints; sets value and resolved. FLOE_OK or FLOE_EFAIL (values unbound). */
int floe_cfn_parameters_bind(floe_cfn_template_t *t, const floe_cfn_param_value_t *params, size_t n_params,
                             floe_cfn_template_error_t *err /* OUT */);

/** Forgets the bound values (value and resolved back to NULL). */
void floe_cfn_parameters_unbind(floe_cfn_template_t *t);

/** Releases t->parameters and what each owns. */
void floe_cfn_parameters_dispose(floe_cfn_template_t *t);

#endif

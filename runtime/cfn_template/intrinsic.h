/*
 * CloudFormation's intrinsic functions and conditions: Ref (parameters, pseudo parameters,
 * resources), Fn::GetAtt, Fn::Sub (both forms), Fn::Join, Fn::Select, Fn::Split, Fn::If,
 * Fn::Equals, Fn::Not, Fn::And, Fn::Or, Condition, Fn::FindInMap, Fn::ImportValue, Fn::GetAZs and
 * Fn::Base64, evaluated over a template fragment into a new tree. Not for template sections
 * (template.h) nor for finding what a fragment refers to without evaluating it (references.h).
 *
 * Design notes
 * ------------
 * 1. What the engine knows only at run time (a resource's physical id, its attributes, another
 *    stack's export) comes through a floe_cfn_resolver_t. When the resolver does not know it (no
 *    callback, or the callback gives NULL) the value is *unknown*: a cJSON_Raw node holding
 *    "null" (floe_cfn_is_unknown). A function with an unknown argument gives unknown, after
 *    checking all of its arguments, so a dry run (validate, a change set preview) finds every
 *    error that does not depend on run-time values.
 * 2. AWS::NoValue removes the object member or array element it is the value of; a fragment that
 *    is AWS::NoValue itself resolves to nothing (*out NULL).
 * 3. Fn::If evaluates only the branch its condition picks, so the other branch may name a
 *    resource whose condition is false. Before conditions are evaluated (a parsed template) both
 *    branches are checked and the result is unknown.
 * 4. Strings built by Fn::Sub, Fn::Join and Fn::Base64 are capped at FLOE_CFN_MAX_VALUE_LEN bytes,
 *    so nested Fn::Sub cannot grow a 51,200-byte template into gigabytes.
 */
#ifndef FLOE_CFN_TEMPLATE_INTRINSIC_H
#define FLOE_CFN_TEMPLATE_INTRINSIC_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "cfn_template/error.h"
#include "cfn_template/value.h"

/** Longest string a function may build. */
#define FLOE_CFN_MAX_VALUE_LEN (1024 * 1024)

struct floe_cfn_template;

/**
 * What the engine supplies while resolving. Each callback returns FLOE_OK with *value set to a
 * string it keeps alive until the resolve call returns (or NULL for "not known yet": the result
 * is unknown), or FLOE_EFAIL with err set (for an import: "No export named X found."). Any
 * callback may be NULL, which means unknown. Names are logical ids of active resources.
 */
typedef struct floe_cfn_resolver {
    /* Ref to a resource: its physical id. */
    int (*ref)(void *ctx, const char *logical_id, const char **value /* OUT */, floe_cfn_template_error_t *err);
    /* Fn::GetAtt (and ${Res.Attr} in Fn::Sub): an attribute the resource type declares. */
    int (*get_att)(void *ctx, const char *logical_id, const char *attribute, const char **value /* OUT */,
                   floe_cfn_template_error_t *err);
    /* Fn::ImportValue: the value of another stack's export. */
    int (*import_value)(void *ctx, const char *export_name, const char **value /* OUT */, floe_cfn_template_error_t *err);
    void *ctx;
} floe_cfn_resolver_t;

/**
 * Resolves `node`, a fragment of t's tree (a property value, an output value...), into a new tree
 * the caller frees with cJSON_Delete; *out is NULL when the fragment is AWS::NoValue. `block`
 * names the template section for messages ("Resources" or "Outputs"). Returns FLOE_OK, or
 * FLOE_EFAIL with err set to AWS's message.
 */
int floe_cfn_resolve(const struct floe_cfn_template *t, const cJSON *node, const char *block,
                     const floe_cfn_resolver_t *resolver, cJSON **out /* OUT */, floe_cfn_template_error_t *err /* OUT */);

/**
 * Evaluates every condition of the template (parameters bound), in template order, following
 * {"Condition": name} to other conditions. Returns FLOE_OK, or FLOE_EFAIL with err set (a cycle
 * between conditions, a condition that is not a boolean, an error in its functions).
 */
int floe_cfn_conditions_evaluate(struct floe_cfn_template *t, floe_cfn_template_error_t *err /* OUT */);

/** Whether `name` is a pseudo parameter (AWS::Region, AWS::NoValue, ...). */
bool floe_cfn_is_pseudo_parameter(const char *name);

#endif

/*
 * CloudFormation templates, read and resolved: the library the stack engine calls to turn a
 * template (JSON or YAML) into the resources it creates, in what order, with which properties,
 * and the outputs it reports. A pure library: no h2o, no SQLite, no I/O; cJSON for the tree,
 * libyaml for YAML (yaml.h). It knows nothing of stacks, events or S3 Tables calls.
 *
 * Design notes
 * ------------
 * A template goes through two steps, and then serves any number of resolutions:
 *
 *   text --floe_cfn_template_parse--> parsed --floe_cfn_template_validate--> validated
 *
 *   parse     (what ValidateTemplate and GetTemplateSummary need) reads the text, checks every
 *             section, every resource's Type against the resource types Floe knows
 *             (resource_types.h), that every Ref, Fn::GetAtt, Fn::Sub variable, DependsOn and
 *             Condition names something that exists, and that resources have no dependency
 *             cycle. Parameters are not bound yet, so nothing is evaluated.
 *   validate  (what CreateStack, UpdateStack and CreateChangeSet need before they change
 *             anything) binds the pseudo parameters and parameter values (defaults, AllowedValues,
 *             AllowedPattern, lengths, bounds), evaluates Conditions, drops the resources and
 *             outputs whose Condition is false, computes each remaining resource's dependencies
 *             and the creation order (plan.h), and resolves every remaining resource's Properties
 *             with resources' physical ids and attributes left unknown, checking them against
 *             the resource type: the errors that can be found before creating anything are found
 *             here. Validate may be called again with other values (it starts over).
 *   resolve   floe_cfn_resource_properties and floe_cfn_output_value (below) resolve with what the
 *             engine supplies through a floe_cfn_resolver_t (intrinsic.h): physical ids for Ref,
 *             attributes for Fn::GetAtt, exports for Fn::ImportValue.
 *
 * Invariants of a template floe_cfn_template_parse returned:
 *   1. root is a JSON object; every const char * and const cJSON * below points into it.
 *   2. resources[i].logical_id are unique and alphanumeric; resources[i].type_info is non-NULL.
 *   3. Every DependsOn name is a resource; every Condition named by a resource, an output or
 *      Fn::If is in Conditions.
 * After floe_cfn_template_validate returned FLOE_OK, also:
 *   4. is_validated; every parameter has a value; every condition has a value.
 *   5. order lists exactly the active resources, each after every resource it needs.
 *
 * Ownership: floe_cfn_template_parse returns a malloc'ed template that floe_cfn_template_free
 * releases with everything it points to. Trees handed out by the resolve functions belong to the
 * caller (cJSON_Delete). The template is not thread-safe; one thread at a time may use it.
 *
 * Where Floe differs from AWS is listed in docs/cloudformation.md.
 */
#ifndef FLOE_CFN_TEMPLATE_TEMPLATE_H
#define FLOE_CFN_TEMPLATE_TEMPLATE_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "cfn_template/error.h"
#include "cfn_template/intrinsic.h"
#include "cfn_template/template_model.h"

/**
 * Parses `len` bytes of template text: JSON when the first non-blank character is '{', YAML
 * otherwise. Checks what can be checked without parameter values (see the design notes). On
 * success sets *out to a template the caller frees with floe_cfn_template_free and returns
 * FLOE_OK; otherwise returns FLOE_EFAIL with err set to AWS's ValidationError message.
 */
int floe_cfn_template_parse(const char *text, size_t len, floe_cfn_template_t **out /* OUT */,
                            floe_cfn_template_error_t *err /* OUT */);

/** Releases a template and everything it owns; NULL is ignored. */
void floe_cfn_template_free(floe_cfn_template_t *t);

/**
 * Binds the stack's pseudo parameters and parameter values (params, n_params pairs, borrowed)
 * and does what the design notes list under validate. Returns FLOE_OK, or FLOE_EFAIL with err
 * set (for example "Parameters: [Env] must have values"); after a failure the template is parsed
 * but not validated.
 */
int floe_cfn_template_validate(floe_cfn_template_t *t, const floe_cfn_stack_info_t *stack,
                               const floe_cfn_param_value_t *params, size_t n_params, floe_cfn_template_error_t *err /* OUT */);

/**
 * The distinct resource types of the template, in template order, for GetTemplateSummary's
 * ResourceTypes: writes up to t->n_resources pointers (into the template) to types and returns
 * how many it wrote.
 */
size_t floe_cfn_template_resource_types(const floe_cfn_template_t *t, const char **types /* OUT */);

/**
 * A resource's Properties resolved with what `resolver` supplies (intrinsic.h; NULL leaves every
 * resource reference and import unknown), AWS::NoValue removed, checked against the resource
 * type and with scalars coerced to the types it declares ("5" to 5 for an integer, 5 to "5" for a
 * string, "true" to true for a boolean), as AWS does before handing them to the resource. The
 * template must be validated and the resource active. On success sets *out to a JSON object
 * (empty when the template gives no Properties) the caller frees with cJSON_Delete; unknown
 * values are marked (floe_cfn_is_unknown). Otherwise FLOE_EFAIL with err set, e.g.
 * "Properties validation failed for resource Tbl with message: #: required key [TableName] not found".
 */
int floe_cfn_resource_properties(const floe_cfn_template_t *t, const floe_cfn_resource_t *resource,
                                 const floe_cfn_resolver_t *resolver, cJSON **out /* OUT */,
                                 floe_cfn_template_error_t *err /* OUT */);

/**
 * A resource's Metadata resolved as its Properties are (intrinsic functions, AWS::NoValue), without
 * a type check: AWS answers it resolved in DescribeStackResource. *out is a tree the caller frees
 * with cJSON_Delete, NULL when the resource has no Metadata; unknown values are marked
 * (floe_cfn_is_unknown). The template must be validated and the resource active. FLOE_OK, or
 * FLOE_EFAIL with err set.
 */
int floe_cfn_resource_metadata(const floe_cfn_template_t *t, const floe_cfn_resource_t *resource,
                               const floe_cfn_resolver_t *resolver, cJSON **out /* OUT */,
                               floe_cfn_template_error_t *err /* OUT */);

/**
 * An active output of a validated template, resolved: sets *value to its Value as a malloc'ed
 * string (a list is joined with commas) and *export_name to its Export.Name as a malloc'ed string
 * or NULL when it is not exported; the caller frees both. Either is NULL when it depends on
 * something the resolver left unknown. Returns FLOE_OK, or FLOE_EFAIL with err set.
 */
int floe_cfn_output_value(const floe_cfn_template_t *t, const floe_cfn_output_t *output,
                          const floe_cfn_resolver_t *resolver, char **value /* OUT */, char **export_name /* OUT */,
                          floe_cfn_template_error_t *err /* OUT */);

#endif

/*
 * The resource types a template may use, and what Floe knows of each: the five AWS::S3Tables
 * types from the model (generated/cfn_resource_types.h, made by codegen/cfn_resource_types.py),
 * plus AWS::CDK::Metadata, which CDK apps add to every stack and which Floe accepts and does
 * nothing with. Answers the engine's questions (does changing this property replace the
 * resource? which attributes may Fn::GetAtt read?) and checks a resource's resolved Properties
 * against its type, as AWS's resource schema validation does. Not for evaluating templates.
 */
#ifndef FLOE_CFN_TEMPLATE_RESOURCE_TYPES_H
#define FLOE_CFN_TEMPLATE_RESOURCE_TYPES_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "cfn_resource_types.h"
#include "cfn_template/error.h"

/** The type CDK apps add for their analytics; accepted with any Properties, creates nothing. */
#define FLOE_CFN_CDK_METADATA_TYPE "AWS::CDK::Metadata"

/** The type named `name`, or NULL when Floe does not know it. */
const floe_cfn_resource_type_t *floe_cfn_resource_type_find(const char *name);

/** Whether resources of this type create nothing (AWS::CDK::Metadata): the engine records them
 * as CREATE_COMPLETE and moves on; their Properties are not checked. */
bool floe_cfn_resource_type_is_noop(const floe_cfn_resource_type_t *type);

/** Whether Fn::GetAtt may read `attribute` of resources of this type. */
bool floe_cfn_resource_type_has_attribute(const floe_cfn_resource_type_t *type, const char *attribute);

/** The top-level property `name` of the type, or NULL. */
const floe_cfn_property_t *floe_cfn_resource_type_property(const floe_cfn_resource_type_t *type, const char *name);

/**
 * What an update that changes top-level property `name` does: FLOE_CFN_REPLACEMENT_ALWAYS when
 * the model says it causes replacement, CONDITIONAL for "maybe", NEVER otherwise (including for a
 * name the type does not have).
 */
floe_cfn_replacement_t floe_cfn_property_replacement(const floe_cfn_resource_type_t *type, const char *name);

/**
 * Checks resolved Properties (a JSON object, changed in place) against the type: required
 * properties present, no property the type lacks, every value of its declared type and enum, and
 * scalars coerced the way AWS coerces them (a number or boolean where a string is declared
 * becomes its text; "5" where an integer is declared becomes 5; "true" where a boolean is declared
 * becomes true). Unknown values (intrinsic.h) pass. Returns FLOE_OK, or FLOE_EFAIL with err set to
 * "Properties validation failed for resource <logical_id> with message: #/Path: ..." naming the
 * first violation.
 */
int floe_cfn_properties_check(const floe_cfn_resource_type_t *type, const char *logical_id, cJSON *properties,
                              floe_cfn_template_error_t *err /* OUT */);

#endif

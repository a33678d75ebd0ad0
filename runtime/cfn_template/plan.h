/*
 * The order resources are created in: each resource waits for the resources it refers to (Ref,
 * Fn::GetAtt, Fn::Sub variables, in its Properties and Metadata) and those its DependsOn names.
 * Deletion goes in the reverse order. Not for what creating a resource means (the engine).
 *
 * Ties are broken by template order, so the same template always gives the same order.
 */
#ifndef FLOE_CFN_TEMPLATE_PLAN_H
#define FLOE_CFN_TEMPLATE_PLAN_H

#include "cfn_template/error.h"
#include "cfn_template/template_model.h"

/**
 * At parse: computes every resource's needs with both branches of every Fn::If, and refuses a
 * cycle with AWS's "Circular dependency between resources: [A, B]". Returns FLOE_OK or FLOE_EFAIL.
 */
int floe_cfn_plan_check(floe_cfn_template_t *t, floe_cfn_template_error_t *err /* OUT */);

/**
 * At validate (conditions evaluated, is_active set): recomputes the needs of the active
 * resources following only the branches Fn::If takes, refuses a need of a resource whose
 * condition is false ("Unresolved resource dependencies [X] in the Resources block of the
 * template"), and sets t->order. Returns FLOE_OK or FLOE_EFAIL.
 */
int floe_cfn_plan_order(floe_cfn_template_t *t, floe_cfn_template_error_t *err /* OUT */);

#endif

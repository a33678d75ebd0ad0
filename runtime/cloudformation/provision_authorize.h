/*
 * A stack's steps act with the permissions of the principal whose operation they carry out, as
 * CloudFormation does without a service role (docs/authorization.md): under --enforce-iam each
 * change a step makes is first authorized as the API call the resource's handler makes for it
 * (s3tables:CreateTable, iam:CreateRole, ...), on the resource's ARN, with the table bucket's and
 * table's policies. Called by the stack engine on the serving thread, inside a background step, in
 * the stack's account and region.
 */
#ifndef FLOE_CLOUDFORMATION_PROVISION_AUTHORIZE_H
#define FLOE_CLOUDFORMATION_PROVISION_AUTHORIZE_H

#include <cjson/cJSON.h>

#include "call/call.h"

/** The change a step makes to a resource. */
typedef enum floe_provision_step {
    FLOE_PROVISION_STEP_CREATE,
    FLOE_PROVISION_STEP_UPDATE,
    FLOE_PROVISION_STEP_DELETE,
} floe_provision_step_t;

/**
 * Whether the principal `caller` (its ARN; NULL: the account's root) may make `step` to the
 * resource of `type`: create it from `props`, update `physical_id` from `old_props` to `props`
 * (each changed property's action), or delete `physical_id` (created from `props`). FLOE_OK, also
 * without --enforce-iam; FLOE_EFAIL with the call failed: FLOE_EDENIED with AWS's sentence ("User:
 * <arn> is not authorized to perform: <action> on resource: <arn> because ..."), or SQLite's failure.
 */
int floe_provision_authorize(floe_call_t *call, const char *caller, floe_provision_step_t step, const char *type,
                             const char *physical_id, const cJSON *old_props, const cJSON *props);

#endif

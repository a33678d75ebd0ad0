/*
 * CloudFormation stacks and change sets as the CloudFormation handlers see them: one function per
 * operation, taking plain C arguments and answering with plain C structures, called on the
 * serving thread. A function checks the request against the stack's state and the template
 * (parsed and validated through stack_template.h), records the request in one transaction and
 * queues the work for the stack engine (stack_thread.h), which does it in the background;
 * clients then poll, as on AWS.
 *
 * Outcomes: a function returns FLOE_OK, FLOE_EFAIL (the call holds the error, a
 * 500), or one of the refusals below with *why set to AWS's message (in the call's pool); the
 * handler answers it as the named CloudFormation error. Nothing is changed by a refusal.
 * Everything handed out lives in the call's pool. Stacks belong to the call's account and region.
 */
#ifndef FLOE_CLOUDFORMATION_STACK_H
#define FLOE_CLOUDFORMATION_STACK_H

#include <stdbool.h>
#include <stddef.h>

#include "call/call.h"
#include "cloudformation/stack_shapes.h"

/** The longest TemplateBody CloudFormation takes ("Template body size in a request": 51,200
 * bytes, https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/cloudformation-limits.html). */
#define FLOE_STACK_TEMPLATE_BODY_MAX 51200
/** The longest stack name (same page). */
#define FLOE_STACK_NAME_MAX 128

/*
 * The stack API answers in the house codes (failure.h), with the client's message in *why when it
 * refuses; handlers/cloudformation_common.c (floe_cfnh_answer) turns each into its modeled error:
 *   FLOE_OK          done
 *   FLOE_EINVAL      ValidationError (400)
 *   FLOE_EEXISTS     AlreadyExistsException (400)
 *   FLOE_ENOTFOUND   ChangeSetNotFound (404)
 *   FLOE_ESTATE      InvalidChangeSetStatus (400)
 *   FLOE_EFAIL       the call failed and holds its error (a 500)
 */

/* ---- stacks ---- */

/** CreateStack: the stack is CREATE_IN_PROGRESS when this returns; *stack_id is its ARN. */
int floe_stack_create(floe_call_t *call, const floe_stack_create_input_t *in, char **stack_id /* OUT */,
                      char **why /* OUT */);

/** UpdateStack: the stack is UPDATE_IN_PROGRESS when this returns. */
int floe_stack_update(floe_call_t *call, const floe_stack_update_input_t *in, char **stack_id /* OUT */,
                      char **why /* OUT */);

/**
 * Under --enforce-iam, whether the caller whose `access_key` signed the call may take `action`
 * (cloudformation:<Operation>, the operation's name in CloudFormation's generated table) on the
 * stack `stack_name` names (a name, as arn:aws:cloudformation:<region>:<account>:stack/<name>/ and a star,
 * or a stack ARN; NULL: "*", for an operation on no stack). FLOE_OK with *caller the principal's
 * ARN, whose permissions the stack's steps then act with; FLOE_EDENIED with *why AWS's sentence.
 * Without the flag FLOE_OK with *caller NULL.
 */
int floe_stack_authorize(floe_call_t *call, const char *access_key, const char *action, const char *stack_name,
                         const char **caller /* OUT */, char **why /* OUT */);

/**
 * DeleteStack: the stack is DELETE_IN_PROGRESS when this returns, or will be once the operation
 * it is in finishes. A stack that does not exist (or is deleted) is not an error, as on AWS.
 * `retain` (n_retain logical ids) is only for a stack in DELETE_FAILED. *stack_id (may be NULL)
 * is the ARN of the stack whose deletion was queued, and stays NULL when none was. The deletion
 * acts for the principal `caller` (floe_stack_authorize; NULL: none recorded).
 */
int floe_stack_delete(floe_call_t *call, const char *stack_name, const char *const *retain, size_t n_retain,
                      const char *caller, char **stack_id /* OUT, may be NULL */, char **why /* OUT */);

/**
 * True when no operation of the stack `stack_id` (an ARN) is queued or running, so it is in a
 * stable state (a *_COMPLETE or *_FAILED status, or REVIEW_IN_PROGRESS with its change sets
 * computed), or when there is no such stack. False while the engine works on it, and when the
 * state cannot be read (logged). The handlers ask it to answer a change once it has settled.
 */
bool floe_stack_is_settled(floe_call_t *call, const char *stack_id);

/** DescribeStacks: the stack `stack_name` names (a name: live stacks; an ARN: deleted ones too),
 * or every live stack when it is NULL. */
int floe_stack_describe(floe_call_t *call, const char *stack_name, floe_stack_info_t **stacks /* OUT */,
                        size_t *n /* OUT */, char **why /* OUT */);

/** ListStacks: every stack of the scope, deleted ones too, keeping those whose status is one of
 * `statuses` (n_statuses 0: all); without parameters, outputs and tags. */
int floe_stack_list(floe_call_t *call, const char *const *statuses, size_t n_statuses,
                    floe_stack_info_t **stacks /* OUT */, size_t *n /* OUT */);

/** DescribeStackEvents: newest first. */
int floe_stack_events(floe_call_t *call, const char *stack_name, floe_stack_event_t **events /* OUT */,
                      size_t *n /* OUT */, char **why /* OUT */);

/** DescribeStackResource, with the resource's Metadata and Description. */
int floe_stack_resource(floe_call_t *call, const char *stack_name, const char *logical_id,
                        floe_stack_resource_t *out /* OUT */, char **why /* OUT */);

/**
 * DescribeStackResources and ListStackResources: the resources of `stack_name`, or of the stack
 * that holds `physical_id` when stack_name is NULL; only `logical_id` when it is not NULL. Deleted
 * resources of a live stack are not listed.
 */
int floe_stack_resources(floe_call_t *call, const char *stack_name, const char *logical_id,
                         const char *physical_id, floe_stack_resource_t **resources /* OUT */,
                         size_t *n /* OUT */, char **why /* OUT */);

/** DescribeStackResources: floe_stack_resources with each resource's Metadata and Description. */
int floe_stack_describe_resources(floe_call_t *call, const char *stack_name, const char *logical_id,
                                  const char *physical_id, floe_stack_resource_t **resources /* OUT */,
                                  size_t *n /* OUT */, char **why /* OUT */);

/** GetTemplate: the stack's template (or, with `change_set_name`, that change set's), as given. */
int floe_stack_template(floe_call_t *call, const char *stack_name, const char *change_set_name,
                        char **body /* OUT */, char **why /* OUT */);

/** ListExports: the exports of the scope, by name. */
int floe_stack_exports(floe_call_t *call, floe_stack_export_t **exports /* OUT */, size_t *n /* OUT */);

/* ---- change sets ---- */

/**
 * CreateChangeSet: the change set is CREATE_PENDING when this returns and the engine computes its
 * changes. A CREATE change set of a stack that does not exist makes the stack, in
 * REVIEW_IN_PROGRESS.
 */
int floe_stack_change_set_create(floe_call_t *call, const floe_stack_change_set_input_t *in,
                                 char **change_set_id /* OUT */, char **stack_id /* OUT */,
                                 char **why /* OUT */);

/** DescribeChangeSet: `change_set` is an ARN, or a name with `stack_name`. */
int floe_stack_change_set_describe(floe_call_t *call, const char *change_set, const char *stack_name,
                                   floe_stack_change_set_t *out /* OUT */, char **why /* OUT */);

/** ExecuteChangeSet: the stack (*stack_id, its ARN, when not NULL) is CREATE_IN_PROGRESS or
 * UPDATE_IN_PROGRESS when this returns, and the stack's other change sets are deleted, as on AWS.
 * The execution acts for the principal `caller` (floe_stack_authorize; NULL: none recorded). */
int floe_stack_change_set_execute(floe_call_t *call, const char *change_set, const char *stack_name,
                                  bool has_disable_rollback, bool disable_rollback, const char *caller,
                                  char **stack_id /* OUT, may be NULL */, char **why /* OUT */);

/** DeleteChangeSet: afterwards DescribeChangeSet answers ChangeSetNotFound. A change set that is
 * already gone is no error while its stack exists (FLOE_EINVAL when the stack does not). */
int floe_stack_change_set_delete(floe_call_t *call, const char *change_set, const char *stack_name,
                                 char **why /* OUT */);

/** ListChangeSets: the stack's change sets, oldest first, without their changes. */
int floe_stack_change_set_list(floe_call_t *call, const char *stack_name,
                               floe_stack_change_set_t **change_sets /* OUT */, size_t *n /* OUT */,
                               char **why /* OUT */);

#endif

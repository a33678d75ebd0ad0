/*
 * What the files of the stack API share (private to stack.c, which changes stacks and change sets,
 * stack_read.c, which reads them, stack_details.c, which adds a resource's Metadata and
 * Description, and template_url.c, which reads TemplateURL): refusing with AWS's message, finding
 * the stack a request names, and reading the JSON columns back into the API's structures.
 */
#ifndef FLOE_CLOUDFORMATION_STACK_API_H
#define FLOE_CLOUDFORMATION_STACK_API_H

#include <stdbool.h>
#include <stddef.h>

#include "call/call.h"
#include "cloudformation/stack_shapes.h"
#include "cloudformation/stack_store.h"

/** Sets *why to the printf message (in the call's pool) and returns `rc`. */
int floe_stack_refuse(floe_call_t *call, int rc, char **why, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/**
 * The stack `stack_name` (a name or an ARN) names. FLOE_OK with *out; FLOE_EINVAL
 * with AWS's "Stack with id X does not exist" when there is none (or, unless `may_be_deleted`,
 * when it is deleted); FLOE_EFAIL.
 */
int floe_stack_find(floe_call_t *call, const char *stack_name, bool may_be_deleted,
                    floe_stack_row_t *out /* OUT */, char **why /* OUT */);

/** The change set `change_set` (an ARN, or a name of the stack `stack_name`) names: DONE with *out,
 * FLOE_ENOTFOUND or FLOE_EINVAL with AWS's message, or FAILED. */
int floe_stack_find_change_set(floe_call_t *call, const char *change_set, const char *stack_name,
                               floe_change_set_row_t *out /* OUT */, char **why /* OUT */);

/** Stored parameters (JSON [{ParameterKey, ParameterValue, NoEcho}]) as the API shows them. */
void floe_stack_read_parameters(floe_call_t *call, const char *json, floe_stack_parameter_t **out /* OUT */,
                                size_t *n /* OUT */);

/** Fills the Metadata and Description (stack_details.c) of `resources` (n of them, read from the
 * stack's `rows`) from the template of stack `s`; a resource the template does not hold keeps
 * them NULL. */
void floe_stack_resource_details(floe_call_t *call, const floe_stack_row_t *s, const floe_stack_resource_row_t *rows,
                                 size_t n_rows, floe_stack_resource_t *resources, size_t n);

/** Stored tags (JSON [{Key, Value}]) as the API shows them. */
void floe_stack_read_tags(floe_call_t *call, const char *json, floe_stack_pair_t **out /* OUT */, size_t *n /* OUT */);

#endif

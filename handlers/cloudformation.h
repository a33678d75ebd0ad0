/*
 * What the CloudFormation handlers (handlers/cloudformation_*.c) share: answering the stack API's
 * outcomes (cloudformation/stack.h) as CloudFormation errors, and turning the generated request
 * and response shapes into the stack API's plain structures and back.
 */
#ifndef FLOE_HANDLERS_CLOUDFORMATION_H
#define FLOE_HANDLERS_CLOUDFORMATION_H

#include "cfn_api.h"
#include "cloudformation/stack.h"

/** FLOE_OK for FLOE_STACK_DONE; otherwise fails the call with the error `rc` names and `why`
 * (FLOE_STACK_FAILED: the call has already failed) and returns FLOE_EFAIL. `why` is passed by
 * address because the engine call filling it is an argument too: C leaves their order open. */
int floe_cfnh_answer(floe_query_call_t *call, floe_stack_rc_t rc, char *const *why);

/** Fills `out` from a request's template members; FLOE_EFAIL (ValidationError recorded) for a
 * TemplateURL, which Floe cannot fetch. Everything is borrowed from the request. */
int floe_cfnh_template_input(floe_query_call_t *call, const char *template_body, const char *template_url,
                             bool use_previous_template, const floe_cfn_Parameters *parameters,
                             const floe_cfn_Tags *tags, floe_stack_template_input_t *out /* OUT */);

/** The API's parameters and tags as the response shapes (in the call's pool; NULL when n is 0). */
floe_cfn_Parameters *floe_cfnh_parameters(floe_query_call_t *call, const floe_stack_parameter_t *p, size_t n);
floe_cfn_Tags *floe_cfnh_tags(floe_query_call_t *call, const floe_stack_pair_t *p, size_t n);

#endif

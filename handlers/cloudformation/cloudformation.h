/*
 * What the CloudFormation handlers (handlers/cloudformation/cloudformation_*.c) share: answering the stack API's
 * outcomes (cloudformation/stack.h) as CloudFormation errors, and turning the generated request
 * and response shapes into the stack API's plain structures and back.
 */
#ifndef FLOE_HANDLERS_CLOUDFORMATION_H
#define FLOE_HANDLERS_CLOUDFORMATION_H

#include "cfn_api.h"
#include "cloudformation/stack.h"

/** FLOE_OK for FLOE_OK; otherwise fails the call with the error `rc` names and `why`
 * (FLOE_EFAIL: the call has already failed) and returns FLOE_EFAIL. `why` is passed by
 * address because the engine call filling it is an argument too: C leaves their order open. */
int floe_cfnh_answer(floe_query_call_t *call, int rc, char *const *why);

/**
 * Under --enforce-iam, authorizes the call's own action (cloudformation:<Operation>, from the
 * generated table) on the stack `stack_name` names (NULL: an operation on no stack) before the
 * handler does anything: FLOE_OK with *caller (may be NULL) the principal the stack's steps then act
 * for; FLOE_EFAIL with AccessDenied (403) recorded. A check every CloudFormation handler makes
 * first; a check of every awsQuery call in runtime/query/ could take its place.
 */
int floe_cfnh_authorize(floe_query_call_t *call, const char *stack_name, const char **caller /* OUT, may be NULL */);

/**
 * As floe_cfnh_answer, for a change the stack engine carries out in the background (CreateStack,
 * UpdateStack, DeleteStack, CreateChangeSet, ExecuteChangeSet): on FLOE_OK the answer is
 * held until the stack *stack_id names (when set) has settled (floe_stack_is_settled), for up to
 * FLOE_QUERY_HOLD_MAX_MS. The answer is AWS's either way; a client that polls right after it (the
 * CLI's and SDKs' waiters poll at once, then sleep up to 30 s) then finds a quick change done.
 */
int floe_cfnh_answer_settled(floe_query_call_t *call, int rc, char *const *stack_id, char *const *why);

/** Fills `out` from a request's template members, reading a TemplateURL from Floe's own S3
 * (cloudformation/template_url.h); FLOE_EFAIL with the ValidationError recorded for a URL that
 * cannot be read, or both a URL and a body. Everything is borrowed from the request or its pool. */
int floe_cfnh_template_input(floe_query_call_t *call, const char *template_body, const char *template_url,
                             bool use_previous_template, const floe_cfn_Parameters *parameters,
                             const floe_cfn_Tags *tags, floe_stack_template_input_t *out /* OUT */);

/** How many items a page of DescribeStacks, ListStacks, DescribeStackEvents, ListStackResources,
 * ListChangeSets, DescribeChangeSet (its Changes) and ListExports holds: AWS's page (seen with
 * aws-cli 2.x: DescribeStackEvents answers 100; ListExports documents 100 exports a page). AWS
 * documents the others as 1 MB a page, so 100 is Floe's choice for them (docs/cloudformation.md). */
#define FLOE_CFNH_PAGE_SIZE 100

/** The key of item i of a list being paged (an id that stays with the item). */
typedef const char *(*floe_cfnh_key_fn)(const void *items, size_t i);

/**
 * The page of `items` (n of them, in their listing order) that `next_token` asks for: items
 * [*start, *end), and *next (in the call's pool) the token of the page after, NULL on the last.
 * A token encodes the key of the last item handed out (catalog/page_token.h), so a page resumes
 * after it while others add items. `listing` names the list and its filters. FLOE_EFAIL with a
 * ValidationError for a token not handed out for this listing, or whose item is gone.
 */
int floe_cfnh_page(floe_query_call_t *call, const char *listing, const char *next_token, const void *items, size_t n,
                   floe_cfnh_key_fn key_of, size_t *start /* OUT */, size_t *end /* OUT */, char **next /* OUT */);

/** The API's parameters and tags as the response shapes (in the call's pool; NULL when n is 0). */
floe_cfn_Parameters *floe_cfnh_parameters(floe_query_call_t *call, const floe_stack_parameter_t *p, size_t n);
floe_cfn_Tags *floe_cfnh_tags(floe_query_call_t *call, const floe_stack_pair_t *p, size_t n);

#endif

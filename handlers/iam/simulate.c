/*
 * IAM's policy simulator: SimulateCustomPolicy (the policies the request gives) and
 * SimulatePrincipalPolicy (a user's or role's own policies, plus any the request adds). Each
 * action on each resource is decided by floe_authz_evaluate, the function that decides an enforced
 * call (--enforce-iam), so a simulation answers what enforcement would do. Permissions boundaries,
 * SCPs and session policies are not evaluated (docs/authorization.md): a boundary given is checked
 * as a document and otherwise ignored.
 */
#include <stdio.h>
#include <string.h>

#include "authz/authz.h"
#include "iam_common.h"

#define ARN_ACCOUNT_AT 13 /* "arn:aws:iam::" */

/* What both operations take, whoever's policies are simulated. */
typedef struct simulation {
    floe_principal_t principal;                /* the simulated caller, never a root */
    const char *const *policy_ids;             /* SourcePolicyId of each of principal.policies */
    const floe_iam_PolicySourceType *policy_types;
    const char *owner;                         /* the resources' account */
    const char *resource_policy;
    floe_policy_context_key_t *context;
    size_t n_context;
} simulation_t;

/* The 12-digit account of an ARN (its fifth field: arn:aws:iam::<account>:...) or of a bare account id; NULL if neither. */
static const char *account_of(floe_query_call_t *call, const char *arn)
{
    const char *at = arn;

    for (int colon = 0; strncmp(arn, "arn:", 4) == 0 && colon < 4 && at != NULL; colon++)
        at = strchr(at, ':') ? strchr(at, ':') + 1 : NULL;
    if (at == NULL || strspn(at, "0123456789") != FLOE_ACCOUNT_ID_LEN ||
        (at[FLOE_ACCOUNT_ID_LEN] != '\0' && at[FLOE_ACCOUNT_ID_LEN] != ':'))
        return NULL;
    return floe_call_printf(&call->super, "%.*s", FLOE_ACCOUNT_ID_LEN, at);
}

/* Each document checked as a policy of `kind`: the simulator's model has no MalformedPolicyDocument,
 * so a bad document is InvalidInput, with the parser's message. */
static int check_all(floe_query_call_t *call, const floe_iam_SimulationPolicyListType *docs, floe_policy_kind_t kind)
{
    int rc;

    for (size_t i = 0; docs != NULL && i < docs->n; i++) {
        if ((rc = floe_iam_check_policy(call, docs->items[i], kind, FLOE_IAM_ERR_InvalidInputException)) != FLOE_OK)
            return rc;
    }
    return FLOE_OK;
}

/* ContextEntries as condition keys: one key per value, as a multivalued key is given to the evaluator. */
static void context_of(floe_query_call_t *call, const floe_iam_ContextEntryListType *entries, simulation_t *sim)
{
    size_t n = 0;

    for (size_t i = 0; entries != NULL && i < entries->n; i++)
        n += entries->items[i].ContextKeyValues ? entries->items[i].ContextKeyValues->n : 0;
    sim->context = floe_call_alloc(&call->super, sizeof(*sim->context) * (n + 1));
    sim->n_context = 0;
    for (size_t i = 0; entries != NULL && i < entries->n; i++) {
        const floe_iam_ContextEntry *e = &entries->items[i];
        for (size_t v = 0; e->ContextKeyValues != NULL && v < e->ContextKeyValues->n; v++)
            sim->context[sim->n_context++] =
                (floe_policy_context_key_t){e->ContextKeyName, e->ContextKeyValues->items[v]};
    }
}

/* The policies of `list` added after the principal's own, named "PolicyInputList.<n>" as IAM names them. */
static void add_inputs(floe_query_call_t *call, const floe_iam_SimulationPolicyListType *list, simulation_t *sim)
{
    size_t have = sim->principal.n_policies, n = list ? list->n : 0;
    const char **docs = floe_call_alloc(&call->super, sizeof(*docs) * (have + n + 1));
    const char **ids = floe_call_alloc(&call->super, sizeof(*ids) * (have + n + 1));
    floe_iam_PolicySourceType *types = floe_call_alloc(&call->super, sizeof(*types) * (have + n + 1));

    for (size_t i = 0; i < have; i++) {
        docs[i] = sim->principal.policies[i];
        ids[i] = sim->policy_ids[i];
        types[i] = sim->policy_types[i];
    }
    for (size_t i = 0; i < n; i++) {
        docs[have + i] = list->items[i];
        ids[have + i] = floe_call_printf(&call->super, "PolicyInputList.%zu", i + 1);
        types[have + i] = FLOE_IAM_PolicySourceType_NONE; /* AWS says "IAM Policy", which its model's enum lacks */
    }
    sim->principal.policies = docs;
    sim->principal.n_policies = have + n;
    sim->policy_ids = ids;
    sim->policy_types = types;
}

static floe_iam_PolicyEvaluationDecisionType decision_word(bool is_allowed, floe_policy_effect_t deny_check)
{
    if (is_allowed)
        return FLOE_IAM_PolicyEvaluationDecisionType_ALLOWED;
    return deny_check == FLOE_POLICY_DENY ? FLOE_IAM_PolicyEvaluationDecisionType_EXPLICIT_DENY
                                          : FLOE_IAM_PolicyEvaluationDecisionType_IMPLICIT_DENY;
}

static floe_iam_PolicyEvaluationDecisionType effect_word(floe_policy_effect_t effect)
{
    return decision_word(effect == FLOE_POLICY_ALLOW, effect);
}

/* The statement that decided, as IAM's Statement: which policy holds it. */
static floe_iam_StatementListType *matched(floe_query_call_t *call, const simulation_t *sim,
                                           const floe_authz_decision_t *d)
{
    floe_iam_StatementListType *list = floe_call_alloc(&call->super, sizeof(*list));

    memset(list, 0, sizeof(*list));
    if (d->source == FLOE_AUTHZ_SOURCE_NONE)
        return list;
    list->items = floe_call_alloc(&call->super, sizeof(*list->items));
    memset(list->items, 0, sizeof(*list->items));
    list->n = 1;
    if (d->source == FLOE_AUTHZ_SOURCE_IDENTITY) {
        list->items[0].SourcePolicyId = (char *)sim->policy_ids[d->source_index];
        list->items[0].SourcePolicyType = sim->policy_types[d->source_index];
    } else {
        list->items[0].SourcePolicyId = "ResourcePolicy";
        list->items[0].SourcePolicyType = FLOE_IAM_PolicySourceType_RESOURCE;
    }
    return list;
}

/* EvalDecisionDetails when a resource policy is simulated: what each side said on its own. */
static floe_iam_EvalDecisionDetailsType *details(floe_query_call_t *call, const floe_authz_decision_t *d)
{
    floe_iam_EvalDecisionDetailsType *out = floe_call_alloc(&call->super, sizeof(*out));

    out->n = 2;
    out->keys = floe_call_alloc(&call->super, sizeof(*out->keys) * 2);
    out->values = floe_call_alloc(&call->super, sizeof(*out->values) * 2);
    out->keys[0] = "IAM Policy";
    out->values[0] = effect_word(d->identity_effect);
    out->keys[1] = "Resource Policy";
    out->values[1] = effect_word(d->resource_effect);
    return out;
}

static void evaluate_one(floe_query_call_t *call, const simulation_t *sim, const char *action, const char *resource,
                         floe_iam_EvaluationResult *out)
{
    floe_authz_request_t r = {0};
    floe_authz_decision_t d;
    bool has_deny;

    r.action = action;
    r.resource = resource;
    r.owner = sim->owner;
    r.bucket_policy = sim->resource_policy;
    r.context = sim->context;
    r.n_context = sim->n_context;
    floe_authz_evaluate(&call->super, &sim->principal, &r, &d);
    has_deny = d.reason == FLOE_AUTHZ_IDENTITY_DENY || d.reason == FLOE_AUTHZ_RESOURCE_DENY;
    memset(out, 0, sizeof(*out));
    out->EvalActionName = (char *)action;
    out->EvalResourceName = (char *)resource;
    out->EvalDecision = decision_word(d.is_allowed, has_deny ? FLOE_POLICY_DENY : FLOE_POLICY_NO_MATCH);
    out->MatchedStatements = matched(call, sim, &d);
    out->MissingContextValues = floe_call_alloc(&call->super, sizeof(*out->MissingContextValues));
    floe_authz_missing_keys(&call->super, &sim->principal, &r, (const char ***)&out->MissingContextValues->items,
                            &out->MissingContextValues->n);
    if (sim->resource_policy != NULL)
        out->EvalDecisionDetails = details(call, &d);
}

/* Every action on every resource (default "*"), one page of them by Marker and MaxItems. */
static int simulate(floe_query_call_t *call, const simulation_t *sim, const floe_iam_ActionNameListType *actions,
                    const floe_iam_ResourceNameListType *resources, const char *marker, bool has_max, int32_t max,
                    floe_iam_SimulatePolicyResponse *out)
{
    static char *const any[] = {"*"};
    char *const *arns = resources && resources->n > 0 ? resources->items : any;
    size_t n_arns = resources && resources->n > 0 ? resources->n : 1;
    size_t total = actions->n * n_arns, start, end;
    int rc;

    if ((rc = floe_iam_page(call, marker, has_max, max, total, &start, &end, &out->Marker, &out->IsTruncated)) !=
        FLOE_OK)
        return rc;
    out->EvaluationResults = floe_call_alloc(&call->super, sizeof(*out->EvaluationResults));
    out->EvaluationResults->n = end - start;
    out->EvaluationResults->items = floe_call_alloc(&call->super, sizeof(floe_iam_EvaluationResult) * (end - start + 1));
    for (size_t i = start; i < end; i++)
        evaluate_one(call, sim, actions->items[i / n_arns], arns[i % n_arns],
                     &out->EvaluationResults->items[i - start]);
    return FLOE_OK;
}

/* What both requests share: the documents checked, the resource side and the context. */
static int prepare(floe_query_call_t *call, const floe_iam_SimulationPolicyListType *inputs,
                   const floe_iam_SimulationPolicyListType *boundaries, const char *resource_policy,
                   const char *resource_owner, const floe_iam_ContextEntryListType *context, simulation_t *sim)
{
    int rc;

    if ((rc = check_all(call, inputs, FLOE_POLICY_IDENTITY)) != FLOE_OK ||
        (rc = check_all(call, boundaries, FLOE_POLICY_IDENTITY)) != FLOE_OK ||
        (resource_policy != NULL &&
         (rc = floe_iam_check_policy(call, resource_policy, FLOE_POLICY_RESOURCE,
                                      FLOE_IAM_ERR_InvalidInputException)) != FLOE_OK))
        return rc;
    sim->owner = sim->principal.account_id;
    if (resource_owner != NULL && (sim->owner = account_of(call, resource_owner)) == NULL)
        return floe_iam_fail(call, FLOE_IAM_ERR_InvalidInputException, "Invalid ResourceOwner: %s", resource_owner);
    sim->resource_policy = resource_policy;
    context_of(call, context, sim);
    add_inputs(call, inputs, sim);
    return FLOE_OK;
}

/* The simulated caller: CallerArn's user, or (without one) an unnamed principal of the call's account. */
static int caller_of(floe_query_call_t *call, const char *caller_arn, const char *resource_policy, simulation_t *sim)
{
    const char *account = caller_arn ? account_of(call, caller_arn) : floe_call_account(&call->super);

    if (caller_arn == NULL && resource_policy != NULL)
        return floe_iam_fail(call, FLOE_IAM_ERR_InvalidInputException,
                             "CallerArn is required when a ResourcePolicy is given.");
    if (account == NULL)
        return floe_iam_fail(call, FLOE_IAM_ERR_InvalidInputException, "Invalid CallerArn: %s", caller_arn);
    sim->principal.kind = FLOE_PRINCIPAL_USER;
    snprintf(sim->principal.account_id, sizeof(sim->principal.account_id), "%s", account);
    sim->principal.arn = caller_arn;
    return FLOE_OK;
}

int floe_iam_handle_SimulateCustomPolicy(floe_query_call_t *call, const floe_iam_SimulateCustomPolicyRequest *in,
                                         floe_iam_SimulatePolicyResponse *out)
{
    simulation_t sim;
    int rc;

    memset(&sim, 0, sizeof(sim));
    if ((rc = caller_of(call, in->CallerArn, in->ResourcePolicy, &sim)) != FLOE_OK ||
        (rc = prepare(call, in->PolicyInputList, in->PermissionsBoundaryPolicyInputList, in->ResourcePolicy,
                      in->ResourceOwner, in->ContextEntries, &sim)) != FLOE_OK)
        return rc;
    return simulate(call, &sim, in->ActionNames, in->ResourceArns, in->Marker, in->has_MaxItems, in->MaxItems, out);
}

/* The entity's identity policies, each with its id (the policy's name) and type, as IAM reports them. */
static int policies_of(floe_query_call_t *call, floe_iam_kind_t kind, int64_t row, simulation_t *sim)
{
    floe_iam_attached_t *attached;
    floe_iam_PolicySourceType *types;
    char **inline_names;
    const char **docs, **ids;
    size_t n_inline, n_attached, n;
    int rc;

    /* the names come in the order entity_documents reads the documents: inline, then attached */
    if ((rc = floe_iam_inline_list(&call->super, kind, row, &inline_names, &n_inline)) != FLOE_OK ||
        (rc = floe_iam_attached_list(&call->super, kind, row, &attached, &n_attached)) != FLOE_OK ||
        (rc = floe_iam_entity_documents(&call->super, kind, row, &docs, &n)) != FLOE_OK)
        return rc;
    ids = floe_call_alloc(&call->super, sizeof(*ids) * (n + 1));
    types = floe_call_alloc(&call->super, sizeof(*types) * (n + 1));
    for (size_t i = 0; i < n; i++) {
        ids[i] = i < n_inline ? inline_names[i] : attached[i - n_inline].name;
        types[i] = i >= n_inline ? FLOE_IAM_PolicySourceType_USER_MANAGED
                   : kind == FLOE_IAM_ROLE ? FLOE_IAM_PolicySourceType_ROLE
                                           : FLOE_IAM_PolicySourceType_USER;
    }
    sim->principal.policies = docs;
    sim->principal.n_policies = n;
    sim->policy_ids = ids;
    sim->policy_types = types;
    return FLOE_OK;
}

/* The user or role PolicySourceArn names, in its account, with its policies. */
static int source_of(floe_query_call_t *call, const char *arn, simulation_t *sim)
{
    const char *account = account_of(call, arn), *kind_at = account ? arn + ARN_ACCOUNT_AT + FLOE_ACCOUNT_ID_LEN : "";
    floe_iam_kind_t kind = strncmp(kind_at, ":role/", 6) == 0 ? FLOE_IAM_ROLE : FLOE_IAM_USER;
    const char *name = strrchr(arn, '/');
    floe_iam_entity_t e;
    int rc;

    if (account == NULL || strncmp(arn, "arn:aws:iam::", ARN_ACCOUNT_AT) != 0 || name == NULL ||
        (strncmp(kind_at, ":user/", 6) != 0 && strncmp(kind_at, ":role/", 6) != 0))
        return floe_iam_fail(call, FLOE_IAM_ERR_InvalidInputException, "Invalid ARN: %s", arn);
    /* only the caller's own account's users and roles, as in IAM */
    rc = strcmp(account, floe_call_account(&call->super)) == 0 ? floe_iam_entity_get(&call->super, kind, name + 1, &e)
                                                               : FLOE_ENOTFOUND;
    if (rc == FLOE_ENOTFOUND)
        return floe_iam_fail(call, FLOE_IAM_ERR_NoSuchEntityException, "The %s with name %s cannot be found.",
                             floe_iam_kind_word(kind), name + 1);
    if (rc != FLOE_OK || (rc = policies_of(call, kind, e.row, sim)) != FLOE_OK)
        return rc;
    sim->principal.kind = kind == FLOE_IAM_ROLE ? FLOE_PRINCIPAL_ASSUMED_ROLE : FLOE_PRINCIPAL_USER;
    snprintf(sim->principal.account_id, sizeof(sim->principal.account_id), "%s", account);
    sim->principal.arn = e.arn;
    sim->principal.role_arn = kind == FLOE_IAM_ROLE ? e.arn : NULL;
    return FLOE_OK;
}

int floe_iam_handle_SimulatePrincipalPolicy(floe_query_call_t *call,
                                            const floe_iam_SimulatePrincipalPolicyRequest *in,
                                            floe_iam_SimulatePolicyResponse *out)
{
    simulation_t sim;
    int rc;

    memset(&sim, 0, sizeof(sim));
    if ((rc = source_of(call, in->PolicySourceArn, &sim)) != FLOE_OK)
        return rc;
    if (in->CallerArn != NULL)
        sim.principal.arn = in->CallerArn;
    if ((rc = prepare(call, in->PolicyInputList, in->PermissionsBoundaryPolicyInputList, in->ResourcePolicy,
                      in->ResourceOwner, in->ContextEntries, &sim)) != FLOE_OK)
        return rc;
    return simulate(call, &sim, in->ActionNames, in->ResourceArns, in->Marker, in->has_MaxItems, in->MaxItems, out);
}

/*
 * CloudFormation change sets: CreateChangeSet, DescribeChangeSet, ExecuteChangeSet,
 * DeleteChangeSet and ListChangeSets, the path `aws cloudformation deploy` and the AWS CDK take.
 * Thin: the request's members to the stack API (cloudformation/stack.h), its answer to the
 * response shape. The engine computes a change set's changes in the background; clients poll
 * DescribeChangeSet as on AWS.
 */
#include "cloudformation.h"

#define ENUM_OF(type, text) ((text) != NULL ? floe_cfn_##type##_from_string(text) : (floe_cfn_##type)0)

int floe_cfn_handle_CreateChangeSet(floe_query_call_t *call, const floe_cfn_CreateChangeSetInput *in,
                                    floe_cfn_CreateChangeSetOutput *out)
{
    floe_stack_change_set_input_t req = {
        .stack_name = in->StackName,
        .change_set_name = in->ChangeSetName,
        .change_set_type = in->ChangeSetType != 0 ? floe_cfn_ChangeSetType_values[in->ChangeSetType] : NULL,
        .description = in->Description,
        .on_stack_failure = in->OnStackFailure != 0 ? floe_cfn_OnStackFailure_values[in->OnStackFailure] : NULL,
    };
    char *why = NULL;

    if (floe_cfnh_authorize(call, in->StackName, NULL) != FLOE_OK)
        return FLOE_EFAIL;
    if (in->ChangeSetType == FLOE_CFN_ChangeSetType_IMPORT)
        return floe_cfn_fail(call, FLOE_CFN_ERR_ValidationError, "Floe does not import resources (ChangeSetType IMPORT).");
    if (floe_cfnh_template_input(call, in->TemplateBody, in->TemplateURL,
                                 in->has_UsePreviousTemplate && in->UsePreviousTemplate, in->Parameters, in->Tags,
                                 &req.template_) != FLOE_OK)
        return FLOE_EFAIL;
    return floe_cfnh_answer_settled(call, floe_stack_change_set_create(&call->super, &req, &out->Id, &out->StackId, &why),
                                    &out->StackId, &why);
}

static floe_cfn_ResourceChangeDetails *details_of(floe_query_call_t *call, const floe_stack_change_t *c)
{
    floe_cfn_ResourceChangeDetails *out = floe_call_alloc(&call->super, sizeof(*out));

    out->items = c->n_details > 0 ? floe_call_alloc(&call->super, c->n_details * sizeof(*out->items)) : NULL;
    out->n = c->n_details;
    for (size_t i = 0; i < c->n_details; i++) {
        const floe_stack_change_detail_t *d = &c->details[i];
        floe_cfn_ResourceChangeDetail *o = &out->items[i];

        o->Target = floe_call_alloc(&call->super, sizeof(*o->Target));
        o->Target->Attribute = ENUM_OF(ResourceAttribute, d->attribute);
        o->Target->Name = d->name;
        o->Target->RequiresRecreation = ENUM_OF(RequiresRecreation, d->requires_recreation);
        o->Evaluation = ENUM_OF(EvaluationType, d->evaluation);
        o->ChangeSource = ENUM_OF(ChangeSource, d->change_source);
        o->CausingEntity = d->causing_entity;
    }
    return out;
}

/* Changes [start, end) of the change set. */
static floe_cfn_Changes *changes_of(floe_query_call_t *call, const floe_stack_change_set_t *cs, size_t start,
                                    size_t end)
{
    floe_cfn_Changes *out = floe_call_alloc(&call->super, sizeof(*out));

    out->items = end > start ? floe_call_alloc(&call->super, (end - start) * sizeof(*out->items)) : NULL;
    out->n = end - start;
    for (size_t i = start; i < end; i++) {
        const floe_stack_change_t *c = &cs->changes[i];
        floe_cfn_ResourceChange *rc = floe_call_alloc(&call->super, sizeof(*rc));

        out->items[i - start].Type = FLOE_CFN_ChangeType_Resource;
        out->items[i - start].ResourceChange = rc;
        rc->Action = ENUM_OF(ChangeAction, c->action);
        rc->LogicalResourceId = c->logical_id;
        rc->PhysicalResourceId = c->physical_id;
        rc->ResourceType = c->type;
        rc->Replacement = ENUM_OF(Replacement, c->replacement);
        /* Always listed, empty for an Add or a Remove, as AWS lists them. */
        rc->Scope = floe_call_alloc(&call->super, sizeof(*rc->Scope));
        rc->Scope->items =
            c->n_scope > 0 ? floe_call_alloc(&call->super, c->n_scope * sizeof(*rc->Scope->items)) : NULL;
        rc->Scope->n = c->n_scope;
        for (size_t j = 0; j < c->n_scope; j++)
            rc->Scope->items[j] = ENUM_OF(ResourceAttribute, c->scope[j]);
        rc->Details = details_of(call, c);
    }
    return out;
}

/* A resource has one change in a change set, so its logical id keys the change. */
static const char *change_key(const void *items, size_t i)
{
    return ((const floe_stack_change_t *)items)[i].logical_id;
}

/* The Changes in pages of FLOE_CFNH_PAGE_SIZE; the other members are on every page, as AWS (and
 * botocore's paginator, which keeps them as non-aggregate keys) has them. */
int floe_cfn_handle_DescribeChangeSet(floe_query_call_t *call, const floe_cfn_DescribeChangeSetInput *in,
                                      floe_cfn_DescribeChangeSetOutput *out)
{
    floe_stack_change_set_t cs = {0};
    size_t start, end;
    char *why = NULL;

    if (floe_cfnh_authorize(call, in->StackName, NULL) != FLOE_OK)
        return FLOE_EFAIL;
    if (floe_cfnh_answer(call, floe_stack_change_set_describe(&call->super, in->ChangeSetName, in->StackName, &cs, &why), &why) != FLOE_OK ||
        floe_cfnh_page(call, floe_call_printf(&call->super, "DescribeChangeSet|%s", cs.change_set_id), in->NextToken,
                       cs.changes, cs.n_changes, change_key, &start, &end, &out->NextToken))
        return FLOE_EFAIL;
    out->ChangeSetName = cs.name;
    out->ChangeSetId = cs.change_set_id;
    out->StackId = cs.stack_id;
    out->StackName = cs.stack_name;
    out->Description = cs.description;
    out->Parameters = floe_cfnh_parameters(call, cs.parameters, cs.n_parameters);
    out->CreationTime = cs.created_at;
    out->has_CreationTime = true;
    out->ExecutionStatus = ENUM_OF(ExecutionStatus, cs.execution_status);
    out->Status = ENUM_OF(ChangeSetStatus, cs.status);
    out->StatusReason = cs.status_reason;
    out->Tags = floe_cfnh_tags(call, cs.tags, cs.n_tags);
    out->Changes = changes_of(call, &cs, start, end);
    out->IncludeNestedStacks = false;
    out->has_IncludeNestedStacks = true;
    return FLOE_OK;
}

int floe_cfn_handle_ExecuteChangeSet(floe_query_call_t *call, const floe_cfn_ExecuteChangeSetInput *in,
                                     floe_cfn_ExecuteChangeSetOutput *out)
{
    const char *caller = NULL;
    char *why = NULL, *stack_id = NULL;

    if (floe_cfnh_authorize(call, in->StackName, &caller) != FLOE_OK)
        return FLOE_EFAIL;
    (void)out;
    return floe_cfnh_answer_settled(call,
                                    floe_stack_change_set_execute(&call->super, in->ChangeSetName, in->StackName,
                                                                  in->has_DisableRollback, in->DisableRollback,
                                                                  caller, &stack_id, &why),
                                    &stack_id, &why);
}

int floe_cfn_handle_DeleteChangeSet(floe_query_call_t *call, const floe_cfn_DeleteChangeSetInput *in,
                                    floe_cfn_DeleteChangeSetOutput *out)
{
    char *why = NULL;

    if (floe_cfnh_authorize(call, in->StackName, NULL) != FLOE_OK)
        return FLOE_EFAIL;
    (void)out;
    return floe_cfnh_answer(call, floe_stack_change_set_delete(&call->super, in->ChangeSetName, in->StackName, &why), &why);
}

static const char *change_set_key(const void *items, size_t i)
{
    return ((const floe_stack_change_set_t *)items)[i].change_set_id;
}

/* Pages of FLOE_CFNH_PAGE_SIZE, as AWS pages them. */
int floe_cfn_handle_ListChangeSets(floe_query_call_t *call, const floe_cfn_ListChangeSetsInput *in,
                                   floe_cfn_ListChangeSetsOutput *out)
{
    floe_stack_change_set_t *sets = NULL;
    size_t n = 0, start, end;
    char *why = NULL;

    if (floe_cfnh_authorize(call, in->StackName, NULL) != FLOE_OK)
        return FLOE_EFAIL;
    if (floe_cfnh_answer(call, floe_stack_change_set_list(&call->super, in->StackName, &sets, &n, &why), &why) !=
            FLOE_OK ||
        floe_cfnh_page(call, floe_call_printf(&call->super, "ListChangeSets|%s", in->StackName), in->NextToken, sets, n,
                       change_set_key, &start, &end, &out->NextToken))
        return FLOE_EFAIL;
    out->Summaries = floe_call_alloc(&call->super, sizeof(*out->Summaries));
    out->Summaries->items =
        end > start ? floe_call_alloc(&call->super, (end - start) * sizeof(*out->Summaries->items)) : NULL;
    out->Summaries->n = end - start;
    for (size_t i = start; i < end; i++) {
        floe_cfn_ChangeSetSummary *o = &out->Summaries->items[i - start];

        o->StackId = sets[i].stack_id;
        o->StackName = sets[i].stack_name;
        o->ChangeSetId = sets[i].change_set_id;
        o->ChangeSetName = sets[i].name;
        o->ExecutionStatus = ENUM_OF(ExecutionStatus, sets[i].execution_status);
        o->Status = ENUM_OF(ChangeSetStatus, sets[i].status);
        o->StatusReason = sets[i].status_reason;
        o->CreationTime = sets[i].created_at;
        o->has_CreationTime = true;
        o->Description = sets[i].description;
    }
    return FLOE_OK;
}

/*
 * CloudFormation stacks: CreateStack, UpdateStack, DeleteStack, DescribeStacks, ListStacks,
 * DescribeStackEvents, DescribeStackResource(s), ListStackResources and ListExports. Each is the
 * request's members handed to the stack API (cloudformation/stack.h), whose engine does the work
 * in the background, and its answer in the response shape. DescribeStacks, ListStacks,
 * DescribeStackEvents, ListStackResources and ListExports answer AWS's pages of FLOE_CFNH_PAGE_SIZE
 * with a NextToken (floe_cfnh_page); DescribeStackResources answers whole, as AWS does.
 */
#include "cloudformation.h"

/* A generated enum from the API's wire value; 0 (absent) for NULL or a value the model lacks. */
#define ENUM_OF(type, text) ((text) != NULL ? floe_cfn_##type##_from_string(text) : (floe_cfn_##type)0)


static const char *stack_key(const void *items, size_t i)
{
    return ((const floe_stack_info_t *)items)[i].stack_id;
}

static const char *event_key(const void *items, size_t i)
{
    return ((const floe_stack_event_t *)items)[i].event_id;
}

static const char *resource_key(const void *items, size_t i)
{
    return ((const floe_stack_resource_t *)items)[i].logical_id;
}

int floe_cfn_handle_CreateStack(floe_query_call_t *call, const floe_cfn_CreateStackInput *in,
                                floe_cfn_CreateStackOutput *out)
{
    floe_stack_create_input_t req = {
        .stack_name = in->StackName,
        .disable_rollback = in->has_DisableRollback && in->DisableRollback,
        .on_failure = in->OnFailure != 0 ? floe_cfn_OnFailure_values[in->OnFailure] : NULL,
    };
    char *why = NULL;

    if (floe_cfnh_authorize(call, in->StackName, &req.caller) != FLOE_OK)
        return FLOE_EFAIL;
    if (floe_cfnh_template_input(call, in->TemplateBody, in->TemplateURL, false, in->Parameters, in->Tags,
                                 &req.template_) != FLOE_OK)
        return FLOE_EFAIL;
    return floe_cfnh_answer_settled(call, floe_stack_create(&call->super, &req, &out->StackId, &why), &out->StackId,
                                    &why);
}

int floe_cfn_handle_UpdateStack(floe_query_call_t *call, const floe_cfn_UpdateStackInput *in,
                                floe_cfn_UpdateStackOutput *out)
{
    floe_stack_update_input_t req = {
        .stack_name = in->StackName,
        .disable_rollback = in->has_DisableRollback && in->DisableRollback,
    };
    char *why = NULL;

    if (floe_cfnh_authorize(call, in->StackName, &req.caller) != FLOE_OK)
        return FLOE_EFAIL;
    if (floe_cfnh_template_input(call, in->TemplateBody, in->TemplateURL,
                                 in->has_UsePreviousTemplate && in->UsePreviousTemplate, in->Parameters, in->Tags,
                                 &req.template_) != FLOE_OK)
        return FLOE_EFAIL;
    return floe_cfnh_answer_settled(call, floe_stack_update(&call->super, &req, &out->StackId, &why), &out->StackId,
                                    &why);
}

int floe_cfn_handle_DeleteStack(floe_query_call_t *call, const floe_cfn_DeleteStackInput *in, floe_Unit *out)
{
    const floe_cfn_RetainResources *retain = in->RetainResources;
    const char *caller = NULL;
    char *why = NULL, *stack_id = NULL;

    if (floe_cfnh_authorize(call, in->StackName, &caller) != FLOE_OK)
        return FLOE_EFAIL;
    (void)out;
    return floe_cfnh_answer_settled(call,
                                    floe_stack_delete(&call->super, in->StackName,
                                                      retain != NULL ? (const char *const *)retain->items : NULL,
                                                      retain != NULL ? retain->n : 0, caller, &stack_id, &why),
                                    &stack_id, &why);
}

static floe_cfn_Outputs *outputs_of(floe_query_call_t *call, const floe_stack_info_t *s)
{
    floe_cfn_Outputs *out;

    if (s->n_outputs == 0)
        return NULL;
    out = floe_call_alloc(&call->super, sizeof(*out));
    out->items = floe_call_alloc(&call->super, s->n_outputs * sizeof(*out->items));
    out->n = s->n_outputs;
    for (size_t i = 0; i < s->n_outputs; i++) {
        out->items[i].OutputKey = s->outputs[i].key;
        out->items[i].OutputValue = s->outputs[i].value;
        out->items[i].Description = s->outputs[i].description;
        out->items[i].ExportName = s->outputs[i].export_name;
    }
    return out;
}

int floe_cfn_handle_DescribeStacks(floe_query_call_t *call, const floe_cfn_DescribeStacksInput *in,
                                   floe_cfn_DescribeStacksOutput *out)
{
    floe_stack_info_t *stacks = NULL;
    size_t n = 0, start, end;
    char *why = NULL;

    if (floe_cfnh_authorize(call, in->StackName, NULL) != FLOE_OK)
        return FLOE_EFAIL;
    if (floe_cfnh_answer(call, floe_stack_describe(&call->super, in->StackName, &stacks, &n, &why), &why) != FLOE_OK ||
        floe_cfnh_page(call, floe_call_printf(&call->super, "DescribeStacks|%s", in->StackName ? in->StackName : ""),
                       in->NextToken, stacks, n, stack_key, &start, &end, &out->NextToken))
        return FLOE_EFAIL;
    out->Stacks = floe_call_alloc(&call->super, sizeof(*out->Stacks));
    out->Stacks->items =
        end > start ? floe_call_alloc(&call->super, (end - start) * sizeof(*out->Stacks->items)) : NULL;
    out->Stacks->n = end - start;
    for (size_t i = start; i < end; i++) {
        const floe_stack_info_t *s = &stacks[i];
        floe_cfn_Stack *o = &out->Stacks->items[i - start];

        o->StackId = s->stack_id;
        o->StackName = s->name;
        o->ChangeSetId = s->change_set_id;
        o->Description = s->description;
        o->Parameters = floe_cfnh_parameters(call, s->parameters, s->n_parameters);
        o->CreationTime = s->created_at;
        o->has_CreationTime = true;
        o->LastUpdatedTime = s->updated_at;
        o->has_LastUpdatedTime = s->updated_at != 0;
        o->DeletionTime = s->deleted_at;
        o->has_DeletionTime = s->deleted_at != 0;
        o->StackStatus = ENUM_OF(StackStatus, s->status);
        o->StackStatusReason = s->status_reason;
        o->DisableRollback = s->disable_rollback;
        o->has_DisableRollback = true;
        o->Outputs = outputs_of(call, s);
        o->Tags = floe_cfnh_tags(call, s->tags, s->n_tags);
        o->EnableTerminationProtection = false;
        o->has_EnableTerminationProtection = true;
    }
    return FLOE_OK;
}

int floe_cfn_handle_ListStacks(floe_query_call_t *call, const floe_cfn_ListStacksInput *in,
                               floe_cfn_ListStacksOutput *out)
{
    const floe_cfn_StackStatusFilter *filter = in->StackStatusFilter;
    const char **statuses = NULL;
    size_t n_statuses = filter != NULL ? filter->n : 0;
    floe_stack_info_t *stacks = NULL;
    size_t n = 0, start, end;
    const char *listing = "ListStacks";

    if (floe_cfnh_authorize(call, NULL, NULL) != FLOE_OK)
        return FLOE_EFAIL;
    if (n_statuses > 0) {
        statuses = floe_call_alloc(&call->super, n_statuses * sizeof(*statuses));
        for (size_t i = 0; i < n_statuses; i++) {
            statuses[i] = floe_cfn_StackStatus_values[filter->items[i]];
            listing = floe_call_printf(&call->super, "%s|%s", listing, statuses[i]);
        }
    }
    if (floe_cfnh_answer(call, floe_stack_list(&call->super, statuses, n_statuses, &stacks, &n), NULL) != FLOE_OK ||
        floe_cfnh_page(call, listing, in->NextToken, stacks, n, stack_key, &start, &end, &out->NextToken))
        return FLOE_EFAIL;
    out->StackSummaries = floe_call_alloc(&call->super, sizeof(*out->StackSummaries));
    out->StackSummaries->items =
        end > start ? floe_call_alloc(&call->super, (end - start) * sizeof(*out->StackSummaries->items)) : NULL;
    out->StackSummaries->n = end - start;
    for (size_t i = start; i < end; i++) {
        const floe_stack_info_t *s = &stacks[i];
        floe_cfn_StackSummary *o = &out->StackSummaries->items[i - start];

        o->StackId = s->stack_id;
        o->StackName = s->name;
        o->TemplateDescription = s->description;
        o->CreationTime = s->created_at;
        o->has_CreationTime = true;
        o->LastUpdatedTime = s->updated_at;
        o->has_LastUpdatedTime = s->updated_at != 0;
        o->DeletionTime = s->deleted_at;
        o->has_DeletionTime = s->deleted_at != 0;
        o->StackStatus = ENUM_OF(StackStatus, s->status);
        o->StackStatusReason = s->status_reason;
    }
    return FLOE_OK;
}

int floe_cfn_handle_DescribeStackEvents(floe_query_call_t *call, const floe_cfn_DescribeStackEventsInput *in,
                                        floe_cfn_DescribeStackEventsOutput *out)
{
    floe_stack_event_t *events = NULL;
    size_t n = 0, start, end;
    char *why = NULL;

    if (floe_cfnh_authorize(call, in->StackName, NULL) != FLOE_OK)
        return FLOE_EFAIL;
    if (floe_cfnh_answer(call, floe_stack_events(&call->super, in->StackName, &events, &n, &why), &why) != FLOE_OK ||
        floe_cfnh_page(call,
                       floe_call_printf(&call->super, "DescribeStackEvents|%s", in->StackName ? in->StackName : ""),
                       in->NextToken, events, n, event_key, &start, &end, &out->NextToken))
        return FLOE_EFAIL;
    out->StackEvents = floe_call_alloc(&call->super, sizeof(*out->StackEvents));
    out->StackEvents->items =
        end > start ? floe_call_alloc(&call->super, (end - start) * sizeof(*out->StackEvents->items)) : NULL;
    out->StackEvents->n = end - start;
    for (size_t i = start; i < end; i++) {
        const floe_stack_event_t *e = &events[i];
        floe_cfn_StackEvent *o = &out->StackEvents->items[i - start];

        o->StackId = e->stack_id;
        o->EventId = e->event_id;
        o->StackName = e->stack_name;
        o->LogicalResourceId = e->logical_id;
        o->PhysicalResourceId = e->physical_id;
        o->ResourceType = e->resource_type;
        o->Timestamp = e->at;
        o->has_Timestamp = true;
        o->ResourceStatus = ENUM_OF(ResourceStatus, e->status);
        o->ResourceStatusReason = e->status_reason;
        o->ResourceProperties = e->properties;
    }
    return FLOE_OK;
}

/* Floe detects no drift: every resource is NOT_CHECKED, as on AWS before a drift detection runs. */
static floe_cfn_StackResourceDriftInformation *not_checked(floe_query_call_t *call)
{
    floe_cfn_StackResourceDriftInformation *d = floe_call_alloc(&call->super, sizeof(*d));

    d->StackResourceDriftStatus = FLOE_CFN_StackResourceDriftStatus_NOT_CHECKED;
    return d;
}

int floe_cfn_handle_DescribeStackResource(floe_query_call_t *call, const floe_cfn_DescribeStackResourceInput *in,
                                          floe_cfn_DescribeStackResourceOutput *out)
{
    floe_stack_resource_t r = {0};
    floe_cfn_StackResourceDetail *o;
    char *why = NULL;

    if (floe_cfnh_authorize(call, in->StackName, NULL) != FLOE_OK)
        return FLOE_EFAIL;
    if (floe_cfnh_answer(call, floe_stack_resource(&call->super, in->StackName, in->LogicalResourceId, &r, &why), &why) != FLOE_OK)
        return FLOE_EFAIL;
    o = out->StackResourceDetail = floe_call_alloc(&call->super, sizeof(*o));
    o->StackName = r.stack_name;
    o->StackId = r.stack_id;
    o->LogicalResourceId = r.logical_id;
    o->PhysicalResourceId = r.physical_id;
    o->ResourceType = r.type;
    o->LastUpdatedTimestamp = r.updated_at;
    o->has_LastUpdatedTimestamp = true;
    o->ResourceStatus = ENUM_OF(ResourceStatus, r.status);
    o->ResourceStatusReason = r.status_reason;
    o->Metadata = r.metadata;
    o->Description = r.description;
    o->DriftInformation = not_checked(call);
    return FLOE_OK;
}

int floe_cfn_handle_DescribeStackResources(floe_query_call_t *call, const floe_cfn_DescribeStackResourcesInput *in,
                                           floe_cfn_DescribeStackResourcesOutput *out)
{
    floe_stack_resource_t *rs = NULL;
    size_t n = 0;
    char *why = NULL;

    if (floe_cfnh_authorize(call, in->StackName, NULL) != FLOE_OK)
        return FLOE_EFAIL;
    if (in->StackName == NULL && in->PhysicalResourceId == NULL)
        return floe_cfn_fail(call, FLOE_CFN_ERR_ValidationError, "Either StackName or PhysicalResourceId must be specified.");
    if (floe_cfnh_answer(call,
                         floe_stack_describe_resources(&call->super, in->StackName, in->LogicalResourceId, in->PhysicalResourceId,
                                              &rs, &n, &why), &why) != FLOE_OK)
        return FLOE_EFAIL;
    out->StackResources = floe_call_alloc(&call->super, sizeof(*out->StackResources));
    out->StackResources->items = n > 0 ? floe_call_alloc(&call->super, n * sizeof(*out->StackResources->items)) : NULL;
    out->StackResources->n = n;
    for (size_t i = 0; i < n; i++) {
        floe_cfn_StackResource *o = &out->StackResources->items[i];

        o->StackName = rs[i].stack_name;
        o->StackId = rs[i].stack_id;
        o->LogicalResourceId = rs[i].logical_id;
        o->PhysicalResourceId = rs[i].physical_id;
        o->ResourceType = rs[i].type;
        o->Timestamp = rs[i].updated_at;
        o->has_Timestamp = true;
        o->ResourceStatus = ENUM_OF(ResourceStatus, rs[i].status);
        o->ResourceStatusReason = rs[i].status_reason;
        o->Description = rs[i].description;
        o->DriftInformation = not_checked(call);
    }
    return FLOE_OK;
}

int floe_cfn_handle_ListStackResources(floe_query_call_t *call, const floe_cfn_ListStackResourcesInput *in,
                                       floe_cfn_ListStackResourcesOutput *out)
{
    floe_stack_resource_t *rs = NULL;
    size_t n = 0, start, end;
    char *why = NULL;

    if (floe_cfnh_authorize(call, in->StackName, NULL) != FLOE_OK)
        return FLOE_EFAIL;
    if (floe_cfnh_answer(call, floe_stack_resources(&call->super, in->StackName, NULL, NULL, &rs, &n, &why), &why) !=
            FLOE_OK ||
        floe_cfnh_page(call, floe_call_printf(&call->super, "ListStackResources|%s", in->StackName), in->NextToken, rs,
                       n, resource_key, &start, &end, &out->NextToken))
        return FLOE_EFAIL;
    out->StackResourceSummaries = floe_call_alloc(&call->super, sizeof(*out->StackResourceSummaries));
    out->StackResourceSummaries->items =
        end > start ? floe_call_alloc(&call->super, (end - start) * sizeof(*out->StackResourceSummaries->items)) : NULL;
    out->StackResourceSummaries->n = end - start;
    for (size_t i = start; i < end; i++) {
        floe_cfn_StackResourceSummary *o = &out->StackResourceSummaries->items[i - start];

        o->LogicalResourceId = rs[i].logical_id;
        o->PhysicalResourceId = rs[i].physical_id;
        o->ResourceType = rs[i].type;
        o->LastUpdatedTimestamp = rs[i].updated_at;
        o->has_LastUpdatedTimestamp = true;
        o->ResourceStatus = ENUM_OF(ResourceStatus, rs[i].status);
        o->ResourceStatusReason = rs[i].status_reason;
        o->DriftInformation = floe_call_alloc(&call->super, sizeof(*o->DriftInformation));
        o->DriftInformation->StackResourceDriftStatus = FLOE_CFN_StackResourceDriftStatus_NOT_CHECKED;
    }
    return FLOE_OK;
}

static const char *export_key(const void *items, size_t i)
{
    return ((const floe_stack_export_t *)items)[i].name;
}

/* Pages of FLOE_CFNH_PAGE_SIZE, AWS's documented 100 exports a page (ListExportsOutput.NextToken). */
int floe_cfn_handle_ListExports(floe_query_call_t *call, const floe_cfn_ListExportsInput *in,
                                floe_cfn_ListExportsOutput *out)
{
    floe_stack_export_t *exports = NULL;
    size_t n = 0, start, end;

    if (floe_cfnh_authorize(call, NULL, NULL) != FLOE_OK)
        return FLOE_EFAIL;
    if (floe_cfnh_answer(call, floe_stack_exports(&call->super, &exports, &n), NULL) != FLOE_OK ||
        floe_cfnh_page(call, "ListExports", in->NextToken, exports, n, export_key, &start, &end, &out->NextToken))
        return FLOE_EFAIL;
    out->Exports = floe_call_alloc(&call->super, sizeof(*out->Exports));
    out->Exports->items =
        end > start ? floe_call_alloc(&call->super, (end - start) * sizeof(*out->Exports->items)) : NULL;
    out->Exports->n = end - start;
    for (size_t i = start; i < end; i++) {
        floe_cfn_Export *o = &out->Exports->items[i - start];

        o->ExportingStackId = exports[i].stack_id;
        o->Name = exports[i].name;
        o->Value = exports[i].value;
    }
    return FLOE_OK;
}

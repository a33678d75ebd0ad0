/*
 * Athena's workgroups: CreateWorkGroup, GetWorkGroup, ListWorkGroups, UpdateWorkGroup,
 * DeleteWorkGroup. Every account and region has `primary`, which cannot be deleted. Floe keeps the
 * settings queries use (the result configuration, enforcement) and those a client reads back;
 * tags, Spark and Identity Center settings are not kept.
 */
#include <string.h>

#include "athena_common.h"

#define LIST_DEFAULT_PAGE 50 /* AWS: MaxResults 1..50 */
#define LIST_MAX_PAGE 50
#define EFFECTIVE_ENGINE_VERSION "Athena engine version 3"

static const char *state_text(floe_athena_WorkGroupState state)
{
    return state == FLOE_ATHENA_WorkGroupState_DISABLED ? "DISABLED" : "ENABLED";
}

static floe_athena_WorkGroupState state_enum(const char *text)
{
    return strcmp(text, "DISABLED") == 0 ? FLOE_ATHENA_WorkGroupState_DISABLED : FLOE_ATHENA_WorkGroupState_ENABLED;
}

static void set_encryption(floe_athena_workgroup_row_t *w, const floe_athena_EncryptionConfiguration *e)
{
    w->encryption_option = (char *)athena_encryption_text(e->EncryptionOption);
    w->kms_key = e->KmsKey;
}

static floe_athena_EngineVersion *engine_version(floe_awsjson_call_t *call, const floe_athena_workgroup_row_t *w)
{
    floe_athena_EngineVersion *v = FLOE_ATHENA_NEW(call, EngineVersion);

    v->SelectedEngineVersion = w->engine_version;
    v->EffectiveEngineVersion = EFFECTIVE_ENGINE_VERSION;
    return v;
}

static floe_athena_WorkGroupConfiguration *configuration(floe_awsjson_call_t *call, const floe_athena_workgroup_row_t *w)
{
    floe_athena_WorkGroupConfiguration *c = FLOE_ATHENA_NEW(call, WorkGroupConfiguration);

    c->ResultConfiguration = FLOE_ATHENA_NEW(call, ResultConfiguration);
    c->ResultConfiguration->OutputLocation = w->output_location;
    c->ResultConfiguration->ExpectedBucketOwner = w->expected_bucket_owner;
    if (w->encryption_option != NULL) {
        c->ResultConfiguration->EncryptionConfiguration = FLOE_ATHENA_NEW(call, EncryptionConfiguration);
        c->ResultConfiguration->EncryptionConfiguration->EncryptionOption = athena_encryption_enum(w->encryption_option);
        c->ResultConfiguration->EncryptionConfiguration->KmsKey = w->kms_key;
    }
    c->EnforceWorkGroupConfiguration = w->enforce_configuration;
    c->has_EnforceWorkGroupConfiguration = true;
    c->PublishCloudWatchMetricsEnabled = w->publish_metrics;
    c->has_PublishCloudWatchMetricsEnabled = true;
    c->RequesterPaysEnabled = w->requester_pays;
    c->has_RequesterPaysEnabled = true;
    c->BytesScannedCutoffPerQuery = w->bytes_scanned_cutoff;
    c->has_BytesScannedCutoffPerQuery = w->has_bytes_scanned_cutoff;
    c->EngineVersion = engine_version(call, w);
    c->EnableMinimumEncryptionConfiguration = false;
    c->has_EnableMinimumEncryptionConfiguration = true;
    return c;
}

/* A new workgroup's row from CreateWorkGroup's Configuration (AWS's defaults where it says nothing). */
static void row_of_configuration(floe_athena_workgroup_row_t *w, const floe_athena_WorkGroupConfiguration *c)
{
    w->enforce_configuration = true;
    w->publish_metrics = true;
    if (c == NULL)
        return;
    if (c->ResultConfiguration != NULL) {
        w->output_location = c->ResultConfiguration->OutputLocation;
        w->expected_bucket_owner = c->ResultConfiguration->ExpectedBucketOwner;
        if (c->ResultConfiguration->EncryptionConfiguration != NULL)
            set_encryption(w, c->ResultConfiguration->EncryptionConfiguration);
    }
    if (c->has_EnforceWorkGroupConfiguration)
        w->enforce_configuration = c->EnforceWorkGroupConfiguration;
    if (c->has_PublishCloudWatchMetricsEnabled)
        w->publish_metrics = c->PublishCloudWatchMetricsEnabled;
    if (c->has_RequesterPaysEnabled)
        w->requester_pays = c->RequesterPaysEnabled;
    w->has_bytes_scanned_cutoff = c->has_BytesScannedCutoffPerQuery;
    w->bytes_scanned_cutoff = c->BytesScannedCutoffPerQuery;
    if (c->EngineVersion != NULL && c->EngineVersion->SelectedEngineVersion != NULL)
        w->engine_version = c->EngineVersion->SelectedEngineVersion;
}

int floe_athena_handle_CreateWorkGroup(floe_awsjson_call_t *call, const floe_athena_CreateWorkGroupInput *in,
                                       floe_athena_CreateWorkGroupOutput *out)
{
    floe_athena_workgroup_row_t w = {.name = in->Name, .description = in->Description, .state = "ENABLED"};
    bool is_taken;
    (void)out;

    row_of_configuration(&w, in->Configuration);
    if (floe_athena_workgroup_ensure_primary(&call->super) ||
        floe_athena_workgroup_insert(&call->super, &w, &is_taken))
        return floe_athena_fail_internal(call, "creating an Athena workgroup");
    if (is_taken)
        return floe_athena_fail(call, FLOE_ATHENA_ERR_InvalidRequestException, "WorkGroup is already created");
    return FLOE_OK;
}

int floe_athena_handle_GetWorkGroup(floe_awsjson_call_t *call, const floe_athena_GetWorkGroupInput *in,
                                    floe_athena_GetWorkGroupOutput *out)
{
    floe_athena_workgroup_row_t w;

    if (athena_workgroup_require(call, in->WorkGroup, &w))
        return FLOE_EFAIL;
    out->WorkGroup = FLOE_ATHENA_NEW(call, WorkGroup);
    out->WorkGroup->Name = w.name;
    out->WorkGroup->State = state_enum(w.state);
    out->WorkGroup->Description = w.description;
    out->WorkGroup->CreationTime = w.created_at;
    out->WorkGroup->has_CreationTime = true;
    out->WorkGroup->Configuration = configuration(call, &w);
    return FLOE_OK;
}

int floe_athena_handle_ListWorkGroups(floe_awsjson_call_t *call, const floe_athena_ListWorkGroupsInput *in,
                                      floe_athena_ListWorkGroupsOutput *out)
{
    int page = athena_page_size(in->has_MaxResults, in->MaxResults, LIST_DEFAULT_PAGE, LIST_MAX_PAGE);
    const char *after = athena_page_after(call, "ListWorkGroups", in->NextToken);
    floe_athena_workgroup_row_t *rows;
    size_t n;

    if (after == NULL)
        return FLOE_EFAIL;
    if (floe_athena_workgroup_ensure_primary(&call->super) ||
        floe_athena_workgroup_list(&call->super, after, page + 1, &rows, &n))
        return floe_athena_fail_internal(call, "listing Athena workgroups");
    if (n > (size_t)page) { /* one more row than the page tells whether another page follows */
        n = (size_t)page;
        out->NextToken = athena_page_token(call, "ListWorkGroups", rows[n - 1].name);
    }
    out->WorkGroups = FLOE_ATHENA_NEW(call, WorkGroupsList);
    out->WorkGroups->n = n;
    out->WorkGroups->items = floe_call_alloc(&call->super, sizeof(floe_athena_WorkGroupSummary) * (n + 1));
    for (size_t i = 0; i < n; i++) {
        floe_athena_WorkGroupSummary *s = &out->WorkGroups->items[i];
        s->Name = rows[i].name;
        s->State = state_enum(rows[i].state);
        s->Description = rows[i].description;
        s->CreationTime = rows[i].created_at;
        s->has_CreationTime = true;
        s->EngineVersion = engine_version(call, &rows[i]);
    }
    return FLOE_OK;
}

static void apply_result_updates(floe_athena_workgroup_row_t *w, const floe_athena_ResultConfigurationUpdates *u)
{
    if (u->OutputLocation != NULL)
        w->output_location = u->OutputLocation;
    if (u->has_RemoveOutputLocation && u->RemoveOutputLocation)
        w->output_location = NULL;
    if (u->ExpectedBucketOwner != NULL)
        w->expected_bucket_owner = u->ExpectedBucketOwner;
    if (u->has_RemoveExpectedBucketOwner && u->RemoveExpectedBucketOwner)
        w->expected_bucket_owner = NULL;
    if (u->EncryptionConfiguration != NULL)
        set_encryption(w, u->EncryptionConfiguration);
    if (u->has_RemoveEncryptionConfiguration && u->RemoveEncryptionConfiguration)
        w->encryption_option = w->kms_key = NULL;
}

static void apply_updates(floe_athena_workgroup_row_t *w, const floe_athena_WorkGroupConfigurationUpdates *u)
{
    if (u->ResultConfigurationUpdates != NULL)
        apply_result_updates(w, u->ResultConfigurationUpdates);
    if (u->has_EnforceWorkGroupConfiguration)
        w->enforce_configuration = u->EnforceWorkGroupConfiguration;
    if (u->has_PublishCloudWatchMetricsEnabled)
        w->publish_metrics = u->PublishCloudWatchMetricsEnabled;
    if (u->has_RequesterPaysEnabled)
        w->requester_pays = u->RequesterPaysEnabled;
    if (u->has_BytesScannedCutoffPerQuery) {
        w->has_bytes_scanned_cutoff = true;
        w->bytes_scanned_cutoff = u->BytesScannedCutoffPerQuery;
    }
    if (u->has_RemoveBytesScannedCutoffPerQuery && u->RemoveBytesScannedCutoffPerQuery)
        w->has_bytes_scanned_cutoff = false;
    if (u->EngineVersion != NULL && u->EngineVersion->SelectedEngineVersion != NULL)
        w->engine_version = u->EngineVersion->SelectedEngineVersion;
}

int floe_athena_handle_UpdateWorkGroup(floe_awsjson_call_t *call, const floe_athena_UpdateWorkGroupInput *in,
                                       floe_athena_UpdateWorkGroupOutput *out)
{
    floe_athena_workgroup_row_t w;
    (void)out;

    if (athena_workgroup_require(call, in->WorkGroup, &w))
        return FLOE_EFAIL;
    if (in->Description != NULL)
        w.description = in->Description;
    if (in->State != 0)
        w.state = (char *)state_text(in->State);
    if (in->ConfigurationUpdates != NULL)
        apply_updates(&w, in->ConfigurationUpdates);
    if (floe_athena_workgroup_update(&call->super, &w))
        return floe_athena_fail_internal(call, "updating an Athena workgroup");
    return FLOE_OK;
}

int floe_athena_handle_DeleteWorkGroup(floe_awsjson_call_t *call, const floe_athena_DeleteWorkGroupInput *in,
                                       floe_athena_DeleteWorkGroupOutput *out)
{
    floe_athena_workgroup_row_t w;
    bool was_there;
    (void)out;

    if (strcmp(in->WorkGroup, FLOE_ATHENA_PRIMARY_WORKGROUP) == 0)
        return floe_athena_fail(call, FLOE_ATHENA_ERR_InvalidRequestException, "The primary workgroup cannot be deleted.");
    if (athena_workgroup_require(call, in->WorkGroup, &w))
        return FLOE_EFAIL;
    if (floe_athena_workgroup_remove(&call->super, in->WorkGroup, &was_there))
        return floe_athena_fail_internal(call, "deleting an Athena workgroup");
    return FLOE_OK;
}

/*
 * The console's CloudFormation routes (api_routes.h): a scope's stacks, and one stack with its
 * resources, events and outputs, read through cloudformation/stack_store.h. Parameters are left
 * out: a NoEcho parameter's value must not be shown, and the API shows them masked anyway.
 */
#include "cloudformation/stack_store.h"
#include "console/api_routes.h"

static void write_optional(floe_json_t *json, const char *key, const char *value)
{
    floe_json_key(json, key);
    if (value != NULL)
        floe_json_string(json, value);
    else
        floe_json_raw(json, "null");
}

static void write_time(floe_json_t *json, const char *key, floe_timestamp_t at)
{
    floe_json_key(json, key);
    if (at != 0)
        floe_json_timestamp(json, at);
    else
        floe_json_raw(json, "null");
}

static void write_stack_row(floe_json_t *json, const floe_stack_row_t *s)
{
    floe_json_key(json, "stackName");
    floe_json_string(json, s->name);
    floe_json_key(json, "stackId");
    floe_json_string(json, s->stack_id);
    floe_json_key(json, "status");
    floe_json_string(json, s->status);
    write_optional(json, "statusReason", s->status_reason);
    write_optional(json, "description", s->description);
    write_time(json, "createdAt", s->created_at);
    write_time(json, "updatedAt", s->updated_at);
    write_time(json, "deletedAt", s->deleted_at);
}

int floe_console_stacks(floe_console_req_t *r)
{
    floe_stack_row_t *rows;
    size_t n;
    floe_json_t *json;

    if (floe_console_scope_from_params(r))
        return FLOE_EFAIL;
    if (floe_stack_store_list(&r->call, true, &rows, &n))
        return floe_console_fail_call(r);
    json = floe_console_json(r);
    floe_json_object_begin(json);
    floe_json_key(json, "items");
    floe_json_array_begin(json);
    for (size_t i = 0; i < n; i++) {
        floe_json_object_begin(json);
        write_stack_row(json, &rows[i]);
        floe_json_object_end(json);
    }
    floe_json_array_end(json);
    floe_json_object_end(json);
    return floe_console_send_json(r);
}

static void write_resources(floe_json_t *json, const floe_stack_resource_row_t *rows, size_t n)
{
    floe_json_key(json, "resources");
    floe_json_array_begin(json);
    for (size_t i = 0; i < n; i++) {
        floe_json_object_begin(json);
        floe_json_key(json, "logicalId");
        floe_json_string(json, rows[i].logical_id);
        floe_json_key(json, "type");
        floe_json_string(json, rows[i].type);
        write_optional(json, "physicalId", rows[i].physical_id);
        floe_json_key(json, "status");
        floe_json_string(json, rows[i].status);
        write_optional(json, "statusReason", rows[i].status_reason);
        write_time(json, "updatedAt", rows[i].updated_at);
        floe_json_object_end(json);
    }
    floe_json_array_end(json);
}

static void write_events(floe_json_t *json, const floe_stack_event_row_t *rows, size_t n)
{
    floe_json_key(json, "events");
    floe_json_array_begin(json);
    for (size_t i = 0; i < n; i++) {
        floe_json_object_begin(json);
        floe_json_key(json, "eventId");
        floe_json_string(json, rows[i].event_id);
        floe_json_key(json, "logicalId");
        floe_json_string(json, rows[i].logical_id);
        write_optional(json, "physicalId", rows[i].physical_id);
        floe_json_key(json, "resourceType");
        floe_json_string(json, rows[i].resource_type);
        floe_json_key(json, "status");
        floe_json_string(json, rows[i].status);
        write_optional(json, "statusReason", rows[i].status_reason);
        write_time(json, "at", rows[i].at);
        floe_json_object_end(json);
    }
    floe_json_array_end(json);
}

int floe_console_stack(floe_console_req_t *r)
{
    const char *id = floe_console_required(r, "id");
    floe_stack_row_t stack;
    floe_stack_resource_row_t *resources;
    floe_stack_event_row_t *events;
    size_t n_resources, n_events;
    bool found;
    floe_json_t *json;

    if (id == NULL || floe_console_scope_from_params(r))
        return FLOE_EFAIL;
    if (floe_stack_store_find(&r->call, id, &stack, &found))
        return floe_console_fail_call(r);
    if (!found)
        return floe_console_fail(r, 404, "Stack with id %.200s does not exist", id);
    if (floe_stack_store_resources(&r->call, stack.id, &resources, &n_resources) ||
        floe_stack_store_events(&r->call, stack.id, &events, &n_events))
        return floe_console_fail_call(r);
    json = floe_console_json(r);
    floe_json_object_begin(json);
    write_stack_row(json, &stack);
    floe_json_key(json, "outputs");
    floe_json_raw(json, stack.outputs); /* JSON text the stack engine wrote */
    floe_json_key(json, "tags");
    floe_json_raw(json, stack.tags);
    floe_json_key(json, "templateBody");
    floe_json_string(json, stack.template_body);
    write_resources(json, resources, n_resources);
    write_events(json, events, n_events);
    floe_json_object_end(json);
    return floe_console_send_json(r);
}

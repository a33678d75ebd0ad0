/*
 * CloudFormation's durable state: stacks, their resources and events, change sets, exports and
 * imports, and the queue of stack work (the cfn_* tables of migration 7, db/schema.c). All of
 * the stack engine's SQL is here, run through call/call_sql.h; stack.c (the API) and
 * stack_run_steps.c (the worker, through the background door) call these functions on the serving
 * thread only.
 *
 * State only: which transitions are allowed and what a client is told is stack.c's and
 * stack_run_steps.c's. Rows are read into the call's pool; every function fails the call with
 * a failure inside (FLOE_EFAIL) when SQLite fails and returns FLOE_OK or FLOE_EFAIL. Stacks,
 * change sets and exports are read in the call's account and region (floe_call_account/region);
 * a stack's row id is only ever taken from a row read that way.
 */
#ifndef FLOE_CLOUDFORMATION_STACK_STORE_H
#define FLOE_CLOUDFORMATION_STACK_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/scope.h"
#include "call/call.h"

/** A stack (cfn_stack). JSON columns are JSON text. */
typedef struct floe_stack_row {
    int64_t id;
    char *account_id, *region;
    char *stack_id; /* the ARN */
    char *name;
    char *status, *status_reason, *description;
    char *template_body, *parameters, *tags, *outputs;
    char *previous_template_body, *previous_parameters, *previous_tags, *previous_outputs, *previous_description;
    bool disable_rollback;
    char *on_failure;
    bool is_delete_requested;
    char *retain_resources; /* JSON array of logical ids, or NULL */
    char *change_set_id;
    floe_timestamp_t created_at, updated_at, deleted_at; /* 0: none */
} floe_stack_row_t;

/** A stack's resource (cfn_stack_resource). */
typedef struct floe_stack_resource_row {
    char *logical_id;
    int position;
    char *type, *physical_id, *status, *status_reason;
    char *properties, *attributes; /* JSON objects */
    char *deletion_policy, *update_replace_policy;
    floe_timestamp_t updated_at;
    char *update_action; /* NULL, "add", "modify", "replace", "remove" or "discard" (stack_run_steps.c) */
    char *old_type, *old_physical_id, *old_properties, *old_attributes;
} floe_stack_resource_row_t;

/** One stack event (cfn_stack_event). */
typedef struct floe_stack_event_row {
    char *event_id; /* set by floe_stack_store_add_event */
    char *logical_id, *physical_id, *resource_type, *status, *status_reason, *properties;
    floe_timestamp_t at;
} floe_stack_event_row_t;

/** A change set (cfn_change_set). */
typedef struct floe_change_set_row {
    int64_t id, stack_row_id;
    char *change_set_id; /* the ARN */
    char *name, *type, *status, *status_reason, *execution_status, *description;
    char *template_body, *parameters, *tags, *on_failure, *changes;
    floe_timestamp_t created_at;
} floe_change_set_row_t;

/** An export of the call's account and region. */
typedef struct floe_stack_export_row {
    char *name, *value, *stack_id; /* stack_id: the exporting stack's ARN */
} floe_stack_export_row_t;

/** A queued piece of stack work (cfn_work). */
typedef struct floe_stack_work {
    int64_t id, stack_row_id;
    int64_t change_set_row_id; /* 0: drive the stack to a stable state; else compute this change set */
    bool was_started;          /* taken before: the server stopped while it ran */
    floe_scope_t scope;        /* the stack's account and region */
    char *caller_arn;          /* the principal the operation acts for, in the call's pool; NULL: the stack's
                                  account's root (work queued without --enforce-iam) */
} floe_stack_work_t;

/* ---- stacks ---- */

/**
 * The stack that `name_or_id` names in the call's account and region: a stack ARN names any stack,
 * deleted ones too; a name names only a live one (not DELETE_COMPLETE). *found says whether one did.
 */
int floe_stack_store_find(floe_call_t *call, const char *name_or_id, floe_stack_row_t *out /* OUT */,
                          bool *found /* OUT */);

/** The stack of row id `id`, whatever the call's scope (the engine, which got the id from a work row). */
int floe_stack_store_get(floe_call_t *call, int64_t id, floe_stack_row_t *out /* OUT */);

/** Inserts `row` (its id is set); *is_taken when a live stack of the scope has the name. */
int floe_stack_store_insert(floe_call_t *call, floe_stack_row_t *row, bool *is_taken /* OUT */);

/** Writes every column of `row` but its identity (id, scope, ARN, name, created_at) and
 * is_delete_requested, which only floe_stack_store_request_delete writes (the engine's copy of a
 * stack must not undo a DeleteStack that arrived while it worked). */
int floe_stack_store_save(floe_call_t *call, const floe_stack_row_t *row);

/** Sets or clears the stack's is_delete_requested. */
int floe_stack_store_request_delete(floe_call_t *call, int64_t id, bool is_requested);

/** The stacks of the call's scope, newest first, deleted ones too when `with_deleted`. */
int floe_stack_store_list(floe_call_t *call, bool with_deleted, floe_stack_row_t **rows /* OUT */, size_t *n /* OUT */);

/** The accounts and regions that hold a stack (deleted ones too), sorted; only `account_id`'s
 * when it is not NULL. For the console's account and region picker. */
int floe_stack_store_scopes(floe_call_t *call, const char *account_id, floe_scope_t **scopes /* OUT */,
                            size_t *n /* OUT */);

/* ---- events ---- */

/** Appends event `e` to the stack of row id `stack_row_id` with a fresh event id, at the call's
 * clock when e->at is 0, and in any case at least 1 ms after the stack's previous event. */
int floe_stack_store_add_event(floe_call_t *call, int64_t stack_row_id, floe_stack_event_row_t *e);

/** The stack's events, newest first. */
int floe_stack_store_events(floe_call_t *call, int64_t stack_row_id, floe_stack_event_row_t **rows /* OUT */,
                            size_t *n /* OUT */);

/* ---- resources ---- */

/** The stack's resources by position. */
int floe_stack_store_resources(floe_call_t *call, int64_t stack_row_id, floe_stack_resource_row_t **rows /* OUT */,
                               size_t *n /* OUT */);

/** Inserts or replaces the stack's resource row->logical_id (updated_at: the call's clock). */
int floe_stack_store_put_resource(floe_call_t *call, int64_t stack_row_id, const floe_stack_resource_row_t *row);

/** Removes the stack's resource `logical_id`. */
int floe_stack_store_delete_resource(floe_call_t *call, int64_t stack_row_id, const char *logical_id);

/** The live stack of the call's scope that has a resource with physical id `physical_id` (or whose
 * replaced resource still has it); *found false when none does. */
int floe_stack_store_find_by_physical_id(floe_call_t *call, const char *physical_id, floe_stack_row_t *out /* OUT */,
                                         bool *found /* OUT */);

/* ---- change sets ---- */

/** Inserts `row` (its id is set); *is_taken when the stack has a change set of that name. */
int floe_stack_store_change_set_insert(floe_call_t *call, floe_change_set_row_t *row, bool *is_taken /* OUT */);

/** The change set `name_or_id` names: an ARN of the call's scope, or a name of the stack of row id
 * `stack_row_id` (0: only an ARN will do). *found says whether one did. */
int floe_stack_store_change_set_find(floe_call_t *call, int64_t stack_row_id, const char *name_or_id,
                                     floe_change_set_row_t *out /* OUT */, bool *found /* OUT */);

/** The change set of row id `id`; *found false when it was deleted meanwhile. */
int floe_stack_store_change_set_get(floe_call_t *call, int64_t id, floe_change_set_row_t *out /* OUT */,
                                    bool *found /* OUT */);

/** Writes status, status_reason, execution_status and changes of `row`. */
int floe_stack_store_change_set_save(floe_call_t *call, const floe_change_set_row_t *row);

/** Deletes the change set of row id `id`. */
int floe_stack_store_change_set_delete(floe_call_t *call, int64_t id);

/** Deletes every change set of the stack but the one of row id `keep_id` (0: all). */
int floe_stack_store_change_set_delete_others(floe_call_t *call, int64_t stack_row_id, int64_t keep_id);

/** The stack's change sets, oldest first. */
int floe_stack_store_change_sets(floe_call_t *call, int64_t stack_row_id, floe_change_set_row_t **rows /* OUT */,
                                 size_t *n /* OUT */);

/** Sets the execution status of change set `change_set_arn` to `status` if it is still
 * EXECUTE_IN_PROGRESS (the end of the operation that executes it). */
int floe_stack_store_change_set_finish(floe_call_t *call, const char *change_set_arn, const char *status);

/* ---- exports and imports ---- */

/**
 * Exports `name` = `value` from the stack of row id `stack_row_id`, replacing its own export of
 * that name. When another stack of the scope exports the name, nothing is written and *owner is
 * that stack's name (in the pool); else *owner is NULL.
 */
int floe_stack_store_export_put(floe_call_t *call, int64_t stack_row_id, const char *name, const char *value,
                                char **owner /* OUT */);

/** Removes the stack's exports that are not in names[0..n) (n 0: all of them). */
int floe_stack_store_exports_keep(floe_call_t *call, int64_t stack_row_id, char *const *names, size_t n);

/** The exports of the call's scope, by name. */
int floe_stack_store_exports(floe_call_t *call, floe_stack_export_row_t **rows /* OUT */, size_t *n /* OUT */);

/** The names of the live stacks other than `stack_row_id` that import `export_name`. */
int floe_stack_store_importers(floe_call_t *call, int64_t stack_row_id, const char *export_name,
                               char ***names /* OUT */, size_t *n /* OUT */);

/** Makes names[0..n) the exports the stack imports. */
int floe_stack_store_imports_set(floe_call_t *call, int64_t stack_row_id, char *const *names, size_t n);

/* ---- the work queue ---- */

/** Queues work for the stack of row id `stack_row_id` (change_set_row_id 0: drive the stack), acting
 * for the principal `caller_arn` (NULL: none recorded). */
int floe_stack_store_work_enqueue(floe_call_t *call, int64_t stack_row_id, int64_t change_set_row_id,
                                  const char *caller_arn);

/** Takes the oldest queued work, marking it started; *found false when the queue is empty. */
int floe_stack_store_work_claim(floe_call_t *call, floe_stack_work_t *out /* OUT */, bool *found /* OUT */);

/** Removes work `id` from the queue. */
int floe_stack_store_work_finish(floe_call_t *call, int64_t id);

/** *is_queued: whether any work for the stack of row id `stack_row_id` is queued or running. */
int floe_stack_store_work_is_queued(floe_call_t *call, int64_t stack_row_id, bool *is_queued /* OUT */);

#endif

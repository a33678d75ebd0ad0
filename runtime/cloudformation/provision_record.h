/*
 * How a provisioned change reports to the stack engine: the resource's outcome and the record
 * function the engine passes in. Below both the provisioning API (provision.h) and what its files
 * share (provision_props.h), which both name them.
 */
#ifndef FLOE_CLOUDFORMATION_PROVISION_RECORD_H
#define FLOE_CLOUDFORMATION_PROVISION_RECORD_H

#include <cjson/cJSON.h>

#include "call/call.h"

/** What a resource is after a change: handed to the engine's record function. */
typedef struct floe_provision_outcome {
    const char *physical_id;  /* in the call's pool */
    const cJSON *attributes;  /* an object, valid during the record call */
} floe_provision_outcome_t;

/**
 * Records the outcome in the stack's state. Called inside the transaction that makes the change,
 * so the change and its record commit together, except after deleting a table, which the catalog
 * commits on its own (the record follows in a transaction of its own; a crash between leaves a
 * record that the engine's next delete of the same ARN finds already done). Returns FLOE_OK or
 * FLOE_EFAIL with the call failed (the change is then rolled back where it can be).
 */
typedef int (*floe_provision_record_fn)(floe_call_t *call, const floe_provision_outcome_t *outcome, void *arg);

#endif

/*
 * What the provisioning files (provision.c, provision_bucket.c, provision_table.c, provision_iam.c) share: reading
 * a resolved property of the expected JSON type, turning CloudFormation shapes into the S3 Tables
 * catalog's (tags), checking a value against the S3 Tables model as the API checks a request,
 * and the record call at the end of every change. Private to those files.
 */
#ifndef FLOE_CLOUDFORMATION_PROVISION_PROPS_H
#define FLOE_CLOUDFORMATION_PROVISION_PROPS_H

#include <stdbool.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "call/call.h"
#include "catalog/lookup.h"
#include "cloudformation/provision_record.h"
#include "floe_api.h"

/** Where a change reports to: the engine's record function and its argument. */
typedef struct floe_provision_sink {
    floe_provision_record_fn record;
    void *arg;
} floe_provision_sink_t;

/**
 * Property `name` of `props` as a string: FLOE_OK with *out (NULL when absent and not
 * `is_required`), or FLOE_EINVAL when it is missing but required or not a string.
 */
int floe_provision_string(floe_call_t *call, const cJSON *props, const char *name, bool is_required,
                          const char **out /* OUT */);

/** Property `name` as an object: *out NULL when absent; FLOE_EINVAL when not an object. */
int floe_provision_object(floe_call_t *call, const cJSON *props, const char *name, const cJSON **out /* OUT */);

/** Property `name` as an integer: *has false when absent; FLOE_EINVAL when not an integer. */
int floe_provision_int(floe_call_t *call, const cJSON *props, const char *name, bool *has /* OUT */,
                       int32_t *out /* OUT */);

/** Whether property `name` differs between two property objects (absent on either side counts). */
bool floe_provision_changed(const cJSON *old_props, const cJSON *new_props, const char *name);

/** A "Status" of "Enabled"/"Disabled" (any letter case) as MaintenanceStatus; FLOE_EINVAL
 * for another value. An absent Status is enabled, AWS's default. */
int floe_provision_status(floe_call_t *call, const cJSON *config, const char *config_name,
                          floe_MaintenanceStatus *out /* OUT */);

/** The StorageClassConfiguration property's StorageClass; *out 0 when absent. FLOE_EINVAL
 * for a storage class the model does not know. */
int floe_provision_storage_class(floe_call_t *call, const cJSON *props, floe_StorageClass *out /* OUT */);

/**
 * The Tags property (a list of {Key, Value}) as the catalog's floe_Tags, in the call's pool;
 * *out has n 0 when the property is absent. Keys and values are checked as TagResource checks
 * them (the model's TagKey and TagValue).
 */
int floe_provision_tags(floe_call_t *call, const cJSON *props, floe_Tags **out /* OUT */);

/** Gives `owner` the Tags of `new_props` in place of those of `old_props` (NULL: none before),
 * under AWS's tagging rules. */
int floe_provision_retag(floe_call_t *call, const floe_resource_t *owner, const cJSON *old_props,
                         const cJSON *new_props);

/** Checks `name` as CreateNamespace checks a namespace name. */
int floe_provision_check_namespace_name(floe_call_t *call, const char *name);

/** Checks `name` as CreateTable checks a table name. */
int floe_provision_check_table_name(floe_call_t *call, const char *name);

/** Checks a resource policy document as PutTableBucketPolicy and PutTablePolicy check it. */
int floe_provision_check_policy(floe_call_t *call, const char *document);

/** Calls the sink's record function with `physical_id` (copied into the pool) and `attributes`
 * (deleted after the call; NULL: none). */
int floe_provision_report(floe_call_t *call, const floe_provision_sink_t *sink, const char *physical_id,
                          cJSON *attributes);

/** Clears a miss (FLOE_ENOTFOUND) the call recorded, for a delete that finds its resource gone. */
void floe_provision_forget_not_found(floe_call_t *call);

/* ---- the types, one file each ---- */

int floe_provision_bucket_create(floe_call_t *call, const cJSON *props, const floe_provision_sink_t *sink);
int floe_provision_bucket_update(floe_call_t *call, const char *physical_id, const cJSON *old_props,
                                 const cJSON *new_props, const floe_provision_sink_t *sink);
int floe_provision_bucket_delete(floe_call_t *call, const char *physical_id, const floe_provision_sink_t *sink);

int floe_provision_namespace_create(floe_call_t *call, const cJSON *props, const floe_provision_sink_t *sink);
int floe_provision_namespace_delete(floe_call_t *call, const char *physical_id, const floe_provision_sink_t *sink);

int floe_provision_table_create(floe_call_t *call, const cJSON *props, const floe_provision_sink_t *sink);
int floe_provision_table_update(floe_call_t *call, const char *physical_id, const cJSON *old_props,
                                const cJSON *new_props, const floe_provision_sink_t *sink);
int floe_provision_table_delete(floe_call_t *call, const char *physical_id, const floe_provision_sink_t *sink);

typedef enum floe_provision_iam_op {
    FLOE_PROVISION_IAM_CREATE,
    FLOE_PROVISION_IAM_UPDATE,
    FLOE_PROVISION_IAM_DELETE,
} floe_provision_iam_op_t;

/** Creates (from `new_props`), updates (`old_props` to `new_props`) or deletes (created with
 * `old_props`) the AWS::IAM resource `physical_id` of `type` (provision_iam.c). */
int floe_provision_iam(floe_call_t *call, floe_provision_iam_op_t op, const char *type, const char *physical_id,
                       const cJSON *old_props, const cJSON *new_props, const floe_provision_sink_t *sink);

#endif

/*
 * The resource types a stack can hold, made real: AWS::S3Tables::TableBucket, Namespace, Table,
 * TableBucketPolicy and TablePolicy, by calling the S3 Tables catalog directly (runtime/catalog/) under
 * the same rules as the S3 Tables API (catalog/rules.h and the model's constraints), and
 * AWS::CDK::Metadata, which is accepted and does nothing. Called by the stack engine on the
 * serving thread, inside a background step (background.h), in the stack's account and region.
 *
 * Physical ids and attributes are AWS's (models/cloudformation/s3tables-resource-types.json):
 *   TableBucket        the bucket ARN; TableBucketARN
 *   Namespace          "<table bucket ARN>|<namespace>", its primaryIdentifier joined as
 *                      CloudFormation joins a composite identifier; no attributes
 *   Table              the table ARN (kept by a rename); TableARN, WarehouseLocation, VersionToken
 *   TableBucketPolicy  the bucket ARN; no attributes
 *   TablePolicy        the table ARN; TableARN, TableBucketARN, Namespace, TableName
 *
 * Failures fail the call as the S3 Tables API would (its error and message), so the engine can
 * put both in the resource's ResourceStatusReason. Properties arrive resolved and checked against
 * the resource type by the template library; what the API checks beyond that is checked here.
 */
#ifndef FLOE_CLOUDFORMATION_PROVISION_H
#define FLOE_CLOUDFORMATION_PROVISION_H

#include <stdbool.h>

#include <cjson/cJSON.h>

#include "call/call.h"
#include "cloudformation/provision_record.h"

/** True when `type` is a resource type Floe can provision. */
bool floe_provision_type_is_known(const char *type);

/** True when resources of `type` take tags, in their Tags property (and so the stack's tags). */
bool floe_provision_takes_tags(const char *type);

/** True when changing `property` of a resource of `type` replaces the resource (the model's
 * causesReplacement); unknown properties and types count as replacing. */
bool floe_provision_causes_replacement(const char *type, const char *property);

/** True when member `name` differs between two property objects (absent on one side counts). */
bool floe_provision_member_differs(const cJSON *old_props, const cJSON *new_props, const char *name);

/**
 * True when a replacement with `new_props` would need the name the resource has under `old_props`
 * (the properties that name it, such as a table's bucket, namespace and name, are unchanged): the
 * new resource could not be created beside the old one, and AWS refuses the update.
 */
bool floe_provision_keeps_name(const char *type, const cJSON *old_props, const cJSON *new_props);

/** The name a resource of `type` has under `props` (its TableBucketName, Namespace or TableName),
 * borrowed from props; NULL for a type without one. */
const char *floe_provision_name(const char *type, const cJSON *props);

/** Creates a resource of `type` from `props` and calls `record` with its physical id. */
int floe_provision_create(floe_call_t *call, const char *type, const cJSON *props, floe_provision_record_fn record,
                          void *arg);

/**
 * Changes the resource `physical_id` of `type` in place from `old_props` to `new_props` (which
 * differ only in properties that do not cause replacement) and calls `record`.
 */
int floe_provision_update(floe_call_t *call, const char *type, const char *physical_id, const cJSON *old_props,
                          const cJSON *new_props, floe_provision_record_fn record, void *arg);

/**
 * Deletes the resource `physical_id` of `type` (created with `props`) and calls `record`. A
 * resource that is already gone counts as deleted, as CloudFormation counts it.
 */
int floe_provision_delete(floe_call_t *call, const char *type, const char *physical_id, const cJSON *props,
                          floe_provision_record_fn record, void *arg);

#endif

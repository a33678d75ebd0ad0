/*
 * AWS's rules for S3 Tables resources that hold however a resource is made or changed: through
 * the S3 Tables API (handlers/) and through a CloudFormation stack (cloudformation/provision.c).
 * Each rule is written once here with AWS's message, and so is the setting AWS gives a resource
 * that was made without one (a table's encryption and storage class, taken from its bucket).
 *
 * Not for the model's own constraints (lengths, patterns, enums), which the generated validators
 * check, nor for storage, which the rest of the catalog does. Functions that write fail the call
 * with FLOE_EINVAL when a rule refuses, and with a failure inside (FLOE_EFAIL) when SQLite
 * fails; they return FLOE_OK or FLOE_EFAIL.
 */
#ifndef FLOE_CATALOG_RULES_H
#define FLOE_CATALOG_RULES_H

#include <stdbool.h>
#include <stdint.h>

#include "call/call.h"
#include "catalog/lookup.h"

/* AWS's messages (as mirrored by moto). */
#define FLOE_RULES_MESSAGE_NAMESPACE_NAME "The specified namespace name is not valid."
#define FLOE_RULES_MESSAGE_TABLE_NAME "The specified table name is not valid."

/* TagResource: "You can add up to 50 tags for each S3 resource." */
#define FLOE_RULES_MAX_TAGS_PER_RESOURCE 50

/* AWS's defaults for unreferenced file removal, which is enabled on every new bucket
 * (https://docs.aws.amazon.com/AmazonS3/latest/userguide/s3-table-buckets-maintenance.html). */
#define FLOE_RULES_DEFAULT_UNREFERENCED_DAYS 3
#define FLOE_RULES_DEFAULT_NON_CURRENT_DAYS 10

/* AWS: the compaction target file size is "a custom value you specify between 64MB to 512MB"
 * (https://docs.aws.amazon.com/AmazonS3/latest/userguide/s3-tables-maintenance.html). */
#define FLOE_RULES_MIN_TARGET_FILE_SIZE_MB 64
#define FLOE_RULES_MAX_TARGET_FILE_SIZE_MB 512

/**
 * AWS's namespace name rule beyond the model's length and characters: a name begins and ends with
 * a letter or a number and does not start with the reserved prefix aws
 * (https://docs.aws.amazon.com/AmazonS3/latest/userguide/s3-tables-buckets-naming.html).
 */
bool floe_rules_namespace_name_is_allowed(const char *name);

/** AWS's table name rule beyond the model's: a name begins and ends with a letter or a number. */
bool floe_rules_table_name_is_allowed(const char *name);

/**
 * What breaks AWS's rule for every EncryptionConfiguration, a bucket's or a table's: kmsKeyArn "is
 * required only when sseAlgorithm is set to aws:kms", read both ways (aws:kms needs a key, AES256
 * takes none). A sentence for FLOE_EINVAL, or NULL when `config` keeps the rule.
 */
const char *floe_rules_encryption_violation(const floe_EncryptionConfiguration *config);

/**
 * Checks `config` against floe_rules_encryption_violation (FLOE_EINVAL) and makes it the
 * encryption configuration of `owner`, a table bucket or a table.
 */
int floe_rules_encryption_write(floe_call_t *call, const floe_resource_t *owner,
                                const floe_EncryptionConfiguration *config);

/** The encryption in effect for the bucket of row id `bucket_id`: the one set, or AES256 (AWS's
 * default for a new bucket). *out lives in the call's pool. */
int floe_rules_bucket_encryption(floe_call_t *call, int64_t bucket_id, floe_EncryptionConfiguration **out /* OUT */);

/** The storage class in effect for the bucket of row id `bucket_id`: the one set, or STANDARD. */
int floe_rules_bucket_storage_class(floe_call_t *call, int64_t bucket_id, floe_StorageClass *out /* OUT */);

/**
 * Gives the new table of row id `table_id` its encryption configuration: `given` if not NULL
 * (checked as floe_rules_encryption_write checks it), else a copy of what is in effect for its
 * bucket `bucket_id` now. Run it inside the transaction that inserts the table.
 */
int floe_rules_table_encryption_create(floe_call_t *call, int64_t table_id, int64_t bucket_id,
                                       const floe_EncryptionConfiguration *given);

/** Gives the new table of row id `table_id` its storage class: `given` if not 0, else the one in
 * effect for its bucket `bucket_id` now. Run it inside the transaction that inserts the table. */
int floe_rules_table_storage_class_create(floe_call_t *call, int64_t table_id, int64_t bucket_id,
                                          floe_StorageClass given);

/**
 * Adds `tags` to `resource`, replacing the value of a key it already has, under AWS's tagging
 * rules (https://docs.aws.amazon.com/AmazonS3/latest/API/API_s3Buckets_TagResource.html): keys
 * starting aws: (in any case) are reserved, refused before anything is written; a resource carries
 * at most 50 tags, checked after the writes. Run it inside the caller's transaction and roll back
 * when it fails.
 */
int floe_rules_tags_add(floe_call_t *call, const floe_resource_t *resource, const floe_Tags *tags);

/** True when `key` is reserved for AWS's own tags (the aws: prefix, in any letter case). */
bool floe_rules_tag_key_is_reserved(const char *key);

/** Fails the call with FLOE_EINVAL and AWS's message for a reserved tag key. */
int floe_rules_refuse_reserved_tag_key(floe_call_t *call);

#endif

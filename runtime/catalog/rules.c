/*
 * The rules of rules.h, moved here from the handlers that first applied them (namespace.c,
 * table.c, table_bucket_encryption.c, table_encryption.c, table_storage_class.c, tags.c) so that
 * CloudFormation applies the very same ones.
 */
#include <string.h>
#include <strings.h>

#include "catalog/rules.h"
#include "catalog/settings.h"
#include "catalog/tags.h"

#define RESERVED_TAG_PREFIX "aws:"
#define RESERVED_NAMESPACE_PREFIX "aws"

static bool is_letter_or_digit(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

static bool begins_and_ends_with_letter_or_digit(const char *name)
{
    size_t n = strlen(name);
    return n > 0 && is_letter_or_digit(name[0]) && is_letter_or_digit(name[n - 1]);
}

bool floe_rules_namespace_name_is_allowed(const char *name)
{
    return begins_and_ends_with_letter_or_digit(name) &&
           strncmp(name, RESERVED_NAMESPACE_PREFIX, sizeof(RESERVED_NAMESPACE_PREFIX) - 1) != 0;
}

bool floe_rules_table_name_is_allowed(const char *name)
{
    return begins_and_ends_with_letter_or_digit(name);
}

/* ---- encryption ---- */

const char *floe_rules_encryption_violation(const floe_EncryptionConfiguration *config)
{
    bool is_kms = config->sseAlgorithm == FLOE_SSEAlgorithm_AWS_KMS;

    if (is_kms && config->kmsKeyArn == NULL)
        return "A KMS key ARN is required when sseAlgorithm is aws:kms.";
    if (!is_kms && config->kmsKeyArn != NULL)
        return "A KMS key ARN can be given only when sseAlgorithm is aws:kms.";
    return NULL;
}

int floe_rules_encryption_write(floe_call_t *call, const floe_resource_t *owner,
                                const floe_EncryptionConfiguration *config)
{
    const char *violation = floe_rules_encryption_violation(config);

    if (violation != NULL)
        return floe_fail(call, FLOE_EINVAL, FLOE_SUBJECT_REQUEST, "%s", violation);
    return floe_settings_encryption_put(call, owner, config);
}

int floe_rules_bucket_encryption(floe_call_t *call, int64_t bucket_id, floe_EncryptionConfiguration **out)
{
    floe_resource_t bucket = {FLOE_RESOURCE_TABLE_BUCKET, bucket_id};
    floe_EncryptionConfiguration *config;

    if (floe_settings_encryption_get(call, &bucket, &config))
        return FLOE_EFAIL;
    if (config == NULL) {
        config = floe_EncryptionConfiguration_new(call);
        config->sseAlgorithm = FLOE_SSEAlgorithm_AES256;
    }
    *out = config;
    return FLOE_OK;
}

int floe_rules_table_encryption_create(floe_call_t *call, int64_t table_id, int64_t bucket_id,
                                       const floe_EncryptionConfiguration *given)
{
    floe_resource_t table = {FLOE_RESOURCE_TABLE, table_id};
    floe_EncryptionConfiguration *inherited;

    if (given != NULL)
        return floe_rules_encryption_write(call, &table, given);
    /* The bucket's configuration passed the same rule when it was written. */
    if (floe_rules_bucket_encryption(call, bucket_id, &inherited))
        return FLOE_EFAIL;
    return floe_settings_table_encryption_inherit(call, table_id, inherited);
}

/* ---- storage class ---- */

int floe_rules_bucket_storage_class(floe_call_t *call, int64_t bucket_id, floe_StorageClass *out)
{
    floe_resource_t bucket = {FLOE_RESOURCE_TABLE_BUCKET, bucket_id};
    floe_StorageClass stored;

    if (floe_settings_storage_class_get(call, &bucket, &stored))
        return FLOE_EFAIL;
    /* "If not specified, the service default storage class will be used." */
    *out = stored != 0 ? stored : FLOE_StorageClass_STANDARD;
    return FLOE_OK;
}

int floe_rules_table_storage_class_create(floe_call_t *call, int64_t table_id, int64_t bucket_id,
                                          floe_StorageClass given)
{
    floe_resource_t table = {FLOE_RESOURCE_TABLE, table_id};
    floe_StorageClass inherited;

    if (given != 0)
        return floe_settings_storage_class_put(call, &table, given);
    if (floe_rules_bucket_storage_class(call, bucket_id, &inherited))
        return FLOE_EFAIL;
    return floe_settings_table_storage_class_inherit(call, table_id, inherited);
}

/* ---- tags ---- */

/* AWS reserves the aws: prefix for its own tags, in any letter case
 * (https://docs.aws.amazon.com/tag-editor/latest/userguide/best-practices-and-strats.html). */
bool floe_rules_tag_key_is_reserved(const char *key)
{
    return strncasecmp(key, RESERVED_TAG_PREFIX, sizeof(RESERVED_TAG_PREFIX) - 1) == 0;
}

/* The message is the one S3's sibling service S3 Vectors answers (seen through CloudFormation). */
int floe_rules_refuse_reserved_tag_key(floe_call_t *call)
{
    return floe_fail(call, FLOE_EINVAL, FLOE_SUBJECT_REQUEST,
                     "aws: prefixed tag key names are not allowed for external use.");
}

/* Fails the call unless the resource carries at most FLOE_RULES_MAX_TAGS_PER_RESOURCE tags. */
static int check_tag_count(floe_call_t *call, const floe_resource_t *resource)
{
    int64_t n;

    if (floe_tags_count(call, resource, &n))
        return FLOE_EFAIL;
    if (n > FLOE_RULES_MAX_TAGS_PER_RESOURCE)
        return floe_fail(call, FLOE_EINVAL, FLOE_SUBJECT_REQUEST, "A resource can have at most %d tags.",
                         FLOE_RULES_MAX_TAGS_PER_RESOURCE);
    return FLOE_OK;
}

int floe_rules_tags_add(floe_call_t *call, const floe_resource_t *resource, const floe_Tags *tags)
{
    for (size_t i = 0; i < tags->n; i++) {
        if (floe_rules_tag_key_is_reserved(tags->keys[i]))
            return floe_rules_refuse_reserved_tag_key(call);
    }
    if (floe_tags_upsert(call, resource, tags))
        return FLOE_EFAIL;
    return check_tag_count(call, resource);
}

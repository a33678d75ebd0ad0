/*
 * The configurations of resource.h. (Replication status, per destination, is
 * replication_status.c's.)
 */
#include <stdbool.h>

#include "catalog/rules.h"
#include "catalog/settings.h"
#include "catalog/tags.h"
#include "console/resource.h"

#define MAX_TAGS 1000 /* AWS allows 50 per resource; more only if the store holds more */

/*
 * The encryption the API reports for `owner` (GetTableBucketEncryption, GetTableEncryption): the
 * one stored for it; for a table without one, its bucket's; and without either, AES256, AWS's
 * default for a new bucket (catalog/rules.h). "isDefault" says when it is a default, so the page
 * never shows "none" where the API answers a value: a bucket's that nobody set, or a table's that
 * it took from its bucket when it was created (`is_inherited`; CreateTable named none).
 */
static int write_encryption(floe_call_t *call, floe_json_t *json, const floe_resource_t *owner, int64_t bucket_id,
                            bool is_inherited)
{
    floe_resource_t bucket = {FLOE_RESOURCE_TABLE_BUCKET, bucket_id};
    floe_EncryptionConfiguration *enc;
    bool is_default = is_inherited;

    if (floe_settings_encryption_get(call, owner, &enc))
        return FLOE_EFAIL;
    if (enc == NULL && owner->kind == FLOE_RESOURCE_TABLE && floe_settings_encryption_get(call, &bucket, &enc))
        return FLOE_EFAIL;
    if (enc == NULL) {
        is_default = true;
        if (floe_rules_bucket_encryption(call, bucket_id, &enc))
            return FLOE_EFAIL;
    }
    floe_json_key(json, "encryption");
    floe_json_object_begin(json);
    floe_json_key(json, "sseAlgorithm");
    floe_json_string(json, floe_SSEAlgorithm_values[enc->sseAlgorithm]);
    if (enc->kmsKeyArn != NULL) {
        floe_json_key(json, "kmsKeyArn");
        floe_json_string(json, enc->kmsKeyArn);
    }
    floe_json_key(json, "isDefault");
    floe_json_bool(json, is_default);
    floe_json_object_end(json);
    return FLOE_OK;
}

/* The storage class the API reports (GetTableBucketStorageClass, GetTableStorageClass), found and
 * marked as the encryption is: stored, the bucket's, else STANDARD, the service default. */
static int write_storage_class(floe_call_t *call, floe_json_t *json, const floe_resource_t *owner, int64_t bucket_id,
                               bool is_inherited)
{
    floe_resource_t bucket = {FLOE_RESOURCE_TABLE_BUCKET, bucket_id};
    floe_StorageClass sc;
    bool is_default = is_inherited;

    if (floe_settings_storage_class_get(call, owner, &sc))
        return FLOE_EFAIL;
    if (sc == 0 && owner->kind == FLOE_RESOURCE_TABLE && floe_settings_storage_class_get(call, &bucket, &sc))
        return FLOE_EFAIL;
    if (sc == 0) {
        is_default = true;
        if (floe_rules_bucket_storage_class(call, bucket_id, &sc))
            return FLOE_EFAIL;
    }
    floe_json_key(json, "storageClass");
    floe_json_object_begin(json);
    floe_json_key(json, "storageClass");
    floe_json_string(json, floe_StorageClass_values[sc]);
    floe_json_key(json, "isDefault");
    floe_json_bool(json, is_default);
    floe_json_object_end(json);
    return FLOE_OK;
}

/* A policy as the text it was stored as, under `key`: the browser pretty-prints it and lists
 * whom its statements name. */
static int write_policy_as(floe_call_t *call, floe_json_t *json, const floe_resource_t *owner, const char *key)
{
    char *doc;

    if (floe_settings_policy_get(call, owner, &doc))
        return FLOE_EFAIL;
    floe_json_key(json, key);
    if (doc == NULL)
        floe_json_raw(json, "null");
    else
        floe_json_string(json, doc);
    return FLOE_OK;
}

/* The owner's policy; a table's page also gets its bucket's, which applies to the table too. */
static int write_policy(floe_call_t *call, floe_json_t *json, const floe_resource_t *owner, int64_t bucket_id)
{
    floe_resource_t bucket = {FLOE_RESOURCE_TABLE_BUCKET, bucket_id};

    if (write_policy_as(call, json, owner, "policy"))
        return FLOE_EFAIL;
    return owner->kind == FLOE_RESOURCE_TABLE ? write_policy_as(call, json, &bucket, "bucketPolicy") : FLOE_OK;
}

static int write_replication(floe_call_t *call, floe_json_t *json, floe_replication_owner_t kind, int64_t id)
{
    floe_replication_row_t row;
    floe_replication_rule_t *rules;
    size_t n_rules;

    if (floe_replication_read(call, kind, id, &row) || floe_replication_read_rules(call, kind, id, &rules, &n_rules))
        return FLOE_EFAIL;
    floe_json_key(json, "replication");
    if (!row.is_configured) {
        floe_json_raw(json, "null");
        return FLOE_OK;
    }
    floe_json_object_begin(json);
    floe_json_key(json, "role");
    floe_json_string(json, row.role);
    floe_json_key(json, "versionToken");
    floe_json_string(json, row.version_token);
    floe_json_key(json, "destinations");
    floe_json_array_begin(json);
    for (size_t r = 0; r < n_rules; r++) {
        for (size_t i = 0; i < rules[r].n_destinations; i++) {
            floe_json_object_begin(json);
            floe_json_key(json, "rule");
            floe_json_int(json, (int64_t)r);
            floe_json_key(json, "destinationTableBucketArn");
            floe_json_string(json, rules[r].destination_arns[i]);
            floe_json_object_end(json);
        }
    }
    floe_json_array_end(json);
    floe_json_object_end(json);
    return FLOE_OK;
}

static int write_tags(floe_call_t *call, floe_json_t *json, const floe_resource_t *owner)
{
    floe_Tags *tags;

    if (floe_tags_list(call, owner, MAX_TAGS, &tags))
        return FLOE_EFAIL;
    floe_json_key(json, "tags");
    floe_json_object_begin(json);
    for (size_t i = 0; tags != NULL && i < tags->n; i++) {
        floe_json_key(json, tags->keys[i]);
        floe_json_string(json, tags->values[i]);
    }
    floe_json_object_end(json);
    return FLOE_OK;
}

int floe_console_write_owned(floe_call_t *call, floe_json_t *json, const floe_resource_t *owner, int64_t bucket_id,
                             floe_replication_owner_t replication)
{
    bool encryption_inherited = false, storage_class_inherited = false;

    if (owner->kind == FLOE_RESOURCE_TABLE &&
        floe_settings_table_inherits(call, owner->id, &encryption_inherited, &storage_class_inherited))
        return FLOE_EFAIL;
    if (write_encryption(call, json, owner, bucket_id, encryption_inherited) ||
        write_storage_class(call, json, owner, bucket_id, storage_class_inherited) || write_policy(call, json, owner, bucket_id) ||
        write_replication(call, json, replication, owner->id) || write_tags(call, json, owner))
        return FLOE_EFAIL;
    return FLOE_OK;
}

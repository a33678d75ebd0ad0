/*
 * The configurations a table bucket or a table owns, read and written by name: encryption,
 * storage class and resource policy (for either kind of owner), and a bucket's metrics and
 * maintenance configuration. One row per owner (per maintenance type for maintenance), which
 * cascades with its owner.
 *
 * The catalog only stores: a read reports "none" when nothing is stored, and the handlers decide
 * what that means (AWS's default, or FLOE_ENOTFOUND) and which rules a value must pass before
 * it is written. Every function fails the call with a failure inside (FLOE_EFAIL) when SQLite
 * fails, and returns FLOE_OK or FLOE_EFAIL.
 *
 * An owner is a floe_resource_t (catalog/lookup.h): a table bucket's row id, or a table's row id
 * (s3table.id, not its UUID).
 */
#ifndef FLOE_CATALOG_SETTINGS_H
#define FLOE_CATALOG_SETTINGS_H

#include <stdbool.h>
#include <stdint.h>

#include "call/call.h"
#include "catalog/lookup.h"

/* ---- encryption: a table bucket's default, a table's own ---- */

/** The encryption configuration stored for `owner`, in the call's pool; *out is NULL when none is. */
int floe_settings_encryption_get(floe_call_t *call, const floe_resource_t *owner,
                                 floe_EncryptionConfiguration **out /* OUT */);

/** Makes `config` (already checked by the caller) `owner`'s encryption configuration. */
int floe_settings_encryption_put(floe_call_t *call, const floe_resource_t *owner,
                                 const floe_EncryptionConfiguration *config);

/** Gives the new table `table_id` `config`, the one it takes from its bucket (CreateTable named
 * none), marked as taken (floe_settings_table_inherits). */
int floe_settings_table_encryption_inherit(floe_call_t *call, int64_t table_id,
                                           const floe_EncryptionConfiguration *config);

/** Removes the bucket's encryption configuration; a bucket without one is left as it is. */
int floe_settings_bucket_encryption_delete(floe_call_t *call, int64_t bucket_id);

/* ---- storage class: a table bucket's default, a table's own ---- */

/** The storage class stored for `owner`; *out is 0 (no StorageClass) when none is. */
int floe_settings_storage_class_get(floe_call_t *call, const floe_resource_t *owner,
                                    floe_StorageClass *out /* OUT */);

/** Makes `storage_class` `owner`'s storage class. */
int floe_settings_storage_class_put(floe_call_t *call, const floe_resource_t *owner, floe_StorageClass storage_class);

/** Gives the new table `table_id` `storage_class`, the one it takes from its bucket, marked as taken. */
int floe_settings_table_storage_class_inherit(floe_call_t *call, int64_t table_id, floe_StorageClass storage_class);

/** Whether the table took its encryption (*encryption) and its storage class (*storage_class) from
 * its bucket when it was created; one it holds none of counts as taken (it reports its bucket's). */
int floe_settings_table_inherits(floe_call_t *call, int64_t table_id, bool *encryption /* OUT */,
                                 bool *storage_class /* OUT */);

/* ---- resource policy: a table bucket's or a table's ---- */

/** The policy document stored for `owner`, byte for byte, in the call's pool; *out is NULL when
 * none is. */
int floe_settings_policy_get(floe_call_t *call, const floe_resource_t *owner, char **document /* OUT */);

/** Makes `document` `owner`'s policy, replacing any. */
int floe_settings_policy_put(floe_call_t *call, const floe_resource_t *owner, const char *document);

/** Removes `owner`'s policy; an owner without one is left as it is. */
int floe_settings_policy_delete(floe_call_t *call, const floe_resource_t *owner);

/* ---- metrics configuration: a table bucket's ---- */

/** The id of the bucket's metrics configuration, in the call's pool; *out is NULL when it has none. */
int floe_settings_bucket_metrics_get(floe_call_t *call, int64_t bucket_id, char **configuration_id /* OUT */);

/** Gives the bucket a metrics configuration with a fresh id, or keeps the one it has (and its id). */
int floe_settings_bucket_metrics_put(floe_call_t *call, int64_t bucket_id);

/** Removes the bucket's metrics configuration; a bucket without one is left as it is. */
int floe_settings_bucket_metrics_delete(floe_call_t *call, int64_t bucket_id);

/* ---- maintenance configuration: a table bucket's, per maintenance type ---- */

/** A bucket's stored configuration of one maintenance type (icebergUnreferencedFileRemoval). */
typedef struct floe_bucket_maintenance {
    floe_MaintenanceStatus status; /* 0 (no MaintenanceStatus) when nothing is stored */
    int32_t unreferenced_days;
    int32_t non_current_days;
} floe_bucket_maintenance_t;

/** The bucket's stored configuration of `type`; out->status is 0 when none is. */
int floe_settings_bucket_maintenance_get(floe_call_t *call, int64_t bucket_id, floe_TableBucketMaintenanceType type,
                                         floe_bucket_maintenance_t *out /* OUT */);

/** Makes `value` (a whole value: status set) the bucket's configuration of `type`. */
int floe_settings_bucket_maintenance_put(floe_call_t *call, int64_t bucket_id, floe_TableBucketMaintenanceType type,
                                         const floe_bucket_maintenance_t *value);

#endif

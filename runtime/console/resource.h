/*
 * What a table bucket and a table both own, written as JSON members of the object being written
 * (the bucket page and the table page): encryption, storage class, resource policy, replication
 * and tags. Reads through catalog/settings.h, catalog/replication.h and catalog/tags.h.
 */
#ifndef FLOE_CONSOLE_RESOURCE_H
#define FLOE_CONSOLE_RESOURCE_H

#include "base/json.h"
#include "catalog/lookup.h"
#include "catalog/replication.h"

/**
 * Writes "encryption", "storageClass", "policy", "replication" and "tags" members for `owner`, a
 * table bucket or a table of the bucket of row id `bucket_id` (for a bucket, its own id), whose
 * replication configuration is `replication`'s of `owner->id`. Encryption and storage class are
 * what the API reports, a default included (with "isDefault": true). FLOE_OK, or FLOE_EFAIL with
 * the call failed; nothing is half-written then that the caller would send (it answers the error).
 */
int floe_console_write_owned(floe_call_t *call, floe_json_t *json, const floe_resource_t *owner, int64_t bucket_id,
                             floe_replication_owner_t replication);

#endif

/*
 * What a table bucket and a table both own, written as JSON members of the object being written
 * (the bucket page and the table page): encryption, storage class, resource policy, replication
 * and tags. Reads through catalog/settings.h, catalog/replication.h and catalog/tags.h.
 */
#ifndef FLOE_CONSOLE_RESOURCE_H
#define FLOE_CONSOLE_RESOURCE_H

#include "catalog/lookup.h"
#include "catalog/replication.h"
#include "json.h"

/**
 * Writes "encryption", "storageClass", "policy", "replication" and "tags" members for `owner`
 * (whose replication configuration is `replication`'s of `owner->id`). FLOE_OK, or FLOE_EFAIL with
 * the call failed; nothing is half-written then that the caller would send (it answers the error).
 */
int floe_console_write_owned(floe_call_t *call, floe_json_t *json, const floe_resource_t *owner,
                             floe_replication_owner_t replication);

#endif

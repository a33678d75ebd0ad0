/*
 * The tags on a taggable resource (a table bucket or a table, floe_resource_t of catalog/lookup.h),
 * as the catalog stores them: one row per key in the owner's tag table, which cascades with its
 * owner. Only storage: the tagging rules (reserved keys, at most 50 tags) are the handlers'
 * (handlers/s3tables/tags.c). Every function fails the call with a failure inside (FLOE_EFAIL) when SQLite
 * fails, and returns FLOE_OK or FLOE_EFAIL.
 */
#ifndef FLOE_CATALOG_TAGS_H
#define FLOE_CATALOG_TAGS_H

#include <stddef.h>
#include <stdint.h>

#include "call/call.h"
#include "catalog/lookup.h"

/** Adds each of `tags` to `owner`, replacing the value of a key it already has. */
int floe_tags_upsert(floe_call_t *call, const floe_resource_t *owner, const floe_Tags *tags);

/** Removes each of `keys` from `owner`; a key it does not carry is skipped. */
int floe_tags_remove(floe_call_t *call, const floe_resource_t *owner, const floe_TagKeyList *keys);

/** How many tags `owner` carries. */
int floe_tags_count(floe_call_t *call, const floe_resource_t *owner, int64_t *n /* OUT */);

/** Up to `max` of `owner`'s tags, sorted by key, in the call's pool. */
int floe_tags_list(floe_call_t *call, const floe_resource_t *owner, size_t max, floe_Tags **out /* OUT */);

#endif

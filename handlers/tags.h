/*
 * Tags on taggable resources, for the Create operations that take `tags` (CreateTableBucket now,
 * CreateTable later) as well as for tags.c's own TagResource. The storage is one table per kind
 * of owner (table_bucket_tag, and table_tag when tables exist), chosen by floe_resource_t.kind.
 */
#ifndef FLOE_TAGS_H
#define FLOE_TAGS_H

#include "floe_api.h"
#include "catalog/lookup.h"

#ifdef FLOE_HAS_OP_TagResource
/**
 * Adds `tags` to `resource`, replacing the value of a key it already has. Fails the call with
 * BadRequestException, before writing anything, if a key starts with aws:, and, after writing, if
 * the resource would then carry more than 50 tags. Run it inside the caller's transaction and
 * roll back when it fails.
 */
int floe_tags_add(floe_call_t *call, const floe_resource_t *resource, const floe_Tags *tags);
#endif

#endif

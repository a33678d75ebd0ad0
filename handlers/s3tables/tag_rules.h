/*
 * Tags on taggable resources, for the Create operations that take `tags` (CreateTableBucket,
 * CreateTable) as well as for tags.c's own TagResource: AWS's tagging rules around the catalog's
 * storage (catalog/tags.h), for any kind of resource floe_resource_t names.
 */
#ifndef FLOE_HANDLERS_S3TABLES_TAG_RULES_H
#define FLOE_HANDLERS_S3TABLES_TAG_RULES_H

#include "catalog/lookup.h"
#include "floe_api.h"

/**
 * Adds `tags` to `resource`, replacing the value of a key it already has. Fails the call with
 * BadRequestException, before writing anything, if a key starts with aws:, and, after writing, if
 * the resource would then carry more than 50 tags. Run it inside the caller's transaction and
 * roll back when it fails.
 */
int floe_tags_add(floe_call_t *call, const floe_resource_t *resource, const floe_Tags *tags);

#endif

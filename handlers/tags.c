/*
 * The service-level tagging operations: TagResource, UntagResource and ListTagsForResource, on any
 * resource a ResourceArn can name (floe_lookup_resource). The catalog stores the tags
 * (catalog/tags.h); this file keeps AWS's rules.
 *
 * AWS's rules (https://docs.aws.amazon.com/AmazonS3/latest/API/API_s3Buckets_TagResource.html and
 * the model): at most 50 tags per resource; keys 1..128 and values 0..256 characters, which the
 * model checks; keys starting aws: are reserved for AWS.
 */
#include <strings.h>

#include "catalog/lookup.h"
#include "catalog/tags.h"
#include "floe_api.h"
#include "tags.h"

#define MAX_TAGS_PER_RESOURCE 50 /* TagResource: "You can add up to 50 tags for each S3 resource." */
#define RESERVED_TAG_PREFIX "aws:"

/* AWS reserves the aws: prefix for its own tags, in any letter case
 * (https://docs.aws.amazon.com/tag-editor/latest/userguide/best-practices-and-strats.html). The
 * message is the one S3's sibling service S3 Vectors answers (seen through CloudFormation). */
static bool tag_key_is_reserved(const char *key)
{
    return strncasecmp(key, RESERVED_TAG_PREFIX, sizeof(RESERVED_TAG_PREFIX) - 1) == 0;
}

static int refuse_reserved_key(floe_call_t *call)
{
    return floe_fail(call, FLOE_ERR_BadRequestException, "aws: prefixed tag key names are not allowed for external use.");
}

/* Fails the call unless the resource carries at most MAX_TAGS_PER_RESOURCE tags. */
static int check_tag_count(floe_call_t *call, const floe_resource_t *resource)
{
    int64_t n;

    if (floe_tags_count(call, resource, &n))
        return FLOE_EFAIL;
    if (n > MAX_TAGS_PER_RESOURCE)
        return floe_fail(call, FLOE_ERR_BadRequestException, "A resource can have at most %d tags.",
                         MAX_TAGS_PER_RESOURCE);
    return FLOE_OK;
}

int floe_tags_add(floe_call_t *call, const floe_resource_t *resource, const floe_Tags *tags)
{
    for (size_t i = 0; i < tags->n; i++) {
        if (tag_key_is_reserved(tags->keys[i]))
            return refuse_reserved_key(call);
    }
    if (floe_tags_upsert(call, resource, tags))
        return FLOE_EFAIL;
    return check_tag_count(call, resource);
}

/* The body of TagResource, inside its transaction: the count limit is checked after the writes. */
static int tag_resource(floe_call_t *call, void *arg)
{
    const floe_TagResourceRequest *in = arg;
    floe_resource_t resource;

    if (floe_lookup_resource(call, in->resourceArn, &resource))
        return FLOE_EFAIL;
    return floe_tags_add(call, &resource, in->tags);
}

int floe_handle_TagResource(floe_call_t *call, const floe_TagResourceRequest *in, floe_TagResourceResponse *out)
{
    (void)out;
    return floe_call_in_transaction(call, tag_resource, (void *)in);
}

static int remove_tags(floe_call_t *call, const floe_resource_t *resource, const floe_TagKeyList *keys)
{
    for (size_t i = 0; i < keys->n; i++) {
        if (tag_key_is_reserved(keys->items[i]))
            return refuse_reserved_key(call);
    }
    return floe_tags_remove(call, resource, keys);
}

/* Removing a key the resource does not carry is not an error: the key is simply absent after.
 * Keys starting aws: are refused here too, since AWS's own tags are not the caller's to remove. */
static int untag_resource(floe_call_t *call, void *arg)
{
    const floe_UntagResourceRequest *in = arg;
    floe_resource_t resource;

    if (floe_lookup_resource(call, in->resourceArn, &resource))
        return FLOE_EFAIL;
    return remove_tags(call, &resource, in->tagKeys);
}

int floe_handle_UntagResource(floe_call_t *call, const floe_UntagResourceRequest *in, floe_UntagResourceResponse *out)
{
    (void)out;
    return floe_call_in_transaction(call, untag_resource, (void *)in);
}

/* TagResource keeps every resource at MAX_TAGS_PER_RESOURCE or fewer, so one read shows them all. */
int floe_handle_ListTagsForResource(floe_call_t *call, const floe_ListTagsForResourceRequest *in,
                                    floe_ListTagsForResourceResponse *out)
{
    floe_resource_t resource;

    if (floe_lookup_resource(call, in->resourceArn, &resource))
        return FLOE_EFAIL;
    return floe_tags_list(call, &resource, MAX_TAGS_PER_RESOURCE, &out->tags);
}

/*
 * The service-level tagging operations: TagResource, UntagResource and ListTagsForResource, on any
 * resource a ResourceArn can name (floe_lookup_resource). The catalog stores the tags
 * (catalog/tags.h) and catalog/rules.h keeps the tagging rules this file applies.
 *
 * AWS's rules (https://docs.aws.amazon.com/AmazonS3/latest/API/API_s3Buckets_TagResource.html and
 * the model): at most 50 tags per resource; keys 1..128 and values 0..256 characters, which the
 * model checks; keys starting aws: are reserved for AWS.
 */
#include "call/transaction.h"
#include "catalog/lookup.h"
#include "catalog/rules.h"
#include "catalog/tags.h"
#include "floe_api.h"

/* The body of TagResource, inside its transaction: the count limit is checked after the writes. */
static int tag_resource(floe_call_t *call, void *arg)
{
    const floe_TagResourceRequest *in = arg;
    floe_resource_t resource;

    if (floe_lookup_resource(call, in->resourceArn, &resource))
        return FLOE_EFAIL;
    return floe_rules_tags_add(call, &resource, in->tags);
}

int floe_handle_TagResource(floe_call_t *call, const floe_TagResourceRequest *in, floe_TagResourceResponse *out)
{
    (void)out;
    return floe_call_in_transaction(call, tag_resource, (void *)in);
}

static int remove_tags(floe_call_t *call, const floe_resource_t *resource, const floe_TagKeyList *keys)
{
    for (size_t i = 0; i < keys->n; i++) {
        if (floe_rules_tag_key_is_reserved(keys->items[i]))
            return floe_rules_refuse_reserved_tag_key(call);
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

/* TagResource keeps every resource at FLOE_RULES_MAX_TAGS_PER_RESOURCE or fewer, so one read shows them all. */
int floe_handle_ListTagsForResource(floe_call_t *call, const floe_ListTagsForResourceRequest *in,
                                    floe_ListTagsForResourceResponse *out)
{
    floe_resource_t resource;

    if (floe_lookup_resource(call, in->resourceArn, &resource))
        return FLOE_EFAIL;
    return floe_tags_list(call, &resource, FLOE_RULES_MAX_TAGS_PER_RESOURCE, &out->tags);
}

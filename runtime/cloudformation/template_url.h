/*
 * TemplateURL: the template a CreateStack, UpdateStack, CreateChangeSet, ValidateTemplate or
 * GetTemplateSummary request names by URL, read from Floe's own S3 (the object store on the same
 * port). Not for the template itself (stack_template.h, template.h) nor for S3's own addressing of
 * requests (s3/address.c, which reads a Host header, not a URL).
 *
 * The URL forms read are those the SDKs and the CLI produce, in http or https, with any port, a
 * query string (versionId and the like, ignored: Floe keeps one version) and percent-encoding:
 *   path-style      http://127.0.0.1:4566/B/K, http://localhost:4566/B/K, http://floe:4566/B/K,
 *                   https://s3.amazonaws.com/B/K, https://s3.REGION.amazonaws.com/B/K,
 *                   https://s3-REGION.amazonaws.com/B/K, https://s3.dualstack.REGION.amazonaws.com/B/K
 *   virtual-hosted  https://B.s3.amazonaws.com/K, https://B.s3.REGION.amazonaws.com/K,
 *                   https://B.s3-REGION.amazonaws.com/K, http://B.localhost:4566/K,
 *                   http://B.s3.localhost:4566/K
 * (amazonaws.com.cn too). A host that is an IP address, `localhost` or one label (a container's
 * name) is Floe itself; any other host is another service's, refused as AWS refuses a URL that is
 * not S3's.
 */
#ifndef FLOE_CLOUDFORMATION_TEMPLATE_URL_H
#define FLOE_CLOUDFORMATION_TEMPLATE_URL_H

#include <stdbool.h>

#include "call/call.h"
#include "cloudformation/stack.h"

/** The largest template read from S3 ("Template body size in an Amazon S3 object": 1 MB,
 * https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/cloudformation-limits.html). */
#define FLOE_STACK_TEMPLATE_URL_BODY_MAX 1048576

/**
 * Reads `url` as the address of an object in Floe's own S3. true with *bucket and *key
 * (percent-decoded, in the call's pool); false for any other URL (another scheme or host, no
 * bucket or key, bad percent-encoding).
 */
bool floe_template_url_parse(floe_call_t *call, const char *url, char **bucket /* OUT */, char **key /* OUT */);

/**
 * The template `url` names, read whole from Floe's S3: FLOE_OK with *body (in the call's
 * pool); FLOE_EINVAL with AWS's message for a URL that is not S3's ("TemplateURL must be an
 * Amazon S3 URL."), a missing bucket or object ("TemplateURL must reference a valid S3 object to
 * which you have access.") or one over FLOE_STACK_TEMPLATE_URL_BODY_MAX; FLOE_EFAIL when
 * the store fails. Runs on the serving thread (it reads through the call's state).
 */
int floe_stack_template_from_url(floe_call_t *call, const char *url, char **body /* OUT */,
                                 char **why /* OUT */);

#endif

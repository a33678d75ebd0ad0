/*
 * The account and region a request acts in, as AWS scopes them: the region is the one in the
 * request's SigV4 credential scope (header or presigned URL), the account is the access key ID
 * when that is exactly 12 digits (as LocalStack reads it). Anything else, an unsigned request
 * included, takes the server's defaults (--account-id, --region). Table buckets, their namespaces,
 * tables, configuration and tags, and CloudFormation stacks live in one scope; S3 bucket names are
 * global, as on AWS.
 */
#ifndef FLOE_BASE_SCOPE_H
#define FLOE_BASE_SCOPE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/config.h"

#define FLOE_ACCOUNT_ID_LEN 12
#define FLOE_REGION_MAX_LEN 32 /* AWS's longest region name is 14 characters; this leaves room */

typedef struct floe_scope {
    char account_id[FLOE_ACCOUNT_ID_LEN + 1];
    char region[FLOE_REGION_MAX_LEN + 1];
} floe_scope_t;

/** The server's default scope. */
void floe_scope_default(const floe_config_t *config, floe_scope_t *out /* OUT */);

/** True when `text` (n bytes) is a 12-digit account id. */
bool floe_scope_is_account_id(const char *text, size_t n);

/** True when `text` (n bytes) can be a region name: 1..FLOE_REGION_MAX_LEN of [a-z0-9-]. */
bool floe_scope_is_region(const char *text, size_t n);

/**
 * The scope of a request whose SigV4 credential gave `access_key` and `region` (either may be NULL
 * for an unsigned request): each part that is not valid falls back to the server's default.
 */
void floe_scope_from_credential(const floe_config_t *config, const char *access_key, size_t access_key_len,
                                const char *region, size_t region_len, floe_scope_t *out /* OUT */);

/**
 * The scope an S3 Tables ARN names ("arn:aws:s3tables:{region}:{account}:..."), for requests that
 * carry no signature to read it from (the unsigned Iceberg REST catalog). Parts that are missing
 * or not valid fall back to the server's default.
 */
void floe_scope_from_arn(const floe_config_t *config, const char *arn, floe_scope_t *out /* OUT */);

#endif

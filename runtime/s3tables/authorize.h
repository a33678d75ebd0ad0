/*
 * --enforce-iam on the S3 Tables API: the call's action (s3tables:<Operation>, from the operation
 * table's name) on the resource AWS's service authorization reference names for it (the table's
 * ARN when the call names an existing table, else the table bucket's), decided by runtime/authz/.
 */
#ifndef FLOE_S3TABLES_AUTHORIZE_H
#define FLOE_S3TABLES_AUTHORIZE_H

#include "call/call.h"
#include "http/codec.h"
#include "s3tables/router.h"

/**
 * Authorizes the call `match` and `http` describe, signed with `access_key` from `source_ip`.
 * FLOE_OK when allowed, with the call moved into the resource owner's scope (a bucket another
 * account's policy shares is found there); FLOE_EFAIL with AccessDeniedException recorded when not.
 */
int floe_s3tables_authorize(floe_call_t *call, const floe_route_match_t *match, const floe_http_input_t *http,
                            const char *access_key, const char *source_ip);

#endif

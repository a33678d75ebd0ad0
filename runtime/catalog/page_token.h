/*
 * Continuation tokens for the List operations. A token encodes the sort key of the last item
 * returned, so the next page starts strictly after it: pages stay correct while other clients
 * insert or delete. It also carries a fingerprint of the listing it belongs to (operation,
 * parent, filters), so a token handed to another listing is refused. Tokens are opaque to clients
 * (base64url) and checked when read back.
 */
#ifndef FLOE_CATALOG_PAGE_TOKEN_H
#define FLOE_CATALOG_PAGE_TOKEN_H

#include "call/call.h"

/**
 * The token that resumes the listing `listing` after `last_key`, in the call's pool. `listing`
 * names the listing and its filters, e.g. floe_call_printf(call, "buckets|%s", prefix).
 */
char *floe_page_token_encode(floe_call_t *call, const char *listing, const char *last_key);
/** The key a token resumes after, in the call's pool; NULL if the token is not one of ours or
 * was issued for another listing. */
char *floe_page_token_decode(floe_call_t *call, const char *listing, const char *token);

#endif

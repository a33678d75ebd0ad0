/*
 * Floe's own engine key: the access key with which the Trino Floe drives for Athena signs its calls
 * back to Floe (the Iceberg REST catalog and S3), one per account, "FLOEENGINE<account id>", its
 * secret the process's random config->engine_secret. Floe verifies a request signed with it even
 * without --strict-signatures, so no client can borrow the name: a call it signs acts as the
 * account's root and may stage a create (CTAS), which AWS's REST endpoint refuses to users' clients.
 */
#ifndef FLOE_BASE_ENGINE_KEY_H
#define FLOE_BASE_ENGINE_KEY_H

#include <stdbool.h>
#include <stddef.h>

#include "base/scope.h"

#define FLOE_ENGINE_KEY_PREFIX "FLOEENGINE"
#define FLOE_ENGINE_KEY_LEN (sizeof(FLOE_ENGINE_KEY_PREFIX) - 1 + FLOE_ACCOUNT_ID_LEN)
#define FLOE_ENGINE_SECRET_LEN 40

/** The engine key of `account_id` (12 digits) into out. */
void floe_engine_key_of(const char *account_id, char out[FLOE_ENGINE_KEY_LEN + 1]);

/** True when key[0..n) is an engine key; its account then goes to account_id (may be NULL). */
bool floe_engine_key_account(const char *key, size_t n, char *account_id /* OUT: FLOE_ACCOUNT_ID_LEN + 1, or NULL */);

/** A new random secret for this process's engine key. */
void floe_engine_secret_new(char out[FLOE_ENGINE_SECRET_LEN + 1]);

#endif

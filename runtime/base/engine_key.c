/* Floe's own engine key (engine_key.h). */
#include <stdio.h>
#include <string.h>

#include "base/engine_key.h"
#include "base/ids.h"

void floe_engine_key_of(const char *account_id, char out[FLOE_ENGINE_KEY_LEN + 1])
{
    snprintf(out, FLOE_ENGINE_KEY_LEN + 1, "%s%s", FLOE_ENGINE_KEY_PREFIX, account_id);
}

bool floe_engine_key_account(const char *key, size_t n, char *account_id)
{
    size_t prefix = sizeof(FLOE_ENGINE_KEY_PREFIX) - 1;

    if (n != FLOE_ENGINE_KEY_LEN || memcmp(key, FLOE_ENGINE_KEY_PREFIX, prefix) != 0 ||
        !floe_scope_is_account_id(key + prefix, FLOE_ACCOUNT_ID_LEN))
        return false;
    if (account_id != NULL) {
        memcpy(account_id, key + prefix, FLOE_ACCOUNT_ID_LEN);
        account_id[FLOE_ACCOUNT_ID_LEN] = '\0';
    }
    return true;
}

void floe_engine_secret_new(char out[FLOE_ENGINE_SECRET_LEN + 1])
{
    floe_random_alnum(out, FLOE_ENGINE_SECRET_LEN);
}

/*
 * Reading a request's account and region (scope.h). Pure: no h2o, no state.
 */
#include <assert.h>
#include <string.h>

#include "base/scope.h"

static void copy(char *dst, size_t cap, const char *src, size_t n)
{
    assert(n < cap);
    memcpy(dst, src, n);
    dst[n] = '\0';
}

void floe_scope_default(const floe_config_t *config, floe_scope_t *out)
{
    /* A configuration that leaves one unset (unit tests) gets Floe's built-in default. */
    const char *account = config->account_id != NULL ? config->account_id : FLOE_DEFAULT_ACCOUNT_ID;
    const char *region = config->region != NULL ? config->region : FLOE_DEFAULT_REGION;
    copy(out->account_id, sizeof(out->account_id), account, strlen(account));
    copy(out->region, sizeof(out->region), region, strlen(region));
}

bool floe_scope_is_account_id(const char *text, size_t n)
{
    if (n != FLOE_ACCOUNT_ID_LEN)
        return false;
    for (size_t i = 0; i < n; i++) {
        if (text[i] < '0' || text[i] > '9')
            return false;
    }
    return true;
}

bool floe_scope_is_region(const char *text, size_t n)
{
    if (n == 0 || n > FLOE_REGION_MAX_LEN)
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = text[i];
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'))
            return false;
    }
    return true;
}

void floe_scope_from_credential(const floe_config_t *config, const char *access_key, size_t access_key_len,
                                const char *region, size_t region_len, floe_scope_t *out)
{
    floe_scope_default(config, out);
    if (access_key != NULL && floe_scope_is_account_id(access_key, access_key_len))
        copy(out->account_id, sizeof(out->account_id), access_key, access_key_len);
    if (region != NULL && floe_scope_is_region(region, region_len))
        copy(out->region, sizeof(out->region), region, region_len);
}

#define ARN_S3TABLES_PREFIX "arn:aws:s3tables:"

void floe_scope_from_arn(const floe_config_t *config, const char *arn, floe_scope_t *out)
{
    const char *region, *region_end, *account, *account_end;

    floe_scope_default(config, out);
    if (arn == NULL || strncmp(arn, ARN_S3TABLES_PREFIX, strlen(ARN_S3TABLES_PREFIX)) != 0)
        return;
    region = arn + strlen(ARN_S3TABLES_PREFIX);
    if ((region_end = strchr(region, ':')) == NULL)
        return;
    account = region_end + 1;
    if ((account_end = strchr(account, ':')) == NULL)
        return;
    floe_scope_from_credential(config, account, (size_t)(account_end - account), region,
                               (size_t)(region_end - region), out);
}

/*
 * Principals from access keys. Until IAM users and STS sessions are stored, every key is the
 * root of the account the call acts in.
 */
#include "iam/principal.h"

#include <string.h>

int floe_principal_of_key(floe_call_t *call, const char *access_key, floe_principal_t **out)
{
    floe_principal_t *p = floe_call_alloc(call, sizeof(*p));

    (void)access_key;
    p->kind = FLOE_PRINCIPAL_ROOT;
    memcpy(p->account_id, call->scope.account_id, sizeof(p->account_id));
    p->arn = floe_call_printf(call, "arn:aws:iam::%s:root", p->account_id);
    *out = p;
    return FLOE_OK;
}

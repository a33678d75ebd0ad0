/*
 * STS (AWS Security Token Service): GetCallerIdentity, the call the AWS CDK, Terraform and the
 * aws CLI make first to learn which account their credentials belong to. Floe has no IAM: every
 * caller is the root of the account its request acts in (scope.h: the access key ID when it is
 * 12 digits, else the server's --account-id). The other STS operations have no handler and
 * answer 501 (models/sts-overlay.json).
 *
 * AWS's answer for root credentials
 * (https://docs.aws.amazon.com/STS/latest/APIReference/API_GetCallerIdentity.html): Account is the
 * account ID, Arn is arn:aws:iam::<account>:root, and UserId is the account ID.
 */
#include "sts_api.h"

int floe_sts_handle_GetCallerIdentity(floe_query_call_t *call, const floe_sts_GetCallerIdentityRequest *in,
                                      floe_sts_GetCallerIdentityResponse *out)
{
    const char *account = floe_call_account(&call->super);

    (void)in;
    out->Account = floe_call_strdup(&call->super, account);
    out->UserId = floe_call_strdup(&call->super, account);
    out->Arn = floe_call_printf(&call->super, "arn:aws:iam::%s:root", account);
    return FLOE_OK;
}

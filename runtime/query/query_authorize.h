/*
 * --enforce-iam on an awsQuery service whose overlay says how (IAM, STS): an operation needs
 * "<signing name>:<Action>" (iam:CreateUser), its name from the generated operation table, on the
 * resource its row's `authorize` names (an IAM user's, role's or managed policy's ARN built from
 * the request's members, an ARN member as given, or "*"), decided for the caller's identity-based
 * policies in the caller's account (IAM keeps no resource policies but roles' trust policies,
 * which sts:AssumeRole's handler reads; an account's root is allowed everything in its account).
 */
#ifndef FLOE_QUERY_AUTHORIZE_H
#define FLOE_QUERY_AUTHORIZE_H

#include <stdbool.h>

#include "authz/authz.h"
#include "query/query_form.h"
#include "query/query_service.h"

/**
 * Decides `op` of `svc` for the call's signer (`call->access_key`), from `source_ip`: FLOE_OK with
 * *needed false when the operation is not decided here (not evaluated, free, or decided by its
 * handler), else with `out` filled (allowed or not); FLOE_EFAIL when the key is no one's or SQLite
 * fails.
 */
int floe_query_authorize(floe_query_call_t *call, const floe_query_service_t *svc, const floe_query_operation_t *op,
                         const floe_query_form_t *form, const char *source_ip, bool *needed /* OUT */,
                         floe_authz_decision_t *out /* OUT */);

#endif

/*
 * The transaction helper of transaction.h: BEGIN IMMEDIATE, the body, then COMMIT or ROLLBACK.
 */
#include "call/transaction.h"
#include "db/sql.h"
#include "db/state.h"

int floe_call_in_transaction(floe_call_t *call, int (*body)(floe_call_t *call, void *arg), void *arg)
{
    if (floe_state_begin(call->state))
        return floe_fail_internal(call, floe_state_errmsg(call->state));
    if (body(call, arg) != FLOE_OK) {
        floe_state_rollback(call->state);
        return FLOE_EFAIL;
    }
    if (floe_state_commit(call->state))
        return floe_fail_internal(call, floe_state_errmsg(call->state));
    return FLOE_OK;
}

int floe_call_in_joined_transaction(floe_call_t *call, int (*body)(floe_call_t *call, void *arg), void *arg)
{
    if (!floe_db_in_transaction(call->state))
        return floe_call_in_transaction(call, body, arg);
    return body(call, arg) == FLOE_OK ? FLOE_OK : FLOE_EFAIL;
}

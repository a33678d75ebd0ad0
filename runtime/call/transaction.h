/*
 * The one helper every mutation runs in: a body run inside one SQLite transaction on the call's
 * connection (db/state.h). It lives in the call wing, beside the call (call/call.h), so that
 * catalog/ and the stack engine above share it.
 */
#ifndef FLOE_CALL_TRANSACTION_H
#define FLOE_CALL_TRANSACTION_H

#include "call/call.h"

/**
 * Runs body(call, arg) inside one SQLite transaction (BEGIN IMMEDIATE): committed when it returns
 * FLOE_OK, rolled back otherwise. Returns what body returned, or fails the call with
 * a failure inside (FLOE_EFAIL) when SQLite cannot begin or commit. For mutations that read, check
 * and write, such as a version-token compare-and-swap.
 */
int floe_call_in_transaction(floe_call_t *call, int (*body)(floe_call_t *call, void *arg), void *arg);

/**
 * floe_call_in_transaction, or, when the caller already holds a transaction (a stack's step that
 * records its change in the same commit), body inside it: the caller's commit or rollback decides.
 * For state functions called both from a handler and from inside another mutation.
 */
int floe_call_in_joined_transaction(floe_call_t *call, int (*body)(floe_call_t *call, void *arg), void *arg);

#endif

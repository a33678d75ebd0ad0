/*
 * The one helper every mutation runs in: a body run inside one SQLite transaction on the call's
 * connection. It lives with the connection (db/state.h), not with the call, so the call
 * (http/call.h) stays below the catalog.
 */
#ifndef FLOE_CATALOG_TRANSACTION_H
#define FLOE_CATALOG_TRANSACTION_H

#include "http/call.h"

/**
 * Runs body(call, arg) inside one SQLite transaction (BEGIN IMMEDIATE): committed when it returns
 * FLOE_OK, rolled back otherwise. Returns what body returned, or fails the call with
 * InternalServerErrorException when SQLite cannot begin or commit. For mutations that read, check
 * and write, such as a version-token compare-and-swap.
 */
int floe_call_in_transaction(floe_call_t *call, int (*body)(floe_call_t *call, void *arg), void *arg);

#endif

/*
 * Authorizing a call on S3 Tables' resources, whichever protocol carries it (the S3 Tables API,
 * the Iceberg REST endpoints): the signed caller, one action, and the table bucket (and table) the
 * call names in; the decision out, with the call moved into the owner's account so the bucket of
 * another account that a policy shares is found there.
 */
#ifndef FLOE_AUTHZ_TABLE_ACCESS_H
#define FLOE_AUTHZ_TABLE_ACCESS_H

#include "authz/authz.h"
#include "call/call.h"

/** What a call names: a table bucket's or table's ARN (NULL: none), and a namespace and table name. */
typedef struct floe_authz_target {
    const char *arn;
    const char *namespace_;
    const char *name;
} floe_authz_target_t;

/**
 * Decides `action` for the caller whose `access_key` signed the call, from `source_ip`, on what
 * `target` names: the table's ARN when it names an existing table, else the bucket's (a call that
 * names no ARN acts on the caller's "bucket/" and a star). FLOE_OK with `out` filled; FLOE_EFAIL
 * when the key is no one's or SQLite fails (recorded on the call).
 */
int floe_authz_table_access(floe_call_t *call, const char *access_key, const char *source_ip, const char *action,
                            const floe_authz_target_t *target, floe_authz_decision_t *out /* OUT */);

#endif

/*
 * Authorizing an action of AWS Glue's Data Catalog on what S3 Tables' integration with Glue makes
 * of a table bucket (the federated catalog `s3tablescatalog`, one child catalog per bucket, a
 * database per namespace, a table per table), whichever door the call came through: Glue's Iceberg
 * REST endpoint, or a table an Athena query reads or writes. Glue checks an action on every level
 * of that hierarchy, as the policies AWS's S3 Tables and Athena guides give list them: the
 * account's catalog, `catalog/s3tablescatalog`, `catalog/s3tablescatalog/<bucket>`, then
 * `database/s3tablescatalog/<bucket>/<namespace>` and `table/s3tablescatalog/<bucket>/<namespace>/<table>`
 * when the call names them. Floe stores no Glue resource policy, so the caller's identity-based
 * policies decide (a root may do everything in its own account).
 */
#ifndef FLOE_AUTHZ_GLUE_ACCESS_H
#define FLOE_AUTHZ_GLUE_ACCESS_H

#include <stddef.h>

#include "authz/authz.h"
#include "call/call.h"

#define FLOE_AUTHZ_GLUE_LEVELS 5 /* catalog, s3tablescatalog, its bucket's catalog, database, table */

/** What a Glue call names in `account` (the call's region): a table bucket's name, and a namespace
 * and table name (each NULL when not named). Without a bucket, a namespace is a database of the
 * account's default catalog (`database/<name>`, then `table/<name>/<table>`), and without either
 * the account's catalog is named alone. */
typedef struct floe_authz_glue_target {
    const char *account;
    const char *bucket;
    const char *namespace_;
    const char *table;
} floe_authz_glue_target_t;

/** The ARNs of the Glue resources `target` names, from the account's catalog down, in the call's
 * pool; answers how many (at most FLOE_AUTHZ_GLUE_LEVELS). */
size_t floe_authz_glue_resources(floe_call_t *call, const floe_authz_glue_target_t *target,
                                 const char *out[FLOE_AUTHZ_GLUE_LEVELS] /* OUT */);

/**
 * Decides the Glue `action` ("glue:GetTable") on each resource `target` names in turn, for the
 * caller whose `access_key` signed the call, from `source_ip`: FLOE_OK with `out` the first
 * refusal, or the last allowance; FLOE_EFAIL when the key is no one's (recorded on the call).
 */
int floe_authz_glue_access(floe_call_t *call, const char *access_key, const char *source_ip, const char *action,
                           const floe_authz_glue_target_t *target, floe_authz_decision_t *out /* OUT */);

#endif

/*
 * What Athena's handlers share: the workgroup a request names (`primary` when it names none, as
 * on AWS), the page size and page tokens of a listing, and Athena's not-found answers.
 */
#ifndef FLOE_HANDLERS_ATHENA_COMMON_H
#define FLOE_HANDLERS_ATHENA_COMMON_H

#include "athena/athena_schema_ddl.h"
#include "athena/athena_store.h"
#include "athena_api.h"

/** The workgroup a request names, or `primary`. */
const char *athena_workgroup_or_primary(const char *name);

/**
 * Reads workgroup `name` of the call's account and region (`primary` always exists); fails the
 * call with InvalidRequestException "WorkGroup is not found." when it does not. FLOE_OK or FLOE_EFAIL.
 */
int athena_workgroup_require(floe_awsjson_call_t *call, const char *name, floe_athena_workgroup_row_t *out /* OUT */);

/** The page size of a listing: MaxResults when given, else `fallback`; never above `max`. */
int athena_page_size(bool has_max_results, int32_t max_results, int fallback, int max);

/** The cursor a NextToken of `listing` carries (in the pool), "" without one; NULL after failing
 * the call with InvalidRequestException for a token that is not one of this listing's. */
const char *athena_page_after(floe_awsjson_call_t *call, const char *listing, const char *next_token);

/** The NextToken that continues `listing` after `last_key`. */
char *athena_page_token(floe_awsjson_call_t *call, const char *listing, const char *last_key);

/** The NextToken that continues a listing in creation order after the row numbered `seq`. */
char *athena_page_token_seq(floe_awsjson_call_t *call, const char *listing, int64_t seq);

/** An EncryptionOption's wire value (NULL for 0), and back (0 for NULL or an unknown one). */
const char *athena_encryption_text(floe_athena_EncryptionOption option);
floe_athena_EncryptionOption athena_encryption_enum(const char *text);

/** Whether `sql` in context catalog `catalog` (NULL: none) is a database's CREATE or DROP in
 * AwsDataCatalog, which Athena runs against Glue itself (athena_schema.c); *out filled when it is. */
bool athena_is_schema_ddl(const char *catalog, const char *sql, floe_schema_ddl_t *out /* OUT */);

/** Runs that statement for query q (its context and result configuration filled) and records q
 * already ended, SUCCEEDED or FAILED as Athena ends it. FLOE_OK or FLOE_EFAIL. */
int athena_run_schema_ddl(floe_awsjson_call_t *call, const floe_schema_ddl_t *ddl, floe_athena_query_row_t *q);

#endif

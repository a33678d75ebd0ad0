/*
 * Table buckets as the catalog stores them: creating one, listing them a page at a time, and
 * deleting one. (Reading one by its ARN is floe_lookup_bucket, catalog/lookup.h; a bucket's
 * configurations are catalog/settings.h; its tags catalog/tags.h.)
 *
 * What the stored state can refuse comes back as an outcome, not a failed call: the handler
 * answers with AWS's error and message for it. A SQLite failure fails the call with
 * a failure inside (FLOE_EFAIL) and returns FLOE_EFAIL.
 */
#ifndef FLOE_CATALOG_TABLE_BUCKET_H
#define FLOE_CATALOG_TABLE_BUCKET_H

#include <stddef.h>
#include <stdint.h>

#include "base/scope.h"
#include "call/call.h"
#include "catalog/lookup.h"
#include "db/state.h"

/** What floe_table_bucket_list returns: one page of buckets, by name. */
typedef struct floe_table_bucket_page {
    floe_bucket_row_t *items; /* n rows, strings in the call's pool */
    size_t n;
    char *continuation_token; /* resumes after the last item; NULL on the last page */
} floe_table_bucket_page_t;

/**
 * Stores a new customer table bucket named `name` with a fresh tableBucketId, created now (the
 * call's clock). Returns FLOE_OK with *id its row id, FLOE_EEXISTS (a table bucket has that name;
 * the call is not failed), or FLOE_EFAIL.
 * Run it inside the transaction that also stores the settings the bucket is created with.
 */
int floe_table_bucket_create(floe_call_t *call, const char *name, int64_t *id /* OUT */);

/**
 * The page of table buckets, sorted by name, that `continuation_token` (NULL: the first page)
 * resumes, at most `page_size` (at least 1) of them, keeping those whose name starts with `prefix`
 * and whose type is `type` ("customer" or "aws"); NULL keeps all. A token is good only for the
 * same prefix and type. Returns FLOE_OK, FLOE_EINVAL (not a token of this listing;
 * the call is not failed), or FLOE_EFAIL.
 */
int floe_table_bucket_list(floe_call_t *call, const char *prefix, const char *type, const char *continuation_token,
                           int page_size, floe_table_bucket_page_t *out /* OUT */);

/**
 * The accounts and regions that hold a table bucket, sorted; only `account_id`'s when it is not
 * NULL. An array of *n scopes in the call's pool, for the console's account and region picker.
 */
int floe_table_bucket_scopes(floe_call_t *call, const char *account_id, floe_scope_t **scopes /* OUT */,
                             size_t *n /* OUT */);

/**
 * Deletes the table bucket with row id `id` with its settings and tags. Returns FLOE_OK,
 * FLOE_EINUSE (it still has a namespace; nothing is deleted; the call is not failed), or FLOE_EFAIL.
 */
int floe_table_bucket_delete(floe_call_t *call, int64_t id);

/**
 * At start-up, before any thread serves: gives the table buckets and S3 buckets a data directory
 * held before accounts and regions existed (migration 7: account '') the server's default account
 * and region, so they keep answering to the clients that made them. Runs on the caller's
 * connection `st` (the first worker's, before any thread starts). FLOE_OK, or FLOE_EFAIL (logged).
 */
int floe_table_bucket_adopt_unscoped(floe_state_t *st, const char *account_id, const char *region);

#endif

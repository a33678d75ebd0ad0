/*
 * The Iceberg REST catalog's commits: updateTable (POST /v1/{prefix}/namespaces/{ns}/tables/{table})
 * and commitTransaction (POST /v1/{prefix}/transactions/commit). The Iceberg module computes the
 * next metadata.json (iceberg_commit.h); this file decides which metadata a commit starts from,
 * where the result goes and when the table's pointer moves. It holds no state of its own: the
 * pointer is the s3table row's metadata_location, guarded by its version token, and every move goes
 * through the table catalog's compare-and-swap (catalog/table.h: floe_table_swap_metadata, which
 * UpdateTableMetadataLocation uses too, and floe_table_swap_metadata_all).
 *
 * Design notes
 * ------------
 * 1. One table commit (updateTable):
 *
 *      floe_iceberg_lookup_table ─▶ floe_iceberg_read_metadata ─▶ floe_iceberg_commit ─▶ write_file ─▶ swap
 *        (token T, location L)         (the text at L)             (requirements      (NNNNN-uuid,  (CAS on T)
 *                                                                   against it)         fsynced)
 *      requirement fails ─▶ 409 CommitFailedException          stale T ─▶ 409 CommitFailedException
 *      bad update ─▶ 400                                        row gone ─▶ 404 NoSuchTableException
 *
 * 2. A transaction (commitTransaction) over tables t1..tn of one warehouse:
 *
 *      prepare t1..tn (as in 1, up to the file name) ─▶ write every file ─▶ floe_table_swap_metadata_all
 *      any failure while preparing or writing: no pointer moved; a stale or deleted table during the
 *      swaps: the catalog rolls back, so no pointer moved either (409, or 404).
 *
 * 3. A create transaction (updateTable with assert-create on a table that does not exist, after a
 *    stage-create): floe_table_check_name ─▶ floe_table_draft ─▶ floe_table_draft_adopt (the staged
 *    uuid and warehouse location) ─▶ floe_iceberg_commit from nothing ─▶
 *    floe_table_store_first_metadata ─▶ floe_table_insert. A table created meanwhile fails the draft
 *    or the insert: 409 CommitFailedException. One created before the commit arrives takes note 1,
 *    where assert-create fails (409) before the staged location is checked against its warehouse.
 *
 * Invariants:
 *   1. A commit's base is the file at L, read in the same lookup that saw token T; the pointer moves
 *      only if T is still the table's token. So the pointer only ever moves from L to a file computed
 *      from L: no commit is lost, whoever committed in between (REST or UpdateTableMetadataLocation).
 *   2. A file is written (fsynced) before any pointer can name it, under a fresh name it never
 *      shares. A lost swap leaves an unreferenced file in the warehouse, as Iceberg's own catalogs
 *      do, never a pointer to a missing file.
 *   3. Every location a commit gives a table lies in the table's warehouse bucket (else 400), so the
 *      table's files stay where S3 Tables keeps them.
 *   4. A table appears at most once in a transaction (else 400), so each swap has its own base.
 *   5. All swaps of a transaction run in one SQLite transaction: readers see every pointer of the
 *      transaction move, or none.
 */
#include <stdlib.h>
#include <string.h>

#include "base/ids.h"
#include "catalog/replication_queue.h"
#include "catalog/replication_rules.h"
#include "catalog/table.h"
#include "catalog/table_rules.h"
#include "iceberg/iceberg_commit.h"
#include "iceberg/iceberg_metadata.h"
#include "iceberg_glue.h"
#include "iceberg_lookup.h"
#include "iceberg_rest/iceberg_rest_api.h"
#include "store/store.h"

#define TABLE_FORMAT "ICEBERG"
#define METADATA_DIR "metadata/"
#define MESSAGE_STALE                                                                                                 \
    "The table %s.%s was changed by another commit since its metadata was read: reload the table and retry."

/** One table's commit, computed and named but not yet visible (design note 1, up to write_file). */
typedef struct prepared_commit {
    floe_table_row_t table;
    const char *json;     /* the next metadata.json, kept by the call */
    const char *key;      /* metadata/NNNNN-<uuid>.metadata.json */
    const char *location; /* s3://<warehouse>/<key> */
} prepared_commit_t;

/* ---- locations ---- */

/* Design invariant 3: the warehouse itself ("s3://<bucket>", with or without '/') or inside it. */
static bool location_is_in_warehouse(const floe_table_row_t *t, const char *location)
{
    size_t n = strlen(t->warehouse_bucket);
    if (strncmp(location, "s3://", 5) != 0 || strncmp(location + 5, t->warehouse_bucket, n) != 0)
        return false;
    return location[5 + n] == '\0' || (location[5 + n] == '/' && location[6 + n] == '\0') ||
           floe_table_location_is_inside(t, location);
}

/* Names the next metadata file after the current one (the Iceberg module's NNNNN-<uuid> scheme). */
static void name_next_file(floe_iceberg_call_t *call, prepared_commit_t *p)
{
    char uuid[FLOE_UUID_LEN + 1];

    floe_uuid_v4(uuid);
    p->key = floe_call_printf(&call->super, METADATA_DIR "%s",
                              (char *)floe_call_keep(&call->super, floe_iceberg_metadata_next_file_name(
                                                                       p->table.metadata_location, uuid)));
    p->location = floe_call_printf(&call->super, "s3://%s/%s", p->table.warehouse_bucket, p->key);
}

/* ---- the steps of design note 1 ---- */

/* Runs the Iceberg module's commit from `current_json` (NULL: from nothing); the result is kept by
 * the call. Maps the module's codes to the spec's errors. */
static int run_commit(floe_iceberg_call_t *call, const floe_iceberg_table_change_t *change, const char *current_json,
                      const char *current_location, const char *create_location, const char **json)
{
    floe_iceberg_commit_input_t ci = {current_json, current_location, change->requirements, change->updates,
                                      create_location, floe_call_now(&call->super)};
    floe_iceberg_error_t err;
    char *out;

    switch (floe_iceberg_commit(&ci, &out, &err)) {
    case FLOE_ICEBERG_OK: *json = floe_iceberg_call_keep(call, out); return FLOE_OK;
    case FLOE_ICEBERG_ECONFLICT:
        return floe_iceberg_call_fail(call, FLOE_ICEBERG_ERR_CommitFailedException, "%s", err.message);
    case FLOE_ICEBERG_EINVALID:
        return floe_iceberg_call_fail(call, FLOE_ICEBERG_ERR_BadRequestException, "%s", err.message);
    default:
        return floe_iceberg_call_fail(call, FLOE_ICEBERG_ERR_InternalServerError,
                                      "The table's current metadata cannot be read: %s", err.message);
    }
}

/* Computes table p->table's next metadata from its current file (note 1, up to the file name). */
static int prepare(floe_iceberg_call_t *call, const floe_iceberg_table_change_t *change, prepared_commit_t *p)
{
    char *current;

    if (floe_replication_is_replica(&call->super, p->table.id)) /* read-only, as on AWS */
        return call->super.failure.code != FLOE_OK
                   ? floe_iceberg_call_fail_internal(call, "cannot tell whether a table is a replica")
                   : floe_iceberg_call_fail(call, FLOE_ICEBERG_ERR_NotAuthorizedException, FLOE_REPLICA_READ_ONLY,
                                            p->table.ns.name, p->table.name);
    if (floe_iceberg_read_metadata(call, &p->table, &current) ||
        run_commit(call, change, current, p->table.metadata_location,
                   floe_call_printf(&call->super, "s3://%s", p->table.warehouse_bucket), &p->json))
        return FLOE_EFAIL;
    /* after the requirements (run_commit): a staged create that lost to another create is a 409,
     * though its location is the warehouse it reserved, not the table's */
    if (change->new_location != NULL && !location_is_in_warehouse(&p->table, change->new_location))
        return floe_iceberg_call_fail(call, FLOE_ICEBERG_ERR_BadRequestException,
                                      "The location %s is outside the table's warehouse s3://%s: S3 Tables keeps a "
                                      "table's files in its warehouse bucket.",
                                      change->new_location, p->table.warehouse_bucket);
    name_next_file(call, p);
    return FLOE_OK;
}

static int write_file(floe_iceberg_call_t *call, const prepared_commit_t *p)
{
    char etag[33];

    if (floe_store_put_object(floe_call_state(&call->super), floe_call_config(&call->super)->data_dir,
                              p->table.warehouse_bucket, p->key, p->json, strlen(p->json), "application/json",
                              floe_call_now(&call->super), etag) != FLOE_OK)
        return floe_iceberg_call_fail_internal(call, "cannot write a table's next metadata file");
    return FLOE_OK;
}

/* Why the swap of p's table did not happen: the spec's error for it. */
static int fail_swap(floe_iceberg_call_t *call, const prepared_commit_t *p, int rc)
{
    switch (rc) {
    case FLOE_ECHANGED:
        return floe_iceberg_call_fail(call, FLOE_ICEBERG_ERR_CommitFailedException, MESSAGE_STALE, p->table.ns.name,
                                      p->table.name);
    case FLOE_ENOTFOUND:
        return floe_iceberg_call_fail(call, FLOE_ICEBERG_ERR_NoSuchTableException, "The table %s.%s was dropped.",
                                      p->table.ns.name, p->table.name);
    default:
        return FLOE_EFAIL;
    }
}

/* The compare-and-swap of invariant 1. */
static int swap(floe_iceberg_call_t *call, const prepared_commit_t *p)
{
    char *token;
    int rc = floe_table_swap_metadata(&call->super, &p->table, p->table.version_token, p->location, &token);
    return rc == FLOE_OK ? FLOE_OK : fail_swap(call, p, rc);
}

/* ---- updateTable ---- */

/* Design note 3: the commit of a create transaction. A table created meanwhile is a failed
 * commit, not an existing table: the client's create transaction lost. */
static int create_by_commit(floe_iceberg_call_t *call, const floe_bucket_row_t *bucket, const floe_namespace_row_t *ns,
                            const floe_iceberg_updateTable_in *in, floe_iceberg_CommitTableResponse *out)
{
    floe_table_draft_t t;
    int rc;
    const char *json;

    if (floe_table_check_name(&call->super, in->table.table))
        return FLOE_EFAIL;
    if ((rc = floe_table_draft(&call->super, bucket, ns, in->table.table, TABLE_FORMAT, &t)) != FLOE_OK)
        return floe_iceberg_fail_from_table(call, rc, FLOE_ICEBERG_ERR_CommitFailedException);
    if (floe_table_draft_adopt(&call->super, &t, in->change.assigned_uuid, in->change.new_location))
        return FLOE_EFAIL;
    if (run_commit(call, &in->change, NULL, NULL, floe_call_printf(&call->super, "s3://%s", t.warehouse), &json))
        return FLOE_EFAIL;
    if (floe_table_store_first_metadata(&call->super, &t, json))
        return FLOE_EFAIL;
    if ((rc = floe_table_insert(&call->super, &t, NULL, NULL)) != FLOE_OK)
        return floe_iceberg_fail_from_table(call, rc, FLOE_ICEBERG_ERR_CommitFailedException);
    out->metadata_location = t.metadata_location;
    out->metadata_json = json;
    return FLOE_OK;
}

int floe_iceberg_handle_updateTable(floe_iceberg_call_t *call, const floe_iceberg_updateTable_in *in,
                                    floe_iceberg_CommitTableResponse *out)
{
    floe_bucket_row_t bucket;
    floe_namespace_row_t ns;
    prepared_commit_t p;

    /* a create transaction creates the table in the namespace; any other commit names a table */
    call->names_table = !in->change.asserts_create;
    if (floe_iceberg_lookup_namespace(call, in->table.warehouse, in->table.namespace, &bucket, &ns))
        return FLOE_EFAIL;
    if (floe_lookup_table_in(&call->super, &bucket, &ns, in->table.table, &p.table)) {
        if (call->super.failure.code == FLOE_ENOTFOUND && in->change.asserts_create)
            return create_by_commit(call, &bucket, &ns, in, out);
        return FLOE_EFAIL;
    }
    if (prepare(call, &in->change, &p) || write_file(call, &p) || swap(call, &p))
        return FLOE_EFAIL;
    out->metadata_location = p.location;
    out->metadata_json = p.json;
    return FLOE_OK;
}

/* ---- commitTransaction ---- */

/* Invariant 4. */
static int refuse_repeated_tables(floe_iceberg_call_t *call, const floe_iceberg_commitTransaction_in *in)
{
    for (size_t i = 0; i < in->n_changes; i++) {
        const floe_iceberg_identifier_t *a = &in->changes[i].identifier;
        for (size_t j = i + 1; j < in->n_changes; j++) {
            const floe_iceberg_identifier_t *b = &in->changes[j].identifier;
            if (strcmp(a->namespace, b->namespace) == 0 && strcmp(a->name, b->name) == 0)
                return floe_iceberg_call_fail(call, FLOE_ICEBERG_ERR_BadRequestException,
                                              "The table %s.%s appears twice in the transaction.", a->namespace,
                                              a->name);
        }
    }
    return FLOE_OK;
}

static int prepare_change(floe_iceberg_call_t *call, const char *warehouse, const floe_iceberg_table_change_t *change,
                          prepared_commit_t *p)
{
    if (floe_iceberg_lookup_table(call, warehouse, change->identifier.namespace, change->identifier.name, &p->table))
        return FLOE_EFAIL;
    return prepare(call, change, p);
}

/* Design note 2: every swap in one SQLite transaction, or none. */
static int swap_all(floe_iceberg_call_t *call, const prepared_commit_t *p, size_t n)
{
    floe_table_swap_t *swaps = floe_call_alloc(&call->super, n * sizeof(*swaps));
    int rc;
    size_t failed;

    for (size_t i = 0; i < n; i++) {
        swaps[i].table = &p[i].table;
        swaps[i].expected_token = p[i].table.version_token;
        swaps[i].metadata_location = p[i].location;
    }
    switch ((rc = floe_table_swap_metadata_all(&call->super, swaps, n, &failed))) {
    case FLOE_OK: return FLOE_OK;
    case FLOE_ECHANGED:
    case FLOE_ENOTFOUND: return fail_swap(call, &p[failed], rc);
    default:
        return FLOE_EFAIL;
    }
}

int floe_iceberg_handle_commitTransaction(floe_iceberg_call_t *call, const floe_iceberg_commitTransaction_in *in,
                                          floe_iceberg_NoContent *out)
{
    prepared_commit_t *p = floe_call_alloc(&call->super, in->n_changes * sizeof(*p));
    floe_bucket_row_t bucket;
    (void)out;

    if (call->is_glue)
        return floe_iceberg_glue_unsupported(call, "CommitTransaction");
    if (floe_iceberg_lookup_warehouse(call, in->warehouse, &bucket) || refuse_repeated_tables(call, in))
        return FLOE_EFAIL;
    for (size_t i = 0; i < in->n_changes; i++) {
        if (prepare_change(call, in->warehouse, &in->changes[i], &p[i]))
            return FLOE_EFAIL;
    }
    for (size_t i = 0; i < in->n_changes; i++) {
        if (write_file(call, &p[i]))
            return FLOE_EFAIL;
    }
    return swap_all(call, p, in->n_changes);
}

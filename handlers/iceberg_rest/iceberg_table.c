/*
 * The Iceberg REST catalog's tables, except commits (iceberg_table_commit.c): listTables,
 * createTable, loadTable, tableExists, dropTable, renameTable and reportMetrics.
 *
 * A REST table is an S3 Tables table: created, deleted, renamed and listed through the table
 * catalog (catalog/table.h), with AWS's name rule (table.h), so both APIs see one table with one
 * warehouse bucket, one metadata pointer and one version token.
 *
 * Choices where the spec or AWS leave room:
 *  - createTable refuses a client-chosen `location` (S3 Tables places every table in its own
 *    warehouse bucket). `stage-create` (CTAS) is refused with a 400, as AWS's endpoint refuses it
 *    ("The stage-create option is not supported", S3 Tables user guide, Iceberg REST endpoint
 *    considerations). With --iceberg-stage-create, a difference from AWS, it creates no table: it
 *    answers the metadata the table would have, located in the warehouse bucket the table will
 *    get, without a metadata-location, and reserves that bucket (empty) so the engine can write
 *    the data files of a CTAS before its create commit, which adopts the location (table.h:
 *    floe_table_reserve_warehouse, floe_table_draft_adopt).
 *  - loadTable answers the stored metadata.json verbatim, whatever `snapshots` asks: the spec lets a
 *    server return all snapshots for `refs`. Its ETag is the table's version token, so a client
 *    that sends it back in If-None-Match gets 304 until the next commit.
 *  - dropTable requires purgeRequested=true, as AWS does: S3 Tables deletes a table's data with it.
 *    The warehouse is purged asynchronously by the janitor.
 *  - reportMetrics accepts and discards the report (once the table is known to exist).
 */
#include <stdlib.h>
#include <string.h>

#include "catalog/iceberg_create.h"
#include "catalog/page_token.h"
#include "catalog/replication_queue.h"
#include "catalog/replication_rules.h"
#include "catalog/table.h"
#include "catalog/table_rules.h"
#include "iceberg_glue.h"
#include "iceberg_lookup.h"
#include "iceberg_rest/iceberg_rest_api.h"
#include "iceberg_table_config.h"

#define TABLE_FORMAT "ICEBERG"
#define LISTING_TABLES "IcebergTables|%s"
/* AWS's answer (type `stage_create`), as DuckDB users have seen it from the S3 Tables endpoint. */
#define STAGE_CREATE_REFUSED "Stage-create is currently not supported."
#define MESSAGE_PURGE_REQUIRED                                                                                        \
    "S3 Tables deletes a table's data with the table: send purgeRequested=true to drop it."

/* ---- listTables ---- */

/* Reads up to `limit` (-1: all) table names after `after` into out. */
static int list_names(floe_iceberg_call_t *call, const floe_namespace_row_t *ns, const char *after, int limit,
                      floe_iceberg_ListTablesResponse *out)
{
    char **names;
    size_t n;

    if (floe_table_list_names(&call->super, ns, after, limit, &names, &n))
        return FLOE_EFAIL;
    out->identifiers = floe_call_alloc(&call->super, n * sizeof(*out->identifiers));
    for (size_t i = 0; i < n; i++) {
        out->identifiers[i].namespace = ns->name;
        out->identifiers[i].name = names[i];
    }
    out->n = n;
    return FLOE_OK;
}

int floe_iceberg_handle_listTables(floe_iceberg_call_t *call, const floe_iceberg_listTables_in *in,
                                   floe_iceberg_ListTablesResponse *out)
{
    floe_bucket_row_t bucket;
    floe_namespace_row_t ns;
    const char *listing, *after = "";

    if (floe_iceberg_lookup_namespace(call, in->ns.warehouse, in->ns.namespace, &bucket, &ns))
        return FLOE_EFAIL;
    out->is_paginated = in->page.has_token;
    listing = floe_call_printf(&call->super, LISTING_TABLES, ns.namespace_id);
    if (in->page.has_token && *in->page.token != '\0' &&
        (after = floe_page_token_decode(&call->super, listing, in->page.token)) == NULL)
        return floe_iceberg_call_fail(call, FLOE_ICEBERG_ERR_BadRequestException, "The pageToken is not valid.");
    if (list_names(call, &ns, after, in->page.has_token ? in->page.size + 1 : -1, out))
        return FLOE_EFAIL;
    if (in->page.has_token && out->n > (size_t)in->page.size) {
        out->n = (size_t)in->page.size;
        out->next_page_token = floe_page_token_encode(&call->super, listing, out->identifiers[out->n - 1].name);
    }
    return FLOE_OK;
}

/* ---- createTable ---- */

/* The new table's first metadata.json, from the CreateTableRequest; kept by the call. */
static int render_metadata(floe_iceberg_call_t *call, const floe_iceberg_createTable_in *in,
                           const floe_table_draft_t *t, char **json)
{
    char *location = floe_call_printf(&call->super, "s3://%s", t->warehouse);
    floe_iceberg_error_t err;

    if (floe_iceberg_metadata_create_from_request(in->request, t->table_id, location, floe_call_now(&call->super),
                                                  json, &err) != FLOE_ICEBERG_OK)
        return floe_iceberg_call_fail(call, FLOE_ICEBERG_ERR_BadRequestException, "%s", err.message);
    floe_iceberg_call_keep(call, *json);
    return FLOE_OK;
}

int floe_iceberg_handle_createTable(floe_iceberg_call_t *call, const floe_iceberg_createTable_in *in,
                                    floe_iceberg_LoadTableResult *out)
{
    floe_bucket_row_t bucket;
    floe_namespace_row_t ns;
    floe_table_draft_t t;
    int rc;
    char *json;

    if (in->location != NULL)
        return floe_iceberg_call_fail(call, FLOE_ICEBERG_ERR_BadRequestException,
                                      "S3 Tables chooses each table's location: send a CreateTableRequest without one.");
    /* Athena's own Trino stages its CTAS; users' clients are refused as AWS's endpoint refuses them */
    if (in->stage_create && !floe_call_config(&call->super)->iceberg_stage_create && !call->super.by_engine)
        return floe_iceberg_call_fail(call, FLOE_ICEBERG_ERR_StageCreate, STAGE_CREATE_REFUSED);
    if (floe_iceberg_lookup_namespace(call, in->ns.warehouse, in->ns.namespace, &bucket, &ns))
        return FLOE_EFAIL;
    if (floe_table_check_name(&call->super, in->name))
        return FLOE_EFAIL;
    if ((rc = floe_table_draft(&call->super, &bucket, &ns, in->name, TABLE_FORMAT, &t)) != FLOE_OK)
        return floe_iceberg_fail_from_table(call, rc, FLOE_ICEBERG_ERR_AlreadyExistsException);
    if (render_metadata(call, in, &t, &json))
        return FLOE_EFAIL;
    if (in->stage_create) {
        if (floe_table_reserve_warehouse(&call->super, &t))
            return FLOE_EFAIL;
    } else {
        if (floe_table_store_first_metadata(&call->super, &t, json))
            return FLOE_EFAIL;
        if ((rc = floe_table_insert(&call->super, &t, NULL, NULL)) != FLOE_OK)
            return floe_iceberg_fail_from_table(call, rc, FLOE_ICEBERG_ERR_AlreadyExistsException);
    }
    out->metadata_location = t.metadata_location; /* NULL for a staged create */
    out->metadata_json = json;
    floe_iceberg_s3_config(call, &out->config);
    return FLOE_OK;
}

/* ---- loadTable, tableExists ---- */

/* The spec's ETag: one per version of the metadata. The version token changes exactly when the
 * metadata pointer moves (catalog/table.c, design note 1), so it names the version. */
static const char *table_etag(floe_iceberg_call_t *call, const floe_table_row_t *t)
{
    return floe_call_printf(&call->super, "\"%s\"", t->version_token);
}

int floe_iceberg_handle_loadTable(floe_iceberg_call_t *call, const floe_iceberg_loadTable_in *in,
                                  floe_iceberg_LoadTableResult *out)
{
    const floe_iceberg_table_ref_t *ref = &in->table;
    floe_table_row_t t;
    char *json;

    if (floe_iceberg_lookup_table(call, ref->warehouse, ref->namespace, ref->table, &t))
        return FLOE_EFAIL;
    call->etag = table_etag(call, &t);
    if (in->if_none_match != NULL && strcmp(in->if_none_match, call->etag) == 0)
        return floe_iceberg_call_fail(call, FLOE_ICEBERG_ERR_NotModified, "The table has not changed.");
    if (floe_iceberg_read_metadata(call, &t, &json))
        return FLOE_EFAIL;
    if (json == NULL)
        return floe_iceberg_call_fail(call, FLOE_ICEBERG_ERR_NoSuchTableException,
                                      "The table %s.%s has no Iceberg metadata yet.", ref->namespace, ref->table);
    out->metadata_location = t.metadata_location;
    out->metadata_json = json;
    floe_iceberg_s3_config(call, &out->config);
    return FLOE_OK;
}

int floe_iceberg_handle_tableExists(floe_iceberg_call_t *call, const floe_iceberg_tableExists_in *in,
                                    floe_iceberg_NoContent *out)
{
    floe_table_row_t t;
    (void)out;

    return floe_iceberg_lookup_table(call, in->warehouse, in->namespace, in->table, &t);
}

int floe_iceberg_handle_reportMetrics(floe_iceberg_call_t *call, const floe_iceberg_reportMetrics_in *in,
                                      floe_iceberg_NoContent *out)
{
    if (call->is_glue)
        return floe_iceberg_glue_unsupported(call, "ReportMetrics");
    return floe_iceberg_handle_tableExists(call, in, out);
}

/* ---- dropTable, renameTable ---- */

int floe_iceberg_handle_dropTable(floe_iceberg_call_t *call, const floe_iceberg_dropTable_in *in,
                                  floe_iceberg_NoContent *out)
{
    floe_table_row_t t;
    (void)out;

    if (!in->purge_requested)
        return floe_iceberg_call_fail(call, FLOE_ICEBERG_ERR_BadRequestException, MESSAGE_PURGE_REQUIRED);
    if (floe_iceberg_lookup_table(call, in->table.warehouse, in->table.namespace, in->table.table, &t))
        return FLOE_EFAIL;
    switch (floe_table_delete(&call->super, &t, NULL)) {
    case FLOE_OK: return FLOE_OK;
    case FLOE_ENOTFOUND:
    case FLOE_ECHANGED: /* no token was given: the table was renamed away from its name */
        return floe_iceberg_call_fail(call, FLOE_ICEBERG_ERR_NoSuchTableException, "The table was dropped meanwhile.");
    default:
        return FLOE_EFAIL;
    }
}

int floe_iceberg_handle_renameTable(floe_iceberg_call_t *call, const floe_iceberg_renameTable_in *in,
                                    floe_iceberg_NoContent *out)
{
    floe_bucket_row_t bucket;
    floe_namespace_row_t dest;
    floe_table_row_t t;
    int rc;
    (void)out;

    if (call->is_glue)
        return floe_iceberg_glue_unsupported(call, "RenameTable");
    if (floe_iceberg_lookup_table(call, in->warehouse, in->source.namespace, in->source.name, &t))
        return FLOE_EFAIL;
    call->names_table = false; /* the destination's namespace: NoSuchNamespaceException */
    if (floe_iceberg_lookup_namespace(call, in->warehouse, in->destination.namespace, &bucket, &dest))
        return FLOE_EFAIL;
    if (floe_replication_is_replica(&call->super, t.id)) /* read-only, as on AWS (catalog/replication_rules.h) */
        return call->super.failure.code != FLOE_OK
                   ? floe_iceberg_call_fail_internal(call, "cannot tell whether a table is a replica")
                   : floe_iceberg_call_fail(call, FLOE_ICEBERG_ERR_NotAuthorizedException, FLOE_REPLICA_READ_ONLY,
                                            t.ns.name, t.name);
    if (floe_table_check_name(&call->super, in->destination.name))
        return FLOE_EFAIL;
    if ((rc = floe_table_rename(&call->super, &t, &dest, in->destination.name, NULL)) != FLOE_OK)
        return floe_iceberg_fail_from_table(call, rc, FLOE_ICEBERG_ERR_AlreadyExistsException);
    return FLOE_OK;
}

/*
 * The table updates of an Iceberg REST commit (REST spec schema TableUpdate), applied one at a
 * time to a table being changed. Internal to the commit engine: iceberg_commit.c owns the
 * transaction, checks requirements first and finishes the logs afterwards; REST handlers call
 * floe_iceberg_commit (iceberg_commit.h), not this.
 *
 * Every failure here is FLOE_ICEBERG_EINVALID: an unknown action, a malformed payload, or a
 * reference to something the table does not have. Semantics follow Java's
 * TableMetadata.Builder; where Floe differs, the function's comment says so.
 */
#ifndef FLOE_ICEBERG_UPDATE_H
#define FLOE_ICEBERG_UPDATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "iceberg/iceberg_error.h"
#include "iceberg/iceberg_metadata.h"

/** "No id": the last-added slots before anything was added in this commit. */
#define FLOE_ICEBERG_NONE_ADDED INT32_MIN

/** One commit in progress. */
typedef struct floe_iceberg_txn {
    floe_iceberg_metadata_t md;   /* the table being changed; owned */
    bool is_create;               /* there was no table: this commit creates it */
    int64_t commit_ms;            /* this commit's time: last-updated-ms, and snapshot-log entries
                                     when the commit added no snapshot */
    int64_t added_snapshot_ms;    /* timestamp-ms of the snapshot last added, or 0: Java's
                                     Builder.addSnapshot sets lastUpdatedMillis to it, and moving
                                     main logs that time, so time travel finds the snapshot as of
                                     its own timestamp */
    int32_t last_added_schema_id; /* what -1 means in set-current-schema, or FLOE_ICEBERG_NONE_ADDED */
    int32_t last_added_spec_id;   /* ... in set-default-spec */
    int32_t last_added_order_id;  /* ... in set-default-sort-order */
    int64_t *added_snapshots;     /* snapshot ids added by this commit; owned */
    size_t n_added_snapshots;
    size_t cap_added_snapshots;
    bool removed_snapshots; /* some snapshot was removed by this commit */
} floe_iceberg_txn_t;

/** Starts a transaction over `md` (ownership passes to the txn); release with
 * floe_iceberg_txn_dispose. */
void floe_iceberg_txn_init(floe_iceberg_txn_t *txn, floe_iceberg_metadata_t *md, bool is_create, int64_t commit_ms);

/** Frees what the transaction owns, the metadata included. */
void floe_iceberg_txn_dispose(floe_iceberg_txn_t *txn);

/** True when this commit added the snapshot `id`. */
bool floe_iceberg_txn_added(const floe_iceberg_txn_t *txn, int64_t id);

/**
 * Applies one TableUpdate object ({"action": ..., ...}) to txn->md. Returns 0, or
 * FLOE_ICEBERG_EINVALID with err set; after a failure txn->md may be partly changed and must be
 * discarded.
 */
int floe_iceberg_update_apply(floe_iceberg_txn_t *txn, const cJSON *update, floe_iceberg_error_t *err /* OUT */);

/** True when `text` is a UUID in the 8-4-4-4-12 hexadecimal form. */
bool floe_iceberg_uuid_is_valid(const char *text);

#endif

/*
 * Row lineage (Iceberg table spec v3, "Row Lineage") for the snapshots Floe's own jobs commit:
 * which first row id each data file of a manifest inherits, and which first row id each manifest
 * of a new manifest list gets. Maintenance (compaction, record expiration) rewrites manifests; a
 * file that inherited its first row id from its manifest's place in the old list would get other
 * row ids in a rewritten manifest, so the rewrite writes the inherited value out first.
 *
 * Pure: structs in, structs out. Not for the catalog's next-row-id bookkeeping on add-snapshot
 * (iceberg_update.c), nor for reading the _row_id column of data files.
 *
 * Design notes
 * ------------
 * 1. Inheritance (spec "First Row ID Inheritance"): a data file entry with a null first_row_id in
 *    a manifest whose list entry has a first_row_id gets that value plus the record counts of the
 *    entries before it that inherit too. Only live entries (ADDED, EXISTING) are counted, the
 *    rows a manifest list writer counts (added_rows_count + existing_rows_count); writers that
 *    rewrite a manifest put its DELETED entries last, so either reading gives the same ids.
 * 2. Assignment (as Iceberg Java's v3 manifest list writer): each data manifest of a new list that
 *    has no first_row_id (a manifest this commit wrote, or one written before the table was v3)
 *    gets the table's next-row-id, which then grows by its added and existing rows. Delete
 *    manifests get none. The snapshot's first-row-id is the next-row-id before the list, and its
 *    added-rows what the list used; this may count rows that already have ids (files whose entries
 *    carry explicit ones), which the spec allows: ids must be unique, not dense.
 */
#ifndef FLOE_ICEBERG_ROW_LINEAGE_H
#define FLOE_ICEBERG_ROW_LINEAGE_H

#include <stddef.h>
#include <stdint.h>

#include "iceberg/manifest.h"

/**
 * Writes out the first_row_id every live data entry of m inherits from mf (design note 1). Does
 * nothing when mf has no first_row_id (a manifest from before the table was v3). Entries that
 * already have one keep it.
 */
void floe_iceberg_row_ids_inherit(floe_iceberg_manifest_t *m, const floe_iceberg_manifest_file_t *mf);

/**
 * Gives each data manifest in files[0..n) without a first_row_id one from *next_row_id and
 * advances *next_row_id past its added and existing rows (design note 2). Returns the rows
 * assigned (the snapshot's added-rows).
 */
int64_t floe_iceberg_row_ids_assign(floe_iceberg_manifest_file_t *files, size_t n, int64_t *next_row_id /* IN/OUT */);

#endif

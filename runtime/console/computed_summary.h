/*
 * The counts of the table page's snapshots whose summary lacks them (docs/console.md): the
 * Iceberg spec requires only `operation` in a summary, and some engines (DuckDB 1.4) write no
 * more, which the page would show as "nothing changed". For each such snapshot, the counts an
 * Iceberg Java summary holds (added and deleted files and records, totals), computed from the
 * snapshot's manifest list and manifests (iceberg/snapshot_counts.h).
 *
 * The files are read on the serving thread, as the table route reads metadata.json and the
 * object route the files the browser previews; each manifest once per request, and at most
 * FLOE_CONSOLE_COMPUTED_BYTES in all, so a long history of small commits costs one pass over its
 * manifests. Only files inside the table's warehouse are read.
 */
#ifndef FLOE_CONSOLE_COMPUTED_SUMMARY_H
#define FLOE_CONSOLE_COMPUTED_SUMMARY_H

#include <cjson/cJSON.h>

#include "catalog/table.h"
#include "console/request.h"

/** The most manifest list and manifest bytes one table request reads to compute counts. */
#define FLOE_CONSOLE_COMPUTED_BYTES ((size_t)64 << 20)

/**
 * Writes "computedSummaries": an object keyed by the id (digits) of each snapshot of `metadata`
 * (a metadata.json parsed with floe_iceberg_json_parse) whose summary has no total-records, each
 * {"computedFrom": "manifests", <Iceberg summary counts as text>}, or {"error": why} when its
 * files cannot be read.
 */
void floe_console_write_computed_summaries(floe_console_req_t *r, floe_json_t *json, const floe_table_row_t *t,
                                           const cJSON *metadata);

#endif

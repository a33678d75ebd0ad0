/*
 * Tests of runtime/iceberg/row_lineage.c: the first row ids a manifest's files inherit, written
 * out, and those a new manifest list's manifests get (Iceberg spec v3, "Row Lineage").
 */
#include <string.h>

#include "harness.h"
#include "iceberg/row_lineage.h"

static floe_iceberg_manifest_entry_t lineage_entry(int32_t status, int32_t content, int64_t rows)
{
    floe_iceberg_manifest_entry_t e;

    memset(&e, 0, sizeof(e));
    e.status = status;
    e.file.content = content;
    e.file.record_count = rows;
    return e;
}

TEST(row_lineage_inherited_ids_skip_explicit_deleted_and_delete_entries)
{
    floe_iceberg_manifest_entry_t entries[5] = {
        lineage_entry(FLOE_ICEBERG_ENTRY_ADDED, FLOE_ICEBERG_CONTENT_DATA, 10),
        lineage_entry(FLOE_ICEBERG_ENTRY_EXISTING, FLOE_ICEBERG_CONTENT_DATA, 5),
        lineage_entry(FLOE_ICEBERG_ENTRY_DELETED, FLOE_ICEBERG_CONTENT_DATA, 7),
        lineage_entry(FLOE_ICEBERG_ENTRY_ADDED, FLOE_ICEBERG_CONTENT_DATA, 3),
        lineage_entry(FLOE_ICEBERG_ENTRY_ADDED, FLOE_ICEBERG_CONTENT_DATA, 4),
    };
    floe_iceberg_manifest_t m = {.entries = entries, .n_entries = 5};
    floe_iceberg_manifest_file_t mf = {.content = 0, .has_first_row_id = true, .first_row_id = 100};

    entries[1].file.has_first_row_id = true; /* carries its own: keeps it, consumes nothing */
    entries[1].file.first_row_id = 7;
    floe_iceberg_row_ids_inherit(&m, &mf);
    CHECK(entries[0].file.has_first_row_id && entries[0].file.first_row_id == 100, "the first file starts the manifest's ids");
    CHECK(entries[1].file.first_row_id == 7, "an explicit first row id is kept");
    CHECK(!entries[2].file.has_first_row_id, "a DELETED entry inherits nothing");
    CHECK(entries[3].file.first_row_id == 110, "the next inheriting file follows the rows before it");
    CHECK(entries[4].file.first_row_id == 113, "and the one after it too");
}

TEST(row_lineage_manifest_without_first_row_id_leaves_entries_null)
{
    floe_iceberg_manifest_entry_t e = lineage_entry(FLOE_ICEBERG_ENTRY_ADDED, FLOE_ICEBERG_CONTENT_DATA, 10);
    floe_iceberg_manifest_t m = {.entries = &e, .n_entries = 1};
    floe_iceberg_manifest_file_t mf = {.content = 0};

    floe_iceberg_row_ids_inherit(&m, &mf);
    CHECK(!e.file.has_first_row_id, "a manifest from before v3 gives its files no ids");
}

TEST(row_lineage_assign_gives_new_data_manifests_ids_from_next_row_id)
{
    floe_iceberg_manifest_file_t files[3] = {
        {.content = 0, .added_rows_count = 4, .existing_rows_count = 6},
        {.content = 1, .added_rows_count = 2},                          /* deletes: no ids */
        {.content = 0, .has_first_row_id = true, .first_row_id = 3, .added_rows_count = 9}, /* carried */
    };
    int64_t next = 50;
    int64_t added = floe_iceberg_row_ids_assign(files, 3, &next);

    CHECK(files[0].has_first_row_id && files[0].first_row_id == 50, "a new data manifest starts at next-row-id");
    CHECK(!files[1].has_first_row_id, "a delete manifest gets no first row id");
    CHECK(files[2].first_row_id == 3, "a carried manifest keeps its first row id");
    CHECK(added == 10 && next == 60, "next-row-id grows by the added and existing rows assigned");
}

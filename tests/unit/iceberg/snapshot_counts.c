/*
 * Tests of runtime/iceberg/snapshot_counts.c: a snapshot's counts added up from its manifests,
 * for a summary that lacks them. A manifest's ADDED and DELETED entries count for the snapshot
 * that wrote it only; its live entries count in the totals of every snapshot that lists it.
 */
#include <string.h>

#include "harness.h"
#include "iceberg/snapshot_counts.h"

static floe_iceberg_manifest_entry_t counts_entry(int32_t status, int32_t content, int64_t rows, int64_t size)
{
    floe_iceberg_manifest_entry_t e;

    memset(&e, 0, sizeof(e));
    e.status = status;
    e.file.content = content;
    e.file.record_count = rows;
    e.file.file_size_in_bytes = size;
    return e;
}

TEST(snapshot_counts_come_from_the_manifests_the_snapshot_wrote_and_lists)
{
    /* snapshot 1 appended a file of 10 rows; snapshot 2 deleted it, added one of 4 rows and a
     * position delete file, and kept one of 6 rows from an older manifest */
    floe_iceberg_manifest_entry_t older[1] = {counts_entry(FLOE_ICEBERG_ENTRY_ADDED, FLOE_ICEBERG_CONTENT_DATA, 6, 60)};
    floe_iceberg_manifest_entry_t written[3] = {
        counts_entry(FLOE_ICEBERG_ENTRY_DELETED, FLOE_ICEBERG_CONTENT_DATA, 10, 100),
        counts_entry(FLOE_ICEBERG_ENTRY_ADDED, FLOE_ICEBERG_CONTENT_DATA, 4, 40),
        counts_entry(FLOE_ICEBERG_ENTRY_ADDED, FLOE_ICEBERG_CONTENT_POSITION_DELETES, 2, 20),
    };
    floe_iceberg_manifest_t m_older = {.entries = older, .n_entries = 1};
    floe_iceberg_manifest_t m_written = {.entries = written, .n_entries = 3};
    floe_iceberg_manifest_file_t l_older = {.added_snapshot_id = 1}, l_written = {.added_snapshot_id = 2};
    floe_iceberg_manifest_counts_t c_older, c_written;
    floe_iceberg_snapshot_counts_t s;

    floe_iceberg_manifest_counts(&m_older, &c_older);
    floe_iceberg_manifest_counts(&m_written, &c_written);
    CHECK(c_written.removed.data_files == 1 && c_written.removed.records == 10, "a DELETED entry counts as removed");
    CHECK(c_written.live.data_files == 1 && c_written.live.delete_files == 1, "ADDED entries are live");

    memset(&s, 0, sizeof(s));
    floe_iceberg_snapshot_counts_add(&s, 2, &l_older, &c_older);
    floe_iceberg_snapshot_counts_add(&s, 2, &l_written, &c_written);
    CHECK(s.added.data_files == 1 && s.added.records == 4,
          "only the manifest the snapshot wrote counts as added, not the older manifest's ADDED entry");
    CHECK(s.added.files_size == 60, "the added size counts data and delete files, as Iceberg Java's does");
    CHECK(s.removed.data_files == 1 && s.removed.records == 10 && s.removed.files_size == 100, "its DELETED entry");
    CHECK(s.added.delete_files == 1 && s.added.position_deletes == 2, "delete files are counted apart from data");
    CHECK(s.total.data_files == 2 && s.total.records == 10, "totals count every live data file of every manifest");
    CHECK(s.total.files_size == 120 && s.total.delete_files == 1 && s.total.position_deletes == 2,
          "the total size counts data and delete files");
}

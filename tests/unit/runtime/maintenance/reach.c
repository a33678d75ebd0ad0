/* Tests of runtime/maintenance/reach.c's location sets and its walk through a reader. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "harness.h"
#include "iceberg/manifest.h"
#include "maintenance/reach.h"

TEST(reach_set_finds_what_was_added_sorted_or_not)
{
    floe_reach_set_t set = {0};
    char path[64];

    for (int i = 0; i < 500; i++) {
        snprintf(path, sizeof(path), "s3://w/data/%03d.parquet", (i * 37) % 500);
        floe_reach_set_add(&set, path);
        floe_reach_set_add(&set, path); /* duplicates are dropped */
    }
    CHECK(floe_reach_set_has(&set, "s3://w/data/123.parquet"), "an added path is found before sealing");
    floe_reach_set_seal(&set);
    CHECK(set.n == 500, "sealing drops duplicates");
    CHECK(floe_reach_set_has(&set, "s3://w/data/000.parquet") && floe_reach_set_has(&set, "s3://w/data/499.parquet"),
          "every added path is found");
    CHECK(!floe_reach_set_has(&set, "s3://w/data/500.parquet"), "a path never added is not");
    floe_reach_set_add(&set, "s3://w/late");
    CHECK(floe_reach_set_has(&set, "s3://w/late"), "a path added after sealing is found too");
    floe_reach_set_dispose(&set);
}

/* ---- the walk through a reader (what replication's prune uses) ---- */

#define READER_FILES 4

/* A reader over files held in memory; a path it lacks is missing. */
typedef struct memory_reader {
    floe_reach_reader_t super;
    const char *paths[READER_FILES];
    uint8_t *data[READER_FILES];
    size_t len[READER_FILES];
    bool is_missing_ok;
    char message[512];
} memory_reader_t;

static int memory_read(floe_reach_reader_t *rd, const char *const *locations, size_t n, uint8_t **data, size_t *len)
{
    memory_reader_t *m = (memory_reader_t *)rd;

    for (size_t i = 0; i < n; i++) {
        size_t k = 0;
        while (k < READER_FILES && (m->paths[k] == NULL || strcmp(m->paths[k], locations[i]) != 0))
            k++;
        data[i] = NULL;
        len[i] = 0;
        if (k < READER_FILES) {
            data[i] = floe_xmalloc(m->len[k] + 1);
            memcpy(data[i], m->data[k], m->len[k]);
            len[i] = m->len[k];
        } else if (!m->is_missing_ok) {
            for (size_t j = 0; j < i; j++)
                free(data[j]);
            snprintf(m->message, sizeof(m->message), "%s does not exist", locations[i]);
            return FLOE_EFAIL;
        }
    }
    return FLOE_OK;
}

static void memory_fail(floe_reach_reader_t *rd, const char *message)
{
    snprintf(((memory_reader_t *)rd)->message, sizeof(((memory_reader_t *)rd)->message), "%s", message);
}

/* Writes a one-entry manifest naming `data_path` into slot k of the reader. */
static int put_manifest(memory_reader_t *m, size_t k, const char *path, const char *data_path)
{
    floe_iceberg_manifest_entry_t e = {.status = FLOE_ICEBERG_ENTRY_ADDED, .has_snapshot_id = true, .snapshot_id = 1,
                                       .file = {.file_path = (char *)data_path, .file_format = "PARQUET",
                                                .record_count = 1, .file_size_in_bytes = 10}};
    floe_iceberg_manifest_t man = {.schema_json = "{\"type\":\"struct\",\"schema-id\":0,\"fields\":[]}",
                                   .partition_spec_json = "[]", .format_version = 2, .entries = &e, .n_entries = 1};
    char err[256];

    m->paths[k] = path;
    return floe_iceberg_manifest_write(&man, &m->data[k], &m->len[k], err, sizeof(err));
}

/* Writes a manifest list of the manifests in slots 0..n into slot k. */
static int put_list(memory_reader_t *m, size_t k, const char *path, size_t n)
{
    floe_iceberg_manifest_file_t files[READER_FILES];
    floe_iceberg_manifest_list_t l = {.snapshot_id = 1, .sequence_number = 1, .format_version = 2, .files = files,
                                      .n_files = n};
    char err[256];

    for (size_t i = 0; i < n; i++)
        files[i] = (floe_iceberg_manifest_file_t){.manifest_path = (char *)m->paths[i],
                                                  .manifest_length = (int64_t)m->len[i], .sequence_number = 1,
                                                  .min_sequence_number = 1, .added_snapshot_id = 1};
    m->paths[k] = path;
    return floe_iceberg_manifest_list_write(&l, &m->data[k], &m->len[k], err, sizeof(err));
}

TEST(reach_through_a_reader_skips_what_a_tolerant_reader_lacks)
{
    memory_reader_t m = {.super = {memory_read, memory_fail}};
    cJSON *snapshot = cJSON_Parse("{\"snapshot-id\":1,\"manifest-list\":\"s3://w/metadata/snap-1.avro\"}");
    const cJSON *snapshots[] = {snapshot};
    floe_reach_t r = {0};

    CHECK(put_manifest(&m, 0, "s3://w/metadata/m1.avro", "s3://w/data/d1.parquet") == 0 &&
              put_manifest(&m, 1, "s3://w/metadata/m2.avro", "s3://w/data/d2.parquet") == 0 &&
              put_list(&m, 2, "s3://w/metadata/snap-1.avro", 2) == 0,
          "a manifest list of two manifests is written");
    CHECK(floe_reach_snapshots_from(&m.super, snapshots, 1, FLOE_REACH_LIVE_ENTRIES, NULL, &r) == FLOE_OK && r.lists.n == 1 &&
              r.manifests.n == 2 && r.files.n == 2 && floe_reach_set_has(&r.files, "s3://w/data/d2.parquet"),
          "the snapshot reaches its list, both manifests and both data files");
    floe_reach_dispose(&r);

    m.paths[1] = "s3://w/metadata/gone.avro"; /* m2 is missing now */
    CHECK(floe_reach_snapshots_from(&m.super, snapshots, 1, FLOE_REACH_LIVE_ENTRIES, NULL, &r) == FLOE_EFAIL &&
              strstr(m.message, "m2.avro") != NULL,
          "a strict reader fails the reach on a missing manifest, naming it");
    floe_reach_dispose(&r);
    m.is_missing_ok = true;
    CHECK(floe_reach_snapshots_from(&m.super, snapshots, 1, FLOE_REACH_LIVE_ENTRIES, NULL, &r) == FLOE_OK && r.manifests.n == 1 &&
              r.files.n == 1 && floe_reach_set_has(&r.files, "s3://w/data/d1.parquet"),
          "a tolerant reader skips the missing manifest and keeps the rest");
    floe_reach_dispose(&r);

    m.paths[1] = "s3://w/metadata/m2.avro";
    m.len[1] = 3; /* not Avro */
    m.is_missing_ok = false;
    CHECK(floe_reach_snapshots_from(&m.super, snapshots, 1, FLOE_REACH_LIVE_ENTRIES, NULL, &r) == FLOE_EFAIL &&
              strstr(m.message, "cannot read the manifest s3://w/metadata/m2.avro") != NULL,
          "a file that is not a manifest fails the reach through the reader's fail");
    floe_reach_dispose(&r);
    for (size_t i = 0; i < READER_FILES; i++)
        free(m.data[i]);
    cJSON_Delete(snapshot);
}

/* Writes a manifest of three entries into slot k: d-added.parquet ADDED, d-existing.parquet EXISTING
 * and d-replaced.parquet DELETED, as a compaction's manifest lists the files it replaced. */
static int put_compaction_manifest(memory_reader_t *m, size_t k, const char *path)
{
    static const struct {
        const char *path;
        int32_t status;
    } rows[] = {{"s3://w/data/d-added.parquet", FLOE_ICEBERG_ENTRY_ADDED},
                {"s3://w/data/d-existing.parquet", FLOE_ICEBERG_ENTRY_EXISTING},
                {"s3://w/data/d-replaced.parquet", FLOE_ICEBERG_ENTRY_DELETED}};
    floe_iceberg_manifest_entry_t e[3];
    floe_iceberg_manifest_t man = {.schema_json = "{\"type\":\"struct\",\"schema-id\":0,\"fields\":[]}",
                                   .partition_spec_json = "[]", .format_version = 2, .entries = e, .n_entries = 3};
    char err[256];

    for (size_t i = 0; i < 3; i++)
        e[i] = (floe_iceberg_manifest_entry_t){.status = rows[i].status, .has_snapshot_id = true, .snapshot_id = 2,
                                               .file = {.file_path = (char *)rows[i].path, .file_format = "PARQUET",
                                                        .record_count = 1, .file_size_in_bytes = 10}};
    m->paths[k] = path;
    return floe_iceberg_manifest_write(&man, &m->data[k], &m->len[k], err, sizeof(err));
}

TEST(reach_keeps_live_entries_and_frees_deleted_ones_too)
{
    memory_reader_t m = {.super = {memory_read, memory_fail}};
    cJSON *snapshot = cJSON_Parse("{\"snapshot-id\":2,\"manifest-list\":\"s3://w/metadata/snap-2.avro\"}");
    const cJSON *snapshots[] = {snapshot};
    floe_reach_t kept = {0}, freed = {0}, none = {0};

    CHECK(put_compaction_manifest(&m, 0, "s3://w/metadata/m-compaction.avro") == 0 &&
              put_list(&m, 1, "s3://w/metadata/snap-2.avro", 1) == 0,
          "a compaction's manifest and its manifest list are written");
    CHECK(floe_reach_snapshots_from(&m.super, snapshots, 1, FLOE_REACH_LIVE_ENTRIES, NULL, &kept) == FLOE_OK &&
              kept.manifests.n == 1 && kept.files.n == 2,
          "a retained snapshot keeps the files of its live entries only");
    CHECK(floe_reach_set_has(&kept.files, "s3://w/data/d-added.parquet") &&
              floe_reach_set_has(&kept.files, "s3://w/data/d-existing.parquet"),
          "ADDED and EXISTING entries keep their files");
    CHECK(!floe_reach_set_has(&kept.files, "s3://w/data/d-replaced.parquet"),
          "a file only a DELETED entry names is kept by no snapshot");
    CHECK(floe_reach_snapshots_from(&m.super, snapshots, 1, FLOE_REACH_EVERY_ENTRY, NULL, &freed) == FLOE_OK &&
              freed.files.n == 3 && floe_reach_set_has(&freed.files, "s3://w/data/d-replaced.parquet"),
          "an expired snapshot may free every file its manifests name, DELETED entries included");
    floe_reach_set_seal(&kept.manifests);
    CHECK(floe_reach_snapshots_from(&m.super, snapshots, 1, FLOE_REACH_EVERY_ENTRY, &kept, &none) == FLOE_OK &&
              none.manifests.n == 0 && none.files.n == 0,
          "a manifest a retained snapshot also lists is not read again for the expired ones");
    floe_reach_dispose(&kept);
    floe_reach_dispose(&freed);
    floe_reach_dispose(&none);
    for (size_t i = 0; i < READER_FILES; i++)
        free(m.data[i]);
    cJSON_Delete(snapshot);
}

/* Writes a v3 delete manifest into slot k: two deletion vectors in one Puffin file (one live, one
 * DELETED) and a live one in another, as Spark's merge-on-read writes them. */
static int put_deletion_vector_manifest(memory_reader_t *m, size_t k, const char *path)
{
    static const struct {
        const char *puffin, *data;
        int32_t status;
        int64_t offset;
    } rows[] = {{"s3://w/data/dv-a.puffin", "s3://w/data/d1.parquet", FLOE_ICEBERG_ENTRY_ADDED, 4},
                {"s3://w/data/dv-a.puffin", "s3://w/data/d2.parquet", FLOE_ICEBERG_ENTRY_DELETED, 77},
                {"s3://w/data/dv-b.puffin", "s3://w/data/d3.parquet", FLOE_ICEBERG_ENTRY_EXISTING, 4}};
    floe_iceberg_manifest_entry_t e[3];
    floe_iceberg_manifest_t man = {.schema_json = "{\"type\":\"struct\",\"schema-id\":0,\"fields\":[]}",
                                   .partition_spec_json = "[]", .format_version = 3, .content = 1, .entries = e,
                                   .n_entries = 3};
    char err[256];

    for (size_t i = 0; i < 3; i++)
        e[i] = (floe_iceberg_manifest_entry_t){
            .status = rows[i].status, .has_snapshot_id = true, .snapshot_id = 3,
            .file = {.content = FLOE_ICEBERG_CONTENT_POSITION_DELETES, .file_path = (char *)rows[i].puffin,
                     .file_format = "PUFFIN", .record_count = 2, .file_size_in_bytes = 200,
                     .referenced_data_file = (char *)rows[i].data, .has_content_offset = true,
                     .content_offset = rows[i].offset, .has_content_size_in_bytes = true,
                     .content_size_in_bytes = 73}};
    m->paths[k] = path;
    return floe_iceberg_manifest_write(&man, &m->data[k], &m->len[k], err, sizeof(err));
}

TEST(reach_counts_puffin_files_of_live_deletion_vectors)
{
    memory_reader_t m = {.super = {memory_read, memory_fail}};
    cJSON *snapshot = cJSON_Parse("{\"snapshot-id\":3,\"manifest-list\":\"s3://w/metadata/snap-3.avro\"}");
    const cJSON *snapshots[] = {snapshot};
    floe_reach_t kept = {0};

    CHECK(put_deletion_vector_manifest(&m, 0, "s3://w/metadata/m-dv.avro") == 0 &&
              put_list(&m, 1, "s3://w/metadata/snap-3.avro", 1) == 0,
          "a v3 delete manifest of deletion vectors and its list are written");
    CHECK(floe_reach_snapshots_from(&m.super, snapshots, 1, FLOE_REACH_LIVE_ENTRIES, NULL, &kept) == FLOE_OK,
          "the snapshot's reach is read");
    floe_reach_set_seal(&kept.files);
    CHECK(kept.files.n == 2 && floe_reach_set_has(&kept.files, "s3://w/data/dv-a.puffin") &&
              floe_reach_set_has(&kept.files, "s3://w/data/dv-b.puffin"),
          "each Puffin file a live deletion vector points into is referenced, once, though a DELETED vector "
          "shares one of them");
    floe_reach_dispose(&kept);
    for (size_t i = 0; i < READER_FILES; i++)
        free(m.data[i]);
    cJSON_Delete(snapshot);
}

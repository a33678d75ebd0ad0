/*
 * The counts of snapshot_counts.h, kept as Iceberg Java's SnapshotSummary keeps them: records are
 * data files' rows; position and equality deletes are delete files' rows; files_size is every
 * file's size.
 */
#include <stdio.h>
#include <string.h>

#include "iceberg/snapshot_counts.h"

static void count_file(floe_iceberg_file_counts_t *c, const floe_iceberg_data_file_t *f)
{
    c->files_size += f->file_size_in_bytes;
    if (f->content == FLOE_ICEBERG_CONTENT_DATA) {
        c->data_files++;
        c->records += f->record_count;
        return;
    }
    c->delete_files++;
    if (f->content == FLOE_ICEBERG_CONTENT_POSITION_DELETES)
        c->position_deletes += f->record_count;
    else
        c->equality_deletes += f->record_count;
}

void floe_iceberg_manifest_counts(const floe_iceberg_manifest_t *m, floe_iceberg_manifest_counts_t *out)
{
    memset(out, 0, sizeof(*out));
    for (size_t i = 0; i < m->n_entries; i++) {
        const floe_iceberg_manifest_entry_t *e = &m->entries[i];
        if (e->status == FLOE_ICEBERG_ENTRY_DELETED) {
            count_file(&out->removed, &e->file);
            continue;
        }
        count_file(&out->live, &e->file);
        if (e->status == FLOE_ICEBERG_ENTRY_ADDED)
            count_file(&out->added, &e->file);
    }
}

static void add_counts(floe_iceberg_file_counts_t *to, const floe_iceberg_file_counts_t *c)
{
    to->data_files += c->data_files;
    to->delete_files += c->delete_files;
    to->records += c->records;
    to->files_size += c->files_size;
    to->position_deletes += c->position_deletes;
    to->equality_deletes += c->equality_deletes;
}

void floe_iceberg_snapshot_counts_add(floe_iceberg_snapshot_counts_t *s, int64_t snapshot_id,
                                      const floe_iceberg_manifest_file_t *listed,
                                      const floe_iceberg_manifest_counts_t *counts)
{
    add_counts(&s->total, &counts->live);
    if (listed->added_snapshot_id != snapshot_id)
        return;
    add_counts(&s->added, &counts->added);
    add_counts(&s->removed, &counts->removed);
}

static void write_count(floe_json_t *json, const char *key, int64_t v)
{
    char text[24];

    snprintf(text, sizeof(text), "%lld", (long long)v);
    floe_json_key(json, key);
    floe_json_string(json, text);
}

void floe_iceberg_snapshot_counts_write(floe_json_t *json, const floe_iceberg_snapshot_counts_t *s)
{
    write_count(json, "added-data-files", s->added.data_files);
    write_count(json, "deleted-data-files", s->removed.data_files);
    write_count(json, "added-records", s->added.records);
    write_count(json, "deleted-records", s->removed.records);
    write_count(json, "added-files-size", s->added.files_size);
    write_count(json, "removed-files-size", s->removed.files_size);
    write_count(json, "added-delete-files", s->added.delete_files);
    write_count(json, "removed-delete-files", s->removed.delete_files);
    write_count(json, "added-position-deletes", s->added.position_deletes);
    write_count(json, "removed-position-deletes", s->removed.position_deletes);
    write_count(json, "added-equality-deletes", s->added.equality_deletes);
    write_count(json, "removed-equality-deletes", s->removed.equality_deletes);
    write_count(json, "total-data-files", s->total.data_files);
    write_count(json, "total-delete-files", s->total.delete_files);
    write_count(json, "total-records", s->total.records);
    write_count(json, "total-files-size", s->total.files_size);
    write_count(json, "total-position-deletes", s->total.position_deletes);
    write_count(json, "total-equality-deletes", s->total.equality_deletes);
}

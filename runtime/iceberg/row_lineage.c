/*
 * Row lineage for the snapshots Floe's jobs commit (row_lineage.h): inherited first row ids
 * written out, and first row ids assigned to a new manifest list's manifests.
 */
#include "iceberg/row_lineage.h"

void floe_iceberg_row_ids_inherit(floe_iceberg_manifest_t *m, const floe_iceberg_manifest_file_t *mf)
{
    int64_t next;

    if (!mf->has_first_row_id || mf->content != 0)
        return;
    next = mf->first_row_id;
    for (size_t i = 0; i < m->n_entries; i++) {
        floe_iceberg_data_file_t *f = &m->entries[i].file;
        if (m->entries[i].status == FLOE_ICEBERG_ENTRY_DELETED || f->content != FLOE_ICEBERG_CONTENT_DATA ||
            f->has_first_row_id)
            continue;
        f->has_first_row_id = true;
        f->first_row_id = next;
        next += f->record_count;
    }
}

int64_t floe_iceberg_row_ids_assign(floe_iceberg_manifest_file_t *files, size_t n, int64_t *next_row_id)
{
    int64_t first = *next_row_id;

    for (size_t i = 0; i < n; i++) {
        floe_iceberg_manifest_file_t *mf = &files[i];
        if (mf->content != 0 || mf->has_first_row_id)
            continue;
        mf->has_first_row_id = true;
        mf->first_row_id = *next_row_id;
        *next_row_id += mf->added_rows_count + mf->existing_rows_count;
    }
    return *next_row_id - first;
}

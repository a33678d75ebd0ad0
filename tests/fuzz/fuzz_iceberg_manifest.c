/*
 * libFuzzer harness for Iceberg manifests and manifest lists (runtime/iceberg/manifest.h): the
 * input goes to both readers. Besides the sanitizers it checks the module's promises: a refusal
 * carries a reason and leaves nothing allocated; what reads and can be written reads back with
 * as many entries (format version 3 for a v3 file, else 2), and writing that again gives the same
 * bytes; every pair of bounds of a data file can be compared under every type. Seeds:
 * tests/fuzz/corpus/iceberg_manifest, the avsc fixtures of tests/fixtures/avro/write-fixtures.mjs,
 * and v3 files Floe wrote (deletion vectors, row lineage).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "iceberg/manifest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define ERR_MAX 256

static void expect(int cond)
{
    if (!cond)
        abort();
}

static const char *const types[] = {"int", "long", "float", "double", "decimal(9, 2)", "string", "boolean", "uuid"};

static void compare_bounds(const floe_iceberg_data_file_t *f)
{
    for (size_t i = 0; i < f->n_lower_bounds; i++)
        for (size_t t = 0; t < sizeof(types) / sizeof(types[0]); t++) {
            floe_iceberg_bytes_t lo = f->lower_bounds[i].value;
            floe_iceberg_bytes_t hi = i < f->n_upper_bounds ? f->upper_bounds[i].value : lo;
            int c = floe_iceberg_value_compare(types[t], lo, hi);
            expect((c < 0) == (floe_iceberg_value_compare(types[t], hi, lo) > 0));
            expect(floe_iceberg_value_compare(types[t], lo, lo) == 0);
        }
}

static void exercise_manifest(const uint8_t *data, size_t size)
{
    floe_iceberg_manifest_t m, again;
    uint8_t *first = NULL, *second = NULL;
    size_t first_len, second_len;
    char err[ERR_MAX] = "";

    if (floe_iceberg_manifest_read(data, size, &m, err, sizeof(err)) != 0) {
        expect(err[0] != '\0' && m.arena == NULL && m.entries == NULL);
        return;
    }
    for (size_t i = 0; i < m.n_entries; i++)
        compare_bounds(&m.entries[i].file);
    if (floe_iceberg_manifest_write(&m, &first, &first_len, err, sizeof(err)) == 0) {
        if (floe_iceberg_manifest_read(first, first_len, &again, err, sizeof(err)) != 0)
            abort(); /* Floe wrote a manifest it cannot read back */
        expect(again.n_entries == m.n_entries && again.format_version == (m.format_version >= 3 ? 3 : 2));
        expect(floe_iceberg_manifest_write(&again, &second, &second_len, err, sizeof(err)) == 0);
        expect(second_len == first_len && memcmp(first, second, first_len) == 0);
        floe_iceberg_manifest_dispose(&again);
    } else {
        expect(err[0] != '\0');
    }
    free(first);
    free(second);
    floe_iceberg_manifest_dispose(&m);
}

static void exercise_list(const uint8_t *data, size_t size)
{
    floe_iceberg_manifest_list_t l, again;
    uint8_t *first = NULL, *second = NULL;
    size_t first_len, second_len;
    char err[ERR_MAX] = "";

    if (floe_iceberg_manifest_list_read(data, size, &l, err, sizeof(err)) != 0) {
        expect(err[0] != '\0' && l.arena == NULL && l.files == NULL);
        return;
    }
    if (floe_iceberg_manifest_list_write(&l, &first, &first_len, err, sizeof(err)) == 0) {
        if (floe_iceberg_manifest_list_read(first, first_len, &again, err, sizeof(err)) != 0)
            abort(); /* Floe wrote a manifest list it cannot read back */
        expect(again.n_files == l.n_files && again.snapshot_id == l.snapshot_id);
        expect(floe_iceberg_manifest_list_write(&again, &second, &second_len, err, sizeof(err)) == 0);
        expect(second_len == first_len && memcmp(first, second, first_len) == 0);
        floe_iceberg_manifest_list_dispose(&again);
    } else {
        expect(err[0] != '\0');
    }
    free(first);
    free(second);
    floe_iceberg_manifest_list_dispose(&l);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    exercise_manifest(data, size);
    exercise_list(data, size);
    return 0;
}

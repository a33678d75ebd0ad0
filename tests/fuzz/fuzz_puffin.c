/*
 * libFuzzer harness for the Puffin reader (runtime/iceberg/puffin.h) and deletion-vector decoding
 * (deletion_vector.h). The input is read as a Puffin file; every blob it lists is decoded as a
 * deletion vector, and the whole input is decoded as one too (so the harness also explores the
 * vector layout directly). Besides the sanitizers it checks the modules' promises: a refusal has a
 * reason and leaves nothing behind; every listed blob lies inside the file; decoded positions
 * ascend and stay under the limit; re-encoding them gives a blob that decodes to the same set; a
 * footer written again (floe_puffin_write, a property changed) reads back with the same blobs at
 * the same offsets and the bytes before the footer unchanged.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "iceberg/deletion_vector.h"
#include "iceberg/puffin.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_POSITIONS 100000

static void expect(int cond)
{
    if (!cond)
        abort();
}

static void decode_vector(const uint8_t *blob, size_t len)
{
    floe_iceberg_dv_t dv, again;
    char err[256] = "";
    uint8_t *encoded;
    size_t encoded_len;

    if (floe_iceberg_dv_decode(blob, len, MAX_POSITIONS, &dv, err, sizeof(err)) != 0) {
        expect(err[0] != '\0' && dv.positions == NULL && dv.n == 0);
        return;
    }
    expect(dv.n <= MAX_POSITIONS);
    for (size_t i = 1; i < dv.n; i++)
        expect(dv.positions[i] > dv.positions[i - 1]);
    encoded = floe_iceberg_dv_encode(dv.positions, dv.n, &encoded_len);
    expect(floe_iceberg_dv_decode(encoded, encoded_len, MAX_POSITIONS, &again, err, sizeof(err)) == 0);
    expect(again.n == dv.n && (dv.n == 0 || memcmp(again.positions, dv.positions, dv.n * sizeof(uint64_t)) == 0));
    for (size_t i = 0; i < dv.n; i++)
        expect(floe_iceberg_dv_contains(&again, dv.positions[i]));
    free(encoded);
    floe_iceberg_dv_dispose(&again);
    floe_iceberg_dv_dispose(&dv);
}

static void write_again(const uint8_t *data, size_t size, floe_puffin_t *p)
{
    floe_puffin_t again;
    uint8_t *out = NULL;
    size_t out_len = 0, blobs = size - (size_t)p->footer_size;
    char err[256] = "";

    if (p->n_blobs > 0)
        floe_puffin_set_blob_property(p, 0, "referenced-data-file", "s3://replica/data/a.parquet");
    if (floe_puffin_write(data, size, p, &out, &out_len, err, sizeof(err)) != 0) {
        expect(err[0] != '\0');
        return;
    }
    expect(out_len >= blobs && memcmp(out, data, blobs) == 0);
    expect(floe_puffin_read(out, out_len, &again, err, sizeof(err)) == 0 && again.n_blobs == p->n_blobs);
    for (size_t i = 0; i < again.n_blobs; i++)
        expect(again.blobs[i].offset == p->blobs[i].offset && again.blobs[i].length == p->blobs[i].length);
    if (again.n_blobs > 0)
        expect(strcmp(floe_puffin_blob_property(&again.blobs[0], "referenced-data-file"),
                      "s3://replica/data/a.parquet") == 0);
    floe_puffin_dispose(&again);
    free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    floe_puffin_t p;
    char err[256] = "";

    decode_vector(data, size);
    if (floe_puffin_read(data, size, &p, err, sizeof(err)) != 0) {
        expect(err[0] != '\0' && p.root == NULL && p.blobs == NULL);
        return 0;
    }
    for (size_t i = 0; i < p.n_blobs; i++) {
        const floe_puffin_blob_t *b = &p.blobs[i];
        const uint8_t *bytes;
        size_t n;
        expect(b->offset >= 4 && b->length >= 0 && (uint64_t)(b->offset + b->length) <= size - (size_t)p.footer_size);
        if (floe_puffin_blob_bytes(data, b, &bytes, &n, err, sizeof(err)) == 0)
            decode_vector(bytes, n);
        (void)floe_puffin_find(&p, b->type, "s3://b/t/data/a.parquet");
    }
    write_again(data, size, &p);
    floe_puffin_dispose(&p);
    return 0;
}

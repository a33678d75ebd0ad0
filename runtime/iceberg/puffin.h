/*
 * Puffin files (Iceberg's Puffin spec): the footer's FileMetadata and each blob's bytes, read from
 * a whole file held in memory. Pure: bytes in, structures out; the caller fetches the file.
 *
 * Layout: Magic Blob* Footer, where Footer is Magic FooterPayload FooterPayloadSize Flags Magic;
 * Magic is "PFA1"; FooterPayloadSize is a 4-byte little-endian length; Flags are 4 bytes, bit 0 of
 * the first meaning the payload is LZ4-compressed. The payload is UTF-8 JSON:
 * {"blobs": [BlobMetadata...], "properties": {...}}, BlobMetadata being {type, fields,
 * snapshot-id, sequence-number, offset, length, compression-codec?, properties?}.
 *
 * Refused, with a reason: a missing magic at either end, a payload size past the file, a
 * compressed footer (Floe has no LZ4), JSON that is not FileMetadata, a blob whose offset and
 * length leave the area between the header magic and the footer. Compressed blobs are listed but
 * floe_puffin_blob_bytes refuses them (deletion vectors are never compressed).
 *
 * Writing is only a footer written again (floe_puffin_write): replication gives a replica its own
 * copy of a deletion-vector file whose blobs name the replica's data files. The blobs stay where
 * they are, since the footer follows them, so every offset (and a manifest's content_offset) holds.
 *
 * Not for deletion-vector contents (deletion_vector.h) nor for writing statistics files.
 */
#ifndef FLOE_ICEBERG_PUFFIN_H
#define FLOE_ICEBERG_PUFFIN_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

/** "PFA1" */
#define FLOE_PUFFIN_MAGIC_LEN 4
/** The blob type of a v3 deletion vector. */
#define FLOE_PUFFIN_DELETION_VECTOR "deletion-vector-v1"

typedef struct floe_puffin_blob {
    const char *type;              /* points into the footer JSON */
    int64_t snapshot_id;           /* -1 for deletion vectors, as the spec says */
    int64_t sequence_number;       /* -1 likewise */
    int64_t offset;                /* from the start of the file */
    int64_t length;                /* bytes */
    const char *compression_codec; /* NULL when the blob is stored as is */
    const cJSON *fields;           /* array of field ids */
    const cJSON *properties;       /* object of strings, or NULL */
} floe_puffin_blob_t;

typedef struct floe_puffin {
    floe_puffin_blob_t *blobs;
    size_t n_blobs;
    const cJSON *properties; /* the file's, or NULL */
    int64_t footer_size;     /* whole footer, both magics included */
    cJSON *root;             /* the footer JSON, owned */
} floe_puffin_t;

/**
 * Reads the footer of the Puffin file `file` (`len` bytes). Returns 0 with *out filled (release
 * with floe_puffin_dispose), or -1 with a reason in err (err_size bytes) and *out zeroed.
 */
int floe_puffin_read(const uint8_t *file, size_t len, floe_puffin_t *out /* OUT */, char *err, size_t err_size);

/** Frees what p owns and zeroes it; safe on a zeroed p. */
void floe_puffin_dispose(floe_puffin_t *p);

/** The first blob whose properties say "referenced-data-file" = data_file, of type `type`; NULL
 * when none. */
const floe_puffin_blob_t *floe_puffin_find(const floe_puffin_t *p, const char *type, const char *data_file);

/** A blob property's string value, or NULL. */
const char *floe_puffin_blob_property(const floe_puffin_blob_t *b, const char *key);

/**
 * The bytes of blob b inside `file` (the same bytes floe_puffin_read read): 0 with *data and *n
 * pointing into file, or -1 with a reason when the blob is compressed.
 */
int floe_puffin_blob_bytes(const uint8_t *file, const floe_puffin_blob_t *b, const uint8_t **data /* OUT */,
                           size_t *n /* OUT */, char *err, size_t err_size);

/**
 * Sets blob i's string property `key` to `value` in p's footer JSON, replacing it in place or
 * adding it (and the blob's properties object when it has none). p->blobs[i].properties follows.
 */
void floe_puffin_set_blob_property(floe_puffin_t *p, size_t i, const char *key, const char *value);

/**
 * The file `file` (`len` bytes, whose footer floe_puffin_read read into p) with the footer written
 * again from p->root: the bytes before the old footer (the header magic and the blobs) unchanged,
 * then the magic, p->root as compact JSON, its length, flags 0 (not compressed) and the magic.
 * Returns 0 with *out malloc'ed (the caller frees it) and *out_len its length, or -1 with a reason
 * when the JSON is longer than a footer can say.
 */
int floe_puffin_write(const uint8_t *file, size_t len, const floe_puffin_t *p, uint8_t **out /* OUT */,
                      size_t *out_len /* OUT */, char *err, size_t err_size);

#endif

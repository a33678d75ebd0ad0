/*
 * The Puffin footer reader and writer of puffin.h. Every length read from the file is checked
 * against the bytes actually there before it is used, so a truncated or hostile file is refused,
 * never read past.
 */
#include <assert.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "iceberg/iceberg_json.h"
#include "iceberg/puffin.h"

#define FOOTER_TAIL (4 + 4 + FLOE_PUFFIN_MAGIC_LEN) /* payload size, flags, magic */
#define FLAG_COMPRESSED 0x01

static const uint8_t magic[FLOE_PUFFIN_MAGIC_LEN] = {'P', 'F', 'A', '1'};

static int fail(char *err, size_t err_size, const char *fmt, ...)
{
    va_list ap;
    if (err != NULL && err_size > 0) {
        int n = snprintf(err, err_size, "puffin: ");
        va_start(ap, fmt);
        if (n > 0 && (size_t)n < err_size)
            vsnprintf(err + n, err_size - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* One BlobMetadata: required members present and typed, the bytes inside the blob area. */
static int read_blob(const cJSON *j, int64_t area_end, floe_puffin_blob_t *b, char *err, size_t err_size)
{
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(j, "type");
    const cJSON *codec = cJSON_GetObjectItemCaseSensitive(j, "compression-codec");
    const cJSON *props = cJSON_GetObjectItemCaseSensitive(j, "properties");
    int64_t v;

    if (!cJSON_IsObject(j) || !cJSON_IsString(type))
        return fail(err, err_size, "every blob needs a string 'type'.");
    b->type = type->valuestring;
    b->fields = cJSON_GetObjectItemCaseSensitive(j, "fields");
    if (!cJSON_IsArray(b->fields))
        return fail(err, err_size, "blob '%s' needs a 'fields' array.", b->type);
    for (const cJSON *f = b->fields->child; f != NULL; f = f->next) {
        if (floe_iceberg_json_int64(f, &v) != 0)
            return fail(err, err_size, "blob '%s': 'fields' must hold integers.", b->type);
    }
    if (floe_iceberg_json_int64(cJSON_GetObjectItemCaseSensitive(j, "offset"), &b->offset) != 0 ||
        floe_iceberg_json_int64(cJSON_GetObjectItemCaseSensitive(j, "length"), &b->length) != 0 ||
        floe_iceberg_json_int64(cJSON_GetObjectItemCaseSensitive(j, "snapshot-id"), &b->snapshot_id) != 0 ||
        floe_iceberg_json_int64(cJSON_GetObjectItemCaseSensitive(j, "sequence-number"), &b->sequence_number) != 0)
        return fail(err, err_size, "blob '%s' needs integer offset, length, snapshot-id and sequence-number.",
                    b->type);
    if (b->offset < FLOE_PUFFIN_MAGIC_LEN || b->length < 0 || b->offset > area_end ||
        b->length > area_end - b->offset)
        return fail(err, err_size, "blob '%s' at offset %" PRId64 " length %" PRId64 " lies outside the file.",
                    b->type, b->offset, b->length);
    if (codec != NULL && !cJSON_IsNull(codec) && !cJSON_IsString(codec))
        return fail(err, err_size, "blob '%s': 'compression-codec' must be a string.", b->type);
    b->compression_codec = cJSON_IsString(codec) ? codec->valuestring : NULL;
    if (props != NULL && !cJSON_IsNull(props) && !cJSON_IsObject(props))
        return fail(err, err_size, "blob '%s': 'properties' must be an object.", b->type);
    b->properties = cJSON_IsObject(props) ? props : NULL;
    return 0;
}

static int read_metadata(floe_puffin_t *p, int64_t area_end, char *err, size_t err_size)
{
    const cJSON *blobs = cJSON_GetObjectItemCaseSensitive(p->root, "blobs");
    const cJSON *props = cJSON_GetObjectItemCaseSensitive(p->root, "properties");
    size_t i = 0;

    if (!cJSON_IsObject(p->root) || !cJSON_IsArray(blobs))
        return fail(err, err_size, "the footer is not FileMetadata: it needs a 'blobs' array.");
    if (props != NULL && !cJSON_IsNull(props) && !cJSON_IsObject(props))
        return fail(err, err_size, "the footer's 'properties' must be an object.");
    p->properties = cJSON_IsObject(props) ? props : NULL;
    p->n_blobs = (size_t)cJSON_GetArraySize(blobs);
    p->blobs = floe_xcalloc(p->n_blobs + 1, sizeof(*p->blobs));
    for (const cJSON *b = blobs->child; b != NULL; b = b->next, i++) {
        if (read_blob(b, area_end, &p->blobs[i], err, err_size) != 0)
            return -1;
    }
    return 0;
}

int floe_puffin_read(const uint8_t *file, size_t len, floe_puffin_t *out, char *err, size_t err_size)
{
    floe_iceberg_error_t jerr;
    const uint8_t *tail;
    uint32_t payload_size;
    size_t footer_size;

    memset(out, 0, sizeof(*out));
    if (len < FLOE_PUFFIN_MAGIC_LEN + FLOE_PUFFIN_MAGIC_LEN + FOOTER_TAIL || memcmp(file, magic, sizeof(magic)) != 0)
        return fail(err, err_size, "the file does not start with the magic PFA1.");
    tail = file + len - FOOTER_TAIL;
    if (memcmp(tail + 8, magic, sizeof(magic)) != 0)
        return fail(err, err_size, "the file does not end with the magic PFA1.");
    payload_size = le32(tail);
    if ((tail[4] & FLAG_COMPRESSED) != 0)
        return fail(err, err_size, "the footer payload is LZ4-compressed, which Floe does not read.");
    /* the header magic, then (blobs), then the footer's own magic, payload and tail */
    if (payload_size > len - 2 * FLOE_PUFFIN_MAGIC_LEN - FOOTER_TAIL)
        return fail(err, err_size, "the footer payload size %" PRIu32 " exceeds the file.", payload_size);
    footer_size = FLOE_PUFFIN_MAGIC_LEN + payload_size + FOOTER_TAIL;
    if (memcmp(file + len - footer_size, magic, sizeof(magic)) != 0)
        return fail(err, err_size, "the footer does not start with the magic PFA1.");
    out->footer_size = (int64_t)footer_size;
    out->root = floe_iceberg_json_parse((const char *)file + len - footer_size + FLOE_PUFFIN_MAGIC_LEN, payload_size,
                                        &jerr);
    if (out->root == NULL)
        return fail(err, err_size, "the footer is not JSON: %s", jerr.message);
    if (read_metadata(out, (int64_t)(len - footer_size), err, err_size) != 0) {
        floe_puffin_dispose(out);
        return -1;
    }
    return 0;
}

void floe_puffin_dispose(floe_puffin_t *p)
{
    free(p->blobs);
    cJSON_Delete(p->root);
    memset(p, 0, sizeof(*p));
}

const char *floe_puffin_blob_property(const floe_puffin_blob_t *b, const char *key)
{
    const cJSON *v = b->properties != NULL ? cJSON_GetObjectItemCaseSensitive(b->properties, key) : NULL;
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

const floe_puffin_blob_t *floe_puffin_find(const floe_puffin_t *p, const char *type, const char *data_file)
{
    for (size_t i = 0; i < p->n_blobs; i++) {
        const char *ref = floe_puffin_blob_property(&p->blobs[i], "referenced-data-file");
        if (strcmp(p->blobs[i].type, type) == 0 && ref != NULL && strcmp(ref, data_file) == 0)
            return &p->blobs[i];
    }
    return NULL;
}

int floe_puffin_blob_bytes(const uint8_t *file, const floe_puffin_blob_t *b, const uint8_t **data, size_t *n,
                           char *err, size_t err_size)
{
    if (b->compression_codec != NULL)
        return fail(err, err_size, "blob '%s' is compressed with %s, which Floe does not read.", b->type,
                    b->compression_codec);
    *data = file + b->offset;
    *n = (size_t)b->length;
    return 0;
}

void floe_puffin_set_blob_property(floe_puffin_t *p, size_t i, const char *key, const char *value)
{
    cJSON *blob = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(p->root, "blobs"), (int)i);
    cJSON *props = cJSON_GetObjectItemCaseSensitive(blob, "properties");

    assert(i < p->n_blobs && cJSON_IsObject(blob)); /* floe_puffin_read checked every blob */
    if (!cJSON_IsObject(props)) {
        props = cJSON_CreateObject();
        floe_iceberg_json_set(blob, "properties", props);
    }
    floe_iceberg_json_set(props, key, cJSON_CreateString(value));
    p->blobs[i].properties = props;
}

static void put_le32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16), p[3] = (uint8_t)(v >> 24);
}

int floe_puffin_write(const uint8_t *file, size_t len, const floe_puffin_t *p, uint8_t **out, size_t *out_len,
                      char *err, size_t err_size)
{
    size_t blobs = len - (size_t)p->footer_size, json_len, n;
    char *json;
    uint8_t *o;

    assert(p->root != NULL && p->footer_size > 0 && (size_t)p->footer_size <= len);
    json = floe_iceberg_json_print(p->root); /* integers exact, as floe_iceberg_json_parse read them */
    if (json == NULL)
        return fail(err, err_size, "the footer could not be written.");
    json_len = strlen(json);
    if (json_len > UINT32_MAX - FLOE_PUFFIN_MAGIC_LEN - FOOTER_TAIL) {
        free(json);
        return fail(err, err_size, "the footer is longer than a Puffin footer can be.");
    }
    n = blobs + FLOE_PUFFIN_MAGIC_LEN + json_len + FOOTER_TAIL;
    o = floe_xmalloc(n);
    memcpy(o, file, blobs);
    memcpy(o + blobs, magic, sizeof(magic));
    memcpy(o + blobs + FLOE_PUFFIN_MAGIC_LEN, json, json_len);
    put_le32(o + n - FOOTER_TAIL, (uint32_t)json_len);
    put_le32(o + n - FOOTER_TAIL + 4, 0); /* flags: the payload is not compressed */
    memcpy(o + n - FLOE_PUFFIN_MAGIC_LEN, magic, sizeof(magic));
    free(json);
    *out = o;
    *out_len = n;
    return 0;
}

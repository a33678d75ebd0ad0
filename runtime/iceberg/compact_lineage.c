/*
 * The row lineage columns compaction appends to a v3 table's new files (compact_lineage.h).
 */
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "iceberg/compact_lineage.h"
#include "iceberg/parquet_arena.h"
#include "iceberg/parquet_thrift.h"

/* parquet.thrift: PageType DATA_PAGE, Encoding PLAIN and RLE. */
#define PAGE_DATA 0
#define ENCODING_PLAIN 0
#define ENCODING_RLE 3
#define INT64_BYTES 8

static const char *const names[FLOE_COMPACT_LINEAGE_COLUMNS] = {"_row_id", "_last_updated_sequence_number"};
static const int32_t field_ids[FLOE_COMPACT_LINEAGE_COLUMNS] = {FLOE_ICEBERG_ROW_ID_FIELD_ID,
                                                                FLOE_ICEBERG_LAST_UPDATED_FIELD_ID};

static void put_i32_field(floe_parquet_thrift_writer_t *w, int16_t id, int32_t v)
{
    floe_parquet_thrift_write_field(w, id, FLOE_THRIFT_I32);
    floe_parquet_thrift_write_i32(w, v);
}

uint8_t *floe_compact_lineage_chunk(int64_t first, int64_t step, const uint64_t *offsets, int64_t n, size_t *len)
{
    floe_parquet_thrift_writer_t w;
    size_t data_len = (size_t)n * INT64_BYTES;
    uint8_t *values = floe_xmalloc(data_len), *header, *out;
    size_t header_len;

    for (int64_t i = 0; i < n; i++) {
        uint64_t v = offsets != NULL ? (uint64_t)first + offsets[i] : (uint64_t)(first + step * i);
        for (int b = 0; b < INT64_BYTES; b++)
            values[(size_t)i * INT64_BYTES + (size_t)b] = (uint8_t)(v >> (8 * b)); /* PLAIN: little-endian */
    }
    floe_parquet_thrift_writer_init(&w);
    floe_parquet_thrift_struct_begin(&w); /* PageHeader */
    put_i32_field(&w, 1, PAGE_DATA);
    put_i32_field(&w, 2, (int32_t)data_len);
    put_i32_field(&w, 3, (int32_t)data_len);
    floe_parquet_thrift_write_field(&w, 5, FLOE_THRIFT_STRUCT);
    floe_parquet_thrift_struct_begin(&w); /* DataPageHeader */
    put_i32_field(&w, 1, (int32_t)n);
    put_i32_field(&w, 2, ENCODING_PLAIN);
    put_i32_field(&w, 3, ENCODING_RLE);
    put_i32_field(&w, 4, ENCODING_RLE);
    floe_parquet_thrift_struct_end(&w);
    floe_parquet_thrift_struct_end(&w);
    header = floe_parquet_thrift_writer_take(&w, &header_len);
    out = floe_xmalloc(header_len + data_len);
    memcpy(out, header, header_len);
    memcpy(out + header_len, values, data_len);
    free(header);
    free(values);
    *len = header_len + data_len;
    return out;
}

static void *must_alloc(floe_parquet_arena_t *arena, size_t n, size_t size)
{
    void *p = floe_parquet_arena_alloc(arena, n == 0 ? 1 : n, size);

    if (p == NULL)
        abort(); /* the stitched footer's arena has no limit: only an overflow fails */
    return p;
}

static floe_parquet_bytes_t arena_bytes(floe_parquet_arena_t *arena, const void *data, size_t len)
{
    uint8_t *p = must_alloc(arena, len + 1, 1);

    memcpy(p, data, len);
    return (floe_parquet_bytes_t){p, (uint32_t)len};
}

static floe_parquet_bytes_t le64(floe_parquet_arena_t *arena, int64_t v)
{
    uint8_t b[INT64_BYTES];

    for (int i = 0; i < INT64_BYTES; i++)
        b[i] = (uint8_t)((uint64_t)v >> (8 * i));
    return arena_bytes(arena, b, sizeof(b));
}

static int find_leaf(const floe_parquet_file_metadata_t *md, int32_t field_id)
{
    for (uint32_t i = 0; i < md->n_leaves; i++) {
        const floe_parquet_schema_element_t *el = floe_parquet_leaf_element(md, i);
        if (el->has_field_id && el->field_id == field_id)
            return (int)i;
    }
    return -1;
}

static void add_schema(floe_parquet_file_metadata_t *md)
{
    floe_parquet_schema_element_t *schema = must_alloc(md->arena, md->n_schema + FLOE_COMPACT_LINEAGE_COLUMNS,
                                                       sizeof(*schema));

    memcpy(schema, md->schema, md->n_schema * sizeof(*schema));
    schema[0].num_children += FLOE_COMPACT_LINEAGE_COLUMNS;
    for (int c = 0; c < FLOE_COMPACT_LINEAGE_COLUMNS; c++) {
        floe_parquet_schema_element_t *el = &schema[md->n_schema + (uint32_t)c];
        memset(el, 0, sizeof(*el));
        el->has_type = true;
        el->type = FLOE_PARQUET_INT64;
        el->has_repetition_type = true;
        el->repetition_type = FLOE_PARQUET_REQUIRED;
        el->name = arena_bytes(md->arena, names[c], strlen(names[c]));
        el->has_field_id = true;
        el->field_id = field_ids[c];
    }
    md->schema = schema;
    md->n_schema += FLOE_COMPACT_LINEAGE_COLUMNS;
    if (md->has_column_orders) {
        /* TYPE_ORDER: the union's field 1, an empty struct (design note 2) */
        static const uint8_t type_order[] = {0x1C, 0x00, 0x00};
        floe_parquet_column_order_t *orders =
            must_alloc(md->arena, md->n_column_orders + FLOE_COMPACT_LINEAGE_COLUMNS, sizeof(*orders));
        memcpy(orders, md->column_orders, md->n_column_orders * sizeof(*orders));
        for (int c = 0; c < FLOE_COMPACT_LINEAGE_COLUMNS; c++)
            orders[md->n_column_orders + (uint32_t)c] =
                (floe_parquet_column_order_t){FLOE_PARQUET_TYPE_ORDER, arena_bytes(md->arena, type_order, sizeof(type_order))};
        md->column_orders = orders;
        md->n_column_orders += FLOE_COMPACT_LINEAGE_COLUMNS;
    }
}

static void fill_chunk(floe_parquet_arena_t *arena, floe_parquet_column_chunk_t *cc, int c,
                       const floe_compact_lineage_chunk_t *in)
{
    floe_parquet_column_meta_data_t *m = &cc->meta_data;

    memset(cc, 0, sizeof(*cc));
    cc->file_offset = (int64_t)in->offset;
    m->type = FLOE_PARQUET_INT64;
    m->encodings = must_alloc(arena, 2, sizeof(*m->encodings));
    m->encodings[0] = ENCODING_PLAIN;
    m->encodings[1] = ENCODING_RLE;
    m->n_encodings = 2;
    m->path_in_schema = must_alloc(arena, 1, sizeof(*m->path_in_schema));
    m->path_in_schema[0] = arena_bytes(arena, names[c], strlen(names[c]));
    m->n_path_in_schema = 1;
    m->codec = FLOE_PARQUET_UNCOMPRESSED;
    m->num_values = in->n_values;
    m->total_uncompressed_size = (int64_t)in->length;
    m->total_compressed_size = (int64_t)in->length;
    m->data_page_offset = (int64_t)in->offset;
    m->has_statistics = true;
    m->statistics.has_null_count = true;
    m->statistics.null_count = 0;
    m->statistics.has_min_value = m->statistics.has_max_value = true;
    m->statistics.min_value = le64(arena, in->min);
    m->statistics.max_value = le64(arena, in->max);
}

int floe_compact_lineage_add(floe_parquet_file_metadata_t *md, const floe_compact_lineage_chunk_t *chunks,
                             floe_iceberg_error_t *err)
{
    if (find_leaf(md, FLOE_ICEBERG_ROW_ID_FIELD_ID) >= 0 || find_leaf(md, FLOE_ICEBERG_LAST_UPDATED_FIELD_ID) >= 0)
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "The file already has row lineage columns.");
    add_schema(md);
    for (uint32_t r = 0; r < md->n_row_groups; r++) {
        floe_parquet_row_group_t *rg = &md->row_groups[r];
        floe_parquet_column_chunk_t *cols = must_alloc(md->arena, rg->n_columns + FLOE_COMPACT_LINEAGE_COLUMNS,
                                                       sizeof(*cols));
        memcpy(cols, rg->columns, rg->n_columns * sizeof(*cols));
        for (int c = 0; c < FLOE_COMPACT_LINEAGE_COLUMNS; c++) {
            const floe_compact_lineage_chunk_t *in = &chunks[(size_t)r * FLOE_COMPACT_LINEAGE_COLUMNS + (size_t)c];
            fill_chunk(md->arena, &cols[rg->n_columns + (uint32_t)c], c, in);
            rg->total_byte_size += (int64_t)in->length;
            if (rg->has_total_compressed_size)
                rg->total_compressed_size += (int64_t)in->length;
        }
        rg->columns = cols;
        rg->n_columns += FLOE_COMPACT_LINEAGE_COLUMNS;
    }
    return FLOE_ICEBERG_OK;
}

void floe_compact_lineage_inspect(const floe_parquet_file_metadata_t *md, bool *has_both, bool *is_complete)
{
    int leaves[FLOE_COMPACT_LINEAGE_COLUMNS] = {find_leaf(md, FLOE_ICEBERG_ROW_ID_FIELD_ID),
                                                find_leaf(md, FLOE_ICEBERG_LAST_UPDATED_FIELD_ID)};

    *has_both = leaves[0] >= 0 && leaves[1] >= 0;
    *is_complete = *has_both;
    for (uint32_t r = 0; r < md->n_row_groups && *is_complete; r++) {
        for (int c = 0; c < FLOE_COMPACT_LINEAGE_COLUMNS; c++) {
            const floe_parquet_column_chunk_t *cc;
            if ((uint32_t)leaves[c] >= md->row_groups[r].n_columns) {
                *is_complete = false;
                break;
            }
            cc = &md->row_groups[r].columns[leaves[c]];
            if (!cc->meta_data.has_statistics || !cc->meta_data.statistics.has_null_count ||
                cc->meta_data.statistics.null_count != 0)
                *is_complete = false;
        }
    }
}

bool floe_compact_lineage_has_any(const floe_parquet_file_metadata_t *md)
{
    return find_leaf(md, FLOE_ICEBERG_ROW_ID_FIELD_ID) >= 0 || find_leaf(md, FLOE_ICEBERG_LAST_UPDATED_FIELD_ID) >= 0;
}

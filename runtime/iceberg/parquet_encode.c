/*
 * The footer writer of parquet_encode.h: one function per struct, each writing its fields in id
 * order. A struct's unknown fields (sorted by id, parquet_footer.h design note 3) are written
 * just before the first modelled field with a higher id, so the whole struct is in id order.
 */
#include <string.h>

#include "base/xalloc.h"
#include "iceberg/parquet_encode.h"
#include "iceberg/parquet_thrift.h"

typedef floe_parquet_thrift_writer_t writer_t;

/* A struct being written: its unknown fields not yet written. */
typedef struct pending {
    const floe_parquet_extra_t *extra;
    uint32_t next;
} pending_t;

static void flush_below(writer_t *w, pending_t *x, int32_t id)
{
    for (; x->next < x->extra->n_fields && x->extra->fields[x->next].id < id; x->next++) {
        const floe_parquet_field_t *f = &x->extra->fields[x->next];
        floe_parquet_thrift_write_field(w, f->id, f->type);
        floe_parquet_thrift_write_bytes(w, f->value.data, f->value.len);
    }
}

static pending_t begin(writer_t *w, const floe_parquet_extra_t *extra)
{
    floe_parquet_thrift_struct_begin(w);
    return (pending_t){extra, 0};
}

static void end(writer_t *w, pending_t *x)
{
    flush_below(w, x, INT32_MAX);
    floe_parquet_thrift_struct_end(w);
}

static void field(writer_t *w, pending_t *x, int16_t id, uint8_t type)
{
    flush_below(w, x, id);
    floe_parquet_thrift_write_field(w, id, type);
}

static void put_i32(writer_t *w, pending_t *x, int16_t id, int32_t v)
{
    field(w, x, id, FLOE_THRIFT_I32);
    floe_parquet_thrift_write_i32(w, v);
}

static void put_i64(writer_t *w, pending_t *x, int16_t id, int64_t v)
{
    field(w, x, id, FLOE_THRIFT_I64);
    floe_parquet_thrift_write_i64(w, v);
}

static void put_i16(writer_t *w, pending_t *x, int16_t id, int16_t v)
{
    field(w, x, id, FLOE_THRIFT_I16);
    floe_parquet_thrift_write_i32(w, v);
}

static void put_bool(writer_t *w, pending_t *x, int16_t id, bool v)
{
    flush_below(w, x, id);
    floe_parquet_thrift_write_bool_field(w, id, v);
}

static void put_bytes(writer_t *w, pending_t *x, int16_t id, floe_parquet_bytes_t v)
{
    field(w, x, id, FLOE_THRIFT_BINARY);
    floe_parquet_thrift_write_binary(w, v.data, v.len);
}

/* A struct kept as its encoded bytes (a union). */
static void put_encoded(writer_t *w, pending_t *x, int16_t id, floe_parquet_bytes_t v)
{
    field(w, x, id, FLOE_THRIFT_STRUCT);
    floe_parquet_thrift_write_bytes(w, v.data, v.len);
}

static void put_list(writer_t *w, pending_t *x, int16_t id, uint8_t elem_type, uint32_t n)
{
    field(w, x, id, FLOE_THRIFT_LIST);
    floe_parquet_thrift_write_list(w, elem_type, n);
}

static void put_key_values(writer_t *w, pending_t *x, int16_t id, const floe_parquet_key_value_t *kvs, uint32_t n)
{
    put_list(w, x, id, FLOE_THRIFT_STRUCT, n);
    for (uint32_t i = 0; i < n; i++) {
        pending_t y = begin(w, &kvs[i].extra);
        put_bytes(w, &y, 1, kvs[i].key);
        if (kvs[i].has_value)
            put_bytes(w, &y, 2, kvs[i].value);
        end(w, &y);
    }
}

static void put_schema_element(writer_t *w, const floe_parquet_schema_element_t *el)
{
    pending_t x = begin(w, &el->extra);

    if (el->has_type)
        put_i32(w, &x, 1, el->type);
    if (el->has_type_length)
        put_i32(w, &x, 2, el->type_length);
    if (el->has_repetition_type)
        put_i32(w, &x, 3, el->repetition_type);
    put_bytes(w, &x, 4, el->name);
    if (el->has_num_children)
        put_i32(w, &x, 5, el->num_children);
    if (el->has_converted_type)
        put_i32(w, &x, 6, el->converted_type);
    if (el->has_scale)
        put_i32(w, &x, 7, el->scale);
    if (el->has_precision)
        put_i32(w, &x, 8, el->precision);
    if (el->has_field_id)
        put_i32(w, &x, 9, el->field_id);
    if (el->has_logical_type)
        put_encoded(w, &x, 10, el->logical_type.encoded);
    end(w, &x);
}

static void put_statistics(writer_t *w, pending_t *x, int16_t id, const floe_parquet_statistics_t *st)
{
    pending_t y;

    field(w, x, id, FLOE_THRIFT_STRUCT);
    y = begin(w, &st->extra);
    if (st->has_max)
        put_bytes(w, &y, 1, st->max);
    if (st->has_min)
        put_bytes(w, &y, 2, st->min);
    if (st->has_null_count)
        put_i64(w, &y, 3, st->null_count);
    if (st->has_distinct_count)
        put_i64(w, &y, 4, st->distinct_count);
    if (st->has_max_value)
        put_bytes(w, &y, 5, st->max_value);
    if (st->has_min_value)
        put_bytes(w, &y, 6, st->min_value);
    if (st->has_is_max_value_exact)
        put_bool(w, &y, 7, st->is_max_value_exact);
    if (st->has_is_min_value_exact)
        put_bool(w, &y, 8, st->is_min_value_exact);
    if (st->has_nan_count)
        put_i64(w, &y, 9, st->nan_count);
    end(w, &y);
}

static void put_encoding_stats(writer_t *w, pending_t *x, const floe_parquet_column_meta_data_t *m)
{
    put_list(w, x, 13, FLOE_THRIFT_STRUCT, m->n_encoding_stats);
    for (uint32_t i = 0; i < m->n_encoding_stats; i++) {
        const floe_parquet_page_encoding_stats_t *es = &m->encoding_stats[i];
        pending_t y = begin(w, &es->extra);
        put_i32(w, &y, 1, es->page_type);
        put_i32(w, &y, 2, es->encoding);
        put_i32(w, &y, 3, es->count);
        end(w, &y);
    }
}

/* ColumnMetaData fields 1 to 8. */
static void put_meta_data_head(writer_t *w, pending_t *x, const floe_parquet_column_meta_data_t *m)
{
    put_i32(w, x, 1, m->type);
    put_list(w, x, 2, FLOE_THRIFT_I32, m->n_encodings);
    for (uint32_t i = 0; i < m->n_encodings; i++)
        floe_parquet_thrift_write_i32(w, m->encodings[i]);
    put_list(w, x, 3, FLOE_THRIFT_BINARY, m->n_path_in_schema);
    for (uint32_t i = 0; i < m->n_path_in_schema; i++)
        floe_parquet_thrift_write_binary(w, m->path_in_schema[i].data, m->path_in_schema[i].len);
    put_i32(w, x, 4, m->codec);
    put_i64(w, x, 5, m->num_values);
    put_i64(w, x, 6, m->total_uncompressed_size);
    put_i64(w, x, 7, m->total_compressed_size);
    if (m->has_key_value_metadata)
        put_key_values(w, x, 8, m->key_value_metadata, m->n_key_value_metadata);
}

static void put_meta_data(writer_t *w, pending_t *x, const floe_parquet_column_meta_data_t *m)
{
    pending_t y;

    field(w, x, 3, FLOE_THRIFT_STRUCT);
    y = begin(w, &m->extra);
    put_meta_data_head(w, &y, m);
    put_i64(w, &y, 9, m->data_page_offset);
    if (m->has_index_page_offset)
        put_i64(w, &y, 10, m->index_page_offset);
    if (m->has_dictionary_page_offset)
        put_i64(w, &y, 11, m->dictionary_page_offset);
    if (m->has_statistics)
        put_statistics(w, &y, 12, &m->statistics);
    if (m->has_encoding_stats)
        put_encoding_stats(w, &y, m);
    if (m->has_bloom_filter_offset)
        put_i64(w, &y, 14, m->bloom_filter_offset);
    if (m->has_bloom_filter_length)
        put_i32(w, &y, 15, m->bloom_filter_length);
    end(w, &y);
}

static void put_column_chunk(writer_t *w, const floe_parquet_column_chunk_t *c)
{
    pending_t x = begin(w, &c->extra);

    if (c->has_file_path)
        put_bytes(w, &x, 1, c->file_path);
    put_i64(w, &x, 2, c->file_offset);
    put_meta_data(w, &x, &c->meta_data);
    if (c->has_offset_index_offset)
        put_i64(w, &x, 4, c->offset_index_offset);
    if (c->has_offset_index_length)
        put_i32(w, &x, 5, c->offset_index_length);
    if (c->has_column_index_offset)
        put_i64(w, &x, 6, c->column_index_offset);
    if (c->has_column_index_length)
        put_i32(w, &x, 7, c->column_index_length);
    end(w, &x);
}

static void put_sorting_columns(writer_t *w, pending_t *x, const floe_parquet_row_group_t *rg)
{
    put_list(w, x, 4, FLOE_THRIFT_STRUCT, rg->n_sorting_columns);
    for (uint32_t i = 0; i < rg->n_sorting_columns; i++) {
        const floe_parquet_sorting_column_t *sc = &rg->sorting_columns[i];
        pending_t y = begin(w, &sc->extra);
        put_i32(w, &y, 1, sc->column_idx);
        put_bool(w, &y, 2, sc->descending);
        put_bool(w, &y, 3, sc->nulls_first);
        end(w, &y);
    }
}

static void put_row_group(writer_t *w, const floe_parquet_row_group_t *rg)
{
    pending_t x = begin(w, &rg->extra);

    put_list(w, &x, 1, FLOE_THRIFT_STRUCT, rg->n_columns);
    for (uint32_t i = 0; i < rg->n_columns; i++)
        put_column_chunk(w, &rg->columns[i]);
    put_i64(w, &x, 2, rg->total_byte_size);
    put_i64(w, &x, 3, rg->num_rows);
    if (rg->has_sorting_columns)
        put_sorting_columns(w, &x, rg);
    if (rg->has_file_offset)
        put_i64(w, &x, 5, rg->file_offset);
    if (rg->has_total_compressed_size)
        put_i64(w, &x, 6, rg->total_compressed_size);
    if (rg->has_ordinal)
        put_i16(w, &x, 7, rg->ordinal);
    end(w, &x);
}

static void put_file_metadata(writer_t *w, const floe_parquet_file_metadata_t *md)
{
    pending_t x = begin(w, &md->extra);

    put_i32(w, &x, 1, md->version);
    put_list(w, &x, 2, FLOE_THRIFT_STRUCT, md->n_schema);
    for (uint32_t i = 0; i < md->n_schema; i++)
        put_schema_element(w, &md->schema[i]);
    put_i64(w, &x, 3, md->num_rows);
    put_list(w, &x, 4, FLOE_THRIFT_STRUCT, md->n_row_groups);
    for (uint32_t i = 0; i < md->n_row_groups; i++)
        put_row_group(w, &md->row_groups[i]);
    if (md->has_key_value_metadata)
        put_key_values(w, &x, 5, md->key_value_metadata, md->n_key_value_metadata);
    if (md->has_created_by)
        put_bytes(w, &x, 6, md->created_by);
    if (md->has_column_orders) {
        put_list(w, &x, 7, FLOE_THRIFT_STRUCT, md->n_column_orders);
        for (uint32_t i = 0; i < md->n_column_orders; i++)
            floe_parquet_thrift_write_bytes(w, md->column_orders[i].encoded.data, md->column_orders[i].encoded.len);
    }
    end(w, &x);
}

uint8_t *floe_parquet_encode(const floe_parquet_file_metadata_t *md, size_t *len)
{
    writer_t w;

    floe_parquet_thrift_writer_init(&w);
    put_file_metadata(&w, md);
    return floe_parquet_thrift_writer_take(&w, len);
}

int floe_parquet_encode_footer(const floe_parquet_file_metadata_t *md, uint8_t **out, size_t *len,
                               floe_iceberg_error_t *err)
{
    writer_t w;
    uint8_t trailer[FLOE_PARQUET_TRAILER_LEN];
    size_t n;

    floe_parquet_thrift_writer_init(&w);
    put_file_metadata(&w, md);
    n = w.len;
    if (n > FLOE_PARQUET_FOOTER_MAX) {
        floe_parquet_thrift_writer_dispose(&w);
        return floe_iceberg_fail(err, FLOE_ICEBERG_EINVALID, "The Parquet footer would be %zu bytes, more than %u.",
                                 n, FLOE_PARQUET_FOOTER_MAX);
    }
    for (int i = 0; i < 4; i++)
        trailer[i] = (uint8_t)(n >> (8 * i));
    memcpy(trailer + 4, FLOE_PARQUET_MAGIC, FLOE_PARQUET_MAGIC_LEN);
    floe_parquet_thrift_write_bytes(&w, trailer, sizeof(trailer));
    *out = floe_parquet_thrift_writer_take(&w, len);
    return FLOE_ICEBERG_OK;
}
